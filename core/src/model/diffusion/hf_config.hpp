// Components described by their repository's own config.json (`hf_config` in
// a pipeline file): the keys each kind reads, and the inventories of the kinds
// that exist only in this form (CogVideoX). Internal to model/diffusion.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "vram/io/json_fields.hpp"
#include "vram/units.hpp"

#include "vram/generation/pipeline.hpp"

namespace vram::generation::hf {

/// A layer width or count read from a config.json: from 1 to a million.
inline constexpr io::IntRange kWidth{1, 1'000'000};

/// A convolution's parameters: in × out × the kernel's volume weights and out biases.
inline checked::Count conv(checked::Count in, checked::Count out, checked::Count kernel_volume) {
  return in * out * kernel_volume + out;
}
/// A 3×3×3 convolution's parameters.
inline checked::Count conv3(checked::Count in, checked::Count out) { return conv(in, out, 27); }

/// `count` nn.Linear(in, out) layers, their biases counted as other parameters.
void add(Inventory& inv, checked::Count in, checked::Count out, checked::Count count, bool bias = true);

/// A list of `n` (0: 1 to 8) integers from `min` to kWidth.max; absent: `fallback` (diffusers' default).
std::vector<std::int64_t> int_list(const nlohmann::json& j, std::string_view key, const std::string& path, std::size_t n,
                                   std::vector<std::int64_t> fallback, std::int64_t min = 1);

/// num_attention_heads × attention_head_dim (absent: the class defaults `heads` and `head_dim`) into
/// heads, head_dim and hidden.
void read_attention_width(const nlohmann::json& j, const std::string& path, ComponentConfig& c, std::int64_t heads,
                          std::int64_t head_dim);

/// Refuses a config whose `_class_name` names another class than `expected`.
void check_class(const nlohmann::json& j, const std::string& path, std::string_view expected);

/// Fills `c` from a verbatim config.json of a component of kind `k`; a missing
/// or out-of-range key is an InputError at `path`/key. Kinds without a reader
/// are refused at `path`.
void read_config(ComponentKind k, const nlohmann::json& j, const std::string& path, ComponentConfig& c);

/// CogVideoXTransformer3DModel (diffusers v0.35 cogvideox_transformer_3d.py).
Inventory cogvideox_transformer(const ComponentConfig& c);

/// AutoencoderKLCogVideoX (diffusers v0.35 autoencoder_kl_cogvideox.py): every
/// parameter is a convolution or a norm, so all of it is `other`.
Inventory cogvideox_vae(const ComponentConfig& c);

/// LTXVideoTransformer3DModel.__init__ arguments (ltx.cpp).
void read_ltx(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
/// AutoencoderKLLTXVideo.__init__ arguments of the 0.9.0 layout (ltx.cpp).
void read_ltx_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);

/// SanaTransformer2DModel and AutoencoderDC.__init__ arguments, and their inventories (sana.cpp).
void read_sana(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_dc_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory sana_transformer(const ComponentConfig& c);
Inventory dc_vae(const ComponentConfig& c);

/// AllegroTransformer3DModel and AutoencoderKLAllegro.__init__ arguments, and the VAE's inventory (allegro.cpp;
/// the transformer is counted as PixArt's blocks).
void read_allegro(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_allegro_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory allegro_vae(const ComponentConfig& c);

/// HiDreamImageTransformer2DModel.__init__ arguments and its inventory (hidream.cpp).
void read_hidream(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory hidream_transformer(const ComponentConfig& c);

/// CogView4Transformer2DModel.__init__ arguments and its inventory (cogview4.cpp).
void read_cogview4(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory cogview4_transformer(const ComponentConfig& c);

/// LTXVideoTransformer3DModel (diffusers v0.35 transformer_ltx.py).
Inventory ltx_transformer(const ComponentConfig& c);
/// AutoencoderKLLTXVideo (diffusers v0.35 autoencoder_kl_ltx.py): convolutions
/// and LayerNorms only, so all of it is `other`.
Inventory ltx_vae(const ComponentConfig& c);

/// HunyuanVideoTransformer3DModel and AutoencoderKLHunyuanVideo.__init__
/// arguments, and a language model's config.json as the core reads it (hunyuan.cpp).
void read_hunyuan(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_hunyuan_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_llama_text(const nlohmann::json& j, const std::string& path, ComponentConfig& c);

/// HunyuanVideoTransformer3DModel (diffusers v0.35 transformer_hunyuan_video.py).
Inventory hunyuan_transformer(const ComponentConfig& c);
/// AutoencoderKLHunyuanVideo (diffusers v0.35 autoencoder_kl_hunyuan_video.py).
Inventory hunyuan_vae(const ComponentConfig& c);
/// HunyuanVideo15Transformer3DModel and AutoencoderKLHunyuanVideo15.__init__ arguments and their inventories
/// (diffusers @58eb52c transformer_hunyuan_video15.py, autoencoder_kl_hunyuanvideo15.py; hunyuan.cpp).
void read_hunyuan15(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_hunyuan15_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory hunyuan15_transformer(const ComponentConfig& c);
Inventory hunyuan15_vae(const ComponentConfig& c);
/// Step-Video-T2V's StepVideoModel and Video-VAE (AutoencoderKL version 2) constructor arguments and their
/// inventories (github stepfun-ai/Step-Video-T2V @675e08c; stepvideo.cpp).
void read_stepvideo(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_stepvideo_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory stepvideo_transformer(const ComponentConfig& c);
Inventory stepvideo_vae(const ComponentConfig& c);
/// The language model's tensors (the core's inventory) without its lm_head.
Inventory llama_text_inventory(const ComponentConfig& c);

/// MochiTransformer3DModel and AutoencoderKLMochi (mochi.cpp, diffusers v0.35).
void read_mochi(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
void read_mochi_vae(const nlohmann::json& j, const std::string& path, ComponentConfig& c);
Inventory mochi_transformer(const ComponentConfig& c);
Inventory mochi_vae(const ComponentConfig& c);

}  // namespace vram::generation::hf
