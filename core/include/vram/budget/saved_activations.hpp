// Budget category: activations a training step saves for the backward pass,
// and the logits and loss.
//
// Per decoder layer and token, the tensors autograd keeps (each linear saves
// its input, RMSNorm its input, SiLU its input, a product both operands,
// flash attention q, k, v, its output and the log-sum-exp; eager attention also
// the softmax probabilities), following transformers v4.56
// models/llama/modeling_llama.py (LlamaDecoderLayer, LlamaMLP,
// eager_attention_forward) and the accounting of Korthikanti et al. 2022
// ("Reducing Activation Recomputation in Large Transformer Models", §4.1 and
// §5: full recomputation keeps each layer's input, selective recomputation
// drops the attention score tensors). Activation offloading (Unsloth's
// offloaded gradient checkpointing, torchtune's OffloadActivations) moves the
// kept tensors to host memory and brings one layer back at a time.
#pragma once

#include <cstdint>

#include "vram/budget/term.hpp"
#include "vram/model.hpp"
#include "vram/workloads.hpp"

namespace vram {

/// The widths of one decoder layer on one tensor-parallel rank.
struct LayerDims {
  std::int64_t hidden = 0;
  std::int64_t q_dim = 0;      ///< heads × head_dim / tp
  std::int64_t kv_dim = 0;     ///< kv_heads × head_dim / tp (at least one head)
  std::int64_t heads = 0;      ///< attention heads / tp
  std::int64_t mlp_width = 0;  ///< intermediate width one token runs through (MoE: top-k experts + shared)
  bool gated = true;
  bool rotary = true;  ///< rotary position embedding applied to q and k
  /// Tensor-parallel ranks that split the hidden-sized tensors (the residual stream, the norms,
  /// the layer input) along the sequence: sequence parallelism (Korthikanti et al. 2022 §4.2.2); 1 without it.
  std::int64_t seq_shard = 1;
};

/// Widths of the widest layer of `arch` on one of `tp` ranks.
LayerDims layer_dims(const Architecture& arch, std::int64_t tp);

/// The kernels a layer runs, which decide what it keeps for backward.
enum class LayerKernels : std::uint8_t {
  /// Eager PyTorch ops: RMSNorm upcasts its input to fp32 (kept) and keeps the
  /// normalised 16-bit tensor before the weight; rotary embedding keeps q and
  /// k before rotation and their rotate_half; the MLP keeps gate, up, SiLU
  /// output and the product (4 × width gated, 2 × width ungated).
  eager,
  /// Fused kernels (Unsloth fast_rms_layernorm, fast RoPE in place, SwiGLU):
  /// the norm keeps its input, rotary nothing, the MLP gate and up (2 × width).
  fused,
};

/// How logits and cross-entropy are computed.
enum class LossKind : std::uint8_t {
  materialized,  ///< full fp32 logits, log-softmax kept, its gradient
  chunked,       ///< logits upcast and reduced chunk by chunk (torchtune CEWithChunkedOutputLoss, Liger)
  cut,           ///< logits never materialised, only the log-sum-exp per token (Cut Cross-Entropy)
  in_place,      ///< 16-bit logits kept, the gradient written into them (Unsloth fast_cross_entropy_loss)
  /// torch.compile'd cross-entropy (chunked or not): AOTAutograd's min-cut partitioner saves the 16-bit
  /// logits (its input) and the log-sum-exp per token and recomputes the fp32 log-softmax in backward,
  /// whose fused kernel writes the gradient in the logits' dtype (the fp32 values never leave registers).
  compiled,
  compiled_chunked,  ///< the same over chunks: one chunk's gradient at a time
};

/// Bytes one layer saves for `tokens` tokens of sequences of `seq_len` (eager attention scores need it).
Term layer_saved_term(const LayerDims& d, std::int64_t tokens, std::int64_t seq_len, std::int64_t elem_bytes,
                      TrainAttention attention, LayerKernels kernels);

/// What one layer keeps under op-level selective checkpointing (torchtitan's
/// selective_ac_option "op"): the block's input (the checkpoint's own), the
/// output of every other matmul (q, v, the MLP's first projection and, gated,
/// its down projection: the 1st, 3rd, 5th and 7th of q, k, v, o, gate, up,
/// down) and the attention kernel's output with its fp32 log-sum-exp;
/// everything else is recomputed in backward. Under sequence parallelism the
/// input is a sequence shard, the down projection's matmul output the full
/// partial sum, and the reduce-scatters after o and down (saved too) shards.
Term op_sac_saved_term(const LayerDims& d, std::int64_t tokens, std::int64_t elem_bytes);

/// Gradient buffers alive while one layer runs backward: the residual
/// gradient in and out (2 × hidden) and the MLP gradients (2 × width). Calibrated (range).
Term layer_backward_work_term(const LayerDims& d, std::int64_t tokens, std::int64_t elem_bytes);

/// DoRA's extra saved tensors in one layer: each adapted module keeps its plain
/// output (x W, scaled by magnitude / norm − 1) and its adapter output (B A x)
/// for the magnitude's gradient: 2 × tokens × (summed output width) × b.
Term dora_saved_term(std::int64_t tokens, std::int64_t layer_outputs, std::int64_t elem_bytes);

/// Layer inputs kept by full recomputation: layers × tokens × hidden × b.
Term checkpoints_term(std::int64_t layers, std::int64_t tokens, std::int64_t hidden, std::int64_t elem_bytes);

/// Logits and loss at the start of backward for `tokens` over `vocab` (per rank).
/// `keep_logits`: the 16-bit logits stay referenced (a model output) through backward.
Term logits_loss_term(std::int64_t tokens, std::int64_t vocab, std::int64_t elem_bytes, LossKind kind,
                      std::int64_t chunks, bool keep_logits);

}  // namespace vram
