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
    malformed(r, "/measured", "must be an object of metric name → measured number; got " +
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
    return malformed(r, "/scenario",
                     "must be a scenario object; got " +
                         (sc == c.end() ? std::string("nothing") : io::describe_value(*sc))),
           false;
  }
  // Labels for the summary, read without trusting their types.
  const auto w = sc->find("workload");
  r.workload = w != sc->end() && w->is_string() ? w->get<std::string>() : "inference";
  return true;
}

CaseResult run_case(const json& c, const Catalog& catalog, int line) {
  CaseResult r;
  r.line = line;
  r.id = "line " + std::to_string(line);
  bool upper = false;
  std::vector<std::pair<std::string, double>> measured;
  if (!read_case_fields(c, r, upper) || !read_measured(c, r, measured)) return r;
  Report report;
  try {
    const Scenario s = parse_scenario(c["scenario"], catalog);
    r.workload = to_string(s.workload);
    if (s.workload == Workload::inference) r.engine = to_string(s.inference().engine);
    report = estimate(s);
  } catch (const InputError& e) {
    r.error_path = "/scenario" + e.path();
    r.error = (e.path().empty() ? std::string() : e.path() + ": ") + e.what();
    return r;
  }
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
        return r;
      }
    }
    r.checks.push_back(m);
  }
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
  std::map<std::pair<std::string, std::string>, std::vector<double>> groups;
  for (const auto& c : run.cases) {
    if (c.malformed) {
      ++run.malformed;
      continue;
    }
    if (!c.error.empty()) {
      ++run.not_estimated;
      continue;
    }
    const std::string g = c.engine.empty() ? c.workload : c.workload + "/" + c.engine;
    for (const auto& m : c.checks) {
      if (m.predicted && !m.upper_bound) groups[{g, m.metric}].push_back(m.rel_error);
    }
  }
  for (const auto& [key, errs] : groups) {
    run.summary.push_back({key.first, key.second, static_cast<int>(errs.size()), abs_percentile(errs, 50),
                           abs_percentile(errs, 90), abs_percentile(errs, 100)});
  }
  return run;
}

json to_json(const AccuracyRun& run) {
  json cases = json::array();
  for (const auto& c : run.cases) {
    json checks = json::array();
    for (const auto& m : c.checks) {
      checks.push_back({{"metric", m.metric},
                        {"measured", m.measured},
                        {"predicted", m.predicted ? json(*m.predicted) : json(nullptr)},
                        {"rel_error", m.predicted ? json(m.rel_error) : json(nullptr)},
                        {"upper_bound", m.upper_bound},
                        {"within_bound", m.within_bound}});
    }
    cases.push_back({{"line", c.line},
                     {"id", c.id},
                     {"workload", c.workload},
                     {"engine", c.engine},
                     {"error", c.error},
                     {"error_path", c.error_path},
                     {"malformed", c.malformed},
                     {"checks", checks}});
  }
  json summary = json::array();
  for (const auto& s : run.summary) {
    summary.push_back({{"group", s.group},
                       {"metric", s.metric},
                       {"n", s.n},
                       {"median_abs_rel_error", s.median_abs},
                       {"p90_abs_rel_error", s.p90_abs},
                       {"max_abs_rel_error", s.max_abs}});
  }
  return {{"cases", cases},
          {"summary", summary},
          {"not_estimated", run.not_estimated},
          {"malformed", run.malformed},
          {"total", run.cases.size()}};
}

std::string to_text(const AccuracyRun& run) {
  std::string out;
  char buf[320];
  for (const auto& c : run.cases) {
    if (c.malformed) {
      out += "line " + std::to_string(c.line) + ": not a valid case: " + (c.error_path.empty() ? "" : c.error_path + ": ") +
             c.error + "\n";
      continue;
    }
    if (!c.error.empty()) {
      out += c.id + std::string(c.id.size() < 26 ? 26 - c.id.size() : 1, ' ') + " not estimated: " + c.error + "\n";
      continue;
    }
    for (const auto& m : c.checks) {
      if (!m.predicted) {
        std::snprintf(buf, sizeof buf, "%-26s %-20s measured %16.6g  (no prediction)\n", c.id.c_str(), m.metric.c_str(),
                      m.measured);
      } else {
        std::snprintf(buf, sizeof buf, "%-26s %-20s measured %16.6g  predicted %16.6g  %+7.2f%%%s\n", c.id.c_str(),
                      m.metric.c_str(), m.measured, *m.predicted, m.rel_error * 100.0,
                      m.upper_bound ? (m.within_bound ? "  (ceiling: within)" : "  (ceiling: EXCEEDED)") : "");
      }
      out += buf;
    }
  }
  out += "\nSummary (|relative error| over exact cases)\n";
  std::snprintf(buf, sizeof buf, "%-22s %-20s %4s %9s %9s %9s\n", "group", "metric", "n", "median", "p90", "max");
  out += buf;
  for (const auto& s : run.summary) {
    std::snprintf(buf, sizeof buf, "%-22s %-20s %4d %8.2f%% %8.2f%% %8.2f%%\n", s.group.c_str(), s.metric.c_str(), s.n,
                  s.median_abs * 100, s.p90_abs * 100, s.max_abs * 100);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "%zu cases, %d not estimated, %d not valid cases\n", run.cases.size(), run.not_estimated,
                run.malformed);
  out += buf;
  return out;
}

}  // namespace vram
