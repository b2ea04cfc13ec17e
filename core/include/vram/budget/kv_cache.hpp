// Budget category: the inference KV cache (and recurrent state).
//
// Per token and layer an attention layer caches one key and one value vector
// per KV head: 2 × kv_heads × head_dim elements (Vaswani et al. 2017; GQA:
// Ainslie et al. 2023). MLA caches one latent of kv_lora_rank + qk_rope_head_dim
// elements shared by all heads (DeepSeek-V2 paper, §2.1.2). A sliding-window
// layer never holds more than `window` tokens. A Mamba layer keeps a constant
// state per sequence instead (Gu & Dao 2023, §3.4).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "vram/budget/term.hpp"
#include "vram/kv_dtype.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"

namespace vram {

/// Bytes of `elems` cache elements of `dtype`, block types rounded up per row.
Bytes kv_row_bytes(std::int64_t elems, const KvDtype& dtype);

/// KV heads one tensor-parallel rank holds: max(1, kv_heads / tp) (heads are
/// replicated when tp exceeds them).
std::int64_t kv_heads_per_rank(const Architecture& arch, std::int64_t tensor_parallel);

/// Bytes one token adds to one layer's cache on one rank (K and V).
Bytes kv_bytes_per_token_layer(const Architecture& arch, const LayerSpec& layer, const KvDtype& dtype,
                               std::int64_t tensor_parallel);

/// Bytes one token adds over layers [first, end) on one rank, all layers as
/// if unwindowed (sliding layers included; Mamba layers add nothing).
Bytes kv_bytes_per_token(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                         std::int32_t first = 0, std::int32_t end = INT32_MAX);

/// KV bytes for one sequence of `tokens`, sliding layers capped at their window.
Bytes kv_bytes_for_sequence(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                            std::int64_t tokens, std::int32_t first = 0, std::int32_t end = INT32_MAX);

/// Elements of one layer's recurrent state on one tensor-parallel rank, as vLLM
/// shapes it (mamba_utils.py MambaStateShapeCalculator):
///   Mamba-1: conv d_inner / tp × (d_conv − 1), SSM d_inner / tp × d_state;
///   Mamba-2: conv (d_inner + 2 × G × d_state) / tp × (d_conv − 1), SSM heads / tp ×
///            head_dim × d_state, where G = n_groups, or tp when n_groups does not
///            divide over tp (groups replicated: extra_groups_for_head_shards);
///   Gated DeltaNet: conv (2 × k_heads × k_dim + v_heads × v_dim) / tp × (kernel − 1),
///            recurrent v_heads / tp × v_dim × k_dim.
/// Zero for layers without a recurrent state.
struct StateElems {
  std::int64_t conv = 0;
  std::int64_t ssm = 0;
};
StateElems recurrent_state_elems(const Architecture& arch, LayerKind kind, std::int64_t tensor_parallel);

/// Mamba-2 groups whose B and C one rank set holds: n_groups when tp divides
/// it, else tp (vLLM replicates the groups so each head shard has its group).
std::int64_t mamba2_groups_per_shard_set(std::int64_t groups, std::int64_t tensor_parallel);

/// Element widths of a recurrent layer's two states: the conv state and the SSM
/// (temporal) state, as vLLM's MambaStateDtypeCalculator returns them
/// (mamba_utils.py _mamba_state_dtype: conv in mamba_cache_dtype, SSM in
/// mamba_ssm_cache_dtype or, when "auto", the conv state's). One width for both
/// converts implicitly: llama.cpp (f32) and transformers (model dtype) keep both alike.
struct StateBits {
  std::int64_t conv = 16;
  std::int64_t ssm = 16;
  std::string_view conv_name;  ///< a literal ("bf16"), shown after the element size; empty: none
  std::string_view ssm_name;
  constexpr StateBits(std::int64_t both) : conv(both), ssm(both) {}  // NOLINT(google-explicit-constructor)
  constexpr StateBits(std::int64_t conv_bits, std::int64_t ssm_bits, std::string_view conv_tag,
                      std::string_view ssm_tag)
      : conv(conv_bits), ssm(ssm_bits), conv_name(conv_tag), ssm_name(ssm_tag) {}
  bool whole_bytes() const { return conv % 8 == 0 && ssm % 8 == 0; }
};

/// Recurrent state of one sequence in the recurrent layers (Mamba-1, Mamba-2,
/// Gated DeltaNet): conv plus SSM state per layer (recurrent_state_elems), each
/// in its width of `state_bits`.
Bytes mamba_state_bytes_per_sequence(const Architecture& arch, StateBits state_bits, std::int64_t tensor_parallel,
                                     std::int32_t first = 0, std::int32_t end = INT32_MAX);

/// Bytes one token adds over layers [first, end) on one rank, as a term: one
/// product per kind of layer, layers × 2 (K,V) × KV heads × head_dim × dtype
/// bytes (or whole blocks of a block-quantized type), per token.
/// Its bytes equal kv_bytes_per_token.
Term kv_per_token_term(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                       std::int32_t first = 0, std::int32_t end = INT32_MAX);

/// KV bytes of `sequences` sequences of `blocks × block_size` tokens (block_size
/// 1: plain tokens) on layers [first, end), sliding layers capped at their
/// window: one product per attention type. Its bytes equal
/// sequences × kv_bytes_for_sequence(blocks × block_size).
Term kv_sequences_term(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                       std::int64_t sequences, std::int64_t blocks, std::int64_t block_size,
                       std::int32_t first = 0, std::int32_t end = INT32_MAX);

/// Recurrent state of `sequences` sequences in the Mamba layers of [first, end):
/// conv and SSM states as two products. Its bytes equal
/// sequences × mamba_state_bytes_per_sequence.
Term mamba_state_term(const Architecture& arch, StateBits state_bits, std::int64_t tensor_parallel,
                      std::int64_t sequences, std::int32_t first = 0, std::int32_t end = INT32_MAX);

/// kv_per_token_term rendered: "32 layers × 2 (K,V) × 8 KV heads × 128 dims × 2 B (bf16) = 131,072 B/token".
std::string kv_per_token_formula(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel);

}  // namespace vram
