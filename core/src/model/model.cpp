// The public entry points of the model reader: a model from a config.json or
// from a bare parameter count, parameter counts over an inventory, and names.
#include "vram/model.hpp"

#include <algorithm>
#include <array>

#include <nlohmann/json.hpp>

#include "model_internal.hpp"
#include "vram/error.hpp"

namespace vram {

Model model_from_config(const nlohmann::json& config, const std::string& path, std::string id) {
  Model m;
  m.id = std::move(id);
  m.arch = model_detail::parse_config_full(config, path);  // refuses implausible shapes
  try {
    m.tensors = tensor_inventory(m.arch);
  } catch (const ArithmeticOverflow&) {
    throw InputError(path, "describes a tensor of more than 2^63 elements, beyond any real model");
  }
  model_detail::check_plausible_size(m, path);
  return m;
}

Model model_from_param_count(std::int64_t params) {
  Model m;
  m.id = "params";
  m.bare_params = params;
  m.arch.family = Family::bare;
  m.arch.native_dtype = "bf16";
  m.tensors.push_back({TensorRole::mlp_up, -1, 1, params, 1, TensorStage::text, Shard::rows, true});
  return m;
}

bool has_recurrent_state(const Architecture& a) {
  // Which layer kinds keep a state in this architecture: one table, so each layer
  // is one lookup (a sweep asks this of every layer range at every point).
  std::array<bool, static_cast<std::size_t>(LayerKind::lightning_attention) + 1> keeps{};
  keeps[static_cast<std::size_t>(LayerKind::mamba)] = a.ssm_inner > 0;
  keeps[static_cast<std::size_t>(LayerKind::mamba2)] = a.ssm_heads > 0;
  keeps[static_cast<std::size_t>(LayerKind::attention_mamba2)] = a.ssm_heads > 0;
  keeps[static_cast<std::size_t>(LayerKind::linear_attention)] = a.linear_v_heads > 0;
  keeps[static_cast<std::size_t>(LayerKind::lightning_attention)] = a.heads > 0;
  return std::any_of(a.layer_specs.begin(), a.layer_specs.end(),
                     [&](const LayerSpec& l) { return keeps[static_cast<std::size_t>(l.kind)]; });
}

std::int64_t parameter_count(const std::vector<Tensor>& tensors, std::optional<TensorStage> stage) {
  std::int64_t n = 0;
  for (const auto& t : tensors) {
    if (!stage || t.stage == *stage) n = checked::add(n, t.elements());
  }
  return n;
}

std::int64_t active_parameter_count(const Model& model) {
  std::int64_t n = 0;
  for (const auto& t : model.tensors) {
    if (t.stage != TensorStage::text) continue;
    const bool expert = t.count > 1 && t.count == model.arch.experts;
    n = checked::add(n,
                     expert ? checked::product(t.rows, t.cols, model.arch.experts_per_token, t.layers) : t.elements());
  }
  return n;
}

const char* to_string(TensorRole role) {
  switch (role) {
    case TensorRole::embedding: return "token embedding";
    case TensorRole::embedding_norm: return "embedding norm";
    case TensorRole::lm_head: return "lm_head";
    case TensorRole::position_embedding: return "position embedding";
    case TensorRole::attn_q: return "attention q";
    case TensorRole::attn_k: return "attention k";
    case TensorRole::attn_v: return "attention v";
    case TensorRole::attn_qkv: return "attention qkv";
    case TensorRole::attn_o: return "attention output";
    case TensorRole::attn_sinks: return "attention sinks";
    case TensorRole::mla_q_a: return "MLA q_a";
    case TensorRole::mla_q_b: return "MLA q_b";
    case TensorRole::mla_kv_a: return "MLA kv_a";
    case TensorRole::mla_kv_b: return "MLA kv_b";
    case TensorRole::mlp_gate: return "MLP gate";
    case TensorRole::mlp_up: return "MLP up";
    case TensorRole::mlp_down: return "MLP down";
    case TensorRole::expert_gate: return "expert gate";
    case TensorRole::expert_up: return "expert up";
    case TensorRole::expert_down: return "expert down";
    case TensorRole::router: return "router";
    case TensorRole::ssm_in: return "SSM in_proj";
    case TensorRole::ssm_conv: return "SSM conv1d";
    case TensorRole::ssm_x: return "SSM x_proj";
    case TensorRole::ssm_dt: return "SSM dt_proj";
    case TensorRole::ssm_state: return "SSM A/D";
    case TensorRole::ssm_out: return "SSM out_proj";
    case TensorRole::norm: return "norm";
    case TensorRole::bias: return "bias";
    case TensorRole::rel_position_bias: return "relative position bias";
    case TensorRole::vision: return "vision tower";
    case TensorRole::projector: return "projector";
  }
  return "tensor";
}

const char* to_string(Family f) {
  switch (f) {
    case Family::bare: return "bare";
    case Family::decoder: return "decoder";
    case Family::deepseek: return "deepseek";
    case Family::phi: return "phi";
    case Family::bloom: return "bloom";
    case Family::t5: return "t5";
    case Family::mamba: return "mamba";
    case Family::jamba: return "jamba";
    case Family::granite_hybrid: return "granite_hybrid";
    case Family::nemotron_h: return "nemotron_h";
    case Family::qwen3_next: return "qwen3_next";
    case Family::bamba: return "bamba";
    case Family::falcon_h1: return "falcon_h1";
    case Family::minimax: return "minimax";
  }
  return "decoder";
}

const char* to_string(LayerKind kind) {
  switch (kind) {
    case LayerKind::full_attention: return "full attention";
    case LayerKind::sliding_attention: return "sliding-window attention";
    case LayerKind::chunked_attention: return "chunked local attention";
    case LayerKind::mla: return "multi-head latent attention";
    case LayerKind::mamba: return "mamba (recurrent state)";
    case LayerKind::cross_attention: return "cross-attention (image tokens)";
    case LayerKind::mamba2: return "mamba-2 (recurrent state)";
    case LayerKind::linear_attention: return "gated deltanet linear attention (recurrent state)";
    case LayerKind::mlp_only: return "MLP only (no token mixer)";
    case LayerKind::attention_mamba2: return "attention + mamba-2 in parallel (per-token cache and recurrent state)";
    case LayerKind::lightning_attention: return "lightning linear attention (recurrent state)";
  }
  return "layer";
}

}  // namespace vram
