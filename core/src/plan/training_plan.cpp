#include "vram/plan/training_plan.hpp"

#include <algorithm>

#include "vram/budget/weights.hpp"
#include "vram/estimate.hpp"
#include "vram/plan/solve.hpp"

namespace vram {

namespace {

const TrainingSettings& settings_of(const Scenario& s) {
  return std::get<TrainingWorkload>(s.settings).training;
}

/// ZeRO and FSDP shard states over the data-parallel ranks; DDP and none replicate them.
bool sharded(Sharding s) {
  return s != Sharding::none && s != Sharding::ddp;
}

}  // namespace

std::int64_t longest_seq_len(const Scenario& s, bool at_capacity, WeightsMemo* memo,
                             const std::optional<KnownVerdict>& known) {
  if (s.model->arch.family == Family::bare) return 0;
  const TrainingSettings& t = settings_of(s);
  const std::int64_t cp = std::max<std::int64_t>(1, t.context_parallel);
  const SearchRange range{cp, 100'000'000 / std::max<std::int64_t>(1, t.micro_batch), true};
  Scenario x = s;
  if (at_capacity) x.headroom = 0;
  return search_fitting(x, Setting::seq_len, range, memo, known).value.value_or(0) / cp * cp;
}

std::int64_t training_group(const Scenario& s) {
  const TrainingSettings& t = settings_of(s);
  return std::max<std::int64_t>(1, t.tensor_parallel * t.pipeline_parallel * t.context_parallel);
}

std::vector<std::int64_t> training_gpu_counts(const Scenario& s, std::int64_t max_gpus) {
  std::vector<std::int64_t> out;
  for (std::int64_t n = training_group(s); n <= max_gpus; n *= 2) out.push_back(n);
  return out;
}

Scenario with_training_gpus(const Scenario& s, std::int64_t gpus) {
  Scenario t = s;
  t.gpu_count = gpus;
  t.parallel = training_parallelism(gpus, settings_of(s));
  return t;
}

namespace {

/// The fewest GPUs of `s`'s model (from `counts`) at which the step fits, and its report.
std::optional<std::pair<std::int64_t, Report>> fewest_fitting(const Scenario& s, const std::vector<std::int64_t>& counts,
                                                              WeightsMemo* memo) {
  for (std::int64_t n : counts) {
    if (auto r = figures_only(with_training_gpus(s, n), memo); r && r->fits) return std::make_pair(n, *r);
  }
  return std::nullopt;
}

/// Whether the framework runs on the GPU at all: Unsloth's Triton kernels need
/// CUDA compute capability 7.0 or newer (unslothai/unsloth README, "Minimum CUDA
/// Capability 7.0"; a Tesla P40 is 6.1). An unknown capability is not ruled out.
bool framework_runs_on(const Scenario& s, const GpuChoice& g) {
  const bool cuda_before_volta = g.rocm_arch == RocmArch::none && g.compute_capability > 0 && g.compute_capability < 70;
  return !(settings_of(s).framework == Framework::unsloth && cuda_before_volta);
}

std::vector<GpuOption> training_gpu_options(const Scenario& s, const Catalog& catalog, WeightsMemo* memo) {
  // Sharded states: the fewest GPUs of each model up to 8 (one node); replicated: the scenario's own count.
  const bool divides = sharded(settings_of(s).sharding);
  const std::vector<std::int64_t> counts = divides ? training_gpu_counts(s, 8) : std::vector<std::int64_t>{s.gpu_count};
  return catalog_gpu_options(s, catalog, [&](const Scenario& base) -> std::optional<std::pair<std::int64_t, Report>> {
    if (!framework_runs_on(base, base.gpu)) return std::nullopt;
    return fewest_fitting(base, counts, memo);
  });
}

}  // namespace

TrainingPlan training_plan(const Scenario& s, const Catalog& catalog) {
  WeightsMemo memo;
  TrainingPlan p;
  p.max_seq_len = longest_seq_len(s, true, &memo);
  p.max_seq_len_with_headroom = longest_seq_len(s, false, &memo);
  const TrainingSettings& t = settings_of(s);
  const SearchRange batches{1, 100'000'000 / std::max<std::int64_t>(1, t.seq_len), true};
  p.max_micro_batch = largest_fitting(s, Setting::micro_batch, batches, &memo).value_or(0);
  p.more_gpus_divide = sharded(t.sharding);
  // Replicated states: one tensor × pipeline × context group is the fewest; more GPUs only add replicas.
  const std::vector<std::int64_t> counts = p.more_gpus_divide ? training_gpu_counts(s, kMaxTrainingGpus)
                                                              : std::vector<std::int64_t>{training_group(s)};
  if (const auto best = fewest_fitting(s, counts, &memo)) p.fewest_gpus = best->first;
  p.switches = training_switches(s, &memo);
  p.gpu_options = training_gpu_options(s, catalog, &memo);
  return p;
}

}  // namespace vram
