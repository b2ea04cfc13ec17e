// Parameter inventories of pipeline components, from their configuration.
//
// Each function lists the nn.Linear layers of one architecture (what
// bitsandbytes, torchao, quanto and GGUF convert) and counts everything else
// (embeddings, norms, convolutions, biases, modulation tables). The totals are
// checked against the published parameter count of each pipeline file.
#include <utility>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/units.hpp"

namespace vram::generation {

using checked::Count;

std::int64_t Inventory::params() const {
  Count n = other;
  for (const auto& g : linear) n += Count(g.count) * g.in * g.out;
  return n;
}

std::int64_t Inventory::linear_weights() const {
  Count n = 0;
  for (const auto& g : linear)
    if (!g.keep) n += Count(g.count) * g.in * g.out;
  return n;
}

std::int64_t Inventory::kept_linear_weights() const {
  Count n = 0;
  for (const auto& g : linear)
    if (g.keep) n += Count(g.count) * g.in * g.out;
  return n;
}

namespace {

/// Adds `count` linear layers; their biases go to `other`.
void add(Inventory& inv, std::int64_t in, std::int64_t out, std::int64_t count, bool bias = true, bool keep = false) {
  inv.linear.push_back({in, out, count, bias, keep});
  if (bias) inv.other = Count(inv.other) + Count(count) * out;
}

/// CLIPTextModel[WithProjection] (transformers v4.56 modeling_clip.py): token
/// and position embeddings, per layer q/k/v/out + fc1/fc2 and two LayerNorms,
/// a final LayerNorm and the optional bias-free text_projection.
Inventory clip_text(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden;
  inv.other = Count(c.vocab) * d + Count(c.positions) * d + Count(c.layers) * 4 * d + 2 * d;
  add(inv, d, d, Count(c.layers) * 4);
  add(inv, d, c.ffn, c.layers);
  add(inv, c.ffn, d, c.layers);
  if (c.projection > 0) add(inv, d, c.projection, 1, false);
  return inv;
}

/// T5EncoderModel (transformers v4.56 modeling_t5.py): shared embedding, per
/// layer bias-free q/k/v/o, gated-GELU wi_0/wi_1/wo and two RMS norms, one
/// relative-position bias (umT5: one per layer) and the final norm. `wo` is in
/// `_keep_in_fp32_modules`, so quantizers leave it unconverted.
Inventory t5_encoder(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden;
  const Count inner = Count(c.heads) * c.head_dim;
  const Count bias_tables = c.per_layer_bias ? Count(c.layers) : Count(1);
  inv.other = Count(c.vocab) * d + Count(c.layers) * 2 * d + bias_tables * 32 * c.heads + d;
  add(inv, d, inner, Count(c.layers) * 3, false);
  add(inv, inner, d, c.layers, false);
  add(inv, d, c.ffn, Count(c.layers) * 2, false);
  add(inv, c.ffn, d, c.layers, false, true);
  return inv;
}

/// FluxTransformer2DModel (diffusers v0.35 transformer_flux.py): embedders,
/// double-stream blocks (AdaLayerNormZero ×2, joint attention with added
/// projections, two GELU MLPs), single-stream blocks (AdaLayerNormZeroSingle,
/// fused MLP and attention output), AdaLayerNormContinuous and proj_out.
Inventory flux(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden;
  const Count nd = c.layers, ns = c.single_layers;
  add(inv, c.in_channels, d, 1);
  add(inv, c.freq_dim, d, c.guidance_embed ? 2 : 1);
  add(inv, d, d, c.guidance_embed ? 3 : 2);
  add(inv, c.pooled_dim, d, 1);
  add(inv, c.text_dim, d, 1);
  add(inv, d, 6 * d, nd * 2);
  add(inv, d, d, nd * 8);
  add(inv, d, c.ffn, nd * 2);
  add(inv, c.ffn, d, nd * 2);
  inv.other = Count(inv.other) + nd * 4 * c.head_dim + ns * 2 * c.head_dim;
  add(inv, d, 3 * d, ns);
  add(inv, d, c.ffn, ns);
  add(inv, d, d, ns * 3);
  add(inv, d + c.ffn, d, ns);
  add(inv, d, 2 * d, 1);
  add(inv, d, c.out_channels, 1);
  return inv;
}

/// q/k normalisation weights of `norms` RMSNorms over one head (diffusers v0.35
/// attention_processor.py Attention.__init__: qk_norm "rms_norm" makes norm_q and
/// norm_k, and norm_added_q and norm_added_k where the attention has added
/// projections; normalization.py RMSNorm: a head_dim weight, no bias).
Count qk_norm_weights(const ComponentConfig& c, Count norms) {
  return c.qk_norm == QkNorm::rms_norm ? norms * c.head_dim : Count(0);
}

/// SD3's positional table (diffusers v0.35 embeddings.py PatchEmbed with
/// pos_embed_max_size): a persistent buffer [1, max², dim], stored in the
/// checkpoint and loaded in torch_dtype (model_loading_utils.py
/// load_model_dict_into_meta casts every floating tensor of the state dict).
Count sd3_pos_embed(const ComponentConfig& c) {
  return Count(c.pos_embed_max_size) * c.pos_embed_max_size * c.hidden;
}

/// SD3Transformer2DModel (diffusers v0.35 transformer_sd3.py): patch
/// embedding, timestep and pooled-text embedders, context embedder, joint
/// blocks (AdaLayerNormZero for both streams, joint attention with added
/// projections, two GELU MLPs) whose last one is context-pre-only
/// (AdaLayerNormContinuous, no context output or MLP), norm_out and proj_out.
/// SD3.5 (attention.py JointTransformerBlock): with qk_norm every joint
/// attention has four RMSNorms (the last block keeps its added q/k
/// projections, so its added norms too); a block in dual_attention_layers
/// (MMDiT-X) has SD35AdaLayerNormZeroX (Linear(dim, 9 × dim) instead of
/// 6 × dim) and attn2, a self-attention on the image stream (q, k, v, out
/// with biases, norm_q and norm_k).
Inventory mmdit(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers;
  const Count dual = static_cast<std::int64_t>(c.dual_attention_layers.size());
  const Count patch = Count(c.patch[1]) * c.patch[2];
  inv.other = Count(c.in_channels) * patch * d + d;  // Conv2d patch embedding
  add(inv, c.freq_dim, d, 1);
  add(inv, d, d, 2);
  add(inv, c.pooled_dim, d, 1);
  add(inv, c.text_dim, d, 1);
  add(inv, d, 6 * d, L * 2 - 1 - dual);
  if (dual > 0) add(inv, d, 9 * d, dual);
  add(inv, d, 2 * d, 1);
  add(inv, d, d, L * 8 - 1 + dual * 4);
  add(inv, d, c.ffn, L * 2 - 1);
  add(inv, c.ffn, d, L * 2 - 1);
  add(inv, d, 2 * d, 1);
  add(inv, d, Count(c.out_channels) * patch, 1);
  inv.other = Count(inv.other) + qk_norm_weights(c, L * 4 + dual * 2);
  inv.buffers = sd3_pos_embed(c);
  return inv;
}

/// PixArtTransformer2DModel (diffusers v0.35 pixart_transformer_2d.py; attention.py
/// BasicTransformerBlock with norm_type "ada_norm_single"; normalization.py
/// AdaLayerNormSingle; embeddings.py PixArtAlphaCombinedTimestepSizeEmbeddings,
/// PixArtAlphaTextProjection): Conv2d patch embedding; adaLN-single (timestep
/// embedder 256 → d → d, with use_additional_conditions two size embedders
/// 256 → d/3 → d/3, one shared Linear(d, 6d)); caption projection
/// caption_channels → d → d; per block a self-attention (q, k, v, out), a
/// cross-attention (q and out over d, k and v from cross_attention_dim), a
/// GELU-tanh MLP d → ffn → d, all with biases, and a 6 × d scale_shift_table
/// (its LayerNorms have no affine weights); the final 2 × d scale_shift_table
/// and proj_out. The positional table is a non-persistent fp32 buffer over the
/// (sample_size / patch)² positions of the native size.
Inventory pixart_dit(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers;
  const Count patch = Count(c.patch[1]) * c.patch[2];
  inv.other = Count(c.in_channels) * patch * d + d;  // Conv2d patch embedding
  add(inv, c.freq_dim, d, 1);
  add(inv, d, d, 1);
  if (c.use_additional_conditions) {
    add(inv, c.freq_dim, d / 3, 2);
    add(inv, d / 3, d / 3, 2);
  }
  add(inv, d, 6 * d, 1);
  add(inv, c.text_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, d, d, L * 6);
  add(inv, c.cross_dim, d, L * 2);
  add(inv, d, c.ffn, L);
  add(inv, c.ffn, d, L);
  inv.other = Count(inv.other) + L * 6 * d + 2 * d;
  add(inv, d, Count(c.out_channels) * patch, 1);
  const Count grid = c.sample_size / c.patch[1];
  inv.buffers = grid * grid * d;
  inv.buffers_fp32 = true;
  return inv;
}

/// WanModel (Wan2.1 @9737cba9 wan/modules/model.py): 3D patch embedding,
/// text and time embeddings, per block self- and cross-attention (q/k/v/o,
/// RMS q/k norms), the affine cross-attention LayerNorm, the GELU FFN and the
/// 6 × dim modulation; the head and, for I2V, k_img/v_img and img_emb.
Inventory wan_dit(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers;
  const Count patch = Count(c.patch[0]) * c.patch[1] * c.patch[2];
  inv.other = Count(c.in_channels) * patch * d + d;  // Conv3d patch embedding
  add(inv, c.text_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, c.freq_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, d, 6 * d, 1);
  add(inv, d, d, L * (c.image_cond ? 10 : 8));
  add(inv, d, c.ffn, L);
  add(inv, c.ffn, d, L);
  // q/k norms of both attentions, the cross-attention LayerNorm, modulation.
  inv.other = Count(inv.other) + L * (4 * d + 2 * d + 6 * d + (c.image_cond ? d : Count(0)));
  add(inv, d, Count(c.out_channels) * patch, 1);
  inv.other = Count(inv.other) + 2 * d;
  if (c.image_cond) {
    const Count e = c.image_embed_dim;
    add(inv, e, e, 1);
    add(inv, e, d, 1);
    inv.other = Count(inv.other) + 2 * e + 2 * d;
  }
  return inv;
}

/// QwenImageTransformer2DModel (diffusers @58eb52c transformer_qwenimage.py): img_in, an RMSNorm
/// over the text input (txt_norm) and txt_in, the timestep embedder (no pooled text, no guidance),
/// `layers` double-stream blocks (a 6 × dim modulation per stream, q/k/v and their added text
/// projections, to_out and to_add_out, all with biases, four RMSNorms over one head, a GELU MLP per
/// stream), norm_out's 2 × dim modulation and proj_out to patch² × out latent channels.
Inventory qwen_image(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers;
  add(inv, c.in_channels, d, 1);
  inv.other = Count(inv.other) + c.text_dim;  // txt_norm
  add(inv, c.text_dim, d, 1);
  add(inv, c.freq_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, d, 6 * d, 2 * L);
  add(inv, d, d, 8 * L);
  inv.other = Count(inv.other) + L * 4 * c.head_dim;
  add(inv, d, c.ffn, 2 * L);
  add(inv, c.ffn, d, 2 * L);
  add(inv, d, 2 * d, 1);
  add(inv, d, c.out_channels, 1);
  return inv;
}

void require_fields(const Component& c, const std::string& path) {
  const ComponentConfig& k = c.config;
  auto need = [&](std::int64_t v, const char* name) {
    if (v <= 0) throw InputError(path + "/config/" + name, "is required for a " + c.name + " component of this kind");
  };
  need(k.hidden, "hidden");
  need(k.layers, "layers");
  need(k.ffn, "ffn");
  if (c.kind == ComponentKind::t5_encoder) need(k.head_dim, "head_dim");
  if (c.kind == ComponentKind::mmdit) {
    for (const auto& [v, name] : {std::pair{k.in_channels, "in_channels"}, {k.out_channels, "out_channels"},
                                  {k.text_dim, "text_dim"}, {k.pooled_dim, "pooled_dim"}, {k.freq_dim, "freq_dim"}})
      need(v, name);
    if (k.qk_norm != QkNorm::none) need(k.head_dim, "head_dim");
  }
  if (c.kind == ComponentKind::qwen_image)
    for (const auto& [v, name] : {std::pair{k.in_channels, "in_channels"}, {k.out_channels, "out_channels"},
                                  {k.text_dim, "text_dim"}, {k.freq_dim, "freq_dim"}, {k.head_dim, "head_dim"}})
      need(v, name);
  if (c.kind == ComponentKind::pixart_dit)
    for (const auto& [v, name] : {std::pair{k.in_channels, "in_channels"}, {k.out_channels, "out_channels"},
                                  {k.text_dim, "text_dim"}, {k.cross_dim, "cross_dim"}, {k.freq_dim, "freq_dim"},
                                  {k.heads, "heads"}})
      need(v, name);
}

}  // namespace

Inventory inventory_of(const Component& c, const std::string& path) {
  switch (c.kind) {
    case ComponentKind::clip_text: require_fields(c, path); return clip_text(c.config);
    case ComponentKind::t5_encoder: require_fields(c, path); return t5_encoder(c.config);
    case ComponentKind::flux: require_fields(c, path); return flux(c.config);
    case ComponentKind::mmdit: require_fields(c, path); return mmdit(c.config);
    case ComponentKind::wan_dit: require_fields(c, path); return wan_dit(c.config);
    case ComponentKind::pixart_dit: require_fields(c, path); return pixart_dit(c.config);
    // Allegro's blocks are PixArt's (adaLN-single, self- and cross-attention, GELU MLP, all with biases); its
    // PatchEmbed has no positional table (pos_embed_type None: sample_size 0 leaves no buffer).
    case ComponentKind::allegro: return pixart_dit(c.config);
    case ComponentKind::vae_allegro: return hf::allegro_vae(c.config);
    case ComponentKind::cogview4: return hf::cogview4_transformer(c.config);
    case ComponentKind::hidream: return hf::hidream_transformer(c.config);
    case ComponentKind::cogvideox: return hf::cogvideox_transformer(c.config);
    case ComponentKind::vae_cogvideox: return hf::cogvideox_vae(c.config);
    case ComponentKind::ltx_video: return hf::ltx_transformer(c.config);
    case ComponentKind::vae_ltx: return hf::ltx_vae(c.config);
    case ComponentKind::hunyuan_video: return hf::hunyuan_transformer(c.config);
    case ComponentKind::vae_hunyuan: return hf::hunyuan_vae(c.config);
    case ComponentKind::hunyuan_video15: return hf::hunyuan15_transformer(c.config);
    case ComponentKind::vae_hunyuan15: return hf::hunyuan15_vae(c.config);
    case ComponentKind::stepvideo_dit: return hf::stepvideo_transformer(c.config);
    case ComponentKind::vae_stepvideo: return hf::stepvideo_vae(c.config);
    case ComponentKind::llama_text: return hf::llama_text_inventory(c.config);
    case ComponentKind::mochi_dit: return hf::mochi_transformer(c.config);
    case ComponentKind::vae_mochi: return hf::mochi_vae(c.config);
    case ComponentKind::qwen_image: require_fields(c, path); return qwen_image(c.config);
    case ComponentKind::sana: return hf::sana_transformer(c.config);
    case ComponentKind::vae_dc: return hf::dc_vae(c.config);
    case ComponentKind::clip_vision:
    case ComponentKind::unet:
    case ComponentKind::vae_2d:
    case ComponentKind::vae_3d: break;
  }
  Inventory counted;
  counted.other = c.params;
  return counted;
}

}  // namespace vram::generation
