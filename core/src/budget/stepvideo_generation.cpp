// Budget categories of Step-Video-T2V: the transformer's working set (adaLN-single
// blocks over every video token: 3D-RoPE self-attention, cross-attention to the
// caption tokens through SDPA with a bool mask repeated per head, the GELU
// feed-forward), and the Video-VAE decode, one 3-latent-frame chunk per decoder
// call with every decoded chunk held until they are joined.
#include <utility>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kStepBlockSource =
    "github stepfun-ai/Step-Video-T2V @675e08c0dd08aaf60b4da1a2ce57e9bd0d8af31c stepvideo/modules/model.py "
    "StepVideoModel.forward (prepare_attn_mask: a [B, video tokens, caption tokens] bool mask held through the blocks; "
    "the patchified hidden states held by forward while block_forward runs) and stepvideo/modules/blocks.py "
    "StepVideoTransformerBlock.forward (the block input, q, the modulated input and each attention's output held "
    "through the block), SelfAttention (fused wqkv; RMSNorm on q and k in fp32 via normalization.py; RoPE3D over "
    "the 64 + 32 + 32 channel splits joined by torch.cat), CrossAttention and attentions.py torch_attn_func (the "
    "mask unsqueezed and repeated over the heads, passed to SDPA), FeedForward (tanh GELU to 4 × dim, not in place)";

constexpr std::string_view kStepSdpaMaskSource =
    "PyTorch @bc8cb280 aten/src/ATen/native/transformers/attention.cpp scaled_dot_product_attention: "
    "convert_boolean_attn_mask makes an additive mask of the query dtype from a bool one, and for the "
    "memory-efficient kernel pad_bias copies a mask whose last dimension is not a multiple of 16 into a padded one";

/// Video tokens per forward on this GPU (all samples of the CFG batch).
Count sv_tokens(const DenoiseShape& s) {
  return Count(s.tokens) * s.batch;
}

/// Elements per video token × hidden width, in the compute dtype.
Term sv_hidden(const Component& d, const DenoiseShape& s, Count tokens, Count per_hidden, std::string_view what,
               std::string_view label) {
  return Term::product({Factor::of(tokens, "video tokens"), Factor::of(per_hidden, what),
                        Factor::of(d.config.hidden, "hidden"), Factor::bytes(s.elem)})
      .named(label);
}

}  // namespace

/// What StepVideoModel.forward holds while the blocks run: the patchified video hidden states and the
/// [B, tokens, caption tokens] bool mask.
Term stepvideo_held(const Component& d, const DenoiseShape& s) {
  const Count all = Count(s.full_tokens) * s.batch;
  Term hidden = sv_hidden(d, s, all, 1, "copy", "patchified hidden states");
  Term mask = Term::product({Factor::of(all, "video tokens"), Factor::of(s.cross_tokens, "caption tokens"),
                             Factor::bytes(1, "bool")})
                  .named("caption mask");
  return Term::sum(terms(std::move(hidden), std::move(mask))).named("held by forward").cite(kStepBlockSource);
}

/// Self-attention as RoPE joins the rotated k: the block input and modulated input, the fused q/k/v,
/// the rotated q, the normed k, the rotated pieces and their join.
Term stepvideo_self_attention(const Component& d, const DenoiseShape& s) {
  return sv_hidden(d, s, sv_tokens(s), 9,
                   "elements/hidden (block input, modulated input, q/k/v 3, rotated q, normed k, pieces, join)",
                   "self-attention")
      .cite(kStepBlockSource);
}

/// The cross-attention's SDPA call: block input, q, modulated input, the self-attention output, the normed
/// queries and the output; the mask repeated over the heads, SDPA's additive copy and its padded copy.
Term stepvideo_cross_attention(const Component& d, const DenoiseShape& s) {
  const Count t = sv_tokens(s), kv = s.cross_tokens, heads = d.config.heads;
  Term held = sv_hidden(d, s, t, 6,
                        "elements/hidden (block input, q, modulated input, self-attention output, "
                        "normed queries, output)",
                        "activations through the cross-attention");
  Term repeated = Term::product({Factor::of(t, "video tokens"), Factor::of(heads, "heads"), Factor::of(kv, "keys"),
                                 Factor::bytes(1, "bool")})
                      .named("mask repeated per head");
  Term additive = Term::product({Factor::of(t, "video tokens"), Factor::of(heads, "heads"), Factor::of(kv, "keys"),
                                 Factor::bytes(s.elem, "additive mask")})
                      .named("SDPA additive mask")
                      .cite(kStepSdpaMaskSource);
  Terms parts = terms(std::move(held), std::move(repeated), std::move(additive));
  if (s.cross_tokens % 16 != 0)
    parts.push_back(Term::product({Factor::of(t, "video tokens"), Factor::of(heads, "heads"),
                                   Factor::of((kv + 15) / 16 * 16, "keys padded to 16"), Factor::bytes(s.elem)})
                        .named("SDPA padded mask")
                        .cite(kStepSdpaMaskSource));
  return Term::sum(std::move(parts)).named("cross-attention").cite(kStepBlockSource);
}

/// The feed-forward at its GELU: block input, q, the cross-attention output, the modulated input, and the
/// projection to ffn and its GELU.
Term stepvideo_ffn(const Component& d, const DenoiseShape& s) {
  const Count t = sv_tokens(s);
  return Term::product({Factor::of(t, "video tokens"),
                        Factor::of(Count(4) * d.config.hidden + Count(2) * d.config.ffn,
                                   "elements (block input, q, cross output, modulated input per hidden; projection "
                                   "and GELU per ffn)"),
                        Factor::bytes(s.elem)})
      .named("feed-forward")
      .cite(kStepBlockSource);
}

Term stepvideo_working_set(const Component& d, const DenoiseShape& s) {
  Term block = Term::max_of(terms(stepvideo_self_attention(d, s), stepvideo_cross_attention(d, s), stepvideo_ffn(d, s)))
                   .named("largest block phase");
  return Term::sum(terms(stepvideo_held(d, s), std::move(block))).cite(kStepBlockSource);
}

namespace {

constexpr std::string_view kStepDecoderSource =
    "github stepfun-ai/Step-Video-T2V @675e08c0dd08aaf60b4da1a2ce57e9bd0d8af31c stepvideo/vae/vae.py (version 2, as "
    "api/call_remote_server.py builds it in bfloat16): AutoencoderKL.decode (z split into chunks of latent_len 3, "
    "one decoder call each, every decoded chunk kept in a list until torch.cat), VideoDecoder.forward (conv_in and "
    "ChannelDuplicatingPixelUnshuffleUpSampleLayer3D / ConvPixelShuffleUpSampleLayer3D: repeat_interleave, "
    "permute().contiguous(), the first frame dropped; the output cropped by temporal_downsample - 1 frames as a "
    "view), Resnet3DBlock (base_group_norm_with_zero_pad: a buffer two frames longer, F.group_norm of a "
    ".contiguous() copy, SiLU not in place), Upsample3D (interpolate of 8 channel slices joined by torch.cat, then "
    "Res3DBlockUpsample: a channel-last copy, conv1, GroupNorm and SiLU), Upsample2D (nearest interpolation, conv)";

struct SvStage {
  enum Kind : std::uint8_t { entry, resnet, temporal_up, spatial_up, output } kind = resnet;
  Count c_in = 0, c_out = 0, frames = 0, pixels = 0;
};

/// The decoder's stages for one call over `h` × `w` latents of chunk_latents frames.
std::vector<SvStage> sv_stages(const ComponentConfig& c, Count h, Count w) {
  const std::vector<std::int64_t> ch(c.decoder_channels.rbegin(), c.decoder_channels.rend());
  Count in = ch[0], f = Count(2) * c.chunk_latents - 1, px = Count(4) * h * w;
  std::vector<SvStage> st{{SvStage::entry, Count(32) * c.latent_channels, Count(8) * in, c.chunk_latents, h * w},
                          {SvStage::resnet, in, in, f, px}};
  for (std::size_t i = 0; i < ch.size(); ++i) {
    st.push_back({SvStage::resnet, in, ch[i], f, px});
    in = ch[i];
    st.push_back({SvStage::resnet, in, in, f, px});
    if (i + 1 == ch.size()) break;
    st.push_back({c.temporal_upsample[i] ? SvStage::temporal_up : SvStage::spatial_up, in, in, f, px});
    f = c.temporal_upsample[i] ? 2 * f : f;
    px = px * 4;
  }
  st.push_back({SvStage::output, in, c.out_channels, f, px});
  return st;
}

/// A resnet at its first GroupNorm (the input, the zero-padded buffer two frames longer, two of the
/// contiguous copy, GroupNorm output and SiLU), or at its second (the input, the shortcut when the width
/// changes, conv1's output, the second buffer and its two temporaries).
Term sv_resnet_peak(const SvStage& v, const DecodeShape& s) {
  const Count f = v.frames, px = v.pixels;
  Term first = decode_elements(s, v.c_in * px * (Count(4) * f + 2), "elements (input, padded buffer, 2 temporaries)",
                        "first GroupNorm");
  const Count shortcut = v.c_in != v.c_out ? v.c_out * f * px : Count(0);
  Term second = decode_elements(s, v.c_in * f * px + shortcut + v.c_out * px * (Count(4) * f + 2),
                         "elements (input, shortcut, conv1 output, padded buffer, 2 temporaries)", "second GroupNorm");
  return Term::max_of(terms(std::move(first), std::move(second))).named("resnet");
}

Term sv_stage_peak(const SvStage& v, const DecodeShape& s) {
  const Count cfp = v.c_in * v.frames * v.pixels;
  switch (v.kind) {
    case SvStage::entry:
      return decode_elements(s, Count(4) * v.c_out * v.frames * v.pixels,
                      "elements (repeated shortcut, its reordered copy, conv output, its shuffled copy)",
                      "latent entry");
    case SvStage::resnet: return sv_resnet_peak(v, s);
    case SvStage::temporal_up:
      return decode_elements(s, Count(41) * cfp,
                      "elements/input element (input; at 2× frames and 4× pixels: the joined "
                      "slices, their channel-last copy, conv1 output, GroupNorm copy and output)",
                      "Upsample3D");
    case SvStage::spatial_up:
      return decode_elements(s, Count(9) * cfp, "elements/input element (input; interpolated 4× and conv output 4×)",
                      "Upsample2D");
    case SvStage::output: break;
  }
  return decode_elements(s, v.c_in * v.pixels * (Count(4) * v.frames + 2), "elements (input, padded buffer, 2 temporaries)",
                  "output GroupNorm");
}

/// `chunks` decoded chunks: RGB over the uncropped frames of each call at full size.
Term sv_chunks(const DecodeShape& s, Count chunks, const SvStage& out, std::string_view label) {
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(chunks, "chunks"), Factor::of(3, "RGB"),
                        Factor::of(out.frames, "frames per call (the crop is a view)"),
                        Factor::of(out.pixels, "pixels"), Factor::bytes(s.elem)})
      .named(label);
}

}  // namespace

Terms stepvideo_decode_levels(const Component& vae, const DecodeShape& s) {
  Terms out;
  for (const SvStage& v : sv_stages(vae.config, s.latent.latent_height, s.latent.latent_width))
    out.push_back(sv_stage_peak(v, s));
  return out;
}

Term stepvideo_decode_peak(const Component& vae, const DecodeShape& s) {
  const ComponentConfig& c = vae.config;
  const SvStage last = sv_stages(c, s.latent.latent_height, s.latent.latent_width).back();
  const Count chunks = Count(s.latent.latent_frames) / c.chunk_latents;
  Term during =
      Term::sum(terms(Term::max_of(stepvideo_decode_levels(vae, s)).named("largest decoder stage (one chunk)"),
                      sv_chunks(s, chunks - 1, last, "earlier chunks held")))
          .named("decoding the last chunk");
  Term joined = Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(3, "RGB"),
                               Factor::of(chunks * c.chunk_frames, "frames"), Factor::of(last.pixels, "pixels"),
                               Factor::bytes(s.elem)})
                    .named("joined video (torch.cat)");
  Term after = Term::sum(terms(sv_chunks(s, chunks, last, "every chunk"), std::move(joined))).named("joining");
  return Term::max_of(terms(std::move(during), std::move(after))).cite(kStepDecoderSource);
}

}  // namespace vram::generation
