// Budget category: transient activations of an inference forward pass.
//
// During a forward pass over T tokens, only one layer's temporaries are alive
// at a time (no autograd graph is kept), so the peak is the residual stream
// plus the largest single-layer temporary, not a sum over layers. The terms
// below follow the tensors the layer code allocates (vLLM v0.19.0
// vllm/model_executor/models/llama.py LlamaMLP / LlamaAttention, and
// vllm/model_executor/layers/fused_moe/fused_moe.py intermediate caches).
#pragma once

#include <cstdint>
#include <string>

#include "vram/budget/term.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"

namespace vram {

/// Hidden state and residual, both T × hidden: 2 × T × h × b.
Term residual_stream_term(std::int64_t tokens, std::int64_t hidden, std::int64_t elem_bytes);
Bytes residual_stream_bytes(std::int64_t tokens, std::int64_t hidden, std::int64_t elem_bytes);

/// Gated MLP temporaries: gate_up output T × 2w plus the activated T × w
/// (SiluAndMul output): 3 × T × w × b. Ungated: 2 × T × w × b.
Term mlp_transient_term(std::int64_t tokens, std::int64_t width, bool gated, std::int64_t elem_bytes);
Bytes mlp_transient_bytes(std::int64_t tokens, std::int64_t width, bool gated, std::int64_t elem_bytes);

/// Attention temporaries: fused qkv output T × (q + k + v) plus the attention
/// output T × (heads × head_dim).
Term attention_transient_term(std::int64_t tokens, std::int64_t q_dim, std::int64_t kv_dim, std::int64_t elem_bytes);
Bytes attention_transient_bytes(std::int64_t tokens, std::int64_t q_dim, std::int64_t kv_dim, std::int64_t elem_bytes);

/// Fused-MoE intermediate caches for T tokens routed to top-k experts:
/// cache1 T×k×2N, cache2 T×k×N, cache3 T×k×h (fused_moe.py).
Term moe_transient_term(std::int64_t tokens, std::int64_t top_k, std::int64_t expert_width, std::int64_t hidden,
                        std::int64_t elem_bytes);
Bytes moe_transient_bytes(std::int64_t tokens, std::int64_t top_k, std::int64_t expert_width, std::int64_t hidden,
                          std::int64_t elem_bytes);

/// Logits of `rows` positions over the vocabulary in `elem_bytes`.
Bytes logits_bytes(std::int64_t rows, std::int64_t vocab, std::int64_t elem_bytes);

/// Peak of one forward pass over `tokens` tokens on one tensor-parallel rank:
/// residual stream + the largest per-layer temporary (attention, MLP or MoE).
Term forward_peak_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                       std::int64_t elem_bytes);
Bytes forward_peak_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                         std::int64_t elem_bytes);

/// forward_peak_term rendered (io::render).
std::string forward_peak_formula(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                                 std::int64_t elem_bytes);

}  // namespace vram
