// Reading components from their repository's own config.json, and the
// inventories of CogVideoX's transformer and VAE computed from it.
//
// Layouts read (facts only) from diffusers v0.35: transformers/
// cogvideox_transformer_3d.py, embeddings.py CogVideoXPatchEmbed and
// TimestepEmbedding, normalization.py CogVideoXLayerNormZero and AdaLayerNorm,
// attention.py FeedForward, attention_processor.py Attention (qk_norm
// "layer_norm"); autoencoders/autoencoder_kl_cogvideox.py, downsampling.py
// CogVideoXDownsample3D, upsampling.py CogVideoXUpsample3D.
#include "hf_config.hpp"

#include <nlohmann/json.hpp>

#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/units.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

void add(Inventory& inv, Count in, Count out, Count count, bool bias) {
  inv.linear.push_back({in, out, count, bias, false});
  if (bias) inv.other = Count(inv.other) + count * out;
}

void read_attention_width(const json& j, const std::string& path, ComponentConfig& c, std::int64_t heads,
                          std::int64_t head_dim) {
  c.heads = io::optional_int(j, "num_attention_heads", path, kWidth).value_or(heads);
  c.head_dim = io::optional_int(j, "attention_head_dim", path, kWidth).value_or(head_dim);
  c.hidden = checked::mul(c.heads, c.head_dim);
}

void check_class(const json& j, const std::string& path, std::string_view expected) {
  const auto name = io::optional_string(j, "_class_name", path);
  if (name && *name != expected)
    throw InputError(path + "/_class_name", "is \"" + *name + "\"; a component of this kind is " + std::string(expected));
}

namespace {

std::vector<std::int64_t> require_list(const json& j, std::string_view key, const std::string& path) {
  const std::string p = io::join_path(path, key);
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array() || it->empty() || it->size() > 8)
    throw InputError(p, "is required: a list of 1 to 8 channel counts");
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 1 || v.get<std::int64_t>() > kWidth.max)
      throw InputError(p + "/" + std::to_string(i), "must be a positive integer");
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

/// T5Config (transformers v4.56 configuration_t5.py) of a gated T5 v1.1 encoder.
void read_t5(const json& j, const std::string& path, ComponentConfig& c) {
  c.hidden = io::require_int(j, "d_model", path, kWidth);
  c.head_dim = io::require_int(j, "d_kv", path, kWidth);
  c.heads = io::require_int(j, "num_heads", path, {1, 1024});
  c.ffn = io::require_int(j, "d_ff", path, kWidth);
  c.layers = io::require_int(j, "num_layers", path, {1, 1024});
  c.vocab = io::require_int(j, "vocab_size", path, {1, 10'000'000});
  const auto proj = io::optional_string(j, "feed_forward_proj", path);
  if (proj && proj->rfind("gated-", 0) != 0)
    throw InputError(path + "/feed_forward_proj", "is \"" + *proj + "\"; the t5_encoder kind is the gated T5 v1.1 "
                                                  "encoder (\"gated-gelu\")");
}

void read_cogvideox_positions(const json& j, const std::string& path, ComponentConfig& c) {
  c.positions = io::require_int(j, "max_text_seq_length", path, {1, 100'000});
  c.sample_frames = io::require_int(j, "sample_frames", path, {1, 100'000});
  c.sample_height = io::require_int(j, "sample_height", path, {1, 100'000});
  c.sample_width = io::require_int(j, "sample_width", path, {1, 100'000});
  c.temporal = io::require_int(j, "temporal_compression_ratio", path, {1, 64});
  c.rotary = io::optional_bool(j, "use_rotary_positional_embeddings", path).value_or(false);
  c.learned_positions = io::optional_bool(j, "use_learned_positional_embeddings", path).value_or(false);
  if (c.learned_positions && !c.rotary)
    throw InputError(path + "/use_learned_positional_embeddings",
                     "learned positions without rotary embeddings is refused by diffusers (no such checkpoint)");
}

/// CogVideoXTransformer3DModel.__init__ arguments (diffusers v0.35 defaults where a key may be absent).
void read_cogvideox(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "CogVideoXTransformer3DModel");
  c.heads = io::require_int(j, "num_attention_heads", path, {1, 1024});
  c.head_dim = io::require_int(j, "attention_head_dim", path, {1, 4096});
  c.hidden = checked::mul(c.heads, c.head_dim);
  c.ffn = checked::mul(c.hidden, 4);  // FeedForward(mult=4)
  c.layers = io::require_int(j, "num_layers", path, {1, 1024});
  c.in_channels = io::require_int(j, "in_channels", path, {1, 4096});
  c.out_channels = io::require_int(j, "out_channels", path, {1, 4096});
  c.text_dim = io::require_int(j, "text_embed_dim", path, kWidth);
  c.time_embed_dim = io::require_int(j, "time_embed_dim", path, kWidth);
  c.ofs_embed_dim = io::optional_int(j, "ofs_embed_dim", path, kWidth).value_or(0);
  const std::int64_t p = io::require_int(j, "patch_size", path, {1, 16});
  c.patch = {io::optional_int(j, "patch_size_t", path, {1, 16}).value_or(1), p, p};
  c.patch_bias = io::optional_bool(j, "patch_bias", path).value_or(true);
  c.attention_bias = io::optional_bool(j, "attention_bias", path).value_or(true);
  c.norm_affine = io::optional_bool(j, "norm_elementwise_affine", path).value_or(true);
  const auto act = io::optional_string(j, "activation_fn", path);
  if (act && act->rfind("gelu", 0) != 0)
    throw InputError(path + "/activation_fn", "is \"" + *act + "\"; the cogvideox kind has a GELU feed-forward");
  read_cogvideox_positions(j, path, c);
}

/// AutoencoderKLCogVideoX.__init__ arguments.
void read_cogvideox_vae(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "AutoencoderKLCogVideoX");
  c.block_channels = require_list(j, "block_out_channels", path);
  for (const char* key : {"down_block_types", "up_block_types"})
    if (const auto it = j.find(key); it != j.end() && (!it->is_array() || it->size() != c.block_channels.size()))
      throw InputError(io::join_path(path, key), "must list one block per block_out_channels entry");
  c.layers_per_block = io::require_int(j, "layers_per_block", path, {1, 16});
  c.latent_channels = io::require_int(j, "latent_channels", path, {1, 1024});
  c.temporal = io::require_int(j, "temporal_compression_ratio", path, {1, 16});
  if ((c.temporal & (c.temporal - 1)) != 0)
    throw InputError(path + "/temporal_compression_ratio", "must be a power of 2 (one halving per level)");
  c.in_channels = io::optional_int(j, "in_channels", path, {1, 64}).value_or(3);
  c.out_channels = io::optional_int(j, "out_channels", path, {1, 64}).value_or(3);
  c.spatial = Count(1) << (c.block_channels.size() - 1);  // one downsample per level but the last
  // diffusers' defaults where the config predates the keys (CogVideoX-2b has "sample_size" only).
  c.sample_height = io::optional_int(j, "sample_height", path, {8, 16384}).value_or(480);
  c.sample_width = io::optional_int(j, "sample_width", path, {8, 16384}).value_or(720);
  if (io::optional_bool(j, "use_quant_conv", path).value_or(false) ||
      io::optional_bool(j, "use_post_quant_conv", path).value_or(false))
    throw InputError(path + "/use_quant_conv", "quant convolutions are not part of any CogVideoX checkpoint");
}

}  // namespace

std::vector<std::int64_t> int_list(const json& j, std::string_view key, const std::string& path, std::size_t n,
                                   std::vector<std::int64_t> fallback, std::int64_t min) {
  const std::string p = io::join_path(path, key);
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  const bool size_ok = n > 0 ? it->size() == n : (!it->empty() && it->size() <= 8);
  const std::string what = min == 1 ? "positive integers" : "integers from " + std::to_string(min);
  if (!it->is_array() || !size_ok)
    throw InputError(p, n > 0 ? "must list " + std::to_string(n) + " " + what : "must list 1 to 8 " + what);
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < min || v.get<std::int64_t>() > kWidth.max)
      throw InputError(p + "/" + std::to_string(i), min == 1 ? "must be a positive integer"
                                                             : "must be an integer from " + std::to_string(min));
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

void read_config(ComponentKind k, const json& j, const std::string& path, ComponentConfig& c) {
  io::require_object(j, path, "a config.json object");
  switch (k) {
    case ComponentKind::t5_encoder: read_t5(j, path, c); return;
    case ComponentKind::cogvideox: read_cogvideox(j, path, c); return;
    case ComponentKind::vae_cogvideox: read_cogvideox_vae(j, path, c); return;
    case ComponentKind::ltx_video: read_ltx(j, path, c); return;
    case ComponentKind::vae_ltx: read_ltx_vae(j, path, c); return;
    case ComponentKind::hunyuan_video: read_hunyuan(j, path, c); return;
    case ComponentKind::vae_hunyuan: read_hunyuan_vae(j, path, c); return;
    case ComponentKind::llama_text: read_llama_text(j, path, c); return;
    case ComponentKind::mochi_dit: read_mochi(j, path, c); return;
    case ComponentKind::vae_mochi: read_mochi_vae(j, path, c); return;
    case ComponentKind::sana: read_sana(j, path, c); return;
    case ComponentKind::vae_dc: read_dc_vae(j, path, c); return;
    case ComponentKind::allegro: read_allegro(j, path, c); return;
    case ComponentKind::vae_allegro: read_allegro_vae(j, path, c); return;
    case ComponentKind::cogview4: read_cogview4(j, path, c); return;
    case ComponentKind::hidream: read_hidream(j, path, c); return;
    case ComponentKind::hunyuan_video15: read_hunyuan15(j, path, c); return;
    case ComponentKind::vae_hunyuan15: read_hunyuan15_vae(j, path, c); return;
    case ComponentKind::stepvideo_dit: read_stepvideo(j, path, c); return;
    case ComponentKind::vae_stepvideo: read_stepvideo_vae(j, path, c); return;
    default: break;
  }
  throw InputError(path, "a verbatim config.json is read for t5_encoder, cogvideox, vae_cogvideox, ltx_video, "
                         "vae_ltx, hunyuan_video, vae_hunyuan, llama_text, mochi_dit, vae_mochi, sana, vae_dc, allegro, "
                         "vae_allegro, cogview4, hidream, hunyuan_video15, vae_hunyuan15, stepvideo_dit and vae_stepvideo "
                         "components; "
                         "give this kind's facts in \"config\"");
}

namespace {

/// One CogVideoXBlock: two CogVideoXLayerNormZero (a 6 × dim modulation from
/// the time embedding and a LayerNorm shared by text and video tokens), joint
/// self-attention (q, k, v, out; LayerNorm on q and k per head) and the GELU
/// feed-forward (dim → 4 dim → dim).
void add_blocks(Inventory& inv, const ComponentConfig& c) {
  const Count d = c.hidden, L = c.layers;
  add(inv, c.time_embed_dim, 6 * d, 2 * L);
  add(inv, d, d, 3 * L, c.attention_bias);
  add(inv, d, d, L);  // to_out[0]: attention_out_bias is always on
  add(inv, d, c.ffn, L);
  add(inv, c.ffn, d, L);
  const Count norms = c.norm_affine ? Count(2) * 2 * d : Count(0);
  inv.other = Count(inv.other) + L * (norms + Count(4) * c.head_dim);  // qk LayerNorms are always affine
}

}  // namespace

Inventory cogvideox_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, T = c.time_embed_dim;
  const Count patch_in = Count(c.in_channels) * c.patch[1] * c.patch[2] * c.patch[0];
  if (c.patch[0] > 1) {
    add(inv, patch_in, d, 1);  // CogVideoX 1.5: a Linear over p_t × p × p patches (its bias ignores patch_bias)
  } else {
    inv.other = patch_in * d + (c.patch_bias ? d : Count(0));  // Conv2d p × p
  }
  add(inv, c.text_dim, d, 1);  // text_proj
  add(inv, d, T, 1);           // time_embedding.linear_1 (sinusoid of width dim)
  add(inv, T, T, 1);           // time_embedding.linear_2
  if (c.ofs_embed_dim > 0) add(inv, c.ofs_embed_dim, c.ofs_embed_dim, 2);
  add_blocks(inv, c);
  const Count affine = c.norm_affine ? 2 * d : Count(0);
  inv.other = Count(inv.other) + affine * 2;  // norm_final and norm_out.norm
  add(inv, T, 2 * d, 1);                      // norm_out.linear (shift, scale)
  add(inv, d, Count(c.out_channels) * c.patch[0] * c.patch[1] * c.patch[2], 1);
  if (c.learned_positions) {
    // A persistent buffer (stored in the checkpoint, loaded with the weights).
    const Count patches = Count(c.sample_height / c.patch[1]) * (c.sample_width / c.patch[2]) *
                          ((c.sample_frames - 1) / c.temporal + 1);
    inv.other = Count(inv.other) + (Count(c.positions) + patches) * d;
  }
  return inv;
}

namespace {

/// CogVideoXResnetBlock3D: two norms (GroupNorm, or in the decoder
/// CogVideoXSpatialNorm3D: GroupNorm + two 1×1×1 convs from the latent), two
/// 3×3×3 causal convs and a 1×1×1 shortcut when the width changes.
Count resnet(Count in, Count out, Count zq) {
  auto norm = [zq](Count f) { return 2 * f + (zq > 0 ? Count(2) * (zq * f + f) : Count(0)); };
  Count n = norm(in) + conv3(in, out) + norm(out) + conv3(out, out);
  if (in != out) n += in * out + out;
  return n;
}

Count encoder(const ComponentConfig& c) {
  const auto& ch = c.block_channels;
  Count n = conv3(c.in_channels, ch[0]);
  Count prev = ch[0];
  for (std::size_t i = 0; i < ch.size(); ++i) {
    for (std::int64_t r = 0; r < c.layers_per_block; ++r) n += resnet(r == 0 ? prev : Count(ch[i]), ch[i], 0);
    if (i + 1 < ch.size()) n += Count(ch[i]) * ch[i] * 9 + ch[i];  // Conv2d 3×3 stride-2 downsample
    prev = ch[i];
  }
  n += 2 * resnet(ch.back(), ch.back(), 0) + 2 * Count(ch.back());  // mid block, norm_out
  return n + conv3(ch.back(), 2 * Count(c.latent_channels));
}

Count decoder(const ComponentConfig& c) {
  const std::vector<std::int64_t> ch(c.block_channels.rbegin(), c.block_channels.rend());
  const Count z = c.latent_channels;
  Count n = conv3(z, ch[0]) + 2 * resnet(ch[0], ch[0], z);
  Count prev = ch[0];
  for (std::size_t i = 0; i < ch.size(); ++i) {
    for (std::int64_t r = 0; r <= c.layers_per_block; ++r) n += resnet(r == 0 ? prev : Count(ch[i]), ch[i], z);
    if (i + 1 < ch.size()) n += Count(ch[i]) * ch[i] * 9 + ch[i];  // Conv2d 3×3 after the upsampling
    prev = ch[i];
  }
  n += 2 * Count(ch.back()) + 2 * (z * ch.back() + ch.back());  // norm_out (spatial norm)
  return n + conv3(ch.back(), c.out_channels);
}

}  // namespace

Inventory cogvideox_vae(const ComponentConfig& c) {
  Inventory inv;
  inv.other = Count(encoder(c)) + decoder(c);
  return inv;
}

}  // namespace vram::generation::hf
