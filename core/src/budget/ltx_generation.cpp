// Budget categories of LTX-Video: the denoiser's working set (self-attention
// with RoPE over the video tokens, cross-attention to the T5 tokens) and the
// VAE decode (the whole latent at once through a non-causal decoder).
#include <algorithm>
#include <utility>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kLtxBlockSource =
    "diffusers v0.35.0 transformer_ltx.py LTXVideoTransformerBlock.forward (residual, modulated norm held through "
    "attn1; attn2 cross-attends the T5 tokens; GELU feed-forward), LTXVideoAttnProcessor (to_q/to_k/to_v, q/k "
    "RMSNorm, apply_rotary_emb: x.float() * cos + x_rotated.float() * sin) and LTXVideoRotaryPosEmbed (cos and sin "
    "[batch, tokens, dim] in fp32, built once per forward)";

/// The moment RoPE rotates the keys: residual, modulated norm, rotated q, k,
/// v, the rotated copy, and the fp32 products and their sum.
Term ltx_rope_moment(const Component& d, const DenoiseShape& s, Count t) {
  return Term::product({Factor::of(t, "video tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::bytes(Count(6) * s.elem + 12,
                                      "residual, norm, q, k, v, rotated copy + fp32 products ×2 and sum")})
      .named("RoPE on keys");
}

Term ltx_attention_out(const Component& d, const DenoiseShape& s, Count t) {
  return Term::product({Factor::of(t, "video tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::of(7, "residual, norm, q, k, v, SDPA out, to_out"), Factor::bytes(s.elem)})
      .named("attention output");
}

Term ltx_ffn(const Component& d, const DenoiseShape& s, Count t) {
  return Term::product({Factor::of(t, "video tokens"),
                        Factor::of(Count(2) * d.config.hidden + Count(2) * d.config.ffn,
                                   "elements/token (residual and modulated norm per hidden; GELU input and output per ffn)"),
                        Factor::bytes(s.elem)})
      .named("feed-forward");
}

Term ltx_rope_tables(const Component& d, Count t) {
  return Term::product({Factor::of(t, "video tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::of(2, "cos, sin"), Factor::bytes(4, "fp32")})
      .named("RoPE cos/sin tables");
}

}  // namespace

Term ltx_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = Count(s.tokens) * s.batch;
  Term block = Term::max_of(terms(ltx_rope_moment(d, s, t), ltx_attention_out(d, s, t), ltx_ffn(d, s, t)))
                   .named("largest block phase");
  return Term::sum(terms(std::move(block), ltx_rope_tables(d, t))).cite(kLtxBlockSource);
}

namespace {

constexpr std::string_view kLtxDecoderSource =
    "diffusers v0.35.0 autoencoder_kl_ltx.py LTXVideoDecoder3d.forward (every latent frame in one call; up blocks "
    "double frames (dropping the first) and pixels), LTXVideoResnetBlock3d (input kept for the residual; "
    "normalization.py RMSNorm: fp32 copy and its square live with the input), LTXVideoCausalConv3d (frames padded "
    "by torch.concatenate), LTXVideoUpsampler3d (conv to 8 × width, permuted copy), the output unpatchified by a "
    "permuted copy";

/// One stage of the decoder for one call: a resnet, an upsampler or the head.
struct LtxStage {
  enum Kind : std::uint8_t { resnet, upsampler, head } kind = resnet;
  Count c_in = 0, c_out = 0, frames = 0, pixels = 0;
};

/// The decoder's stages over `f` latent frames of `h` × `w` latents, low to high resolution.
std::vector<LtxStage> ltx_stages(const Component& vae, Count h, Count w, Count f) {
  const ComponentConfig& c = vae.config;
  const std::size_t n = c.decoder_channels.size();
  Count px = h * w, out = c.decoder_channels[n - 1];
  std::vector<LtxStage> st{{LtxStage::resnet, out, out, f, px}};  // the mid block
  for (std::size_t i = 0; i < n; ++i) {
    const Count in = out;
    out = c.decoder_channels[n - 1 - i];
    if (in != out) st.push_back({LtxStage::resnet, in, out, f, px});
    if (c.decoder_scaling[n - 1 - i]) {
      st.push_back({LtxStage::upsampler, out, Count(8) * out, f, px});
      f = 2 * f - 1;  // stride 2 in time, the first frame dropped
      px = px * 4;
    }
    if (c.decoder_layers[n - 1 - i] > 0) st.push_back({LtxStage::resnet, out, out, f, px});
  }
  const Count rgb = Count(c.out_channels) * c.vae_patch * c.vae_patch;
  st.push_back({LtxStage::head, out, rgb, f, px});
  return st;
}

Term stage_term(const LtxStage& v, const DecodeShape& s, Count elems_per_pixel, std::string_view what,
                std::string_view label) {
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(v.pixels, "pixels"),
                        Factor::of(elems_per_pixel, what), Factor::bytes(s.elem)})
      .named(label);
}

/// A resnet's largest moment: its first or second RMSNorm (fp32 copy and
/// square: 8 B per element beside the bf16 tensors), a conv (input, SiLU,
/// padded copy, output), or the shortcut (LayerNorm and 1×1×1 conv outputs).
Term ltx_resnet_peak(const LtxStage& v, const DecodeShape& s) {
  const Count n_in = Count(v.c_in) * v.frames, n_out = Count(v.c_out) * v.frames;
  const Count e = s.elem;
  Term norm = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(v.pixels, "pixels"),
                             Factor::of(Count(e) * n_in + std::max<Count>(Count(8) * n_in, (e + 8) * n_out),
                                        "B per pixel (input; fp32 copy and square of the norm's input or the conv1 output)")})
                  .named("RMSNorm");
  Term conv = stage_term(v, s, Count(2) * n_in + Count(v.c_in) * (v.frames + 2) + n_out,
                         "channel-frames (input, SiLU, padded copy, output)", "conv");
  if (v.c_in == v.c_out) return Term::max_of(terms(std::move(norm), std::move(conv))).named("resnet");
  Term shortcut = stage_term(v, s, Count(2) * n_in + Count(2) * n_out, "channel-frames (input, LayerNorm, shortcut, "
                                                                       "residual)", "shortcut");
  return Term::max_of(terms(std::move(norm), std::move(conv), std::move(shortcut))).named("resnet");
}

Term ltx_stage_peak(const LtxStage& v, const DecodeShape& s) {
  switch (v.kind) {
    case LtxStage::resnet: return ltx_resnet_peak(v, s);
    case LtxStage::upsampler:
      return stage_term(v, s, Count(v.c_in) * v.frames + Count(2) * v.c_out * v.frames,
                        "channel-frames (input, conv output, permuted copy)", "upsampler");
    case LtxStage::head: break;
  }
  return stage_term(v, s, Count(v.c_in) * v.frames + Count(v.c_in) * (v.frames + 2) + Count(2) * v.c_out * v.frames,
                    "channel-frames (SiLU, padded copy, conv_out, unpatchified copy)", "conv_out and unpatchify");
}

/// The latent area one decoder call covers: all of it, or with tiling one
/// tile of tile_sample_min 512 pixels (diffusers' default) a side.
std::pair<Count, Count> ltx_call_area(const Component& vae, const DecodeShape& s) {
  const Count tile = 512 / vae.config.spatial;
  return decode_call_area(s, tile, tile);
}

Term ltx_tiles(const Component& vae, const DecodeShape& s) {
  const Count tile = 512 / vae.config.spatial, stride = 448 / vae.config.spatial;
  Term tiles = held_tiles(vae, s, s.samples, s.frames, {tile, tile}, {stride, stride});
  Term joined = Term::product({Factor::of(2, "copies (rows, then the video: torch.cat)"), Factor::of(s.samples, "samples"),
                               Factor::of(3, "RGB"), Factor::of(s.frames, "frames"),
                               Factor::of(Count(s.width) * s.height, "pixels"), Factor::bytes(s.elem)})
                    .named("joined output");
  return Term::sum(terms(std::move(tiles), std::move(joined)));
}

}  // namespace

Terms ltx_decode_levels(const Component& vae, const DecodeShape& s) {
  const auto [h, w] = ltx_call_area(vae, s);
  Terms out;
  for (const LtxStage& v : ltx_stages(vae, h, w, s.latent.latent_frames)) out.push_back(ltx_stage_peak(v, s));
  return out;
}

Term ltx_decode_peak(const Component& vae, const DecodeShape& s) {
  Term level = Term::max_of(ltx_decode_levels(vae, s)).named("largest decoder stage");
  const auto area = ltx_call_area(vae, s);
  if (!s.tiling || (area.first == s.latent.latent_height && area.second == s.latent.latent_width))
    return std::move(level).cite(kLtxDecoderSource);
  return Term::sum(terms(std::move(level), ltx_tiles(vae, s)))
      .cite("diffusers v0.35.0 autoencoder_kl_ltx.py tiled_decode (tiles of 512 pixels every 448, each decoded like "
            "LTXVideoDecoder3d.forward over every frame; all tiles held until blended, rows and the video joined by "
            "torch.cat)");
}

}  // namespace vram::generation
