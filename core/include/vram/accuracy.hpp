// Scoring the estimator against measured cases (CONTRACT v1 section 4).
//
// Each case holds a scenario and the figures a real run printed; the relative
// error of each metric is (predicted − measured) / measured.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vram/catalog.hpp"

namespace vram {

struct MetricCheck {
  std::string metric;
  double measured = 0;
  std::optional<double> predicted;  ///< nullopt when the report has no such metric
  double rel_error = 0;             ///< (predicted − measured) / measured
  bool upper_bound = false;         ///< the measurement is a ceiling
  bool within_bound = true;         ///< for upper bounds: predicted ≤ measured
};

struct CaseResult {
  std::string id;
  std::string workload;
  std::string engine;  ///< inference engine, or "" for other workloads
  std::string error;   ///< why the case could not be estimated ("" when it was)
  std::vector<MetricCheck> checks;
};

struct MetricSummary {
  std::string group;  ///< "inference/vllm", "training", ...
  std::string metric;
  int n = 0;
  double median_abs = 0;
  double p90_abs = 0;
  double max_abs = 0;
};

struct AccuracyRun {
  std::vector<CaseResult> cases;
  std::vector<MetricSummary> summary;
  int not_estimated = 0;
};

/// Runs every line of a .jsonl text (blank lines skipped). A line that is not
/// a valid case is reported as not estimated, with the reason.
AccuracyRun run_accuracy(const std::string& jsonl, const Catalog& catalog);

/// Percentile (0..100) of |values| by linear interpolation; 0 for none.
double abs_percentile(std::vector<double> values, double percentile);

nlohmann::json to_json(const AccuracyRun& run);
std::string to_text(const AccuracyRun& run);

}  // namespace vram
