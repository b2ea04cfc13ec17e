// Fuzz target: the input bytes are scenario text (CONTRACT section 1), given to
// every JSON face of the core that the page and the CLI call: estimate, plan,
// sweep and a 4 × 4 grid, against the embedded catalog. Besides crashes and
// sanitizer reports, each answer must keep the invariants in checks.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.hpp"
#include "json_mutator.hpp"
#include "vram/catalog.hpp"
#include "vram/estimate.hpp"
#include "vram/plan.hpp"

namespace {

using vram::fuzz::field;
using vram::fuzz::int_field;
using vram::fuzz::json;
using vram::fuzz::nonnegative;
using vram::fuzz::require;

const vram::Catalog& catalog() {
  static const vram::Catalog c(vram::embedded_catalog_files());
  return c;
}

void check_estimate(const std::string& text) {
  constexpr const char* where = "estimate_json";
  const json r = vram::fuzz::parse_answer(
      vram::fuzz::no_throw(where, [&] { return vram::estimate_json(text, catalog()); }), where);
  if (r["ok"].get<bool>()) vram::fuzz::check_report(r, where);
}

/// An answer and its limit: null, or 1 ≤ value ≤ limit.
void bounded(const json& p, const char* key, std::int64_t limit, const char* where) {
  const auto it = p.find(key);
  require(it != p.end(), where, std::string(key) + " is missing");
  if (it->is_null()) return;
  const std::int64_t v = int_field(p, key, where);
  require(v >= 1 && v <= limit, where, std::string(key) + " is " + it->dump() + " (limit " + std::to_string(limit) + ")");
}

/// The image and video plan: size, frames and batch within their searches' limits, fewest GPUs within its own.
void check_generation_plan(const json& p, const char* where) {
  if (p.contains("max_size")) {
    const json& limit = field(p, "max_size_limit", where);
    require(limit.is_object(), where, "max_size_limit is not an object");
    const json& size = p["max_size"];
    if (!size.is_null()) {
      require(size.is_object(), where, "max_size is neither null nor {width, height}");
      require(int_field(size, "width", where) >= 1, where, "max_size has no width");
      bounded(size, "height", int_field(limit, "height", where), where);
    }
  }
  if (p.contains("max_frames")) bounded(p, "max_frames", int_field(p, "max_frames_limit", where), where);
  bounded(p, "max_batch", int_field(p, "max_batch_limit", where), where);
  bounded(p, "fewest_gpus", int_field(p, "fewest_gpus_limit", where), where);
}

void check_plan(const std::string& text) {
  constexpr const char* where = "plan_json";
  const json p = vram::fuzz::no_throw(where, [&] { return vram::plan_json(text, catalog()); });
  vram::fuzz::serialise(p, where);
  if (!vram::fuzz::check_envelope(p, where)) return;
  const auto model = p.find("model");
  require(model != p.end() && model->is_object(), where, "model is not an object");
  const bool generation = p.contains("max_batch");
  // A diffusion fine-tune's plan: a pipeline (no parameter count) and its largest micro-batch.
  const bool sample = !generation && !p.contains("max_seq_len") && p.contains("max_micro_batch");
  if (generation) {
    check_generation_plan(p, where);
  } else if (sample) {
    // 0 when not even one sample fits, as the LLM training plan answers.
    require(nonnegative(p, "max_micro_batch", where) <= int_field(p, "max_micro_batch_limit", where), where,
            "max_micro_batch exceeds max_micro_batch_limit");
  } else {
    nonnegative(*model, "params", where);
    nonnegative(*model, "active_params", where);
  }
  if (p.contains("max_context_tokens")) {
    const std::int64_t ctx = nonnegative(p, "max_context_tokens", where);
    const std::int64_t limit = int_field(p, "max_context_limit", where);
    require(ctx <= limit, where, "max_context_tokens exceeds max_context_limit");
    nonnegative(p, "max_concurrency", where);
  }
  const bool training = p.contains("max_seq_len");
  if (training) {  // the training plan: lengths, micro-batch, fewest GPUs
    const std::int64_t longest = nonnegative(p, "max_seq_len", where);
    require(nonnegative(p, "max_seq_len_with_headroom", where) <= longest, where,
            "the length keeping the headroom free exceeds the length at capacity");
    nonnegative(p, "max_micro_batch", where);
    const std::int64_t limit = int_field(p, "fewest_gpus_limit", where);
    const auto fewest = p.find("fewest_gpus");
    require(fewest != p.end(), where, "fewest_gpus is missing");
    if (!fewest->is_null()) {
      const std::int64_t n = int_field(p, "fewest_gpus", where);
      require(n >= 1 && n <= limit, where, "fewest_gpus is " + fewest->dump() + " (limit " + std::to_string(limit) + ")");
    }
  } else if (!generation && !sample) {
    const auto tp = p.find("smallest_tensor_parallel");
    require(tp != p.end(), where, "smallest_tensor_parallel is missing");
    if (!tp->is_null()) {
      const std::int64_t n = int_field(p, "smallest_tensor_parallel", where);
      require(n == 1 || n == 2 || n == 4 || n == 8, where, "smallest_tensor_parallel is " + tp->dump());
    }
  }
  const auto options = p.find("gpu_options");
  require(options != p.end() && options->is_array(), where, "gpu_options is not an array");
  for (const auto& o : *options) {
    require(o.is_object(), where, "a GPU option is not an object");
    const std::int64_t count = int_field(o, "count", where);
    // Inference splits over 1, 2, 4 or 8 GPUs; training keeps its group's multiple (or the scenario's count).
    require(training ? count >= 1 : (count == 1 || count == 2 || count == 4 || count == 8), where,
            "a GPU option has count " + std::to_string(count));
    const std::int64_t memory = int_field(o, "memory_bytes", where);
    const std::int64_t total = nonnegative(o, "total_bytes", where);
    require(memory > 0, where, "a GPU option has no memory");
    require(total <= memory, where,
            "a GPU option that fits needs " + std::to_string(total) + " B of " + std::to_string(memory) + " B");
  }
  const auto hints = p.find("hints");
  require(hints != p.end() && hints->is_array(), where, "hints is not an array");
  for (const auto& h : *hints) {
    require(h.is_object() && h.contains("change") && h["change"].is_string() && h.contains("effect") &&
                h["effect"].is_string() && h.contains("patch") && h["patch"].is_object(),
            where, "a hint lacks change, effect or patch");
  }
}

void check_sweep(const std::string& text) {
  constexpr const char* where = "sweep_json";
  const json s = vram::fuzz::no_throw(where, [&] { return vram::sweep_json(text, catalog()); });
  vram::fuzz::serialise(s, where);
  if (!vram::fuzz::check_envelope(s, where)) return;
  const std::int64_t usable = nonnegative(s, "usable_bytes", where);
  const json& contexts = field(s, "contexts", where);
  const json& totals = field(s, "totals", where);
  const json& fits = field(s, "fits", where);
  require(contexts.is_array() && totals.is_array() && fits.is_array(), where, "contexts, totals, fits not arrays");
  require(contexts.size() == totals.size() && totals.size() == fits.size(), where,
          "contexts, totals and fits differ in length");
  for (std::size_t i = 0; i < totals.size(); ++i) {
    require(contexts[i].is_number_integer() && contexts[i].get<std::int64_t>() > 0, where,
            "a context is not a positive integer: " + contexts[i].dump());
    require(totals[i].is_number_integer(), where, "a total is not an integer");
    const std::int64_t t = totals[i].get<std::int64_t>();
    require(t >= 0, where, "negative byte figure in totals: " + std::to_string(t));
    require(fits[i].is_boolean(), where, "a fits entry is not true/false");
    if (fits[i].get<bool>()) {
      require(t <= usable, where, "fits at context " + contexts[i].dump() + " but the total exceeds usable_bytes");
    }
  }
}

void check_grid(const std::string& text) {
  constexpr const char* where = "grid_json";
  constexpr std::int64_t kContexts = 4, kConcurrency = 4;
  const json g = vram::fuzz::parse_answer(
      vram::fuzz::no_throw(where, [&] { return vram::grid_json(text, catalog(), kContexts, kConcurrency); }), where);
  if (!vram::fuzz::check_envelope(g, where)) return;
  const std::int64_t usable = nonnegative(g, "usable_bytes", where);
  const json& contexts = field(g, "contexts", where);
  const json& totals = field(g, "totals", where);
  const json& best = field(g, "max_fitting_concurrency", where);
  require(contexts.is_array() && contexts.size() == kContexts, where, "contexts is not 4 entries");
  require(totals.is_array() && totals.size() == kContexts * kConcurrency, where, "totals is not 16 entries");
  require(best.is_array() && best.size() == kContexts, where, "max_fitting_concurrency is not 4 entries");
  require(int_field(g, "points", where) == kContexts * kConcurrency, where, "points is not 16");
  for (const auto& t : totals) {
    require(t.is_number_integer() && t.get<std::int64_t>() >= 0, where, "negative byte figure in totals: " + t.dump());
  }
  for (std::size_t ci = 0; ci < kContexts; ++ci) {
    require(contexts[ci].is_number_integer() && contexts[ci].get<std::int64_t>() > 0, where,
            "a context is not a positive integer: " + contexts[ci].dump());
    require(best[ci].is_number_integer(), where, "max_fitting_concurrency entry is not an integer");
    const std::int64_t b = best[ci].get<std::int64_t>();
    require(b >= 0 && b <= kConcurrency, where, "max_fitting_concurrency out of range: " + std::to_string(b));
    if (b > 0) {  // points run context-fastest: index = (concurrency − 1) × contexts + context
      const std::int64_t t = totals[static_cast<std::size_t>(b - 1) * kContexts + ci].get<std::int64_t>();
      require(t <= usable, where, "the largest fitting concurrency needs more than usable_bytes");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  vram::fuzz::load_dictionary_names(*argc, *argv);
  catalog();  // parsed once, before the first input is timed
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return vram::fuzz::mutate_json(data, size, max_size, seed, /*per_line=*/false);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_estimate(text);
  check_plan(text);
  check_sweep(text);
  check_grid(text);
  return 0;
}
