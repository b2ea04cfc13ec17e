#include "vram/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "vram/error.hpp"
#include "vram/estimate.hpp"

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

CaseResult run_case(const json& c, const Catalog& catalog) {
  CaseResult r;
  r.id = c.value("id", "(no id)");
  const json scenario = c.value("scenario", json::object());
  r.workload = scenario.value("workload", "inference");
  if (r.workload == "inference") {
    r.engine = scenario.value("inference", json::object()).value("engine", "vllm");
  }
  const bool upper = c.value("kind", "exact") == "upper_bound";
  Report report;
  try {
    report = estimate(parse_scenario(scenario, catalog));
  } catch (const InputError& e) {
    r.error = (e.path().empty() ? std::string() : e.path() + ": ") + e.what();
    return r;
  } catch (const std::exception& e) {
    r.error = e.what();
    return r;
  }
  const json measured = c.value("measured", json::object());
  for (auto it = measured.begin(); it != measured.end(); ++it) {
    if (!it->is_number()) continue;
    MetricCheck m;
    m.metric = it.key();
    m.measured = it->get<double>();
    m.upper_bound = upper;
    if (const Metric* p = report.find_metric(it.key())) {
      m.predicted = p->value;
      m.rel_error = m.measured != 0 ? (p->value - m.measured) / m.measured : 0;
      m.within_bound = !upper || p->value <= m.measured;
    }
    r.checks.push_back(m);
  }
  return r;
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
    const json c = json::parse(line, nullptr, false);
    if (c.is_discarded() || !c.is_object()) {
      CaseResult bad;
      bad.id = "line " + std::to_string(line_no);
      bad.error = "not a JSON object";
      run.cases.push_back(bad);
      continue;
    }
    run.cases.push_back(run_case(c, catalog));
  }
  std::map<std::pair<std::string, std::string>, std::vector<double>> groups;
  for (const auto& c : run.cases) {
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
    cases.push_back(
        {{"id", c.id}, {"workload", c.workload}, {"engine", c.engine}, {"error", c.error}, {"checks", checks}});
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
  return {{"cases", cases}, {"summary", summary}, {"not_estimated", run.not_estimated}, {"total", run.cases.size()}};
}

std::string to_text(const AccuracyRun& run) {
  std::string out;
  char buf[320];
  for (const auto& c : run.cases) {
    if (!c.error.empty()) {
      std::snprintf(buf, sizeof buf, "%-26s not estimated: %s\n", c.id.c_str(), c.error.c_str());
      out += buf;
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
  std::snprintf(buf, sizeof buf, "%zu cases, %d not estimated\n", run.cases.size(), run.not_estimated);
  out += buf;
  return out;
}

}  // namespace vram
