// Scoring the estimator against measured cases (CONTRACT v1 section 4).
//
// Each case holds a scenario and the figures a real run printed; the relative
// error of each metric is (predicted − measured) / measured.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/choice.hpp"

namespace vram {

struct Report;
struct Scenario;
struct WeightFormat;

/// The unit of a metric of the vocabulary (CONTRACT section 3).
enum class MetricUnit : std::uint8_t { bytes, tokens, ratio };
inline constexpr std::array<Choice<MetricUnit>, 12> kMetricUnits{{{MetricUnit::bytes, "weights_bytes"},
                                                                  {MetricUnit::bytes, "kv_cache_bytes"},
                                                                  {MetricUnit::bytes, "kv_bytes_per_token"},
                                                                  {MetricUnit::tokens, "kv_capacity_tokens"},
                                                                  {MetricUnit::ratio, "max_concurrency"},
                                                                  {MetricUnit::bytes, "activation_bytes"},
                                                                  {MetricUnit::bytes, "non_torch_bytes"},
                                                                  {MetricUnit::bytes, "cuda_graph_bytes"},
                                                                  {MetricUnit::bytes, "peak_allocated_bytes"},
                                                                  {MetricUnit::bytes, "peak_reserved_bytes"},
                                                                  {MetricUnit::bytes, "peak_device_bytes"},
                                                                  {MetricUnit::tokens, "max_context_tokens"}}};
inline constexpr std::array<Choice<MetricUnit>, 3> kMetricUnitNames{
    {{MetricUnit::bytes, "bytes"}, {MetricUnit::tokens, "tokens"}, {MetricUnit::ratio, "ratio"}}};
/// The unit of `metric`; nullopt for a name outside the vocabulary.
std::optional<MetricUnit> metric_unit(std::string_view metric);

/// The report's range for a metric (CONTRACT 1.1 `ranges`), in the metric's unit.
struct MetricRange {
  double low = 0;
  double high = 0;
  bool contains(double v) const { return low <= v && v <= high; }
};

struct MetricCheck {
  std::string metric;
  double measured = 0;
  std::optional<double> predicted;  ///< nullopt when the report has no such metric
  double rel_error = 0;             ///< (predicted − measured) / measured
  bool upper_bound = false;         ///< the measurement is a ceiling
  bool within_bound = true;         ///< for upper bounds: predicted ≤ measured
  /// The range the report states for this metric; nullopt for a derived metric.
  std::optional<MetricRange> range;
  /// What lies behind the gap, derived from the report and the case (see mechanism_note).
  std::string mechanism;
};

/// The rules of thumb the estimator is compared with (core/src/accuracy/baselines.cpp).
enum class BaselineKind : std::uint8_t {
  label_bytes_plus_20,  ///< parameters × nominal bytes × 1.2 (EleutherAI's inference rule)
  accelerate,           ///< `accelerate estimate-memory`: model size; Adam training peak
  kv_from_hidden,       ///< KV per token = 2 × layers × hidden × bytes (no GQA)
  kv_gqa,               ///< KV per token = 2 × layers × KV heads × head_dim × bytes, no overheads
  pipeline_weights,     ///< the sum of a pipeline's component weights
};
inline constexpr std::array<Choice<BaselineKind>, 5> kBaselines{
    {{BaselineKind::label_bytes_plus_20, "label_x_bytes_plus_20"},
     {BaselineKind::accelerate, "accelerate_estimate_memory"},
     {BaselineKind::kv_from_hidden, "kv_from_hidden"},
     {BaselineKind::kv_gqa, "kv_gqa_no_overhead"},
     {BaselineKind::pipeline_weights, "pipeline_weights_sum"}}};

/// One figure a rule of thumb predicts for a case.
struct BaselinePrediction {
  BaselineKind baseline;
  std::string_view metric;  ///< a literal of the vocabulary
  double value = 0;
};

/// One measured metric scored for one baseline, beside the estimator on the same metric.
struct BaselineCheck {
  BaselineKind baseline;
  std::string metric;
  double measured = 0;
  double predicted = 0;
  double rel_error = 0;            ///< the baseline's (predicted − measured) / measured
  double estimator_rel_error = 0;  ///< the estimator's on the same case and metric
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
  std::vector<BaselineCheck> baselines;  ///< exact cases only
};

struct MetricSummary {
  std::string group;  ///< "inference/vllm", "training", ...
  std::string metric;
  int n = 0;
  double median_abs = 0;
  double p90_abs = 0;
  double max_abs = 0;
  double within_10 = 0;     ///< share of cases with |error| ≤ 10 %
  int ranged = 0;           ///< cases whose report states a range for the metric
  int inside = 0;           ///< of those, cases whose measured value lies inside it
  double median_width = 0;  ///< median of (high − low) / predicted over the ranged cases
};

/// A baseline on one group and metric, with the estimator on exactly the same cases.
struct BaselineSummary {
  BaselineKind baseline;
  std::string group;
  std::string metric;
  int n = 0;
  double median_abs = 0, p90_abs = 0, within_10 = 0;
  double estimator_median_abs = 0, estimator_p90_abs = 0, estimator_within_10 = 0;
};

struct AccuracyRun {
  std::vector<CaseResult> cases;
  std::vector<MetricSummary> summary;
  std::vector<BaselineSummary> baselines;
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

/// Share of `values` with |value| ≤ `limit`; 0 for none.
double share_within(const std::vector<double>& values, double limit);

/// The ranges a report states per metric, as its JSON writes them (CONTRACT 1.1
/// `ranges`: the engine's calibrated metrics, and the device peak's from the
/// components' ranges).
std::vector<std::pair<std::string, MetricRange>> report_ranges(const Report& report);

/// What lies behind the gap of check `m` of case `c`, derived from the report
/// and the case alone: where the measurement falls against the stated range,
/// which of the case's measured byte terms is furthest off, the report's
/// largest and calibrated terms, and settings the case gives under `extra`.
std::string mechanism_note(const CaseResult& c, const MetricCheck& m, const Report& report,
                           const nlohmann::json& scenario);

// The rules of thumb (core/src/accuracy/baselines.cpp), each a small formula.

/// Bytes per parameter a format is nominally stored in: the payload bits of its
/// linear layers over 8, without scales (what "divide by the bit width" gives).
double nominal_bytes_per_param(const WeightFormat& format);
/// EleutherAI, "Transformer Math 101" (2023): inference memory ≈ 1.2 × model
/// memory, model memory = parameters × bytes per parameter.
double label_bytes_plus_20(std::int64_t params, double bytes_per_param);
/// The dtype rows of `accelerate estimate-memory` (accelerate v1.14.0
/// src/accelerate/commands/estimate.py, `--dtypes`).
enum class AccelerateDtype : std::uint8_t { float32, float16, int8, int4 };
/// accelerate's "Total Size" for a dtype: the fp32 size (4 B per parameter on
/// the meta device) divided by 1, 2, 4 or 8 (estimate.py gather_data).
double accelerate_total_size(std::int64_t params, AccelerateDtype dtype);
/// accelerate's "Training using Adam" peak: the largest of model, gradients,
/// optimizer and step (estimate.py estimate_training_usage); none for int8/int4.
std::optional<double> accelerate_adam_peak(std::int64_t params, AccelerateDtype dtype);
/// gpu_poor-style KV per token, without GQA: 2 × layers × hidden × bytes.
double kv_per_token_from_hidden(std::int64_t layers, std::int64_t hidden, double elem_bytes);
/// GQA-aware KV per token with no overheads: 2 × layers × KV heads × head_dim × bytes.
double kv_per_token_gqa(std::int64_t layers, std::int64_t kv_heads, std::int64_t head_dim, double elem_bytes);
/// The sum of the report's per-component weights (a pipeline's denoiser, text
/// encoders, image encoder, VAE); none when the report has fewer than two.
std::optional<double> pipeline_weights_sum(const Report& report);

/// Every figure each baseline predicts for a scenario and its report. `measured`
/// is the case's measurements: a KV rule's tokens are the engine's printed pool
/// over the rule's bytes per token, so only the per-token rule is judged.
std::vector<BaselinePrediction> baseline_predictions(const Scenario& s, const Report& report,
                                                     const std::vector<std::pair<std::string, double>>& measured);

nlohmann::json to_json(const AccuracyRun& run);
/// The per-case lines and summary; with `baselines`, the baselines beside the estimator.
std::string to_text(const AccuracyRun& run, bool baselines = false);

}  // namespace vram
