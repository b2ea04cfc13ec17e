// Model architecture: read from a Hugging Face config.json, turned into an
// inventory of stored tensors, and counted exactly.
//
// The inventory (one entry per tensor kind per layer, experts stacked with a
// `count`) is the single source for parameter counts, checkpoint bytes in any
// storage format, tensor-parallel sharding and pipeline stages, so none of
// those is a second formula.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vram/units.hpp"

namespace vram {

/// How one decoder layer mixes tokens.
enum class LayerKind : std::uint8_t {
  full_attention,     ///< causal attention over the whole context
  sliding_attention,  ///< attention over the last `window` tokens only
  chunked_attention,  ///< attention within fixed chunks of `window` tokens (Llama 4 local layers)
  mla,                ///< DeepSeek multi-head latent attention (one latent cached)
  mamba,              ///< selective state-space layer (Mamba-1): constant state per sequence
  cross_attention,    ///< attends to encoder (image) tokens only: no per-token cache of the text
  mamba2,             ///< Mamba-2 (SSD) layer: multi-head state with grouped B/C, constant per sequence
  linear_attention,   ///< Gated DeltaNet linear attention (Qwen3-Next): constant state per sequence
  mlp_only,           ///< a block with no token mixer (Nemotron-H "-" layers): nothing cached
  attention_mamba2,   ///< attention and a Mamba-2 mixer side by side (Falcon-H1): K/V per token and a state
  lightning_attention,  ///< MiniMax lightning (linear) attention: one heads × d × d state per sequence
};

/// Layers that keep a constant recurrent state per sequence (besides any per-token cache).
constexpr bool holds_recurrent_state(LayerKind k) {
  return k == LayerKind::mamba || k == LayerKind::mamba2 || k == LayerKind::linear_attention ||
         k == LayerKind::attention_mamba2 || k == LayerKind::lightning_attention;
}

/// Layers that cache keys and values per token (self-attention of any window, MLA, Falcon-H1's attention branch).
constexpr bool caches_tokens(LayerKind k) {
  return k == LayerKind::full_attention || k == LayerKind::sliding_attention || k == LayerKind::chunked_attention ||
         k == LayerKind::mla || k == LayerKind::attention_mamba2;
}

/// Layers whose recurrent state is a Mamba-2 state (Mamba-2 layers and Falcon-H1's parallel mixers).
constexpr bool has_mamba2_mixer(LayerKind k) {
  return k == LayerKind::mamba2 || k == LayerKind::attention_mamba2;
}

struct LayerSpec {
  LayerKind kind = LayerKind::full_attention;
  std::int64_t window = 0;  ///< tokens, for sliding_attention (window) and chunked_attention (chunk)
  bool moe = false;         ///< the MLP of this layer is a mixture of experts
  bool operator==(const LayerSpec&) const = default;
};

/// What a tensor is, for quantization recipes and sharding.
enum class TensorRole : std::uint8_t {
  embedding,
  embedding_norm,
  lm_head,
  position_embedding,
  attn_q,
  attn_k,
  attn_v,
  attn_qkv,
  attn_o,
  attn_sinks,
  mla_q_a,
  mla_q_b,
  mla_kv_a,
  mla_kv_b,
  mlp_gate,
  mlp_up,
  mlp_down,
  expert_gate,
  expert_up,
  expert_down,
  router,
  ssm_in,
  ssm_conv,
  ssm_x,
  ssm_dt,
  ssm_state,
  ssm_out,
  norm,
  bias,
  rel_position_bias,
  vision,
  projector,
};

/// Which part of the checkpoint a tensor belongs to.
enum class TensorStage : std::uint8_t {
  text,    ///< the language model (decoder, or encoder+decoder for T5)
  vision,  ///< vision tower and projector of a multimodal model
  mtp,     ///< multi-token-prediction layers (stored; engines skip them by default)
};

/// How tensor parallelism splits a tensor.
enum class Shard : std::uint8_t {
  replicated,  ///< every rank holds all of it (norms, routers)
  rows,        ///< split along the output dimension (column-parallel linear, vocab)
  cols,        ///< split along the input dimension (row-parallel linear)
  kv_rows,     ///< rows, but whole KV heads, replicated when ranks > KV heads
};

/// One stored tensor (or `count` identical ones, e.g. experts): `rows` x `cols`
/// elements; a vector has rows = 1. Identical tensors of consecutive layers share
/// one entry (`layer` .. `layer + layers − 1`), so a 126-layer model is a few
/// dozen entries.
struct Tensor {
  TensorRole role;
  std::int32_t layer;  ///< first decoder layer, -1 for embeddings/head/final norm
  std::int64_t rows;
  std::int64_t cols;
  std::int64_t count = 1;
  TensorStage stage = TensorStage::text;
  Shard shard = Shard::replicated;
  bool quantizable = false;  ///< a linear weight that quantized formats store low-bit
  std::int32_t layers = 1;   ///< consecutive layers covered by this entry
  std::int64_t elements() const { return checked::product(rows, cols, count, layers); }
};

/// Per-family details of the decoder block that change what is stored.
struct BlockLayout {
  bool qkv_bias = false;
  bool o_bias = false;
  bool mlp_bias = false;
  bool qk_norm = false;  ///< per-head RMSNorm on q and k (Qwen3, Gemma 3)
  bool sinks = false;    ///< per-head attention sinks (gpt-oss)
  bool router_bias = false;
  bool router_fp32 = false;  ///< the router weight stored in fp32 (MiniMax block_sparse_moe.gate)
  bool expert_bias = false;
  bool layernorm_bias = false;  ///< LayerNorm (weight + bias) instead of RMSNorm
  bool gated_mlp = true;        ///< gate + up + down (SwiGLU/GeGLU) vs up + down
  int norms_per_layer = 2;
  bool shared_expert_gate = false;        ///< Qwen2-MoE sigmoid gate on the shared expert
  bool score_correction_bias = false;     ///< DeepSeek-V3 e_score_correction_bias
  bool attn_output_gate = false;          ///< q_proj also yields a per-head output gate (Qwen3-Next): 2 × q rows
  bool ssm_conv_bias = false;             ///< Mamba-2 conv1d bias
  bool ssm_proj_bias = false;             ///< Mamba-2 in_proj / out_proj biases
  bool ssm_gated_norm = true;             ///< Mamba-2 gated RMSNorm over the width (Falcon-H1: mamba_rms_norm)
  std::int64_t moe_every = 1;             ///< MoE on layers with (i + 1) % moe_every == 0
  std::int64_t first_dense = 0;           ///< first_k_dense_replace
  std::int64_t dense_intermediate = 0;    ///< width of non-MoE MLPs in MoE models
  std::int64_t mtp_layers = 0;            ///< stored multi-token-prediction layers
  std::int64_t extra_embedding_rows = 0;  ///< embedding rows beyond vocab_size (Mllama: 8 image tokens)
};

/// Language-model architecture fields, normalised across families.
/// Which inventory builder a config is read with.
enum class Family : std::uint8_t {
  bare,      ///< a parameter count and nothing else
  decoder,   ///< llama-style decoders (Llama, Mistral, Qwen, Gemma, Phi-3, Granite, gpt-oss, MoE variants)
  deepseek,  ///< DeepSeek-V2/V3 (MLA, shared experts, MTP)
  phi,       ///< phi-1/phi-2 (parallel attention + MLP, LayerNorm with biases)
  bloom,     ///< BLOOM (ALiBi, fused QKV)
  t5,        ///< encoder-decoder T5
  mamba,     ///< pure Mamba
  jamba,     ///< Jamba (Mamba + attention + MoE)
  granite_hybrid,  ///< IBM Granite 4.0 hybrid (Mamba-2 + attention, each followed by an MLP or MoE)
  nemotron_h,      ///< NVIDIA Nemotron-H (one mixer or one MLP per block, hybrid_override_pattern)
  qwen3_next,      ///< Qwen3-Next (Gated DeltaNet + gated attention, MoE with a shared expert, MTP)
  bamba,           ///< IBM Bamba (Mamba-2 layers, attention at attn_layer_indices, each followed by an MLP)
  falcon_h1,       ///< TII Falcon-H1 (attention and Mamba-2 in parallel in every layer, then an MLP)
  minimax,         ///< MiniMax-Text-01 / M1 (lightning attention + softmax attention, MoE)
};
const char* to_string(Family f);

struct Architecture {
  std::string model_type;
  Family family = Family::decoder;  ///< builder used
  std::int64_t hidden = 0;
  std::int64_t intermediate = 0;
  std::int64_t layers = 0;
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;
  std::int64_t head_dim = 0;
  std::int64_t v_head_dim = 0;  ///< equals head_dim except for MLA
  std::int64_t vocab = 0;
  std::int64_t max_positions = 0;  ///< 0 when the config states none
  std::int64_t rotary_dim = 0;     ///< 0 when positions are not rotary
  bool tied_embeddings = false;
  std::string native_dtype;  ///< config torch_dtype as a format name ("bf16")
  // MoE
  std::int64_t experts = 0;
  std::int64_t experts_per_token = 0;
  std::int64_t expert_intermediate = 0;
  std::int64_t shared_experts_intermediate = 0;  ///< total width of shared experts
  // MLA
  std::int64_t q_lora_rank = 0;
  std::int64_t kv_lora_rank = 0;
  std::int64_t qk_rope_head_dim = 0;
  std::int64_t qk_nope_head_dim = 0;
  // Mamba
  std::int64_t ssm_inner = 0;
  std::int64_t ssm_state = 0;
  std::int64_t ssm_conv = 0;
  std::int64_t ssm_dt_rank = 0;
  // Mamba-2 (ssm_inner, ssm_state, ssm_conv shared with Mamba-1)
  std::int64_t ssm_heads = 0;
  std::int64_t ssm_head_dim = 0;
  std::int64_t ssm_groups = 0;
  // Gated DeltaNet (linear attention)
  std::int64_t linear_k_heads = 0;
  std::int64_t linear_v_heads = 0;
  std::int64_t linear_k_dim = 0;
  std::int64_t linear_v_dim = 0;
  std::int64_t linear_conv = 0;
  /// The config's mamba_ssm_cache_dtype in bits (Nemotron-H checkpoints state "float32"); 0 when not stated.
  std::int64_t config_ssm_cache_bits = 0;
  // Encoder-decoder
  std::int64_t encoder_layers = 0;     ///< 0 for decoder-only models
  std::vector<LayerSpec> layer_specs;  ///< one per decoder layer
  std::int64_t vision_params = 0;      ///< vision tower + projector, counted from vision_config
  /// The largest image the model's processor makes (vLLM profiles the encoder
  /// with such images): its pixels and channels, the image embeddings the
  /// encoder returns for it and the prompt tokens it takes (embeddings plus
  /// row breaks). Zero where neither config.json nor the family's processor
  /// default fixes the size (Kimi-VL, Llama 4).
  struct ImageProfile {
    std::int64_t height = 0, width = 0, channels = 0;
    std::int64_t frames = 1;      ///< copies of the image in its pixel tensor (Qwen-VL's temporal patch)
    std::int64_t embeddings = 0;  ///< rows of the encoder's output per image
    std::int64_t tokens = 0;      ///< prompt tokens per image
    bool operator==(const ImageProfile&) const = default;
  } image_profile;
  BlockLayout block;
  std::vector<std::string> notes;  ///< assumptions made while reading the config
};

/// True when some layer keeps a recurrent state of nonzero width (Mamba-1 with
/// ssm_inner, Mamba-2, Gated DeltaNet).
bool has_recurrent_state(const Architecture& arch);

/// A resolved model: its architecture and tensor inventory.
struct Model {
  std::string id;  ///< catalog id, "config.json", or "params"
  Architecture arch;
  std::vector<Tensor> tensors;
  /// Published checkpoint bytes (safetensors total_size), when known.
  std::optional<Bytes> checkpoint_bytes;
  /// For a bare parameter count, the count; otherwise 0.
  std::int64_t bare_params = 0;
};

/// The tensors a checkpoint of this architecture stores.
std::vector<Tensor> tensor_inventory(const Architecture& arch);

/// Model from a config.json (architecture + inventory).
Model model_from_config(const nlohmann::json& config, const std::string& path, std::string id);

/// A model known only by its parameter count (the article's hypothetical 13B):
/// one quantizable tensor, no architecture, so no KV cache or activations.
Model model_from_param_count(std::int64_t params);

/// Total elements over tensors matching `stage` (all stages when nullopt).
std::int64_t parameter_count(const std::vector<Tensor>& tensors, std::optional<TensorStage> stage = std::nullopt);

/// Parameters that one token runs through (MoE: routed experts_per_token only).
std::int64_t active_parameter_count(const Model& model);

const char* to_string(TensorRole role);
const char* to_string(LayerKind kind);

}  // namespace vram
