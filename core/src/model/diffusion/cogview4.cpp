// CogView4 (diffusers @58eb52c transformers/transformer_cogview4.py), read from its
// config.json and counted layer by layer.
#include <string>

#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

void read_cogview4(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "CogView4Transformer2DModel");
  // The class defaults (30 layers of 64 × 40) are CogView3-Plus-like; CogView4-6B's config sets 28 of 32 × 128.
  read_attention_width(j, path, c, 64, 40);
  c.ffn = 4 * c.hidden;  // FeedForward(dim, dim_out=dim) with its default mult 4
  c.layers = io::optional_int(j, "num_layers", path, kWidth).value_or(30);
  c.in_channels = io::optional_int(j, "in_channels", path, kWidth).value_or(16);
  c.out_channels = io::optional_int(j, "out_channels", path, kWidth).value_or(16);
  const std::int64_t patch = io::optional_int(j, "patch_size", path, {1, 16}).value_or(2);
  c.patch = {1, patch, patch};
  c.text_dim = io::optional_int(j, "text_embed_dim", path, kWidth).value_or(4096);
  c.time_embed_dim = io::optional_int(j, "time_embed_dim", path, kWidth).value_or(512);
  // Three SDXL-style size conditions (original size, crop, target) of 2 × condition_dim sinusoids each.
  c.pooled_dim = 6 * io::optional_int(j, "condition_dim", path, kWidth).value_or(256);
  c.freq_dim = c.hidden;  // the timestep sinusoids are timesteps_dim = inner_dim wide
  c.rotary = true;
}

/// CogView4Transformer2DModel: Linear patch and text projections; the timestep embedder
/// (inner → time_embed_dim → time_embed_dim) and the size-condition projection (6 × condition_dim →
/// time_embed_dim → time_embed_dim); per block the AdaLayerNormZero Linear(time_embed_dim, 12 × dim),
/// q, k, v and out with biases (their LayerNorms without weights), and the GELU feed-forward shared by
/// both streams; norm_out's Linear(time_embed_dim, 2 × dim) and proj_out.
Inventory cogview4_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers, t = c.time_embed_dim, p2 = Count(c.patch[1]) * c.patch[2];
  add(inv, Count(c.in_channels) * p2, d, 1);
  add(inv, c.text_dim, d, 1);
  add(inv, c.freq_dim, t, 1);
  add(inv, t, t, 1);
  add(inv, c.pooled_dim, t, 1);
  add(inv, t, t, 1);
  add(inv, t, 12 * d, L);
  add(inv, d, d, 4 * L);
  add(inv, d, c.ffn, L);
  add(inv, c.ffn, d, L);
  add(inv, t, 2 * d, 1);
  add(inv, d, p2 * c.out_channels, 1);
  return inv;
}

}  // namespace vram::generation::hf
