#include "vram/engines/transformers.hpp"

#include "vram/budget/activations.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/io/json_writer.hpp"

namespace vram::transformers_engine {

void account(const Scenario& s, Report& r, WeightsMemo* memo) {
  const Model& m = *s.model;
  const Architecture& a = m.arch;
  const InferenceSettings& inf = s.inference();
  const std::int64_t tp = inf.tensor_parallel;
  const std::int64_t b = activation_elem_bytes(s.weights);
  WeightPlacement place;
  place.tensor_parallel = tp;
  const WeightsEstimate w = weights_for(m, s.weights, place, memo);
  r.add({"weights", "Model weights", w.bytes, explained(r, [&] { return weights_formula(w); }),
         explained(r, [&] { return std::string(s.weights.source); })});
  if (a.family != Family::bare) {
    // Mamba layers: conv and SSM states per sequence in the model dtype (MambaCache).
    const Bytes kv = (kv_bytes_for_sequence(a, inf.kv, tp, inf.context, 0, INT32_MAX) +
                      mamba_state_bytes_per_sequence(a, 8 * b, tp)) *
                     inf.concurrency;
    r.add({"kv_cache", "KV cache (DynamicCache)", kv,
           explained(r,
                     [&] {
                       return std::to_string(inf.concurrency) + " sequences × " + group_thousands(inf.context) +
                              " tokens × " + kv_per_token_formula(a, inf.kv, tp) +
                              " (sliding layers capped at their window) = " + format_exact(kv) + " ≈ " + format_iec(kv);
                     }),
           explained(r, [&] {
             return std::string("transformers v4.56.0 cache_utils.py DynamicLayer / DynamicSlidingWindowLayer");
           })});
    const std::int64_t prompt_tokens = inf.context * inf.concurrency;
    const Bytes forward = forward_peak_bytes(a, prompt_tokens, tp, b);
    const Bytes logits = logits_bytes(inf.concurrency, a.vocab, b) + logits_bytes(inf.concurrency, a.vocab, 4) * 2;
    const Bytes act = forward + logits;
    r.add({"activations", "Prefill activations + logits", act,
           explained(r,
                     [&] {
                       return "prefill of " + group_thousands(prompt_tokens) +
                              " tokens: " + forward_peak_formula(a, prompt_tokens, tp, b) + "; last-position logits " +
                              std::to_string(inf.concurrency) + " × " + group_thousands(a.vocab) +
                              " vocab (model dtype + 2 fp32 copies) = " + format_exact(logits) +
                              " (SDPA/flash attention: no score matrix) = " + format_exact(act) + " ≈ " +
                              format_iec(act);
                     }),
           explained(r, [&] {
             return std::string("transformers v4.56.0 generation/utils.py _sample (logits_to_keep=1, logits.float())");
           })});
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(a, inf.kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(kv.in_bytes()));
    r.metric("activation_bytes", static_cast<double>(act.in_bytes()));
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
