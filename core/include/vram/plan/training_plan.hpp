// The training plan: the solvers' answers for a training scenario (longest
// seq_len, largest micro-batch, fewest GPUs for its sharding strategy), what
// each switch buys, and the catalog GPUs that fit. Figures only; the estimate
// itself keeps one of them, max_context_tokens, as its metric.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/plan.hpp"
#include "vram/plan/solve.hpp"
#include "vram/plan/training_switches.hpp"
#include "vram/scenario.hpp"

namespace vram {

class WeightsMemo;

/// The longest seq_len (a multiple of the context-parallel size) whose step
/// fits: against the whole card (`at_capacity`, what a run that ends in an
/// out-of-memory error measures) or keeping the scenario's headroom free.
/// 0 when not even the shortest fits or the model has no layers to size.
/// `known`: the scenario's own seq_len with its verdict, when an estimate of it is in hand.
std::int64_t longest_seq_len(const Scenario& s, bool at_capacity, WeightsMemo* memo = nullptr,
                             const std::optional<KnownVerdict>& known = std::nullopt);

/// The GPUs of one tensor × pipeline × context-parallel group (1 without them).
std::int64_t training_group(const Scenario& s);

/// The GPU counts a training scenario may use: multiples of its
/// tensor × pipeline × context-parallel group, doubling up to `max_gpus`.
std::vector<std::int64_t> training_gpu_counts(const Scenario& s, std::int64_t max_gpus);

/// `s` on `gpus` GPUs of its model, the sharding dividing the data-parallel ranks.
Scenario with_training_gpus(const Scenario& s, std::int64_t gpus);

struct TrainingPlan {
  std::int64_t max_seq_len = 0;                  ///< at the whole capacity (max_context_tokens)
  std::int64_t max_seq_len_with_headroom = 0;    ///< keeping the headroom free
  std::int64_t max_micro_batch = 0;              ///< at the scenario's seq_len, keeping the headroom free
  bool more_gpus_divide = false;                 ///< ZeRO / FSDP: more GPUs lower the per-GPU states
  std::optional<std::int64_t> fewest_gpus;       ///< on the scenario's GPU model, up to kMaxTrainingGpus
  std::vector<TrainingSwitch> switches;
  std::vector<GpuOption> gpu_options;            ///< each catalog GPU at its fewest fitting count
};

/// The most GPUs the plan considers: 32 nodes of 8.
inline constexpr std::int64_t kMaxTrainingGpus = 256;

TrainingPlan training_plan(const Scenario& s, const Catalog& catalog);

}  // namespace vram
