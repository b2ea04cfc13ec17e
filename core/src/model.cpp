// Config reading and tensor inventories for the supported architecture families.
//
// Sources for the tensor layouts (module definitions, transformers v4.56.0):
//   llama/mistral/qwen2/qwen3/gemma*/phi3/granite: src/transformers/models/<family>/modeling_<family>.py
//   mixtral, qwen2_moe, qwen3_moe, llama4: the same files, *SparseMoeBlock / *Experts classes
//   deepseek_v2/v3: modeling_deepseek_v3.py (DeepseekV3Attention: q_a/q_b, kv_a_proj_with_mqa, kv_b)
//   gpt_oss: modeling_gpt_oss.py (GptOssExperts: gate_up_proj + bias, down_proj + bias; sinks)
//   phi (phi-2): modeling_phi.py; bloom: modeling_bloom.py; t5/mt5: modeling_t5.py
//   falcon_mamba/mamba: modeling_falcon_mamba.py (MambaMixer); jamba: modeling_jamba.py
#include "vram/model.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram {

using io::join_path;
using io::optional_bool;
using io::optional_int;
using io::optional_int_any;
using io::optional_string;
using io::require_int_any;
using nlohmann::json;

namespace {

constexpr io::IntRange kDim{1, 10'000'000};     // hidden sizes, widths
constexpr io::IntRange kCount{1, 100'000};      // layers, heads, experts
constexpr io::IntRange kVocab{1, 100'000'000};  // vocabulary
constexpr io::IntRange kPositions{1, 1'000'000'000};

bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (s == n) return true;
  }
  return false;
}

std::string dtype_name(const json& cfg, const std::string& path, std::vector<std::string>& notes) {
  auto t = optional_string(cfg, "torch_dtype", path);
  if (!t) t = optional_string(cfg, "dtype", path);
  if (!t) {
    notes.push_back("config states no torch_dtype: native weights taken as bf16");
    return "bf16";
  }
  if (*t == "bfloat16") return "bf16";
  if (*t == "float16" || *t == "half") return "fp16";
  if (*t == "float32" || *t == "float") return "fp32";
  throw InputError(join_path(path, "torch_dtype"), "unknown dtype \"" + *t + "\"; allowed: bfloat16, float16, float32");
}

// Vision towers (ViT family: SigLIP, CLIP, Pixtral, MoonViT, Mllama) are counted
// with the standard ViT block: q,k,v,o with biases, a two-matrix MLP with
// biases, two LayerNorms with bias; patch embedding and (learned) position
// embedding; projector = the family's connector. Source: modeling_siglip.py,
// modeling_clip.py (transformers v4.56.0). The result is labelled as a count
// from the generic layout in the notes.
// Vision towers whose layout the family fixes exactly (transformers v4.56.0):
// Mllama (modeling_mllama.py MllamaVisionModel: local + gated global layers,
// tiled position embeddings), Pixtral (modeling_pixtral.py: RMSNorm, gated
// MLP, 2D RoPE so no position table) with the Mistral3 patch-merger projector,
// and Llama 4 (modeling_llama4.py Llama4VisionModel + pixel-shuffle MLP).
std::int64_t family_vision_params(const std::string& outer_type, const json& vit, const json& outer,
                                  const std::string& vp, const std::string& path, std::int64_t text_hidden,
                                  bool& known) {
  known = true;
  const std::int64_t h = require_int_any(vit, {"hidden_size"}, vp, kDim);
  const std::int64_t inter = require_int_any(vit, {"intermediate_size"}, vp, kDim);
  const std::int64_t layers = require_int_any(vit, {"num_hidden_layers"}, vp, kCount);
  const std::int64_t patch = optional_int(vit, "patch_size", vp, kDim).value_or(14);
  const std::int64_t channels = optional_int(vit, "num_channels", vp, kCount).value_or(3);
  if (outer_type == "mllama") {
    const std::int64_t global = optional_int(vit, "num_global_layers", vp, kCount).value_or(8);
    const std::int64_t image = require_int_any(vit, {"image_size"}, vp, kDim);
    const std::int64_t tiles = optional_int(vit, "max_num_tiles", vp, kCount).value_or(4);
    std::int64_t ratios = 8;  // supported_aspect_ratios of the released checkpoints
    if (auto r = vit.find("supported_aspect_ratios"); r != vit.end() && r->is_array())
      ratios = static_cast<std::int64_t>(r->size());
    const std::int64_t positions = (image / patch) * (image / patch) + 1;  // patches + class token
    const std::int64_t block = 4 * h * h + (h * inter + inter) + (inter * h + h) + 2 * (2 * h);
    const std::int64_t tower = channels * patch * patch * h              // patch conv, no bias
                               + h                                       // class embedding
                               + positions * h + 1                       // gated position embedding
                               + (ratios + 1) * tiles * positions * h    // tile position embedding
                               + 2 * ((ratios + 1) * tiles * h + 1)      // pre/post tile embeddings + gates
                               + 2 * (2 * h)                             // layernorm pre/post
                               + layers * block + global * (block + 2);  // local + gated global layers
    const std::int64_t out_dim = require_int_any(vit, {"vision_output_dim"}, vp, kDim);
    return tower + out_dim * text_hidden + text_hidden;  // multi_modal_projector
  }
  if (outer_type == "mistral3") {
    const std::int64_t block = 2 * h + 4 * h * h + 3 * h * inter;                  // two RMSNorms, q/k/v/o, gated MLP
    const std::int64_t tower = channels * patch * patch * h + h + layers * block;  // patch conv, ln_pre, layers
    const std::int64_t merge = optional_int(outer, "spatial_merge_size", path, kCount).value_or(2);
    const bool bias = optional_bool(outer, "multimodal_projector_bias", path).value_or(true);
    const std::int64_t projector = h                        // norm
                                   + h * merge * merge * h  // patch merger
                                   + h * text_hidden + text_hidden * text_hidden + (bias ? 2 * text_hidden : 0);
    return tower + projector;
  }
  if (outer_type == "llama4") {
    const std::int64_t image = require_int_any(vit, {"image_size"}, vp, kDim);
    const std::int64_t block = 4 * (h * h + h) + (h * inter + inter) + (inter * h + h) + 2 * (2 * h);
    const std::int64_t in_dim = require_int_any(vit, {"projector_input_dim"}, vp, kDim);
    const std::int64_t out_dim = require_int_any(vit, {"projector_output_dim"}, vp, kDim);
    const std::int64_t tower = channels * patch * patch * h                       // unfold-conv linear, no bias
                               + h + ((image / patch) * (image / patch) + 1) * h  // class + position embeddings
                               + 2 * (2 * h) + layers * block                     // layernorms pre/post, layers
                               + inter * in_dim + in_dim * out_dim;               // pixel-shuffle MLP
    const std::int64_t vision_out = require_int_any(vit, {"vision_output_dim"}, vp, kDim);
    return tower + vision_out * text_hidden;  // multi_modal_projector, no bias
  }
  known = false;
  return 0;
}

// Other vision towers (SigLIP, CLIP, MoonViT, ...) are counted with the standard
// ViT block: q,k,v,o with biases, a two-matrix MLP with biases, two LayerNorms
// with bias; patch embedding and learned position embedding; the projector is
// the family's connector (modeling_siglip.py, modeling_clip.py, transformers v4.56.0).
std::int64_t vision_tower_params(const json& outer, const std::string& path, std::int64_t text_hidden,
                                 std::vector<std::string>& notes) {
  const auto vit = outer.find("vision_config");
  if (vit == outer.end() || !vit->is_object()) return 0;
  const std::string vp = join_path(path, "vision_config");
  const std::string outer_type = optional_string(outer, "model_type", path).value_or("");
  bool known = false;
  const std::int64_t exact = family_vision_params(outer_type, *vit, outer, vp, path, text_hidden, known);
  if (known) return exact;
  const std::int64_t h = require_int_any(*vit, {"hidden_size", "embed_dim"}, vp, kDim);
  const std::int64_t layers = require_int_any(*vit, {"num_hidden_layers", "depth"}, vp, kCount);
  const std::int64_t inter = optional_int_any(*vit, {"intermediate_size", "mlp_ratio_dim"}, vp, kDim).value_or(4 * h);
  const std::int64_t patch = optional_int(*vit, "patch_size", vp, kDim).value_or(14);
  const std::int64_t channels = optional_int(*vit, "num_channels", vp, kCount).value_or(3);
  const std::int64_t image = optional_int(*vit, "image_size", vp, kDim).value_or(0);
  const std::int64_t patches = image > 0 ? (image / patch) * (image / patch) : 0;
  const std::int64_t block = 4 * (h * h + h) + (inter * h + inter) + (h * inter + h) + 2 * (2 * h);
  std::int64_t tower = channels * patch * patch * h + h  // patch embedding (conv) + bias
                       + patches * h                     // learned position embedding
                       + layers * block + 2 * h;         // blocks + post LayerNorm
  // SigLIP's attention-pooling head, present unless vision_use_head is false
  // (SiglipVisionConfig default true; modeling_siglip.py SiglipMultiheadAttentionPoolingHead):
  // probe h + in_proj 3h² + 3h + out_proj h² + h + LayerNorm 2h + MLP h·I + I + I·h + h.
  if (optional_string(*vit, "model_type", vp).value_or("") == "siglip_vision_model" &&
      optional_bool(*vit, "vision_use_head", vp).value_or(true)) {
    tower += h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + (h * inter + inter) + (inter * h + h);
  }
  // Gemma 3: one projection matrix plus an RMSNorm over the vision width
  // (modeling_gemma3.py Gemma3MultiModalProjector); others: LLaVA's two-layer MLP with biases.
  std::int64_t feature_layers = 1;  // LLaVA-NeXT may concatenate several vision layers
  if (auto fl = outer.find("vision_feature_layer"); fl != outer.end() && fl->is_array()) {
    feature_layers = std::max<std::int64_t>(1, static_cast<std::int64_t>(fl->size()));
  }
  const std::int64_t in = h * feature_layers;
  std::int64_t projector = in * text_hidden + text_hidden + text_hidden * text_hidden + text_hidden;
  if (outer_type == "gemma3") projector = h * text_hidden + h;
  if (outer_type == "llava_next") projector += text_hidden;  // image_newline
  if (outer_type != "gemma3") {                              // Gemma 3's SigLIP + projector is the exact layout
    notes.push_back("vision tower counted with the generic ViT layout (" + std::to_string(layers) +
                    " blocks of width " + std::to_string(h) + ") plus a two-layer projector");
  }
  return tower + projector;
}

// Which decoder layers use a sliding window, from the config's own fields.
void assign_attention_layout(Architecture& a, const json& cfg, const std::string& path) {
  a.layer_specs.assign(static_cast<std::size_t>(a.layers), LayerSpec{});
  const auto window = optional_int(cfg, "sliding_window", path, kPositions);
  const auto types = cfg.find("layer_types");
  if (types != cfg.end() && types->is_array()) {
    if (static_cast<std::int64_t>(types->size()) != a.layers) {
      throw InputError(
          join_path(path, "layer_types"),
          "has " + std::to_string(types->size()) + " entries but num_hidden_layers is " + std::to_string(a.layers));
    }
    for (std::size_t i = 0; i < types->size(); ++i) {
      const auto& t = (*types)[i];
      const std::string p = join_path(join_path(path, "layer_types"), std::to_string(i));
      if (!t.is_string()) throw InputError(p, "must be a string such as \"full_attention\"");
      const auto s = t.get<std::string>();
      if (s == "sliding_attention") {
        if (!window)
          throw InputError(join_path(path, "sliding_window"), "is required when layer_types has sliding layers");
        a.layer_specs[i] = {LayerKind::sliding_attention, *window, false};
      } else if (s == "chunked_attention") {
        const auto chunk = optional_int(cfg, "attention_chunk_size", path, kPositions);
        if (!chunk)
          throw InputError(join_path(path, "attention_chunk_size"), "is required when layer_types has chunked layers");
        a.layer_specs[i] = {LayerKind::chunked_attention, *chunk, false};
      } else if (s != "full_attention") {
        throw InputError(
            p, "unknown layer type \"" + s + "\"; allowed: full_attention, sliding_attention, chunked_attention");
      }
    }
    return;
  }
  const std::string& mt = a.model_type;
  // Llama 4: layers that use RoPE attend within chunks of attention_chunk_size; every
  // no_rope_layer_interval-th layer (NoPE) attends globally (Llama4TextConfig.no_rope_layers,
  // default interval 4; modeling_llama4.py Llama4TextAttention).
  if ((mt == "llama4_text" || mt == "llama4") && cfg.contains("attention_chunk_size")) {
    const std::int64_t chunk = io::require_int(cfg, "attention_chunk_size", path, kPositions);
    const auto explicit_layers = cfg.find("no_rope_layers");
    const std::int64_t interval = optional_int(cfg, "no_rope_layer_interval", path, kCount).value_or(4);
    for (std::int64_t i = 0; i < a.layers; ++i) {
      bool uses_rope = (i + 1) % interval != 0;
      if (explicit_layers != cfg.end() && explicit_layers->is_array() &&
          static_cast<std::int64_t>(explicit_layers->size()) == a.layers) {
        uses_rope = (*explicit_layers)[static_cast<std::size_t>(i)] == 1;
      }
      if (uses_rope) a.layer_specs[static_cast<std::size_t>(i)] = {LayerKind::chunked_attention, chunk, false};
    }
    return;
  }
  if (!window) return;
  if (mt == "gemma2") {  // even layers local, odd layers global (Gemma2DecoderLayer.is_sliding)
    for (std::int64_t i = 0; i < a.layers; i += 2) a.layer_specs[i] = {LayerKind::sliding_attention, *window, false};
  } else if (mt == "gemma3_text" || mt == "gemma3") {  // every `pattern`-th layer global
    const std::int64_t pattern = optional_int(cfg, "sliding_window_pattern", path, kCount).value_or(6);
    for (std::int64_t i = 0; i < a.layers; ++i) {
      if ((i + 1) % pattern != 0) a.layer_specs[i] = {LayerKind::sliding_attention, *window, false};
    }
  } else if (mt == "qwen2" || mt == "qwen2_moe" || mt == "qwen3" || mt == "qwen3_moe") {
    if (optional_bool(cfg, "use_sliding_window", path).value_or(false)) {
      const std::int64_t from = optional_int(cfg, "max_window_layers", path, {0, 100'000}).value_or(0);
      for (std::int64_t i = from; i < a.layers; ++i) a.layer_specs[i] = {LayerKind::sliding_attention, *window, false};
    }
  } else if (mt == "mistral" || mt == "mixtral" || mt == "mistral3") {
    if (a.max_positions == 0 || *window < a.max_positions) {
      for (auto& l : a.layer_specs) l = {LayerKind::sliding_attention, *window, false};
    }
  } else if (mt == "phi3") {
    a.notes.push_back("phi3 sliding_window is ignored: the reference implementation attends to the full context");
  }
}

struct LinearAdder {
  std::vector<Tensor>& out;
  // A linear weight [rows x cols] and, when `bias`, its bias vector.
  void linear(TensorRole role, std::int32_t layer, std::int64_t rows, std::int64_t cols, Shard shard, bool bias,
              std::int64_t count = 1, TensorStage stage = TensorStage::text) {
    out.push_back({role, layer, rows, cols, count, stage, shard, true});
    if (bias) {
      const Shard bias_shard = shard == Shard::cols ? Shard::replicated : shard;
      out.push_back({TensorRole::bias, layer, 1, rows, count, stage, bias_shard, false});
    }
  }
  void vector(TensorRole role, std::int32_t layer, std::int64_t n, Shard shard = Shard::replicated,
              std::int64_t count = 1, TensorStage stage = TensorStage::text) {
    out.push_back({role, layer, 1, n, count, stage, shard, false});
  }
  void matrix(TensorRole role, std::int32_t layer, std::int64_t rows, std::int64_t cols, Shard shard,
              TensorStage stage = TensorStage::text) {
    out.push_back({role, layer, rows, cols, 1, stage, shard, false});
  }
};

}  // namespace

// ---------------------------------------------------------------------------
// Config reading
// ---------------------------------------------------------------------------

namespace {

void parse_moe(Architecture& a, BlockLayout& s, const json& cfg, const std::string& path) {
  const auto experts = optional_int_any(cfg, {"num_local_experts", "num_experts", "n_routed_experts"}, path, kCount);
  if (!experts) return;
  a.experts = *experts;
  a.experts_per_token = require_int_any(cfg, {"num_experts_per_tok", "moe_topk"}, path, {1, *experts});
  a.expert_intermediate = optional_int(cfg, "moe_intermediate_size", path, kDim).value_or(a.intermediate);
  if (auto shared = optional_int(cfg, "shared_expert_intermediate_size", path, {0, 10'000'000})) {
    a.shared_experts_intermediate = *shared;
    s.shared_expert_gate = *shared > 0;
  }
  if (auto n_shared = optional_int(cfg, "n_shared_experts", path, {0, 1000})) {
    a.shared_experts_intermediate = *n_shared * a.expert_intermediate;
  }
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
  if (auto only = cfg.find("mlp_only_layers"); only != cfg.end() && only->is_array()) {
    for (const auto& v : *only) {
      if (v.is_number_integer() && v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() < a.layers) {
        a.layer_specs[v.get<std::int64_t>()].moe = false;
      }
    }
  }
}

Architecture parse_llama_like(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a;
  BlockLayout& s = a.block;
  a.model_type = mt;
  a.family = "decoder";
  a.hidden = require_int_any(cfg, {"hidden_size", "n_embd", "d_model"}, path, kDim);
  a.layers = require_int_any(cfg, {"num_hidden_layers", "n_layer", "num_layers"}, path, kCount);
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
  } else {
    if (a.hidden % a.heads != 0) {
      throw InputError(join_path(path, "num_attention_heads"), "must divide hidden_size (" + std::to_string(a.hidden) +
                                                                   ") when head_dim is not given; got " +
                                                                   std::to_string(a.heads));
    }
    a.head_dim = a.hidden / a.heads;
  }
  a.v_head_dim = a.head_dim;
  a.intermediate = require_int_any(cfg, {"intermediate_size", "n_inner", "ffn_dim"}, path, kDim);
  a.vocab = require_int_any(cfg, {"vocab_size"}, path, kVocab);
  a.max_positions =
      optional_int_any(cfg, {"max_position_embeddings", "n_positions", "max_sequence_length"}, path, kPositions)
          .value_or(0);
  const double partial = io::optional_number(cfg, "partial_rotary_factor", path, 0.0, 1.0).value_or(1.0);
  a.rotary_dim = static_cast<std::int64_t>(std::llround(static_cast<double>(a.head_dim) * partial));
  const bool gemma = mt.rfind("gemma", 0) == 0;
  a.tied_embeddings = optional_bool(cfg, "tie_word_embeddings", path).value_or(gemma);

  // Biases and norms by family (defaults of each transformers *Config class).
  const bool attention_bias = optional_bool(cfg, "attention_bias", path).value_or(false);
  s.qkv_bias = attention_bias || is_one_of(mt, {"qwen2", "qwen2_moe", "qwen2_vl", "qwen2_5_vl"});
  s.o_bias = attention_bias;
  s.mlp_bias = optional_bool(cfg, "mlp_bias", path).value_or(false);
  s.qk_norm = is_one_of(mt, {"qwen3", "qwen3_moe", "gemma3", "gemma3_text", "olmo2"});
  s.norms_per_layer = is_one_of(mt, {"gemma2", "gemma3", "gemma3_text"}) ? 4 : 2;

  assign_attention_layout(a, cfg, path);
  // Mllama: cross-attention layers attend to the image tokens, not to the text
  // (modeling_mllama.py MllamaCrossAttentionDecoderLayer), so they add no per-token cache.
  if (mt == "mllama_text_model") s.extra_embedding_rows = 8;  // MllamaTextModel: vocab_size + 8 image tokens
  if (auto cross = cfg.find("cross_attention_layers"); cross != cfg.end() && cross->is_array()) {
    for (const auto& v : *cross) {
      if (v.is_number_integer() && v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() < a.layers) {
        a.layer_specs[static_cast<std::size_t>(v.get<std::int64_t>())].kind = LayerKind::cross_attention;
      }
    }
  }
  parse_moe(a, s, cfg, path);
  if (mt == "gpt_oss") {
    s.sinks = true;
    s.router_bias = true;
    s.expert_bias = true;
    s.qkv_bias = s.o_bias = true;
  }
  return a;
}

Architecture parse_deepseek(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a = parse_llama_like(cfg, path, mt);
  a.family = "deepseek";
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
  a.family = "phi";
  a.block.qkv_bias = a.block.o_bias = a.block.mlp_bias = true;
  a.block.layernorm_bias = true;
  a.block.gated_mlp = false;
  a.block.norms_per_layer = 1;  // one LayerNorm feeds the parallel attention and MLP
  return a;
}

Architecture parse_bloom(const json& cfg, const std::string& path, const std::string& mt) {
  Architecture a;
  a.model_type = mt;
  a.family = "bloom";
  a.hidden = require_int_any(cfg, {"hidden_size", "n_embed"}, path, kDim);
  a.layers = require_int_any(cfg, {"n_layer", "num_hidden_layers"}, path, kCount);
  a.heads = require_int_any(cfg, {"n_head", "num_attention_heads"}, path, kCount);
  if (a.hidden % a.heads != 0) {
    throw InputError(join_path(path, "n_head"), "must divide hidden_size (" + std::to_string(a.hidden) + ")");
  }
  a.kv_heads = a.heads;
  a.head_dim = a.v_head_dim = a.hidden / a.heads;
  a.intermediate = 4 * a.hidden;
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
  a.family = "t5";
  a.hidden = io::require_int(cfg, "d_model", path, kDim);
  a.head_dim = a.v_head_dim = io::require_int(cfg, "d_kv", path, kDim);
  a.intermediate = io::require_int(cfg, "d_ff", path, kDim);
  a.encoder_layers = io::require_int(cfg, "num_layers", path, kCount);
  a.layers = optional_int(cfg, "num_decoder_layers", path, kCount).value_or(a.encoder_layers);
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
  a.family = "mamba";
  a.hidden = require_int_any(cfg, {"hidden_size", "d_model"}, path, kDim);
  a.layers = require_int_any(cfg, {"num_hidden_layers", "n_layer"}, path, kCount);
  a.vocab = require_int_any(cfg, {"vocab_size"}, path, kVocab);
  const std::int64_t expand = optional_int(cfg, "expand", path, kCount).value_or(2);
  a.ssm_inner = optional_int(cfg, "intermediate_size", path, kDim).value_or(expand * a.hidden);
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
  a.family = "jamba";
  const auto attn_period = optional_int(cfg, "attn_layer_period", path, kCount).value_or(8);
  const auto attn_offset = optional_int(cfg, "attn_layer_offset", path, {0, attn_period - 1}).value_or(4);
  const auto expert_period = optional_int(cfg, "expert_layer_period", path, kCount).value_or(2);
  const auto expert_offset = optional_int(cfg, "expert_layer_offset", path, {0, 100'000}).value_or(1);
  const std::int64_t expand = optional_int(cfg, "mamba_expand", path, kCount).value_or(2);
  a.ssm_inner = expand * a.hidden;
  a.ssm_state = optional_int(cfg, "mamba_d_state", path, kDim).value_or(16);
  a.ssm_conv = optional_int(cfg, "mamba_d_conv", path, kCount).value_or(4);
  a.ssm_dt_rank = optional_int(cfg, "mamba_dt_rank", path, kDim).value_or((a.hidden + 15) / 16);
  a.block.qkv_bias = false;
  for (std::int64_t i = 0; i < a.layers; ++i) {
    auto& l = a.layer_specs[i];
    l.kind = (i % attn_period == attn_offset) ? LayerKind::full_attention : LayerKind::mamba;
    l.moe = a.experts > 0 && i % expert_period == expert_offset;
  }
  return a;
}

Architecture parse_family(const json& cfg, const std::string& path, const std::string& mt,
                          std::vector<std::string>& notes) {
  if (is_one_of(mt, {"t5", "mt5", "umt5"})) return parse_t5(cfg, path, mt);
  if (mt == "bloom") return parse_bloom(cfg, path, mt);
  if (is_one_of(mt, {"mamba", "falcon_mamba"})) return parse_mamba(cfg, path, mt);
  if (mt == "jamba") return parse_jamba(cfg, path, mt);
  if (mt == "phi") return parse_phi(cfg, path, mt);
  if (is_one_of(mt, {"deepseek_v2", "deepseek_v3", "kimi_k2"})) return parse_deepseek(cfg, path, mt);
  static const char* const kLlamaLike[] = {"llama",       "mistral",   "mixtral", "qwen2",     "qwen2_moe",
                                           "qwen3",       "qwen3_moe", "gemma",   "gemma2",    "gemma3",
                                           "gemma3_text", "phi3",      "granite", "gpt_oss",   "llama4_text",
                                           "llama4",      "mistral3",  "olmo2",   "internlm2", "yi",
                                           "starcoder2",  "cohere",    "exaone",  "deepseek",  "mllama_text_model"};
  for (const char* known : kLlamaLike) {
    if (mt == known) return parse_llama_like(cfg, path, mt);
  }
  notes.push_back("model_type \"" + mt +
                  "\" is not a known family: counted as a llama-style decoder from the generic fields "
                  "(hidden_size, intermediate_size, num_hidden_layers, num_attention_heads, "
                  "num_key_value_heads, vocab_size)");
  return parse_llama_like(cfg, path, mt);
}

}  // namespace

namespace {

// Values a family's config class supplies when config.json omits them
// (transformers writes only non-default keys for nested configs).
// Gemma3TextConfig defaults: transformers v4.56.0
// src/transformers/models/gemma3/configuration_gemma3.py.
json with_family_defaults(const json& cfg, const std::string& mt) {
  if (mt != "gemma3_text") return cfg;
  json out = cfg;
  const json defaults = {{"vocab_size", 262208},
                         {"hidden_size", 2304},
                         {"intermediate_size", 9216},
                         {"num_hidden_layers", 26},
                         {"num_attention_heads", 8},
                         {"num_key_value_heads", 4},
                         {"head_dim", 256},
                         {"max_position_embeddings", 131072},
                         {"sliding_window", 4096},
                         {"sliding_window_pattern", 6},
                         {"tie_word_embeddings", true}};
  for (auto it = defaults.begin(); it != defaults.end(); ++it) {
    if (!out.contains(it.key())) out[it.key()] = it.value();
  }
  return out;
}

Architecture parse_config_full(const json& config, const std::string& path) {
  io::require_object(config, path, "config");
  std::vector<std::string> notes;
  const json* text = &config;
  std::string text_path = path;
  const auto tc = config.find("text_config");
  if (tc != config.end() && tc->is_object()) {
    text = &*tc;
    text_path = join_path(path, "text_config");
  }
  std::string mt = optional_string(*text, "model_type", text_path).value_or("");
  if (mt.empty()) mt = optional_string(config, "model_type", path).value_or("");
  if (mt.empty()) {
    notes.push_back("config has no model_type: counted as a llama-style decoder from the generic fields");
    mt = "unknown";
  }
  if (mt == "gemma3") mt = "gemma3_text";
  const json text_cfg = with_family_defaults(*text, mt);
  Architecture a = parse_family(text_cfg, text_path, mt, notes);
  // dtype: the text config may omit it when the outer config states it.
  std::vector<std::string> dtype_notes;
  if (text != &config && !text_cfg.contains("torch_dtype") && !text_cfg.contains("dtype")) {
    a.native_dtype = dtype_name(config, path, dtype_notes);
  } else {
    a.native_dtype = dtype_name(text_cfg, text_path, dtype_notes);
  }
  if (config.contains("quantization_config") && dtype_notes.size() == 1 && !config.contains("torch_dtype")) {
    dtype_notes[0] = "config states no torch_dtype: unquantized tensors taken as bf16";
  }
  a.vision_params = vision_tower_params(config, path, a.hidden, notes);
  if (a.max_positions == 0 && text != &config) {
    a.max_positions = optional_int(config, "max_position_embeddings", path, kPositions).value_or(0);
  }
  a.notes.insert(a.notes.begin(), notes.begin(), notes.end());
  a.notes.insert(a.notes.end(), dtype_notes.begin(), dtype_notes.end());
  return a;
}

// ---------------------------------------------------------------------------
// Inventories
// ---------------------------------------------------------------------------

void add_norm(LinearAdder& add, const BlockLayout& s, std::int32_t layer, std::int64_t n,
              TensorStage stage = TensorStage::text) {
  add.vector(TensorRole::norm, layer, n, Shard::replicated, 1, stage);
  if (s.layernorm_bias) add.vector(TensorRole::norm, layer, n, Shard::replicated, 1, stage);
}

void add_attention(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, TensorStage stage) {
  const std::int64_t h = a.hidden;
  if (a.family == "deepseek") {
    const std::int64_t qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
    if (a.q_lora_rank > 0) {
      add.linear(TensorRole::mla_q_a, i, a.q_lora_rank, h, Shard::replicated, false, 1, stage);
      add.vector(TensorRole::norm, i, a.q_lora_rank, Shard::replicated, 1, stage);
      add.linear(TensorRole::mla_q_b, i, a.heads * qk, a.q_lora_rank, Shard::rows, false, 1, stage);
    } else {
      add.linear(TensorRole::attn_q, i, a.heads * qk, h, Shard::rows, false, 1, stage);
    }
    add.linear(TensorRole::mla_kv_a, i, a.kv_lora_rank + a.qk_rope_head_dim, h, Shard::replicated, false, 1, stage);
    add.vector(TensorRole::norm, i, a.kv_lora_rank, Shard::replicated, 1, stage);
    add.linear(TensorRole::mla_kv_b, i, a.heads * (a.qk_nope_head_dim + a.v_head_dim), a.kv_lora_rank, Shard::rows,
               false, 1, stage);
    add.linear(TensorRole::attn_o, i, h, a.heads * a.v_head_dim, Shard::cols, false, 1, stage);
    return;
  }
  if (a.family == "bloom") {
    add.linear(TensorRole::attn_qkv, i, 3 * h, h, Shard::rows, true, 1, stage);
    add.linear(TensorRole::attn_o, i, h, h, Shard::cols, true, 1, stage);
    return;
  }
  if (a.layer_specs[static_cast<std::size_t>(i)].kind == LayerKind::cross_attention) {
    // MllamaTextCrossAttention: per-head q/k RMSNorms and two tanh gates.
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, 1, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, 1, Shard::replicated, 1, stage);
  }
  add.linear(TensorRole::attn_q, i, a.heads * a.head_dim, h, Shard::rows, s.qkv_bias, 1, stage);
  add.linear(TensorRole::attn_k, i, a.kv_heads * a.head_dim, h, Shard::kv_rows, s.qkv_bias, 1, stage);
  add.linear(TensorRole::attn_v, i, a.kv_heads * a.head_dim, h, Shard::kv_rows, s.qkv_bias, 1, stage);
  add.linear(TensorRole::attn_o, i, h, a.heads * a.head_dim, Shard::cols, s.o_bias, 1, stage);
  if (s.qk_norm) {
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
  }
  if (s.sinks) add.vector(TensorRole::attn_sinks, i, a.heads, Shard::rows, 1, stage);
}

void add_dense_mlp(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, std::int64_t width,
                   TensorStage stage) {
  if (s.gated_mlp) add.linear(TensorRole::mlp_gate, i, width, a.hidden, Shard::rows, s.mlp_bias, 1, stage);
  add.linear(TensorRole::mlp_up, i, width, a.hidden, Shard::rows, s.mlp_bias, 1, stage);
  add.linear(TensorRole::mlp_down, i, a.hidden, width, Shard::cols, s.mlp_bias, 1, stage);
}

void add_moe(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, TensorStage stage) {
  const std::int64_t h = a.hidden;
  const std::int64_t e = a.experts;
  add.matrix(TensorRole::router, i, e, h, Shard::replicated, stage);
  if (s.router_bias) add.vector(TensorRole::bias, i, e, Shard::replicated, 1, stage);
  if (s.score_correction_bias) add.vector(TensorRole::bias, i, e, Shard::replicated, 1, stage);
  add.linear(TensorRole::expert_gate, i, a.expert_intermediate, h, Shard::rows, s.expert_bias, e, stage);
  add.linear(TensorRole::expert_up, i, a.expert_intermediate, h, Shard::rows, s.expert_bias, e, stage);
  add.linear(TensorRole::expert_down, i, h, a.expert_intermediate, Shard::cols, s.expert_bias, e, stage);
  if (a.shared_experts_intermediate > 0) {
    add_dense_mlp(add, a, s, i, a.shared_experts_intermediate, stage);
    if (s.shared_expert_gate) add.matrix(TensorRole::router, i, 1, h, Shard::replicated, stage);
  }
}

void add_mamba_mixer(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, bool jamba_norms) {
  const std::int64_t d = a.ssm_inner;
  add.linear(TensorRole::ssm_in, i, 2 * d, a.hidden, Shard::rows, s.qkv_bias);
  add.matrix(TensorRole::ssm_conv, i, d, a.ssm_conv, Shard::rows);
  add.vector(TensorRole::bias, i, d, Shard::rows);  // conv1d bias
  add.linear(TensorRole::ssm_x, i, a.ssm_dt_rank + 2 * a.ssm_state, d, Shard::cols, false);
  add.linear(TensorRole::ssm_dt, i, d, a.ssm_dt_rank, Shard::rows, true);
  add.matrix(TensorRole::ssm_state, i, d, a.ssm_state, Shard::rows);  // A_log
  add.vector(TensorRole::ssm_state, i, d, Shard::rows);               // D
  add.linear(TensorRole::ssm_out, i, a.hidden, d, Shard::cols, s.qkv_bias);
  if (jamba_norms) {
    add.vector(TensorRole::norm, i, a.ssm_dt_rank);
    add.vector(TensorRole::norm, i, a.ssm_state);
    add.vector(TensorRole::norm, i, a.ssm_state);
  }
}

void add_decoder_layer(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i,
                       const LayerSpec& spec, TensorStage stage) {
  for (int n = 0; n < s.norms_per_layer; ++n) add_norm(add, s, i, a.hidden, stage);
  if (spec.kind == LayerKind::mamba) {
    add_mamba_mixer(add, a, s, i, a.family == "jamba");
    if (a.family == "mamba") return;
  } else {
    add_attention(add, a, s, i, stage);
  }
  if (spec.moe) {
    add_moe(add, a, s, i, stage);
  } else {
    add_dense_mlp(add, a, s, i, s.dense_intermediate > 0 ? s.dense_intermediate : a.intermediate, stage);
  }
}

std::vector<Tensor> t5_inventory(const Architecture& a, const BlockLayout& s) {
  std::vector<Tensor> t;
  LinearAdder add{t};
  const std::int64_t h = a.hidden;
  const std::int64_t inner = a.heads * a.head_dim;
  add.matrix(TensorRole::embedding, -1, a.vocab, h, Shard::rows);
  auto attention = [&](std::int32_t i) {
    add.linear(TensorRole::attn_q, i, inner, h, Shard::rows, false);
    add.linear(TensorRole::attn_k, i, inner, h, Shard::kv_rows, false);
    add.linear(TensorRole::attn_v, i, inner, h, Shard::kv_rows, false);
    add.linear(TensorRole::attn_o, i, h, inner, Shard::cols, false);
    add.vector(TensorRole::norm, i, h);
  };
  auto feed_forward = [&](std::int32_t i) {
    add_dense_mlp(add, a, s, i, a.intermediate, TensorStage::text);
    add.vector(TensorRole::norm, i, h);
  };
  const std::int64_t buckets = 32;  // T5Config.relative_attention_num_buckets default
  for (std::int32_t i = 0; i < a.encoder_layers; ++i) {
    attention(i);
    if (i == 0) add.matrix(TensorRole::rel_position_bias, i, buckets, a.heads, Shard::rows);
    feed_forward(i);
  }
  add.vector(TensorRole::norm, -1, h);
  for (std::int32_t i = 0; i < a.layers; ++i) {
    const std::int32_t li = static_cast<std::int32_t>(a.encoder_layers) + i;
    attention(li);  // self-attention
    if (i == 0) add.matrix(TensorRole::rel_position_bias, li, buckets, a.heads, Shard::rows);
    attention(li);  // cross-attention
    feed_forward(li);
  }
  add.vector(TensorRole::norm, -1, h);
  if (!a.tied_embeddings) add.matrix(TensorRole::lm_head, -1, a.vocab, h, Shard::rows);
  return t;
}

std::vector<Tensor> inventory(const Architecture& a, const BlockLayout& s) {
  if (a.family == "t5") return t5_inventory(a, s);
  std::vector<Tensor> t;
  t.reserve(static_cast<std::size_t>(a.layers) * 24 + 8);
  LinearAdder add{t};
  add.matrix(TensorRole::embedding, -1, a.vocab + s.extra_embedding_rows, a.hidden, Shard::rows);
  if (a.family == "bloom") {  // word_embeddings_layernorm (weight + bias)
    add.vector(TensorRole::embedding_norm, -1, a.hidden);
    add.vector(TensorRole::embedding_norm, -1, a.hidden);
  }
  for (std::int32_t i = 0; i < a.layers; ++i) {
    add_decoder_layer(add, a, s, i, a.layer_specs[i], TensorStage::text);
  }
  add_norm(add, s, -1, a.hidden);
  if (!a.tied_embeddings) {
    add.matrix(TensorRole::lm_head, -1, a.vocab, a.hidden, Shard::rows);
    if (a.family == "phi") add.vector(TensorRole::bias, -1, a.vocab, Shard::rows);
  }
  // DeepSeek multi-token-prediction layers: a full MoE decoder layer plus its own
  // embedding, head, two norms and a 2h -> h projection (DeepSeek-V3 README_WEIGHTS.md).
  for (std::int64_t m = 0; m < s.mtp_layers; ++m) {
    const auto i = static_cast<std::int32_t>(a.layers + m);
    LayerSpec spec{LayerKind::mla, 0, a.experts > 0};
    add_decoder_layer(add, a, s, i, spec, TensorStage::mtp);
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);  // enorm
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);  // hnorm
    add.linear(TensorRole::mlp_down, i, a.hidden, 2 * a.hidden, Shard::replicated, false, 1, TensorStage::mtp);
    add.matrix(TensorRole::embedding, i, a.vocab, a.hidden, Shard::rows, TensorStage::mtp);
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);
    add.matrix(TensorRole::lm_head, i, a.vocab, a.hidden, Shard::rows, TensorStage::mtp);
  }
  if (a.vision_params > 0) {
    // Engines shard vision towers over tensor-parallel ranks like the language model
    // (vLLM ColumnParallelLinear/RowParallelLinear in its vision encoders).
    add.matrix(TensorRole::vision, -1, 1, a.vision_params, Shard::rows, TensorStage::vision);
  }
  return t;
}

}  // namespace

namespace {

// Merges entries that differ only in their (consecutive) layer, keeping the
// order in which each kind first appears.
std::vector<Tensor> compact(const std::vector<Tensor>& in) {
  std::vector<Tensor> out;
  out.reserve(in.size() / 8 + 8);
  auto same_kind = [](const Tensor& a, const Tensor& b) {
    return a.role == b.role && a.rows == b.rows && a.cols == b.cols && a.count == b.count && a.stage == b.stage &&
           a.shard == b.shard && a.quantizable == b.quantizable;
  };
  std::vector<std::size_t> open;  // indexes in `out` of entries still growing
  for (const Tensor& t : in) {
    bool merged = false;
    if (t.layer >= 0) {
      for (std::size_t k : open) {
        Tensor& g = out[k];
        if (same_kind(g, t) && g.layer + g.layers == t.layer) {
          g.layers += t.layers;
          merged = true;
          break;
        }
      }
    }
    if (!merged) {
      out.push_back(t);
      if (t.layer >= 0) open.push_back(out.size() - 1);
    }
  }
  return out;
}

}  // namespace

std::vector<Tensor> tensor_inventory(const Architecture& arch) {
  return compact(inventory(arch, arch.block));
}

Model model_from_config(const json& config, const std::string& path, std::string id) {
  Model m;
  m.id = std::move(id);
  m.arch = parse_config_full(config, path);
  // Refuse absurd shapes before any integer product can overflow: 10^15
  // parameters is a thousand times the largest published model.
  double params = static_cast<double>(m.arch.vocab) * static_cast<double>(m.arch.hidden) * 4;
  const double width = static_cast<double>(std::max({m.arch.intermediate, m.arch.expert_intermediate, m.arch.hidden,
                                                     m.arch.heads * m.arch.head_dim, m.arch.ssm_inner}));
  params += static_cast<double>(m.arch.layers + m.arch.encoder_layers) * static_cast<double>(m.arch.hidden) * width *
            static_cast<double>(3 * std::max<std::int64_t>(1, m.arch.experts) + 8);
  if (params > 1e15) {
    throw InputError(path, "describes about " + format_decimal(params / 1e12, 0) +
                               " trillion parameters, beyond any real model (10^15 is the limit): check hidden_size, "
                               "intermediate_size, num_hidden_layers, vocab_size and the expert counts");
  }
  m.tensors = tensor_inventory(m.arch);
  return m;
}

Model model_from_param_count(std::int64_t params) {
  Model m;
  m.id = "params";
  m.bare_params = params;
  m.arch.family = "bare";
  m.arch.native_dtype = "bf16";
  m.tensors.push_back({TensorRole::mlp_up, -1, 1, params, 1, TensorStage::text, Shard::rows, true});
  return m;
}

std::int64_t parameter_count(const std::vector<Tensor>& tensors, std::optional<TensorStage> stage) {
  std::int64_t n = 0;
  for (const auto& t : tensors) {
    if (!stage || t.stage == *stage) n += t.elements();
  }
  return n;
}

std::int64_t active_parameter_count(const Model& model) {
  std::int64_t n = 0;
  for (const auto& t : model.tensors) {
    if (t.stage != TensorStage::text) continue;
    const bool expert = t.count > 1 && t.count == model.arch.experts;
    n += expert ? t.rows * t.cols * model.arch.experts_per_token * t.layers : t.elements();
  }
  return n;
}

const char* to_string(TensorRole role) {
  switch (role) {
    case TensorRole::embedding: return "token embedding";
    case TensorRole::embedding_norm: return "embedding norm";
    case TensorRole::lm_head: return "lm_head";
    case TensorRole::position_embedding: return "position embedding";
    case TensorRole::attn_q: return "attention q";
    case TensorRole::attn_k: return "attention k";
    case TensorRole::attn_v: return "attention v";
    case TensorRole::attn_qkv: return "attention qkv";
    case TensorRole::attn_o: return "attention output";
    case TensorRole::attn_sinks: return "attention sinks";
    case TensorRole::mla_q_a: return "MLA q_a";
    case TensorRole::mla_q_b: return "MLA q_b";
    case TensorRole::mla_kv_a: return "MLA kv_a";
    case TensorRole::mla_kv_b: return "MLA kv_b";
    case TensorRole::mlp_gate: return "MLP gate";
    case TensorRole::mlp_up: return "MLP up";
    case TensorRole::mlp_down: return "MLP down";
    case TensorRole::expert_gate: return "expert gate";
    case TensorRole::expert_up: return "expert up";
    case TensorRole::expert_down: return "expert down";
    case TensorRole::router: return "router";
    case TensorRole::ssm_in: return "SSM in_proj";
    case TensorRole::ssm_conv: return "SSM conv1d";
    case TensorRole::ssm_x: return "SSM x_proj";
    case TensorRole::ssm_dt: return "SSM dt_proj";
    case TensorRole::ssm_state: return "SSM A/D";
    case TensorRole::ssm_out: return "SSM out_proj";
    case TensorRole::norm: return "norm";
    case TensorRole::bias: return "bias";
    case TensorRole::rel_position_bias: return "relative position bias";
    case TensorRole::vision: return "vision tower";
    case TensorRole::projector: return "projector";
  }
  return "tensor";
}

const char* to_string(LayerKind kind) {
  switch (kind) {
    case LayerKind::full_attention: return "full attention";
    case LayerKind::sliding_attention: return "sliding-window attention";
    case LayerKind::chunked_attention: return "chunked local attention";
    case LayerKind::mla: return "multi-head latent attention";
    case LayerKind::mamba: return "mamba (recurrent state)";
    case LayerKind::cross_attention: return "cross-attention (image tokens)";
  }
  return "layer";
}

}  // namespace vram
