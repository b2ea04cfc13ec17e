// Budget categories of Mochi: the asymmetric transformer block's working set
// over the video tokens, and the VAE decode of the whole latent at once.
#include <algorithm>
#include <utility>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kMochiBlockSource =
    "diffusers v0.35.0 transformer_mochi.py MochiTransformerBlock.forward (residual and MochiRMSNormZero output "
    "held through the attention; the SwiGLU feed-forward over the video tokens), attention_processor.py "
    "MochiAttnProcessor2_0 (RoPE on the even and odd halves of q and k in fp32; per sample, its q, k, v joined with "
    "the valid text tokens by torch.cat, SDPA, the output padded back and kept until all samples are joined) and "
    "MochiRoPE (cos and sin [tokens, heads, head_dim / 2] in fp32)";

Term mochi_ffn(const Component& d, const DenoiseShape& s, Count t) {
  return Term::product({Factor::of(t, "video tokens"),
                        Factor::of(Count(2) * d.config.hidden + Count(4) * d.config.ffn,
                                   "elements/token (residual and norm per hidden; SwiGLU projection 2, SiLU and product "
                                   "per ffn)"),
                        Factor::bytes(s.elem)})
      .named("SwiGLU feed-forward");
}

Term mochi_rope(const Component& d, const DenoiseShape& s, Count t) {
  return Term::product({Factor::of(t, "video tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::bytes(Count(5) * s.elem + 12, "residual, norm, q, k, v + fp32 halves and products")})
      .named("RoPE on keys");
}

/// The per-sample attention: the batch's residual, norm, q, k, v; one sample's
/// joined q, k, v, its SDPA output and padded copy; the earlier samples' outputs.
Term mochi_attention(const Component& d, const DenoiseShape& s) {
  const Count copies = Count(6) * s.batch + 4;
  return Term::product({Factor::of(s.tokens, "video tokens per sample"), Factor::of(d.config.hidden, "hidden"),
                        Factor::of(copies, "copies (5 per sample of the batch; one sample's q, k, v, out, pad; the "
                                           "earlier samples' outputs)"),
                        Factor::bytes(s.elem)})
      .named("per-sample attention");
}

}  // namespace

Term mochi_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = Count(s.tokens) * s.batch;
  Term block = Term::max_of(terms(mochi_ffn(d, s, t), mochi_rope(d, s, t), mochi_attention(d, s)))
                   .named("largest block phase");
  Term tables = Term::product({Factor::of(s.tokens, "video tokens"), Factor::of(d.config.hidden, "hidden"),
                               Factor::bytes(4, "cos and sin of half the head dims, fp32")})
                    .named("RoPE cos/sin tables");
  return Term::sum(terms(std::move(block), std::move(tables))).cite(kMochiBlockSource);
}

namespace {

constexpr std::string_view kMochiDecoderSource =
    "diffusers v0.35.0 autoencoder_kl_mochi.py AutoencoderKLMochi._decode (the whole latent in one decoder call; the "
    "first temporal_compression_ratio - 1 frames dropped as a view), MochiResnetBlock3D (input kept for the residual), "
    "MochiChunkedGroupNorm3D (permuted copy, per-chunk norms joined by torch.cat), CogVideoXCausalConv3d (2 padded "
    "frames), MochiUpBlock3D (a Linear to out × t × s² channels, then a permuted .contiguous() copy)";

struct MochiStage {
  enum Kind : std::uint8_t { resnet, proj, head } kind = resnet;
  Count c_in = 0, c_out = 0, frames = 0, pixels = 0;
};

std::vector<MochiStage> mochi_stages(const Component& vae, Count h, Count w, Count f) {
  const ComponentConfig& c = vae.config;
  const auto& ch = c.decoder_channels;
  const std::size_t n = ch.size();
  Count px = h * w;
  std::vector<MochiStage> st{{MochiStage::resnet, ch[n - 1], ch[n - 1], f, px}};  // block_in
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Count in = ch[n - 1 - i], out = ch[n - 2 - i];
    const Count t = c.time_factors[n - 2 - i], s = c.space_factors[n - 2 - i];
    if (c.encoder_layers[n - 1 - i] > 0) st.push_back({MochiStage::resnet, in, in, f, px});
    st.push_back({MochiStage::proj, in, out * t * s * s, f, px});
    f = f * t;
    px = px * s * s;
  }
  st.push_back({MochiStage::resnet, ch[0], ch[0], f, px});  // block_out
  st.push_back({MochiStage::head, ch[0], c.out_channels, f, px});
  return st;
}

Term mochi_stage_peak(const MochiStage& v, const DecodeShape& s) {
  Count elems = 0;
  std::string_view what, label;
  switch (v.kind) {
    case MochiStage::resnet:
      elems = Count(v.c_in) * v.pixels * (Count(4) * v.frames + 2);
      what = "elements (input, SiLU, 2-frame padded copy, conv output)";
      label = "resnet";
      break;
    case MochiStage::proj:
      elems = Count(v.frames) * v.pixels * (Count(2) * v.c_in + Count(2) * v.c_out);
      what = "elements (input and its channels-last copy, Linear output and its unpatchified copy)";
      label = "upsampling projection";
      break;
    case MochiStage::head:
      elems = Count(v.frames) * v.pixels * (Count(3) * v.c_in + v.c_out);
      what = "elements (input, SiLU, channels-last copy, RGB output)";
      label = "proj_out";
      break;
  }
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(elems, what), Factor::bytes(s.elem)})
      .named(label);
}

std::pair<Count, Count> mochi_call_area(const Component& vae, const DecodeShape& s) {
  return decode_call_area(s, 256 / vae.config.spatial, 256 / vae.config.spatial);
}

}  // namespace

Terms mochi_decode_levels(const Component& vae, const DecodeShape& s) {
  const auto [h, w] = mochi_call_area(vae, s);
  Terms out;
  for (const MochiStage& v : mochi_stages(vae, h, w, s.latent.latent_frames)) out.push_back(mochi_stage_peak(v, s));
  return out;
}

Term mochi_decode_peak(const Component& vae, const DecodeShape& s) {
  Term level = Term::max_of(mochi_decode_levels(vae, s)).named("largest decoder stage");
  const auto [h, w] = mochi_call_area(vae, s);
  if (h == s.latent.latent_height && w == s.latent.latent_width) return std::move(level).cite(kMochiDecoderSource);
  const Count tile = 256 / vae.config.spatial, stride = 192 / vae.config.spatial;
  const Count frames = Count(s.latent.latent_frames) * vae.config.temporal;
  Term tiles = held_tiles(vae, s, s.samples_at_once, frames, {tile, tile}, {stride, stride});
  Term joined = Term::product({Factor::of(2, "copies (rows, then the video: torch.cat)"),
                               Factor::of(s.samples_at_once, "samples"), Factor::of(3, "RGB"),
                               Factor::of(frames, "decoded frames"), Factor::of(Count(s.width) * s.height, "pixels"),
                               Factor::bytes(s.elem)})
                    .named("joined output");
  return Term::sum(terms(std::move(level), std::move(tiles), std::move(joined)))
      .cite("diffusers v0.35.0 autoencoder_kl_mochi.py tiled_decode (256-pixel tiles every 192, each decoded over "
            "every frame; all tiles held until blended, rows and the video joined by torch.cat) and the decoder stages "
            "of _decode");
}

}  // namespace vram::generation
