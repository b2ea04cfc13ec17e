#include "vram/plan/solve.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/units.hpp"

namespace vram {

std::string_view setting_path(Setting setting) {
  switch (setting) {
    case Setting::context: return "/inference/context";
    case Setting::concurrency: return "/inference/concurrency";
    case Setting::n_gpu_layers: return "/inference/llama_cpp/n_gpu_layers";
    case Setting::seq_len: return "/training/seq_len";
    case Setting::micro_batch: return "/training/micro_batch";
    case Setting::image_size: return "/generation/height";
    case Setting::frames: return "/generation/frames";
    case Setting::gen_batch: return "/generation/batch";
  }
  return "";
}

namespace {

void apply_training(TrainingSettings& t, Setting setting, std::int64_t value) {
  if (setting == Setting::micro_batch) {
    t.micro_batch = value;
    return;
  }
  // Context parallelism splits a sequence evenly: a length rounds down to a multiple of it.
  const std::int64_t cp = std::max<std::int64_t>(1, t.context_parallel);
  t.seq_len = std::max(cp, value / cp * cp);
}

/// Generation: the height is `value` size multiples; the width the multiple nearest
/// to it at the base's width : height (never below one multiple).
void apply_generation(GenerationSettings& g, const SizeSteps& steps, Setting setting, std::int64_t value,
                      const GenerationSettings& base) {
  if (setting == Setting::gen_batch) {
    g.batch = value;
  } else if (setting == Setting::frames) {
    g.frames = steps.frames_at(value);
  } else if (setting == Setting::image_size) {
    g.height = steps.height_at(value);
    const double ratio = static_cast<double>(base.width) / static_cast<double>(std::max<std::int64_t>(1, base.height));
    g.width = steps.width_near(static_cast<double>(g.height) * ratio);
  }
}

bool is_generation(Setting setting) {
  return setting == Setting::image_size || setting == Setting::frames || setting == Setting::gen_batch;
}

}  // namespace

std::int64_t SizeSteps::height_at(std::int64_t index) const {
  return checked::add(first_height, checked::mul(index - 1, pixels));
}

std::int64_t SizeSteps::frames_at(std::int64_t index) const {
  return checked::add(first_frames, checked::mul(index - 1, frames));
}

std::int64_t SizeSteps::height_index(std::int64_t v) const {
  return v < first_height ? 1 : (v - first_height) / pixels + 1;
}

std::int64_t SizeSteps::frame_index(std::int64_t v) const {
  return v < first_frames ? 1 : (v - first_frames) / frames + 1;
}

std::int64_t SizeSteps::width_near(double target) const {
  const double k = std::round((target - static_cast<double>(first_width)) / static_cast<double>(width_step));
  const auto steps = static_cast<std::int64_t>(std::clamp(k, 0.0, 1e15));
  return checked::add(first_width, checked::mul(steps, width_step));
}

namespace {

/// The first tile-covering size that is also a multiple of `m`, and the step between such sizes.
std::pair<std::int64_t, std::int64_t> tile_lattice(std::int64_t tile, std::int64_t stride, std::int64_t m) {
  std::int64_t first = tile;
  for (std::int64_t k = 0; k < m && first % m != 0; ++k) first += stride;
  return {first, std::lcm(stride, m)};
}

}  // namespace

SizeSteps size_steps(const Scenario& s) {
  SizeSteps out;
  if (!s.pipeline) return out;
  const generation::Component* vae = s.pipeline->first(generation::Role::vae);
  const generation::Component* den = s.pipeline->first(generation::Role::denoiser);
  if (vae && den) out.pixels = std::max<std::int64_t>(1, vae->config.spatial * den->config.patch[1]);
  if (vae && s.pipeline->modality == generation::Modality::video) out.frames = std::max<std::int64_t>(1, vae->config.temporal);
  out.first_height = out.first_width = out.width_step = out.pixels;
  if (vae && den && vae->kind == generation::ComponentKind::vae_allegro) {
    const generation::LatentTiles t = generation::allegro_latent_tiles(vae->config);
    const std::int64_t sp = vae->config.spatial, tf = vae->config.temporal;
    std::tie(out.first_height, out.pixels) = tile_lattice(t.height * sp, t.stride_height * sp, out.pixels);
    std::tie(out.first_width, out.width_step) = tile_lattice(t.width * sp, t.stride_width * sp, out.width_step);
    out.first_frames = t.frames * tf;  // an even count: ceil(frames / t) latent frames, one tile and whole strides
    out.frames = t.stride_frames * tf;
  }
  // Step-Video-T2V's VAE: whole chunks of chunk_frames (17) frames only.
  if (vae && vae->config.chunk_frames > 0) out.first_frames = out.frames = vae->config.chunk_frames;
  return out;
}

void apply_setting(Scenario& s, Setting setting, std::int64_t value) {
  apply_setting(s, setting, value, s);
}

void apply_setting(Scenario& s, Setting setting, std::int64_t value, const Scenario& base) {
  if (setting == Setting::seq_len || setting == Setting::micro_batch) {
    apply_training(std::get<TrainingWorkload>(s.settings).training, setting, value);
    return;
  }
  if (is_generation(setting)) {
    const GenerationSettings base_g = *base.generation();  // a copy: `base` may be `s` itself
    apply_generation(std::get<GenerationSettings>(s.settings), size_steps(s), setting, value, base_g);
    return;
  }
  InferenceSettings& inf = s.inference();
  switch (setting) {
    case Setting::context: inf.context = value; return;
    case Setting::concurrency:
      inf.concurrency = value;
      inf.llama_cpp.n_seq_max = value;  // llama-server serves `concurrency` sequences in n_seq_max slots
      return;
    case Setting::n_gpu_layers: inf.llama_cpp.n_gpu_layers = value; return;
    default: return;  // training and generation settings, set above
  }
}

std::optional<Report> figures_only(const Scenario& s, WeightsMemo* memo) {
  try {
    return estimate(s, {false, memo});
  } catch (const InputError&) {
    return std::nullopt;
  }
}

namespace {

/// The verdict at one value, with the margin that guides the next probe when
/// it agrees with the verdict; figures beyond any real system do not fit.
struct Probe {
  bool fits = false;
  std::optional<double> margin;  ///< usable − total, bytes
};

Probe probe_at(Scenario& t, const Scenario& base, Setting setting, std::int64_t value, WeightsMemo* memo) {
  apply_setting(t, setting, value, base);
  const auto r = figures_only(t, memo);
  if (!r) return {false, std::nullopt};
  const double m = static_cast<double>(r->free.in_bytes());
  if ((m >= 0) == r->fits) return {r->fits, m};
  return {r->fits, std::nullopt};  // the engine's own admission check decided, not the bytes
}

/// A known point of the search.
struct Known {
  std::int64_t value;
  std::optional<double> margin;
};

/// Where the margin line through a and b crosses zero, when it falls with the value.
std::optional<double> crossing(const Known& a, const Known& b) {
  if (!a.margin || !b.margin || a.value == b.value) return std::nullopt;
  const double slope = (*b.margin - *a.margin) / static_cast<double>(b.value - a.value);
  if (!(slope < 0)) return std::nullopt;
  return static_cast<double>(a.value) - *a.margin / slope;
}

/// The next value to try inside the bracket (lo fits; hi fails, or is top + 1, untested).
std::int64_t next_probe(const Known& lo, const Known& hi, const std::optional<Known>& below, bool hi_known,
                        bool bisect, bool doubling) {
  const std::int64_t mid = lo.value + (hi.value - lo.value) / 2;
  // The line through the last two fitting values, when it lands inside the bracket: where the
  // margin falls faster with the value (eager attention's quadratic scores), the chord to a far
  // failing value stays short of the crossing and the search would creep towards it.
  const std::optional<double> ahead = below ? crossing(*below, lo) : std::nullopt;
  // That line crossing zero before lo + 1 says lo is the answer: lo + 1 settles it in one probe,
  // where a bisection step would halve a bracket whose top is far away.
  if (bisect) {
    const bool next_fails = ahead && *ahead >= static_cast<double>(lo.value) &&
                            *ahead < static_cast<double>(lo.value + 1) && lo.value + 1 < hi.value;
    return next_fails ? lo.value + 1 : mid;
  }
  std::optional<double> guess = hi_known ? crossing(lo, hi) : std::nullopt;
  if (ahead && *ahead > static_cast<double>(lo.value) && *ahead < static_cast<double>(hi.value) &&
      (!guess || *ahead > *guess))
    guess = ahead;
  if (!guess) return doubling && !hi_known ? std::min(hi.value - 1, std::max(lo.value + 1, 2 * lo.value)) : mid;
  const double g = std::floor(*guess);
  if (!(g < static_cast<double>(hi.value - 1))) return hi.value - 1;
  return std::max(lo.value + 1, static_cast<std::int64_t>(std::max(g, static_cast<double>(lo.value + 1))));
}

}  // namespace

SearchResult search_fitting(const Scenario& s, Setting setting, SearchRange range, WeightsMemo* memo_in,
                            const std::optional<KnownVerdict>& known) {
  WeightsMemo local;
  WeightsMemo* memo = memo_in ? memo_in : &local;
  Scenario t = s;
  SearchResult out;
  auto at = [&](std::int64_t v) {
    ++out.estimates;
    return probe_at(t, s, setting, v, memo);
  };
  const std::int64_t top = std::max(range.lo, range.hi);
  const Probe first = at(range.lo);
  if (!first.fits) return out;
  Known lo{range.lo, first.margin};
  Known hi{top + 1, std::nullopt};  // invariant: lo fits; hi fails or lies past the range
  bool hi_known = false;
  if (!range.doubling && top > lo.value) {  // the whole range may fit: try its top first
    const Probe p = at(top);
    if (p.fits) {
      out.value = top;
      return out;
    }
    hi = {top, p.margin};
    hi_known = true;
  }
  std::optional<Known> below;  // the fitting value before lo, for a secant
  if (known && known->value > lo.value && known->value < hi.value) {
    if (known->fits) {
      below = lo;
      lo = {known->value, known->margin};
    } else {
      hi = {known->value, known->margin};
      hi_known = true;
    }
  }
  int poor = 0;  // probes in a row that did not halve the bracket
  while (hi.value - lo.value > 1) {
    const std::int64_t width = hi.value - lo.value;
    const std::int64_t v = next_probe(lo, hi, below, hi_known, poor >= 2, range.doubling);
    const Probe p = at(v);
    if (p.fits) {
      below = lo;
      lo = {v, p.margin};
    } else {
      hi = {v, p.margin};
      hi_known = true;
    }
    poor = hi.value - lo.value > width / 2 && hi_known ? poor + 1 : 0;
  }
  out.value = lo.value;
  return out;
}

std::optional<std::int64_t> largest_fitting(const Scenario& s, Setting setting, SearchRange range,
                                            WeightsMemo* memo) {
  return search_fitting(s, setting, range, memo).value;
}

}  // namespace vram
