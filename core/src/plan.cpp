#include "vram/plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "vram/budget/kv_cache.hpp"
#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/engines/llamacpp.hpp"
#include "vram/estimate.hpp"
#include "vram/formats.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/plan/generation_plan.hpp"
#include "vram/plan/solve.hpp"
#include "vram/plan/training_plan.hpp"

namespace vram {

using nlohmann::json;

namespace {
/// Figures only: solvers never need the formula text. A setting whose figures
/// leave any real system (the estimator refuses them as absurd) does not fit.
bool fits_quick(const Scenario& s, WeightsMemo* memo) {
  const auto r = figures_only(s, memo);
  return r && r->fits;
}
}  // namespace

bool fits(const Scenario& s) {
  return fits_quick(s, nullptr);
}

std::int64_t max_context(const Scenario& s, std::int64_t limit) {
  return largest_fitting(s, Setting::context, {1, std::max<std::int64_t>(limit, 1)}).value_or(0);
}

std::int64_t max_concurrency(const Scenario& s, std::int64_t limit) {
  return largest_fitting(s, Setting::concurrency, {1, std::max<std::int64_t>(limit, 1), true}).value_or(0);
}

namespace {

bool tp_valid(const Architecture& a, std::int64_t tp) {
  return a.family == Family::bare || (a.heads > 0 && a.heads % tp == 0);
}

/// `t` (a copy of `s`, perhaps changed by an earlier call) on `tp` GPUs of its kind.
void set_gpus(Scenario& t, const Scenario& s, std::int64_t tp) {
  t.gpu_count = tp;
  t.parallel = inference_parallelism(tp, tp, 1);
  if (t.inference().engine == Engine::llama_cpp) {  // llama.cpp splits layers, not heads
    t.parallel = inference_parallelism(tp, 1, tp);
    t.inference().llama_cpp.tensor_split.clear();  // llama.cpp's default: equal shares on identical GPUs
    const std::int64_t main_gpu = s.inference().llama_cpp.main_gpu;
    t.inference().llama_cpp.main_gpu = main_gpu >= tp ? 0 : main_gpu;
  }
}

Scenario with_gpus(const Scenario& s, std::int64_t tp) {
  Scenario t = s;
  set_gpus(t, s, tp);
  return t;
}

std::string fmt2(double v) {
  return format_decimal(v, 2);
}

double metric_or(const Report& r, const char* name, double fallback) {
  const Metric* m = r.find_metric(name);
  return m ? m->value : fallback;
}

}  // namespace

std::string fit_effect(const Report& before, const Report& after) {
  std::string e =
      "per-GPU total " + format_iec(before.total) + " → " + format_iec(after.total) + "; " +
      (after.fits ? "fits, " + format_iec(after.free) + " free" : "still short by " + format_iec(Bytes{} - after.free));
  const double c0 = metric_or(before, "max_concurrency", -1), c1 = metric_or(after, "max_concurrency", -1);
  if (c0 >= 0 && c1 >= 0 && c0 != c1) e += "; vLLM max concurrency " + fmt2(c0) + "× → " + fmt2(c1) + "×";
  const double k0 = metric_or(before, "kv_capacity_tokens", -1), k1 = metric_or(after, "kv_capacity_tokens", -1);
  if (k0 >= 0 && k1 >= 0 && k0 != k1)
    e += "; KV capacity " + group_thousands(static_cast<std::int64_t>(k0)) + " → " +
         group_thousands(static_cast<std::int64_t>(k1)) + " tokens";
  return e;
}

std::optional<std::int64_t> smallest_tensor_parallel(const Scenario& s, std::int64_t max_gpus) {
  for (std::int64_t tp = 1; tp <= max_gpus; tp *= 2) {
    if (!tp_valid(s.model->arch, tp)) continue;
    if (fits(with_gpus(s, tp))) return tp;
  }
  return std::nullopt;
}

std::vector<GpuOption> gpu_options(const Scenario& s, const Catalog& catalog) {
  std::vector<GpuOption> out;
  // One scenario changed in place, so the memo (keyed by the model and the format it
  // holds) reuses each placement's weights across the GPUs; they do not depend on the
  // GPU beyond what the placement records (tensor-parallel size, MXFP4 padding).
  Scenario t = s;
  WeightsMemo memo;
  for (const Gpu& g : catalog.gpus()) {
    // vLLM runs on compute capability 7.0 and newer only.
    if (s.inference().engine == Engine::vllm && g.compute_capability > 0 && g.compute_capability < 70) continue;
    t.gpu = gpu_choice(g);  // its interconnect too: NCCL and all-reduce buffers depend on it
    for (std::int64_t n = 1; n <= 8; n *= 2) {
      if (!tp_valid(s.model->arch, n)) continue;
      set_gpus(t, s, n);
      const Report r = estimate(t, {false, &memo});
      if (!r.fits) continue;
      GpuOption o{g.id, g.name, n, g.memory, r.total, std::nullopt};
      if (g.price_usd_per_hour) o.price_usd_per_hour = *g.price_usd_per_hour * static_cast<double>(n);
      out.push_back(o);
      break;
    }
  }
  sort_gpu_options(out);
  return out;
}

std::vector<GpuOption> catalog_gpu_options(const Scenario& s, const Catalog& catalog, const FewestFitting& fewest) {
  std::vector<GpuOption> out;
  for (const Gpu& g : catalog.gpus()) {
    Scenario base = s;
    base.gpu = gpu_choice(g);  // its interconnect too
    const auto best = fewest(base);
    if (!best) continue;
    GpuOption o{g.id, g.name, best->first, g.memory, best->second.total, std::nullopt};
    if (g.price_usd_per_hour) o.price_usd_per_hour = *g.price_usd_per_hour * static_cast<double>(best->first);
    out.push_back(o);
  }
  sort_gpu_options(out);
  return out;
}

void sort_gpu_options(std::vector<GpuOption>& options) {
  std::stable_sort(options.begin(), options.end(), [](const GpuOption& a, const GpuOption& b) {
    if (a.price_usd_per_hour && b.price_usd_per_hour && *a.price_usd_per_hour != *b.price_usd_per_hour)
      return *a.price_usd_per_hour < *b.price_usd_per_hour;
    if (a.price_usd_per_hour.has_value() != b.price_usd_per_hour.has_value()) return a.price_usd_per_hour.has_value();
    return a.memory_per_gpu * a.count < b.memory_per_gpu * b.count;
  });
}

std::optional<GpuLayersFit> max_gpu_layers(const Scenario& s) {
  if (s.inference().engine != Engine::llama_cpp || s.model->arch.family == Family::bare) return std::nullopt;
  const std::int64_t n_layer = std::max<std::int64_t>(s.model->arch.layers, 1);
  WeightsMemo memo;
  // 0 .. n_layer + 1, the last meaning the output layer too (llama.cpp's count).
  const auto best = largest_fitting(s, Setting::n_gpu_layers, {0, n_layer + 1}, &memo);
  if (!best) return std::nullopt;
  const std::int64_t lo = *best;
  Scenario t = s;
  apply_setting(t, Setting::n_gpu_layers, lo);
  const llamacpp::Placement p = llamacpp::place(t, &memo);
  return GpuLayersFit{lo, n_layer, p.host_weights, p.host_kv};
}

namespace {

/// llama.cpp's own ways out: more GPUs to split the layers over, or fewer layers on the GPU.
template <typename Consider>
void llama_cpp_hints(const Scenario& s, Consider&& consider) {
  std::int64_t n = 0;
  for (std::int64_t k = 2; k <= 8 && n == 0; k *= 2) {
    if (k > s.gpu_count && fits(with_gpus(s, k))) n = k;
  }
  if (n == 0 && s.gpu_count < 8) n = std::max<std::int64_t>(2, s.gpu_count * 2);  // fits better, if not yet
  if (n > 0) {
    consider(with_gpus(s, n), std::to_string(n) + " GPUs (llama.cpp splits the layers over them: split_mode layer)",
             {{"hardware", {{"count", n}}}, {"inference", {{"tensor_parallel", 1}, {"pipeline_parallel", 1}}}});
  }
  const auto layers = max_gpu_layers(s);
  if (!layers || layers->n_gpu_layers > layers->n_layer) return;
  Scenario t = s;
  t.inference().llama_cpp.n_gpu_layers = layers->n_gpu_layers;
  consider(t,
           "n_gpu_layers = " + std::to_string(layers->n_gpu_layers) + " (partial offload: " +
               format_iec(layers->host_weights + layers->host_kv) + " in host memory, far slower)",
           {{"inference", {{"llama_cpp", {{"n_gpu_layers", layers->n_gpu_layers}}}}}});
}

/// The hints with which the scenario fits first, each group in the order it was considered.
std::vector<Hint> fitting_first(std::vector<Hint> hints, const std::vector<bool>& fits) {
  std::vector<Hint> out;
  out.reserve(hints.size());
  for (bool first_pass : {true, false})
    for (std::size_t i = 0; i < hints.size(); ++i)
      if (fits[i] == first_pass) out.push_back(std::move(hints[i]));
  return out;
}

/// llama.cpp's attention settings: flash attention (its default from b6325, where the GPU
/// supports it: ggml-org/llama.cpp#15434, -fa auto) and a q8_0 KV cache.
template <typename Consider>
void llama_cpp_attention_hints(const Scenario& s, Consider&& consider) {
  if (!s.inference().llama_cpp.flash_attn) {
    Scenario t = s;
    t.inference().llama_cpp.flash_attn = true;
    consider(t, "flash_attn = true (llama.cpp's default from b6325 where the GPU supports it: -fa auto)",
             {{"inference", {{"llama_cpp", {{"flash_attn", true}}}}}});
  }
  if (s.inference().kv.kind == KvKind::fp16) {
    Scenario t = s;
    t.inference().kv = {"q8_0", 32, 34};
    consider(t, "kv_cache_dtype = q8_0", {{"inference", {{"kv_cache_dtype", "q8_0"}}}});
  }
}

/// The n_gpu_layers solver's answer for plan_json.
json gpu_layers_json(const Scenario& s) {
  const auto f = max_gpu_layers(s);
  if (!f) return nullptr;
  return {{"n_gpu_layers", f->n_gpu_layers},
          {"n_layer", f->n_layer},
          {"all_layers", f->n_gpu_layers > f->n_layer},
          {"host_weights_bytes", f->host_weights.in_bytes()},
          {"host_kv_bytes", f->host_kv.in_bytes()},
          {"host_bytes", (f->host_weights + f->host_kv).in_bytes()}};
}

}  // namespace

std::vector<Hint> hints(const Scenario& s) {
  std::vector<Hint> out;
  std::vector<bool> fit;  // per hint: whether the scenario fits with it
  const Report base = estimate(s);
  const Architecture& a = s.model->arch;
  auto consider = [&](Scenario t, std::string change, json patch) {
    try {
      const Report r = estimate(t);
      if (r.total < base.total || (r.fits && !base.fits) ||
          metric_or(r, "max_concurrency", 0) > metric_or(base, "max_concurrency", 0)) {
        out.push_back({std::move(change), fit_effect(base, r), std::move(patch)});
        fit.push_back(r.fits);
      }
    } catch (const InputError&) {
    }
  };
  if (a.family != Family::bare) {
    if (s.inference().kv.kind != KvKind::fp8 && s.inference().engine == Engine::vllm) {
      Scenario t = s;
      t.inference().kv = {"fp8", 1, 1};
      consider(t, "kv_cache_dtype = fp8", {{"inference", {{"kv_cache_dtype", "fp8"}}}});
    }
    if (s.inference().engine == Engine::llama_cpp) llama_cpp_attention_hints(s, consider);
    const std::int64_t ctx = max_context(s, std::max<std::int64_t>(s.inference().context, 1));
    if (ctx > 0 && ctx < s.inference().context) {
      Scenario t = s;
      apply_setting(t, Setting::context, ctx);
      consider(t, "context = " + group_thousands(ctx) + " (the longest that fits)",
               {{"inference", {{"context", ctx}}}});
    }
  }
  const std::string native = a.native_dtype.empty() ? "bf16" : a.native_dtype;
  const char* quant =
      s.inference().engine == Engine::llama_cpp ? "gguf:Q4_K_M" : (s.weights.kind == FormatKind::fp8 ? "awq-int4" : "fp8");
  if (s.weights.name != quant && !(s.weights.quantized() && std::string(quant) == "fp8")) {
    Scenario t = s;
    t.weights = parse_weight_format(json(quant), "/weights", native);
    consider(t, std::string("weights = ") + quant, {{"weights", quant}});
  }
  if (s.inference().engine == Engine::vllm && s.inference().vllm.gpu_memory_utilization < 0.95 && s.headroom <= 0.05) {
    Scenario t = s;
    t.inference().vllm.gpu_memory_utilization = 0.95;
    consider(t, "gpu_memory_utilization = 0.95", {{"inference", {{"vllm", {{"gpu_memory_utilization", 0.95}}}}}});
  }
  if (!base.fits && s.inference().engine == Engine::llama_cpp) {
    llama_cpp_hints(s, consider);
  } else if (!base.fits) {
    if (auto tp = smallest_tensor_parallel(s, 8);
        tp && *tp > s.parallel.tensor * s.parallel.pipeline) {
      consider(with_gpus(s, *tp), std::to_string(*tp) + " GPUs (tensor_parallel = " + std::to_string(*tp) + ")",
               {{"hardware", {{"count", *tp}}}, {"inference", {{"tensor_parallel", *tp}}}});
    }
  }
  return fitting_first(std::move(out), fit);
}

std::vector<SweepPoint> sweep(const Scenario& s, const std::vector<std::int64_t>& contexts,
                              const std::vector<std::int64_t>& concurrencies) {
  // Points in concurrency-major order; computed context by context, so the
  // engine reuses what one context needs at every concurrency (SweepCache).
  std::vector<SweepPoint> out(contexts.size() * concurrencies.size());
  // Training varies seq_len and micro-batch; the engine cache serves inference only.
  const bool training = s.workload == Workload::training;
  const Setting first = training ? Setting::seq_len : Setting::context;
  const Setting second = training ? Setting::micro_batch : Setting::concurrency;
  Scenario t = s;
  WeightsMemo memo;
  SweepCache cache;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    for (std::size_t k = 0; k < concurrencies.size(); ++k) {
      const std::int64_t ctx = contexts[i], c = concurrencies[k];
      apply_setting(t, first, ctx);
      apply_setting(t, second, c);
      SweepPoint& p = out[k * contexts.size() + i];
      try {
        const Report r = estimate(t, {false, &memo, &cache});
        p = {ctx, c, r.total, r.fits};
      } catch (const InputError&) {
        p = {ctx, c, std::nullopt, false};  // beyond any real system
      }
    }
  }
  return out;
}

namespace {

/// Which workloads a call answers: plans and sweeps every one; the grid (length × count) inference and training.
enum class Serves : std::uint8_t { all, language_models };

template <typename F>
json guarded(const std::string& text, const Catalog& catalog, Serves serves, F&& f) {
  try {
    const Scenario s = parse_scenario_text(text, catalog);
    require_estimated(s);
    // A scenario the estimate refuses is refused the same way here; a valid one is then out of the grid's reach.
    if (s.pipeline && serves == Serves::language_models) (void)estimate(s, {false, nullptr});
    if (s.pipeline && s.workload == Workload::training && serves == Serves::language_models)
      throw InputError("/workload", "the context × concurrency grid is for language models; a diffusion model's "
                                    "fine-tuning has a sample size, not a context");
    if (s.pipeline && serves == Serves::language_models)
      throw InputError("/workload", "the context × concurrency grid is for inference and training; for image and "
                                    "video, the plan and the sweep answer the largest size, frames and batch");
    return f(s);
  } catch (const InputError& e) {
    return error_json(e.path(), e.what());
  } catch (const std::exception& e) {
    return error_json("", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_json("", "internal error");
  }
}

/// "checkpointing = full": a switch's setting by its name in the training block.
std::string switch_change(const TrainingSwitch& sw) {
  std::string_view name = sw.path;
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return std::string(name) + " = " + std::string(sw.value);
}

/// The switch's value in scenario form: true for a flag, the literal otherwise.
json switch_value(const TrainingSwitch& sw) {
  if (sw.value == "true") return true;
  return std::string(sw.value);
}

std::string fit_word(bool fits) {
  return fits ? "fits" : "does not fit";
}

json answer_json(const std::optional<std::int64_t>& v) {
  return v ? json(*v) : json(nullptr);
}

json gpu_options_json(const std::vector<GpuOption>& options, const std::function<json(const GpuOption&)>& patch) {
  json opts = json::array();
  for (const auto& o : options) {
    opts.push_back({{"gpu", o.gpu_id},
                    {"name", o.gpu_name},
                    {"count", o.count},
                    {"memory_bytes", o.memory_per_gpu.in_bytes()},
                    {"total_bytes", o.total_per_gpu.in_bytes()},
                    {"price_usd_per_hour", o.price_usd_per_hour ? json(*o.price_usd_per_hour) : json(nullptr)},
                    {"patch", patch(o)}});
  }
  return opts;
}

/// What each training switch buys, against the scenario's own estimate.
void switch_hints(const std::vector<TrainingSwitch>& switches, const Report& base, Bytes base_reserved, json& hs) {
  for (const TrainingSwitch& sw : switches) {
    std::string_view field = sw.path;
    field.remove_prefix(std::string_view("/training/").size());
    hs.push_back({{"change", switch_change(sw)},
                  {"effect", "peak reserved " + format_iec(base_reserved) + " → " + format_iec(sw.peak_reserved) +
                                 "; per GPU " + format_iec(base.total) + " → " + format_iec(sw.total) + "; " +
                                 fit_word(sw.fits)},
                  {"patch", {{"training", {{std::string(field), switch_value(sw)}}}}}});
  }
}

json training_plan_json(const Scenario& s, const Catalog& catalog) {
  const TrainingPlan p = training_plan(s, catalog);
  const Report base = estimate(s, {false, nullptr});
  const Metric* reserved = base.find_metric("peak_reserved_bytes");
  const Bytes base_reserved = Bytes::of(reserved ? static_cast<std::int64_t>(reserved->value) : 0);
  json j{{"ok", true}};
  j["model"] = json::parse(model_summary_json(s));
  j["max_seq_len"] = p.max_seq_len;
  j["max_seq_len_with_headroom"] = p.max_seq_len_with_headroom;
  j["max_micro_batch"] = p.max_micro_batch;
  j["more_gpus_divide"] = p.more_gpus_divide;
  j["fewest_gpus"] = answer_json(p.fewest_gpus);
  j["fewest_gpus_limit"] = p.more_gpus_divide ? kMaxTrainingGpus : training_group(s);
  json hs = json::array();
  if (p.more_gpus_divide && p.fewest_gpus && *p.fewest_gpus != s.gpu_count) {
    const Report r = estimate(with_training_gpus(s, *p.fewest_gpus), {false, nullptr});
    hs.push_back({{"change", "hardware.count = " + std::to_string(*p.fewest_gpus)},
                  {"effect", "the fewest GPUs of this model at which the step fits with its " +
                                 std::string(name_of(kShardings, s.training()->training.sharding)) + " sharding: " +
                                 format_iec(base.total) + " → " + format_iec(r.total) + " per GPU; " + fit_word(r.fits)},
                  {"patch", {{"hardware", {{"count", *p.fewest_gpus}}}}}});
  }
  switch_hints(p.switches, base, base_reserved, hs);
  j["hints"] = hs;
  j["gpu_options"] = gpu_options_json(p.gpu_options, [](const GpuOption& o) {
    return json{{"hardware", {{"gpu", o.gpu_id}, {"count", o.count}}}};
  });
  return j;
}

/// Fine-tuning a diffusion model (diffusers' scripts replicate it on every GPU):
/// the largest micro-batch at the sample size and the catalog GPUs that fit it.
json diffusion_training_plan_json(const Scenario& s, const Catalog& catalog) {
  WeightsMemo memo;
  const Report base = estimate(s, {false, &memo});  // the scenario's own errors are the plan's
  json j{{"ok", true}, {"model", json::parse(model_summary_json(s))}};
  const SearchRange batches{1, 4096, true};
  j["max_micro_batch"] = largest_fitting(s, Setting::micro_batch, batches, &memo).value_or(0);
  j["max_micro_batch_limit"] = batches.hi;
  j["more_gpus_divide"] = false;
  // The switches the scripts take (the others are refused or change nothing, and are not offered).
  const Metric* reserved = base.find_metric("peak_reserved_bytes");
  json hs = json::array();
  switch_hints(training_switches(s, &memo), base, Bytes::of(reserved ? static_cast<std::int64_t>(reserved->value) : 0), hs);
  j["hints"] = hs;
  const std::vector<GpuOption> options = catalog_gpu_options(s, catalog, [&](const Scenario& base) {
    std::optional<std::pair<std::int64_t, Report>> out;
    if (auto r = figures_only(base, &memo); r && r->fits) out = std::make_pair(base.gpu_count, *r);
    return out;
  });
  j["gpu_options"] = gpu_options_json(options, [](const GpuOption& o) {
    return json{{"hardware", {{"gpu", o.gpu_id}, {"count", o.count}}}};
  });
  return j;
}

/// Image and video: the largest size (at the scenario's aspect ratio), frames and batch, hints and GPU options.
json generation_plan_json(const Scenario& s, const Catalog& catalog) {
  const GenerationPlan p = generation_plan(s, catalog);
  json j{{"ok", true}, {"model", json::parse(model_summary_json(s))}};
  if (p.max_height) {
    j["max_size"] = p.max_height->value ? json{{"width", p.max_width}, {"height", *p.max_height->value}} : json(nullptr);
    j["max_size_limit"] = {{"width", p.limit_width}, {"height", p.max_height->limit}};
  }
  if (p.max_frames) {
    j["max_frames"] = answer_json(p.max_frames->value);
    j["max_frames_limit"] = p.max_frames->limit;
  }
  j["max_batch"] = answer_json(p.max_batch.value);
  j["max_batch_limit"] = p.max_batch.limit;
  j["more_gpus_divide"] = p.more_gpus_divide;
  j["fewest_gpus"] = answer_json(p.fewest_gpus);
  j["fewest_gpus_limit"] = p.more_gpus_divide ? 8 : 1;
  json hs = json::array();
  for (const auto& h : p.hints) hs.push_back({{"change", h.change}, {"effect", h.effect}, {"patch", h.scenario_patch}});
  j["hints"] = hs;
  j["gpu_options"] = gpu_options_json(p.gpu_options, [&](const GpuOption& o) {
    json patch = generation_gpus_patch(s, o.count);
    patch["hardware"]["gpu"] = o.gpu_id;
    return patch;
  });
  return j;
}

}  // namespace

json plan_json(const std::string& text, const Catalog& catalog) {
  return guarded(text, catalog, Serves::all, [&](const Scenario& s) {
    if (s.workload == Workload::training && s.pipeline) return diffusion_training_plan_json(s, catalog);
    if (s.workload == Workload::training) return training_plan_json(s, catalog);
    if (s.pipeline) return generation_plan_json(s, catalog);
    json j{{"ok", true}};
    j["model"] = json::parse(model_summary_json(s));
    if (s.model->arch.family != Family::bare) {
      const std::int64_t limit = std::max<std::int64_t>(s.model->arch.max_positions, s.inference().context);
      j["max_context_tokens"] = max_context(s, limit);
      j["max_context_limit"] = limit;
      j["max_concurrency"] = max_concurrency(s);
    }
    if (auto tp = smallest_tensor_parallel(s))
      j["smallest_tensor_parallel"] = *tp;
    else
      j["smallest_tensor_parallel"] = nullptr;
    const bool layers_split = s.inference().engine == Engine::llama_cpp;
    j["gpu_options"] = gpu_options_json(gpu_options(s, catalog), [&](const GpuOption& o) {
      return json{{"hardware", {{"gpu", o.gpu_id}, {"count", o.count}}},
                  {"inference", {{"tensor_parallel", layers_split ? 1 : o.count}, {"pipeline_parallel", 1}}}};
    });
    if (s.inference().engine == Engine::llama_cpp && s.model->arch.family != Family::bare)
      j["max_gpu_layers"] = gpu_layers_json(s);
    json hs = json::array();
    for (const auto& h : hints(s))
      hs.push_back({{"change", h.change}, {"effect", h.effect}, {"patch", h.scenario_patch}});
    j["hints"] = hs;
    return j;
  });
}

namespace {

/// The lengths a chart shows: doubling from `first` below `top`, then `top`, with `own` among them.
std::vector<std::int64_t> chart_lengths(std::int64_t first, std::int64_t top, std::int64_t own) {
  std::vector<std::int64_t> out;
  for (std::int64_t c = first; c < top; c *= 2) out.push_back(c);
  out.push_back(top);
  if (own > 0 && std::find(out.begin(), out.end(), own) == out.end()) {
    out.push_back(own);
    std::sort(out.begin(), out.end());
  }
  return out;
}

/// The chart's answer: the points up to the first beyond any real system, and the lines to draw them against.
json sweep_answer(const Scenario& s, std::string_view axis, std::vector<std::int64_t> lengths,
                  std::vector<SweepPoint> points, std::int64_t per_point) {
  // Totals grow with the length: the chart ends before the first absurd one.
  const auto absurd = std::find_if(points.begin(), points.end(), [](const SweepPoint& p) { return !p.total; });
  points.erase(absurd, points.end());
  lengths.resize(points.size());
  json totals = json::array(), ok = json::array();
  for (const auto& p : points) {
    totals.push_back(p.total->in_bytes());
    ok.push_back(p.fits);
  }
  const Report r = estimate(s, {false, nullptr});
  return json{{"ok", true},
              {"axis", axis},
              {"contexts", lengths},
              {"concurrency", per_point},
              {"totals", totals},
              {"fits", ok},
              {"usable_bytes", r.usable.in_bytes()},
              {"capacity_bytes", r.capacity.in_bytes()}};
}

/// Training: the step's total against seq_len at the scenario's micro-batch.
json training_sweep_json(const Scenario& s) {
  const TrainingSettings& t = s.training()->training;
  const std::int64_t cp = std::max<std::int64_t>(1, t.context_parallel);
  const std::int64_t top = std::max<std::int64_t>({s.model->arch.max_positions, t.seq_len, 1024});
  std::vector<std::int64_t> lengths = chart_lengths(std::max<std::int64_t>(256, cp), top, t.seq_len);
  std::vector<SweepPoint> points = sweep(s, lengths, {t.micro_batch});
  return sweep_answer(s, "seq_len", std::move(lengths), std::move(points), t.micro_batch);
}

/// Fine-tuning a diffusion model: the step's total against the micro-batch at the sample size.
json diffusion_training_sweep_json(const Scenario& s) {
  const std::int64_t own = s.training()->training.micro_batch;
  std::vector<std::int64_t> batches;
  for (std::int64_t b = 1; b <= std::max<std::int64_t>(64, 2 * own); b = b < 4 ? b + 1 : b + b / 2) batches.push_back(b);
  if (std::find(batches.begin(), batches.end(), own) == batches.end())
    batches.insert(std::upper_bound(batches.begin(), batches.end(), own), own);
  Scenario t = s;
  WeightsMemo memo;
  std::vector<SweepPoint> points;
  for (const std::int64_t b : batches) {
    apply_setting(t, Setting::micro_batch, b);
    const auto r = figures_only(t, &memo);
    points.push_back({b, b, r ? std::optional<Bytes>(r->total) : std::nullopt, r && r->fits});
  }
  return sweep_answer(s, "micro_batch", std::move(batches), std::move(points), own);
}

/// Image and video: the total against the height (at the scenario's aspect ratio), the frames or the batch.
json generation_sweep_json(const Scenario& s) {
  GenerationSweep g = generation_sweep(s);
  const std::string_view axis = g.axis == Setting::frames ? "frames" : g.axis == Setting::gen_batch ? "batch" : "height";
  const std::int64_t batch = s.generation()->batch;
  json j = sweep_answer(s, axis, g.values, std::move(g.points), batch);
  if (!g.widths.empty()) {
    g.widths.resize(j["contexts"].size());
    j["widths"] = g.widths;
  }
  return j;
}

}  // namespace

json sweep_json(const std::string& text, const Catalog& catalog) {
  return guarded(text, catalog, Serves::all, [&](const Scenario& s) {
    if (s.workload == Workload::training && s.pipeline) return diffusion_training_sweep_json(s);
    if (s.workload == Workload::training) return training_sweep_json(s);
    if (s.pipeline) return generation_sweep_json(s);
    const std::int64_t top = std::max<std::int64_t>({s.model->arch.max_positions, s.inference().context, 1024});
    std::vector<std::int64_t> contexts = chart_lengths(512, top, s.inference().context);
    std::vector<std::int64_t> conc{s.inference().concurrency};
    return sweep_answer(s, "context", contexts, sweep(s, contexts, conc), s.inference().concurrency);
  });
}

namespace {

/// The grid's contexts: `n` spaced geometrically from 256 tokens to `top`.
std::vector<std::int64_t> grid_contexts(std::int64_t n, std::int64_t top) {
  std::vector<std::int64_t> contexts;
  contexts.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double f = n == 1 ? 1.0 : static_cast<double>(i) / static_cast<double>(n - 1);
    contexts.push_back(static_cast<std::int64_t>(std::llround(256.0 * std::pow(static_cast<double>(top) / 256.0, f))));
  }
  return contexts;
}

/// The grid as JSON text, written directly: ten thousand totals through a JSON
/// document would cost more than computing them.
std::string grid_text(const Scenario& s, const std::vector<std::int64_t>& contexts,
                      const std::vector<std::int64_t>& conc) {
  const auto points = sweep(s, contexts, conc);
  std::vector<std::int64_t> best(contexts.size(), 0);
  io::JsonWriter w(64 + points.size() * 13 + (contexts.size() + conc.size()) * 8);
  const bool training = s.workload == Workload::training;
  w.begin_object().key("ok").value(true).key("points").value(static_cast<std::int64_t>(points.size()));
  // What the two lists are: tokens per sequence and sequences, or tokens per sample and samples per GPU.
  w.key("axes").begin_array().value(training ? "seq_len" : "context").value(training ? "micro_batch" : "concurrency");
  w.end_array();
  w.key("contexts").begin_array();
  for (std::int64_t c : contexts) w.value(c);
  w.end_array().key("concurrencies").begin_array();
  for (std::int64_t c : conc) w.value(c);
  w.end_array().key("totals").begin_array();
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (points[k].total)
      w.value(points[k].total->in_bytes());
    else
      w.null();
    const std::size_t ci = k % contexts.size();
    if (points[k].fits) best[ci] = std::max(best[ci], points[k].concurrency);
  }
  w.end_array().key("max_fitting_concurrency").begin_array();
  for (std::int64_t b : best) w.value(b);
  const Report r = estimate(s, {false, nullptr});
  w.end_array().key("usable_bytes").value(r.usable.in_bytes()).end_object();
  return w.take();
}

}  // namespace

std::string grid_json(const std::string& text, const Catalog& catalog, std::int64_t n_ctx, std::int64_t n_conc) {
  std::string out;
  const json error = guarded(text, catalog, Serves::language_models, [&](const Scenario& s) {
    if (n_ctx < 1 || n_ctx > kMaxGridSide) throw InputError("/n_contexts", "must be a whole number from 1 to 1000");
    if (n_conc < 1 || n_conc > kMaxGridSide) throw InputError("/n_concurrency", "must be a whole number from 1 to 1000");
    if (n_ctx * n_conc > kMaxGridPoints) {
      throw InputError("/n_concurrency", "a grid of " + std::to_string(n_ctx) + " × " + std::to_string(n_conc) +
                                            " points is more than the 10,000 one call computes; use fewer contexts "
                                            "or concurrency levels");
    }
    const std::int64_t own = s.workload == Workload::training ? s.training()->training.seq_len : s.inference().context;
    const std::int64_t top = std::max<std::int64_t>({s.model->arch.max_positions, own, 512});
    std::vector<std::int64_t> conc;
    for (std::int64_t c = 1; c <= n_conc; ++c) conc.push_back(c);
    out = grid_text(s, grid_contexts(n_ctx, top), conc);
    return json();
  });
  return out.empty() ? error.dump(-1, ' ', true, json::error_handler_t::replace) : out;
}

json catalog_models_json(const Catalog& catalog) {
  json models = json::array();
  for (const CatalogModel* m_entry : catalog.models()) {
    const CatalogModel& m = *m_entry;
    models.push_back({{"id", m.id},
                      {"params", parameter_count(m.model.tensors)},
                      {"model_type", m.model.arch.model_type},
                      {"max_context", m.model.arch.max_positions},
                      // The checkpoint's own storage (mxfp4, fp8, gptq-int4, ...), not its compute dtype.
                      {"dtype", m.own_format.name},
                      {"native_dtype", m.model.arch.native_dtype},
                      {"quantized", m.quantized}});
  }
  return models;
}

std::string catalog_summary_text(const Catalog& catalog, bool with_models) {
  io::JsonWriter w(with_models ? 32768 : 12288);
  w.begin_object().key("ok").value(true).key("model_count").value(static_cast<std::int64_t>(catalog.model_count()));
  w.key("gpus").begin_array();
  for (const auto& g : catalog.gpus()) {
    w.begin_object()
        .key("id").value(g.id)
        .key("name").value(g.name)
        .key("vendor").value(g.vendor)
        .key("marketing_gb").value(g.marketing_gb)
        .key("memory_bytes").value(g.memory.in_bytes())
        .key("memory_source").value(g.memory_source)
        .key("price_usd_per_hour");
    if (g.price_usd_per_hour)
      w.value(*g.price_usd_per_hour);
    else
      w.null();
    w.end_object();
  }
  w.end_array().key("weight_formats").begin_array();
  for (const std::string& f : weight_format_names()) w.value(f);
  for (const char* g : {"gguf:Q8_0", "gguf:Q6_K", "gguf:Q5_K_M", "gguf:Q4_K_M", "gguf:Q4_K_S", "gguf:Q3_K_M",
                        "gguf:Q2_K", "gguf:IQ4_XS"})
    w.value(g);
  w.end_array().key("pipelines");
  generation::write_pipelines_summary(w, catalog, with_models);
  w.key("engines").begin_array().value("vllm").value("llama.cpp").value("transformers").end_array();
  w.key("defaults");
  write_scenario_defaults(w);
  w.key("kv_cache_dtypes").begin_array();
  for (const char* k : {"auto", "fp16", "bf16", "fp8", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"}) w.value(k);
  w.end_array();
  if (with_models) w.key("models").raw(catalog_models_json(catalog).dump(-1, ' ', true, json::error_handler_t::replace));
  w.end_object();
  return w.take();
}

json catalog_summary_json(const Catalog& catalog, bool with_models) {
  return json::parse(catalog_summary_text(catalog, with_models));
}

}  // namespace vram
