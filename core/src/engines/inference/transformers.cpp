#include "vram/engines/transformers.hpp"

#include <algorithm>

#include "vram/budget/activations.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/render.hpp"

namespace vram::transformers_engine {

namespace {

constexpr std::string_view kCacheSource = "transformers v4.56.0 cache_utils.py DynamicLayer / DynamicSlidingWindowLayer";
constexpr std::string_view kGenerateSource =
    "transformers v4.56.0 generation/utils.py _sample (logits_to_keep=1, logits.float())";

/// DynamicCache for every sequence at full context: K and V per attention
/// layer (sliding layers capped at their window) plus the Mamba layers' conv
/// and SSM states in the model dtype (MambaCache).
Term dynamic_cache_term(const Architecture& a, const InferenceSettings& inf, std::int64_t tp, std::int64_t b) {
  Term t = sum_nonzero(terms(kv_sequences_term(a, inf.kv, tp, inf.concurrency, inf.context, 1),
                             mamba_state_term(a, 8 * b, tp, inf.concurrency)))
               .named("DynamicCache")
               .cite(kCacheSource);
  const bool windowed =
      std::any_of(a.layer_specs.begin(), a.layer_specs.end(), [](const LayerSpec& l) { return l.window > 0; });
  if (windowed) t.note = "sliding and chunked layers hold at most their window";
  return t;
}

/// The last position's logits per sequence: in the model dtype from lm_head,
/// then two fp32 copies (the float() upcast and the processed scores).
Term last_logits_term(std::int64_t sequences, std::int64_t vocab, std::int64_t b) {
  const Factor seqs = Factor::of(sequences, "seqs");
  const Factor v = Factor::of(vocab, "vocab");
  return Term::sum(terms(Term::product({seqs, v, Factor::bytes(b, "model dtype")}).named("lm_head output"),
                         Term::product({Factor::of(2, "fp32 copies"), seqs, v, Factor::bytes(4)}).named("upcast")))
      .named("last-position logits");
}

/// The prefill forward pass over every prompt at once (SDPA or flash
/// attention: no score matrix) and the logits after it.
Term prefill_term(const Architecture& a, const InferenceSettings& inf, std::int64_t tp, std::int64_t b) {
  const std::int64_t prompt_tokens = checked::mul(inf.context, inf.concurrency);
  return Term::sum(terms(std::move(forward_peak_term(a, prompt_tokens, tp, b)).named("prefill forward"),
                         last_logits_term(inf.concurrency, a.vocab, b)))
      .cite(kGenerateSource);
}

}  // namespace

void account(const Scenario& s, Report& r, WeightsMemo* memo) {
  const Model& m = *s.model;
  const Architecture& a = m.arch;
  const InferenceSettings& inf = s.inference();
  const std::int64_t tp = s.parallel.tensor;
  const std::int64_t b = activation_elem_bytes(s.weights);
  WeightPlacement place;
  place.tensor_parallel = tp;
  const WeightsEstimate w = weights_for(m, s.weights, place, memo);
  r.add(io::component("weights", "Model weights", std::move(weights_term(w)).cite(s.weights.source), r.explain));
  if (a.family != Family::bare) {
    const Term kv = dynamic_cache_term(a, inf, tp, b);
    const Term act = prefill_term(a, inf, tp, b);
    r.add(io::component("kv_cache", "KV cache (DynamicCache)", kv, r.explain));
    r.add(io::component("activations", "Prefill activations + logits", act, r.explain));
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(a, inf.kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(kv.bytes.in_bytes()));
    r.metric("activation_bytes", static_cast<double>(act.bytes.in_bytes()));
  }
  r.add(cuda_context_component(tp > 1, r.explain));
  r.metric("weights_bytes", static_cast<double>(w.bytes.in_bytes()));
  if (!r.explain) return;
  io::ObjectText e;
  e.set("engine", "transformers");
  e.set("source", "transformers v4.56.0 generate()");
  r.detail("engine", e.str());
}

}  // namespace vram::transformers_engine
