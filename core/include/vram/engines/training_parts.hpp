// The pieces of the training accounting that the engine composes: which
// tensors are trainable (full, LoRA targets), and the checks on the settings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vram/budget/trainable.hpp"
#include "vram/budget/weights.hpp"
#include "vram/model.hpp"
#include "vram/workloads.hpp"

namespace vram::training {

/// Tensor roles that a LoRA target module name selects (PEFT / torchtune names).
std::vector<TensorRole> roles_of_target(const std::string& name);

/// The LoRA target names a model has (for error messages).
std::vector<std::string> valid_targets(const Model& model);

/// Whether `t` is adapted: `targets` empty = all-linear (every linear but lm_head).
bool targeted(const Tensor& t, const std::vector<TensorRole>& roles, bool all_linear);

/// The roles the scenario's lora_targets select; InputError at
/// /training/lora_targets/i for a name the model lacks (listing the valid ones).
std::vector<TensorRole> target_roles(const Model& model, const std::vector<std::string>& targets);

/// Every tensor of the text stage on this GPU (full fine-tuning).
TrainableSet full_trainable(const Model& model, const WeightPlacement& place);

/// LoRA's A (rank × in) and B (out × rank) per adapted tensor on this GPU;
/// InputError at /training/lora_rank when rank exceeds a target's smaller dimension.
TrainableSet lora_trainable(const Model& model, const WeightPlacement& place, const TrainingSettings& t);
/// What DoRA adds per GPU over the adapted modules: the summed output width of
/// one layer's adapted modules (each keeps its plain and its adapter output for
/// backward) and the largest adapted weight's in × in and out × in elements
/// (its norm is rebuilt in every forward).
struct DoraShape {
  std::int64_t layer_outputs = 0;
  std::int64_t largest_in = 0;
  std::int64_t largest_out = 0;
};
DoraShape dora_shape(const Model& model, const WeightPlacement& place, const TrainingSettings& t);

/// Freeze fine-tuning: every tensor of the last `layers` decoder layers on this
/// GPU; embeddings, the output layer and the earlier layers stay frozen
/// (LLaMA-Factory model/adapter.py _setup_freeze_tuning, freeze_trainable_modules "all").
TrainableSet freeze_trainable(const Model& model, const WeightPlacement& place, std::int64_t layers);

/// Elements of the largest quantizable (base) linear weight on one rank.
std::int64_t largest_linear(const Model& model, std::int64_t tensor_parallel);

/// Parameters of the largest unit a sharded run gathers: a decoder layer, the
/// embedding or the lm_head, on one tensor-parallel rank.
std::int64_t largest_unit_params(const Model& model, std::int64_t tensor_parallel);

}  // namespace vram::training
