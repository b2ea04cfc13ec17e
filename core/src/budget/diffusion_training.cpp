// Budget category: the saved activations and backward working set of
// fine-tuning a diffusion model, walked block by block from the component's
// configuration (see budget/diffusion_training.hpp for the saving rule).
#include "vram/budget/diffusion_training.hpp"

#include <algorithm>

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kSavedRule =
    "PyTorch v2.5 tools/autograd/derivatives.yaml (native_layer_norm, native_group_norm, silu, gelu, "
    "_scaled_dot_product_efficient_attention keep their inputs; mm/addmm/convolution keep the input only for the "
    "weight's gradient, so only when that weight trains)";
constexpr std::string_view kUnetTrainSource =
    "diffusers v0.35 unet_2d_condition.py, unet_2d_blocks.py (CrossAttnDownBlock2D, UNetMidBlock2DCrossAttn, "
    "CrossAttnUpBlock2D: skip tensors concatenated on the up path), resnet.py ResnetBlock2D, attention.py "
    "BasicTransformerBlock (GEGLU), attention_processor.py (AttnProcessor2_0: SDPA; AttnProcessor: head copies "
    "and softmax probabilities kept for bmm); gradient checkpointing wraps each resnet and transformer block";
constexpr std::string_view kFluxTrainSource =
    "diffusers v0.35 transformer_flux.py FluxTransformerBlock / FluxSingleTransformerBlock (AdaLayerNormZero "
    "modulation, RMSNorm q/k through an fp32 copy, RoPE, SDPA over the joint sequence, tanh-GELU MLP), "
    "normalization.py RMSNorm.forward; gradient checkpointing wraps each block";
constexpr std::string_view kMmditTrainSource =
    "diffusers v0.35 attention.py JointTransformerBlock (AdaLayerNormZero for both streams, joint SDPA, GELU MLP; "
    "with qk_norm an fp32 RMSNorm of q and k) and transformer_sd3.py; gradient checkpointing wraps each block";
constexpr std::string_view kWanTrainSource =
    "diffusers v0.35 transformer_wan.py WanTransformerBlock.forward (FP32LayerNorm over an fp32 copy of the residual; "
    "modulation and gated residual sums in fp32), WanAttnProcessor (torch.nn.RMSNorm of q and k across heads, "
    "apply_rotary_emb against WanRotaryPosEmbed's float64 tables, SDPA; the I2V image attention added to the text "
    "attention), FeedForward gelu-approximate; gradient checkpointing wraps each block";
/// CLIP ViT-H/14 image tokens of Wan I2V at 224 px: 16 × 16 patches and the class token
/// (diffusers v0.35 pipeline_wan_i2v.py encode_image: hidden_states[-2] of the image encoder).
constexpr std::int64_t kWanImageTokens = 257;
constexpr std::string_view kClipTrainSource =
    "transformers v4.56 modeling_clip.py CLIPEncoderLayer (SDPA attention, quick_gelu MLP: x · sigmoid(1.702 x) "
    "keeps x and the sigmoid)";

/// One op's working set in the backward, per sample: `tokens` × `per_token` elements.
struct Transient {
  std::string_view what;
  Count tokens = 0;
  Count per_token = 0;
  std::string_view unit;
};

/// Elements of one sample that a walk over a denoiser finds.
struct Walk {
  Count always = 0;   ///< kept whatever trains (norm, activation and attention inputs, block outputs)
  Count trained = 0;  ///< inputs kept because the layer reading them trains
  Count largest = 0;  ///< the largest single intermediate tensor
  Count block = 0;    ///< the largest block's full saved set (recomputed in the backward when checkpointed)
  std::vector<Transient> transients;  ///< op-internal working sets that may exceed the gradient pair
};

/// One module of the walk: what it keeps, and its output (all a checkpointed module keeps).
void add_module(Walk& w, bool checkpointed, Count always, Count trained, Count output, Count largest) {
  w.block = std::max(w.block, Count(always + trained));
  w.largest = std::max(w.largest, largest);
  if (checkpointed) {
    w.always += output;
  } else {
    w.always += always;
    w.trained += trained;
  }
}

Count if_trains(const TrainedModules& t, std::string_view module, Count n) { return t.trains(module) ? n : Count(0); }

// ---- UNet2DConditionModel -------------------------------------------------------------------------

struct UnetLevel {
  Count ch = 0, px = 0, heads = 0;
};

UnetLevel unet_level(const Component& d, const TrainShape& s, std::size_t l) {
  const ComponentConfig& c = d.config;
  const Count ch = c.block_channels[l];
  const Count px = Count(s.latent.latent_height >> l) * (s.latent.latent_width >> l);
  return {ch, px, c.heads > 0 ? Count(c.heads) : ch / std::max<std::int64_t>(1, c.head_dim)};
}

/// ResnetBlock2D: GroupNorm → SiLU → conv1 (+ temb) → GroupNorm → SiLU → conv2, plus the shortcut.
void unet_resnet(Walk& w, const TrainShape& s, const TrainedModules& t, Count in, Count out, Count px) {
  const Count always = px * (in + Count(3) * out);  // SiLU inputs ×2, GroupNorm-2 input, the output
  const Count trained = if_trains(t, "conv1", px * in) + if_trains(t, "conv2", px * out);
  add_module(w, s.checkpointed, always, trained, px * out, px * std::max(in, out));
}

/// BasicTransformerBlock: self-attention, cross-attention to the text tokens, GEGLU feed-forward.
void unet_transformer_block(Walk& w, const TrainShape& s, const TrainedModules& t, const UnetLevel& v) {
  const Count C = v.ch, px = v.px, cross = s.cross_tokens;
  Count always = 0;
  if (s.attention == GenAttention::efficient) {
    // q, k, v, out (self), q, out (cross), the three residual sums, GEGLU projection 8C, GELU 4C.
    always = px * C * 21 + Count(2) * cross * C;
  } else {
    // head copies of q, k, v and the softmax probabilities (self and cross) kept for bmm.
    always = px * C * 19 + Count(2) * cross * C + v.heads * px * (px + cross);
  }
  Count trained = 0;
  if (t.trains("attn1.to_q") || t.trains("attn1.to_k") || t.trains("attn1.to_v")) trained += px * C;
  trained += if_trains(t, "attn1.to_out.0", px * C) + if_trains(t, "attn2.to_q", px * C) +
             if_trains(t, "attn2.to_out.0", px * C) + if_trains(t, "ff.net.0.proj", px * C) +
             if_trains(t, "ff.net.2", px * C * 4);
  const Count probs = s.attention == GenAttention::efficient ? Count(0) : v.heads * px * px;
  add_module(w, s.checkpointed, always, trained, px * C, std::max(Count(px * C * 8), probs));
}

/// Transformer2DModel: GroupNorm and proj_in around the blocks, proj_out and the residual after them.
void unet_attention(Walk& w, const TrainShape& s, const TrainedModules& t, const UnetLevel& v, Count layers) {
  w.always += v.px * v.ch * 2;  // the first block's input, the residual sum out
  w.trained += if_trains(t, "proj_in", v.px * v.ch) + if_trains(t, "proj_out", v.px * v.ch);
  for (Count i = 0; i < layers; i += 1) unet_transformer_block(w, s, t, v);
}

Walk unet_walk(const Component& d, const TrainShape& s, const TrainedModules& t) {
  const ComponentConfig& c = d.config;
  const std::size_t L = c.block_channels.size();
  const auto attn = [&](std::size_t l) { return l < c.attention_layers.size() ? Count(c.attention_layers[l]) : Count(0); };
  Walk w;
  const UnetLevel top = unet_level(d, s, 0);
  w.always += top.ch * top.px;  // conv_in
  Count prev = top.ch;
  for (std::size_t l = 0; l < L; ++l) {
    const UnetLevel v = unet_level(d, s, l);
    for (std::int64_t j = 0; j < c.layers_per_block; ++j) {
      unet_resnet(w, s, t, prev, v.ch, v.px);
      prev = v.ch;
      if (attn(l) > 0) unet_attention(w, s, t, v, attn(l));
    }
    if (l + 1 < L) w.always += v.ch * (v.px / 4);  // downsampler output
  }
  const UnetLevel bottom = unet_level(d, s, L - 1);
  unet_resnet(w, s, t, bottom.ch, bottom.ch, bottom.px);
  unet_attention(w, s, t, bottom, std::max<Count>(1, attn(L - 1)));
  unet_resnet(w, s, t, bottom.ch, bottom.ch, bottom.px);
  Count prev_out = bottom.ch;
  for (std::size_t u = 0; u < L; ++u) {
    const std::size_t l = L - 1 - u;
    const UnetLevel v = unet_level(d, s, l);
    const Count input_ch = c.block_channels[l == 0 ? 0 : l - 1];
    for (std::int64_t j = 0; j <= c.layers_per_block; ++j) {
      const Count in = (j == 0 ? prev_out : v.ch) + (j == c.layers_per_block ? input_ch : v.ch);
      w.always += in * v.px;  // the concatenated skip: the resnet's input
      unet_resnet(w, s, t, in, v.ch, v.px);
      if (attn(l) > 0) unet_attention(w, s, t, v, attn(l));
    }
    if (l > 0) w.always += v.ch * v.px * 4;  // upsampler conv output (the interpolation keeps nothing)
    prev_out = v.ch;
  }
  w.always += top.ch * top.px;  // conv_norm_out output (SiLU input)
  return w;
}

// ---- FLUX and SD3 (MMDiT) ----------------------------------------------------------------------------

/// One stream of a double-stream / joint block, per token: `prefix` names its modules.
struct Stream {
  std::string_view norm, q, k, v, out, fc1, fc2, qnorm;
};
constexpr Stream kImageStream{"norm1.linear", "attn.to_q", "attn.to_k", "attn.to_v", "attn.to_out.0",
                              "ff.net.0.proj", "ff.net.2", "attn.norm_q"};
constexpr Stream kTextStream{"norm1_context.linear", "attn.add_q_proj", "attn.add_k_proj", "attn.add_v_proj",
                             "attn.to_add_out", "ff_context.net.0.proj", "ff_context.net.2", "attn.norm_added_q"};

/// Elements per token of one stream: q, k (pre-norm) and their fp32 copies when
/// q/k are RMS-normed, v, q, k as attention reads them, its output, the two
/// residual sums, the MLP's GELU input; the rest when the layer reading it trains.
void joint_stream(Count h, Count ffn, bool qk_norm, const Stream& m, const TrainedModules& t, Count& always, Count& trained) {
  always += (qk_norm ? Count(12) : Count(6)) * h + ffn;
  trained += if_trains(t, m.norm, 4 * h);  // LN outputs and gated outputs kept for the modulation's gradient
  if (t.trains(m.q) || t.trains(m.k) || t.trains(m.v)) trained += h;
  if (qk_norm) trained += if_trains(t, m.qnorm, 2 * h);
  trained += if_trains(t, m.out, h) + if_trains(t, m.fc1, h) + if_trains(t, m.fc2, ffn);
}

Walk dit_walk(const Component& d, const TrainShape& s, const TrainedModules& t) {
  const ComponentConfig& c = d.config;
  const Count h = c.hidden, ffn = c.ffn;
  const Count ti = Count(s.latent.tokens) * 1, tt = s.text_tokens, all = ti + tt;
  const bool qk = d.kind == ComponentKind::flux || c.qk_norm == QkNorm::rms_norm;
  Walk w;
  w.always += all * h * 2;  // embedders' outputs, the final norm
  Count a_img = 0, t_img = 0, a_txt = 0, t_txt = 0;
  joint_stream(h, ffn, qk, kImageStream, t, a_img, t_img);
  joint_stream(h, ffn, qk, kTextStream, t, a_txt, t_txt);
  for (Count i = 0; i < c.layers; i += 1)
    add_module(w, s.checkpointed, ti * a_img + tt * a_txt, ti * t_img + tt * t_txt, all * h, all * ffn);
  // FLUX single-stream block over the joint sequence: parallel attention and MLP, one fused output projection.
  Count single_always = Count(11) * h + ffn, single_trained = if_trains(t, "norm.linear", 2 * h);
  if (t.trains("attn.to_q") || t.trains("attn.to_k") || t.trains("attn.to_v") || t.trains("proj_mlp")) single_trained += h;
  single_trained += if_trains(t, "attn.norm_q", 2 * h) + if_trains(t, "proj_out", h + ffn);
  for (Count i = 0; i < c.single_layers; i += 1)
    add_module(w, s.checkpointed, all * single_always, all * single_trained, all * h, all * ffn);
  return w;
}

// ---- Wan 2.x (diffusers WanTransformer3DModel) --------------------------------------------------------

/// Elements per video token of one Wan block that every op keeps whatever trains:
/// the fp32 copies norm1, norm2 and norm3 read, the fp32 upcasts torch.nn.RMSNorm
/// keeps of the self-attention's q and k and the cross-attention's q; SDPA's q, k,
/// v and output (self) and q and output (cross); the GELU's input. I2V adds the
/// image attention's output; TI2V's per-token timestep keeps the fp32 modulation
/// sum [6 × hidden] and the two (1 + scale) vectors per token.
Count wan_kept(const ComponentConfig& c, Count f) {
  const Count h = c.hidden;
  Count kept = Count(6) * f * h + Count(6) * h + c.ffn;
  if (c.image_cond) kept += h;
  if (c.per_token_time) kept += Count(8) * f * h;
  return kept;
}

/// Elements per video token kept because the module reading them trains (LoRA or full).
Count wan_trained(const ComponentConfig& c, const TrainedModules& t, Count f) {
  const Count h = c.hidden;
  Count kept = 0;
  if (t.trains("attn1.to_q") || t.trains("attn1.to_k") || t.trains("attn1.to_v")) kept += h;  // modulated norm1
  kept += if_trains(t, "attn2.to_q", h);                                                     // norm2 output
  if (c.image_cond) kept += if_trains(t, "attn2.to_out.0", h);  // text + image attention sum (else SDPA's output)
  kept += if_trains(t, "ffn.net.0.proj", h) + if_trains(t, "ffn.net.2", c.ffn);
  // A trained modulation table needs norm1's and norm3's fp32 outputs, the attention output and the fp32 FFN
  // output for its scales and gates; trained RMSNorm weights need the normalised q and k.
  kept += if_trains(t, "scale_shift_table", Count(3) * f * h + h);
  kept += if_trains(t, "attn1.norm_q", h) + if_trains(t, "attn1.norm_k", h) + if_trains(t, "attn2.norm_q", h);
  return kept;
}

Walk wan_walk(const Component& d, const TrainShape& s, const TrainedModules& t) {
  const ComponentConfig& c = d.config;
  const Count h = c.hidden, n = s.latent.tokens, f = Count(4 / s.elem);  // f: an fp32 tensor in activation elements
  const Count ctx = Count(s.cross_tokens) + (c.image_cond ? kWanImageTokens : 0);
  Walk w;
  // Once: the float64 rotary tables (cos, sin), the projected context every block's k and v read, norm_out's fp32 input.
  w.always += n * (Count(2) * c.head_dim * Count(8 / s.elem)) + ctx * h + n * f * h;
  w.trained += if_trains(t, "proj_out", n * h);
  const Count per_block = n * wan_kept(c, f) + ctx * (f + 2) * h;  // + the context's k (fp32 RMSNorm upcast) and v
  const Count largest = n * std::max({Count(c.ffn), f * h, c.per_token_time ? Count(6) * f * h : Count(0)});
  for (Count i = 0; i < c.layers; i += 1) add_module(w, s.checkpointed, per_block, n * wan_trained(c, t, f), n * h, largest);
  w.transients.push_back({"RoPE in float64", n, Count(12) * h / s.elem,
                           "elements/token (x1·cos, x2·sin and their difference: 3 × hidden/2 × 8 B)"});
  w.transients.push_back({"SDPA backward", n, (Count(4) + f) * h,
                           "elements/token (output gradient, dq, dk, dv and the fp32 dq accumulator)"});
  return w;
}

Walk walk(const Component& d, const TrainShape& s, const TrainedModules& t) {
  switch (d.kind) {
    case ComponentKind::unet: return unet_walk(d, s, t);
    case ComponentKind::wan_dit: return wan_walk(d, s, t);
    default: return dit_walk(d, s, t);
  }
}

std::string_view train_source(ComponentKind k) {
  switch (k) {
    case ComponentKind::unet: return kUnetTrainSource;
    case ComponentKind::flux: return kFluxTrainSource;
    case ComponentKind::wan_dit: return kWanTrainSource;
    default: return kMmditTrainSource;
  }
}

bool ends_with_path(std::string_view s, std::string_view tail) {
  return s.size() > tail.size() && s.substr(s.size() - tail.size()) == tail && s[s.size() - tail.size() - 1] == '.';
}

}  // namespace

bool TrainedModules::trains(std::string_view module) const {
  if (full) return true;
  for (const auto& t : targets)
    if (module == t || ends_with_path(module, t) || ends_with_path(t, module)) return true;
  return false;
}

bool trains_denoiser(ComponentKind k) {
  return k == ComponentKind::unet || k == ComponentKind::flux || k == ComponentKind::mmdit || k == ComponentKind::wan_dit;
}

Term denoiser_saved_activations(const Component& d, const TrainShape& s, const TrainedModules& trained) {
  const Walk w = walk(d, s, trained);
  Terms parts;
  parts.push_back(Term::product({Factor::of(s.batch, "samples"), Factor::of(w.always, "elements per sample"),
                                 Factor::bytes(s.elem)})
                      .named(s.checkpointed ? "block inputs and the ops between checkpointed blocks"
                                            : "kept by every op (norm, activation and attention inputs, residual sums)"));
  if (w.trained > 0)
    parts.push_back(Term::product({Factor::of(s.batch, "samples"), Factor::of(w.trained, "elements per sample"),
                                   Factor::bytes(s.elem)})
                        .named("inputs of the layers that train"));
  return Term::sum(std::move(parts)).cite(train_source(d.kind)).noted(kSavedRule);
}

Term denoiser_backward_working(const Component& d, const TrainShape& s, const TrainedModules& trained) {
  const Walk w = walk(d, s, trained);
  Terms parts;
  Term gradients = Term::product({Factor::of(2, "(gradient in + gradient out)"), Factor::of(s.batch, "samples"),
                                  Factor::of(w.largest, "elements of the largest activation"), Factor::bytes(s.elem)})
                       .named("activation gradients");
  if (w.transients.empty()) {
    parts.push_back(std::move(gradients));
  } else {
    Terms ops;
    ops.push_back(std::move(gradients));
    for (const Transient& x : w.transients)
      ops.push_back(Term::product({Factor::of(s.batch, "samples"), Factor::of(x.tokens, "tokens"),
                                   Factor::of(x.per_token, x.unit), Factor::bytes(s.elem)})
                        .named(x.what));
    parts.push_back(Term::max_of(std::move(ops)).named("the largest op's working set"));
  }
  if (s.checkpointed)
    parts.push_back(Term::product({Factor::of(s.batch, "samples"), Factor::of(w.block, "elements of the largest block"),
                                   Factor::bytes(s.elem)})
                        .named("one block recomputed"));
  return Term::sum(std::move(parts))
      .cite("PyTorch v2.5 torch/utils/checkpoint.py (a checkpointed block's forward re-runs in its backward, keeping "
            "its saved set until its gradients are computed); autograd holds an op's output gradient while it "
            "computes its input gradient");
}

Term text_encoder_saved_activations(const Component& c, std::int64_t prompts, std::int64_t elem,
                                    const TrainedModules& t) {
  const ComponentConfig& k = c.config;
  const Count h = k.hidden, ffn = k.ffn;
  Count trained = 0;
  if (t.trains("self_attn.q_proj") || t.trains("self_attn.k_proj") || t.trains("self_attn.v_proj")) trained += h;
  trained += if_trains(t, "self_attn.out_proj", h) + if_trains(t, "mlp.fc1", h) + if_trains(t, "mlp.fc2", ffn);
  const Count per_token = Count(6) * h + Count(2) * ffn + trained;
  return Term::product({Factor::of(Count(prompts) * k.tokens, "tokens"), Factor::of(k.layers, "layers"),
                        Factor::of(per_token, "elements per token per layer (q, k, v, out, residuals, quick_gelu "
                                              "input and sigmoid; inputs of the trained layers)"),
                        Factor::bytes(elem)})
      .named("text encoder saved activations")
      .cite(kClipTrainSource)
      .noted(kSavedRule);
}

namespace {

void unet_modules(const ComponentConfig& c, std::vector<AdaptableModule>& out) {
  const std::size_t L = c.block_channels.size();
  for (std::size_t l = 0; l < L; ++l) {
    const std::int64_t layers = l < c.attention_layers.size() ? c.attention_layers[l] : 0;
    Count blocks = Count(layers) * (2 * c.layers_per_block + 1);  // down and up blocks
    if (l + 1 == L) blocks += std::max<std::int64_t>(1, layers);  // the mid block at the lowest level
    if (blocks == 0) continue;
    const std::int64_t C = c.block_channels[l];
    const Count wrappers = l + 1 == L ? Count(layers > 0 ? 2 * c.layers_per_block + 2 : 1)
                                      : Count(layers > 0 ? 2 * c.layers_per_block + 1 : 0);
    for (std::string_view n : {"attn1.to_q", "attn1.to_k", "attn1.to_v", "attn1.to_out.0", "attn2.to_q", "attn2.to_out.0"})
      out.push_back({n, C, C, blocks});
    out.push_back({"attn2.to_k", c.cross_dim, C, blocks});
    out.push_back({"attn2.to_v", c.cross_dim, C, blocks});
    out.push_back({"ff.net.0.proj", C, 8 * C, blocks});
    out.push_back({"ff.net.2", 4 * C, C, blocks});
    out.push_back({"proj_in", C, C, wrappers});
    out.push_back({"proj_out", C, C, wrappers});
  }
}

void flux_modules(const ComponentConfig& c, std::vector<AdaptableModule>& out) {
  const std::int64_t h = c.hidden, f = c.ffn, nd = c.layers, ns = c.single_layers;
  for (std::string_view n : {"attn.to_q", "attn.to_k", "attn.to_v", "attn.to_out.0", "attn.add_q_proj",
                             "attn.add_k_proj", "attn.add_v_proj", "attn.to_add_out"})
    out.push_back({n, h, h, nd});
  for (std::string_view n : {"ff.net.0.proj", "ff_context.net.0.proj"}) out.push_back({n, h, f, nd});
  for (std::string_view n : {"ff.net.2", "ff_context.net.2"}) out.push_back({n, f, h, nd});
  out.push_back({"norm1.linear", h, 6 * h, nd});
  out.push_back({"norm1_context.linear", h, 6 * h, nd});
  for (std::string_view n : {"attn.to_q", "attn.to_k", "attn.to_v"}) out.push_back({n, h, h, ns});
  out.push_back({"proj_mlp", h, f, ns});
  out.push_back({"proj_out", h + f, h, ns});
  out.push_back({"norm.linear", h, 3 * h, ns});
}

void mmdit_modules(const ComponentConfig& c, std::vector<AdaptableModule>& out) {
  const std::int64_t h = c.hidden, f = c.ffn, n = c.layers;
  for (std::string_view m : {"attn.to_q", "attn.to_k", "attn.to_v", "attn.to_out.0", "attn.add_q_proj",
                             "attn.add_k_proj", "attn.add_v_proj"})
    out.push_back({m, h, h, n});
  out.push_back({"attn.to_add_out", h, h, n - 1});  // the last block is context-pre-only
  out.push_back({"ff.net.0.proj", h, f, n});
  out.push_back({"ff.net.2", f, h, n});
  out.push_back({"ff_context.net.0.proj", h, f, n - 1});
  out.push_back({"ff_context.net.2", f, h, n - 1});
  out.push_back({"norm1.linear", h, 6 * h, n});
}

void wan_modules(const ComponentConfig& c, std::vector<AdaptableModule>& out) {
  const std::int64_t h = c.hidden, n = c.layers;
  for (std::string_view m : {"attn1.to_q", "attn1.to_k", "attn1.to_v", "attn1.to_out.0", "attn2.to_q", "attn2.to_k",
                             "attn2.to_v", "attn2.to_out.0"})
    out.push_back({m, h, h, n});
  if (c.image_cond)
    for (std::string_view m : {"attn2.add_k_proj", "attn2.add_v_proj"}) out.push_back({m, h, h, n});
  out.push_back({"ffn.net.0.proj", h, c.ffn, n});
  out.push_back({"ffn.net.2", c.ffn, h, n});
  out.push_back({"proj_out", h, checked::product(c.out_channels, c.patch[0], c.patch[1], c.patch[2]), 1});
}

void clip_modules(const ComponentConfig& c, std::vector<AdaptableModule>& out) {
  for (std::string_view m : {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.out_proj"})
    out.push_back({m, c.hidden, c.hidden, c.layers});
  out.push_back({"mlp.fc1", c.hidden, c.ffn, c.layers});
  out.push_back({"mlp.fc2", c.ffn, c.hidden, c.layers});
}

}  // namespace

std::vector<AdaptableModule> adaptable_modules(const Component& c) {
  std::vector<AdaptableModule> out;
  switch (c.kind) {
    case ComponentKind::unet: unet_modules(c.config, out); break;
    case ComponentKind::flux: flux_modules(c.config, out); break;
    case ComponentKind::mmdit: mmdit_modules(c.config, out); break;
    case ComponentKind::wan_dit: wan_modules(c.config, out); break;
    case ComponentKind::clip_text: clip_modules(c.config, out); break;
    default: break;
  }
  return out;
}

TrainableSet lora_adapters(const std::vector<AdaptableModule>& modules, const TrainedModules& trained, std::int64_t rank) {
  TrainableSet set;
  for (const auto& m : modules) {
    if (!trained.trains(m.name) || m.count <= 0) continue;
    set.blocks.push_back({rank, checked::product(m.in, m.kernel, m.kernel), m.count});  // lora_A
    set.blocks.push_back({m.out, rank, m.count});                                       // lora_B
  }
  return set;
}

}  // namespace vram::generation
