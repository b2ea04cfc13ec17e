// What lies behind an accuracy gap, derived from the report and the case alone
// (no prose per case): where the measurement falls against the stated range,
// the case's other measured terms and how far each is off, the report's largest
// and calibrated terms, and the settings the case states that the estimator
// does not read (`extra`).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "vram/workloads.hpp"
#include "vram/accuracy.hpp"
#include "vram/report.hpp"

namespace vram {

using nlohmann::json;

std::optional<MetricUnit> metric_unit(std::string_view metric) {
  const MetricUnit* u = find_choice(kMetricUnits, metric);
  return u ? std::optional<MetricUnit>(*u) : std::nullopt;
}

std::vector<std::pair<std::string, MetricRange>> report_ranges(const Report& report) {
  // Read back from the report's own JSON, so that what is scored is what the contract publishes.
  std::vector<std::pair<std::string, MetricRange>> out;
  const json j = json::parse(to_json_text(report), nullptr, false);
  const auto it = j.find("ranges");
  if (j.is_discarded() || it == j.end() || !it->is_object()) return out;
  for (auto r = it->begin(); r != it->end(); ++r) {
    if (!r->is_array() || r->size() != 2 || !(*r)[0].is_number() || !(*r)[1].is_number()) continue;
    out.emplace_back(r.key(), MetricRange{(*r)[0].get<double>(), (*r)[1].get<double>()});
  }
  return out;
}

namespace {

std::string gib(double bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / 1073741824.0);
  return buf;
}

std::string signed_gib(double bytes) {
  return (bytes >= 0 ? "+" : "−") + gib(std::fabs(bytes));
}

/// A value in its metric's unit: GiB for bytes, whole tokens, a ratio to 2 decimals.
std::string shown(std::string_view metric, double v) {
  const auto u = metric_unit(metric);
  if (!u || *u == MetricUnit::bytes) return gib(v);
  // Whole tokens below 2^53; anything larger (no real measurement) as a plain number.
  if (*u == MetricUnit::tokens)
    return (v < 9.0e15 ? group_thousands(static_cast<std::int64_t>(std::llround(v))) : format_decimal(v, 0)) +
           " tokens";
  return format_decimal(v, 2);
}

std::string range_part(const MetricCheck& m) {
  if (!m.range) return "no range stated (a derived figure)";
  const std::string span = shown(m.metric, m.range->low) + " – " + shown(m.metric, m.range->high);
  if (m.range->contains(m.measured)) return "measured inside the stated range " + span;
  const bool above = m.measured > m.range->high;
  const double by = above ? m.measured - m.range->high : m.range->low - m.measured;
  return "measured " + shown(m.metric, by) + (above ? " above" : " below") + " the stated range " + span;
}

/// The case's measured byte terms, furthest off first: "kv_cache_bytes −1.20 GiB, ...".
std::string term_gaps(const CaseResult& c, const MetricCheck& m) {
  std::vector<std::pair<double, std::string>> gaps;
  for (const auto& o : c.checks) {
    if (&o == &m || !o.predicted || metric_unit(o.metric) != MetricUnit::bytes) continue;
    gaps.emplace_back(*o.predicted - o.measured, o.metric);
  }
  if (gaps.empty()) return "";
  std::sort(gaps.begin(), gaps.end(),
            [](const auto& a, const auto& b) { return std::fabs(a.first) > std::fabs(b.first); });
  std::string out = "other measured terms, estimate − measured: ";
  for (std::size_t i = 0; i < gaps.size() && i < 3; ++i)
    out += (i ? ", " : "") + gaps[i].second + " " + signed_gib(gaps[i].first);
  return out;
}

/// The report's largest term and its calibrated ones.
std::string report_terms(const Report& r) {
  if (r.components.empty() || r.total.in_bytes() <= 0) return "";
  const auto largest = std::max_element(r.components.begin(), r.components.end(),
                                        [](const Component& a, const Component& b) { return a.bytes < b.bytes; });
  const double total = static_cast<double>(r.total.in_bytes());
  std::string out =
      "largest term " + std::string(largest->label) + " " + gib(static_cast<double>(largest->bytes.in_bytes())) + " (" +
      format_decimal(100.0 * static_cast<double>(largest->bytes.in_bytes()) / total, 0) + " % of the total)";
  std::string calibrated;
  for (const auto& c : r.components) {
    if (!c.range) continue;
    calibrated += (calibrated.empty() ? "" : ", ") + std::string(c.label) + " " +
                  gib(static_cast<double>(c.range->low.in_bytes())) + " – " +
                  gib(static_cast<double>(c.range->high.in_bytes()));
  }
  return calibrated.empty() ? out : out + "; calibrated terms: " + calibrated;
}

/// Settings the case gives under `extra` (CONTRACT section 1), which the estimator does not read.
std::string extra_part(const json& scenario) {
  std::string keys;
  auto add = [&](const json& block, bool training) {
    const auto e = block.find("extra");
    if (e == block.end() || !e->is_object()) return;
    for (auto k = e->begin(); k != e->end(); ++k) {
      const bool read = training && std::find(kTrainingExtraFlags.begin(), kTrainingExtraFlags.end(), k.key()) !=
                                        kTrainingExtraFlags.end();
      if (!read) keys += (keys.empty() ? "" : ", ") + k.key();
    }
  };
  if (!scenario.is_object()) return "";
  add(scenario, false);
  for (auto b = scenario.begin(); b != scenario.end(); ++b)
    if (b->is_object()) add(*b, b.key() == "training");
  return keys.empty() ? "" : "not modelled (given under extra): " + keys;
}

}  // namespace

std::string mechanism_note(const CaseResult& c, const MetricCheck& m, const Report& report, const json& scenario) {
  std::string out = range_part(m);
  for (const std::string& part : {term_gaps(c, m), report_terms(report), extra_part(scenario)})
    if (!part.empty()) out += "; " + part;
  return out;
}

}  // namespace vram
