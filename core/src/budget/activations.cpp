#include "vram/budget/activations.hpp"

#include <algorithm>

#include "vram/io/render.hpp"

namespace vram {

namespace {
constexpr std::string_view kLayerSource =
    "vllm/model_executor/models/llama.py LlamaMLP, LlamaAttention; "
    "vllm/model_executor/layers/fused_moe/fused_moe.py (v0.19.0)";
}  // namespace

Term residual_stream_term(std::int64_t tokens, std::int64_t hidden, std::int64_t b) {
  return Term::product({Factor::of(2, "(hidden + residual)"), Factor::of(tokens, "tokens"), Factor::of(hidden, "hidden"),
                        Factor::bytes(b)})
      .named("residual stream")
      .cite(kLayerSource);
}

Bytes residual_stream_bytes(std::int64_t tokens, std::int64_t hidden, std::int64_t b) {
  return residual_stream_term(tokens, hidden, b).bytes;
}

Term mlp_transient_term(std::int64_t tokens, std::int64_t width, bool gated, std::int64_t b) {
  const Factor kind = gated ? Factor::of(3, "(gate_up 2 + activated 1)") : Factor::of(2, "(up + activated)");
  return Term::product({kind, Factor::of(tokens, "tokens"), Factor::of(width, "MLP width"), Factor::bytes(b)})
      .named("MLP")
      .cite(kLayerSource);
}

Bytes mlp_transient_bytes(std::int64_t tokens, std::int64_t width, bool gated, std::int64_t b) {
  return mlp_transient_term(tokens, width, gated, b).bytes;
}

Term attention_transient_term(std::int64_t tokens, std::int64_t q_dim, std::int64_t kv_dim, std::int64_t b) {
  const std::int64_t qkv = checked::add(q_dim, checked::mul(2, kv_dim));
  return Term::sum(terms(
                       Term::product({Factor::of(tokens, "tokens"), Factor::of(qkv, "qkv width"), Factor::bytes(b)}),
                       Term::product({Factor::of(tokens, "tokens"), Factor::of(q_dim, "attention output width"),
                                      Factor::bytes(b)})))
      .named("attention")
      .cite(kLayerSource);
}

Bytes attention_transient_bytes(std::int64_t tokens, std::int64_t q_dim, std::int64_t kv_dim, std::int64_t b) {
  return attention_transient_term(tokens, q_dim, kv_dim, b).bytes;
}

Term moe_transient_term(std::int64_t tokens, std::int64_t top_k, std::int64_t width, std::int64_t hidden,
                        std::int64_t b) {
  const std::int64_t caches = checked::add(checked::mul(3, width), hidden);
  return Term::product({Factor::of(tokens, "tokens"), Factor::of(top_k, "experts per token"),
                        Factor::of(caches, "cache width (3 × expert width + hidden)"), Factor::bytes(b)})
      .named("MoE")
      .cite(kLayerSource);
}

Bytes moe_transient_bytes(std::int64_t tokens, std::int64_t top_k, std::int64_t width, std::int64_t hidden,
                          std::int64_t b) {
  return moe_transient_term(tokens, top_k, width, hidden, b).bytes;
}

Bytes logits_bytes(std::int64_t rows, std::int64_t vocab, std::int64_t b) {
  return Bytes::product(rows, vocab, b);
}

Term forward_peak_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  if (a.layers == 0) return Term::given(Bytes{}).named("no layers");
  const std::int64_t q_dim = checked::mul(a.heads, a.head_dim) / tp;
  const std::int64_t kv_dim = std::max<std::int64_t>(1, a.kv_heads / tp) * a.head_dim;
  bool any_moe = false, any_dense = false;
  for (const auto& l : a.layer_specs) {
    any_moe = any_moe || l.moe;
    // Every layer but a bare recurrent one feeds an MLP (Falcon-H1's parallel layers do).
    any_dense = any_dense || (!l.moe && (!holds_recurrent_state(l.kind) || l.kind == LayerKind::attention_mamba2));
  }
  Terms layer = terms(attention_transient_term(tokens, q_dim, kv_dim, b));
  const std::int64_t dense_width = (a.block.dense_intermediate > 0 ? a.block.dense_intermediate : a.intermediate) / tp;
  if (any_dense || a.family == Family::mamba)
    layer.push_back(mlp_transient_term(tokens, dense_width, a.block.gated_mlp, b));
  if (any_moe) layer.push_back(moe_transient_term(tokens, a.experts_per_token, a.expert_intermediate / tp, a.hidden, b));
  Term largest = Term::max_of(std::move(layer)).named("largest layer temporary");
  return Term::sum(terms(residual_stream_term(tokens, a.hidden, b), std::move(largest)))
      .named("forward pass")
      .cite(kLayerSource);
}

Bytes forward_peak_bytes(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  return forward_peak_term(a, tokens, tp, b).bytes;
}

std::string forward_peak_formula(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  return io::render(forward_peak_term(a, tokens, tp, b));
}

}  // namespace vram
