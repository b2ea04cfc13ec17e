// What the parts of the model reader (core/src/model/) share: the ranges of
// config fields, the typed readers of config containers, and the functions one
// part offers the others. Internal to the core; not installed.
//
//   config.cpp       which object holds the language model, its model_type,
//                    family defaults, the native dtype, typed containers
//   families.cpp     one parser per family: decoder, deepseek, phi, bloom,
//                    t5, mamba, jamba
//   hybrid.cpp       Mamba-2 and linear-attention hybrids: granitemoehybrid,
//                    nemotron_h, qwen3_next, bamba, falcon_h1
//   layout.cpp       the attention kind of each layer: sliding windows,
//                    chunks, layer_types, cross-attention, hybrid Mamba
//   vision.cpp       vision towers and projectors
//   inventory.cpp    the tensor inventory and its compaction
//   plausibility.cpp refusing shapes beyond any real model
//   model.cpp        the public entry points, counts and names
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "vram/io/json_fields.hpp"
#include "vram/model.hpp"

namespace vram::model_detail {

using nlohmann::json;

inline constexpr io::IntRange kDim{1, 10'000'000};  // hidden sizes, widths
inline constexpr io::IntRange kCount{1, 100'000};   // heads, experts
// Decoder or vision layers: the deepest published models have under 200; 512
// leaves room while keeping a 10,000-point sweep of any model under a second.
inline constexpr io::IntRange kLayers{1, 512};
inline constexpr io::IntRange kVocab{1, 100'000'000};  // vocabulary
inline constexpr io::IntRange kPositions{1, 1'000'000'000};

/// The most parameters a config may describe: 10^14, fifty times the largest
/// published model (about 2 × 10^12). Above it a config is a mistake, and
/// refusing it early keeps every later product far from 2^63.
inline constexpr std::int64_t kMaxParams = 100'000'000'000'000;

bool is_one_of(const std::string& s, std::initializer_list<const char*> names);

// ---- config.cpp ----
// Containers of a config. Absent or null is "not stated" (nullptr or empty);
// present with another type is an InputError at the field that says which type
// is required (`what` describes the expected content).
const json* optional_object(const json& obj, std::string_view key, const std::string& path, std::string_view what);
const json* optional_array(const json& obj, std::string_view key, const std::string& path, std::string_view what);
/// A list of decoder layer indexes, each an integer in [0, layers).
std::vector<std::int64_t> optional_layer_indexes(const json& obj, std::string_view key, const std::string& path,
                                                 std::int64_t layers);
/// The first of `keys` that `obj` holds, else the first of them: the name to
/// report for a value read under aliases (n_embd / hidden_size).
std::string present_key(const json& obj, std::initializer_list<std::string_view> keys);

/// Architecture of a whole config.json (language model under text_config
/// when there is one, vision tower, native dtype, notes).
Architecture parse_config_full(const json& config, const std::string& path);

// ---- families.cpp ----
/// The family parser for `mt` (a llama-style decoder when unknown, with a note).
Architecture parse_family(const json& cfg, const std::string& path, const std::string& mt,
                          std::vector<std::string>& notes);

/// Llama-style decoder: attention shape, sizes, block layout, layer kinds, MoE.
Architecture parse_llama_like(const json& cfg, const std::string& path, const std::string& mt);

// ---- hybrid.cpp ----
/// Granite 4.0 hybrid (granitemoehybrid): Mamba-2 and attention layers, each with an MLP or MoE.
Architecture parse_granite_hybrid(const json& cfg, const std::string& path, const std::string& mt);
/// Nemotron-H: one Mamba-2, attention or MLP block per character of hybrid_override_pattern.
Architecture parse_nemotron_h(const json& cfg, const std::string& path, const std::string& mt);
/// Qwen3-Next: Gated DeltaNet and gated attention layers, MoE with a shared expert, one MTP layer.
Architecture parse_qwen3_next(const json& cfg, const std::string& path, const std::string& mt);
/// MiniMax's model types: "minimax" (transformers MiniMaxConfig) and the remote-code
/// "minimax_text_01" and "minimax_m1" configs vLLM's MiniMaxText01ForCausalLM reads.
bool is_minimax_type(const std::string& mt);
/// Qwen3-Next and Qwen3.5's text models: Gated DeltaNet beside gated attention.
bool is_qwen3_next_type(const std::string& mt);
Architecture parse_minimax(const json& cfg, const std::string& path, const std::string& mt);
/// Bamba: Mamba-2 layers with attention at attn_layer_indices, each followed by a gated MLP.
Architecture parse_bamba(const json& cfg, const std::string& path, const std::string& mt);
/// Falcon-H1: attention and a Mamba-2 mixer side by side in every layer, then a gated MLP.
Architecture parse_falcon_h1(const json& cfg, const std::string& path, const std::string& mt);

// ---- layout.cpp ----
/// One LayerSpec per decoder layer, with the sliding or chunked windows the
/// config states (layer_types, or the family's own fields).
void assign_attention_layout(Architecture& a, const json& cfg, const std::string& path);
/// Mllama's cross_attention_layers attend to image tokens only.
void mark_cross_attention_layers(Architecture& a, const json& cfg, const std::string& path);
/// Jamba: attention every attn_layer_period layers, Mamba elsewhere; MoE every
/// expert_layer_period layers.
void assign_hybrid_layout(Architecture& a, const json& cfg, const std::string& path);

// ---- vision.cpp ----
/// Parameters of the vision tower and projector described by `outer`'s
/// vision_config (0 when there is none); a note when counted generically.
/// The largest image of the families whose config.json fixes it (Gemma 3's
/// SigLIP at image_size with mm_tokens_per_image, Mistral 3's Pixtral at
/// image_size) or whose processor has one default (Qwen3-VL and Qwen3.5:
/// 16,777,216 pixels); zero otherwise.
Architecture::ImageProfile image_profile(const json& outer, const std::string& path);
std::int64_t vision_tower_params(const json& outer, const std::string& path, std::int64_t text_hidden,
                                 std::vector<std::string>& notes);

// ---- plausibility.cpp ----
/// Refuses, before the inventory is built, a language model whose shapes
/// describe more than kMaxParams parameters, at the field (under `path`, the
/// JSON pointer of `cfg`) of its largest part.
void check_shape_plausible(const Architecture& a, const json& cfg, const std::string& path);
/// Every stage of the built inventory within kMaxParams.
void check_plausible_size(const Model& m, const std::string& path);

}  // namespace vram::model_detail
