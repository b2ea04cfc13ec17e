// The estimator's entry point: scenario in, report out.
#pragma once

#include <any>
#include <string>

#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram {

class WeightsMemo;

/// What an engine keeps across the points of one sweep: the terms that do not
/// depend on concurrency (vLLM: every stage's weights, activations, runtime
/// terms and KV pool). Valid only while the scenario changes in
/// inference.context and inference.concurrency alone, and only for estimates
/// that do not explain themselves; `sweep` (plan.hpp) owns one.
struct SweepCache {
  std::any vllm;
};

/// How much an estimate explains, and what it may reuse.
struct EstimateOptions {
  bool explain = true;          ///< formula text, details and notes (off for sweeps and solvers)
  WeightsMemo* memo = nullptr;  ///< reuse weight sums across estimates of one model and format
  SweepCache* sweep = nullptr;  ///< reuse within one sweep (see SweepCache); ignored when explaining
};

/// The budget of one scenario, per GPU, with the fit verdict.
///
/// Example (the article's hypothetical model): {"params": 13000000000}, bf16,
/// on an H100 80GB with 10 % headroom: weights 13,000,000,000 × 2 B =
/// 26,000,000,000 B ≈ 24.21 GiB, plus the engine's runtime terms.
Report estimate(const Scenario& scenario, const EstimateOptions& options = {});
/// The same, taking the scenario's defaults and warnings rather than copying them.
Report estimate(Scenario&& scenario, const EstimateOptions& options = {});

/// Throws the engine layer's "not estimated yet" `InputError` at /workload for
/// workloads this version reads but does not estimate (training, image, video).
void require_estimated(const Scenario& scenario);

/// The model as the estimator resolved it (parameters, layers, layer kinds,
/// experts, weight format), as a JSON object text.
std::string model_summary_json(const Scenario& scenario);

/// Parses and estimates; bad input becomes {"ok": false, "error": {path, message}}.
/// Returns JSON text. Never throws.
std::string estimate_json(const std::string& scenario_text, const Catalog& catalog);
/// Parses, estimates and writes the report with `w`; bad input throws (an
/// InputError naming the field) before anything is written.
void write_estimate_json(io::JsonWriter& w, const std::string& scenario_text, const Catalog& catalog);

/// Turns any exception into the contract's error object.
nlohmann::json error_json(const std::string& path, const std::string& message);
/// The same as JSON text, valid UTF-8 whatever the message quotes. Never throws
/// on content (only on memory exhaustion).
std::string error_text(const std::string& path, const std::string& message);

/// `f()` (JSON text), or the error text of what it threw: an InputError with
/// its path, any other exception as an internal error. The faces' one guard.
template <typename F>
std::string text_or_error(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    return error_text(e.path(), e.what());
  } catch (const std::exception& e) {
    return error_text("", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_text("", "internal error");
  }
}

}  // namespace vram
