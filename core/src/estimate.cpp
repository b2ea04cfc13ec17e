#include "vram/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "vram/budget/kv_cache.hpp"
#include "vram/engines/generation.hpp"
#include "vram/engines/llamacpp.hpp"
#include "vram/engines/training.hpp"
#include "vram/engines/transformers.hpp"
#include "vram/engines/vllm.hpp"
#include "vram/error.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/measure.hpp"
#include "vram/io/render.hpp"
#include "vram/out_of_line.hpp"
#include "vram/plan/fit.hpp"
#include "vram/plan/solve.hpp"
#include "vram/plan/training_plan.hpp"

namespace vram {

using nlohmann::json;

std::string model_summary_json(const Scenario& s) {
  if (!s.model) {  // an image or video pipeline
    io::ObjectText p;
    p.set("ref", s.model_ref);
    return p.str();
  }
  const Model& m = *s.model;
  const Architecture& a = m.arch;
  io::ObjectText j;
  j.set("ref", s.model_ref);
  j.set("family", to_string(a.family));
  j.set("model_type", a.model_type);
  j.set("params", parameter_count(m.tensors));
  j.set("params_text", parameter_count(m.tensors, TensorStage::text));
  j.set("params_vision", parameter_count(m.tensors, TensorStage::vision));
  j.set("params_mtp", parameter_count(m.tensors, TensorStage::mtp));
  j.set("active_params", active_parameter_count(m));
  j.set("weights_format", s.weights.name);
  j.set("weights_summary", s.weights.summary);
  if (a.family != Family::bare) {
    j.set("hidden_size", a.hidden);
    j.set("layers", a.layers);
    j.set("attention_heads", a.heads);
    j.set("kv_heads", a.kv_heads);
    j.set("head_dim", a.head_dim);
    j.set("vocab_size", a.vocab);
    j.set("max_context", a.max_positions);
    std::map<std::string, int> kinds;
    for (const auto& l : a.layer_specs) kinds[to_string(l.kind)] += 1;
    io::ObjectText k;
    for (const auto& [name, n] : kinds) k.set(name, n);
    j.set_raw("layer_kinds", k.str());
    if (a.experts > 0) {
      j.set("experts", a.experts);
      j.set("experts_per_token", a.experts_per_token);
    }
  }
  if (m.checkpoint_bytes) j.set("checkpoint_bytes", m.checkpoint_bytes->in_bytes());
  // Where the parameters are: elements per tensor role, largest first.
  std::vector<std::pair<std::string, std::int64_t>> roles;
  for (const auto& t : m.tensors) {
    const std::string name = to_string(t.role);
    auto it = std::find_if(roles.begin(), roles.end(), [&](const auto& r) { return r.first == name; });
    if (it == roles.end())
      roles.emplace_back(name, t.elements());
    else
      it->second += t.elements();
  }
  std::stable_sort(roles.begin(), roles.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  io::JsonWriter w;  // an array keeps the order in every JSON reader
  w.begin_array();
  for (const auto& [name, n] : roles) w.begin_object().key("role").value(name).key("params").value(n).end_object();
  w.end_array();
  j.set_raw("params_by_role", w.view());
  return j.str();
}

namespace {

/// The scenario input most likely to have made a figure absurd: the model when
/// its weights alone are beyond the bound, else the token count (context ×
/// concurrency), else the engine's batch size.
VRAM_OUT_OF_LINE InputError absurd_figure(const Scenario& s, std::string_view figure) {
  const std::string what = std::string(figure) + " would exceed " + format_exact(kMaxPlausibleBytes) +
                           " per GPU, beyond any real system";
  if (!s.model && s.training())
    return InputError("/training/micro_batch", what + " (the sample size × micro_batch " +
                                                   group_thousands(s.training()->training.micro_batch) + ")");
  if (!s.model) return InputError("/generation", what + " (size × frames × batch)");
  double params = 0;  // in floating point: the check must not overflow itself
  for (const auto& t : s.model->tensors)
    params += static_cast<double>(t.rows) * static_cast<double>(t.cols) * static_cast<double>(t.count) * t.layers;
  if (s.weights_bytes_given && *s.weights_bytes_given > kMaxPlausibleBytes / 4)
    return InputError("/model/weights_bytes", what);
  if (params * 4 > static_cast<double>(kMaxPlausibleBytes.in_bytes()) / 4) return InputError("/model", what);
  if (const TrainingWorkload* tw = s.training()) {
    const TrainingSettings& t = tw->training;
    return InputError("/training/seq_len", what + " (micro_batch " + group_thousands(t.micro_batch) + " × seq_len " +
                                               group_thousands(t.seq_len) + " tokens)");
  }
  const InferenceSettings& inf = s.inference();
  if (inf.concurrency > 1 && inf.concurrency >= inf.context)
    return InputError("/inference/concurrency", what + " (context " + group_thousands(inf.context) + " × concurrency " +
                                                    group_thousands(inf.concurrency) + " tokens)");
  if (inf.context >= 1'000'000)
    return InputError("/inference/context", what + " (context " + group_thousands(inf.context) + " × concurrency " +
                                                group_thousands(inf.concurrency) + " tokens)");
  if (inf.engine == Engine::vllm) return InputError("/inference/vllm/max_num_batched_tokens", what);
  if (inf.engine == Engine::llama_cpp) return InputError("/inference/llama_cpp/n_ubatch", what);
  return InputError("/model", what);
}

/// Every figure of the report is a byte count in [0, 2^53]: a negative or
/// larger one comes from an input far outside any real system.
void check_plausible(const Scenario& s, const Report& r) {
  for (const auto& c : r.components) {
    if (c.bytes < Bytes{} || c.bytes > kMaxPlausibleBytes) throw absurd_figure(s, c.label);
  }
  if (r.total > kMaxPlausibleBytes) throw absurd_figure(s, "the total");
  for (const auto& m : r.metrics) {
    if (!std::isfinite(m.value) || std::fabs(m.value) > static_cast<double>(kMaxPlausibleBytes.in_bytes()))
      throw absurd_figure(s, m.name);
  }
}

VRAM_OUT_OF_LINE void run_training(const Scenario& s, Report& r, WeightsMemo* memo) {
  if (s.pipeline)
    training::diffusion_account(s, r);
  else
    training::account(s, r, memo);
}

VRAM_OUT_OF_LINE void run_generation(const Scenario& s, Report& r) { generation::account(s, r); }

VRAM_OUT_OF_LINE void run_llamacpp(const Scenario& s, Report& r, WeightsMemo* memo) { llamacpp::account(s, r, memo); }

VRAM_OUT_OF_LINE void run_transformers(const Scenario& s, Report& r, WeightsMemo* memo) {
  transformers_engine::account(s, r, memo);
}

void run_engine(const Scenario& s, Report& r, WeightsMemo* memo, SweepCache* sweep) {
  require_estimated(s);
  if (s.workload == Workload::training) return run_training(s, r, memo);
  if (s.workload == Workload::image || s.workload == Workload::video) return run_generation(s, r);
  switch (s.inference().engine) {
    case Engine::vllm: vllm::account(s, r, memo, r.explain ? nullptr : sweep); break;
    case Engine::llama_cpp: run_llamacpp(s, r, memo); break;
    case Engine::transformers: run_transformers(s, r, memo); break;
  }
}

/// Training: the longest seq_len whose peak fits the card (max_context_tokens).
/// The measured counterpart is the length at which PyTorch runs out of memory,
/// so the search runs against the whole capacity; the plan (plan/training_plan)
/// adds the length that keeps the headroom free, the largest micro-batch, the
/// fewest GPUs and what each switch buys.
VRAM_OUT_OF_LINE void add_training_capacity(const Scenario& s, Report& r, WeightsMemo* memo) {
  if (s.model->arch.family == Family::bare) return;
  // The scenario's own length, judged by the same rule against the whole card, starts the search.
  const FitVerdict v = fit_verdict(r, s.gpu.memory, 0.0);
  const auto margin = static_cast<double>(v.free.in_bytes());
  const std::int64_t own = std::get<TrainingWorkload>(s.settings).training.seq_len;
  KnownVerdict known{own, v.fits, (margin >= 0) == v.fits ? std::optional<double>(margin) : std::nullopt};
  r.metric("max_context_tokens", static_cast<double>(longest_seq_len(s, true, memo, known)));
}

}  // namespace

void require_estimated(const Scenario& s) {
  switch (s.workload) {
    case Workload::inference: return;
    case Workload::training: {
      // Training a diffusion model (diffusers' scripts, a pipeline with a
      // generation block) is not estimated yet.
      const TrainingWorkload& tw = *s.training();
      if (s.pipeline || (tw.training.framework != Framework::diffusers && s.model)) return;
      throw InputError("/training/framework", "framework \"diffusers\" trains image and video pipelines; \"" +
                                                  s.model_ref + "\" is a language model: allowed for it " +
                                                  "transformers, torchtune, torchtitan, unsloth, deepspeed");
    }
    case Workload::image:
    case Workload::video: return;
  }
}

namespace {

/// A report to fill: room for the usual components and metrics, so that
/// filling it does not regrow its lists.
Report empty_report(bool explain) {
  Report r;
  r.explain = explain;
  r.components.reserve(8);
  r.metrics.reserve(16);
  return r;
}

/// The report's details: the GPU, the weight format, the fit verdict's
/// formula and how to measure the scenario.
void add_details(const Scenario& s, Report& r) {
  io::ObjectText gpu;
  gpu.set("id", s.gpu.id)
      .set("name", s.gpu.name)
      .set("memory_bytes", s.gpu.memory.in_bytes())
      .set("count", s.gpu_count);
  r.detail("gpu", gpu.str());
  io::ObjectText weights;
  weights.set("format", s.weights.name).set("summary", s.weights.summary);
  r.detail("weights", weights.str());
  io::ObjectText fit;
  if (r.reservation) {
    const FitVerdict v = fit_verdict(r, s.gpu.memory, s.headroom);
    // The share the engine leaves free, to a millionth: the reservation is a floor of
    // memory × utilisation, whose exact ratio would print as 17 digits of noise.
    fit.set("headroom", std::round((1.0 - r.reservation->ratio(s.gpu.memory)) * 1e6) / 1e6)
        .set_text("usable_formula", [&](TextBuffer& t) {
          io::render_usable_reserved(t, *r.reservation, v.outside, r.usable, s.gpu.memory);
        });
  } else {
    fit.set("headroom", s.headroom).set_text("usable_formula", [&](TextBuffer& t) {
      io::render_usable_headroom(t, s.gpu.memory, s.headroom, r.usable);
    });
  }
  r.detail("fit", fit.str());
  r.detail("measure", io::measure_json(s));
}

Report run_estimate(const Scenario& s, const EstimateOptions& options, Report r) {
  try {
    run_engine(s, r, options.memo, options.sweep);
  } catch (const ArithmeticOverflow&) {
    throw absurd_figure(s, "a figure of the budget");
  }
  check_plausible(s, r);
  apply_fit(r, s.gpu.memory, s.headroom);
  if (!r.explain) return r;
  // llama.cpp allocates through ggml, not a torch caching allocator.
  const bool torch = s.workload != Workload::inference || s.inference().engine != Engine::llama_cpp;
  if (torch && r.find_metric("peak_reserved_bytes") == nullptr) {
    Bytes reserved;
    for (const auto& c : r.components)
      if (c.torch_allocator) reserved += c.bytes;
    r.metric("peak_reserved_bytes", static_cast<double>(reserved.in_bytes()));
  }
  if (r.find_metric("peak_device_bytes") == nullptr)
    r.metric("peak_device_bytes", static_cast<double>(r.total.in_bytes()));
  if (s.workload == Workload::training && s.model) add_training_capacity(s, r, options.memo);
  add_details(s, r);
  return r;
}

}  // namespace

Report estimate(const Scenario& s, const EstimateOptions& options) {
  Report r = empty_report(options.explain);
  if (r.explain) {
    r.defaults_used = s.defaults_used;
    r.warnings = s.warnings;
  }
  return run_estimate(s, options, std::move(r));
}

Report estimate(Scenario&& s, const EstimateOptions& options) {
  Report r = empty_report(options.explain);
  if (r.explain) {
    r.defaults_used = std::move(s.defaults_used);
    r.warnings = std::move(s.warnings);
  }
  return run_estimate(s, options, std::move(r));
}

json error_json(const std::string& path, const std::string& message) {
  return {{"ok", false}, {"error", {{"path", path}, {"message", message}}}};
}

std::string error_text(const std::string& path, const std::string& message) {
  // Messages quote input; `replace` keeps the text valid UTF-8 whatever they hold.
  return error_json(path, message).dump(-1, ' ', true, json::error_handler_t::replace);
}

std::string estimate_json(const std::string& text, const Catalog& catalog) {
  return text_or_error([&] { return to_json_text(estimate(parse_scenario_text(text, catalog))); });
}

void write_estimate_json(io::JsonWriter& w, const std::string& text, const Catalog& catalog) {
  write_json(w, estimate(parse_scenario_text(text, catalog)));
}

}  // namespace vram
