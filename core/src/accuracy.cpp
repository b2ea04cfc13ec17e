#include "vram/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_read.hpp"

namespace vram {

using nlohmann::json;

double abs_percentile(std::vector<double> v, double pct) {
  if (v.empty()) return 0;
  for (auto& x : v) x = std::fabs(x);
  std::sort(v.begin(), v.end());
  const double pos = pct / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = static_cast<std::size_t>(std::ceil(pos));
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

namespace {

/// Marks `r` as a line that is not a valid case.
CaseResult& malformed(CaseResult& r, std::string path, std::string why) {
  r.malformed = true;
  r.error_path = std::move(path);
  r.error = std::move(why);
  return r;
}

/// The measured figures of a case: an object of positive, normal numbers
/// (a zero or denormal measurement would make every relative error infinite).
bool read_measured(const json& c, CaseResult& r, std::vector<std::pair<std::string, double>>& out) {
  const auto it = c.find("measured");
  if (it == c.end() || !it->is_object() || it->empty()) {
    malformed(r, "/measured",
              "must be an object of metric name → measured number; got " +
                  (it == c.end() ? std::string("nothing") : io::describe_value(*it)));
    return false;
  }
  for (auto m = it->begin(); m != it->end(); ++m) {
    const double v = m->is_number() ? m->get<double>() : 0.0;
    if (!m->is_number() || !std::isfinite(v) || !std::isnormal(v) || v <= 0) {
      malformed(r, io::join_path("/measured", m.key()),
                "must be a positive number (bytes, tokens or a ratio); got " + io::describe_value(*m));
      return false;
    }
    out.emplace_back(m.key(), v);
  }
  return true;
}

/// Reads the case's own fields; false (with `r` marked) when one is ill-typed.
bool read_case_fields(const json& c, CaseResult& r, bool& upper) {
  if (const auto id = c.find("id"); id != c.end()) {
    if (!id->is_string()) return malformed(r, "/id", "must be a string; got " + io::describe_value(*id)), false;
    r.id = id->get<std::string>();
  }
  if (const auto k = c.find("kind"); k != c.end()) {
    if (!k->is_string() || (*k != "exact" && *k != "upper_bound"))
      return malformed(r, "/kind", "must be \"exact\" or \"upper_bound\"; got " + io::describe_value(*k)), false;
    upper = *k == "upper_bound";
  }
  const auto sc = c.find("scenario");
  if (sc == c.end() || !sc->is_object()) {
    return malformed(
               r, "/scenario",
               "must be a scenario object; got " + (sc == c.end() ? std::string("nothing") : io::describe_value(*sc))),
           false;
  }
  // Labels for the summary, read without trusting their types.
  const auto w = sc->find("workload");
  r.workload = w != sc->end() && w->is_string() ? w->get<std::string>() : "inference";
  return true;
}

/// The report's figure for each measured metric, with its stated range; false
/// (with `r` marked) when a measurement is too small to compare with.
bool score_checks(const Report& report, const std::vector<std::pair<std::string, double>>& measured, bool upper,
                  CaseResult& r) {
  const auto ranges = report_ranges(report);
  for (const auto& [name, value] : measured) {
    MetricCheck m;
    m.metric = name;
    m.measured = value;
    m.upper_bound = upper;
    if (const Metric* p = report.find_metric(name)) {
      m.predicted = p->value;
      m.rel_error = (p->value - value) / value;
      m.within_bound = !upper || p->value <= value;
      // A measurement so small that the relative error leaves the doubles is not
      // a measurement of this metric (1e-300 bytes).
      if (!std::isfinite(m.rel_error)) {
        r.checks.clear();
        malformed(r, io::join_path("/measured", name),
                  "is too small to compare with: the relative error of " + format_decimal(p->value, 2) +
                      " predicted is beyond any number; give the measured figure in the metric's unit");
        return false;
      }
      for (const auto& [rn, range] : ranges)
        if (rn == name) m.range = range;
    }
    r.checks.push_back(m);
  }
  return true;
}

/// Each baseline's figure for each measured metric the estimator also predicts.
void score_baselines(const Scenario& s, const Report& report,
                     const std::vector<std::pair<std::string, double>>& measured, CaseResult& r) {
  for (const BaselinePrediction& b : baseline_predictions(s, report, measured)) {
    for (const auto& m : r.checks) {
      if (m.metric != b.metric || !m.predicted) continue;
      r.baselines.push_back(
          {b.baseline, m.metric, m.measured, b.value, (b.value - m.measured) / m.measured, m.rel_error});
    }
  }
}

CaseResult run_case(const json& c, const Catalog& catalog, int line) {
  CaseResult r;
  r.line = line;
  r.id = "line " + std::to_string(line);
  bool upper = false;
  std::vector<std::pair<std::string, double>> measured;
  if (!read_case_fields(c, r, upper) || !read_measured(c, r, measured)) return r;
  Report report;
  Scenario s;
  try {
    s = parse_scenario(c["scenario"], catalog);
    r.workload = to_string(s.workload);
    if (s.workload == Workload::inference) r.engine = to_string(s.inference().engine);
    if (const TrainingWorkload* t = s.training()) r.engine = std::string(name_of(kFrameworks, t->training.framework));
    report = estimate(s);
  } catch (const InputError& e) {
    r.error_path = "/scenario" + e.path();
    r.error = (e.path().empty() ? std::string() : e.path() + ": ") + e.what();
    return r;
  }
  if (!score_checks(report, measured, upper, r)) return r;
  for (auto& m : r.checks)
    if (m.predicted) m.mechanism = mechanism_note(r, m, report, c["scenario"]);
  if (!upper) score_baselines(s, report, measured, r);
  return r;
}

/// One line of the file as a case; never throws.
CaseResult run_line(const std::string& line, int line_no, const Catalog& catalog) {
  CaseResult r;
  r.line = line_no;
  r.id = "line " + std::to_string(line_no);
  try {
    const json c = io::read_json(line, "the accuracy line");
    if (!c.is_object()) return malformed(r, "", "must be a JSON object (one case per line)");
    return run_case(c, catalog, line_no);
  } catch (const InputError& e) {
    return malformed(r, e.path(), e.what());
  } catch (const std::exception& e) {
    r.error = std::string("internal error: ") + e.what();
    return r;
  }
}

}  // namespace

namespace {

/// The group a case is summarised in: "inference/vllm", "training/torchtune", "image".
std::string group_of(const CaseResult& c) {
  return c.engine.empty() ? c.workload : c.workload + "/" + c.engine;
}

using Key = std::pair<std::string, std::string>;

MetricSummary summarise(const Key& key, const std::vector<const MetricCheck*>& checks) {
  std::vector<double> errs, widths;
  MetricSummary s{key.first, key.second};
  for (const MetricCheck* m : checks) {
    errs.push_back(m->rel_error);
    if (!m->range) continue;
    ++s.ranged;
    if (m->range->contains(m->measured)) ++s.inside;
    if (*m->predicted != 0) widths.push_back((m->range->high - m->range->low) / std::fabs(*m->predicted));
  }
  s.n = static_cast<int>(errs.size());
  s.median_abs = abs_percentile(errs, 50);
  s.p90_abs = abs_percentile(errs, 90);
  s.max_abs = abs_percentile(errs, 100);
  s.within_10 = share_within(errs, 0.10);
  s.median_width = abs_percentile(widths, 50);
  return s;
}

std::vector<BaselineSummary> summarise_baselines(const std::vector<CaseResult>& cases) {
  std::map<std::pair<BaselineKind, Key>, std::pair<std::vector<double>, std::vector<double>>> groups;
  for (const auto& c : cases) {
    if (c.malformed || !c.error.empty()) continue;
    for (const auto& b : c.baselines) {
      auto& [mine, est] = groups[{b.baseline, {group_of(c), b.metric}}];
      mine.push_back(b.rel_error);
      est.push_back(b.estimator_rel_error);
    }
  }
  std::vector<BaselineSummary> out;
  for (const auto& [key, errs] : groups) {
    const auto& [mine, est] = errs;
    out.push_back({key.first, key.second.first, key.second.second, static_cast<int>(mine.size()),
                   abs_percentile(mine, 50), abs_percentile(mine, 90), share_within(mine, 0.10),
                   abs_percentile(est, 50), abs_percentile(est, 90), share_within(est, 0.10)});
  }
  return out;
}

}  // namespace

double share_within(const std::vector<double>& values, double limit) {
  if (values.empty()) return 0;
  const auto n = std::count_if(values.begin(), values.end(), [&](double v) { return std::fabs(v) <= limit; });
  return static_cast<double>(n) / static_cast<double>(values.size());
}

AccuracyRun run_accuracy(const std::string& jsonl, const Catalog& catalog) {
  AccuracyRun run;
  std::istringstream in(jsonl);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    run.cases.push_back(run_line(line, line_no, catalog));
  }
  std::map<Key, std::vector<const MetricCheck*>> groups;
  for (const auto& c : run.cases) {
    if (c.malformed) {
      ++run.malformed;
      continue;
    }
    if (!c.error.empty()) {
      ++run.not_estimated;
      continue;
    }
    for (const auto& m : c.checks) {
      if (m.predicted && !m.upper_bound) groups[{group_of(c), m.metric}].push_back(&m);
    }
  }
  for (const auto& [key, checks] : groups) run.summary.push_back(summarise(key, checks));
  run.baselines = summarise_baselines(run.cases);
  return run;
}

namespace {

json check_json(const MetricCheck& m) {
  json j = {{"metric", m.metric},
            {"measured", m.measured},
            {"predicted", m.predicted ? json(*m.predicted) : json(nullptr)},
            {"rel_error", m.predicted ? json(m.rel_error) : json(nullptr)},
            {"upper_bound", m.upper_bound},
            {"within_bound", m.within_bound}};
  j["range"] = m.range ? json::array({m.range->low, m.range->high}) : json(nullptr);
  j["in_range"] = m.range ? json(m.range->contains(m.measured)) : json(nullptr);
  const auto unit = metric_unit(m.metric);
  j["unit"] = unit ? json(name_of(kMetricUnitNames, *unit)) : json(nullptr);
  j["mechanism"] = m.mechanism;
  return j;
}

json case_json(const CaseResult& c) {
  json checks = json::array(), baselines = json::array();
  for (const auto& m : c.checks) checks.push_back(check_json(m));
  for (const auto& b : c.baselines) {
    baselines.push_back({{"baseline", name_of(kBaselines, b.baseline)},
                         {"metric", b.metric},
                         {"measured", b.measured},
                         {"predicted", b.predicted},
                         {"rel_error", b.rel_error},
                         {"estimator_rel_error", b.estimator_rel_error}});
  }
  return {{"line", c.line},           {"id", c.id},       {"workload", c.workload},
          {"engine", c.engine},       {"error", c.error}, {"error_path", c.error_path},
          {"malformed", c.malformed}, {"checks", checks}, {"baselines", baselines}};
}

json baseline_summary_json(const BaselineSummary& s) {
  return {{"baseline", name_of(kBaselines, s.baseline)},
          {"group", s.group},
          {"metric", s.metric},
          {"n", s.n},
          {"median_abs_rel_error", s.median_abs},
          {"p90_abs_rel_error", s.p90_abs},
          {"within_10pct", s.within_10},
          {"estimator",
           {{"median_abs_rel_error", s.estimator_median_abs},
            {"p90_abs_rel_error", s.estimator_p90_abs},
            {"within_10pct", s.estimator_within_10}}}};
}

}  // namespace

json to_json(const AccuracyRun& run) {
  json cases = json::array(), summary = json::array(), baselines = json::array();
  for (const auto& c : run.cases) cases.push_back(case_json(c));
  for (const auto& s : run.summary) {
    summary.push_back({{"group", s.group},
                       {"metric", s.metric},
                       {"n", s.n},
                       {"median_abs_rel_error", s.median_abs},
                       {"p90_abs_rel_error", s.p90_abs},
                       {"max_abs_rel_error", s.max_abs},
                       {"within_10pct", s.within_10},
                       {"ranged", s.ranged},
                       {"in_range", s.inside},
                       {"coverage", s.ranged > 0 ? json(static_cast<double>(s.inside) / s.ranged) : json(nullptr)},
                       {"median_range_width", s.ranged > 0 ? json(s.median_width) : json(nullptr)}});
  }
  for (const auto& b : run.baselines) baselines.push_back(baseline_summary_json(b));
  return {{"cases", cases},
          {"summary", summary},
          {"baselines", baselines},
          {"not_estimated", run.not_estimated},
          {"malformed", run.malformed},
          {"total", run.cases.size()}};
}

namespace {

void case_lines(const CaseResult& c, std::string& out) {
  char buf[320];
  if (c.malformed) {
    out += "line " + std::to_string(c.line) +
           ": not a valid case: " + (c.error_path.empty() ? "" : c.error_path + ": ") + c.error + "\n";
    return;
  }
  if (!c.error.empty()) {
    out += c.id + std::string(c.id.size() < 26 ? 26 - c.id.size() : 1, ' ') + " not estimated: " + c.error + "\n";
    return;
  }
  for (const auto& m : c.checks) {
    if (!m.predicted) {
      std::snprintf(buf, sizeof buf, "%-26s %-20s measured %16.6g  (no prediction)\n", c.id.c_str(), m.metric.c_str(),
                    m.measured);
    } else {
      std::snprintf(buf, sizeof buf, "%-26s %-20s measured %16.6g  predicted %16.6g  %+7.2f%%%s%s\n", c.id.c_str(),
                    m.metric.c_str(), m.measured, *m.predicted, m.rel_error * 100.0,
                    m.upper_bound ? (m.within_bound ? "  (ceiling: within)" : "  (ceiling: EXCEEDED)") : "",
                    m.range ? (m.range->contains(m.measured) ? "  in range" : "  outside range") : "");
    }
    out += buf;
  }
}

void summary_lines(const AccuracyRun& run, std::string& out) {
  char buf[320];
  out += "\nSummary (|relative error| over exact cases; range coverage where the report states a range)\n";
  std::snprintf(buf, sizeof buf, "%-22s %-20s %4s %9s %9s %9s %7s %10s %9s\n", "group", "metric", "n", "median", "p90",
                "max", "≤10%", "in range", "width");
  out += buf;
  for (const auto& s : run.summary) {
    std::string cov = "-", width = "-";
    if (s.ranged > 0) {
      cov = std::to_string(s.inside) + "/" + std::to_string(s.ranged);
      width = format_decimal(s.median_width * 100, 1) + "%";
    }
    std::snprintf(buf, sizeof buf, "%-22s %-20s %4d %8.2f%% %8.2f%% %8.2f%% %6.0f%% %10s %9s\n", s.group.c_str(),
                  s.metric.c_str(), s.n, s.median_abs * 100, s.p90_abs * 100, s.max_abs * 100, s.within_10 * 100,
                  cov.c_str(), width.c_str());
    out += buf;
  }
}

void baseline_lines(const AccuracyRun& run, std::string& out) {
  char buf[320];
  out += "\nBaselines beside the estimator, on the same cases (median / p90 |relative error|)\n";
  std::snprintf(buf, sizeof buf, "%-28s %-22s %-20s %4s %19s %19s\n", "baseline", "group", "metric", "n", "baseline",
                "estimator");
  out += buf;
  for (const auto& b : run.baselines) {
    std::snprintf(buf, sizeof buf, "%-28s %-22s %-20s %4d %8.1f%% / %6.1f%% %8.1f%% / %6.1f%%\n",
                  std::string(name_of(kBaselines, b.baseline)).c_str(), b.group.c_str(), b.metric.c_str(), b.n,
                  b.median_abs * 100, b.p90_abs * 100, b.estimator_median_abs * 100, b.estimator_p90_abs * 100);
    out += buf;
  }
}

}  // namespace

std::string to_text(const AccuracyRun& run, bool baselines) {
  std::string out;
  for (const auto& c : run.cases) case_lines(c, out);
  summary_lines(run, out);
  if (baselines) baseline_lines(run, out);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu cases, %d not estimated, %d not valid cases\n", run.cases.size(),
                run.not_estimated, run.malformed);
  out += buf;
  return out;
}

}  // namespace vram
