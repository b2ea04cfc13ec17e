// The generation plan: the solvers' answers for an image or video scenario
// (the largest size at its aspect ratio, the most frames, the largest batch,
// the fewest GPUs where the runtime divides the work), what each switch buys
// (offload modes, VAE tiling and slicing, the text encoders on the CPU, a
// quantized denoiser or text encoder, fewer frames, a smaller batch), and the
// catalog GPUs that fit. Figures only, each answer from the generic search
// (plan/solve.hpp) over a generation setting.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/plan.hpp"
#include "vram/plan/solve.hpp"
#include "vram/scenario.hpp"

namespace vram {

class WeightsMemo;

/// A solver's answer and the top of the range it searched.
struct GenerationAnswer {
  std::optional<std::int64_t> value;  ///< nullopt: not even the smallest fits
  std::int64_t limit = 0;             ///< the search's top: the answer is "at least" this when it equals it
};

struct GenerationPlan {
  /// The largest width × height at the scenario's aspect ratio; unset where the
  /// pipeline rescales every size to a fixed area (FLUX.1 Kontext).
  std::optional<GenerationAnswer> max_height;
  std::int64_t max_width = 0;   ///< the width that goes with max_height's value
  std::int64_t limit_width = 0; ///< the width that goes with max_height's limit
  std::optional<GenerationAnswer> max_frames;  ///< video only
  GenerationAnswer max_batch;
  bool more_gpus_divide = false;           ///< the runtime splits tokens and shards weights (Wan: Ulysses + FSDP)
  std::optional<std::int64_t> fewest_gpus; ///< on the scenario's GPU model, up to 8
  std::vector<Hint> hints;
  std::vector<GpuOption> gpu_options;      ///< each catalog GPU at its fewest fitting count
};

/// `s` with its geometry resolved to explicit values (the pipeline's native
/// size and frames where unset), so that solvers keep its aspect ratio.
Scenario with_explicit_geometry(const Scenario& s);

/// `s` on `gpus` GPUs of its model; with more than one, the Wan scripts' split
/// (--ulysses_size N, --dit_fsdp, --t5_fsdp unless the text encoder is on the CPU).
Scenario with_generation_gpus(const Scenario& s, std::int64_t gpus);

/// The fields `with_generation_gpus` sets, in scenario form (hardware.count and,
/// for the Wan scripts, the generation block's split).
nlohmann::json generation_gpus_patch(const Scenario& s, std::int64_t gpus);

/// What each switch buys: `s` re-estimated with one setting changed, as hints
/// (the change, its figure, the patch), for the switches that apply to `s`.
std::vector<Hint> generation_switches(const Scenario& s, WeightsMemo* memo = nullptr);

GenerationPlan generation_plan(const Scenario& s, const Catalog& catalog);

/// The per-GPU total against the size (images: nine heights from a quarter to
/// four times the scenario's side at its aspect ratio), the frames (video:
/// latent frames doubling up to the documented length × 4, the scenario's own
/// among them) or, where the pipeline fixes the size (FLUX.1 Kontext), the batch.
struct GenerationSweep {
  Setting axis = Setting::image_size;  ///< image_size, frames or gen_batch
  std::vector<std::int64_t> values;   ///< heights, frames or batches, ascending
  std::vector<std::int64_t> widths;   ///< images: the width at each height
  std::vector<SweepPoint> points;     ///< one per value; `context` is the value, `concurrency` the batch
};
GenerationSweep generation_sweep(const Scenario& s);

}  // namespace vram
