// Parsers of the hybrid families whose layers are not all softmax attention:
// Mamba-2 mixers beside attention (IBM Granite 4.0 hybrid, NVIDIA Nemotron-H) and Gated DeltaNet linear attention
// beside gated attention (Qwen3-Next). Each reads the per-layer kinds from its config's own field and the defaults of
// its transformers *Config class.
//
// Sources:
//   granitemoehybrid: transformers src/transformers/models/granitemoehybrid/configuration_granitemoehybrid.py
//     GraniteMoeHybridConfig (layer_types "mamba"/"attention", mamba_* fields; v4.56.0), modeling_granitemoehybrid.py
//     GraniteMoeHybridMambaLayer (intermediate = mamba_expand × hidden), GraniteMoeHybridMoE + shared_mlp
//   nemotron_h: configuration_nemotron_h.py NemotronHConfig.layers_block_type (hybrid_override_pattern: M mamba,
//     * attention, - MLP, E MoE), modeling_nemotron_h.py NemotronHMamba2Mixer (intermediate = mamba_num_heads ×
//     mamba_head_dim), NemotronHBlock (one norm, one mixer); vllm/model_executor/models/nemotron_h.py NemotronHMoE
//     (vllm-project/vllm @ 28be48fa944d: GateLinear router, fp32 e_score_correction_bias, FusedMoE with
//     is_act_and_mul=False, shared_experts of moe_shared_expert_intermediate_size × n_shared_experts)
//   qwen3_next: configuration_qwen3_next.py Qwen3NextConfig (layer_types default: linear_attention unless
//     (i + 1) % full_attention_interval == 0; read at commit 008e574, the family added in v4.57.0),
//     modeling_qwen3_next.py Qwen3NextAttention (q_proj 2 × heads × head_dim: query and output gate);
//     Qwen3.5's text models (qwen3_5_text, qwen3_5_moe_text) have the same layers, with layer_types, attn_output_gate,
//     mtp_num_hidden_layers and mamba_ssm_dtype stated in text_config (Qwen/Qwen3.5-* config.json)
//   bamba: transformers configuration_bamba.py BambaConfig (layers_block_type: "attention" at
//     attn_layer_indices, else "mamba"; the mamba_* fields and defaults of GraniteMoeHybridConfig, which copies
//     them; max_position_embeddings 262144; v4.48.0 documentation), vllm/model_executor/models/bamba.py
//     BambaMixerDecoderLayer / BambaAttentionDecoderLayer (input_layernorm, mixer, pre_ff_layernorm, gated MLP;
//     head_dim = hidden / heads; rotary width partial_rotary_factor × head_dim, else attn_rotary_emb)
//   falcon_h1: vllm/model_executor/models/falcon_h1.py FalconH1ParallelHybrid (self_attn and mamba side by side
//     on every layer, then feed_forward; d_ssm = mamba_d_ssm, else mamba_expand × hidden; MambaMixer2 with its
//     gated norm only when mamba_rms_norm), transformers FalconH1Config defaults (mamba_n_heads 128,
//     mamba_d_head "auto", mamba_n_groups 1, mamba_d_state 256, mamba_d_conv 4, mamba_rms_norm false)
#include <optional>
#include <string>
#include <vector>

#include "model_internal.hpp"
#include "vram/error.hpp"

namespace vram::model_detail {

using io::join_path;
using io::optional_bool;
using io::optional_int;

namespace {

/// Mamba-2 head width: mamba_d_head, or "auto" (absent) = intermediate / heads.
std::int64_t mamba2_head_dim(const json& cfg, const std::string& path, std::int64_t inner, std::int64_t heads) {
  const auto it = cfg.find("mamba_d_head");
  if (it != cfg.end() && !it->is_string()) return io::require_int(cfg, "mamba_d_head", path, kDim);
  if (inner % heads != 0) {
    throw InputError(join_path(path, "mamba_n_heads"), "must divide the Mamba width mamba_expand × hidden_size (" +
                                                           std::to_string(inner) + ") when mamba_d_head is \"auto\"");
  }
  return inner / heads;
}

/// The Mamba-2 fields of the Granite 4.0 hybrid configs (GraniteMoeHybridConfig
/// defaults; Falcon-H1's mixer reads the same keys). `inner`: the mixer's width
/// when the config states it (Falcon-H1's mamba_d_ssm), else expand × hidden.
void read_mamba2_fields(Architecture& a, const json& cfg, const std::string& path, std::optional<std::int64_t> inner) {
  const std::int64_t expand = optional_int(cfg, "mamba_expand", path, kCount).value_or(2);
  a.ssm_inner = inner ? *inner : checked::mul(expand, a.hidden);
  a.ssm_heads = optional_int(cfg, "mamba_n_heads", path, kCount).value_or(128);
  a.ssm_head_dim = mamba2_head_dim(cfg, path, a.ssm_inner, a.ssm_heads);
  a.ssm_groups = optional_int(cfg, "mamba_n_groups", path, kCount).value_or(1);
  a.ssm_state = optional_int(cfg, "mamba_d_state", path, kDim).value_or(256);
  a.ssm_conv = optional_int(cfg, "mamba_d_conv", path, kCount).value_or(4);
  a.block.ssm_conv_bias = optional_bool(cfg, "mamba_conv_bias", path).value_or(true);
  a.block.ssm_proj_bias = optional_bool(cfg, "mamba_proj_bias", path).value_or(false);
}

void read_granite_mamba2(Architecture& a, const json& cfg, const std::string& path) {
  read_mamba2_fields(a, cfg, path, std::nullopt);
}

/// The Mamba-2 heads must tile the mixer's width, and the groups its heads.
void check_mamba2_shape(const Architecture& a, const std::string& path, std::string_view heads_key,
                        std::string_view groups_key) {
  if (checked::mul(a.ssm_heads, a.ssm_head_dim) != a.ssm_inner) {
    throw InputError(join_path(path, heads_key), "× head width " + std::to_string(a.ssm_head_dim) +
                                                     " must equal the Mamba width " + std::to_string(a.ssm_inner) +
                                                     "; got " + std::to_string(a.ssm_heads) + " heads");
  }
  if (a.ssm_heads % a.ssm_groups != 0) {
    throw InputError(join_path(path, groups_key), "must divide the Mamba heads (" + std::to_string(a.ssm_heads) +
                                                      "); got " + std::to_string(a.ssm_groups));
  }
}

/// A copy of `cfg` without num_local_experts when it is 0: Granite 4.0 dense
/// hybrids (h-micro, h-1b) state 0 experts and keep only the shared MLP.
json without_zero_experts(const json& cfg) {
  json c = cfg;
  const auto it = c.find("num_local_experts");
  if (it != c.end() && it->is_number_integer() && it->get<std::int64_t>() == 0) c.erase("num_local_experts");
  return c;
}

}  // namespace

Architecture parse_granite_hybrid(const json& cfg, const std::string& path, const std::string& mt) {
  const json c = without_zero_experts(cfg);
  Architecture a = parse_llama_like(c, path, mt);
  a.family = Family::granite_hybrid;
  read_granite_mamba2(a, c, path);
  check_mamba2_shape(a, path, "mamba_n_heads", "mamba_n_groups");
  if (const auto shared = optional_int(c, "shared_intermediate_size", path, {0, 10'000'000})) {
    if (a.experts > 0) {
      a.shared_experts_intermediate = *shared;  // shared_mlp beside the routed experts
    } else {
      a.block.dense_intermediate = *shared;  // the shared MLP is the only MLP
    }
  }
  if (io::optional_string(c, "position_embedding_type", path).value_or("rope") == "nope") a.rotary_dim = 0;
  return a;
}

namespace {

/// The element width of the config's mamba_ssm_cache_dtype (the value vLLM's
/// NemotronHForCausalLMConfig takes for an "auto" SSM state); 0 when not stated.
std::int64_t config_ssm_cache_bits(const json& cfg, const std::string& path, const char* key) {
  const auto v = io::optional_string(cfg, key, path);
  if (!v || *v == "auto") return 0;
  if (*v == "float32") return 32;
  if (*v == "float16" || *v == "bfloat16") return 16;
  throw InputError(join_path(path, key), "unknown value \"" + *v + "\"; allowed: auto, float32, float16, bfloat16");
}

/// Nemotron-H: one block kind per character of hybrid_override_pattern.
void apply_nemotron_pattern(Architecture& a, const json& cfg, const std::string& path) {
  const std::string p = join_path(path, "hybrid_override_pattern");
  const auto pattern = io::optional_string(cfg, "hybrid_override_pattern", path);
  if (!pattern) throw InputError(p, "is required: one character per layer (M Mamba-2, * attention, - MLP, E MoE)");
  if (static_cast<std::int64_t>(pattern->size()) != a.layers) {
    throw InputError(p, "has " + std::to_string(pattern->size()) + " characters but num_hidden_layers is " +
                            std::to_string(a.layers));
  }
  for (std::size_t i = 0; i < pattern->size(); ++i) {
    const char ch = (*pattern)[i];
    LayerSpec& l = a.layer_specs[i];
    l.moe = false;
    if (ch == 'M') {
      l.kind = LayerKind::mamba2;
    } else if (ch == '*') {
      l.kind = LayerKind::full_attention;
    } else if (ch == '-') {
      l.kind = LayerKind::mlp_only;
    } else if (ch == 'E') {
      if (a.experts == 0) {
        throw InputError(p, "has 'E' (a mixture-of-experts block) at layer " + std::to_string(i) +
                                " but the config states no n_routed_experts");
      }
      l.kind = LayerKind::mlp_only;
      l.moe = true;
    } else {
      throw InputError(p, std::string("has '") + ch + "' at layer " + std::to_string(i) +
                              "; allowed: M (Mamba-2), * (attention), - (MLP), E (mixture of experts)");
    }
  }
}

/// Nemotron-H MoE blocks (NemotronHMoE): a sigmoid router with an fp32
/// e_score_correction_bias, non-gated relu² experts and a shared expert of
/// moe_shared_expert_intermediate_size × n_shared_experts.
void read_nemotron_moe(Architecture& a, const json& cfg, const std::string& path) {
  if (a.experts == 0) return;
  if (cfg.contains("moe_latent_size") && !cfg.at("moe_latent_size").is_null()) {
    throw InputError(join_path(path, "moe_latent_size"),
                     "latent MoE (experts working in a projected width, fc1/fc2_latent_proj) is not modelled");
  }
  a.block.score_correction_bias = true;
  const std::int64_t shared = optional_int(cfg, "n_shared_experts", path, {0, 1000}).value_or(0);
  const auto width = optional_int(cfg, "moe_shared_expert_intermediate_size", path, kDim);
  if (shared > 0 && !width) {
    throw InputError(join_path(path, "moe_shared_expert_intermediate_size"),
                     "is required with n_shared_experts: the shared expert's width");
  }
  a.shared_experts_intermediate = shared > 0 ? checked::mul(shared, *width) : 0;
}

}  // namespace

Architecture parse_nemotron_h(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::nemotron_h;
  apply_nemotron_pattern(a, cfg, path);
  read_nemotron_moe(a, cfg, path);
  a.ssm_heads = optional_int(cfg, "mamba_num_heads", path, kCount).value_or(128);
  a.ssm_head_dim = optional_int(cfg, "mamba_head_dim", path, kDim).value_or(64);
  a.ssm_inner = checked::mul(a.ssm_heads, a.ssm_head_dim);
  // NemotronHConfig also accepts the mamba_* spellings of these fields.
  a.ssm_groups = io::optional_int_any(cfg, {"n_groups", "mamba_n_groups"}, path, kCount).value_or(8);
  a.ssm_state = optional_int(cfg, "ssm_state_size", path, kDim).value_or(128);
  a.ssm_conv = io::optional_int_any(cfg, {"conv_kernel", "mamba_d_conv"}, path, kCount).value_or(4);
  check_mamba2_shape(a, path, "mamba_num_heads", present_key(cfg, {"n_groups", "mamba_n_groups"}));
  a.block.ssm_conv_bias =
      optional_bool(cfg, cfg.contains("mamba_conv_bias") ? "mamba_conv_bias" : "use_conv_bias", path).value_or(true);
  a.block.ssm_proj_bias =
      optional_bool(cfg, cfg.contains("mamba_proj_bias") ? "mamba_proj_bias" : "use_bias", path).value_or(false);
  a.block.gated_mlp = false;  // up_proj → relu² → down_proj
  a.block.norms_per_layer = 1;
  a.config_ssm_cache_bits = config_ssm_cache_bits(cfg, path, "mamba_ssm_cache_dtype");
  return a;
}

Architecture parse_qwen3_next(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::qwen3_next;
  if (!cfg.contains("layer_types")) {
    const std::int64_t interval = optional_int(cfg, "full_attention_interval", path, kCount).value_or(4);
    for (std::int64_t i = 0; i < a.layers; ++i) {
      if ((i + 1) % interval != 0) a.layer_specs[static_cast<std::size_t>(i)].kind = LayerKind::linear_attention;
    }
  }
  a.linear_k_heads = optional_int(cfg, "linear_num_key_heads", path, kCount).value_or(16);
  a.linear_v_heads = optional_int(cfg, "linear_num_value_heads", path, kCount).value_or(32);
  a.linear_k_dim = optional_int(cfg, "linear_key_head_dim", path, kDim).value_or(128);
  a.linear_v_dim = optional_int(cfg, "linear_value_head_dim", path, kDim).value_or(128);
  a.linear_conv = optional_int(cfg, "linear_conv_kernel_dim", path, kCount).value_or(4);
  if (a.linear_v_heads % a.linear_k_heads != 0) {
    throw InputError(join_path(path, "linear_num_key_heads"), "must divide linear_num_value_heads (" +
                                                                  std::to_string(a.linear_v_heads) + "); got " +
                                                                  std::to_string(a.linear_k_heads));
  }
  a.block.qk_norm = true;
  a.block.attn_output_gate = io::optional_bool(cfg, "attn_output_gate", path).value_or(true);
  // Qwen3.5 states the recurrent state's dtype (mamba_ssm_dtype float32), which vLLM takes.
  a.config_ssm_cache_bits = config_ssm_cache_bits(cfg, path, "mamba_ssm_dtype");
  // The published checkpoints store one multi-token-prediction layer (mtp.*);
  // its config does not say so (Qwen3-Next-80B-A3B-Instruct tensor listing).
  a.block.mtp_layers =
      io::optional_int_any(cfg, {"num_nextn_predict_layers", "mtp_num_hidden_layers"}, path, {0, 100}).value_or(1);
  return a;
}

bool is_qwen3_next_type(const std::string& mt) {
  return mt == "qwen3_next" || mt == "qwen3_5_text" || mt == "qwen3_5_moe_text";
}

bool is_minimax_type(const std::string& mt) {
  return mt == "minimax" || mt == "minimax_text_01" || mt == "minimax_m1";
}

namespace {

/// MiniMax's attn_type_list (or decoder_attention_types): one 0 (lightning) or 1 (softmax) per layer.
void apply_minimax_attention_types(Architecture& a, const json& cfg, const std::string& path) {
  const char* key = cfg.contains("attn_type_list") ? "attn_type_list" : "decoder_attention_types";
  const json* list = optional_array(cfg, key, path, "one attention type per layer: 0 lightning, 1 softmax");
  if (list == nullptr) {
    throw InputError(join_path(path, "attn_type_list"),
                     "is required for a MiniMax model without layer_types: one 0 (lightning attention) or 1 (softmax "
                     "attention) per layer");
  }
  const std::string lp = join_path(path, key);
  if (static_cast<std::int64_t>(list->size()) != a.layers) {
    throw InputError(lp, "has " + std::to_string(list->size()) + " entries but num_hidden_layers is " +
                             std::to_string(a.layers));
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (!v.is_number_integer() || (v.get<std::int64_t>() != 0 && v.get<std::int64_t>() != 1))
      throw InputError(join_path(lp, std::to_string(i)), "must be 0 (lightning attention) or 1 (softmax attention)");
    if (v.get<std::int64_t>() == 0) a.layer_specs[i].kind = LayerKind::lightning_attention;
  }
}

}  // namespace

Architecture parse_minimax(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::minimax;
  if (!cfg.contains("layer_types")) apply_minimax_attention_types(a, cfg, path);
  // The softmax layers rotate rotary_dim of each head's dims (MiniMax-Text-01: 64 of 128).
  if (const auto rotary = optional_int(cfg, "rotary_dim", path, {1, a.head_dim})) a.rotary_dim = *rotary;
  if (const auto shared = optional_int(cfg, "shared_intermediate_size", path, {0, 10'000'000}); shared && *shared > 0)
    a.shared_experts_intermediate = *shared;
  // block_sparse_moe.gate is created in fp32 (vllm minimax_text_01.py MiniMaxText01MoE: params_dtype
  // torch.float32) and stored so (MiniMax-M1 index: 31,457,280 B more than bf16 over 80 gates).
  a.block.router_fp32 = a.experts > 0;
  return a;
}

namespace {

/// Bamba: attention at attn_layer_indices, Mamba-2 elsewhere (BambaConfig.layers_block_type).
void apply_bamba_layers(Architecture& a, const json& cfg, const std::string& path) {
  const std::vector<std::int64_t> attention = optional_layer_indexes(cfg, "attn_layer_indices", path, a.layers);
  for (LayerSpec& l : a.layer_specs) l.kind = LayerKind::mamba2;
  for (const std::int64_t i : attention) a.layer_specs[static_cast<std::size_t>(i)].kind = LayerKind::full_attention;
}

/// The rotary width vLLM's bamba.py gives the attention layers: partial_rotary_factor × head_dim, else
/// attn_rotary_emb, else head_dim.
std::int64_t bamba_rotary_dim(const Architecture& a, const json& cfg, const std::string& path) {
  if (cfg.contains("partial_rotary_factor")) return a.rotary_dim;
  return optional_int(cfg, "attn_rotary_emb", path, kDim).value_or(a.head_dim);
}

}  // namespace

Architecture parse_bamba(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::bamba;
  apply_bamba_layers(a, cfg, path);
  read_granite_mamba2(a, cfg, path);
  check_mamba2_shape(a, path, "mamba_n_heads", "mamba_n_groups");
  a.rotary_dim = bamba_rotary_dim(a, cfg, path);
  if (a.max_positions == 0) a.max_positions = 262'144;  // BambaConfig.max_position_embeddings default
  return a;
}

namespace {

/// The Mamba-2 mixer of Falcon-H1's layers (FalconH1SSMDecoderLayer, FalconH1Config defaults).
void read_falcon_h1_mamba2(Architecture& a, const json& cfg, const std::string& path) {
  read_mamba2_fields(a, cfg, path, optional_int(cfg, "mamba_d_ssm", path, kDim));
  a.block.ssm_gated_norm = optional_bool(cfg, "mamba_rms_norm", path).value_or(false);
}

}  // namespace

Architecture parse_falcon_h1(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = Family::falcon_h1;
  if (const json* idx = optional_array(cfg, "attn_layer_indices", path, "decoder layer indexes"); idx != nullptr) {
    throw InputError(join_path(path, "attn_layer_indices"),
                     "is not modelled for falcon_h1: every Falcon-H1 layer runs attention and Mamba-2 side by side; "
                     "allowed: null or absent");
  }
  for (LayerSpec& l : a.layer_specs) l.kind = LayerKind::attention_mamba2;
  read_falcon_h1_mamba2(a, cfg, path);
  check_mamba2_shape(a, path, "mamba_n_heads", "mamba_n_groups");
  return a;
}

}  // namespace vram::model_detail
