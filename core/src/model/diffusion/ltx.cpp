// LTX-Video components read from their repository's config.json, and their
// parameter inventories.
//
// Layouts read (facts only) from diffusers v0.35.0 (f27949da):
// transformers/transformer_ltx.py (LTXVideoTransformer3DModel, LTXVideoTransformerBlock,
// LTXAttention: RMSNorm over all heads on q and k, affine), normalization.py
// AdaLayerNormSingle and RMSNorm, embeddings.py PixArtAlphaTextProjection,
// attention.py FeedForward; autoencoders/autoencoder_kl_ltx.py (LTXVideoEncoder3d,
// LTXVideoDecoder3d, LTXVideoResnetBlock3d, LTXVideoDownBlock3D, LTXVideoUpBlock3d,
// LTXVideoUpsampler3d).
#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/units.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

namespace {

std::vector<bool> bool_list(const json& j, std::string_view key, const std::string& path, std::size_t n) {
  const std::string p = io::join_path(path, key);
  const auto it = j.find(key);
  if (it == j.end()) return {true, true, true, false};  // diffusers' default
  if (!it->is_array() || it->size() != n) throw InputError(p, "must list " + std::to_string(n) + " booleans, one per level");
  std::vector<bool> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_boolean()) throw InputError(p + "/" + std::to_string(i), "must be true or false");
    out.push_back((*it)[i].get<bool>());
  }
  return out;
}

/// Keys of later LTX VAEs (0.9.1 and on) whose layers are not modelled: each must keep its 0.9.0 value.
void refuse_later_vae(const json& j, const std::string& path) {
  if (io::optional_bool(j, "timestep_conditioning", path).value_or(false))
    throw InputError(path + "/timestep_conditioning", "the vae_ltx kind models the LTX-Video 0.9.0 VAE (no timestep "
                                                      "conditioning); allowed: false");
  if (const auto it = j.find("down_block_types"); it != j.end() && it->is_array())
    for (const auto& t : *it)
      if (!t.is_string() || t.get<std::string>() != "LTXVideoDownBlock3D")
        throw InputError(path + "/down_block_types", "the vae_ltx kind models LTXVideoDownBlock3D levels only");
  for (const char* key : {"decoder_inject_noise", "upsample_residual"})
    if (const auto it = j.find(key); it != j.end() && it->is_array())
      for (const auto& v : *it)
        if (!v.is_boolean() || v.get<bool>())
          throw InputError(io::join_path(path, key), "the vae_ltx kind models the 0.9.0 decoder; allowed: all false");
  if (const auto it = j.find("upsample_factor"); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (!v.is_number_integer() || v.get<std::int64_t>() != 1)
        throw InputError(path + "/upsample_factor", "the vae_ltx kind models the 0.9.0 decoder; allowed: all 1");
}

std::int64_t scaled_levels(const std::vector<bool>& s) {
  std::int64_t n = 0;
  for (bool b : s) n += b ? 1 : 0;
  return n;
}

}  // namespace

void read_ltx(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "LTXVideoTransformer3DModel");
  c.heads = io::optional_int(j, "num_attention_heads", path, {1, 1024}).value_or(32);
  c.head_dim = io::optional_int(j, "attention_head_dim", path, {1, 4096}).value_or(64);
  c.hidden = checked::mul(c.heads, c.head_dim);
  c.ffn = checked::mul(c.hidden, 4);  // FeedForward(mult=4)
  c.layers = io::optional_int(j, "num_layers", path, {1, 1024}).value_or(28);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 4096}).value_or(128);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 4096}).value_or(c.in_channels);
  c.cross_dim = io::optional_int(j, "cross_attention_dim", path, kWidth).value_or(2048);
  c.text_dim = io::optional_int(j, "caption_channels", path, kWidth).value_or(4096);
  c.freq_dim = 256;  // AdaLayerNormSingle: Timesteps(num_channels=256)
  const std::int64_t p = io::optional_int(j, "patch_size", path, {1, 16}).value_or(1);
  c.patch = {io::optional_int(j, "patch_size_t", path, {1, 16}).value_or(1), p, p};
  c.attention_bias = io::optional_bool(j, "attention_bias", path).value_or(true);
  c.norm_affine = io::optional_bool(j, "norm_elementwise_affine", path).value_or(false);
  if (!io::optional_bool(j, "attention_out_bias", path).value_or(true))
    throw InputError(path + "/attention_out_bias", "no LTX-Video checkpoint drops the output bias; allowed: true");
  const auto qk = io::optional_string(j, "qk_norm", path);
  if (qk && *qk != "rms_norm_across_heads")
    throw InputError(path + "/qk_norm", "is \"" + *qk + "\"; LTXAttention supports \"rms_norm_across_heads\" only");
  const auto act = io::optional_string(j, "activation_fn", path);
  if (act && act->rfind("gelu", 0) != 0)
    throw InputError(path + "/activation_fn", "is \"" + *act + "\"; the ltx_video kind has a GELU feed-forward");
}

void read_ltx_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKLLTXVideo");
  refuse_later_vae(j, path);
  c.block_channels = int_list(j, "block_out_channels", path, 0, {128, 256, 512, 512});
  const std::size_t n = c.block_channels.size();
  c.decoder_channels = int_list(j, "decoder_block_out_channels", path, 0, c.block_channels);
  if (c.decoder_channels.size() != n)
    throw InputError(path + "/decoder_block_out_channels", "must list as many levels as block_out_channels");
  const std::vector<std::int64_t> layers_default{4, 3, 3, 3, 4};
  c.encoder_layers = int_list(j, "layers_per_block", path, n + 1, n == 4 ? layers_default : std::vector<std::int64_t>{});
  c.decoder_layers = int_list(j, "decoder_layers_per_block", path, n + 1, c.encoder_layers);
  if (c.encoder_layers.size() != n + 1)
    throw InputError(path + "/layers_per_block", "is required: one resnet count per level and one for the mid block");
  c.encoder_scaling = bool_list(j, "spatio_temporal_scaling", path, n);
  c.decoder_scaling = j.contains("decoder_spatio_temporal_scaling")
                          ? bool_list(j, "decoder_spatio_temporal_scaling", path, n)
                          : c.encoder_scaling;
  c.latent_channels = io::optional_int(j, "latent_channels", path, {1, 1024}).value_or(128);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(3);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 64}).value_or(3);
  c.vae_patch = io::optional_int(j, "patch_size", path, {1, 16}).value_or(4);
  const std::int64_t patch_t = io::optional_int(j, "patch_size_t", path, {1, 16}).value_or(1);
  if (patch_t != 1) throw InputError(path + "/patch_size_t", "no LTX-Video VAE patches time; allowed: 1");
  // AutoencoderKLLTXVideo.__init__: patch × 2^(levels that scale), unless given explicitly.
  const std::int64_t scale = Count(1) << scaled_levels(c.encoder_scaling);
  c.spatial = io::optional_int(j, "spatial_compression_ratio", path, {1, 64}).value_or(c.vae_patch * scale);
  c.temporal = io::optional_int(j, "temporal_compression_ratio", path, {1, 64}).value_or(patch_t * scale);
}

namespace {

/// One LTXVideoTransformerBlock: RMSNorms (affine only with norm_elementwise_affine),
/// self-attention (q, k, v, out; q/k RMSNorm over all heads, affine), cross-attention
/// (q and out over dim, k and v from cross_attention_dim), the GELU feed-forward
/// (dim → 4 dim → dim) and a 6 × dim scale_shift_table.
void add_ltx_blocks(Inventory& inv, const ComponentConfig& c) {
  const Count d = c.hidden, L = c.layers;
  add(inv, d, d, 3 * L, c.attention_bias);  // attn1 q, k, v
  add(inv, d, d, L);                        // attn1 out
  add(inv, d, d, L, c.attention_bias);      // attn2 q
  add(inv, c.cross_dim, d, 2 * L, c.attention_bias);
  add(inv, d, d, L);  // attn2 out
  add(inv, d, c.ffn, L);
  add(inv, c.ffn, d, L);
  const Count norms = c.norm_affine ? Count(2) * d : Count(0);
  inv.other = Count(inv.other) + L * (norms + Count(4) * d + Count(6) * d);
}

}  // namespace

Inventory ltx_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden;
  const Count patch = Count(c.patch[0]) * c.patch[1] * c.patch[2];
  add(inv, Count(c.in_channels) * patch, d, 1);  // proj_in
  inv.other = Count(inv.other) + 2 * d;          // scale_shift_table (2, dim)
  add(inv, c.freq_dim, d, 1);                    // time_embed.emb.timestep_embedder.linear_1
  add(inv, d, d, 1);                             // linear_2
  add(inv, d, 6 * d, 1);                         // time_embed.linear
  add(inv, c.text_dim, d, 1);                    // caption_projection.linear_1
  add(inv, d, d, 1);                             // linear_2
  add_ltx_blocks(inv, c);
  add(inv, d, Count(c.out_channels) * patch, 1);  // proj_out (norm_out has no affine weights)
  return inv;
}

namespace {

/// LTXVideoResnetBlock3d without timestep conditioning: RMSNorms without
/// weights, two 3×3×3 convs and, when the width changes, an affine LayerNorm
/// and a 1×1×1 shortcut conv.
Count ltx_resnet(Count in, Count out) {
  Count n = conv3(in, out) + conv3(out, out);
  if (in != out) n += 2 * in + in * out + out;
  return n;
}

Count ltx_encoder(const ComponentConfig& c) {
  const auto& ch = c.block_channels;
  const std::size_t n = ch.size();
  const Count in = Count(c.in_channels) * c.vae_patch * c.vae_patch;
  Count total = conv3(in, ch[0]);
  Count out = ch[0];
  for (std::size_t i = 0; i < n; ++i) {
    const Count width = out;
    out = i + 1 < n ? Count(ch[i + 1]) : Count(ch[i]);
    total += Count(c.encoder_layers[i]) * ltx_resnet(width, width);
    if (c.encoder_scaling[i]) total += conv3(width, width);  // stride-2 downsampler
    if (width != out) total += ltx_resnet(width, out);       // conv_out
  }
  total += Count(c.encoder_layers[n]) * ltx_resnet(out, out);  // mid block
  return total + conv3(out, Count(c.latent_channels) + 1);     // mean + one shared log-variance
}

Count ltx_decoder(const ComponentConfig& c) {
  const std::vector<std::int64_t> ch(c.decoder_channels.rbegin(), c.decoder_channels.rend());
  const std::vector<bool> scale(c.decoder_scaling.rbegin(), c.decoder_scaling.rend());
  const std::vector<std::int64_t> layers(c.decoder_layers.rbegin(), c.decoder_layers.rend());
  Count total = conv3(c.latent_channels, ch[0]) + Count(layers[0]) * ltx_resnet(ch[0], ch[0]);
  Count out = ch[0];
  for (std::size_t i = 0; i < ch.size(); ++i) {
    const Count in = out;
    out = ch[i];
    if (in != out) total += ltx_resnet(in, out);    // conv_in
    if (scale[i]) total += conv3(out, Count(8) * out);  // LTXVideoUpsampler3d: conv to 2·2·2 × width, then shuffled
    total += Count(layers[i + 1]) * ltx_resnet(out, out);
  }
  return total + conv3(out, Count(c.out_channels) * c.vae_patch * c.vae_patch);
}

}  // namespace

Inventory ltx_vae(const ComponentConfig& c) {
  Inventory inv;
  inv.other = Count(ltx_encoder(c)) + ltx_decoder(c);
  // latents_mean and latents_std (2 × latent_channels persistent buffers) are left out: 512 bytes.
  return inv;
}

}  // namespace vram::generation::hf
