// Budget categories of HunyuanVideo-1.5: the transformer's working set (its
// dual-stream blocks over video tokens and the padded text, image and glyph
// tokens, with the boolean attention mask over the joint sequence), and the VAE
// decode of every latent frame in one call (or per 256-pixel tile).
#include <algorithm>
#include <utility>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kHy15BlockSource =
    "diffusers @58eb52c transformer_hunyuan_video15.py HunyuanVideo15TransformerBlock.forward (video and text "
    "streams apart, each with its AdaLayerNormZero output held through the attention; GELU feed-forwards) and "
    "HunyuanVideo15AttnProcessor2_0 (RoPE on the video q and k via embeddings.py apply_rotary_emb in fp32, "
    "torch.cat of the video and text q, k, v; the [B, 1, S, S] bool mask built by repeat and combined with its "
    "transpose by &, passed to SDPA); HunyuanVideo15RotaryPosEmbed (cos and sin [video tokens, head_dim] in fp32)";

constexpr std::string_view kHy15SdpaMaskSource =
    "PyTorch @bc8cb280 aten/src/ATen/native/transformers/attention.cpp scaled_dot_product_attention: "
    "convert_boolean_attn_mask makes an additive mask of the query dtype from a bool one, and for the "
    "memory-efficient kernel pad_bias copies a mask whose last dimension is not a multiple of 16 into a padded one";

/// The mask SDPA hands the memory-efficient kernel: `elem` bytes per query and key, and a padded copy when
/// the keys are not a multiple of 16.
Term hy15_sdpa_mask_copies(Count samples, Count seq, std::int64_t elem) {
  Term additive = Term::product({Factor::of(samples, "samples"), Factor::of(seq, "queries"), Factor::of(seq, "keys"),
                                 Factor::bytes(elem, "additive mask")})
                      .named("additive mask");
  if (static_cast<std::int64_t>(seq) % 16 == 0) return std::move(additive).cite(kHy15SdpaMaskSource);
  Term padded = Term::product({Factor::of(samples, "samples"), Factor::of(seq, "queries"),
                               Factor::of((Count(seq) + 15) / 16 * 16, "keys padded to 16"), Factor::bytes(elem)})
                    .named("padded copy");
  return Term::sum(terms(std::move(additive), std::move(padded))).named("SDPA masks").cite(kHy15SdpaMaskSource);
}

/// The SDPA call: both streams' residual and normed input, the joint q, k, v
/// and the text ones they were joined from, the output; the masks over S².
Term hy15_attention_moment(const Component& d, const DenoiseShape& s, Count joint, Count text) {
  const Count h = d.config.hidden, seq = Count(s.tokens) + s.text_tokens;
  Term held = Term::product({Factor::of(Count(6) * joint + Count(3) * text, "elements/hidden (residual, norm, joint q, k, v, "
                                                                            "output per joint token; text q, k, v)"),
                             Factor::of(h, "hidden"), Factor::bytes(s.elem)})
                  .named("activations through the attention");
  Term masks = Term::product({Factor::of(s.batch, "samples"), Factor::of(seq, "queries"), Factor::of(seq, "keys"),
                              Factor::bytes(2, "repeat and & bool masks")})
                   .named("bool masks");
  return Term::sum(terms(std::move(held), std::move(masks), hy15_sdpa_mask_copies(s.batch, seq, s.elem)))
      .named("joint attention");
}

/// RoPE on the video keys: residual and norm of both streams, the video q, k,
/// v, the rotated copy and the fp32 products.
Term hy15_rope_moment(const Component& d, const DenoiseShape& s, Count joint, Count video) {
  const Count h = d.config.hidden;
  Term held = Term::product({Factor::of(Count(2) * joint + Count(3) * video, "elements/hidden (residual and norm per "
                                                                              "joint token; video q, k, v)"),
                             Factor::of(h, "hidden"), Factor::bytes(s.elem)})
                  .named("held through RoPE");
  Term rope = Term::product({Factor::of(video, "video tokens"), Factor::of(h, "hidden"),
                             Factor::bytes(s.elem + 12, "rotated copy + fp32 products ×2 and sum")})
                  .named("RoPE temporaries");
  return Term::sum(terms(std::move(held), std::move(rope))).named("RoPE on keys");
}

/// The video stream's feed-forward: residual and norm of both streams, the
/// GELU input and output and the block's output.
Term hy15_ffn_moment(const Component& d, const DenoiseShape& s, Count joint, Count video) {
  return Term::product({Factor::of(Count(2) * joint * d.config.hidden +
                                       video * (Count(2) * d.config.ffn + d.config.hidden),
                                   "elements (residual and norm per joint hidden; GELU in and out per video ffn, "
                                   "output per video hidden)"),
                        Factor::bytes(s.elem)})
      .named("video feed-forward");
}

}  // namespace

Term hunyuan15_working_set(const Component& d, const DenoiseShape& s) {
  const Count video = Count(s.tokens) * s.batch, text = Count(s.text_tokens) * s.batch, joint = video + text;
  Term block = Term::max_of(terms(hy15_attention_moment(d, s, joint, text), hy15_rope_moment(d, s, joint, video),
                                  hy15_ffn_moment(d, s, joint, video)))
                   .named("largest block phase");
  Term tables = Term::product({Factor::of(s.tokens, "video tokens"), Factor::of(d.config.head_dim, "head_dim"),
                               Factor::of(2, "cos, sin"), Factor::bytes(4, "fp32")})
                    .named("RoPE cos/sin tables");
  return Term::sum(terms(std::move(block), std::move(tables))).cite(kHy15BlockSource);
}

namespace {

constexpr std::string_view kHy15DecoderSource =
    "diffusers @58eb52c autoencoder_kl_hunyuanvideo15.py AutoencoderKLHunyuanVideo15._decode (every latent frame in "
    "one decoder call; use_tiling: tiled_decode over 16-latent tiles every 12, each over all frames, every decoded "
    "tile held until blended and joined by torch.cat), HunyuanVideo15Decoder3D, HunyuanVideo15RMS_norm "
    "(F.normalize of x.float(): two fp32 copies), HunyuanVideo15CausalConv3d (F.pad replicate: 2 frames in front), "
    "HunyuanVideo15AttnBlock (prepare_causal_attention_mask: a [tokens, tokens] mask in the dtype over every latent "
    "of the call), HunyuanVideo15Upsample (conv to 8 or 4 × the next width, rearranged; the shortcut by "
    "repeat_interleave; torch.cat of the first frame and the rest)";

struct Hy15Stage {
  enum Kind : std::uint8_t { resnet, attention, upsampler, head } kind = resnet;
  Count c_in = 0, c_out = 0, frames = 0, pixels = 0;
  bool time = false;  ///< upsampler: doubles the frames after the first
};

/// The decoder's stages for one call of `f` latent frames over `h` × `w` latents.
std::vector<Hy15Stage> hy15_stages(const ComponentConfig& c, Count h, Count w, Count f) {
  const std::vector<std::int64_t> ch(c.block_channels.rbegin(), c.block_channels.rend());
  std::size_t sp = 0, tp = 0;
  for (std::int64_t v = c.spatial; v > 1; v /= 2) ++sp;
  for (std::int64_t v = c.temporal; v > 1; v /= 2) ++tp;
  Count px = h * w, in = ch[0];
  std::vector<Hy15Stage> st{{Hy15Stage::resnet, in, in, f, px}, {Hy15Stage::attention, in, in, f, px}};
  for (std::size_t i = 0; i < ch.size(); ++i) {
    st.push_back({Hy15Stage::resnet, in, ch[i], f, px});
    in = ch[i];
    if (i >= sp && i >= tp) continue;
    st.push_back({Hy15Stage::upsampler, in, ch[i + 1], f, px, i < tp});
    in = ch[i + 1];
    f = i < tp ? 2 * f - 1 : f;
    px = px * 4;
  }
  st.push_back({Hy15Stage::head, in, c.out_channels, f, px});
  return st;
}

Term hy15_term(const DecodeShape& s, Count elems, std::int64_t bytes, std::string_view what, std::string_view label) {
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(elems, what), Factor::bytes(bytes)})
      .named(label);
}

/// A resnet: its RMS norms (the input and two fp32 copies), and its causal
/// convs (input kept for the residual, SiLU output, padded copy, output).
Term hy15_resnet_peak(const Hy15Stage& v, const DecodeShape& s) {
  const Count px = v.pixels, f = v.frames, in = Count(v.c_in) * f * px, out = Count(v.c_out) * f * px;
  const std::int64_t e = s.elem;
  Term norm1 = hy15_term(s, in, e + 8, "elements (input, fp32 copy, fp32 normalized)", "norm1");
  Term conv1 = hy15_term(s, Count(v.c_in) * px * (Count(2) * f + f + 2) + out, e,
                         "elements (input, SiLU, padded copy, output)", "conv1");
  Term norm2 = Term::sum(terms(hy15_term(s, in, e, "elements", "input"),
                               hy15_term(s, out, e + 8, "elements (conv1 output, fp32 copy, fp32 normalized)", "norm2")));
  Term conv2 = hy15_term(s, in + Count(v.c_out) * px * (f + f + 2) + out, e,
                         "elements (input, SiLU, padded copy, output)", "conv2");
  return Term::max_of(terms(std::move(norm1), std::move(conv1), std::move(norm2), std::move(conv2))).named("resnet");
}

/// The mid block's attention: the causal mask in the dtype over every latent
/// of the call (and SDPA's padded copy of it) beside the input, its norm, q, k, v and the output.
Term hy15_attention_peak(const Hy15Stage& v, const DecodeShape& s) {
  const Count tokens = Count(v.frames) * v.pixels;
  Term mask = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(tokens, "queries"),
                             Factor::of(tokens, "keys"), Factor::bytes(s.elem, "mask in the dtype")})
                  .named("causal mask");
  Term padded = static_cast<std::int64_t>(tokens) % 16 == 0 ? Term::given(Bytes{})
                                        : Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(tokens, "queries"),
                                                         Factor::of((tokens + 15) / 16 * 16, "keys padded to 16"),
                                                         Factor::bytes(s.elem)})
                                              .named("SDPA's padded copy")
                                              .cite(kHy15SdpaMaskSource);
  return Term::sum(terms(std::move(mask), std::move(padded),
                         hy15_term(s, tokens * v.c_in * 6, s.elem, "elements (input, norm, q, k, v, output)", "attention")))
      .named("mid attention");
}

/// An upsampler: its conv (input, padded copy, output), then the rearranged
/// output, shortcut copies and the sum (5 output-sized tensors with time, else 3).
Term hy15_upsampler_peak(const Hy15Stage& v, const DecodeShape& s) {
  const Count px = v.pixels, f = v.frames, in = Count(v.c_in) * f * px;
  const Count out = Count(v.c_out) * (v.time ? 2 * f - 1 : f) * px * 4;
  Term conv = hy15_term(s, in + Count(v.c_in) * (f + 2) * px + out, s.elem, "elements (input, padded copy, conv output)",
                        "conv");
  Term joined = hy15_term(s, in + (v.time ? 5 : 3) * out, s.elem,
                          "elements (input; rearranged output, shortcut copies, sum)", "rearranged and summed");
  return Term::max_of(terms(std::move(conv), std::move(joined))).named("upsampler");
}

Term hy15_stage_peak(const Hy15Stage& v, const DecodeShape& s) {
  switch (v.kind) {
    case Hy15Stage::resnet: return hy15_resnet_peak(v, s);
    case Hy15Stage::attention: return hy15_attention_peak(v, s);
    case Hy15Stage::upsampler: return hy15_upsampler_peak(v, s);
    case Hy15Stage::head: break;
  }
  // norm_out (input and two fp32 copies), then SiLU, padded copy and the RGB output beside the input.
  const Count in = Count(v.c_in) * v.frames * v.pixels;
  return Term::max_of(terms(hy15_term(s, in, s.elem + 8, "elements (input, fp32 copy, fp32 normalized)", "norm_out"),
                            hy15_term(s, in * 2 + Count(v.c_in) * (v.frames + 2) * v.pixels +
                                             Count(v.c_out) * v.frames * v.pixels,
                                      s.elem, "elements (input, SiLU, padded copy, output)", "conv_out")))
      .named("output head");
}

/// Latents one call covers: all of them, or with tiling a 256-pixel tile.
std::pair<Count, Count> hy15_call_area(const Component& vae, const DecodeShape& s) {
  return decode_call_area(s, 256 / vae.config.spatial, 256 / vae.config.spatial);
}

}  // namespace

Terms hunyuan15_decode_levels(const Component& vae, const DecodeShape& s) {
  const auto [h, w] = hy15_call_area(vae, s);
  Terms out;
  for (const Hy15Stage& v : hy15_stages(vae.config, h, w, s.latent.latent_frames)) out.push_back(hy15_stage_peak(v, s));
  return out;
}

Term hunyuan15_decode_peak(const Component& vae, const DecodeShape& s) {
  Term call = Term::max_of(hunyuan15_decode_levels(vae, s)).named("largest decoder stage");
  const auto [h, w] = hy15_call_area(vae, s);
  if (h == s.latent.latent_height && w == s.latent.latent_width) return std::move(call).cite(kHy15DecoderSource);
  // tiled_decode holds every decoded tile (256-pixel tiles every 192 pixels), then the joined video.
  const Count tile = 256 / vae.config.spatial, stride = 192 / vae.config.spatial;
  Term tiles = held_tiles(vae, s, s.samples_at_once, s.frames, {tile, tile}, {stride, stride});
  return Term::sum(terms(std::move(call), std::move(tiles))).cite(kHy15DecoderSource);
}

}  // namespace vram::generation
