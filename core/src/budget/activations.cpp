#include "vram/budget/activations.hpp"

#include <algorithm>

namespace vram {

Bytes residual_stream_bytes(std::int64_t tokens, std::int64_t hidden, std::int64_t b) {
  return Bytes::of(2 * tokens * hidden * b);
}

Bytes mlp_transient_bytes(std::int64_t tokens, std::int64_t width, bool gated, std::int64_t b) {
  return Bytes::of((gated ? 3 : 2) * tokens * width * b);
}

Bytes attention_transient_bytes(std::int64_t tokens, std::int64_t q_dim, std::int64_t kv_dim, std::int64_t b) {
  return Bytes::of(tokens * (q_dim + 2 * kv_dim) * b + tokens * q_dim * b);
}

Bytes moe_transient_bytes(std::int64_t tokens, std::int64_t top_k, std::int64_t width, std::int64_t hidden,
                          std::int64_t b) {
  return Bytes::of(tokens * top_k * (2 * width + width + hidden) * b);
}

Bytes logits_bytes(std::int64_t rows, std::int64_t vocab, std::int64_t b) {
  return Bytes::of(rows * vocab * b);
}

Bytes forward_peak_bytes(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  if (a.layers == 0) return Bytes{};
  const std::int64_t q_dim = a.heads * a.head_dim / tp;
  const std::int64_t kv_dim = std::max<std::int64_t>(1, a.kv_heads / tp) * a.head_dim;
  Bytes layer = attention_transient_bytes(tokens, q_dim, kv_dim, b);
  bool any_moe = false;
  for (const auto& l : a.layer_specs) any_moe = any_moe || l.moe;
  const std::int64_t dense_width = (a.block.dense_intermediate > 0 ? a.block.dense_intermediate : a.intermediate) / tp;
  bool any_dense = false;
  for (const auto& l : a.layer_specs) any_dense = any_dense || (!l.moe && l.kind != LayerKind::mamba);
  if (any_dense || a.family == "mamba")
    layer = std::max(layer, mlp_transient_bytes(tokens, dense_width, a.block.gated_mlp, b));
  if (any_moe) {
    layer = std::max(layer, moe_transient_bytes(tokens, a.experts_per_token, a.expert_intermediate / tp, a.hidden, b));
  }
  return residual_stream_bytes(tokens, a.hidden, b) + layer;
}

std::string forward_peak_formula(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  const Bytes peak = forward_peak_bytes(a, tokens, tp, b);
  const Bytes residual = residual_stream_bytes(tokens, a.hidden, b);
  return "residual stream 2 × " + group_thousands(tokens) + " tokens × " + std::to_string(a.hidden) + " × " + std::to_string(b) +
         " B = " + format_exact(residual) + " + largest layer temporary (attention, MLP or MoE) " +
         format_exact(peak - residual) + " = " + format_exact(peak);
}

}  // namespace vram
