// Allegro (diffusers @58eb52c transformers/transformer_allegro.py and
// autoencoders/autoencoder_kl_allegro.py), read from their config.json. The
// transformer is counted by the PixArt inventory (inventory.cpp), whose blocks it
// shares; the VAE is counted here, layer by layer.
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

/// A setting the Allegro kinds model in one form only: absent (the class default) or that value.
void allegro_require(const json& j, std::string_view key, const std::string& path, const json& modelled,
                   std::string_view why) {
  const auto it = j.find(key);
  if (it == j.end() || *it == modelled) return;
  throw InputError(path + "/" + std::string(key), "is " + it->dump() + "; " + std::string(why) + "; allowed: " +
                                                      modelled.dump());
}

/// One flag per level (`temporal_downsample_blocks`, `temporal_upsample_blocks`); absent: the class default.
std::vector<bool> allegro_level_flags(const json& j, std::string_view key, const std::string& path, std::size_t n,
                              std::vector<bool> fallback) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (fallback.size() != n)
      throw InputError(path + "/" + std::string(key), "is required when block_out_channels does not have 4 levels");
    return fallback;
  }
  const std::string p = path + "/" + std::string(key);
  if (!it->is_array() || it->size() != n) throw InputError(p, "must hold one true or false per level (" + std::to_string(n) + ")");
  std::vector<bool> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(*it)[i].is_boolean()) throw InputError(p + "/" + std::to_string(i), "must be true or false");
    out.push_back((*it)[i].get<bool>());
  }
  return out;
}

/// ResnetBlock2D(in → out) without a time embedding: two GroupNorms, two 3×3 convs, a 1×1 shortcut when the width changes.
Count al_resnet(Count in, Count out) {
  Count n = Count(2) * in + conv(in, out, 9) + Count(2) * out + conv(out, out, 9);
  if (in != out) n += conv(in, out, 1);
  return n;
}

/// AllegroTemporalConvLayer over c channels: four GroupNorm + Conv3d stages. Plain: kernels (3, 1, 1);
/// the stride-3 down- and upsamplers: a (2, 3, 3) or (1, 3, 3) → 2c first conv, then (3, 3, 3) kernels.
Count al_temporal_conv(Count c, bool down, bool up) {
  if (!down && !up) return Count(4) * (Count(2) * c + conv(c, c, 3));
  const Count first = down ? conv(c, c, 18) : conv(c, Count(2) * c, 9);
  return Count(2) * c + first + Count(3) * (Count(2) * c + conv(c, c, 27));
}

/// AllegroMidBlock3DConv: two resnets and two temporal convs around one single-head attention
/// (its GroupNorm, q, k, v and out with biases).
Count al_mid_block(Count c) {
  return Count(2) * al_resnet(c, c) + Count(2) * al_temporal_conv(c, false, false) + Count(2) * c + Count(4) * (c * c + c);
}

/// The stem around the levels: a 3×3 conv and a (3, 1, 1) temporal conv on one side; GroupNorm, a (3, 1, 1)
/// temporal conv and a 3×3 conv on the other.
Count al_stems(Count in, Count c_in, Count c_out, Count out) {
  return conv(in, c_in, 9) + conv(c_in, c_in, 3) + Count(2) * c_out + conv(c_out, c_out, 3) + conv(c_out, out, 9);
}

Count al_encoder(const ComponentConfig& c) {
  const auto& ch = c.block_channels;
  const std::size_t n = ch.size();
  Count total = al_stems(c.in_channels, ch[0], ch[n - 1], Count(2) * c.latent_channels) + al_mid_block(ch[n - 1]);
  Count out = ch[0];
  for (std::size_t i = 0; i < n; ++i) {
    const Count in = out;
    out = ch[i];
    total += al_resnet(in, out) + Count(c.layers_per_block - 1) * al_resnet(out, out) +
             Count(c.layers_per_block) * al_temporal_conv(out, false, false);
    if (c.encoder_scaling[i]) total += al_temporal_conv(out, true, false);
    if (i + 1 < n) total += conv(out, out, 9);  // Downsample2D
  }
  return total;
}

Count al_decoder(const ComponentConfig& c) {
  const std::vector<std::int64_t> ch(c.block_channels.rbegin(), c.block_channels.rend());
  const std::size_t n = ch.size();
  Count total = al_stems(c.latent_channels, ch[0], ch[n - 1], c.out_channels) + al_mid_block(ch[0]);
  Count out = ch[0];
  for (std::size_t i = 0; i < n; ++i) {
    const Count in = out;
    out = ch[i];
    total += al_resnet(in, out) + Count(c.layers_per_block) * al_resnet(out, out) +  // layers_per_block + 1 of each
             Count(c.layers_per_block + 1) * al_temporal_conv(out, false, false);
    if (c.temporal_upsample[i]) total += al_temporal_conv(out, false, true);
    if (i + 1 < n) total += conv(out, out, 9);  // Upsample2D's conv
  }
  return total;
}

}  // namespace

void read_allegro(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AllegroTransformer3DModel");
  read_attention_width(j, path, c, 24, 96);
  c.ffn = 4 * c.hidden;  // FeedForward(dim) with its default mult 4
  c.layers = io::optional_int(j, "num_layers", path, kWidth).value_or(32);
  c.in_channels = io::optional_int(j, "in_channels", path, kWidth).value_or(4);
  c.out_channels = io::optional_int(j, "out_channels", path, kWidth).value_or(4);
  c.text_dim = io::optional_int(j, "caption_channels", path, kWidth).value_or(4096);
  c.cross_dim = io::optional_int(j, "cross_attention_dim", path, kWidth).value_or(2304);
  if (c.cross_dim != c.hidden)
    throw InputError(path + "/cross_attention_dim", "must equal num_attention_heads × attention_head_dim (" +
                                                        std::to_string(c.hidden) + "): the caption projection's width");
  const std::int64_t patch = io::optional_int(j, "patch_size", path, {1, 16}).value_or(2);
  c.patch = {1, patch, patch};
  c.freq_dim = 256;  // Timesteps(num_channels=256) inside AdaLayerNormSingle
  c.rotary = true;   // 3D RoPE on q and k of the self-attention (AllegroAttnProcessor2_0)
  allegro_require(j, "patch_size_t", path, 1, "PatchEmbed patches each frame in 2D only");
  allegro_require(j, "activation_fn", path, "gelu-approximate", "the feed-forward is modelled with GELU (tanh)");
  allegro_require(j, "attention_bias", path, true, "the attention projections are counted with biases");
  allegro_require(j, "norm_elementwise_affine", path, false, "the block LayerNorms are counted without weights");
}

void read_allegro_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKLAllegro");
  c.block_channels = int_list(j, "block_out_channels", path, 0, {128, 256, 512, 512});
  const std::size_t n = c.block_channels.size();
  if (n > 7)
    throw InputError(path + "/block_out_channels", "lists " + std::to_string(n) + " levels; at most 7 (the spatial "
                                                   "compression 2^(levels - 1) is at most 64)");
  for (std::size_t i = 0; i < n; ++i)
    if (c.block_channels[i] % 32 != 0)
      throw InputError(path + "/block_out_channels/" + std::to_string(i), "must be a multiple of 32 (GroupNorm groups)");
  allegro_require(j, "norm_num_groups", path, 32, "the GroupNorms are counted with 32 groups");
  c.layers_per_block = io::optional_int(j, "layers_per_block", path, {1, 16}).value_or(2);
  c.latent_channels = io::optional_int(j, "latent_channels", path, {1, 1024}).value_or(4);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(3);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 64}).value_or(3);
  c.spatial = Count(1) << (n - 1);  // spatial_compression_ratio = 2 ** (len(block_out_channels) - 1)
  c.encoder_scaling = allegro_level_flags(j, "temporal_downsample_blocks", path, n, {true, true, false, false});
  c.temporal_upsample = allegro_level_flags(j, "temporal_upsample_blocks", path, n, {false, true, true, false});
  std::int64_t down = 1, up = 1;
  for (std::size_t i = 0; i < n; ++i) {
    down *= c.encoder_scaling[i] ? 2 : 1;
    up *= c.temporal_upsample[i] ? 2 : 1;
  }
  c.temporal = io::optional_int(j, "temporal_compression_ratio", path, {1, 64}).value_or(4);
  if (c.temporal != down || c.temporal != up)
    throw InputError(path + "/temporal_compression_ratio", "is " + std::to_string(c.temporal) + " but the levels halve time " +
                                                               std::to_string(down) + "× and double it " + std::to_string(up) +
                                                               "×; the three must agree");
  if (8 % c.temporal != 0)
    throw InputError(path + "/temporal_compression_ratio", "must divide the tiles' 24 frames and 8-frame overlap; "
                                                           "allowed: 1, 2, 4, 8");
  c.tile_sample_size = io::optional_int(j, "sample_size", path, {64, 4096}).value_or(320);
  // The tiles overlap by 120 rows: a stride of at least one latent row needs sample_size ≥ 120 + spatial.
  if (c.tile_sample_size % c.spatial != 0 || c.tile_sample_size < 120 + c.spatial)
    throw InputError(path + "/sample_size", "is the tile's pixel edge: at least the 120-pixel overlap + " +
                                                std::to_string(c.spatial) + " and a multiple of " + std::to_string(c.spatial));
  // force_upcast is not acted on: AllegroPipeline.decode_latents decodes in the VAE's own dtype.
  (void)io::optional_bool(j, "force_upcast", path);
}

Inventory allegro_vae(const ComponentConfig& c) {
  Inventory inv;
  const Count z = c.latent_channels;
  inv.other = al_encoder(c) + al_decoder(c) + conv(2 * z, 2 * z, 1) + conv(z, z, 1);  // + quant_conv, post_quant_conv
  return inv;
}

}  // namespace vram::generation::hf

namespace vram::generation {

LatentTiles allegro_latent_tiles(const ComponentConfig& vae) {
  constexpr std::int64_t kFrames = 24, kOverlapFrames = 8, kOverlapRows = 120, kOverlapColumns = 80;
  const std::int64_t s = vae.spatial, t = vae.temporal, edge = vae.tile_sample_size;
  return {kFrames / t, edge / s, edge / s, (kFrames - kOverlapFrames) / t, (edge - kOverlapRows) / s, (edge - kOverlapColumns) / s};
}

std::int64_t LatentTiles::count(const LatentGeometry& g) const {
  const auto along = [](std::int64_t size, std::int64_t tile, std::int64_t stride) {
    return size < tile ? std::int64_t{0} : (size - tile) / stride + 1;
  };
  return checked::product(along(g.latent_frames, frames, stride_frames), along(g.latent_height, height, stride_height),
                          along(g.latent_width, width, stride_width));
}

}  // namespace vram::generation
