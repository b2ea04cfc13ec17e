// Budget category: the VAE decode, usually the largest transient of a
// generation: the decoder's widest levels run at full output resolution.
#include <algorithm>
#include <utility>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

std::pair<Count, Count> decode_call_area(const DecodeShape& s, Count tile_h, Count tile_w) {
  Count h = s.latent.latent_height, w = s.latent.latent_width;
  if (s.tiling) {
    h = std::min<std::int64_t>(h, tile_h);
    w = std::min<std::int64_t>(w, tile_w);
  }
  return {h, w};
}

Count tiled_extent(Count size, Count tile, Count stride) {
  Count covered = 0;
  for (Count i = 0; i < size; i = i + std::max<std::int64_t>(1, stride)) covered += std::min<std::int64_t>(tile, size - i);
  return covered;
}

Term decode_elements(const DecodeShape& s, Count elems, std::string_view what, std::string_view label) {
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(elems, what), Factor::bytes(s.elem)})
      .named(label);
}

Term held_tiles(const Component& vae, const DecodeShape& s, std::int64_t samples, Count frames,
                std::pair<Count, Count> tile, std::pair<Count, Count> stride) {
  const Count rows = tiled_extent(s.latent.latent_height, tile.first, stride.first);
  const Count cols = tiled_extent(s.latent.latent_width, tile.second, stride.second);
  return Term::product({Factor::of(samples, "samples"), Factor::of(3, "RGB"), Factor::of(frames, "frames"),
                        Factor::of(rows * cols * vae.config.spatial * vae.config.spatial, "pixels of all tiles"),
                        Factor::bytes(s.elem)})
      .named("decoded tiles");
}

double upsample2d_bytes_per_output(const DecodeShape& s) { return 2.25 * static_cast<double>(s.elem); }

namespace {

constexpr std::string_view kConvLayoutSource =
    "cuDNN developer guide, Legacy API, Convolution Functions, Data and Filter Formats: cuDNN may use padding, "
    "folding and NCHW-to-NHWC transformations to run convolutions on tensor cores (the transformed tensors live in "
    "its workspace, which PyTorch 2.5 aten/src/ATen/native/cudnn/Conv_v8.cpp takes from the caching allocator); range: "
    "an engine that needs no transformation to one that copies both";

/// A half-precision conv on NCHW tensors may run through NHWC copies of its input and output in cuDNN's workspace.
bool conv_layout_copies_apply(const DecodeShape& s) { return s.elem == 2; }

Term conv_layout_copies(const DecodeShape& s, Count channels, Count px) {
  Term t = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(channels, "channels (conv input + output)"),
                          Factor::of(px, "pixels"), Factor::bytes(s.elem)});
  const ByteRange r{Bytes{}, t.bytes};
  return std::move(t)
      .named("cuDNN NHWC copies")
      .noted("when cuDNN's engine runs the half-precision conv on tensor cores")
      .within(r)
      .cite(kConvLayoutSource);
}

/// A conv's moment `t` (under its own name) beside the layout copies of its `channels` (input + output) at
/// `px` pixels, where they apply; `t` as it is otherwise.
Term beside_layout_copies(Term t, const DecodeShape& s, Count channels, Count px) {
  if (!conv_layout_copies_apply(s)) return t;
  const std::string_view name = t.what;
  return Term::sum(terms(std::move(t), conv_layout_copies(s, channels, px))).named(name);
}

constexpr std::string_view kDecoder2dSource =
    "diffusers @58eb52c autoencoders/vae.py Decoder and resnet.py ResnetBlock2D (input kept for the shortcut, norm and "
    "SiLU outputs live at once), upsampling.py Upsample2D (nearest interpolation in the tensor's dtype from v0.31 on "
    "PyTorch 2.1 or later, then the conv)";
constexpr std::string_view kDecoder3dSource =
    "Wan2.1 @9737cba9 wan/modules/vae.py WanVAE_.decode (one latent frame per call, CACHE_T = 2 frames cached per "
    "causal conv, output joined by torch.cat) and ResidualBlock / CausalConv3d (cache clone, cat, pad)";
constexpr std::string_view kDecoder3dFirstCallSource =
    "diffusers @58eb52c autoencoders/autoencoder_kl_wan.py: one latent frame decodes in the first call alone "
    "(_decode: out = out_, no torch.cat), where WanResample upsample3d marks its cache \"Rep\" and skips the time "
    "conv (one frame at every level), WanResidualBlock caches x[:, :, -CACHE_T:] of a one-frame input (one frame) "
    "and WanCausalConv3d, with no cache yet, pads the frame with two zero frames (F.pad)";

/// One latent frame (an image through a video VAE: Wan at frames 1, Qwen-Image's
/// VAE) is decoded by the first call alone, whose convs see one frame each.
bool single_latent_frame(const DecodeShape& s) {
  return s.latent.latent_frames <= 1;
}

/// A diffusers VAE's tiles: tile_sample_min and tile_sample_stride (pixels, square) as its __init__ sets them.
struct TilePx {
  std::int64_t size = 0, stride = 0;
};
// diffusers @58eb52c autoencoders/autoencoder_kl_qwenimage.py (and autoencoder_kl_wan.py) __init__.
constexpr TilePx kTile3d{256, 192};
// diffusers @58eb52c autoencoders/autoencoder_dc.py __init__.
constexpr TilePx kTileDc{512, 448};

/// Latents a tile covers per side, and its stride in latents.
Count tile_latent(const Component& vae, std::int64_t px) { return px / std::max<std::int64_t>(1, vae.config.spatial); }
Count tile_latent_3d(const Component& vae) { return tile_latent(vae, kTile3d.size); }

/// Whether the decode runs in tiles: tiling asked and the latent larger than one tile.
bool tiled_by(const Component& vae, const DecodeShape& s, TilePx t) {
  const Count n = tile_latent(vae, t.size);
  const auto area = decode_call_area(s, n, n);
  return s.tiling && (area.first < s.latent.latent_height || area.second < s.latent.latent_width);
}

/// Square tiles of diffusers' Qwen-Image / Wan and DC-AE tiled_decode, for the samples of one decode call.
Term decoded_tiles(const Component& vae, const DecodeShape& s, TilePx t) {
  const Count tile = tile_latent(vae, t.size), stride = tile_latent(vae, t.stride);
  return held_tiles(vae, s, s.samples_at_once, s.frames, {tile, tile}, {stride, stride});
}

struct Level {
  Count channels_in = 0;
  Count pixels = 0;  ///< per frame, per sample
  Count frames = 1;  ///< frames per decoder call at this level
};

/// Pixels of a 2D decoder level `l` (latent size doubled l times), tile-capped.
Count level_pixels(const Component& vae, const DecodeShape& s, std::size_t l) {
  Count h = s.latent.latent_height, w = s.latent.latent_width;
  if (s.tiling && vae.config.tile_sample_size > 0) {
    const Count tile = vae.config.tile_sample_size / vae.config.spatial;
    h = std::min<std::int64_t>(h, tile);
    w = std::min<std::int64_t>(w, tile);
  }
  return Count(h << l) * (w << l);
}

/// A ResnetBlock2D entering a level with `c_in` channels and leaving with `c_out`: its input, norm and
/// SiLU outputs at once, then (half precision) its first conv beside cuDNN's layout copies.
Term resnet_2d(const DecodeShape& s, Count c_in, Count c_out, Count px) {
  Term entry = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(c_in, "channels"),
                              Factor::of(px, "pixels"), Factor::of(3, "input, norm, SiLU"), Factor::bytes(s.elem)})
                   .named("resnet entry");
  if (!conv_layout_copies_apply(s)) return entry;
  Term conv = Term::product({Factor::of(s.samples_at_once, "samples"),
                             Factor::of(Count(2) * c_in + c_out, "channels (input, SiLU, conv output)"),
                             Factor::of(px, "pixels"), Factor::bytes(s.elem)})
                  .named("resnet first conv");
  return Term::max_of(terms(std::move(entry), beside_layout_copies(std::move(conv), s, c_in + c_out, px))).named("resnet");
}

Terms levels_2d(const Component& vae, const DecodeShape& s) {
  const auto& ch = vae.config.block_channels;
  const std::size_t n = ch.size();
  Terms out;
  for (std::size_t l = 0; l < n; ++l) {
    const Count c_in = ch[n - 1 - (l == 0 ? 0 : l - 1)];
    const Count c_out = ch[n - 1 - l];
    const Count px = level_pixels(vae, s, l);
    Term resnet = resnet_2d(s, c_in, c_out, px);
    if (l == 0) {
      if (s.attention == GenAttention::naive)
        out.push_back(Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(px, "queries"),
                                     Factor::of(px, "keys"), Factor::of(2, "scores + softmax"), Factor::bytes(s.elem)})
                          .named("mid-block attention scores (naive)"));
      out.push_back(std::move(resnet).named("mid block"));
      continue;
    }
    const double per_elem = upsample2d_bytes_per_output(s);
    Term up = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(c_in, "channels"),
                             Factor::of(px, "pixels"),
                             Factor::real(per_elem, "B/element (quarter-size input, interpolation, conv output)")},
                            Rounding::ceil)
                  .named("upsample");
    out.push_back(Term::max_of(terms(std::move(resnet), beside_layout_copies(std::move(up), s, Count(2) * c_in, px)))
                      .named("decoder level"));
  }
  return out;
}

/// Decoder levels of the causal 3D VAE (Wan VAE Decoder3d), low to high resolution.
std::vector<Level> levels_3d_shape(const Component& vae, const DecodeShape& s, std::vector<Count>& out_channels) {
  const ComponentConfig& c = vae.config;
  const std::pair<Count, Count> area = decode_call_area(s, tile_latent_3d(vae), tile_latent_3d(vae));
  std::vector<Count> dims{Count(c.base_dim) * c.dim_mult.back()};
  for (auto it = c.dim_mult.rbegin(); it != c.dim_mult.rend(); ++it) dims.push_back(Count(c.base_dim) * *it);
  std::vector<Level> levels;
  Count frames = 1;
  for (std::size_t l = 0; l + 1 < dims.size(); ++l) {
    Level v;
    v.channels_in = (c.halve_after_upsample && l > 0) ? dims[l] / 2 : dims[l];
    v.pixels = Count(area.first << l) * (area.second << l);
    v.frames = frames;
    levels.push_back(v);
    out_channels.push_back(dims[l + 1]);
    if (!single_latent_frame(s) && l < c.temporal_upsample.size() && c.temporal_upsample[l]) frames = frames * 2;
  }
  return levels;
}

Terms levels_3d(const Component& vae, const DecodeShape& s) {
  std::vector<Count> outs;
  Terms out;
  const std::vector<Level> levels = levels_3d_shape(vae, s, outs);
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const Level& v = levels[l];
    if (single_latent_frame(s)) {
      // At the conv: input (kept for the shortcut), SiLU output, its one-frame cache clone and
      // the three zero-padded frames, beside the conv's one-frame output.
      Term conv = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(v.pixels, "pixels"),
                                 Factor::of(Count(6) * v.channels_in + outs[l],
                                            "channel-frames (input, SiLU, cache clone, 3 zero-padded; output)"),
                                 Factor::bytes(s.elem)})
                      .named("resblock causal conv (first call)");
      out.push_back(beside_layout_copies(std::move(conv), s, Count(3) * v.channels_in + outs[l], v.pixels));
      continue;
    }
    Term conv = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(v.channels_in, "channels"),
                               Factor::of(v.pixels, "pixels"),
                               Factor::of(Count(4) * v.frames + 6, "frame copies (input, SiLU, cat, pad, cache clone)"),
                               Factor::bytes(s.elem)})
                    .named("resblock causal conv");
    // The conv reads the frames after the 2 cached ones and writes its own.
    out.push_back(beside_layout_copies(std::move(conv), s,
                                       Count(v.channels_in) * (v.frames + 2) + Count(outs[l]) * v.frames, v.pixels));
  }
  return out;
}

/// Frames each causal conv keeps between calls, over every level (CACHE_T = 2).
Term causal_caches(const Component& vae, const DecodeShape& s) {
  std::vector<Count> outs;
  const std::vector<Level> levels = levels_3d_shape(vae, s, outs);
  const ComponentConfig& c = vae.config;
  Count elems = Count(5) * outs.front() * levels.front().pixels;  // decoder conv1 and the middle block's four convs
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const Count convs = Count(2) * (c.layers_per_block + 1) - 1;
    elems += (Count(levels[l].channels_in) + convs * outs[l]) * levels[l].pixels;
    // The time conv's cache; the first call leaves only the marker "Rep" there.
    if (!single_latent_frame(s) && l < c.temporal_upsample.size() && c.temporal_upsample[l])
      elems += Count(outs[l]) * levels[l].pixels;
  }
  elems += Count(outs.back()) * levels.back().pixels;  // head conv
  return Term::product({Factor::of(s.samples_at_once, "samples"),
                        Factor::of(single_latent_frame(s) ? 1 : 2, "cached frames"),
                        Factor::of(elems, "cached elements per frame"), Factor::bytes(s.elem)})
      .named("causal conv caches");
}

Term decoded_output(const DecodeShape& s, bool joined_by_cat) {
  return Term::product({Factor::of(joined_by_cat ? 2 : 1, joined_by_cat ? "copies (torch.cat)" : "copy"),
                        Factor::of(s.samples, "samples"), Factor::of(3, "RGB"), Factor::of(s.frames, "frames"),
                        Factor::of(Count(s.width) * s.height, "pixels"), Factor::bytes(s.elem)})
      .named("decoded output");
}

constexpr std::string_view kDecoder3dTiledSource =
    "diffusers @58eb52c autoencoders/autoencoder_kl_qwenimage.py tiled_decode (as autoencoder_kl_wan.py): tiles of "
    "256 × 256 px every 192 px, each decoded one latent frame per call like _decode with its own causal caches "
    "(cleared per tile), every decoded tile held until the rows are blended, each row's tiles joined by torch.cat, "
    "then the rows";

constexpr std::string_view kCogDecoderSource =
    "diffusers v0.35 autoencoder_kl_cogvideox.py AutoencoderKLCogVideoX._decode (2 latent frames per decoder call, "
    "the first call also takes the odd one; conv_cache carried from call to call, the previous one held until the "
    "call returns), CogVideoXSpatialNorm3D (GroupNorm × conv_y + conv_b of the interpolated latent), "
    "CogVideoXCausalConv3d (cache cat, clone of the last 2 input frames; a 1×1×1 conv clones its whole input) and "
    "upsampling.py CogVideoXUpsample3D (frames after the first doubled on the compress_time levels)";

/// One decoder level of AutoencoderKLCogVideoX for one call: its first
/// resnet's input and output widths, pixels per frame and frames.
struct CogLevel {
  Count c_in = 0, c_out = 0, pixels = 0, frames = 0;
};

/// Frames after a compress_time upsample: the first kept, the others doubled.
Count cog_time_up(Count f) {
  if (f <= 1) return f;
  return f % 2 == 1 ? 1 + 2 * (f - 1) : 2 * f;
}

/// Level 0 is conv_in and the middle block, then one level per up block, for
/// a call of `f` latent frames over `h` × `w` latents.
std::vector<CogLevel> cog_levels(const Component& vae, Count h, Count w, Count f) {
  const auto& bo = vae.config.block_channels;
  const std::size_t n = bo.size();
  std::size_t time_levels = 0;
  for (std::int64_t t = vae.config.temporal; t > 1; t /= 2) ++time_levels;
  std::vector<CogLevel> out{{bo[n - 1], bo[n - 1], h * w, f}};
  Count prev = bo[n - 1];
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({prev, bo[n - 1 - i], Count(h << i) * (w << i), f});
    if (i + 1 < n && i < time_levels) f = cog_time_up(f);
    prev = bo[n - 1 - i];
  }
  return out;
}

/// The first resnet of a level: its spatial norm (input, conv_y, conv_b,
/// GroupNorm output, product and sum live at once) or its first causal conv
/// (input kept for the shortcut, SiLU output, the cat with 2 cached frames,
/// the new cache and the output), whichever is larger.
Term cog_resnet_peak(const CogLevel& v, const DecodeShape& s) {
  Term norm = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(v.c_in, "channels"),
                             Factor::of(v.frames, "frames"), Factor::of(v.pixels, "pixels"),
                             Factor::of(6, "input, conv_y, conv_b, GroupNorm, product, sum"), Factor::bytes(s.elem)})
                  .named("spatial norm");
  Term conv = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(v.pixels, "pixels"),
                             Factor::of(Count(v.c_in) * (Count(3) * v.frames + 4) + Count(v.c_out) * v.frames,
                                        "channel-frames (input, SiLU, cat with 2 cached, cache clone; output)"),
                             Factor::bytes(s.elem)})
                  .named("causal conv");
  conv = beside_layout_copies(std::move(conv), s, Count(v.c_in) * (v.frames + 2) + Count(v.c_out) * v.frames, v.pixels);
  return Term::max_of(terms(std::move(norm), std::move(conv))).named("resnet");
}

/// Elements the causal convs of levels [0, upto) keep for the next call: 2
/// frames of every 3×3×3 conv's input, the whole latent of every spatial
/// norm's 1×1×1 convs; with `upto` = all, also norm_out and conv_out.
Count cog_cache_elems(const Component& vae, const std::vector<CogLevel>& levels, std::size_t upto) {
  const ComponentConfig& c = vae.config;
  const Count z = c.latent_channels;
  Count n = Count(2) * z * levels[0].pixels;  // conv_in
  for (std::size_t l = 0; l < upto && l < levels.size(); ++l) {
    const CogLevel& v = levels[l];
    const Count resnets = l == 0 ? Count(2) : Count(c.layers_per_block + 1);
    const Count convs_out = Count(2) * resnets - 1;
    n += Count(2) * v.pixels * (Count(v.c_in) + convs_out * v.c_out);
    n += Count(4) * resnets * z * v.frames * v.pixels;
  }
  if (upto >= levels.size()) {
    const CogLevel& top = levels.back();
    n += Count(2) * z * top.frames * top.pixels + Count(2) * top.c_out * top.pixels;
  }
  return n;
}

Term cog_caches(const DecodeShape& s, Count elems, std::string_view what) {
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(elems, "cached elements"),
                        Factor::bytes(s.elem)})
      .named(what);
}

/// The latent area one decoder call covers: the whole latent, or with tiling
/// one tile of (sample_height / 2) × (sample_width / 2) pixels.
std::pair<Count, Count> cog_call_area(const Component& vae, const DecodeShape& s) {
  return decode_call_area(s, vae.config.sample_height / 2 / vae.config.spatial,
                          vae.config.sample_width / 2 / vae.config.spatial);
}

/// One decoder call of `f` latent frames, the previous call's caches (of
/// `f_prev` frames, 0: none) held: the largest level's resnet with the caches
/// this call has made below it.
Term cog_decode_call(const Component& vae, const DecodeShape& s, Count f, Count f_prev) {
  const auto [h, w] = cog_call_area(vae, s);
  const std::vector<CogLevel> levels = cog_levels(vae, h, w, f);
  Terms at_level;
  for (std::size_t l = 0; l < levels.size(); ++l)
    at_level.push_back(Term::sum(terms(cog_resnet_peak(levels[l], s),
                                       cog_caches(s, cog_cache_elems(vae, levels, l), "caches of the levels below")))
                           .named("decoder level"));
  Terms parts;
  parts.push_back(Term::max_of(std::move(at_level)).named("largest decoder level"));
  if (f_prev > 0) {
    const std::vector<CogLevel> old = cog_levels(vae, h, w, f_prev);
    parts.push_back(cog_caches(s, cog_cache_elems(vae, old, old.size()), "previous call's caches"));
  }
  return Term::sum(std::move(parts)).named(f_prev > 0 ? "second decoder call" : "first decoder call");
}

/// Latent frames of the first call (2, or 3 when the count is odd) and whether a second call follows.
std::pair<Count, bool> cog_first_call(const DecodeShape& s) {
  const Count t = s.latent.latent_frames;
  if (t < 2) return {t, false};
  return {2 + t % 2, t / 2 >= 2};
}

/// CogVideoX's tiles: sample_height / 2 × sample_width / 2, overlaps 1/6 and 1/5 (every sample's tiles held).
Term cog_decoded_tiles(const Component& vae, const DecodeShape& s) {
  const Count th = vae.config.sample_height / 2 / vae.config.spatial, tw = vae.config.sample_width / 2 / vae.config.spatial;
  return held_tiles(vae, s, s.samples, s.frames, {th, tw}, {th * 5 / 6, tw * 4 / 5});
}

Term cogvideox_decode_peak(const Component& vae, const DecodeShape& s) {
  const auto [f0, second] = cog_first_call(s);
  Term calls = second ? Term::max_of(terms(cog_decode_call(vae, s, f0, 0), cog_decode_call(vae, s, 2, f0)))
                      : cog_decode_call(vae, s, f0, 0);
  const auto area = cog_call_area(vae, s);
  const bool tiled = s.tiling && (area.first < s.latent.latent_height || area.second < s.latent.latent_width);
  Terms parts = terms(std::move(calls), decoded_output(s, true));
  if (tiled) parts.push_back(cog_decoded_tiles(vae, s));
  return Term::sum(std::move(parts))
      .cite(tiled ? "diffusers v0.35 autoencoder_kl_cogvideox.py tiled_decode (tiles of sample_height / 2 × "
                    "sample_width / 2 decoded like _decode, overlaps 1/6 and 1/5, every tile held until blended) "
                    "and _decode (2 latent frames per call, conv_cache carried between calls)"
                  : kCogDecoderSource);
}

/// Per-level working sets of the first call (the largest), for the allocator cache.
Terms cog_levels_terms(const Component& vae, const DecodeShape& s) {
  const auto [h, w] = cog_call_area(vae, s);
  Terms out;
  for (const CogLevel& v : cog_levels(vae, h, w, cog_first_call(s).first)) out.push_back(cog_resnet_peak(v, s));
  return out;
}

constexpr std::string_view kDcSource =
    "diffusers @58eb52c autoencoders/autoencoder_dc.py Decoder (conv_in, up blocks from the lowest level, "
    "RMSNorm, ReLU, conv_out), ResBlock (input kept for the residual; normalization.py RMSNorm upcasts to fp32 "
    "and squares before its mean), DCUpBlock2d (interpolate and conv, or conv and pixel_shuffle, beside the "
    "repeat_interleave + pixel_shuffle shortcut and their sum), EfficientViTBlock (attention_processor.py "
    "SanaMultiscaleAttnProcessor2_0: q, k, v, their concatenation and its multiscale projections held, the "
    "concatenation upcast to fp32 for linear attention; GLUMBConv with expand 4)";

constexpr std::string_view kDcTiledSource =
    "diffusers @58eb52c autoencoders/autoencoder_dc.py tiled_decode: tiles of 512 × 512 px every 448 px, each "
    "decoded whole by the Decoder, every decoded tile held until the rows are blended and joined by torch.cat, "
    "the rows joined again";

/// Bytes per channel-pixel of a DC-AE level's blocks: a ResBlock holds its input, the
/// second conv's output and the RMSNorm's fp32 copy and square (the copy is the input
/// itself in fp32); an EfficientViT block the larger of its attention (input, q, k, v,
/// their concatenation and each scale's projection in the compute dtype; the
/// concatenation in fp32, ReLU q and k, padded v, product and quotient per scale) and
/// its GLUMBConv (input and two of the 8 × channel inverted, SiLU and depthwise outputs).
Count dc_block_bytes(const ComponentConfig& c, bool vit, std::int64_t e) {
  const Count fp32_temps = e < 4 ? 8 : 4;
  if (!vit) return Count(2) * e + fp32_temps;
  const Count k = Count(1) + c.multiscales;
  const Count attention = Count(e) * (Count(7) + Count(3) * c.multiscales) + Count(32) * k;
  return std::max<std::int64_t>(attention, Count(17) * e);
}

/// Decoder levels of AutoencoderDC from the lowest resolution: the level's blocks or
/// the up block that enters it (its input beside the interpolated tensor and the
/// conv's output, or beside the conv, the shortcut and their sum), whichever is larger.
Terms dc_decode_levels(const Component& vae, const DecodeShape& s) {
  const ComponentConfig& c = vae.config;
  const std::size_t n = c.decoder_channels.size();
  const std::pair<Count, Count> area = decode_call_area(s, tile_latent(vae, kTileDc.size), tile_latent(vae, kTileDc.size));
  const Count base = Count(area.first) * area.second;
  Terms out;
  for (std::size_t i = n; i-- > 0;) {
    const Count px = base << (2 * (n - 1 - i)), ch = c.decoder_channels[i];
    Terms parts;
    parts.push_back(Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(ch, "channels"),
                                   Factor::of(px, "pixels"),
                                   Factor::of(dc_block_bytes(c, c.decoder_vit[i], s.elem),
                                              c.decoder_vit[i] ? "B (EfficientViT block)" : "B (ResBlock)")})
                        .named("blocks"));
    if (i + 1 < n) {
      const Count in = Count(c.decoder_channels[i + 1]) * (px / 4);
      const Count three = Count(3) * ch * px;
      const Count made = c.interpolate_up ? Count(std::max<std::int64_t>(Count(c.decoder_channels[i + 1]) * px + ch * px, three))
                                          : three;
      parts.push_back(Term::product({Factor::of(s.samples_at_once, "samples"),
                                     Factor::of(in + made, "elements (input; upsampled, conv output, shortcut, sum)"),
                                     Factor::bytes(s.elem)})
                          .named("up block"));
    }
    out.push_back(Term::max_of(std::move(parts)).named("decoder level"));
  }
  return out;
}

Terms levels_of(const Component& vae, const DecodeShape& s) {
  if (vae.kind == ComponentKind::vae_dc) return dc_decode_levels(vae, s);
  if (vae.kind == ComponentKind::vae_cogvideox) return cog_levels_terms(vae, s);
  if (vae.kind == ComponentKind::vae_ltx) return ltx_decode_levels(vae, s);
  if (vae.kind == ComponentKind::vae_hunyuan) return hunyuan_decode_levels(vae, s);
  if (vae.kind == ComponentKind::vae_hunyuan15) return hunyuan15_decode_levels(vae, s);
  if (vae.kind == ComponentKind::vae_stepvideo) return stepvideo_decode_levels(vae, s);
  if (vae.kind == ComponentKind::vae_mochi) return mochi_decode_levels(vae, s);
  if (vae.kind == ComponentKind::vae_allegro) return allegro_decode_levels(vae, s);
  return vae.kind == ComponentKind::vae_3d ? levels_3d(vae, s) : levels_2d(vae, s);
}

/// Encoder levels of the causal 3D VAE (Wan Encoder3d), high to low resolution:
/// dims base × [1] + dim_mult; 4 frames per call after the first, halved by each
/// temporal downsample (the decoder's upsampling in reverse).
Term encoder_levels_and_caches(const Component& vae, const DecodeShape& s, Term& caches) {
  const ComponentConfig& c = vae.config;
  std::vector<Count> dims{Count(c.base_dim)};
  for (auto m : c.dim_mult) dims.push_back(Count(c.base_dim) * m);
  const std::size_t n = dims.size() - 1;
  Terms levels;
  Count frames = c.temporal, cached = Count(3) * s.width * s.height;  // conv1 on RGB
  for (std::size_t l = 0; l < n; ++l) {
    const Count px = Count(s.width >> l) * (s.height >> l);
    levels.push_back(Term::product({Factor::of(dims[l], "channels"), Factor::of(px, "pixels"),
                                    Factor::of(Count(4) * frames + 6, "frame copies (input, SiLU, cat, pad, cache clone)"),
                                    Factor::bytes(s.elem)})
                         .named("resblock causal conv"));
    cached += (Count(dims[l]) + (Count(2) * c.layers_per_block - 1) * dims[l + 1]) * px;
    const std::size_t up = n - 2 - std::min<std::size_t>(l, n - 2);
    if (l + 1 < n && up < c.temporal_upsample.size() && c.temporal_upsample[up]) {
      cached += Count(dims[l + 1]) * (px / 4);  // the downsample's time conv
      frames = std::max<std::int64_t>(1, frames / 2);
    }
  }
  const Count low = Count(s.width >> (n - 1)) * (s.height >> (n - 1));
  cached += Count(5) * dims.back() * low;  // the middle block's four convs and the head conv
  caches = Term::product({Factor::of(2, "cached frames"), Factor::of(cached, "cached elements per frame"),
                          Factor::bytes(s.elem)})
               .named("causal conv caches");
  return Term::max_of(std::move(levels)).named("largest encoder level");
}

}  // namespace

Term vae_encode_peak(const Component& vae, const DecodeShape& s) {
  Term caches;
  Term level = encoder_levels_and_caches(vae, s, caches);
  Term input = Term::product({Factor::of(3, "RGB"), Factor::of(s.frames, "frames"),
                              Factor::of(Count(s.width) * s.height, "pixels"), Factor::bytes(s.elem)})
                   .named("input video");
  return Term::sum(terms(std::move(level), std::move(caches), std::move(input)))
      .cite("Wan2.1 @9737cba9 wan/image2video.py (first frame + zeros encoded as one video) and wan/modules/vae.py "
            "WanVAE_.encode (1 frame, then 4 per call; CACHE_T = 2 frames cached per causal conv)");
}

namespace {

/// The decoders whose peak is not the largest level beside the output: each has its own.
bool own_decode_peak(const Component& vae) {
  switch (vae.kind) {
    case ComponentKind::vae_cogvideox:
    case ComponentKind::vae_ltx:
    case ComponentKind::vae_hunyuan:
    case ComponentKind::vae_hunyuan15:
    case ComponentKind::vae_stepvideo:
    case ComponentKind::vae_mochi:
    case ComponentKind::vae_allegro: return true;
    default: return false;
  }
}

Term own_peak(const Component& vae, const DecodeShape& s) {
  if (vae.kind == ComponentKind::vae_cogvideox) return cogvideox_decode_peak(vae, s);
  if (vae.kind == ComponentKind::vae_ltx) return ltx_decode_peak(vae, s);
  if (vae.kind == ComponentKind::vae_hunyuan) return hunyuan_decode_peak(vae, s);
  if (vae.kind == ComponentKind::vae_hunyuan15) return hunyuan15_decode_peak(vae, s);
  if (vae.kind == ComponentKind::vae_stepvideo) return stepvideo_decode_peak(vae, s);
  if (vae.kind == ComponentKind::vae_mochi) return mochi_decode_peak(vae, s);
  return allegro_decode_peak(vae, s);
}

/// The 2D, causal 3D and DC-AE decodes: the largest of `levels` beside the output (and caches or tiles).
Term peak_of_levels(const Component& vae, const DecodeShape& s, Terms levels) {
  Term level = Term::max_of(std::move(levels)).named("largest decoder level");
  if (vae.kind == ComponentKind::vae_dc) {
    if (tiled_by(vae, s, kTileDc))
      return Term::sum(terms(std::move(level), decoded_output(s, true), decoded_tiles(vae, s, kTileDc)))
          .cite(kDcTiledSource);
    return Term::sum(terms(std::move(level), decoded_output(s, s.samples_at_once < s.samples))).cite(kDcSource);
  }
  if (vae.kind == ComponentKind::vae_3d) {
    const bool single = single_latent_frame(s);
    if (tiled_by(vae, s, kTile3d))
      return Term::sum(terms(std::move(level), causal_caches(vae, s), decoded_output(s, true), decoded_tiles(vae, s, kTile3d)))
          .cite(kDecoder3dTiledSource);
    return Term::sum(terms(std::move(level), causal_caches(vae, s), decoded_output(s, !single)))
        .cite(single ? kDecoder3dFirstCallSource : kDecoder3dSource);
  }
  return Term::sum(terms(std::move(level), decoded_output(s, s.tiling || s.samples_at_once < s.samples)))
      .cite(kDecoder2dSource);
}

/// The levels run in order; those after the peak level take its freed blocks, those before it leave
/// blocks too small for its requests cached.
Term cache_of_levels(const Terms& levels) {
  std::size_t peak = 0;
  for (std::size_t i = 1; i < levels.size(); ++i)
    if (levels[i].bytes > levels[peak].bytes) peak = i;
  Bytes second, others;
  for (std::size_t i = 0; i < peak; ++i) {
    second = std::max(second, levels[i].bytes);
    others += levels[i].bytes;
  }
  return Term::given(second)
      .named("cached blocks of the largest decoder level before the peak")
      .noted("freed blocks smaller than the peak level's requests are not reused for them; the levels after it reuse its blocks")
      .cite("PyTorch 2.5 CUDACachingAllocator: a request takes a free cached block at least its size and freed blocks "
            "stay reserved; range: none of them kept to all the levels before the peak kept")
      .within({Bytes{}, others});
}

}  // namespace

Term vae_decode_peak(const Component& vae, const DecodeShape& s) {
  return own_decode_peak(vae) ? own_peak(vae, s) : peak_of_levels(vae, s, levels_of(vae, s));
}

Term vae_decode_cache(const Component& vae, const DecodeShape& s) { return cache_of_levels(levels_of(vae, s)); }

DecodeTerms vae_decode(const Component& vae, const DecodeShape& s) {
  Terms levels = levels_of(vae, s);
  Term cache = cache_of_levels(levels);
  Term peak = own_decode_peak(vae) ? own_peak(vae, s) : peak_of_levels(vae, s, std::move(levels));
  return {std::move(peak), std::move(cache)};
}

}  // namespace vram::generation
