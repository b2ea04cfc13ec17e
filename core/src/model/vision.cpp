// Vision towers and projectors of multimodal configs, counted from
// vision_config. Every formula is over checked counts, so an absurd tower
// throws ArithmeticOverflow instead of wrapping.
//
// Towers whose layout the family fixes exactly (transformers v4.56.0):
// Mllama (modeling_mllama.py MllamaVisionModel: local + gated global layers,
// tiled position embeddings), Pixtral (modeling_pixtral.py: RMSNorm, gated
// MLP, 2D RoPE so no position table) with the Mistral3 patch-merger projector,
// and Llama 4 (modeling_llama4.py Llama4VisionModel + pixel-shuffle MLP).
// Others (SigLIP, CLIP, MoonViT, ...) are counted with the standard ViT block
// and labelled as such in the notes.
#include <algorithm>
#include <string>
#include <vector>

#include "model_internal.hpp"
#include "vram/error.hpp"
#include "vram/io/json_read.hpp"

namespace vram::model_detail {

using checked::Count;
using io::join_path;
using io::optional_bool;
using io::optional_int;
using io::optional_int_any;
using io::optional_string;
using io::require_int_any;

namespace {

/// The fields every family layout reads from vision_config.
struct VitShape {
  Count h, inter, layers, patch, channels;
};

VitShape read_family_vit(const json& vit, const std::string& vp) {
  VitShape v;
  v.h = require_int_any(vit, {"hidden_size"}, vp, kDim);
  v.inter = require_int_any(vit, {"intermediate_size"}, vp, kDim);
  v.layers = require_int_any(vit, {"num_hidden_layers"}, vp, kLayers);
  v.patch = optional_int(vit, "patch_size", vp, kDim).value_or(14);
  v.channels = optional_int(vit, "num_channels", vp, kCount).value_or(3);
  return v;
}

Count mllama_vision(const VitShape& v, const json& vit, const std::string& vp, Count text_hidden) {
  const Count h = v.h, inter = v.inter, patch = v.patch;
  const Count global = optional_int(vit, "num_global_layers", vp, kLayers).value_or(8);
  const Count image = require_int_any(vit, {"image_size"}, vp, kDim);
  const Count tiles = optional_int(vit, "max_num_tiles", vp, kCount).value_or(4);
  Count ratios = 8;  // supported_aspect_ratios of the released checkpoints
  if (const json* r = optional_array(vit, "supported_aspect_ratios", vp, "of [width, height] tile layouts"))
    ratios = static_cast<std::int64_t>(r->size());
  const Count positions = (image / patch) * (image / patch) + 1;  // patches + class token
  const Count block = 4 * h * h + (h * inter + inter) + (inter * h + h) + 2 * (2 * h);
  const Count tower = v.channels * patch * patch * h              // patch conv, no bias
                      + h                                         // class embedding
                      + positions * h + 1                         // gated position embedding
                      + (ratios + 1) * tiles * positions * h      // tile position embedding
                      + 2 * ((ratios + 1) * tiles * h + 1)        // pre/post tile embeddings + gates
                      + 2 * (2 * h)                               // layernorm pre/post
                      + v.layers * block + global * (block + 2);  // local + gated global layers
  const Count out_dim = require_int_any(vit, {"vision_output_dim"}, vp, kDim);
  return tower + out_dim * text_hidden + text_hidden;  // multi_modal_projector
}

Count pixtral_vision(const VitShape& v, const json& outer, const std::string& path, Count text_hidden) {
  const Count h = v.h;
  const Count block = 2 * h + 4 * h * h + 3 * h * v.inter;                        // two RMSNorms, q/k/v/o, gated MLP
  const Count tower = v.channels * v.patch * v.patch * h + h + v.layers * block;  // patch conv, ln_pre, layers
  const Count merge = optional_int(outer, "spatial_merge_size", path, kCount).value_or(2);
  const bool bias = optional_bool(outer, "multimodal_projector_bias", path).value_or(true);
  const Count projector = h                        // norm
                          + h * merge * merge * h  // patch merger
                          + h * text_hidden + text_hidden * text_hidden + (bias ? 2 * text_hidden : Count{0});
  return tower + projector;
}

Count llama4_vision(const VitShape& v, const json& vit, const std::string& vp, Count text_hidden) {
  const Count h = v.h, inter = v.inter, patch = v.patch;
  const Count image = require_int_any(vit, {"image_size"}, vp, kDim);
  const Count block = 4 * (h * h + h) + (h * inter + inter) + (inter * h + h) + 2 * (2 * h);
  const Count in_dim = require_int_any(vit, {"projector_input_dim"}, vp, kDim);
  const Count out_dim = require_int_any(vit, {"projector_output_dim"}, vp, kDim);
  const Count tower = v.channels * patch * patch * h                     // unfold-conv linear, no bias
                      + h + ((image / patch) * (image / patch) + 1) * h  // class + position embeddings
                      + 2 * (2 * h) + v.layers * block                   // layernorms pre/post, layers
                      + inter * in_dim + in_dim * out_dim;               // pixel-shuffle MLP
  const Count vision_out = require_int_any(vit, {"vision_output_dim"}, vp, kDim);
  return tower + vision_out * text_hidden;  // multi_modal_projector, no bias
}

// Qwen3-VL's tower, also Qwen3.5's (vllm/model_executor/models/qwen3_vl.py Qwen3_VisionTransformer @ 28be48fa944d):
// a Conv3d patch embedding (in_channels × temporal_patch_size × patch² × h + bias), a learned position embedding of
// num_position_embeddings, depth blocks of two LayerNorms, qkv and proj with biases and a two-matrix MLP with
// biases, a merger (LayerNorm over h, then m = h × spatial_merge_size² → m → out_hidden_size, with biases) and one
// deepstack merger (its LayerNorm over m) per deepstack_visual_indexes entry.
Count qwen3_vl_vision(const json& vit, const std::string& vp, Count text_hidden) {
  const Count h = require_int_any(vit, {"hidden_size"}, vp, kDim);
  const Count inter = require_int_any(vit, {"intermediate_size"}, vp, kDim);
  const Count depth = require_int_any(vit, {"depth", "num_hidden_layers"}, vp, kLayers);
  const Count channels = optional_int(vit, "in_channels", vp, kCount).value_or(3);
  const Count patch = optional_int(vit, "patch_size", vp, kDim).value_or(16);
  const Count temporal = optional_int(vit, "temporal_patch_size", vp, kCount).value_or(2);
  const Count positions = optional_int(vit, "num_position_embeddings", vp, kPositions).value_or(2304);
  const Count merge = optional_int(vit, "spatial_merge_size", vp, kCount).value_or(2);
  const Count out = optional_int(vit, "out_hidden_size", vp, kDim).value_or(text_hidden);
  Count deepstack = 0;
  if (const json* d = optional_array(vit, "deepstack_visual_indexes", vp, "the vision layers whose features are merged"))
    deepstack = static_cast<std::int64_t>(d->size());
  const Count m = h * merge * merge;
  const Count block = 2 * (2 * h) + (3 * h * h + 3 * h) + (h * h + h) + (h * inter + inter) + (inter * h + h);
  const Count mlp = (m * m + m) + (m * out + out);
  return channels * temporal * patch * patch * h + h + positions * h + depth * block + (2 * h + mlp) +
         deepstack * (2 * m + mlp);
}

// Qwen2-VL's and Qwen2.5-VL's towers (transformers v4.56.0 modeling_qwen2_vl.py / modeling_qwen2_5_vl.py): a
// Conv3d patch embedding without bias (in_chans × temporal_patch_size × patch² × width), no position table (2D
// RoPE), depth blocks of q/k/v (one fused Linear) and proj with biases, and a merger (a norm over the width, then
// m = width × spatial_merge_size² → m → the language model's width, with biases). Qwen2-VL: LayerNorms with bias
// and a two-matrix MLP of mlp_ratio × embed_dim; vision_config.hidden_size is the merger's output. Qwen2.5-VL:
// RMSNorms (weight only) and a gated MLP of intermediate_size with biases; out_hidden_size is the output.
Count qwen2_vl_vision(bool v2_5, const json& vit, const std::string& vp, Count text_hidden) {
  const Count depth = require_int_any(vit, {"depth"}, vp, kLayers);
  const Count channels = optional_int_any(vit, {"in_chans", "in_channels"}, vp, kCount).value_or(3);
  const Count patch = optional_int_any(vit, {"patch_size", "spatial_patch_size"}, vp, kDim).value_or(14);
  const Count temporal = optional_int(vit, "temporal_patch_size", vp, kCount).value_or(2);
  const Count merge = optional_int(vit, "spatial_merge_size", vp, kCount).value_or(2);
  Count w, out, block, norm;
  if (v2_5) {
    w = require_int_any(vit, {"hidden_size"}, vp, kDim);
    const Count inter = require_int_any(vit, {"intermediate_size"}, vp, kDim);
    out = optional_int(vit, "out_hidden_size", vp, kDim).value_or(text_hidden);
    norm = w;
    block = 2 * norm + (3 * w * w + 3 * w) + (w * w + w) + 2 * (w * inter + inter) + (inter * w + w);
  } else {
    w = require_int_any(vit, {"embed_dim"}, vp, kDim);
    const Count inter = w * optional_int(vit, "mlp_ratio", vp, kCount).value_or(4);
    out = optional_int(vit, "hidden_size", vp, kDim).value_or(text_hidden);
    norm = 2 * w;
    block = 2 * norm + (3 * w * w + 3 * w) + (w * w + w) + (w * inter + inter) + (inter * w + w);
  }
  const Count m = w * merge * merge;
  return channels * temporal * patch * patch * w + depth * block + norm + (m * m + m) + (m * out + out);
}

// The tower of a family whose layout is known exactly; `known` false otherwise
// (then nothing is read, so the generic layout's aliases apply).
Count family_vision_params(const std::string& outer_type, const json& vit, const json& outer, const std::string& vp,
                           const std::string& path, Count text_hidden, bool& known) {
  if (is_one_of(outer_type, {"qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"})) {
    known = true;
    return qwen3_vl_vision(vit, vp, text_hidden);
  }
  if (is_one_of(outer_type, {"qwen2_vl", "qwen2_5_vl"})) {
    known = true;
    return qwen2_vl_vision(outer_type == "qwen2_5_vl", vit, vp, text_hidden);
  }
  known = is_one_of(outer_type, {"mllama", "mistral3", "llama4"});
  if (!known) return 0;
  const VitShape v = read_family_vit(vit, vp);
  if (outer_type == "mllama") return mllama_vision(v, vit, vp, text_hidden);
  if (outer_type == "mistral3") return pixtral_vision(v, outer, path, text_hidden);
  return llama4_vision(v, vit, vp, text_hidden);
}

// The standard ViT block: q,k,v,o with biases, a two-matrix MLP with biases,
// two LayerNorms with bias; patch embedding and learned position embedding
// (modeling_siglip.py, modeling_clip.py, transformers v4.56.0).
Count generic_tower(const json& vit, const std::string& vp, Count& h, Count& inter, Count& layers) {
  // vt_*: MoonViT's names in Kimi-K2.5's vision_config.
  h = require_int_any(vit, {"hidden_size", "embed_dim", "vt_hidden_size"}, vp, kDim);
  layers = require_int_any(vit, {"num_hidden_layers", "depth", "vt_num_hidden_layers"}, vp, kLayers);
  inter = optional_int_any(vit, {"intermediate_size", "mlp_ratio_dim", "vt_intermediate_size"}, vp, kDim).value_or(4 * h);
  const Count patch = optional_int(vit, "patch_size", vp, kDim).value_or(14);
  const Count channels = optional_int(vit, "num_channels", vp, kCount).value_or(3);
  const Count image = optional_int(vit, "image_size", vp, kDim).value_or(0);
  const Count patches = image > 0 ? (image / patch) * (image / patch) : Count{0};
  const Count block = 4 * (h * h + h) + (inter * h + inter) + (h * inter + h) + 2 * (2 * h);
  Count tower = channels * patch * patch * h + h  // patch embedding (conv) + bias
                + patches * h                     // learned position embedding
                + layers * block + 2 * h;         // blocks + post LayerNorm
  // CLIP's tower (modeling_clip.py CLIPVisionEmbeddings, CLIPVisionTransformer): a patch conv without bias,
  // a class embedding and one more learned position for it, and a pre-LayerNorm with bias: 4 h more, h less.
  if (optional_string(vit, "model_type", vp).value_or("") == "clip_vision_model") tower += 3 * h;
  // SigLIP's attention-pooling head, present unless vision_use_head is false
  // (SiglipVisionConfig default true; modeling_siglip.py SiglipMultiheadAttentionPoolingHead):
  // probe h + in_proj 3h² + 3h + out_proj h² + h + LayerNorm 2h + MLP h·I + I + I·h + h.
  if (optional_string(vit, "model_type", vp).value_or("") == "siglip_vision_model" &&
      optional_bool(vit, "vision_use_head", vp).value_or(true)) {
    tower += h + (3 * h * h + 3 * h) + (h * h + h) + 2 * h + (h * inter + inter) + (inter * h + h);
  }
  return tower;
}

// Gemma 3: one projection matrix plus an RMSNorm over the vision width
// (modeling_gemma3.py Gemma3MultiModalProjector); others: LLaVA's two-layer MLP with biases.
// vision_feature_layer: one layer index, or a list whose layers LLaVA-NeXT
// concatenates (the projector's input is that many times the vision width).
Count feature_layer_count(const json& outer, const std::string& path) {
  const auto fl = outer.find("vision_feature_layer");
  if (fl == outer.end() || fl->is_null() || fl->is_number_integer()) return 1;
  const std::string p = join_path(path, "vision_feature_layer");
  if (!fl->is_array()) {
    throw InputError(p, "must be a layer index or a list of layer indexes, such as -2 or [-24, -20, -12, -1]; got " +
                            io::describe_value(*fl));
  }
  for (std::size_t i = 0; i < fl->size(); ++i) {
    if (!(*fl)[i].is_number_integer()) {
      throw InputError(join_path(p, std::to_string(i)),
                       "must be a layer index (an integer); got " + io::describe_value((*fl)[i]));
    }
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(fl->size()));
}

Count generic_projector(const json& outer, const std::string& path, const std::string& outer_type, Count h,
                        Count text_hidden) {
  const Count in = h * feature_layer_count(outer, path);
  Count projector = in * text_hidden + text_hidden + text_hidden * text_hidden + text_hidden;
  if (outer_type == "gemma3") projector = h * text_hidden + h;
  if (outer_type == "llava_next") projector += text_hidden;  // image_newline
  return projector;
}

}  // namespace

Architecture::ImageProfile image_profile(const json& outer, const std::string& path) {
  Architecture::ImageProfile p;
  const json* vit = optional_object(outer, "vision_config", path, "the vision tower's config");
  if (vit == nullptr) return p;
  const std::string vp = join_path(path, "vision_config");
  const std::string type = optional_string(outer, "model_type", path).value_or("");
  if (type == "gemma3") {
    // Gemma3ProcessingInfo: one crop (pan-and-scan off) of image_size², mm_tokens_per_image embeddings.
    p.height = p.width = require_int_any(*vit, {"image_size"}, vp, kDim);
    p.channels = optional_int(*vit, "num_channels", vp, kCount).value_or(3);
    p.embeddings = p.tokens = optional_int(outer, "mm_tokens_per_image", path, kPositions).value_or(256);
  } else if (type == "mistral3") {
    // Pixtral at image_size²: (image_size / patch / merge)² embeddings, one [IMG_BREAK] or [IMG_END] per row.
    p.height = p.width = require_int_any(*vit, {"image_size"}, vp, kDim);
    p.channels = optional_int(*vit, "num_channels", vp, kCount).value_or(3);
    const std::int64_t patch = optional_int(*vit, "patch_size", vp, kDim).value_or(14);
    const std::int64_t merge = optional_int(outer, "spatial_merge_size", path, kCount).value_or(2);
    const std::int64_t side = p.height / checked::mul(patch, merge);
    p.embeddings = checked::mul(side, side);
    p.tokens = checked::mul(side, side + 1);
  } else if (is_one_of(type, {"qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"})) {
    // Qwen3-VL's processor resizes an image to at most size.longest_edge = 16,777,216 pixels (its
    // preprocessor_config.json; 4,096², 16,384 merged tokens, as a Qwen3.5 startup log's "budget of 16384 tokens,
    // and profiled with 1 image items" shows) and repeats it over temporal_patch_size frames.
    p.height = p.width = 4096;
    p.channels = optional_int(*vit, "in_channels", vp, kCount).value_or(3);
    p.frames = optional_int(*vit, "temporal_patch_size", vp, kCount).value_or(2);
    const std::int64_t patch = optional_int(*vit, "patch_size", vp, kDim).value_or(16);
    const std::int64_t merge = optional_int(*vit, "spatial_merge_size", vp, kCount).value_or(2);
    const std::int64_t side = p.height / checked::mul(patch, merge);
    p.embeddings = p.tokens = checked::mul(side, side);
  }
  return p;
}

std::int64_t vision_tower_params(const json& outer, const std::string& path, std::int64_t text_hidden,
                                 std::vector<std::string>& notes) {
  const json* vit = optional_object(outer, "vision_config", path, "the vision tower's config");
  if (vit == nullptr) return 0;
  const std::string vp = join_path(path, "vision_config");
  const std::string outer_type = optional_string(outer, "model_type", path).value_or("");
  bool known = false;
  const Count exact = family_vision_params(outer_type, *vit, outer, vp, path, text_hidden, known);
  if (known) return exact;
  Count h, inter, layers;
  const Count tower = generic_tower(*vit, vp, h, inter, layers);
  const Count projector = generic_projector(outer, path, outer_type, h, text_hidden);
  if (outer_type != "gemma3") {  // Gemma 3's SigLIP + projector is the exact layout
    notes.push_back("vision tower counted with the generic ViT layout (" + std::to_string(layers) +
                    " blocks of width " + std::to_string(h) + ") plus a two-layer projector");
  }
  return tower + projector;
}

}  // namespace vram::model_detail
