// Reading a config.json: which object holds the language model (the config
// itself or its text_config), its model_type, the values a family's config
// class supplies when the file omits them, and the native dtype; and the typed
// readers of the containers (objects, lists) a config holds.
#include <string>
#include <vector>

#include "model_internal.hpp"
#include "vram/error.hpp"
#include "vram/io/json_read.hpp"

namespace vram::model_detail {

using io::join_path;
using io::optional_int;
using io::optional_string;

bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (s == n) return true;
  }
  return false;
}

namespace {

/// The value at `key`, or nullptr when it is absent or null.
const json* stated(const json& obj, std::string_view key) {
  const auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace

const json* optional_object(const json& obj, std::string_view key, const std::string& path, std::string_view what) {
  const json* v = stated(obj, key);
  if (v != nullptr && !v->is_object()) {
    throw InputError(join_path(path, key),
                     "must be an object (" + std::string(what) + "); got " + io::describe_value(*v));
  }
  return v;
}

const json* optional_array(const json& obj, std::string_view key, const std::string& path, std::string_view what) {
  const json* v = stated(obj, key);
  if (v != nullptr && !v->is_array()) {
    throw InputError(join_path(path, key),
                     "must be an array (" + std::string(what) + "); got " + io::describe_value(*v));
  }
  return v;
}

std::vector<std::int64_t> optional_layer_indexes(const json& obj, std::string_view key, const std::string& path,
                                                 std::int64_t layers) {
  const json* list = optional_array(obj, key, path, "of decoder layer indexes");
  std::vector<std::int64_t> out;
  if (list == nullptr) return out;
  const std::string lp = join_path(path, key);
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= layers) {
      throw InputError(join_path(lp, std::to_string(i)),
                       "must be a layer index from 0 to " + std::to_string(layers - 1) + " (num_hidden_layers is " +
                           std::to_string(layers) + "); got " + io::describe_value(v));
    }
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

std::string present_key(const json& obj, std::initializer_list<std::string_view> keys) {
  for (std::string_view k : keys) {
    if (obj.contains(k)) return std::string(k);
  }
  return std::string(*keys.begin());
}

namespace {

std::string dtype_name(const json& cfg, const std::string& path, std::vector<std::string>& notes) {
  const char* key = "torch_dtype";
  auto t = optional_string(cfg, key, path);
  if (!t) t = optional_string(cfg, key = "dtype", path);
  if (!t) {
    notes.push_back("config states no torch_dtype: native weights taken as bf16");
    return "bf16";
  }
  if (*t == "bfloat16") return "bf16";
  if (*t == "float16" || *t == "half") return "fp16";
  if (*t == "float32" || *t == "float") return "fp32";
  throw InputError(join_path(path, key), "unknown dtype \"" + *t + "\"; allowed: bfloat16, float16, float32");
}

// Values a family's config class supplies when config.json omits them
// (transformers writes only non-default keys for nested configs).
// Gemma3TextConfig defaults: transformers v4.56.0
// src/transformers/models/gemma3/configuration_gemma3.py.
// Qwen3.5's MoE text config has no intermediate_size: every layer is sparse
// (Qwen3_5MoeTextConfig, mlp_only_layers empty); the expert width stands in
// for the dense width the generic reader asks for.
json with_family_defaults(const json& cfg, const std::string& mt) {
  if (mt == "qwen3_5_moe_text" && !cfg.contains("intermediate_size") && cfg.contains("moe_intermediate_size")) {
    json out = cfg;
    out["intermediate_size"] = cfg.at("moe_intermediate_size");
    return out;
  }
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

/// The object that describes the language model, and its JSON pointer.
struct TextPart {
  const json* cfg;
  std::string path;
};

TextPart text_part(const json& config, const std::string& path) {
  const json* tc = optional_object(config, "text_config", path, "the language model's config");
  if (tc != nullptr) return {tc, join_path(path, "text_config")};
  return {&config, path};
}

/// model_type of the text part, else of the outer config, else "unknown" (with a note).
std::string read_model_type(const json& config, const std::string& path, const TextPart& text,
                            std::vector<std::string>& notes) {
  std::string mt = optional_string(*text.cfg, "model_type", text.path).value_or("");
  if (mt.empty()) mt = optional_string(config, "model_type", path).value_or("");
  if (mt.empty()) {
    notes.push_back("config has no model_type: counted as a llama-style decoder from the generic fields");
    mt = "unknown";
  }
  if (mt == "gemma3") mt = "gemma3_text";
  // Qwen3-VL's language models are Qwen3's decoders (transformers Qwen3VLTextModel, Qwen3VLMoeTextModel:
  // q_norm and k_norm per layer, the MoE layers of Qwen3-MoE); only their rotary sections differ.
  if (mt == "qwen3_vl_text") mt = "qwen3";
  if (mt == "qwen3_vl_moe_text") mt = "qwen3_moe";
  return mt;
}

/// Native dtype: the text config may omit it when the outer config states it.
std::string read_native_dtype(const json& config, const std::string& path, const TextPart& text, const json& text_cfg,
                              std::vector<std::string>& dtype_notes) {
  std::string dtype;
  if (text.cfg != &config && !text_cfg.contains("torch_dtype") && !text_cfg.contains("dtype")) {
    dtype = dtype_name(config, path, dtype_notes);
  } else {
    dtype = dtype_name(text_cfg, text.path, dtype_notes);
  }
  if (config.contains("quantization_config") && dtype_notes.size() == 1 && !config.contains("torch_dtype")) {
    dtype_notes[0] = "config states no torch_dtype: unquantized tensors taken as bf16";
  }
  return dtype;
}

std::int64_t read_vision_params(const json& config, const std::string& path, std::int64_t text_hidden,
                                std::vector<std::string>& notes) {
  try {
    return vision_tower_params(config, path, text_hidden, notes);
  } catch (const ArithmeticOverflow&) {
    throw InputError(join_path(path, "vision_config"),
                     "describes a vision tower of more than 2^63 parameters, beyond any real model: check its "
                     "hidden_size, intermediate_size, num_hidden_layers, patch_size and image_size");
  }
}

}  // namespace

Architecture parse_config_full(const json& config, const std::string& path) {
  io::require_object(config, path, "config");
  std::vector<std::string> notes;
  const TextPart text = text_part(config, path);
  const std::string mt = read_model_type(config, path, text, notes);
  const json text_cfg = with_family_defaults(*text.cfg, mt);
  Architecture a = parse_family(text_cfg, text.path, mt, notes);
  std::vector<std::string> dtype_notes;
  a.native_dtype = read_native_dtype(config, path, text, text_cfg, dtype_notes);
  a.vision_params = read_vision_params(config, path, a.hidden, notes);
  if (a.vision_params > 0) a.image_profile = image_profile(config, path);
  if (a.max_positions == 0 && text.cfg != &config) {
    a.max_positions = optional_int(config, "max_position_embeddings", path, kPositions).value_or(0);
  }
  a.notes.insert(a.notes.begin(), notes.begin(), notes.end());
  a.notes.insert(a.notes.end(), dtype_notes.begin(), dtype_notes.end());
  check_shape_plausible(a, text_cfg, text.path);
  return a;
}

}  // namespace vram::model_detail
