// HunyuanVideo components read from their repository's config.json, and their
// parameter inventories; a decoder-only language model used as a text encoder
// is read and inventoried by the core's own config.json reader.
//
// Layouts read (facts only) from diffusers v0.35.0 (f27949da):
// transformers/transformer_hunyuan_video.py (HunyuanVideoTransformer3DModel,
// HunyuanVideoTokenRefiner, HunyuanVideoIndividualTokenRefinerBlock,
// HunyuanVideoConditionEmbedding, HunyuanVideoTransformerBlock,
// HunyuanVideoSingleTransformerBlock), attention_processor.py Attention (qk_norm
// "rms_norm": a head_dim RMSNorm per q and k, and per added q and k), attention.py
// FeedForward ("linear-silu", "gelu-approximate"), normalization.py AdaLayerNormZero,
// AdaLayerNormZeroSingle, AdaLayerNormContinuous; autoencoders/
// autoencoder_kl_hunyuan_video.py (HunyuanVideoEncoder3D, HunyuanVideoDecoder3D,
// HunyuanVideoMidBlock3D, HunyuanVideoResnetBlockCausal3D, quant convs).
// HunyuanVideo-1.5 from diffusers @58eb52c (0.40.0.dev0): transformers/
// transformer_hunyuan_video15.py (HunyuanVideo15Transformer3DModel and its blocks) and
// autoencoders/autoencoder_kl_hunyuanvideo15.py (AutoencoderKLHunyuanVideo15).
#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

void read_hunyuan(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "HunyuanVideoTransformer3DModel");
  c.heads = io::optional_int(j, "num_attention_heads", path, {1, 1024}).value_or(24);
  c.head_dim = io::optional_int(j, "attention_head_dim", path, {1, 4096}).value_or(128);
  c.hidden = checked::mul(c.heads, c.head_dim);
  const double ratio = io::optional_number(j, "mlp_ratio", path, 1.0, 16.0).value_or(4.0);
  c.ffn = static_cast<std::int64_t>(static_cast<double>(c.hidden) * ratio);  // int(hidden_size * mlp_ratio)
  c.layers = io::optional_int(j, "num_layers", path, {0, 1024}).value_or(20);
  c.single_layers = io::optional_int(j, "num_single_layers", path, {0, 1024}).value_or(40);
  c.refiner_layers = io::optional_int(j, "num_refiner_layers", path, {0, 64}).value_or(2);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 4096}).value_or(16);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 4096}).value_or(c.in_channels);
  c.text_dim = io::optional_int(j, "text_embed_dim", path, kWidth).value_or(4096);
  c.pooled_dim = io::optional_int(j, "pooled_projection_dim", path, kWidth).value_or(768);
  c.freq_dim = 256;  // Timesteps(num_channels=256)
  c.guidance_embed = io::optional_bool(j, "guidance_embeds", path).value_or(true);
  const std::int64_t p = io::optional_int(j, "patch_size", path, {1, 16}).value_or(2);
  c.patch = {io::optional_int(j, "patch_size_t", path, {1, 16}).value_or(1), p, p};
  const auto qk = io::optional_string(j, "qk_norm", path);
  if (qk && *qk != "rms_norm")
    throw InputError(path + "/qk_norm", "is \"" + *qk + "\"; the hunyuan_video kind has \"rms_norm\" on q and k");
  // I2V: "latent_concat" widens the patch embedding (in_channels, counted); "token_replace" modulates the first
  // frame's tokens from a second pass of the same embedders and norms (HunyuanVideoConditionEmbedding,
  // HunyuanVideoTokenReplace*Block): no parameter of its own.
  if (const auto it = j.find("image_condition_type"); it != j.end() && !it->is_null())
    if (!it->is_string() || (*it != "latent_concat" && *it != "token_replace"))
      throw InputError(path + "/image_condition_type", "allowed: null, \"latent_concat\", \"token_replace\"");
  if (c.layers + c.single_layers < 1)
    throw InputError(path + "/num_layers", "the transformer needs at least one dual- or single-stream block");
}

namespace {

/// The keys both HunyuanVideo VAEs read, with each class's defaults for its channels, latent and spatial ratio.
void read_hunyuan_vae_shape(const json& j, const std::string& path, ComponentConfig& c,
                            std::vector<std::int64_t> channels, std::int64_t latent, std::int64_t spatial) {
  c.block_channels = int_list(j, "block_out_channels", path, 0, std::move(channels));
  c.layers_per_block = io::optional_int(j, "layers_per_block", path, {1, 16}).value_or(2);
  c.latent_channels = io::optional_int(j, "latent_channels", path, {1, 1024}).value_or(latent);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(3);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 64}).value_or(3);
  c.spatial = io::optional_int(j, "spatial_compression_ratio", path, {1, 64}).value_or(spatial);
  c.temporal = io::optional_int(j, "temporal_compression_ratio", path, {1, 64}).value_or(4);
}

}  // namespace

void read_hunyuan_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKLHunyuanVideo");
  read_hunyuan_vae_shape(j, path, c, {128, 256, 512, 512}, 16, 8);
  if (c.temporal != 4)
    throw InputError(path + "/temporal_compression_ratio", "the HunyuanVideo decoder is built for 4 only (diffusers "
                                                           "raises otherwise); allowed: 4");
  if ((c.spatial & (c.spatial - 1)) != 0 || (Count(1) << (c.block_channels.size() - 1)) < c.spatial)
    throw InputError(path + "/spatial_compression_ratio", "must be a power of 2 reached by the levels that "
                                                          "downsample (one per level but the last)");
  c.mid_attention = io::optional_bool(j, "mid_block_add_attention", path).value_or(true);
}

void read_llama_text(const json& j, const std::string& path, ComponentConfig& c) {
  const Model m = model_from_config(j, path, "text_encoder");
  const Architecture& a = m.arch;
  if (a.family != Family::decoder || a.experts > 0)
    throw InputError(path + "/model_type", "a llama_text component is a dense decoder-only language model (Llama, "
                                           "Mistral, Qwen); got \"" + a.model_type + "\"");
  c.hidden = a.hidden;
  c.ffn = a.intermediate;
  c.layers = a.layers;
  c.heads = a.heads;
  c.head_dim = a.head_dim;
  c.vocab = a.vocab;
  c.language_model = std::make_shared<const Architecture>(a);
}

namespace {

/// HunyuanVideoTokenRefiner: its own timestep + pooled-text embedding, proj_in
/// and refiner blocks (affine LayerNorms, self-attention with biases, a
/// "linear-silu" feed-forward, an AdaNorm gate Linear(dim, 2 dim)).
void add_refiner(Inventory& inv, const ComponentConfig& c) {
  const Count d = c.hidden, R = c.refiner_layers, f = Count(c.hidden) * 4;  // refiner mlp_ratio 4.0 (its default)
  add(inv, c.freq_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, c.text_dim, d, 1);  // pooled text (the mean of the encoder states)
  add(inv, d, d, 1);
  add(inv, c.text_dim, d, 1);  // proj_in
  add(inv, d, d, 4 * R);
  add(inv, d, f, R);
  add(inv, f, d, R);
  add(inv, d, 2 * d, R);
  inv.other = Count(inv.other) + R * 4 * d;
}

/// Dual-stream blocks (HunyuanVideoTransformerBlock, HunyuanVideo15TransformerBlock): two AdaLayerNormZero,
/// q/k/v/out for both streams with biases, head_dim RMSNorms on q, k and the added q, k, two GELU feed-forwards.
void add_dual_blocks(Inventory& inv, const ComponentConfig& c) {
  const Count d = c.hidden, L = c.layers, f = c.ffn;
  add(inv, d, 6 * d, 2 * L);
  add(inv, d, d, 8 * L);
  add(inv, d, f, 2 * L);
  add(inv, f, d, 2 * L);
  inv.other = Count(inv.other) + L * 4 * c.head_dim;
}

}  // namespace

Inventory hunyuan_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, S = c.single_layers, f = c.ffn;
  const Count patch = Count(c.patch[0]) * c.patch[1] * c.patch[2];
  inv.other = Count(c.in_channels) * patch * d + d;  // Conv3d patch embedding
  add_refiner(inv, c);
  add(inv, c.freq_dim, d, c.guidance_embed ? 2 : 1);  // timestep (and guidance) embedders
  add(inv, d, d, c.guidance_embed ? 2 : 1);
  add(inv, c.pooled_dim, d, 1);  // CLIP pooled projection
  add(inv, d, d, 1);
  add_dual_blocks(inv, c);
  // Single-stream blocks: AdaLayerNormZeroSingle, q/k/v (pre_only), proj_mlp, proj_out over [attention, mlp].
  add(inv, d, 3 * d, S);
  add(inv, d, d, 3 * S);
  add(inv, d, f, S);
  add(inv, d + f, d, S);
  inv.other = Count(inv.other) + S * 2 * c.head_dim;  // the single-stream blocks' q/k RMSNorms
  add(inv, d, 2 * d, 1);                              // norm_out
  add(inv, d, Count(c.out_channels) * patch, 1);      // proj_out
  return inv;
}

namespace {

/// Whether level `i` (encoder order) down- or upsamples: spatially on the first
/// log2(spatial) levels, in time on the two levels before the last (temporal 4).
bool hy_scales(const ComponentConfig& c, std::size_t i) {
  std::size_t spatial_levels = 0;
  for (std::int64_t s = c.spatial; s > 1; s /= 2) ++spatial_levels;
  const std::size_t n = c.block_channels.size();
  return i < spatial_levels || (i + 3 >= n && i + 1 < n);
}

/// HunyuanVideoResnetBlockCausal3D: affine GroupNorms, two 3×3×3 causal convs,
/// a 1×1×1 shortcut when the width changes.
Count hy_resnet(Count in, Count out) {
  Count n = 2 * in + conv3(in, out) + 2 * out + conv3(out, out);
  if (in != out) n += in * out + out;
  return n;
}

/// Mid block: resnet, (single-head self-attention with its GroupNorm, q/k/v/out with biases), resnet.
Count hy_mid(Count c, bool attention) {
  return 2 * hy_resnet(c, c) + (attention ? 2 * c + 4 * (c * c + c) : Count(0));
}

Count hy_encoder(const ComponentConfig& c) {
  const auto& ch = c.block_channels;
  const std::size_t n = ch.size();
  Count total = conv3(c.in_channels, ch[0]);
  Count out = ch[0];
  for (std::size_t i = 0; i < n; ++i) {
    const Count in = out;
    out = ch[i];
    total += hy_resnet(in, out) + Count(c.layers_per_block - 1) * hy_resnet(out, out);
    if (hy_scales(c, i)) total += conv3(out, out);  // the downsampler
  }
  return total + hy_mid(out, c.mid_attention) + 2 * out + conv3(out, 2 * Count(c.latent_channels));
}

Count hy_decoder(const ComponentConfig& c) {
  const std::vector<std::int64_t> ch(c.block_channels.rbegin(), c.block_channels.rend());
  Count total = conv3(c.latent_channels, ch[0]) + hy_mid(ch[0], c.mid_attention);
  Count out = ch[0];
  for (std::size_t i = 0; i < ch.size(); ++i) {
    const Count in = out;
    out = ch[i];
    total += hy_resnet(in, out) + Count(c.layers_per_block) * hy_resnet(out, out);  // layers_per_block + 1 resnets
    if (hy_scales(c, i)) total += conv3(out, out);                                // the upsampler's conv
  }
  return total + 2 * out + conv3(out, c.out_channels);
}

}  // namespace

Inventory hunyuan_vae(const ComponentConfig& c) {
  Inventory inv;
  const Count z = c.latent_channels;
  inv.other = Count(hy_encoder(c)) + hy_decoder(c) + (4 * z * z + 2 * z) + (z * z + z);  // + quant_conv, post_quant_conv
  return inv;
}

void read_hunyuan15(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "HunyuanVideo15Transformer3DModel");
  read_attention_width(j, path, c, 16, 128);  // __init__ defaults: 16 heads × 128
  const double ratio = io::optional_number(j, "mlp_ratio", path, 1.0, 16.0).value_or(4.0);
  c.ffn = static_cast<std::int64_t>(static_cast<double>(c.hidden) * ratio);  // FeedForward(mult=mlp_ratio)
  c.layers = io::optional_int(j, "num_layers", path, {1, 1024}).value_or(54);
  c.refiner_layers = io::optional_int(j, "num_refiner_layers", path, {0, 64}).value_or(2);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 4096}).value_or(65);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 4096}).value_or(32);
  c.text_dim = io::optional_int(j, "text_embed_dim", path, kWidth).value_or(3584);
  c.glyph_dim = io::optional_int(j, "text_embed_2_dim", path, kWidth).value_or(1472);
  c.image_embed_dim = io::optional_int(j, "image_embed_dim", path, kWidth).value_or(1152);
  c.freq_dim = 256;  // HunyuanVideo15TimeEmbedding: Timesteps(num_channels=256)
  if (io::optional_bool(j, "use_meanflow", path).value_or(false))
    throw InputError(path + "/use_meanflow", "true (the step-distilled image-to-video checkpoint's second timestep "
                                             "embedder) is not modelled; allowed: false");
  const std::int64_t p = io::optional_int(j, "patch_size", path, {1, 16}).value_or(1);
  c.patch = {io::optional_int(j, "patch_size_t", path, {1, 16}).value_or(1), p, p};
  const auto qk = io::optional_string(j, "qk_norm", path);
  if (qk && *qk != "rms_norm")
    throw InputError(path + "/qk_norm", "is \"" + *qk + "\"; the hunyuan_video15 kind has \"rms_norm\" on q and k");
}

void read_hunyuan15_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKLHunyuanVideo15");
  read_hunyuan_vae_shape(j, path, c, {128, 256, 512, 1024, 1024}, 32, 16);
  c.mid_attention = true;  // HunyuanVideo15MidBlock(add_attention=True), not a config key
  for (const char* key : {"downsample_match_channel", "upsample_match_channel"})
    if (!io::optional_bool(j, key, path).value_or(true))
      throw InputError(path + "/" + key, "false is not modelled (the released VAE keeps diffusers' default); allowed: true");
  const std::size_t n = c.block_channels.size();
  const auto pow2 = [](std::int64_t v) { return (v & (v - 1)) == 0; };
  if (!pow2(c.spatial) || n < 2 || (Count(1) << (n - 1)) < c.spatial)
    throw InputError(path + "/spatial_compression_ratio", "must be a power of 2 reached by the levels that resample "
                                                          "(one per level but the last: at most " +
                                                              std::to_string(n < 2 ? 1 : (std::int64_t{1} << (n - 1))) + ")");
  if (!pow2(c.temporal) || c.temporal > c.spatial)
    throw InputError(path + "/temporal_compression_ratio", "must be a power of 2 no larger than the spatial ratio "
                                                           "(time is halved only where space is)");
}

namespace {

/// HunyuanVideo15ResnetBlock: channel RMS norms (gamma only), two 3×3×3 causal convs, a 1×1×1 shortcut
/// when the width changes.
Count hy15_resnet(Count in, Count out) {
  Count n = in + conv3(in, out) + out + conv3(out, out);
  if (in != out) n += in * out + out;
  return n;
}

/// HunyuanVideo15MidBlock: resnet, attention (RMS norm, 1×1×1 q/k/v/proj_out convs with biases), resnet.
Count hy15_mid(Count c) { return 2 * hy15_resnet(c, c) + c + 4 * (c * c + c); }

std::size_t log2_of(std::int64_t v) {
  std::size_t n = 0;
  for (; v > 1; v /= 2) ++n;
  return n;
}

Count hy15_encoder(const ComponentConfig& c) {
  const auto& ch = c.block_channels;
  const std::size_t sp = log2_of(c.spatial), time_from = log2_of(c.spatial / c.temporal);
  Count total = conv3(c.in_channels, ch[0]), in = ch[0];
  for (std::size_t i = 0; i < ch.size(); ++i) {
    const Count out = ch[i];
    total += hy15_resnet(in, out) + Count(c.layers_per_block - 1) * hy15_resnet(out, out);
    in = out;
    if (i >= sp) continue;
    // HunyuanVideo15Downsample: a conv to next / (8 with time, else 4) channels, rearranged into next.
    const Count next = ch[i + 1];
    total += conv3(out, next / (i >= time_from ? 8 : 4));
    in = next;
  }
  return total + hy15_mid(ch.back()) + ch.back() + conv3(ch.back(), 2 * Count(c.latent_channels));
}

Count hy15_decoder(const ComponentConfig& c) {
  const std::vector<std::int64_t> ch(c.block_channels.rbegin(), c.block_channels.rend());
  const std::size_t sp = log2_of(c.spatial), tp = log2_of(c.temporal);
  Count total = conv3(c.latent_channels, ch[0]) + hy15_mid(ch[0]), in = ch[0];
  for (std::size_t i = 0; i < ch.size(); ++i) {
    const Count out = ch[i];
    total += hy15_resnet(in, out) + Count(c.layers_per_block) * hy15_resnet(out, out);  // layers_per_block + 1
    in = out;
    if (i >= sp && i >= tp) continue;
    // HunyuanVideo15Upsample: a conv to next × (8 with time, else 4) channels, rearranged into next.
    const Count next = ch[i + 1];
    total += conv3(out, next * (i < tp ? 8 : 4));
    in = next;
  }
  return total + ch.back() + conv3(ch.back(), c.out_channels);
}

}  // namespace

Inventory hunyuan15_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, img = c.image_embed_dim, glyph = c.glyph_dim, glyph_hidden = 2048;  // ByT5 projection 2048
  const Count patch = Count(c.patch[0]) * c.patch[1] * c.patch[2];
  inv.other = Count(c.in_channels) * patch * d + d  // Conv3d patch embedding
              + 2 * img + 2 * d                     // image projection's LayerNorms
              + 2 * glyph                           // ByT5 projection's LayerNorm
              + 3 * d;                              // cond_type_embed: Embedding(3, inner_dim)
  add(inv, img, img, 1);  // HunyuanVideo15ImageProjection
  add(inv, img, d, 1);
  add_refiner(inv, c);
  add(inv, glyph, glyph_hidden, 1);  // HunyuanVideo15ByT5TextProjection(text_embed_2_dim, 2048, inner_dim)
  add(inv, glyph_hidden, glyph_hidden, 1);
  add(inv, glyph_hidden, d, 1);
  add(inv, c.freq_dim, d, 1);  // HunyuanVideo15TimeEmbedding
  add(inv, d, d, 1);
  add_dual_blocks(inv, c);
  add(inv, d, 2 * d, 1);                          // norm_out
  add(inv, d, Count(c.out_channels) * patch, 1);  // proj_out
  return inv;
}

Inventory hunyuan15_vae(const ComponentConfig& c) {
  Inventory inv;
  inv.other = Count(hy15_encoder(c)) + hy15_decoder(c);  // no quant convs
  return inv;
}

Inventory llama_text_inventory(const ComponentConfig& c) {
  Inventory inv;
  if (!c.language_model) return inv;
  for (const Tensor& t : tensor_inventory(*c.language_model)) {
    // AutoModel / LlamaModel: the decoder stack only; a *ForConditionalGeneration model keeps its head.
    if (t.role == TensorRole::lm_head && !c.conditional_generation) continue;
    const Count copies = Count(t.count) * t.layers;
    if (t.quantizable)
      inv.linear.push_back({t.cols, t.rows, copies, false, false});
    else
      inv.other = Count(inv.other) + t.elements();
  }
  return inv;
}

}  // namespace vram::generation::hf
