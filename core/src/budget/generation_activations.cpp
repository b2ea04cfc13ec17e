// Budget category: transient working memory of generation (no autograd, so
// only the tensors alive at the largest point of one forward pass count).
#include <algorithm>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kWanSource =
    "Wan2.1 @9737cba9 wan/modules/model.py WanAttentionBlock.forward (fp32 residual and modulation under "
    "autocast(float32)) and rope_apply (q, k to float64 complex, cat, stack, .float())";
constexpr std::string_view kWan22Source =
    "Wan2.2 @42bf4cfa wan/modules/model.py WanModel.forward (a timestep of one value, as text2video.py and "
    "image2video.py pass it, is expanded to every token; TI2V passes one per token): e [B, L, dim] and e0 "
    "[B, L, 6, dim] in fp32 for the whole pass, and each WanAttentionBlock adds its modulation to e0 (another "
    "[B, L, 6, dim] fp32); distributed/sequence_parallel.py computes e and e0 over the whole sequence and keeps "
    "each rank's chunk as a view of them";
constexpr std::string_view kUlyssesSource =
    "Wan2.1 @9737cba9 wan/distributed/xdit_context_parallel.py usp_attn_forward: xFuserLongContextAttention "
    "all-to-all of q, k, v and the output";
constexpr std::string_view kFluxSource =
    "diffusers v0.35 transformer_flux.py FluxSingleTransformerBlock (MLP held across attention) and "
    "embeddings.py apply_rotary_emb (q, k rotated in fp32)";
constexpr std::string_view kUnetSource =
    "diffusers v0.35 unet_2d_condition.py (down-path skip tensors held for the up path), attention.py "
    "BasicTransformerBlock (GEGLU: proj to 8 × C, gate, product) and attention_processor.py (AttnProcessor: scores "
    "and softmax materialised; AttnProcessor2_0: SDPA)";

Term wan_attention_phase(const Component& d, Count t) {
  Term attn = Term::product({Factor::of(t, "tokens"), Factor::of(d.config.hidden, "hidden"),
                             Factor::bytes(42, "fp32 residual 4 + fp32 modulated input 4 + q,k,v 6 + RoPE q 4 + RoPE k fp64 24")})
                  .named("self-attention with RoPE");
  Term ffn = Term::product({Factor::of(t, "tokens"),
                            Factor::of(Count(10) * d.config.hidden + Count(4) * d.config.ffn,
                                       "B/token (fp32 residual and input 4+4, bf16 input 2 per hidden; FFN and GELU 2+2 per ffn)")})
                 .named("FFN");
  return Term::max_of(terms(std::move(attn), std::move(ffn))).cite(kWanSource);
}

Term wan_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = Count(s.tokens) * s.batch;
  Terms parts;
  parts.push_back(wan_attention_phase(d, t));
  // The inference runtime for this kind is the Wan reference scripts (runtime wan).
  if (d.config.per_token_time || d.config.reference_per_token_time) {
    const Count whole = Count(s.full_tokens) * s.batch;
    parts.push_back(Term::sum(terms(Term::product({Factor::of(whole, s.sequence_parallel > 1 ? "tokens of the whole sequence"
                                                                                             : "tokens"),
                                                   Factor::of(d.config.hidden, "hidden"),
                                                   Factor::bytes(28, "e and e0: 7 fp32 vectors")}),
                                    Term::product({Factor::of(t, "tokens"), Factor::of(d.config.hidden, "hidden"),
                                                   Factor::bytes(24, "the block's modulation + e0: 6 fp32 vectors")})))
                        .named("per-token timestep modulation")
                        .cite(kWan22Source));
  }
  if (s.sequence_parallel > 1)
    parts.push_back(Term::product({Factor::of(t, "tokens"), Factor::of(d.config.hidden, "hidden"),
                                   Factor::bytes(8, "q, k, v, out all-to-all copies, bf16")})
                        .named("Ulysses all-to-all buffers")
                        .cite(kUlyssesSource));
  return sum_nonzero(std::move(parts));
}

Term flux_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = (Count(s.tokens) + s.text_tokens) * s.batch;
  const Count per_token = Count(s.elem) * (Count(6) * d.config.hidden + Count(2) * d.config.ffn) + Count(12) * d.config.hidden;
  return Term::product({Factor::of(t, "joint tokens"),
                        Factor::of(per_token, "B/token (residual, norm, q, k, v, attention out: 6 per hidden; MLP and "
                                              "GELU: 2 per ffn; RoPE fp32 temporaries 12 B per hidden)")})
      .named("single-stream block")
      .cite(kFluxSource);
}

constexpr std::string_view kQwenImageSource =
    "diffusers @58eb52c transformer_qwenimage.py QwenImageTransformerBlock (img_mod / txt_mod, attention, then "
    "img_mlp / txt_mlp) and QwenDoubleStreamAttnProcessor2_0 (per-stream q, k, v held while torch.cat builds the "
    "joint q, k, v; SDPA over text + image tokens), FeedForward gelu-approximate (dim → 4 dim → dim)";

/// One double-stream block of Qwen-Image peaks at the larger of its attention,
/// where each stream's input, its modulated copy, its q, k, v, the joint q, k, v
/// and the joint output are alive (9 per hidden), and its MLP (input, modulated
/// copy: 2 per hidden; projection and GELU: 2 per ffn), over text + image tokens.
Term qwen_image_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = (Count(s.tokens) + s.text_tokens) * s.batch, h = d.config.hidden;
  Term attn = Term::product({Factor::of(t, "joint tokens"),
                             Factor::of(9 * h, "elements/token (input, modulated, per-stream q, k, v, joint q, k, v, out)"),
                             Factor::bytes(s.elem)})
                  .named("joint attention");
  Term mlp = Term::product({Factor::of(t, "joint tokens"),
                            Factor::of(2 * h + Count(2) * d.config.ffn, "elements/token (input, modulated; MLP and GELU)"),
                            Factor::bytes(s.elem)})
                 .named("MLP");
  return Term::max_of(terms(std::move(attn), std::move(mlp))).named("double-stream block").cite(kQwenImageSource);
}

constexpr std::string_view kSanaSource =
    "diffusers @58eb52c transformers/sana_transformer.py SanaTransformerBlock and GLUMBConv.forward, "
    "attention_processor.py SanaLinearAttnProcessor2_0 (q, k, v upcast to fp32, v padded with a row of ones, "
    "(v kᵀ) q, then divided by its last row)";

/// One Sana block peaks in its linear self-attention, where the residual and the
/// modulated input (2 per hidden in the compute dtype) sit beside the fp32 q, k,
/// padded v, product and quotient (5 per hidden × 4 B), or in its GLUMBConv, where
/// the residual, the modulated input and two of the inverted-conv, SiLU and
/// depthwise outputs (2 × 2 ffn) are alive; cross-attention to the text is smaller.
Term sana_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = Count(s.tokens) * s.batch, h = d.config.hidden;
  Term attn = Term::sum(terms(
      Term::product({Factor::of(t, "image tokens"), Factor::of(2 * h, "elements/token (residual, modulated)"),
                     Factor::bytes(s.elem)}),
      Term::product({Factor::of(t, "image tokens"), Factor::of(5 * h, "fp32 elements/token (q, k, padded v, product, quotient)"),
                     Factor::bytes(4)})))
                  .named("linear self-attention");
  Term ffn = Term::product({Factor::of(t, "image tokens"),
                            Factor::of(2 * h + Count(4) * d.config.ffn, "elements/token (residual, modulated; two of "
                                                                         "inverted conv, SiLU, depthwise conv)"),
                            Factor::bytes(s.elem)})
                 .named("GLUMBConv");
  return Term::max_of(terms(std::move(attn), std::move(ffn))).named("Sana block").cite(kSanaSource);
}

/// MMDiT-X (SD3.5-medium): a block with a second image self-attention takes
/// norm_hidden_states2 from SD35AdaLayerNormZeroX with the first one and holds
/// it through the joint attention until attn2 runs on the image tokens (diffusers
/// v0.35 attention.py JointTransformerBlock.forward); attn2 itself covers only the
/// image tokens, so its q, k, v and output stay within the joint attention's.
Term mmdit_dual_input(const Component& d, const DenoiseShape& s) {
  return Term::product({Factor::of(Count(s.tokens) * s.batch, "image tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::bytes(s.elem, "attn2 input held across the joint attention")})
      .named("dual-attention block")
      .cite("diffusers v0.35 attention.py JointTransformerBlock.forward (use_dual_attention: norm_hidden_states2 "
            "computed by norm1, consumed by attn2 after the joint attention)");
}

/// The RMSNorm q/k normalisation of SD3.5 (normalization.py RMSNorm.forward)
/// makes fp32 temporaries of one of q or k at a time inside the attention; they
/// stay below the MLP's tensors, which the sum below already holds, so they add nothing.
Term mmdit_working_set(const Component& d, const DenoiseShape& s) {
  const Count t = (Count(s.tokens) + s.text_tokens) * s.batch;
  const Count per_token = Count(s.elem) * (Count(6) * d.config.hidden + Count(2) * d.config.ffn);
  Term joint = Term::product({Factor::of(t, "joint tokens"),
                              Factor::of(per_token, "B/token (residual, norm, q, k, v, attention out: 6 per hidden; "
                                                    "MLP and GELU: 2 per ffn)")})
                   .named("joint block")
                   .cite("diffusers v0.35 attention.py JointTransformerBlock and attention_processor.py "
                         "JointAttnProcessor2_0 (image and text tokens attend jointly through SDPA)");
  if (d.config.dual_attention_layers.empty()) return joint;
  return Term::sum(terms(std::move(joint), mmdit_dual_input(d, s)));
}

constexpr std::string_view kPixartSource =
    "diffusers v0.35 pixart_transformer_2d.py PixArtTransformer2DModel.forward (the projected caption held for every "
    "block), attention.py BasicTransformerBlock.forward with norm_type ada_norm_single (self-attention, cross-attention "
    "and MLP run one after another) and attention_processor.py AttnProcessor2_0 (q, k, v live until the output "
    "projection; the SDPA output is copied when its heads are merged)";

/// One PixArt block peaks at the largest of its three phases over the image
/// tokens: self-attention (residual, modulated norm, q, k, v, attention output
/// and its head-merged copy: 7 per hidden), cross-attention (residual, q,
/// attention output and copy: 4 per hidden; k and v over the text tokens) and
/// the MLP (residual, modulated norm: 2 per hidden; projection and GELU: 2 per ffn).
Term pixart_block_peak(const Component& d, const DenoiseShape& s, Term self_attn) {
  const Count t = Count(s.tokens) * s.batch, h = d.config.hidden;
  Term cross = Term::sum(terms(
      Term::product({Factor::of(t, "image tokens"), Factor::of(4 * h, "elements/token"), Factor::bytes(s.elem)})
          .named("image side"),
      Term::product({Factor::of(Count(s.cross_tokens) * s.batch, "text tokens"), Factor::of(2 * h, "k, v elements/token"),
                     Factor::bytes(s.elem)})
          .named("k, v")));
  Term mlp = Term::product({Factor::of(t, "image tokens"), Factor::of(2 * h + Count(2) * d.config.ffn, "elements/token"),
                            Factor::bytes(s.elem)})
                 .named("MLP");
  return Term::max_of(terms(std::move(self_attn), std::move(cross).named("cross-attention"), std::move(mlp)));
}

Term pixart_caption(const Component& d, const DenoiseShape& s) {
  return Term::product({Factor::of(Count(s.cross_tokens) * s.batch, "text tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::bytes(s.elem)})
      .named("projected caption");
}

Term pixart_working_set(const Component& d, const DenoiseShape& s) {
  Term self_attn = Term::product({Factor::of(Count(s.tokens) * s.batch, "image tokens"),
                                  Factor::of(7 * d.config.hidden, "elements/token"), Factor::bytes(s.elem)})
                       .named("self-attention");
  return Term::sum(terms(pixart_block_peak(d, s, std::move(self_attn)), pixart_caption(d, s))).cite(kPixartSource);
}

/// Allegro's blocks are PixArt's over every video token, but its self-attention rotates q and k
/// in three slices (t, h, w), each through fp32: while the last slice of k turns, residual, norm,
/// the rotated q, k, v and k's two finished slices (5⅔ per hidden) stand beside the slice's
/// rotated half in the dtype and two fp32 products and one fp32 copy (2⅓): 8 per hidden, above
/// the SDPA phase's 7.
Term allegro_working_set(const Component& d, const DenoiseShape& s) {
  Term self_attn = Term::product({Factor::of(Count(s.tokens) * s.batch, "video tokens"),
                                  Factor::of(8 * d.config.hidden, "elements/token (residual, norm, q, k, v, k's rotated "
                                                                  "slices, fp32 rotation temporaries)"),
                                  Factor::bytes(s.elem)})
                       .named("self-attention with 3D RoPE");
  return Term::sum(terms(pixart_block_peak(d, s, std::move(self_attn)), pixart_caption(d, s)))
      .cite("diffusers @58eb52c transformer_allegro.py AllegroTransformerBlock.forward (adaLN-single; self-attention, "
            "cross-attention to the projected caption, GELU MLP in turn), attention_processor.py AllegroAttnProcessor2_0 "
            "and embeddings.py apply_rotary_emb_allegro (q and k chunked in t, h, w thirds, each rotated in fp32, "
            "joined by torch.cat)");
}

constexpr std::string_view kCogView4Source =
    "diffusers @58eb52c transformer_cogview4.py CogView4TransformerBlock.forward (both streams' residual and modulated "
    "norm held through the attention; the feed-forward run on each stream) and CogView4AttnProcessor (text and image "
    "joined by torch.cat, q, k, v over the joint sequence, LayerNorm on q and k, RoPE on their image part in place: "
    "embeddings.py apply_rotary_emb, x.float() * cos + x_rotated.float() * sin); CogView4RotaryPosEmbed (cos and sin "
    "[image tokens, head_dim] in fp32)";

/// CogView4's block peaks when RoPE turns the keys' image part: residual and norm of both streams,
/// the joined sequence, q, k and v over every joint token, and the rotated copy with its fp32
/// products over the image tokens; its feed-forward (residual, norm, projection and GELU over the
/// image tokens) stays below at CogView4-6B's width.
Term cogview4_working_set(const Component& d, const DenoiseShape& s) {
  const Count h = d.config.hidden, image = Count(s.tokens) * s.batch, joint = (Count(s.tokens) + s.text_tokens) * s.batch;
  Term rope = Term::sum(terms(
      Term::product({Factor::of(joint, "joint tokens"),
                     Factor::of(6 * h, "elements/token (residual, norm: 2; joined sequence, q, k, v: 4 per hidden)"),
                     Factor::bytes(s.elem)})
          .named("held through the attention"),
      Term::product({Factor::of(image, "image tokens"), Factor::of(h, "hidden"),
                     Factor::bytes(s.elem + 12, "rotated copy + fp32 products ×2 and sum")})
          .named("RoPE temporaries")));
  Term mlp = Term::product({Factor::of(image, "image tokens"),
                            Factor::of(2 * h + Count(2) * d.config.ffn, "elements/token (residual, norm; projection, GELU)"),
                            Factor::bytes(s.elem)})
                 .named("feed-forward");
  Term tables = Term::product({Factor::of(s.tokens, "image tokens"), Factor::of(d.config.head_dim, "head_dim"),
                               Factor::of(2, "cos, sin"), Factor::bytes(4, "fp32")})
                    .named("RoPE cos/sin tables");
  return Term::sum(terms(Term::max_of(terms(std::move(rope).named("RoPE on keys"), std::move(mlp))).named("largest block phase"),
                         std::move(tables)))
      .cite(kCogView4Source);
}

/// HiDream's blocks peak when RoPE returns over the joint sequence: residual and modulated norm,
/// in a double-stream block each stream's q, k, v and their joined copies (6 per hidden; 3 in a
/// single-stream block), the fp32 copies of q and k and their rotated fp32 results (8) and the
/// two casts back (2). The MoE feed-forward stays below even with every token on one expert:
/// its working set (expert cache, gathered tokens, w1, w3, SiLU and product over 4 × 6912 / 2560)
/// comes to about 15 per hidden.
Term hidream_working_set(const Component& d, const DenoiseShape& s) {
  const Count joint = (Count(s.tokens) + s.text_tokens) * s.batch;
  const Count per_hidden = d.config.layers > 0 ? 18 : 15;
  return Term::product({Factor::of(joint, "joint tokens"), Factor::of(d.config.hidden, "hidden"),
                        Factor::of(per_hidden, "copies (residual, norm; q, k, v per stream and joined; fp32 q, k and "
                                               "their rotations; the casts back)"),
                        Factor::bytes(s.elem)})
      .named("RoPE over the joint sequence")
      .cite("diffusers @58eb52c transformer_hidream_image.py HiDreamAttnProcessor (q_rms_norm, k_rms_norm; image and "
            "text q, k, v joined by torch.cat; apply_rope: xq.float(), xk.float() and their rotations in fp32, then "
            "type_as) and MOEFeedForwardSwiGLU.moe_infer (expert_cache, the tokens of one expert at a time)");
}

/// Down-path outputs the UNet keeps for its skip connections.
Term unet_skips(const Component& d, const DenoiseShape& s) {
  const ComponentConfig& c = d.config;
  const std::size_t levels = c.block_channels.size();
  Count elems = Count(c.block_channels[0]) * s.latent.latent_height * s.latent.latent_width;  // conv_in
  for (std::size_t l = 0; l < levels; ++l) {
    const Count px = Count(s.latent.latent_height >> l) * (s.latent.latent_width >> l);
    elems += Count(c.layers_per_block) * c.block_channels[l] * px;
    if (l + 1 < levels) elems += Count(c.block_channels[l]) * (px / 4);
  }
  return Term::product({Factor::of(s.batch, "samples"), Factor::of(elems, "skip elements"), Factor::bytes(s.elem)})
      .named("skip connections");
}

Term unet_level_peak(const Component& d, const DenoiseShape& s, std::size_t l) {
  const ComponentConfig& c = d.config;
  const Count ch = c.block_channels[l];
  const Count px = Count(s.latent.latent_height >> l) * (s.latent.latent_width >> l);
  const Count heads = c.heads > 0 ? Count(c.heads) : ch / c.head_dim;  // SD 1.x: fixed heads; SDXL: 64 per head
  Term ff = Term::product({Factor::of(s.batch, "samples"), Factor::of(px, "tokens"), Factor::of(ch, "channels"),
                           Factor::of(18, "GEGLU live copies"), Factor::bytes(s.elem)})
                .named("transformer feed-forward");
  if (s.attention == GenAttention::efficient) return ff;
  Term scores = Term::product({Factor::of(s.batch, "samples"), Factor::of(heads, "heads"), Factor::of(px, "queries"),
                               Factor::of(px, "keys"), Factor::of(2, "scores + softmax"), Factor::bytes(s.elem)})
                    .named("attention scores (naive)");
  return Term::max_of(terms(std::move(ff), std::move(scores)));
}

Term unet_working_set(const Component& d, const DenoiseShape& s) {
  Terms levels;
  for (std::size_t l = 0; l < d.config.block_channels.size(); ++l)
    if (l < d.config.attention_layers.size() && d.config.attention_layers[l] > 0) levels.push_back(unet_level_peak(d, s, l));
  Term top = levels.empty() ? Term::given(Bytes{}) : Term::max_of(std::move(levels));
  return Term::sum(terms(unet_skips(d, s), std::move(top))).cite(kUnetSource);
}

Term naive_scores(const Component& d, const DenoiseShape& s) {
  const Count heads = Count(d.config.heads) / s.sequence_parallel;
  const Count t = Count(s.full_tokens) + s.text_tokens;
  return Term::product({Factor::of(s.batch, "samples"), Factor::of(heads, "heads"), Factor::of(t, "queries"),
                        Factor::of(t, "keys"), Factor::of(2, "scores + softmax"), Factor::bytes(s.elem)})
      .named("attention scores (naive)")
      .cite("attention without a fused kernel materialises softmax(QKᵀ) per head (Vaswani et al. 2017, eq. 1)");
}

constexpr std::string_view kCogVideoXSource =
    "diffusers v0.35 cogvideox_transformer_3d.py CogVideoXBlock.forward (text and video tokens normed by one "
    "CogVideoXLayerNormZero, the feed-forward over the joint sequence) and attention_processor.py "
    "CogVideoXAttnProcessor2_0 (text + video concatenated, q/k LayerNorm, RoPE on the video tokens in fp32, SDPA)";

/// Joint-sequence self-attention of one CogVideoXBlock: its output moment, and
/// (rotary models) the moment RoPE rotates the video tokens' keys in fp32.
Term cogvideox_attention(const Component& d, const DenoiseShape& s) {
  const Count joint = (Count(s.tokens) + s.text_tokens) * s.batch;
  const Count hidden = d.config.hidden;
  Term out = Term::product({Factor::of(joint, "joint tokens"), Factor::of(hidden, "hidden"),
                            Factor::of(9, "residual, norm, joint input, q, k, v, SDPA out, transposed copy, to_out"),
                            Factor::bytes(s.elem)})
                 .named("attention output");
  if (!d.config.rotary) return out;
  Term held = Term::product({Factor::of(joint, "joint tokens"), Factor::of(hidden, "hidden"),
                             Factor::of(6, "residual, norm, joint input, q, k, v"), Factor::bytes(s.elem)})
                  .named("attention inputs");
  Term rope = Term::product({Factor::of(Count(s.tokens) * s.batch, "video tokens"), Factor::of(hidden, "hidden"),
                             Factor::bytes(s.elem + 12, "rotated copy + fp32 cast and two fp32 products")})
                  .named("RoPE temporaries");
  return Term::max_of(terms(std::move(out), Term::sum(terms(std::move(held), std::move(rope))).named("RoPE on keys")));
}

/// The GELU feed-forward over the joint sequence (dim → ffn → dim).
Term cogvideox_ffn(const Component& d, const DenoiseShape& s) {
  const Count joint = (Count(s.tokens) + s.text_tokens) * s.batch;
  return Term::product({Factor::of(joint, "joint tokens"),
                        Factor::of(Count(2) * d.config.hidden + Count(2) * d.config.ffn,
                                   "elements/token (residual and normed input per hidden; GELU input and output per ffn)"),
                        Factor::bytes(s.elem)})
      .named("feed-forward");
}

/// CogVideoX-2b's sin-cos position table (a non-persistent buffer, or rebuilt
/// for another size) added to the joint embeddings: text rows are zeros.
Term cogvideox_position_table(const Component& d, const DenoiseShape& s) {
  return Term::product({Factor::of(Count(s.tokens) + d.config.positions, "rows (text + video tokens)"),
                        Factor::of(d.config.hidden, "hidden"), Factor::bytes(s.elem)})
      .named("sin-cos position table")
      .cite("diffusers v0.35 embeddings.py CogVideoXPatchEmbed._get_positional_embeddings (max_text_seq_length + "
            "patches rows; register_buffer persistent=False)");
}

Term cogvideox_working_set(const Component& d, const DenoiseShape& s) {
  Terms parts;
  parts.push_back(Term::max_of(terms(cogvideox_attention(d, s), cogvideox_ffn(d, s))).named("largest block phase"));
  if (!d.config.rotary) parts.push_back(cogvideox_position_table(d, s));
  return Term::sum(std::move(parts)).cite(kCogVideoXSource);
}

}  // namespace

Term denoiser_working_set(const Component& d, const DenoiseShape& s) {
  switch (d.kind) {
    case ComponentKind::unet: return unet_working_set(d, s);
    case ComponentKind::flux:
    case ComponentKind::mmdit:
    case ComponentKind::wan_dit:
    case ComponentKind::pixart_dit:
    case ComponentKind::cogvideox:
    case ComponentKind::ltx_video:
    case ComponentKind::hunyuan_video:
    case ComponentKind::mochi_dit:
    case ComponentKind::qwen_image:
    case ComponentKind::sana:
    case ComponentKind::allegro:
    case ComponentKind::cogview4:
    case ComponentKind::hidream:
    case ComponentKind::hunyuan_video15:
    case ComponentKind::stepvideo_dit: {
      Term base = d.kind == ComponentKind::flux         ? flux_working_set(d, s)
                  : d.kind == ComponentKind::qwen_image ? qwen_image_working_set(d, s)
                  : d.kind == ComponentKind::sana       ? sana_working_set(d, s)
                  : d.kind == ComponentKind::ltx_video  ? ltx_working_set(d, s)
                  : d.kind == ComponentKind::hunyuan_video ? hunyuan_working_set(d, s)
                  : d.kind == ComponentKind::hunyuan_video15 ? hunyuan15_working_set(d, s)
                  : d.kind == ComponentKind::stepvideo_dit ? stepvideo_working_set(d, s)
                  : d.kind == ComponentKind::mochi_dit  ? mochi_working_set(d, s)
                  : d.kind == ComponentKind::mmdit      ? mmdit_working_set(d, s)
                  : d.kind == ComponentKind::pixart_dit ? pixart_working_set(d, s)
                  : d.kind == ComponentKind::allegro    ? allegro_working_set(d, s)
                  : d.kind == ComponentKind::cogview4   ? cogview4_working_set(d, s)
                  : d.kind == ComponentKind::hidream    ? hidream_working_set(d, s)
                  : d.kind == ComponentKind::cogvideox  ? cogvideox_working_set(d, s)
                                                        : wan_working_set(d, s);
      if (s.attention == GenAttention::efficient) return base;
      return Term::sum(terms(std::move(base), naive_scores(d, s)));
    }
    default: break;
  }
  return Term::given(Bytes{});
}

Term fsdp_unsharded_blocks(const Component& d, std::int64_t elem) {
  const Count per_block = Count(d.inventory.params()) / std::max<std::int64_t>(1, d.config.layers);
  return Term::product({Factor::of(2, "blocks (running + next all-gather)"), Factor::of(per_block, "params per block"),
                        Factor::bytes(elem, "MixedPrecision param_dtype")})
      .named("FSDP unsharded blocks")
      .cite("PyTorch 2.5 FSDP FULL_SHARD with per-block auto-wrap (Wan2.1 @9737cba9 wan/distributed/fsdp.py): a "
            "block's full parameters exist only while it runs; the rate limiter allows one more in flight");
}

Term text_encoder_forward(const Component& c, std::int64_t prompts, std::int64_t elem) {
  if (c.kind == ComponentKind::llama_text) return llm_text_encoder_forward(c, prompts, elem);
  const ComponentConfig& k = c.config;
  const Count t = Count(prompts) * k.tokens;
  Term hidden = Term::product({Factor::of(t, "tokens"),
                               Factor::of(Count(elem) * (Count(4) * k.hidden + Count(3) * k.ffn),
                                          "B/token (residual, norm, attention: 4 per hidden; MLP: 3 per ffn)")})
                    .named("encoder layer");
  if (c.kind != ComponentKind::t5_encoder) return std::move(hidden).cite("transformers v4.56 modeling_clip.py (SDPA)");
  Term scores = Term::product({Factor::of(prompts, "prompts"), Factor::of(k.heads, "heads"), Factor::of(k.tokens, "queries"),
                               Factor::of(k.tokens, "keys"), Factor::bytes(4 + 2 * elem, "scores, fp32 softmax, probs")})
                    .named("eager attention with position bias");
  return Term::sum(terms(std::move(hidden), std::move(scores)))
      .cite("transformers v4.56 modeling_t5.py T5Attention (eager: scores + position_bias, softmax in fp32)");
}

Term latent_tensors(const LatentGeometry& g, std::int64_t batch, std::int64_t elem) {
  const Count per_sample = Count(g.latent_channels) * g.latent_frames * g.latent_height * g.latent_width;
  return Term::product({Factor::of(4, "latents, noise prediction ×2, scheduler output"), Factor::of(batch, "samples"),
                        Factor::of(per_sample, "latent elements"), Factor::bytes(elem)})
      .named("latents")
      .cite("diffusers v0.35 FlowMatchEulerDiscreteScheduler.step / Wan2.1 @9737cba9 wan/text2video.py sampling loop");
}

Term reference_latents(const LatentGeometry& g, std::int64_t references, std::int64_t batch, std::int64_t elem) {
  const Count per_image = Count(g.latent_channels) * g.latent_frames * g.latent_height * g.latent_width;
  return Term::product({Factor::of(Count(2) * references + 1, "copies (reference latents; the concatenated input: latents "
                                                              "and reference latents)"),
                        Factor::of(batch, "samples"), Factor::of(per_image, "latent elements per image"),
                        Factor::bytes(elem)})
      .named("reference latents")
      .cite("diffusers v0.35 pipeline_flux_kontext.py __call__ (image_latents packed once, torch.cat([latents, "
            "image_latents], dim=1) every step)");
}

}  // namespace vram::generation
