// The training accounting's working state (internal to engines/training):
// the dtypes, placement and trainable set derived once from a scenario, and
// the functions that turn it into terms.
#pragma once

#include <cstdint>
#include <optional>

#include "vram/budget/term.hpp"
#include "vram/budget/trainable.hpp"
#include "vram/budget/weights.hpp"
#include "vram/engines/training.hpp"
#include "vram/engines/training_parts.hpp"
#include "vram/formats.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram::training {

/// Everything derived once from the scenario.
struct Plan {
  const Scenario& s;
  const Model& m;
  const TrainingSettings& t;
  FrameworkProfile p;
  WeightPlacement place;
  WeightFormat base;      ///< the stored format of the frozen (or all) weights
  bool adapters = false;  ///< LoRA / QLoRA
  bool mixed = false;
  std::int64_t b = 2;        ///< compute dtype
  std::int64_t param_b = 2;  ///< trainable parameters' dtype
  std::int64_t grad_b = 2;
  bool master = false;
  std::int64_t state_b = 2;
  std::int64_t tokens = 0;  ///< per GPU per micro-batch
  std::int64_t stage_layers = 0;
  /// Layers of this stage whose activations autograd keeps: every one, except
  /// under freeze, where the frozen layers before the first trained one take
  /// inputs that need no gradient and save nothing.
  std::int64_t grad_layers = 0;
  TrainableSet trainable;
  std::int64_t trainable_params = 0;  ///< trainable.params(), summed once
  DoraShape dora;  ///< zero unless use_dora
  /// A report with its text and ranges; figures only (a solver's probe) need
  /// neither, and a range never changes the verdict.
  bool explain = true;
  WeightsEstimate base_weights;  ///< the stored base on this GPU (codec names live here)
};

/// The stage's layers at or after the first trained one (all of them unless method freeze).
std::int64_t layers_keeping_activations(const Plan& c);

/// Checks the settings (InputError naming the field) and derives the plan.
Plan make_plan(const Scenario& s, const TrainingSettings& t, Report& r, WeightsMemo* memo);

/// Frozen and trainable weights on this GPU.
Term weights_of(const Plan& c);
Term master_of(const Plan& c);
/// Gradients of every trainable parameter (one at a time under optimizer-in-backward).
Term gradients_of(const Plan& c);
/// DDP's all-reduce buckets (none without DDP over several GPUs).
Term buckets_of(const Plan& c);
/// Gradients are set to None after each step (torch.optim zero_grad(set_to_none=True),
/// pytorch v2.8) and refilled during backward as activations are freed, unless
/// they accumulate over micro-batches, are stepped in backward or live on the host.
bool gradients_freed_each_step(const Plan& c);
/// The backward pass's peak when gradients are freed each step: the
/// activations at its start (with the output layer's gradient, computed
/// first), or every gradient at its end beside the last layer's working set.
Term backward_peak_of(const Plan& c, Term activations, Term gradients);
Term optimizer_of(const Plan& c);
/// Muon's optimizer step (after backward, the activations freed): Newton–Schulz
/// on the largest hidden matrix, beside every gradient when they are freed
/// each step (they are counted in the backward peak then).
Term muon_step_of(const Plan& c, bool freed);
/// The optimizer step when it needs memory of its own (after backward, the activations freed): Muon's, or
/// AdamW's foreach / for-loop temporaries, beside every gradient when they are freed each step; none for a
/// fused AdamW, another optimizer, a step on the host or one run parameter by parameter in backward.
std::optional<Term> optimizer_step_of(const Plan& c, bool freed);
/// The scenario's AdamW step kernels, else the framework's.
OptimizerImpl adamw_impl_of(const Plan& c);
/// The backward pass's peak of saved activations, one layer's recomputation
/// and gradients, logits and loss (calibrated: carries a range).
Term activations_of(const Plan& c);
/// Gathered shard units, QLoRA's dequantized weight, ZeRO buckets.
Term transient_of(const Plan& c);

}  // namespace vram::training
