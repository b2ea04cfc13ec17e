// Solvers over the estimator: pure functions that copy the scenario, change
// one setting and estimate again. They never mutate their input.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram {

/// Whether a scenario fits (the estimate's verdict).
bool fits(const Scenario& s);

/// Longest context (tokens per sequence) that fits at the scenario's
/// concurrency, by bisection over [1, limit]; 0 when not even 1 token fits.
std::int64_t max_context(const Scenario& s, std::int64_t limit);

/// Most sequences of the scenario's context that fit at once; 0 when none.
std::int64_t max_concurrency(const Scenario& s, std::int64_t limit = 1'000'000);

/// Smallest tensor-parallel size (a power of two dividing the attention heads,
/// up to `max_gpus`) at which the scenario fits on its GPU model.
std::optional<std::int64_t> smallest_tensor_parallel(const Scenario& s, std::int64_t max_gpus = 8);

/// llama.cpp partial offload: the most layers on the GPU(s) that still fit.
struct GpuLayersFit {
  std::int64_t n_gpu_layers = 0;  ///< as llama.cpp's -ngl counts: n_layer + 1 = every layer and the output layer
  std::int64_t n_layer = 0;
  Bytes host_weights;  ///< token_embd, the layers left on the CPU, the output layer when not offloaded
  Bytes host_kv;       ///< KV of the CPU layers, which llama.cpp keeps beside them in host memory
};
/// Bisection over n_gpu_layers in [0, n_layer + 1] (more layers on the GPUs never
/// lowers the fullest GPU's total); nullopt when not even 0 layers fit, and for
/// engines other than llama.cpp and bare parameter counts (no layers).
std::optional<GpuLayersFit> max_gpu_layers(const Scenario& s);

/// One way to run the scenario on catalog GPUs.
struct GpuOption {
  std::string gpu_id;
  std::string gpu_name;
  std::int64_t count = 0;  ///< GPUs (tensor parallel size)
  Bytes memory_per_gpu;
  Bytes total_per_gpu;
  std::optional<double> price_usd_per_hour;  ///< for all `count` GPUs
};

/// Every catalog GPU with the smallest count (1, 2, 4, 8) that fits, cheapest
/// first (by price per hour where known, then by total memory).
std::vector<GpuOption> gpu_options(const Scenario& s, const Catalog& catalog);
/// Cheapest first: by price per hour where known (priced before unpriced), then by total memory.
void sort_gpu_options(std::vector<GpuOption>& options);

/// The fewest GPUs of the scenario's model at which it fits, with that report (nullopt: no count does).
using FewestFitting = std::function<std::optional<std::pair<std::int64_t, Report>>(const Scenario&)>;
/// Every catalog GPU at the count `fewest` finds for it, cheapest first.
std::vector<GpuOption> catalog_gpu_options(const Scenario& s, const Catalog& catalog, const FewestFitting& fewest);

/// A change that makes the scenario fit (or fit more), with the figure it buys.
struct Hint {
  std::string change;             ///< "kv_cache_dtype = fp8"
  std::string effect;             ///< "KV per token 131,072 B → 65,536 B; max concurrency 58 → 116"
  nlohmann::json scenario_patch;  ///< the fields to set, in scenario form
};
std::vector<Hint> hints(const Scenario& s);

/// What a change does to the per-GPU total and the verdict ("per-GPU total A → B;
/// fits, C free"), with vLLM's concurrency and KV capacity where both reports have them.
std::string fit_effect(const Report& before, const Report& after);

/// Budget at each point of a context × concurrency grid (for charts).
struct SweepPoint {
  std::int64_t context;
  std::int64_t concurrency;
  std::optional<Bytes> total;  ///< nullopt where the figures leave any real system
  bool fits;
};
std::vector<SweepPoint> sweep(const Scenario& s, const std::vector<std::int64_t>& contexts,
                              const std::vector<std::int64_t>& concurrencies);

/// JSON faces of the above (never throw; errors in the contract's shape).
nlohmann::json plan_json(const std::string& scenario_text, const Catalog& catalog);
nlohmann::json sweep_json(const std::string& scenario_text, const Catalog& catalog);
/// The most contexts (and concurrency levels) one grid may have, and the most
/// points in all: 10,000 estimates, well under a second for any model.
inline constexpr std::int64_t kMaxGridSide = 1000;
inline constexpr std::int64_t kMaxGridPoints = 10'000;

/// A context × concurrency grid: `n_contexts` contexts spaced geometrically from
/// 256 tokens to the model's maximum, concurrency 1..`n_concurrency`; per point
/// the per-GPU total and whether it fits, plus the largest fitting concurrency
/// per context. JSON text, like estimate_json; an error is {"ok": false, "error": ...}.
std::string grid_json(const std::string& scenario_text, const Catalog& catalog, std::int64_t n_contexts,
                      std::int64_t n_concurrency);
/// Models (unless `with_models` is false: then only `model_count`, no model
/// file is read and pipelines are listed without their components), GPUs,
/// weight formats, pipelines, engines and defaults, for pickers: JSON text,
/// written directly (the page asks for it before its first estimate).
std::string catalog_summary_text(const Catalog& catalog, bool with_models = true);
/// The same as a JSON document.
nlohmann::json catalog_summary_json(const Catalog& catalog, bool with_models = true);
/// Every catalog model with its size and formats, for a type-ahead (the
/// `models` of `catalog_summary_json`).
nlohmann::json catalog_models_json(const Catalog& catalog);

}  // namespace vram
