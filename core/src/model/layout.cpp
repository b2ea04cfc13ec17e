// The attention kind of each decoder layer, from the config's own fields:
// layer_types, the family's sliding-window rules, Llama 4's chunked local
// attention, Mllama's cross-attention layers and Jamba's Mamba/attention mix.
#include <optional>
#include <string>
#include <vector>

#include "model_internal.hpp"
#include "vram/error.hpp"
#include "vram/io/json_read.hpp"

namespace vram::model_detail {

using io::join_path;
using io::optional_bool;
using io::optional_int;

namespace {

// The layer types a hybrid family's layer_types may name beyond the attention
// kinds: Qwen3-Next's "linear_attention" (Gated DeltaNet), Granite 4.0
// hybrid's "mamba" (Mamba-2) and "attention".
std::optional<LayerKind> family_layer_type(const std::string& mt, const std::string& s) {
  if (is_qwen3_next_type(mt) && s == "linear_attention") return LayerKind::linear_attention;
  if (is_minimax_type(mt) && s == "linear_attention") return LayerKind::lightning_attention;
  if (mt == "granitemoehybrid" && s == "mamba") return LayerKind::mamba2;
  if (mt == "granitemoehybrid" && s == "attention") return LayerKind::full_attention;
  return std::nullopt;
}

std::string family_layer_type_names(const std::string& mt) {
  if (is_qwen3_next_type(mt) || is_minimax_type(mt)) return ", linear_attention";
  if (mt == "granitemoehybrid") return ", mamba, attention";
  return "";
}

// layer_types (one entry per layer): true when the config states it.
bool apply_layer_types(Architecture& a, const json& cfg, const std::string& path,
                       const std::optional<std::int64_t>& window) {
  const json* types = optional_array(cfg, "layer_types", path,
                                     "one layer type per layer, such as [\"sliding_attention\", \"full_attention\"]");
  if (types == nullptr) return false;
  const std::string tp = join_path(path, "layer_types");
  if (static_cast<std::int64_t>(types->size()) != a.layers) {
    throw InputError(
        tp, "has " + std::to_string(types->size()) + " entries but num_hidden_layers is " + std::to_string(a.layers));
  }
  for (std::size_t i = 0; i < types->size(); ++i) {
    const auto& t = (*types)[i];
    const std::string p = join_path(tp, std::to_string(i));
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
    } else if (const auto kind = family_layer_type(a.model_type, s)) {
      a.layer_specs[i] = {*kind, 0, false};
    } else if (s != "full_attention") {
      throw InputError(p, "unknown layer type \"" + s + "\" for model_type \"" + a.model_type +
                              "\"; allowed: full_attention, sliding_attention, chunked_attention" +
                              family_layer_type_names(a.model_type));
    }
  }
  return true;
}

// Llama4TextConfig.no_rope_layers: one 0 or 1 per layer, 1 where the layer uses
// RoPE. Empty when the config does not state it (an empty list means the same
// to transformers: the interval rule applies).
std::vector<bool> explicit_rope_layers(const json& cfg, const std::string& path, std::int64_t layers) {
  const json* list = optional_array(cfg, "no_rope_layers", path, "one 0 or 1 per layer, 1 where the layer uses RoPE");
  std::vector<bool> out;
  if (list == nullptr || list->empty()) return out;
  const std::string lp = join_path(path, "no_rope_layers");
  if (static_cast<std::int64_t>(list->size()) != layers) {
    throw InputError(
        lp, "has " + std::to_string(list->size()) + " entries but num_hidden_layers is " + std::to_string(layers));
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (!v.is_number_integer() || (v.get<std::int64_t>() != 0 && v.get<std::int64_t>() != 1)) {
      throw InputError(join_path(lp, std::to_string(i)),
                       "must be 0 (a NoPE layer, global attention) or 1 (a RoPE layer, chunked attention); got " +
                           io::describe_value(v));
    }
    out.push_back(v.get<std::int64_t>() == 1);
  }
  return out;
}

// Llama 4: layers that use RoPE attend within chunks of attention_chunk_size; every
// no_rope_layer_interval-th layer (NoPE) attends globally (Llama4TextConfig.no_rope_layers,
// default interval 4; modeling_llama4.py Llama4TextAttention). True when it applies.
bool apply_llama4_chunks(Architecture& a, const json& cfg, const std::string& path) {
  const std::string& mt = a.model_type;
  if ((mt != "llama4_text" && mt != "llama4") || !cfg.contains("attention_chunk_size")) return false;
  const std::int64_t chunk = io::require_int(cfg, "attention_chunk_size", path, kPositions);
  const std::vector<bool> explicit_layers = explicit_rope_layers(cfg, path, a.layers);
  const std::int64_t interval = optional_int(cfg, "no_rope_layer_interval", path, kCount).value_or(4);
  for (std::int64_t i = 0; i < a.layers; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const bool uses_rope = explicit_layers.empty() ? (i + 1) % interval != 0 : explicit_layers[k];
    if (uses_rope) a.layer_specs[k] = {LayerKind::chunked_attention, chunk, false};
  }
  return true;
}

// The sliding-window rule of each family, for a config that states a window.
void apply_family_window(Architecture& a, const json& cfg, const std::string& path, std::int64_t window) {
  const std::string& mt = a.model_type;
  const LayerSpec sliding{LayerKind::sliding_attention, window, false};
  if (mt == "gemma2") {  // even layers local, odd layers global (Gemma2DecoderLayer.is_sliding)
    for (std::int64_t i = 0; i < a.layers; i += 2) a.layer_specs[i] = sliding;
  } else if (mt == "gemma3_text" || mt == "gemma3") {  // every `pattern`-th layer global
    const std::int64_t pattern = optional_int(cfg, "sliding_window_pattern", path, kCount).value_or(6);
    for (std::int64_t i = 0; i < a.layers; ++i) {
      if ((i + 1) % pattern != 0) a.layer_specs[i] = sliding;
    }
  } else if (mt == "qwen2" || mt == "qwen2_moe" || mt == "qwen3" || mt == "qwen3_moe") {
    if (optional_bool(cfg, "use_sliding_window", path).value_or(false)) {
      const std::int64_t from = optional_int(cfg, "max_window_layers", path, {0, 100'000}).value_or(0);
      for (std::int64_t i = from; i < a.layers; ++i) a.layer_specs[i] = sliding;
    }
  } else if (mt == "mistral" || mt == "mixtral" || mt == "mistral3") {
    if (a.max_positions == 0 || window < a.max_positions) {
      for (auto& l : a.layer_specs) l = sliding;
    }
  } else if (mt == "phi3") {
    a.notes.push_back("phi3 sliding_window is ignored: the reference implementation attends to the full context");
  }
}

}  // namespace

void assign_attention_layout(Architecture& a, const json& cfg, const std::string& path) {
  a.layer_specs.assign(static_cast<std::size_t>(a.layers), LayerSpec{});
  const auto window = optional_int(cfg, "sliding_window", path, kPositions);
  if (apply_layer_types(a, cfg, path, window)) return;
  if (apply_llama4_chunks(a, cfg, path)) return;
  if (window) apply_family_window(a, cfg, path, *window);
}

// Mllama: cross-attention layers attend to the image tokens, not to the text
// (modeling_mllama.py MllamaCrossAttentionDecoderLayer), so they add no per-token cache.
void mark_cross_attention_layers(Architecture& a, const json& cfg, const std::string& path) {
  for (std::int64_t i : optional_layer_indexes(cfg, "cross_attention_layers", path, a.layers)) {
    a.layer_specs[static_cast<std::size_t>(i)].kind = LayerKind::cross_attention;
  }
}

void assign_hybrid_layout(Architecture& a, const json& cfg, const std::string& path) {
  const auto attn_period = optional_int(cfg, "attn_layer_period", path, kCount).value_or(8);
  const auto attn_offset = optional_int(cfg, "attn_layer_offset", path, {0, attn_period - 1}).value_or(4);
  const auto expert_period = optional_int(cfg, "expert_layer_period", path, kCount).value_or(2);
  const auto expert_offset = optional_int(cfg, "expert_layer_offset", path, {0, 100'000}).value_or(1);
  for (std::int64_t i = 0; i < a.layers; ++i) {
    auto& l = a.layer_specs[i];
    l.kind = (i % attn_period == attn_offset) ? LayerKind::full_attention : LayerKind::mamba;
    l.moe = a.experts > 0 && i % expert_period == expert_offset;
  }
}

}  // namespace vram::model_detail
