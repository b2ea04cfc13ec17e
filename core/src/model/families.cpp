// One parser per architecture family: the config fields it reads, the
// defaults of its transformers *Config class, and the block details that
// change what a checkpoint stores.
//
// Sources (transformers v4.56.0):
//   llama/mistral/qwen2/qwen3/gemma*/phi3/granite: src/transformers/models/<family>/modeling_<family>.py
//   mixtral, qwen2_moe, qwen3_moe, llama4: the same files, *SparseMoeBlock / *Experts classes
//   deepseek_v2/v3: modeling_deepseek_v3.py (DeepseekV3Attention: q_a/q_b, kv_a_proj_with_mqa, kv_b)
//   gpt_oss: modeling_gpt_oss.py (GptOssExperts: gate_up_proj + bias, down_proj + bias; sinks)
//   phi (phi-2): modeling_phi.py; bloom: modeling_bloom.py; t5/mt5: modeling_t5.py
//   falcon_mamba/mamba: modeling_falcon_mamba.py (MambaMixer); jamba: modeling_jamba.py
#include <cmath>
#include <string>
#include <vector>

#include "model_internal.hpp"
#include "vram/error.hpp"

namespace vram::model_detail {

using io::join_path;
using io::optional_bool;
using io::optional_int;
using io::optional_int_any;
using io::optional_string;
using io::require_int_any;

namespace {

// Widths of the routed and shared experts (MoE configs of every family).
void read_expert_widths(Architecture& a, BlockLayout& s, const json& cfg, const std::string& path,
                        std::int64_t experts) {
  a.experts = experts;
  a.experts_per_token = require_int_any(cfg, {"num_experts_per_tok", "moe_topk"}, path, {1, experts});
  a.expert_intermediate = optional_int(cfg, "moe_intermediate_size", path, kDim).value_or(a.intermediate);
  if (auto shared = optional_int(cfg, "shared_expert_intermediate_size", path, {0, 10'000'000})) {
    a.shared_experts_intermediate = *shared;
    s.shared_expert_gate = *shared > 0;
  }
  if (auto n_shared = optional_int(cfg, "n_shared_experts", path, {0, 1000})) {
    a.shared_experts_intermediate = checked::mul(*n_shared, a.expert_intermediate);
  }
}

// Which layers hold the experts.
void assign_moe_layers(Architecture& a, BlockLayout& s, const json& cfg, const std::string& path) {
  s.moe_every = optional_int(cfg, "decoder_sparse_step", path, kCount).value_or(1);
  if (auto step = optional_int(cfg, "interleave_moe_layer_step", path, kCount)) s.moe_every = *step;
  s.first_dense = optional_int(cfg, "first_k_dense_replace", path, {0, a.layers}).value_or(0);
  s.dense_intermediate = a.intermediate;
  if (auto mlp = optional_int(cfg, "intermediate_size_mlp", path, kDim)) {  // llama4
    s.dense_intermediate = *mlp;
    a.shared_experts_intermediate = a.intermediate;  // one shared expert of expert width
  }
  for (std::int64_t i = 0; i < a.layers; ++i) {
    a.layer_specs[i].moe = i >= s.first_dense && (i + 1) % s.moe_every == 0;
  }
  for (std::int64_t i : optional_layer_indexes(cfg, "mlp_only_layers", path, a.layers)) {
    a.layer_specs[static_cast<std::size_t>(i)].moe = false;
  }
}

void parse_moe(Architecture& a, BlockLayout& s, const json& cfg, const std::string& path) {
  const auto experts = optional_int_any(cfg, {"num_local_experts", "num_experts", "n_routed_experts"}, path, kCount);
  if (!experts) return;
  read_expert_widths(a, s, cfg, path, *experts);
  assign_moe_layers(a, s, cfg, path);
}

// Hidden size, layers, attention heads, KV heads and the head width.
void read_attention_shape(Architecture& a, const json& cfg, const std::string& path) {
  a.hidden = require_int_any(cfg, {"hidden_size", "n_embd", "d_model"}, path, kDim);
  a.layers = require_int_any(cfg, {"num_hidden_layers", "n_layer", "num_layers"}, path, kLayers);
  a.heads = require_int_any(cfg, {"num_attention_heads", "n_head", "num_heads"}, path, kCount);
  a.kv_heads = optional_int_any(cfg, {"num_key_value_heads", "num_kv_heads"}, path, kCount).value_or(a.heads);
  if (a.kv_heads > a.heads) {
    throw InputError(join_path(path, "num_key_value_heads"),
                     "contradicts num_attention_heads: " + std::to_string(a.kv_heads) + " KV heads for " +
                         std::to_string(a.heads) + " attention heads (KV heads can only be as many or fewer)");
  }
  if (a.heads % a.kv_heads != 0) {
    throw InputError(
        join_path(path, "num_key_value_heads"),
        "must divide num_attention_heads (" + std::to_string(a.heads) + "); got " + std::to_string(a.kv_heads));
  }
  if (auto hd = optional_int(cfg, "head_dim", path, kDim)) {
    a.head_dim = *hd;
    return;
  }
  if (a.hidden % a.heads != 0) {
    throw InputError(join_path(path, "num_attention_heads"), "must divide hidden_size (" + std::to_string(a.hidden) +
                                                                 ") when head_dim is not given; got " +
                                                                 std::to_string(a.heads));
  }
  a.head_dim = a.hidden / a.heads;
}

// MLP width, vocabulary, positions, rotary width and tied embeddings.
void read_decoder_sizes(Architecture& a, const json& cfg, const std::string& path, const std::string& mt) {
  a.v_head_dim = a.head_dim;
  a.intermediate = require_int_any(cfg, {"intermediate_size", "n_inner", "ffn_dim"}, path, kDim);
  a.vocab = require_int_any(cfg, {"vocab_size"}, path, kVocab);
  a.max_positions =
      optional_int_any(cfg, {"max_position_embeddings", "n_positions", "max_sequence_length"}, path, kPositions)
          .value_or(0);
  // Newer configs state it inside rope_parameters (Qwen3.5).
  const json* rope = optional_object(cfg, "rope_parameters", path, "the rotary embedding's parameters");
  const double partial = cfg.contains("partial_rotary_factor") || rope == nullptr
                             ? io::optional_number(cfg, "partial_rotary_factor", path, 0.0, 1.0).value_or(mt == "glm" ? 0.5 : 1.0)
                             : io::optional_number(*rope, "partial_rotary_factor", join_path(path, "rope_parameters"),
                                                   0.0, 1.0)
                                   .value_or(1.0);
  a.rotary_dim = static_cast<std::int64_t>(std::llround(static_cast<double>(a.head_dim) * partial));
  const bool gemma = mt.rfind("gemma", 0) == 0;
  a.tied_embeddings = optional_bool(cfg, "tie_word_embeddings", path).value_or(gemma);
}

// Biases and norms by family (defaults of each transformers *Config class).
void read_block_layout(BlockLayout& s, const json& cfg, const std::string& path, const std::string& mt) {
  const bool attention_bias = optional_bool(cfg, "attention_bias", path).value_or(false);
  s.qkv_bias = attention_bias || is_one_of(mt, {"qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl", "qwen2_vl_text",
                                                               "qwen2_5_vl_text"});
  // GLM-4 (transformers modeling_glm.py GlmAttention): attention_bias adds q/k/v biases only, o_proj has none.
  s.o_bias = attention_bias && mt != "glm";
  s.mlp_bias = optional_bool(cfg, "mlp_bias", path).value_or(false);
  s.qk_norm = is_one_of(mt, {"qwen3", "qwen3_moe", "gemma3", "gemma3_text", "olmo2"});
  s.norms_per_layer = is_one_of(mt, {"gemma2", "gemma3", "gemma3_text"}) ? 4 : 2;
}

}  // namespace

Architecture parse_llama_like(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a;
  BlockLayout& s = a.block;
  a.model_type = mt;
  a.family = Family::decoder;
  read_attention_shape(a, cfg, path);
  read_decoder_sizes(a, cfg, path, mt);
  read_block_layout(s, cfg, path, mt);
  assign_attention_layout(a, cfg, path);
  if (mt == "mllama_text_model") s.extra_embedding_rows = 8;  // MllamaTextModel: vocab_size + 8 image tokens
  mark_cross_attention_layers(a, cfg, path);
  parse_moe(a, s, cfg, path);
  if (mt == "gpt_oss") {
    s.sinks = true;
    s.router_bias = true;
    s.expert_bias = true;
    s.qkv_bias = s.o_bias = true;
  }
  return a;
}

namespace {

Architecture parse_deepseek(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::deepseek;
  a.q_lora_rank = optional_int(cfg, "q_lora_rank", path, kDim).value_or(0);
  a.kv_lora_rank = io::require_int(cfg, "kv_lora_rank", path, kDim);
  a.qk_rope_head_dim = io::require_int(cfg, "qk_rope_head_dim", path, kDim);
  a.qk_nope_head_dim = io::require_int(cfg, "qk_nope_head_dim", path, kDim);
  a.v_head_dim = io::require_int(cfg, "v_head_dim", path, kDim);
  a.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
  a.rotary_dim = a.qk_rope_head_dim;
  for (auto& l : a.layer_specs) l.kind = LayerKind::mla;
  const auto freq = optional_int(cfg, "moe_layer_freq", path, kCount).value_or(1);
  for (std::int64_t i = 0; i < a.layers; ++i) {
    a.layer_specs[i].moe = a.experts > 0 && i >= a.block.first_dense && i % freq == 0;
  }
  a.block.score_correction_bias =
      optional_string(cfg, "topk_method", path).value_or("") == "noaux_tc" || mt == "deepseek_v3" || mt == "kimi_k2";
  a.block.mtp_layers = optional_int(cfg, "num_nextn_predict_layers", path, {0, 100}).value_or(0);
  return a;
}

Architecture parse_phi(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::phi;
  a.block.qkv_bias = a.block.o_bias = a.block.mlp_bias = true;
  a.block.layernorm_bias = true;
  a.block.gated_mlp = false;
  a.block.norms_per_layer = 1;  // one LayerNorm feeds the parallel attention and MLP
  return a;
}

Architecture parse_bloom(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a;
  a.model_type = mt;
  a.family = Family::bloom;
  a.hidden = require_int_any(cfg, {"hidden_size", "n_embed"}, path, kDim);
  a.layers = require_int_any(cfg, {"n_layer", "num_hidden_layers"}, path, kLayers);
  a.heads = require_int_any(cfg, {"n_head", "num_attention_heads"}, path, kCount);
  if (a.hidden % a.heads != 0) {
    throw InputError(join_path(path, "n_head"), "must divide hidden_size (" + std::to_string(a.hidden) + ")");
  }
  a.kv_heads = a.heads;
  a.head_dim = a.v_head_dim = a.hidden / a.heads;
  a.intermediate = checked::mul(4, a.hidden);
  a.vocab = require_int_any(cfg, {"vocab_size"}, path, kVocab);
  a.tied_embeddings = true;
  a.layer_specs.assign(static_cast<std::size_t>(a.layers), LayerSpec{});
  a.notes.push_back("bloom uses ALiBi positions: no maximum context in the config");
  a.block.qkv_bias = a.block.o_bias = a.block.mlp_bias = a.block.layernorm_bias = true;
  a.block.gated_mlp = false;
  return a;
}

Architecture parse_t5(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a;
  a.model_type = mt;
  a.family = Family::t5;
  a.hidden = io::require_int(cfg, "d_model", path, kDim);
  a.head_dim = a.v_head_dim = io::require_int(cfg, "d_kv", path, kDim);
  a.intermediate = io::require_int(cfg, "d_ff", path, kDim);
  a.encoder_layers = io::require_int(cfg, "num_layers", path, kLayers);
  a.layers = optional_int(cfg, "num_decoder_layers", path, kLayers).value_or(a.encoder_layers);
  a.heads = a.kv_heads = io::require_int(cfg, "num_heads", path, kCount);
  a.vocab = require_int_any(cfg, {"vocab_size"}, path, kVocab);
  a.tied_embeddings = optional_bool(cfg, "tie_word_embeddings", path).value_or(true);
  const std::string ff = optional_string(cfg, "feed_forward_proj", path).value_or("relu");
  a.block.gated_mlp = ff.rfind("gated-", 0) == 0;
  a.layer_specs.assign(static_cast<std::size_t>(a.layers), LayerSpec{});
  a.notes.push_back("encoder-decoder: the KV cache counts decoder self-attention plus cross-attention over the input");
  return a;
}

Architecture parse_mamba(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a;
  a.model_type = mt;
  a.family = Family::mamba;
  a.hidden = require_int_any(cfg, {"hidden_size", "d_model"}, path, kDim);
  a.layers = require_int_any(cfg, {"num_hidden_layers", "n_layer"}, path, kLayers);
  a.vocab = require_int_any(cfg, {"vocab_size"}, path, kVocab);
  const std::int64_t expand = optional_int(cfg, "expand", path, kCount).value_or(2);
  a.ssm_inner = optional_int(cfg, "intermediate_size", path, kDim).value_or(checked::mul(expand, a.hidden));
  a.intermediate = a.ssm_inner;
  a.ssm_state = optional_int_any(cfg, {"state_size", "d_state"}, path, kDim).value_or(16);
  a.ssm_conv = optional_int_any(cfg, {"conv_kernel", "d_conv"}, path, kCount).value_or(4);
  a.ssm_dt_rank = optional_int(cfg, "time_step_rank", path, kDim).value_or((a.hidden + 15) / 16);
  a.tied_embeddings = optional_bool(cfg, "tie_word_embeddings", path).value_or(true);
  a.layer_specs.assign(static_cast<std::size_t>(a.layers), LayerSpec{LayerKind::mamba, 0, false});
  a.block.norms_per_layer = 1;  // one RMSNorm before the mixer (MambaBlock.norm)
  a.block.qkv_bias = optional_bool(cfg, "use_bias", path).value_or(false);      // in/out projections
  a.block.mlp_bias = optional_bool(cfg, "use_conv_bias", path).value_or(true);  // conv1d bias
  return a;
}

Architecture parse_jamba(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::jamba;
  assign_hybrid_layout(a, cfg, path);
  const std::int64_t expand = optional_int(cfg, "mamba_expand", path, kCount).value_or(2);
  a.ssm_inner = checked::mul(expand, a.hidden);
  a.ssm_state = optional_int(cfg, "mamba_d_state", path, kDim).value_or(16);
  a.ssm_conv = optional_int(cfg, "mamba_d_conv", path, kCount).value_or(4);
  a.ssm_dt_rank = optional_int(cfg, "mamba_dt_rank", path, kDim).value_or((a.hidden + 15) / 16);
  a.block.qkv_bias = false;
  return a;
}

/// Config fields of layers the generic reader would misread as a plain decoder's
/// grouped-head attention and MLP, each with what it describes and the families
/// that have such layers. An unknown family carrying one is refused at that field:
/// - linear attention (Qwen3-Next's Gated DeltaNet, MiniMax's lightning attention)
///   or state-space mixers (Mamba2 in Granite 4.0 hybrid, Nemotron-H, Falcon-H1):
///   their per-sequence state and their weights would be missed;
/// - DeepSeek's multi-head latent attention (one compressed latent per token) and
///   the lightning indexer of its sparse attention (DeepSeek-V3.2: a key cache of
///   its own), full-attention layers with a head shape of their own (Gemma 4) and a
///   sliding-window layout the generic reader does not read (MiMo-V2): the KV cache
///   would be wrong by a large factor.
struct MisreadField {
  std::string_view field;
  std::string_view what;
  std::string_view known;  ///< the families that have such layers, and what to do
};
constexpr std::string_view kMixer =
    "describes layers other than softmax attention (linear attention or state-space mixers)";
constexpr std::string_view kMixerFamilies =
    "known families with such layers: jamba, mamba, falcon_mamba, granitemoehybrid, nemotron_h, qwen3_next, "
    "qwen3_5_text, qwen3_5_moe_text, bamba, falcon_h1, minimax, minimax_text_01, minimax_m1";
constexpr std::string_view kIndexer = "describes a sparse-attention indexer (DeepSeek-V3.2: a key cache of its own per token)";
constexpr std::string_view kLatentFamilies =
    "known families with latent attention: deepseek_v2, deepseek_v3, kimi_k2 (a model_type of deepseek_v3 "
    "estimates it as DeepSeek-V3, without an indexer's cache)";
constexpr std::string_view kGlobalShape = "describes full-attention layers with a head shape of their own (Gemma 4)";
constexpr MisreadField kMisreadFields[] = {
    {"hybrid_override_pattern", kMixer, kMixerFamilies},
    {"attn_type_list", kMixer, kMixerFamilies},
    {"linear_num_value_heads", kMixer, kMixerFamilies},
    {"linear_key_head_dim", kMixer, kMixerFamilies},
    {"full_attention_interval", kMixer, kMixerFamilies},
    {"layers_block_type", kMixer, kMixerFamilies},
    {"mamba_d_state", kMixer, kMixerFamilies},
    {"mamba_n_heads", kMixer, kMixerFamilies},
    {"mamba_d_ssm", kMixer, kMixerFamilies},
    {"ssm_state_size", kMixer, kMixerFamilies},
    {"attn_layer_period", kMixer, kMixerFamilies},
    {"index_n_heads", kIndexer, kLatentFamilies},
    {"index_head_dim", kIndexer, kLatentFamilies},
    {"kv_lora_rank", "describes multi-head latent attention (one compressed latent per token, not per-head keys and values)",
     kLatentFamilies},
    {"global_head_dim", kGlobalShape, "no known family has them"},
    {"num_global_key_value_heads", kGlobalShape, "no known family has them"},
    {"attention_k_eq_v", "describes attention whose keys are its values (Gemma 4)", "no known family has it"},
    {"hybrid_layer_pattern", "describes which layers attend to a sliding window (MiMo-V2), a layout the generic reader does not read",
     "a config's own layer_types (sliding_attention, full_attention) is read for any family, and gemma2, gemma3, "
     "gemma3_text, qwen2, qwen2_moe, qwen3, qwen3_moe, mistral, mixtral and mistral3 lay out their windows by their "
     "own rules"},
    {"swa_num_key_value_heads", "describes sliding-window layers with a head shape of their own (MiMo-V2)",
     "no known family has them"},
};

void refuse_misread_layers(const json& cfg, const std::string& path, const std::string& mt) {
  for (const MisreadField& f : kMisreadFields) {
    if (!cfg.contains(f.field)) continue;
    throw InputError(join_path(path, f.field), std::string(f.what) + ", and model_type \"" + mt +
                                                   "\" is not a known family; " + std::string(f.known));
  }
}

}  // namespace

Architecture parse_family(const json& cfg, const std::string& path, const std::string& mt,
                          std::vector<std::string>& notes) {
  if (is_one_of(mt, {"t5", "mt5", "umt5"})) return parse_t5(cfg, path, mt);
  if (mt == "bloom") return parse_bloom(cfg, path, mt);
  if (is_one_of(mt, {"mamba", "falcon_mamba"})) return parse_mamba(cfg, path, mt);
  if (mt == "jamba") return parse_jamba(cfg, path, mt);
  if (mt == "granitemoehybrid") return parse_granite_hybrid(cfg, path, mt);
  if (mt == "nemotron_h") return parse_nemotron_h(cfg, path, mt);
  if (is_qwen3_next_type(mt)) return parse_qwen3_next(cfg, path, mt);
  if (is_minimax_type(mt)) return parse_minimax(cfg, path, mt);
  if (mt == "bamba") return parse_bamba(cfg, path, mt);
  if (mt == "falcon_h1") return parse_falcon_h1(cfg, path, mt);
  if (mt == "phi") return parse_phi(cfg, path, mt);
  if (is_one_of(mt, {"deepseek_v2", "deepseek_v3", "kimi_k2"})) return parse_deepseek(cfg, path, mt);
  static const char* const kLlamaLike[] = {"llama",       "mistral",   "mixtral", "qwen2",     "qwen2_moe",
                                           "qwen3",       "qwen3_moe", "gemma",   "gemma2",    "gemma3",
                                           "gemma3_text", "phi3",      "granite", "gpt_oss",   "llama4_text",
                                           "llama4",      "mistral3",  "olmo2",   "internlm2", "yi",
                                           "starcoder2",  "cohere",    "exaone",  "deepseek",  "mllama_text_model", "glm"};
  for (const char* known : kLlamaLike) {
    if (mt == known) return parse_llama_like(cfg, path, mt);
  }
  refuse_misread_layers(cfg, path, mt);
  notes.push_back("model_type \"" + mt +
                  "\" is not a known family: counted as a llama-style decoder from the generic fields "
                  "(hidden_size, intermediate_size, num_hidden_layers, num_attention_heads, "
                  "num_key_value_heads, vocab_size)");
  return parse_llama_like(cfg, path, mt);
}

}  // namespace vram::model_detail
