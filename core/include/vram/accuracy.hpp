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
  int line = 0;  ///< 1-based line of the .jsonl text
  std::string id;
  std::string workload;
  std::string engine;      ///< inference engine, or "" for other workloads
  std::string error;       ///< why the case could not be estimated ("" when it was)
  std::string error_path;  ///< JSON pointer within the line of the field at fault ("" for the whole line)
  bool malformed = false;  ///< the line is not a valid case (as opposed to a valid case not estimated)
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
  int not_estimated = 0;  ///< valid cases the estimator refused (e.g. a workload it does not estimate yet)
  int malformed = 0;      ///< lines that are not valid cases (each reported with its line and field)
};

/// Runs every line of a .jsonl text (blank lines skipped). A line that is not
/// a valid case (bad JSON, a field of the wrong type, a measured value that is
/// not a positive number) is reported with its line number and field, and the
/// run goes on with the other lines.
AccuracyRun run_accuracy(const std::string& jsonl, const Catalog& catalog);

/// Percentile (0..100) of |values| by linear interpolation; 0 for none.
double abs_percentile(std::vector<double> values, double percentile);

nlohmann::json to_json(const AccuracyRun& run);
std::string to_text(const AccuracyRun& run);

}  // namespace vram
