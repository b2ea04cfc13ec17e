// Mochi components read from their repository's config.json, and their
// parameter inventories.
//
// Layouts read (facts only) from diffusers v0.35.0 (f27949da):
// transformers/transformer_mochi.py (MochiTransformer3DModel, MochiTransformerBlock:
// MochiRMSNormZero, the last block's MochiLayerNormContinuous, SwiGLU feed-forwards
// of (4 × dim × 2) // 3), attention_processor.py MochiAttention (bias-free video
// q/k/v, context k/v/q from the 1536-wide stream, per-head RMSNorm weights),
// embeddings.py MochiCombinedTimestepCaptionEmbedding and MochiAttentionPool,
// PatchEmbed; autoencoders/autoencoder_kl_mochi.py (MochiEncoder3D,
// MochiDecoder3D, MochiDownBlock3D, MochiUpBlock3D, MochiMidBlock3D,
// MochiResnetBlock3D, MochiChunkedGroupNorm3D).
#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/units.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

namespace {

std::vector<std::int64_t> ints(const json& j, std::string_view key, const std::string& path, std::size_t n,
                               std::vector<std::int64_t> fallback) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  const std::string p = io::join_path(path, key);
  if (!it->is_array() || it->size() != n) throw InputError(p, "must list " + std::to_string(n) + " positive integers");
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(*it)[i].is_number_integer() || (*it)[i].get<std::int64_t>() < 1 || (*it)[i].get<std::int64_t>() > 100'000)
      throw InputError(p + "/" + std::to_string(i), "must be a positive integer");
    out.push_back((*it)[i].get<std::int64_t>());
  }
  return out;
}

}  // namespace

void read_mochi(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "MochiTransformer3DModel");
  c.heads = io::optional_int(j, "num_attention_heads", path, {1, 1024}).value_or(24);
  c.head_dim = io::optional_int(j, "attention_head_dim", path, {1, 4096}).value_or(128);
  c.hidden = checked::mul(c.heads, c.head_dim);
  c.ffn = checked::mul(c.hidden, 8) / 3;  // (4 × dim × 2) // 3, the SwiGLU inner width
  c.layers = io::optional_int(j, "num_layers", path, {1, 1024}).value_or(48);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 4096}).value_or(12);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 4096}).value_or(c.in_channels);  // null: in_channels
  c.pooled_dim = io::optional_int(j, "pooled_projection_dim", path, {1, 1'000'000}).value_or(1536);
  c.text_dim = io::optional_int(j, "text_embed_dim", path, {1, 1'000'000}).value_or(4096);
  c.freq_dim = io::optional_int(j, "time_embed_dim", path, {1, 100'000}).value_or(256);
  const std::int64_t p = io::optional_int(j, "patch_size", path, {1, 16}).value_or(2);
  c.patch = {1, p, p};
  const auto qk = io::optional_string(j, "qk_norm", path);
  if (qk && *qk != "rms_norm")
    throw InputError(path + "/qk_norm", "is \"" + *qk + "\"; MochiAttention has \"rms_norm\" on q and k");
  const auto act = io::optional_string(j, "activation_fn", path);
  if (act && *act != "swiglu")
    throw InputError(path + "/activation_fn", "is \"" + *act + "\"; the mochi_dit kind has SwiGLU feed-forwards");
  if (c.text_dim % 8 != 0)
    throw InputError(path + "/text_embed_dim", "must divide by the attention pool's 8 heads");
}

void read_mochi_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKLMochi");
  c.block_channels = ints(j, "encoder_block_out_channels", path, 4, {64, 128, 256, 384});
  c.decoder_channels = ints(j, "decoder_block_out_channels", path, 4, {128, 256, 512, 768});
  c.encoder_layers = ints(j, "layers_per_block", path, 5, {3, 3, 4, 6, 3});
  c.time_factors = ints(j, "temporal_expansions", path, 3, {1, 2, 3});
  c.space_factors = ints(j, "spatial_expansions", path, 3, {2, 2, 2});
  c.attention_levels = {false, true, true, true, true};
  if (const auto it = j.find("add_attention_block"); it != j.end()) {
    if (!it->is_array() || it->size() != 5) throw InputError(path + "/add_attention_block", "must list 5 booleans");
    c.attention_levels.clear();
    for (const auto& v : *it) c.attention_levels.push_back(v.is_boolean() && v.get<bool>());
  }
  c.layers_per_block = c.encoder_layers.front();
  c.latent_channels = io::optional_int(j, "latent_channels", path, {1, 1024}).value_or(12);
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(15);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 64}).value_or(3);
  c.spatial = 1;
  c.temporal = 1;
  for (std::size_t i = 0; i < 3; ++i) {
    c.spatial = checked::mul(c.spatial, c.space_factors[i]);
    c.temporal = checked::mul(c.temporal, c.time_factors[i]);
  }
  if (c.spatial > 64 || c.temporal > 64)
    throw InputError(path + "/spatial_expansions", "the product of the expansions must be at most 64");
}

namespace {

/// One MochiTransformerBlock; the last one is context-pre-only (no context
/// output projection or feed-forward, a MochiLayerNormContinuous on the context).
void add_mochi_blocks(Inventory& inv, const ComponentConfig& c) {
  const Count d = c.hidden, P = c.pooled_dim, L = c.layers, f = c.ffn, fc = Count(c.pooled_dim) * 8 / 3;
  add(inv, d, 4 * d, L);            // norm1 (MochiRMSNormZero)
  add(inv, d, 4 * P, L - 1);        // norm1_context
  add(inv, d, P, 1);                // the last block's norm1_context.linear_1
  add(inv, d, d, 3 * L, false);     // to_q, to_k, to_v
  add(inv, P, d, 3 * L, false);     // add_q_proj, add_k_proj, add_v_proj
  add(inv, d, d, L);                // to_out
  add(inv, d, P, L - 1);            // to_add_out
  add(inv, d, 2 * f, L, false);     // SwiGLU proj
  add(inv, f, d, L, false);
  add(inv, P, 2 * fc, L - 1, false);  // ff_context
  add(inv, fc, P, L - 1, false);
  inv.other = Count(inv.other) + L * 4 * c.head_dim;  // norm_q, norm_k, norm_added_q, norm_added_k
}

}  // namespace

Inventory mochi_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, T = c.text_dim;
  inv.other = Count(c.in_channels) * c.patch[1] * c.patch[2] * d + d;  // PatchEmbed Conv2d
  add(inv, c.freq_dim, d, 1);  // timestep_embedder
  add(inv, d, d, 1);
  add(inv, T, 2 * T, 1);  // attention pool to_kv, to_q, to_out
  add(inv, T, T, 1);
  add(inv, T, d, 1);
  add(inv, T, c.pooled_dim, 1);                                             // caption_proj
  inv.other = Count(inv.other) + Count(3) * c.heads * (c.head_dim / 2);     // pos_frequencies
  add_mochi_blocks(inv, c);
  add(inv, d, 2 * d, 1);                                                    // norm_out
  add(inv, d, Count(c.out_channels) * c.patch[1] * c.patch[2], 1);          // proj_out
  return inv;
}

namespace {

/// MochiResnetBlock3D: two chunked GroupNorms (affine) and two 3×3×3 causal convs.
Count mochi_resnet(Count c) { return 2 * (2 * c + conv(c, c, 27)); }

/// A chunked GroupNorm and a causal temporal attention (heads of 32; bias-free q/k/v, l2 q/k norm, biased out).
Count mochi_attention(Count c) { return 2 * c + 4 * c * c + c; }

Count mochi_encoder(const ComponentConfig& c) {
  const auto& ch = c.block_channels;
  const auto& L = c.encoder_layers;
  Count n = conv(c.in_channels, ch[0], 1);  // proj_in (Linear over channels)
  n += Count(L[0]) * (mochi_resnet(ch[0]) + (c.attention_levels[0] ? mochi_attention(ch[0]) : Count(0)));
  for (std::size_t i = 0; i + 1 < ch.size(); ++i) {
    const Count k = Count(c.time_factors[i]) * c.space_factors[i] * c.space_factors[i];
    n += conv(ch[i], ch[i + 1], k);  // conv_in with kernel = stride = the expansions
    n += Count(L[i + 1]) * (mochi_resnet(ch[i + 1]) + (c.attention_levels[i + 1] ? mochi_attention(ch[i + 1]) : Count(0)));
  }
  const Count top = ch.back();
  n += Count(L.back()) * (mochi_resnet(top) + (c.attention_levels.back() ? mochi_attention(top) : Count(0)));
  return n + 2 * top + top * 2 * Count(c.latent_channels);  // norm_out, bias-free proj_out
}

Count mochi_decoder(const ComponentConfig& c) {
  const auto& ch = c.decoder_channels;
  const auto& L = c.encoder_layers;
  const std::size_t n = ch.size();
  Count total = conv(c.latent_channels, ch[n - 1], 1) + Count(L[n]) * mochi_resnet(ch[n - 1]);  // conv_in, block_in
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const Count in = ch[n - 1 - i], out = ch[n - 2 - i];
    const Count t = c.time_factors[n - 2 - i], s = c.space_factors[n - 2 - i];
    total += Count(L[n - 1 - i]) * mochi_resnet(in) + conv(in, out * t * s * s, 1);  // resnets, proj
  }
  return total + Count(L[0]) * mochi_resnet(ch[0]) + conv(ch[0], c.out_channels, 1);  // block_out, proj_out
}

}  // namespace

Inventory mochi_vae(const ComponentConfig& c) {
  Inventory inv;
  inv.other = Count(mochi_encoder(c)) + mochi_decoder(c);
  return inv;
}

}  // namespace vram::generation::hf
