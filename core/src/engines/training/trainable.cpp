// Trainable tensors: every tensor for full fine-tuning, LoRA adapters on the
// target modules (PEFT v0.17 tuners/lora/layer.py: A is r × in, B is out × r;
// `all-linear` adapts every linear layer except the output layer,
// peft/tuners/tuners_utils.py _maybe_include_all_linear_layers).
#include <algorithm>

#include "vram/engines/training_parts.hpp"
#include "vram/error.hpp"

namespace vram::training {

using checked::Count;

namespace {

struct TargetName {
  std::string_view name;
  TensorRole role;
  TensorRole also;  ///< a second role the same module name selects (an MoE expert)
};

// HF module names, then torchtune's (output_proj, w1, w3, w2, output).
constexpr std::array<TargetName, 20> kTargetNames{{
    {"q_proj", TensorRole::attn_q, TensorRole::attn_q},
    {"k_proj", TensorRole::attn_k, TensorRole::attn_k},
    {"v_proj", TensorRole::attn_v, TensorRole::attn_v},
    {"o_proj", TensorRole::attn_o, TensorRole::attn_o},
    {"qkv_proj", TensorRole::attn_qkv, TensorRole::attn_qkv},
    {"query_key_value", TensorRole::attn_qkv, TensorRole::attn_qkv},
    {"gate_proj", TensorRole::mlp_gate, TensorRole::expert_gate},
    {"up_proj", TensorRole::mlp_up, TensorRole::expert_up},
    {"down_proj", TensorRole::mlp_down, TensorRole::expert_down},
    {"q_a_proj", TensorRole::mla_q_a, TensorRole::mla_q_a},
    {"q_b_proj", TensorRole::mla_q_b, TensorRole::mla_q_b},
    {"kv_a_proj_with_mqa", TensorRole::mla_kv_a, TensorRole::mla_kv_a},
    {"kv_b_proj", TensorRole::mla_kv_b, TensorRole::mla_kv_b},
    {"lm_head", TensorRole::lm_head, TensorRole::lm_head},
    {"embed_tokens", TensorRole::embedding, TensorRole::embedding},
    {"output_proj", TensorRole::attn_o, TensorRole::attn_o},
    {"w1", TensorRole::mlp_gate, TensorRole::expert_gate},
    {"w3", TensorRole::mlp_up, TensorRole::expert_up},
    {"w2", TensorRole::mlp_down, TensorRole::expert_down},
    {"output", TensorRole::lm_head, TensorRole::lm_head},
}};

bool has_role(const Model& m, TensorRole r) {
  return std::any_of(m.tensors.begin(), m.tensors.end(), [&](const Tensor& t) { return t.role == r; });
}

bool on_gpu(const Tensor& t, const WeightPlacement& p) {
  if (t.stage != TensorStage::text) return false;
  if (t.layer < 0)
    return t.role == TensorRole::embedding || t.role == TensorRole::position_embedding ? p.embedding : p.head;
  return t.layer >= p.first_layer && t.layer < p.end_layer;
}

/// Layers of a tensor entry inside the placement's range.
std::int64_t layers_on_gpu(const Tensor& t, const WeightPlacement& p) {
  if (t.layer < 0) return 1;
  const std::int64_t lo = std::max<std::int64_t>(t.layer, p.first_layer);
  const std::int64_t hi = std::min<std::int64_t>(std::int64_t{t.layer} + t.layers, p.end_layer);
  return std::max<std::int64_t>(0, hi - lo);
}

/// A weight matrix inside a decoder layer (Muon's share; a 1-D tensor has rows = 1).
bool hidden_matrix(const Tensor& t, const ShardShape& s) { return t.layer >= 0 && s.rows > 1 && s.cols > 1; }

}  // namespace

std::vector<TensorRole> roles_of_target(const std::string& name) {
  for (const auto& n : kTargetNames)
    if (n.name == name)
      return n.role == n.also ? std::vector<TensorRole>{n.role} : std::vector<TensorRole>{n.role, n.also};
  return {};
}

std::vector<std::string> valid_targets(const Model& model) {
  std::vector<std::string> out;
  for (const auto& n : kTargetNames)
    if (has_role(model, n.role) || has_role(model, n.also)) out.emplace_back(n.name);
  return out;
}

bool targeted(const Tensor& t, const std::vector<TensorRole>& roles, bool all_linear) {
  if (all_linear) return t.quantizable && t.role != TensorRole::lm_head && t.role != TensorRole::embedding;
  return std::find(roles.begin(), roles.end(), t.role) != roles.end();
}

std::vector<TensorRole> target_roles(const Model& model, const std::vector<std::string>& targets) {
  std::vector<TensorRole> roles;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const auto rs = roles_of_target(targets[i]);
    const bool present = std::any_of(rs.begin(), rs.end(), [&](TensorRole r) { return has_role(model, r); });
    if (!present) {
      std::string list;
      for (const auto& v : valid_targets(model)) list += (list.empty() ? "" : ", ") + v;
      throw InputError(
          "/training/lora_targets/" + std::to_string(i),
          "module \"" + targets[i] + "\" is not in this model; valid names: " + list + ", or \"all-linear\"");
    }
    roles.insert(roles.end(), rs.begin(), rs.end());
  }
  return roles;
}

TrainableSet full_trainable(const Model& model, const WeightPlacement& place) {
  TrainableSet set;
  for (const auto& t : model.tensors) {
    if (!on_gpu(t, place)) continue;
    if (t.role == TensorRole::lm_head && !place.head) continue;
    const ShardShape s = shard_shape(t, model.arch, place.tensor_parallel, 1);
    const std::int64_t n = layers_on_gpu(t, place);
    if (n > 0) set.blocks.push_back({s.rows, s.cols, checked::mul(t.count, n), hidden_matrix(t, s)});
  }
  return set;
}

TrainableSet freeze_trainable(const Model& model, const WeightPlacement& place, std::int64_t layers) {
  WeightPlacement last = place;
  const std::int64_t first_trained = std::max<std::int64_t>(0, model.arch.layers - layers);
  last.first_layer = static_cast<std::int32_t>(std::max<std::int64_t>(place.first_layer, first_trained));
  TrainableSet set;
  for (const auto& t : model.tensors) {
    // Embeddings, the final norm and the output layer stay frozen; an entry may stand for a run of layers.
    if (t.layer < 0 || t.stage != TensorStage::text) continue;
    const ShardShape s = shard_shape(t, model.arch, place.tensor_parallel, 1);
    const std::int64_t n = layers_on_gpu(t, last);
    if (n > 0) set.blocks.push_back({s.rows, s.cols, checked::mul(t.count, n), hidden_matrix(t, s)});
  }
  return set;
}

TrainableSet lora_trainable(const Model& model, const WeightPlacement& place, const TrainingSettings& tr) {
  const auto roles = target_roles(model, tr.lora_targets);
  const bool all = tr.lora_targets.empty();
  TrainableSet set;
  for (const auto& t : model.tensors) {
    if (!on_gpu(t, place) || !targeted(t, roles, all) || t.rows <= 1) continue;
    if (tr.lora_rank > std::min(t.rows, t.cols)) {
      throw InputError("/training/lora_rank", "is " + std::to_string(tr.lora_rank) + " but a targeted " +
                                                  to_string(t.role) + " weight is " + std::to_string(t.rows) + " × " +
                                                  std::to_string(t.cols) + ": the rank must be at most " +
                                                  std::to_string(std::min(t.rows, t.cols)));
    }
    const ShardShape s = shard_shape(t, model.arch, place.tensor_parallel, 1);
    const std::int64_t n = checked::mul(t.count, layers_on_gpu(t, place));
    if (n == 0) continue;
    set.blocks.push_back({tr.lora_rank, s.cols, n, t.layer >= 0});  // lora_A (a matrix even at rank 1)
    set.blocks.push_back({s.rows, tr.lora_rank, n, t.layer >= 0});  // lora_B
    if (tr.use_dora) set.blocks.push_back({s.rows, 1, n});  // DoRA's magnitude: one per output feature
  }
  return set;
}

DoraShape dora_shape(const Model& model, const WeightPlacement& place, const TrainingSettings& tr) {
  DoraShape d;
  if (!tr.use_dora) return d;
  const auto roles = target_roles(model, tr.lora_targets);
  const bool all = tr.lora_targets.empty();
  std::int64_t outputs = 0;
  for (const auto& t : model.tensors) {
    if (!on_gpu(t, place) || !targeted(t, roles, all) || t.rows <= 1) continue;
    const ShardShape s = shard_shape(t, model.arch, place.tensor_parallel, 1);
    const std::int64_t n = layers_on_gpu(t, place);
    outputs = checked::add(outputs, checked::mul(checked::mul(t.count, n), s.rows));
    const std::int64_t elems = checked::add(checked::mul(s.cols, s.cols), checked::mul(3, checked::mul(s.rows, s.cols)));
    const std::int64_t best = checked::add(checked::mul(d.largest_in, d.largest_in),
                                           checked::mul(3, checked::mul(d.largest_out, d.largest_in)));
    if (elems > best) {
      d.largest_in = s.cols;
      d.largest_out = s.rows;
    }
  }
  const std::int64_t stage = std::max<std::int64_t>(1, std::int64_t{place.end_layer} - place.first_layer);
  d.layer_outputs = checked::ceil_div(outputs, stage);
  return d;
}

std::int64_t largest_linear(const Model& model, std::int64_t tp) {
  std::int64_t m = 0;
  for (const auto& t : model.tensors) {
    if (!t.quantizable) continue;
    const ShardShape s = shard_shape(t, model.arch, tp, 1);
    m = std::max(m, checked::mul(s.rows, s.cols));
  }
  return m;
}

std::int64_t largest_unit_params(const Model& model, std::int64_t tp) {
  Count layer = 0;
  std::int64_t other = 0;
  for (const auto& t : model.tensors) {
    if (t.stage != TensorStage::text) continue;
    const ShardShape s = shard_shape(t, model.arch, tp, 1);
    const std::int64_t one = checked::product(s.rows, s.cols, t.count);
    if (t.layer >= 0)
      layer += one;  // one layer's share of each entry
    else
      other = std::max(other, one);
  }
  return std::max<std::int64_t>(layer, other);
}

}  // namespace vram::training
