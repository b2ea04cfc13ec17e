#include "vram/budget/kv_cache.hpp"

#include <algorithm>

namespace vram {

Bytes kv_row_bytes(std::int64_t elems, const KvDtype& d) {
  return Bytes::of((elems + d.block_elems - 1) / d.block_elems * d.block_bytes);
}

std::int64_t kv_heads_per_rank(const Architecture& a, std::int64_t tp) {
  return std::max<std::int64_t>(1, a.kv_heads / tp);
}

Bytes kv_bytes_per_token_layer(const Architecture& a, const LayerSpec& layer, const KvDtype& d, std::int64_t tp) {
  switch (layer.kind) {
    case LayerKind::mamba:
    case LayerKind::cross_attention: return Bytes{};
    case LayerKind::mla:
      // One latent per token, replicated on every tensor-parallel rank.
      return kv_row_bytes(a.kv_lora_rank + a.qk_rope_head_dim, d);
    case LayerKind::full_attention:
    case LayerKind::sliding_attention:
    case LayerKind::chunked_attention: break;
  }
  const std::int64_t heads = kv_heads_per_rank(a, tp);
  return kv_row_bytes(heads * a.head_dim, d) + kv_row_bytes(heads * a.v_head_dim, d);
}

namespace {
template <typename F>
Bytes sum_layers(const Architecture& a, std::int32_t first, std::int32_t end, F&& per_layer) {
  Bytes total;
  const auto n = static_cast<std::int32_t>(a.layer_specs.size());
  for (std::int32_t i = std::max(0, first); i < std::min(end, n); ++i) total += per_layer(a.layer_specs[i]);
  // Encoder-decoder: cross-attention caches the encoder output once per decoder layer.
  return total;
}
}  // namespace

Bytes kv_bytes_per_token(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int32_t first,
                         std::int32_t end) {
  Bytes b = sum_layers(a, first, end, [&](const LayerSpec& l) { return kv_bytes_per_token_layer(a, l, d, tp); });
  if (a.family == "t5") b = b * 2;  // self-attention + cross-attention (input taken as long as the context)
  return b;
}

Bytes kv_bytes_for_sequence(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t tokens,
                            std::int32_t first, std::int32_t end) {
  Bytes b = sum_layers(a, first, end, [&](const LayerSpec& l) {
    // A sliding window keeps the last `window` tokens; a chunked layer at most one chunk.
    const bool capped = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    const std::int64_t held = capped ? std::min(tokens, l.window) : tokens;
    return kv_bytes_per_token_layer(a, l, d, tp) * held;
  });
  if (a.family == "t5") b = b * 2;
  return b;
}

Bytes mamba_state_bytes_per_sequence(const Architecture& a, std::int64_t state_bits, std::int64_t tp,
                                     std::int32_t first, std::int32_t end) {
  const std::int64_t inner = a.ssm_inner / tp;
  return sum_layers(a, first, end, [&](const LayerSpec& l) {
    if (l.kind != LayerKind::mamba) return Bytes{};
    return bytes_for_bits(inner * (a.ssm_conv - 1) * state_bits) + bytes_for_bits(inner * a.ssm_state * state_bits);
  });
}

std::string kv_per_token_formula(const Architecture& a, const KvDtype& d, std::int64_t tp) {
  std::int64_t full = 0, sliding = 0, mla = 0, mamba = 0, cross = 0;
  for (const auto& l : a.layer_specs) {
    switch (l.kind) {
      case LayerKind::full_attention: ++full; break;
      case LayerKind::sliding_attention:
      case LayerKind::chunked_attention: ++sliding; break;
      case LayerKind::mla: ++mla; break;
      case LayerKind::mamba: ++mamba; break;
      case LayerKind::cross_attention: ++cross; break;
    }
  }
  const std::string dt = d.block_elems == 1 ? std::to_string(d.block_bytes) + " B (" + d.name + ")"
                                            : std::to_string(d.block_bytes) + " B per " +
                                                  std::to_string(d.block_elems) + " (" + d.name + ")";
  std::string f;
  const std::int64_t heads = kv_heads_per_rank(a, tp);
  if (full + sliding > 0) {
    f += std::to_string(full + sliding) + " layers × 2 (K,V) × " + std::to_string(heads) + " KV heads × " +
         std::to_string(a.head_dim) + " dims × " + dt;
  }
  if (mla > 0) {
    f += std::string(f.empty() ? "" : " + ") + std::to_string(mla) + " MLA layers × (" +
         std::to_string(a.kv_lora_rank) + " latent + " + std::to_string(a.qk_rope_head_dim) + " rope) × " + dt;
  }
  if (a.family == "t5") f += " × 2 (self + cross attention)";
  if (cross > 0) f += "; " + std::to_string(cross) + " cross-attention layers cache image tokens only";
  if (mamba > 0) {
    f += f.empty()
             ? "no attention layers (" + std::to_string(mamba) + " Mamba layers hold a constant state per sequence)"
             : "; " + std::to_string(mamba) + " Mamba layers hold a constant state instead";
  }
  const Bytes per_token = kv_bytes_per_token(a, d, tp);
  return f + " = " + format_exact(per_token) + "/token";
}

}  // namespace vram
