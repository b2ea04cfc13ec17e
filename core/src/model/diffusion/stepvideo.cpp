// Step-Video-T2V (github stepfun-ai/Step-Video-T2V @675e08c0dd08aaf60b4da1a2ce57e9bd0d8af31c): the
// transformer (stepvideo/modules/model.py StepVideoModel over blocks.py StepVideoTransformerBlock and
// normalization.py AdaLayerNormSingle, PixArtAlphaTextProjection) and the Video-VAE (stepvideo/vae/vae.py
// AutoencoderKL version 2 with its VideoEncoder and VideoDecoder), read from their constructor arguments.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

namespace {

/// caption_channels: one width (no CLIP projection) or [Step-LLM width, Hunyuan-CLIP width].
void read_caption_channels(const json& j, const std::string& path, ComponentConfig& c) {
  const std::string p = path + "/caption_channels";
  const auto it = j.find("caption_channels");
  if (it == j.end()) {
    c.text_dim = 6144;  // StepVideoModel.__init__ default [6144, 1024]
    c.clip_dim = 1024;
    return;
  }
  const auto width = [&](const json& v, const std::string& at) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < kWidth.min || v.get<std::int64_t>() > kWidth.max)
      throw InputError(at, "must be a width from 1 to 1000000");
    return v.get<std::int64_t>();
  };
  if (it->is_array() && it->size() == 2) {
    c.text_dim = width((*it)[0], p + "/0");
    c.clip_dim = width((*it)[1], p + "/1");
    return;
  }
  if (!it->is_number_integer())
    throw InputError(p, "must be one width or [caption width, CLIP width] (StepVideoModel caption_channels)");
  c.text_dim = width(*it, p);
}

/// The switches the released transformer leaves at their defaults: other values are refused by name.
void check_stepvideo_switches(const json& j, const std::string& path) {
  const auto norm = io::optional_string(j, "norm_type", path);
  if (norm && *norm != "ada_norm_single")
    throw InputError(path + "/norm_type", "is \"" + *norm + "\"; the stepvideo_dit kind has \"ada_norm_single\"");
  if (io::optional_bool(j, "norm_elementwise_affine", path).value_or(false))
    throw InputError(path + "/norm_elementwise_affine",
                     "true (affine norm_out and caption_norm) is not modelled; "
                     "allowed: false");
  if (io::optional_bool(j, "use_additional_conditions", path).value_or(false))
    throw InputError(path + "/use_additional_conditions",
                     "true (resolution, frame-count and fps embedders) is not "
                     "modelled; allowed: false");
  const auto attn = io::optional_string(j, "attention_type", path);
  if (attn && *attn != "parallel" && *attn != "torch")
    throw InputError(path + "/attention_type", "is \"" + *attn + "\"; allowed: \"parallel\", \"torch\"");
}

}  // namespace

void read_stepvideo(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "StepVideoModel");
  read_attention_width(j, path, c, 48, 128);  // __init__ defaults: 48 heads × 128
  c.ffn = checked::mul(c.hidden, 4);          // blocks.py FeedForward(mult=4), ff_inner_dim None
  c.layers = io::optional_int(j, "num_layers", path, {1, 1024}).value_or(48);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 4096}).value_or(64);
  const auto out = j.find("out_channels");
  c.out_channels = out != j.end() && out->is_null() ? c.in_channels
                                                    : io::optional_int(j, "out_channels", path, {1, 4096}).value_or(64);
  const std::int64_t p = io::optional_int(j, "patch_size", path, {1, 16}).value_or(1);
  c.patch = {1, p, p};
  c.freq_dim = 256;  // PixArtAlphaCombinedTimestepSizeEmbeddings: Timesteps(num_channels=256)
  read_caption_channels(j, path, c);
  check_stepvideo_switches(j, path);
  if (c.head_dim != 128)
    throw InputError(path + "/attention_head_dim",
                     "must be 128: SelfAttention splits each head 64 + 32 + 32 for its "
                     "3D RoPE (rope_ch_split)");
}

namespace {

/// `key`: distinct levels from `lo` to `hi` (absent: `fallback`).
std::vector<std::int64_t> sv_level_list(const json& j, const char* key, const std::string& path, std::int64_t lo,
                                        std::int64_t hi, std::vector<std::int64_t> fallback) {
  std::vector<std::int64_t> v = int_list(j, key, path, 0, std::move(fallback), 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] < lo || v[i] > hi || std::count(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(i), v[i]) > 0)
      throw InputError(path + "/" + key + "/" + std::to_string(i),
                       "must be a distinct level from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  return v;
}

std::vector<std::int64_t> sv_widths(std::int64_t ch, const std::vector<std::int64_t>& mult) {
  std::vector<std::int64_t> out;
  for (auto m : mult) out.push_back(checked::mul(ch, m));
  return out;
}

/// GroupNorm(32) over every width, and the version-2 channel shuffles' divisibility.
void check_stepvideo_vae_widths(const std::string& path, const ComponentConfig& c, std::int64_t encoder_ch) {
  const auto all32 = [](const std::vector<std::int64_t>& v) {
    return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x % 32 == 0; });
  };
  if (!all32(c.decoder_channels))
    throw InputError(path + "/ch_mult", "every decoder width ch × ch_mult must be a multiple of 32 (GroupNorm(32))");
  if (!all32(c.block_channels) || encoder_ch % 32 != 0)
    throw InputError(path + "/encoder_ch_mult",
                     "encoder_ch and every encoder width must be multiples of 32 "
                     "(GroupNorm(32))");
  const Count shuffled = Count(32) * c.latent_channels;  // version 2: 4 × z_channels × 2³ channels at the latent end
  if ((Count(c.decoder_channels.back()) * 8) % shuffled != 0 || (Count(c.block_channels.back()) * 8) % shuffled != 0)
    throw InputError(path + "/z_channels",
                     "the innermost widths × 8 must be multiples of 32 × z_channels (the "
                     "version-2 pixel (un)shuffle layers repeat or average whole channel groups)");
}

}  // namespace

void read_stepvideo_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKL");
  const std::int64_t version = io::optional_int(j, "version", path, {1, 2}).value_or(1);
  if (version != 2)
    throw InputError(path + "/version",
                     "1 (vae.safetensors, 16 latent channels) is not modelled; allowed: 2 "
                     "(vae_v2.safetensors, which api/call_remote_server.py loads)");
  c.latent_channels = io::optional_int(j, "z_channels", path, {1, 1024}).value_or(16);
  c.layers_per_block = io::optional_int(j, "num_res_blocks", path, {1, 16}).value_or(2);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(3);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 64}).value_or(3);
  const std::int64_t ch = io::optional_int(j, "ch", path, {1, 4096}).value_or(128);
  const std::int64_t ech = io::optional_int(j, "encoder_ch", path, {1, 4096}).value_or(32);
  const auto mult = int_list(j, "ch_mult", path, 0, {1, 2, 4, 4});
  const auto emult = int_list(j, "encoder_ch_mult", path, 0, {4, 8, 16, 16});
  const auto n = static_cast<std::int64_t>(mult.size());
  if (n > 6) throw InputError(path + "/ch_mult", "lists at most 6 levels (2 × 2⁵ = 64× spatial compression at most)");
  if (n < 2 || emult.size() != mult.size())
    throw InputError(path + "/encoder_ch_mult",
                     "must list as many levels as ch_mult, at least 2 (each side resamples "
                     "between levels)");
  const auto up = sv_level_list(j, "temporal_up_layers", path, 1, n - 1, {2, 3});
  const auto down = sv_level_list(j, "down_sampling_layer", path, 0, n - 2, {1, 2});
  if (up.size() != 2 || down.size() != 2)
    throw InputError(path + "/temporal_up_layers",
                     "temporal_up_layers and down_sampling_layer must list 2 levels each: "
                     "AutoencoderKL splits videos into 17-frame chunks of 3 latent frames, "
                     "8× in time");
  c.decoder_channels = sv_widths(ch, mult);
  c.block_channels = sv_widths(ech, emult);
  c.encoder_ch = ech;
  for (std::int64_t i = n - 1; i >= 0; --i)  // decoder levels, low resolution first
    c.temporal_upsample.push_back(std::count(up.begin(), up.end(), i) > 0);
  for (std::int64_t i = 0; i + 1 < n; ++i) c.temporal_downsample.push_back(std::count(down.begin(), down.end(), i) > 0);
  c.spatial = Count(2) << (n - 1);  // the (un)patchify layers' 2× and one resample per level but the last
  c.temporal = 8;
  c.chunk_frames = 17;  // AutoencoderKL.frame_len
  c.chunk_latents = 3;  // AutoencoderKL.latent_len for version 2
  c.mid_attention = true;
  check_stepvideo_vae_widths(path, c, ech);
}

Inventory stepvideo_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers, p2 = Count(c.patch[1]) * c.patch[2];
  inv.other =
      Count(c.in_channels) * p2 * d + d                            // PatchEmbed Conv2d
      + L * (Count(4) * d + Count(4) * c.head_dim + Count(6) * d)  // norm1, norm2; q/k RMSNorms ×2; scale_shift_table
      + 2 * d;                                                     // the output scale_shift_table
  add(inv, d, 3 * d, L, false);                                    // SelfAttention wqkv
  add(inv, d, d, 3 * L, false);                                    // SelfAttention wo, CrossAttention wq and wo
  add(inv, d, 2 * d, L, false);                                    // CrossAttention wkv
  add(inv, d, c.ffn, L, false);                                    // FeedForward (bias=False)
  add(inv, c.ffn, d, L, false);
  add(inv, d, Count(c.out_channels) * p2, 1);  // proj_out
  add(inv, c.freq_dim, d, 1);                  // AdaLayerNormSingle: TimestepEmbedding linear_1, linear_2
  add(inv, d, d, 1);
  add(inv, d, 6 * d, 1);       // AdaLayerNormSingle.linear
  add(inv, c.text_dim, d, 1);  // caption_projection (PixArtAlphaTextProjection)
  add(inv, d, d, 1);
  if (c.clip_dim > 0) add(inv, c.clip_dim, d, 1);  // clip_projection
  return inv;
}

namespace {

/// Resnet3DBlock: two GroupNorms and 3×3×3 convs, a 1×1×1 nin_shortcut when the width changes (no time embedding).
Count sv_resnet(Count in, Count out) {
  Count n = 2 * in + conv3(in, out) + 2 * out + conv3(out, out);
  if (in != out) n += conv(in, out, 1);
  return n;
}

/// The mid block: resnet, AttnBlock (GroupNorm, 1×1×1 q, k, v and proj_out), resnet.
Count sv_mid(Count c) {
  return 2 * sv_resnet(c, c) + 2 * c + 4 * conv(c, c, 1);
}

/// VideoEncoder: conv_in to encoder_ch; per level num_res_blocks resnets, then a strided 3×3×3 conv (time and
/// space) or 3×3 Conv2d (space); the mid block; GroupNorm; version 2's conv_patchify to 4 × z_channels and conv_out.
Count sv_encoder(const ComponentConfig& c) {
  const auto& w = c.block_channels;
  const Count z = c.latent_channels;
  Count total = conv3(c.in_channels, c.encoder_ch), in = c.encoder_ch;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Count out = w[i];
    total += sv_resnet(in, out) + Count(c.layers_per_block - 1) * sv_resnet(out, out);
    in = out;
    if (i + 1 < w.size()) total += c.temporal_downsample[i] ? conv3(out, out) : conv(out, out, 9);
  }
  return total + sv_mid(in) + 2 * in + conv3(in, 4 * z) + conv3(32 * z, 2 * z);
}

/// VideoDecoder: version 2's conv_in to 32 × z_channels and conv_unpatchify to 8 × the innermost width; the mid
/// block; per level num_res_blocks + 1 resnets, then Upsample3D (a Res3DBlockUpsample: two 3×3×3 convs and
/// GroupNorms) or Upsample2D (a 3×3 Conv2d); GroupNorm and conv_out.
Count sv_decoder(const ComponentConfig& c) {
  const std::vector<std::int64_t> w(c.decoder_channels.rbegin(), c.decoder_channels.rend());
  const Count z = c.latent_channels;
  Count in = w[0];
  Count total = conv3(z, 32 * z) + conv3(32 * z, 8 * in) + sv_mid(in);
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Count out = w[i];
    total += sv_resnet(in, out) + Count(c.layers_per_block) * sv_resnet(out, out);
    in = out;
    if (i + 1 < w.size()) total += c.temporal_upsample[i] ? 2 * (conv3(out, out) + 2 * out) : conv(out, out, 9);
  }
  return total + 2 * in + conv3(in, c.out_channels);
}

}  // namespace

Inventory stepvideo_vae(const ComponentConfig& c) {
  Inventory inv;
  inv.other = Count(sv_encoder(c)) + sv_decoder(c);
  return inv;
}

}  // namespace vram::generation::hf
