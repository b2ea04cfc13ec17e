// HiDream-I1 (diffusers @58eb52c transformers/transformer_hidream_image.py), read from
// its config.json and counted layer by layer.
#include <string>

#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram::generation::hf {

using checked::Count;
using nlohmann::json;

namespace {

/// HiDreamImageFeedForwardSwiGLU's hidden width for a requested `hidden`: two thirds of it,
/// rounded up to a multiple of 256 (multiple_of).
std::int64_t swiglu_width(std::int64_t hidden) {
  const std::int64_t h = 2 * hidden / 3;
  return 256 * ((h + 255) / 256);
}

/// Three bias-free matrices (w1, w3: dim → width; w2: width → dim).
void add_swiglu(Inventory& inv, Count d, Count width, Count count) {
  add(inv, d, width, 2 * count, false);
  add(inv, width, d, count, false);
}

/// MOEFeedForwardSwiGLU: a shared expert of half the hidden request, the routed experts and the gate's weight.
void add_moe(Inventory& inv, const ComponentConfig& c, Count count) {
  add_swiglu(inv, c.hidden, c.shared_ffn, count);
  add_swiglu(inv, c.hidden, c.ffn, count * c.experts);
  inv.other = Count(inv.other) + count * c.experts * c.hidden;
}

}  // namespace

void read_hidream(const json& j, const std::string& path, ComponentConfig& c) {
  check_class(j, path, "HiDreamImageTransformer2DModel");
  read_attention_width(j, path, c, 20, 128);
  c.layers = io::optional_int(j, "num_layers", path, {0, 1024}).value_or(16);
  c.single_layers = io::optional_int(j, "num_single_layers", path, {0, 1024}).value_or(32);
  if (c.layers + c.single_layers < 1)
    throw InputError(path + "/num_layers", "the transformer needs at least one double- or single-stream block");
  c.in_channels = io::optional_int(j, "in_channels", path, kWidth).value_or(64);
  c.out_channels = io::optional_int(j, "out_channels", path, kWidth).value_or(c.in_channels);
  const std::int64_t patch = io::optional_int(j, "patch_size", path, {1, 16}).value_or(2);
  c.patch = {1, patch, patch};
  c.pooled_dim = io::optional_int(j, "text_emb_dim", path, kWidth).value_or(2048);
  const auto captions = int_list(j, "caption_channels", path, 2, {});
  if (captions.empty()) throw InputError(path + "/caption_channels", "is required: [T5 width, Llama width]");
  c.text_dim = captions[0];   // T5's projection
  c.cross_dim = captions[1];  // each Llama layer's projection
  c.experts = io::optional_int(j, "num_routed_experts", path, {0, 64}).value_or(4);
  c.active_experts = io::optional_int(j, "num_activated_experts", path, {1, 64}).value_or(2);
  if (c.experts > 0 && c.active_experts > c.experts)
    throw InputError(path + "/num_activated_experts", "must not exceed num_routed_experts (" + std::to_string(c.experts) + ")");
  const auto llama = int_list(j, "llama_layers", path, static_cast<std::size_t>(c.layers + c.single_layers), {}, 0);
  if (llama.size() != static_cast<std::size_t>(c.layers + c.single_layers))
    throw InputError(path + "/llama_layers", "must name one Llama layer per block (" +
                                                 std::to_string(c.layers + c.single_layers) + "), each block's own projection");
  c.ffn = swiglu_width(4 * c.hidden);         // routed experts and the text feed-forward (hidden_dim 4 × dim)
  c.shared_ffn = swiglu_width(2 * c.hidden);  // the shared expert (hidden_dim // 2)
  c.freq_dim = 256;
  c.rotary = true;
}

/// HiDreamImageTransformer2DModel: the patch, timestep and pooled-text embedders, one bias-free
/// caption projection per block (its Llama layer) and one for T5; double-stream blocks (a 12 × dim
/// modulation, image and text q/k/v/out with biases and RMSNorms on q and k, the image MoE
/// feed-forward and a dense text one) and single-stream blocks (6 × dim, one attention, the MoE
/// feed-forward); the final modulation and projection.
Inventory hidream_transformer(const ComponentConfig& c) {
  Inventory inv;
  const Count d = c.hidden, L = c.layers, S = c.single_layers, p2 = Count(c.patch[1]) * c.patch[2];
  add(inv, Count(c.in_channels) * p2, d, 1);
  add(inv, c.freq_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, c.pooled_dim, d, 1);
  add(inv, d, d, 1);
  add(inv, c.cross_dim, d, L + S, false);
  add(inv, c.text_dim, d, 1, false);
  add(inv, d, 12 * d, L);
  add(inv, d, d, 8 * L);
  add(inv, d, 6 * d, S);
  add(inv, d, d, 4 * S);
  inv.other = Count(inv.other) + (4 * L + 2 * S) * d;  // q and k RMSNorms
  if (c.experts > 0) {
    add_moe(inv, c, L + S);
  } else {
    add_swiglu(inv, d, c.ffn, L + S);
  }
  add_swiglu(inv, d, c.ffn, L);  // ff_t
  add(inv, d, 2 * d, 1);
  add(inv, d, p2 * c.out_channels, 1);
  return inv;
}

}  // namespace vram::generation::hf
