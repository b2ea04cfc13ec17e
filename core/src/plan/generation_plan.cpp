#include "vram/plan/generation_plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/plan/solve.hpp"

namespace vram {

using nlohmann::json;
using generation::Role;

namespace {

GenerationSettings& gen_of(Scenario& s) {
  return std::get<GenerationSettings>(s.settings);
}

bool wan_runtime(const Scenario& s) {
  return s.pipeline->runtime == generation::Runtime::wan;
}

/// The largest size multiple of the height whose width, at the scenario's
/// ratio, stays within four times the longer side, the pipeline's native or the scenario's.
std::int64_t top_height_steps(const Scenario& s, const SizeSteps& steps) {
  const GenerationSettings& g = *s.generation();
  const std::int64_t longest = 4 * std::max({s.pipeline->width, s.pipeline->height, g.width, g.height});
  const double ratio = static_cast<double>(g.width) / static_cast<double>(std::max<std::int64_t>(1, g.height));
  const double top = static_cast<double>(longest) / std::max(1.0, ratio);
  return steps.height_index(static_cast<std::int64_t>(std::min(top, 1e15)));
}

/// The answer of one search, or nullopt where `lo` itself is refused for another reason.
GenerationAnswer answer(const Scenario& s, Setting setting, SearchRange range, WeightsMemo* memo) {
  return {search_fitting(s, setting, range, memo).value, range.hi};
}

void solve_geometry(const Scenario& s, GenerationPlan& p, WeightsMemo* memo) {
  const SizeSteps steps = size_steps(s);
  if (s.pipeline->max_area <= 0) {
    const std::int64_t top = top_height_steps(s, steps);
    GenerationAnswer a = answer(s, Setting::image_size, {1, top, false}, memo);
    Scenario t = s;
    apply_setting(t, Setting::image_size, top, s);
    p.limit_width = t.generation()->width;
    if (a.value) {
      apply_setting(t, Setting::image_size, *a.value, s);
      p.max_width = t.generation()->width;
      a.value = t.generation()->height;
    }
    a.limit = steps.height_at(a.limit);
    p.max_height = a;
  }
  if (s.pipeline->modality == generation::Modality::video) {
    const std::int64_t top = steps.frame_index(4 * s.pipeline->max_frames);
    GenerationAnswer a = answer(s, Setting::frames, {1, top, false}, memo);
    if (a.value) a.value = steps.frames_at(*a.value);
    a.limit = steps.frames_at(top);
    p.max_frames = a;
  }
  p.max_batch = answer(s, Setting::gen_batch, {1, 256, true}, memo);
}

/// Ulysses splits the heads over the GPUs (all-to-all): a count must divide them.
bool divides_heads(const Scenario& s, std::int64_t gpus) {
  const generation::Component* den = s.pipeline->first(Role::denoiser);
  return gpus == 1 || (den && den->config.heads > 0 && den->config.heads % gpus == 0);
}

/// The GPU counts the runtime can use: the Wan scripts split over 1, 2, 4 or 8; diffusers runs on one.
std::vector<std::int64_t> generation_gpu_counts(const Scenario& s) {
  if (!wan_runtime(s)) return {1};
  std::vector<std::int64_t> out;
  for (std::int64_t n = 1; n <= 8; n *= 2)
    if (divides_heads(s, n)) out.push_back(n);
  return out;
}

std::optional<std::pair<std::int64_t, Report>> fewest_fitting(const Scenario& s, WeightsMemo* memo) {
  for (std::int64_t n : generation_gpu_counts(s)) {
    if (auto r = figures_only(with_generation_gpus(s, n), memo); r && r->fits) return std::make_pair(n, *r);
  }
  return std::nullopt;
}

}  // namespace

Scenario with_explicit_geometry(const Scenario& s) {
  Scenario t = s;
  GenerationSettings& g = gen_of(t);
  const generation::Pipeline& p = *s.pipeline;
  if (g.width <= 0) g.width = p.width;
  if (g.height <= 0) g.height = p.height;
  if (p.modality == generation::Modality::video && g.frames <= 0) g.frames = p.frames;
  return t;
}

Scenario with_generation_gpus(const Scenario& s, std::int64_t gpus) {
  Scenario t = s;
  GenerationSettings& g = gen_of(t);
  t.gpu_count = gpus;
  if (wan_runtime(s)) {
    g.sequence_parallel = gpus;
    g.fsdp = gpus > 1;
    if (gpus > 1 && g.text_encoder == TextEncoderPlace::gpu) g.text_encoder = TextEncoderPlace::sharded;
    if (gpus == 1 && g.text_encoder == TextEncoderPlace::sharded) g.text_encoder = TextEncoderPlace::gpu;
  }
  t.parallel.context = g.sequence_parallel;
  t.parallel.data = std::max<std::int64_t>(1, gpus / g.sequence_parallel);
  return t;
}

json generation_gpus_patch(const Scenario& s, std::int64_t gpus) {
  json patch{{"hardware", {{"count", gpus}}}};
  if (!wan_runtime(s)) return patch;
  const Scenario t = with_generation_gpus(s, gpus);
  const GenerationSettings& g = *t.generation();
  patch["generation"] = {{"sequence_parallel", g.sequence_parallel},
                         {"fsdp", g.fsdp},
                         {"text_encoder", std::string(name_of(kTextEncoderPlaces, g.text_encoder))}};
  return patch;
}

namespace {

std::vector<GpuOption> generation_gpu_options(const Scenario& s, const Catalog& catalog, WeightsMemo* memo) {
  return catalog_gpu_options(s, catalog, [&](const Scenario& base) { return fewest_fitting(base, memo); });
}

Hint fewest_gpus_hint(const Scenario& s, std::int64_t gpus, WeightsMemo* memo) {
  const Report before = estimate(s, {false, memo});
  const Report after = estimate(with_generation_gpus(s, gpus), {false, memo});
  return Hint{"hardware.count = " + std::to_string(gpus),
              "the fewest GPUs of this model that fit, the tokens split by Ulysses and the weights by FSDP: " +
                  fit_effect(before, after),
              generation_gpus_patch(s, gpus)};
}

/// The scenario's own GPUs splitting the tokens and the weights, as the Wan reference scripts do.
Hint split_gpus_hint(const Scenario& s, WeightsMemo* memo) {
  const Report before = estimate(s, {false, memo});
  const Report after = estimate(with_generation_gpus(s, s.gpu_count), {false, memo});
  const std::string n = std::to_string(s.gpu_count);
  return Hint{"sequence_parallel = " + n + ", fsdp = true",
              "the " + n + " GPUs split the tokens (Ulysses) and the weights (FSDP), as the reference scripts' "
                          "--ulysses_size " + n + " --dit_fsdp --t5_fsdp do: " + fit_effect(before, after),
              generation_gpus_patch(s, s.gpu_count)};
}

}  // namespace

GenerationPlan generation_plan(const Scenario& given, const Catalog& catalog) {
  WeightsMemo memo;
  const Scenario s = with_explicit_geometry(given);
  GenerationPlan p;
  solve_geometry(s, p, &memo);
  p.more_gpus_divide = wan_runtime(s);
  if (const auto best = fewest_fitting(s, &memo)) p.fewest_gpus = best->first;
  p.hints = generation_switches(s, &memo);
  if (p.more_gpus_divide && p.fewest_gpus && *p.fewest_gpus != s.gpu_count) {
    p.hints.insert(p.hints.begin(), fewest_gpus_hint(s, *p.fewest_gpus, &memo));
  }
  // GPUs that each run the whole pipeline: split the work over the ones there are first.
  const GenerationSettings& g = *s.generation();
  if (p.more_gpus_divide && s.gpu_count > 1 && g.sequence_parallel == 1 && !g.fsdp) {
    p.hints.insert(p.hints.begin(), split_gpus_hint(s, &memo));
  }
  p.gpu_options = generation_gpu_options(s, catalog, &memo);
  return p;
}

namespace {

/// Heights (in size steps) from a quarter to four times `own`, a factor √2 apart, within [1, top].
std::vector<std::int64_t> height_steps(std::int64_t own, std::int64_t top) {
  std::vector<std::int64_t> out;
  for (int k = -4; k <= 4; ++k) {
    const auto v = static_cast<std::int64_t>(std::llround(static_cast<double>(own) * std::exp2(k / 2.0)));
    if (v >= 1 && v <= top && (out.empty() || v > out.back())) out.push_back(v);
  }
  return out;
}

/// Doubling from 1 below `top`, then `top`, with `own` among them.
std::vector<std::int64_t> doubling_steps(std::int64_t own, std::int64_t top) {
  std::vector<std::int64_t> out;
  for (std::int64_t n = 1; n < top; n *= 2) out.push_back(n);
  out.push_back(top);
  if (std::find(out.begin(), out.end(), own) == out.end()) out.insert(std::upper_bound(out.begin(), out.end(), own), own);
  return out;
}

/// The values the sweep visits, in the setting's own units (size steps, latent frames, samples).
std::vector<std::int64_t> sweep_steps(const Scenario& s, Setting axis) {
  const GenerationSettings& g = *s.generation();
  const SizeSteps steps = size_steps(s);
  if (axis == Setting::frames)
    return doubling_steps(steps.frame_index(g.frames), steps.frame_index(4 * s.pipeline->max_frames));
  if (axis == Setting::gen_batch) return doubling_steps(g.batch, std::max<std::int64_t>(16, g.batch));
  return height_steps(steps.height_index(g.height), top_height_steps(s, steps));
}

std::int64_t axis_value(const GenerationSettings& g, Setting axis) {
  return axis == Setting::frames ? g.frames : axis == Setting::gen_batch ? g.batch : g.height;
}

}  // namespace

GenerationSweep generation_sweep(const Scenario& given) {
  const Scenario s = with_explicit_geometry(given);
  GenerationSweep out;
  if (s.pipeline->modality == generation::Modality::video)
    out.axis = Setting::frames;
  else if (s.pipeline->max_area > 0)
    out.axis = Setting::gen_batch;
  Scenario t = s;
  WeightsMemo memo;
  for (const std::int64_t v : sweep_steps(s, out.axis)) {
    apply_setting(t, out.axis, v, s);
    const GenerationSettings& now = *t.generation();
    out.values.push_back(axis_value(now, out.axis));
    if (out.axis == Setting::image_size) out.widths.push_back(now.width);
    const auto r = figures_only(t, &memo);
    out.points.push_back({out.values.back(), now.batch, r ? std::optional<Bytes>(r->total) : std::nullopt,
                          r && r->fits});
  }
  return out;
}

}  // namespace vram
