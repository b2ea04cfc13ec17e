// Budget categories of HunyuanVideo: the transformer's working set (the
// single-stream blocks over video + text tokens), the language-model text
// encoder's forward, and the VAE decode in chunks of latent frames.
#include <algorithm>
#include <utility>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kHunyuanBlockSource =
    "diffusers v0.35.0 transformer_hunyuan_video.py HunyuanVideoSingleTransformerBlock.forward (video and text "
    "concatenated: the residual, the norm and the MLP branch held through the attention; torch.cat of the attention "
    "output with the MLP before proj_out) and HunyuanVideoAttnProcessor2_0 (RoPE on the video part of q and k: "
    "embeddings.py apply_rotary_emb, x.float() * cos + x_rotated.float() * sin, then torch.cat with the text part); "
    "HunyuanVideoRotaryPosEmbed (cos and sin [video tokens, head_dim] in fp32)";

/// The moment RoPE rotates the keys of a single-stream block: residual,
/// norm, q, k, v over the joint sequence and the MLP branch; the rotated copy
/// and the fp32 products over the video tokens.
Term hunyuan_rope_moment(const Component& d, const DenoiseShape& s, Count joint, Count video) {
  const Count h = d.config.hidden;
  Term held = Term::product({Factor::of(joint, "joint tokens"),
                             Factor::of(Count(5) * h + d.config.ffn,
                                        "elements/token (residual, norm, q, k, v per hidden; MLP branch per ffn)"),
                             Factor::bytes(s.elem)})
                  .named("held through the attention");
  Term rope = Term::product({Factor::of(video, "video tokens"), Factor::of(h, "hidden"),
                             Factor::bytes(s.elem + 12, "rotated copy + fp32 products ×2 and sum")})
                  .named("RoPE temporaries");
  return Term::sum(terms(std::move(held), std::move(rope))).named("RoPE on keys");
}

/// proj_out of a single-stream block: residual, norm, MLP branch, the joined
/// attention output and the SDPA output it views, the [attention, MLP] concat,
/// proj_out's output and its gated product.
Term hunyuan_output_moment(const Component& d, const DenoiseShape& s, Count joint) {
  return Term::product({Factor::of(joint, "joint tokens"),
                        Factor::of(Count(7) * d.config.hidden + Count(2) * d.config.ffn,
                                   "elements/token (residual, norm, attention ×2, concat, proj_out, gate: 7 per hidden; "
                                   "MLP branch and concat: 2 per ffn)"),
                        Factor::bytes(s.elem)})
      .named("proj_out over [attention, MLP]");
}

}  // namespace

Term hunyuan_working_set(const Component& d, const DenoiseShape& s) {
  const Count video = Count(s.tokens) * s.batch, joint = (Count(s.tokens) + s.text_tokens) * s.batch;
  Term block = Term::max_of(terms(hunyuan_rope_moment(d, s, joint, video), hunyuan_output_moment(d, s, joint)))
                   .named("largest block phase");
  Term tables = Term::product({Factor::of(s.tokens, "video tokens"), Factor::of(d.config.head_dim, "head_dim"),
                               Factor::of(2, "cos, sin"), Factor::bytes(4, "fp32")})
                    .named("RoPE cos/sin tables");
  return Term::sum(terms(std::move(block), std::move(tables))).cite(kHunyuanBlockSource);
}

Term llm_text_encoder_forward(const Component& c, std::int64_t prompts, std::int64_t elem) {
  const ComponentConfig& k = c.config;
  const Count t = Count(prompts) * encoder_positions(k);
  Terms parts;
  if (k.output_hidden_states)
    parts.push_back(Term::product({Factor::of(Count(k.layers) + 1, "hidden states (embeddings + every layer)"),
                                   Factor::of(t, "tokens"), Factor::of(k.hidden, "hidden"), Factor::bytes(elem)})
                        .named("hidden states kept (output_hidden_states)"));
  parts.push_back(Term::product({Factor::of(t, "tokens"),
                                 Factor::of(Count(elem) * (Count(4) * k.hidden + Count(3) * k.ffn),
                                            "B/token (residual, norm, attention: 4 per hidden; gate, up, product: 3 per ffn)")})
                      .named("decoder layer"));
  // A *ForConditionalGeneration model also runs its lm_head over every position (logits_to_keep 0).
  if (k.conditional_generation)
    parts.push_back(Term::product({Factor::of(t, "tokens"), Factor::of(k.vocab, "vocab"), Factor::bytes(elem)})
                        .named("logits of every position"));
  return Term::sum(std::move(parts))
      .cite("diffusers v0.35.0 pipeline_hunyuan_video.py _get_llama_prompt_embeds (text_encoder(..., "
            "output_hidden_states=True).hidden_states[-(num_hidden_layers_to_skip + 1)]: every layer's output is "
            "returned) over max_sequence_length + the template's crop_start tokens; transformers v4.56 "
            "modeling_llama.py (SDPA); diffusers @58eb52c pipeline_qwenimage.py _get_qwen_prompt_embeds "
            "(Qwen2_5_VLForConditionalGeneration, output_hidden_states=True, hidden_states[-1]) and pipeline_sana.py "
            "(Gemma2Model, its last hidden state only); pipeline_hunyuan_video_image2video.py (LlavaForConditionalGeneration "
            "over the prompt with its <image> token expanded to the image's 576 positions)");
}

namespace {

constexpr std::string_view kHyDecoderSource =
    "diffusers v0.35.0 autoencoder_kl_hunyuan_video.py _temporal_tiled_decode (use_framewise_decoding: chunks of "
    "tile_sample_min_num_frames / 4 + 1 = 5 latent frames every 3, each decoded whole; every decoded chunk held until "
    "blended and joined by torch.cat), HunyuanVideoDecoder3D, HunyuanVideoMidBlock3D (single-head attention over "
    "every latent of the chunk; prepare_causal_attention_mask builds a [tokens, tokens] mask: bool, then fp32, then "
    "the dtype), HunyuanVideoResnetBlockCausal3D and HunyuanVideoCausalConv3d (F.pad replicate copy), "
    "HunyuanVideoUpsampleCausal3D (nearest interpolation, the first frame apart, torch.cat, conv)";

struct HyStage {
  enum Kind : std::uint8_t { resnet, attention, upsampler } kind = resnet;
  Count c_in = 0, c_out = 0, frames = 0, pixels = 0, frames_out = 0, pixels_out = 0;
};

bool hy_level_scales(const ComponentConfig& c, std::size_t i, bool& spatial, bool& time) {
  std::size_t spatial_levels = 0;
  for (std::int64_t s = c.spatial; s > 1; s /= 2) ++spatial_levels;
  const std::size_t n = c.block_channels.size();
  spatial = i < spatial_levels;
  time = i + 3 >= n && i + 1 < n;
  return spatial || time;
}

/// The decoder's stages for one call of `f` latent frames over `h` × `w` latents.
std::vector<HyStage> hy_stages(const Component& vae, Count h, Count w, Count f) {
  const ComponentConfig& c = vae.config;
  const std::size_t n = c.block_channels.size();
  Count px = h * w, out = c.block_channels[n - 1];
  std::vector<HyStage> st{{HyStage::resnet, out, out, f, px, f, px}};
  if (c.mid_attention) st.push_back({HyStage::attention, out, out, f, px, f, px});
  for (std::size_t i = 0; i < n; ++i) {
    const Count in = out;
    out = c.block_channels[n - 1 - i];
    st.push_back({HyStage::resnet, in, out, f, px, f, px});
    bool spatial = false, time = false;
    if (!hy_level_scales(c, i, spatial, time)) continue;
    const Count f_out = time ? 1 + 2 * (f - 1) : f, px_out = spatial ? px * 4 : px;
    st.push_back({HyStage::upsampler, out, out, f, px, f_out, px_out});
    f = f_out;
    px = px_out;
  }
  return st;
}

/// A causal resnet's convs: input (kept for the residual), SiLU output, the
/// padded copy (2 frames in front) and the conv output.
Term hy_resnet_peak(const HyStage& v, const DecodeShape& s) {
  const Count px = v.pixels, f = v.frames;
  Term conv1 = decode_elements(s, px * (Count(2) * v.c_in * f + Count(v.c_in) * (f + 2) + Count(v.c_out) * f),
                             "elements (input, SiLU, padded copy, output)", "conv1");
  Term conv2 = decode_elements(s, px * (Count(v.c_in) * f + Count(2) * v.c_out * f + Count(v.c_out) * (f + 2)),
                             "elements (input, SiLU, padded copy, output)", "conv2");
  return Term::max_of(terms(std::move(conv1), std::move(conv2))).named("resnet");
}

/// The mid block's attention: the causal mask built over all its tokens
/// (fp32 then the dtype) beside the flattened input, or SDPA with q, k, v.
Term hy_attention_peak(const HyStage& v, const DecodeShape& s) {
  const Count tokens = Count(v.frames) * v.pixels;
  Term mask = Term::sum(terms(
      Term::product({Factor::of(tokens, "queries"), Factor::of(tokens, "keys"),
                     Factor::bytes(4 + s.elem, "fp32 mask and its cast")})
          .named("causal mask"),
      decode_elements(s, tokens * v.c_in, "elements", "flattened input")));
  Term sdpa = Term::sum(terms(
      Term::product({Factor::of(tokens, "queries"), Factor::of(tokens, "keys"), Factor::bytes(s.elem, "mask")}).named("mask"),
      decode_elements(s, tokens * v.c_in * 6, "elements (input, GroupNorm, q, k, v, output)", "attention")));
  return Term::max_of(terms(std::move(mask).named("mask built"), std::move(sdpa).named("SDPA"))).named("mid attention");
}

Term hy_stage_peak(const HyStage& v, const DecodeShape& s) {
  switch (v.kind) {
    case HyStage::resnet: return hy_resnet_peak(v, s);
    case HyStage::attention: return hy_attention_peak(v, s);
    case HyStage::upsampler: break;
  }
  const Count out = Count(v.frames_out) * v.pixels_out;
  return decode_elements(s, Count(v.c_in) * (Count(v.frames) * v.pixels + 4 * out + 2 * v.pixels_out),
                       "elements (input, interpolated frames, torch.cat, padded copy, conv output)", "upsampler");
}

/// Latents one call covers: all of them, or with tiling a 256-pixel tile.
std::pair<Count, Count> hy_call_area(const Component& vae, const DecodeShape& s) {
  return decode_call_area(s, 256 / vae.config.spatial, 256 / vae.config.spatial);
}

Term hy_call_peak(const Component& vae, const DecodeShape& s, Count f) {
  const auto [h, w] = hy_call_area(vae, s);
  Terms levels;
  for (const HyStage& v : hy_stages(vae, h, w, f)) levels.push_back(hy_stage_peak(v, s));
  Term call = Term::max_of(std::move(levels)).named("largest decoder stage");
  if (h == s.latent.latent_height && w == s.latent.latent_width) return call;
  // tiled_decode holds every decoded tile of the chunk (256-pixel tiles every 192 pixels).
  const Count tile = 256 / vae.config.spatial, stride = 192 / vae.config.spatial;
  Term tiles = held_tiles(vae, s, s.samples_at_once, 1 + 4 * (f - 1), {tile, tile}, {stride, stride});
  return Term::sum(terms(std::move(call), std::move(tiles)));
}

Term hy_frames(const DecodeShape& s, Count frames, std::string_view label) {
  return Term::product({Factor::of(s.samples_at_once, "samples"), Factor::of(3, "RGB"), Factor::of(frames, "frames"),
                        Factor::of(Count(s.width) * s.height, "pixels"), Factor::bytes(s.elem)})
      .named(label);
}

}  // namespace

Terms hunyuan_decode_levels(const Component& vae, const DecodeShape& s) {
  const auto [h, w] = hy_call_area(vae, s);
  Terms out;
  const Count f = std::min<std::int64_t>(s.latent.latent_frames, 5);
  for (const HyStage& v : hy_stages(vae, h, w, f)) out.push_back(hy_stage_peak(v, s));
  return out;
}

Term hunyuan_decode_peak(const Component& vae, const DecodeShape& s) {
  const Count t = s.latent.latent_frames;
  if (t <= 4) return Term::sum(terms(hy_call_peak(vae, s, t), hy_frames(s, s.frames, "decoded output"))).cite(kHyDecoderSource);
  // Chunks of up to 5 latent frames start every 3; each keeps its decoded frames but the first (the first chunk all).
  // The largest call is the last 5-frame chunk's, or a shorter tail chunk's with more chunks held before it.
  const Count chunks = (t - 1) / 3 + 1, last_full = (t - 5) / 3;
  Terms cases;
  Count held = 0;
  for (Count k = 0; k < chunks; k = k + 1) {
    const Count f = std::min<std::int64_t>(5, t - 3 * k);
    if (k >= last_full)
      cases.push_back(Term::sum(terms(hy_call_peak(vae, s, f), hy_frames(s, held, "decoded chunks held")))
                          .named("decoder call"));
    held = held + (k == 0 ? Count(1) : Count(0)) + 4 * (f - 1);
  }
  cases.push_back(Term::sum(terms(hy_frames(s, held, "decoded chunks"), hy_frames(s, s.frames, "joined output (torch.cat)")))
                      .named("chunks joined"));
  return Term::max_of(std::move(cases)).cite(kHyDecoderSource);
}

}  // namespace vram::generation
