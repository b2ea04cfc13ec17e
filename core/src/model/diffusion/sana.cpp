// Sana (diffusers @58eb52c transformers/sana_transformer.py) and its deep-compression
// autoencoder (autoencoders/autoencoder_dc.py), read from their config.json and counted
// layer by layer.
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

namespace {

/// One flag per level: EfficientViTBlock (true) or ResBlock (false); a single name applies to all.
std::vector<bool> vit_levels(const json& j, std::string_view key, const std::string& path, std::size_t n) {
  const std::string p = path + "/" + std::string(key);
  auto vit = [&](const json& v, const std::string& at) {
    const std::string s = v.is_string() ? v.get<std::string>() : "";
    if (s != "ResBlock" && s != "EfficientViTBlock")
      throw InputError(at, "must be \"ResBlock\" or \"EfficientViTBlock\"");
    return s == "EfficientViTBlock";
  };
  const auto it = j.find(key);
  if (it == j.end()) return std::vector<bool>(n, false);  // AutoencoderDC's default: ResBlock everywhere
  if (it->is_string()) return std::vector<bool>(n, vit(*it, p));
  if (!it->is_array() || it->size() != n) throw InputError(p, "must name one block type per level (" + std::to_string(n) + ")");
  std::vector<bool> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(vit((*it)[i], p + "/" + std::to_string(i)));
  return out;
}

/// The multiscale kernels of the EfficientViT levels: one list per level, the same
/// length on every EfficientViT level (the budget reads one count).
std::int64_t multiscale_count(const json& j, std::string_view key, const std::string& path, const std::vector<bool>& vit) {
  const std::string p = path + "/" + std::string(key);
  const auto it = j.find(key);
  if (it == j.end()) return 1;  // ((), (), (), (5,), (5,), (5,))
  if (!it->is_array() || it->size() != vit.size()) throw InputError(p, "must hold one kernel list per level");
  std::int64_t n = -1;
  for (std::size_t i = 0; i < vit.size(); ++i) {
    const json& l = (*it)[i];
    if (!l.is_array() || l.size() > 4) throw InputError(p + "/" + std::to_string(i), "must be a list of up to 4 kernel sizes");
    for (std::size_t k = 0; k < l.size(); ++k)
      if (!l[k].is_number_integer() || l[k].get<std::int64_t>() != 5)
        throw InputError(p + "/" + std::to_string(i) + "/" + std::to_string(k), "is a kernel size; DC-AE checkpoints use 5");
    if (!vit[i]) continue;
    if (n >= 0 && n != static_cast<std::int64_t>(l.size()))
      throw InputError(p + "/" + std::to_string(i), "must list as many kernels as the other EfficientViT levels");
    n = static_cast<std::int64_t>(l.size());
  }
  return n < 0 ? 0 : n;
}

/// A 2D convolution of `k` × `k` in `groups` groups, with or without bias.
Count conv2d(Count in, Count out, Count k, bool bias, Count groups = 1) {
  return in / groups * out * k * k + (bias ? out : Count(0));
}

/// Diffusers' RMSNorm with weight and bias over `c` channels.
Count rms_norm(Count c) { return Count(2) * c; }

Count res_block(Count c) { return conv2d(c, c, 3, true) + conv2d(c, c, 3, false) + rms_norm(c); }

/// GLUMBConv(c → c, expand 4) with its RMSNorm: inverted 1×1, depthwise 3×3, point 1×1 without bias.
Count glumb_conv(Count c) {
  const Count h = Count(4) * c;
  return conv2d(c, 2 * h, 1, true) + conv2d(2 * h, 2 * h, 3, true, 2 * h) + conv2d(h, c, 1, false) + rms_norm(c);
}

/// SanaMultiscaleLinearAttention over c channels (heads of `head_dim`, `scales` multiscale projections).
Count multiscale_attention(Count c, Count head_dim, Count scales) {
  const Count heads = c / head_dim, inner = heads * head_dim, qkv = Count(3) * inner;
  const Count projections = scales * (conv2d(qkv, qkv, 5, false, qkv) + conv2d(qkv, qkv, 1, false, Count(3) * heads));
  return Count(3) * c * inner + projections + inner * (Count(1) + scales) * c + rms_norm(c);
}

Count level_blocks(const ComponentConfig& c, Count ch, Count layers, bool vit) {
  const Count one = vit ? multiscale_attention(ch, c.head_dim, c.multiscales) + glumb_conv(ch) : res_block(ch);
  return layers * one;
}

}  // namespace

void read_sana(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "SanaTransformer2DModel");
  const std::int64_t heads = io::require_int(j, "num_attention_heads", path, kWidth);
  const std::int64_t head_dim = io::require_int(j, "attention_head_dim", path, kWidth);
  c.heads = heads;
  c.head_dim = head_dim;
  c.hidden = heads * head_dim;
  c.layers = io::require_int(j, "num_layers", path, kWidth);
  c.in_channels = io::require_int(j, "in_channels", path, kWidth);
  c.out_channels = io::optional_int(j, "out_channels", path, kWidth).value_or(c.in_channels);
  c.text_dim = io::require_int(j, "caption_channels", path, kWidth);
  c.cross_heads = io::require_int(j, "num_cross_attention_heads", path, kWidth);
  c.cross_head_dim = io::require_int(j, "cross_attention_head_dim", path, kWidth);
  c.cross_dim = io::require_int(j, "cross_attention_dim", path, kWidth);
  const double ratio = io::optional_number(j, "mlp_ratio", path, 0.5, 16).value_or(2.5);
  c.ffn = static_cast<std::int64_t>(ratio * static_cast<double>(c.hidden));  // int(expand_ratio × in_channels)
  if (c.ffn < 1) throw InputError(path + "/mlp_ratio", "gives a feed-forward width below 1 channel");
  c.attention_bias = io::optional_bool(j, "attention_bias", path).value_or(false);
  c.norm_affine = io::optional_bool(j, "norm_elementwise_affine", path).value_or(false);
  const std::int64_t patch = io::optional_int(j, "patch_size", path, {1, 16}).value_or(1);
  c.patch = {1, patch, patch};
  c.freq_dim = 256;  // Timesteps(num_channels=256) inside AdaLayerNormSingle
  if (io::optional_bool(j, "guidance_embeds", path).value_or(false))
    throw InputError(path + "/guidance_embeds", "is true; the sana kind models Sana 1.0 without a guidance embedder");
  if (j.contains("qk_norm") && !j["qk_norm"].is_null())
    throw InputError(path + "/qk_norm", "is set; the sana kind models Sana 1.0 without q/k normalisation");
}

Inventory sana_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers, p2 = Count(c.patch[1]) * c.patch[2];
  const Count cross_inner = Count(c.cross_heads) * c.cross_head_dim;
  inv.other = conv2d(c.in_channels, d, c.patch[1], true);  // PatchEmbed proj (no position table: interpolation_scale None)
  add(inv, c.freq_dim, d, 1);                               // AdaLayerNormSingle: timestep embedder
  add(inv, d, d, 1);
  add(inv, d, 6 * d, 1);                                    // its 6 × dim modulation
  add(inv, c.text_dim, d, 1);                               // caption projection
  add(inv, d, d, 1);
  add(inv, d, d, 3 * L, c.attention_bias);                  // linear self-attention q, k, v
  add(inv, d, d, L);                                        // its to_out
  add(inv, d, cross_inner, L);                              // cross-attention q
  add(inv, c.cross_dim, cross_inner, 2 * L);                // k, v of the text
  add(inv, cross_inner, d, L);                              // to_out
  const Count ff = conv2d(d, Count(2) * c.ffn, 1, true) + conv2d(Count(2) * c.ffn, Count(2) * c.ffn, 3, true, Count(2) * c.ffn) +
                   conv2d(c.ffn, d, 1, false);
  const Count norms = c.norm_affine ? Count(2) * d : Count(0);  // norm2
  inv.other = Count(inv.other) + d /* caption_norm */ + L * (ff + Count(6) * d + norms) + Count(2) * d;
  add(inv, d, p2 * c.out_channels, 1);                      // proj_out
  return inv;
}

void read_dc_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderDC");
  // AutoencoderDC's defaults where a key is absent.
  c.block_channels = int_list(j, "encoder_block_out_channels", path, 0, {128, 256, 512, 512, 1024, 1024});
  const std::size_t n = c.block_channels.size();
  c.decoder_channels = int_list(j, "decoder_block_out_channels", path, n, c.block_channels);
  c.encoder_layers = int_list(j, "encoder_layers_per_block", path, n, {2, 2, 2, 3, 3, 3}, 0);
  c.decoder_layers = int_list(j, "decoder_layers_per_block", path, n, {3, 3, 3, 3, 3, 3}, 0);
  if (c.encoder_layers.size() != n || c.decoder_layers.size() != n)
    throw InputError(path + "/encoder_layers_per_block", "must list one block count per level (" + std::to_string(n) + ")");
  if (c.encoder_layers[0] == 0 || c.decoder_layers[0] == 0)
    throw InputError(path + "/decoder_layers_per_block/0", "is 0; the vae_dc kind models a first level with blocks");
  c.encoder_vit = vit_levels(j, "encoder_block_types", path, n);
  c.decoder_vit = vit_levels(j, "decoder_block_types", path, n);
  c.multiscales = multiscale_count(j, "decoder_qkv_multiscales", path, c.decoder_vit);
  if (multiscale_count(j, "encoder_qkv_multiscales", path, c.encoder_vit) != c.multiscales)
    throw InputError(path + "/encoder_qkv_multiscales", "must list as many kernels as decoder_qkv_multiscales");
  c.head_dim = io::optional_int(j, "attention_head_dim", path, kWidth).value_or(32);
  for (std::size_t i = 0; i < n; ++i) {
    const bool vit = c.encoder_vit[i] || c.decoder_vit[i];
    const std::int64_t w = std::min(c.block_channels[i], c.decoder_channels[i]);
    if (vit && (w < c.head_dim || c.block_channels[i] % c.head_dim != 0 || c.decoder_channels[i] % c.head_dim != 0))
      throw InputError(path + "/decoder_block_out_channels/" + std::to_string(i),
                       "must be a multiple of attention_head_dim (" + std::to_string(c.head_dim) +
                           ") on an EfficientViT level: its attention has width / attention_head_dim heads");
  }
  c.latent_channels = io::optional_int(j, "latent_channels", path, {1, 1024}).value_or(32);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(3);
  const auto up = io::optional_string(j, "upsample_block_type", path).value_or("pixel_shuffle");
  const auto down = io::optional_string(j, "downsample_block_type", path).value_or("pixel_unshuffle");
  if (up != "interpolate" && up != "pixel_shuffle")
    throw InputError(path + "/upsample_block_type", "must be \"interpolate\" or \"pixel_shuffle\"");
  if (down != "Conv" && down != "pixel_unshuffle")
    throw InputError(path + "/downsample_block_type", "must be \"Conv\" or \"pixel_unshuffle\"");
  c.interpolate_up = up == "interpolate";
  c.conv_down = down == "Conv";
  io::optional_choice(j, "decoder_norm_types", path, {"rms_norm"});  // the modelled decoder's norm and activation
  io::optional_choice(j, "decoder_act_fns", path, {"silu"});
  c.spatial = Count(1) << (n - 1);
  c.temporal = 1;
  c.layers_per_block = c.decoder_layers[0];
}

/// Encoder and decoder of AutoencoderDC: every parameter is a convolution or a norm
/// (the attention's to_q/k/v/out are nn.Linear without bias, counted with the rest).
Inventory dc_vae(const ComponentConfig& c) {
  const std::size_t n = c.block_channels.size();
  const auto& e = c.block_channels;
  const auto& d = c.decoder_channels;
  Count total = conv2d(c.in_channels, e[0], 3, true);
  for (std::size_t i = 0; i < n; ++i) {
    total += level_blocks(c, e[i], c.encoder_layers[i], c.encoder_vit[i]);
    // DCDownBlock2d: a strided 3×3 conv, or one to out / 4 channels before pixel_unshuffle.
    if (i + 1 < n) total += conv2d(e[i], c.conv_down ? e[i + 1] : e[i + 1] / 4, 3, true);
  }
  total += conv2d(e[n - 1], c.latent_channels, 3, true) + conv2d(c.latent_channels, d[n - 1], 3, true);
  for (std::size_t i = 0; i < n; ++i) {
    // DCUpBlock2d: interpolate then conv to out, or conv to 4 × out before pixel_shuffle.
    if (i + 1 < n) total += conv2d(d[i + 1], c.interpolate_up ? Count(d[i]) : Count(4) * d[i], 3, true);
    total += level_blocks(c, d[i], c.decoder_layers[i], c.decoder_vit[i]);
  }
  total += rms_norm(d[0]) + conv2d(d[0], c.in_channels, 3, true);
  Inventory inv;
  inv.other = total;
  return inv;
}

}  // namespace vram::generation::hf
