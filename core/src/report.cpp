#include "vram/report.hpp"

#include <cmath>
#include <cstdio>

namespace vram {

using nlohmann::json;

void Report::add(Component c) {
  total += c.bytes;
  components.push_back(std::move(c));
}

void Report::metric(const std::string& name, double value) {
  for (auto& m : metrics) {
    if (m.name == name) {
      m.value = value;
      return;
    }
  }
  metrics.push_back({name, value});
}

const Metric* Report::find_metric(const std::string& name) const {
  for (const auto& m : metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

const Component* Report::find_component(const std::string& id) const {
  for (const auto& c : components) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

json to_json(const Report& r) {
  json j;
  j["ok"] = true;
  j["v"] = 1;
  json comps = json::array();
  for (const auto& c : r.components) {
    comps.push_back({{"id", c.id}, {"label", c.label}, {"bytes", c.bytes.in_bytes()}, {"formula", c.formula}, {"source", c.source}});
  }
  j["components"] = comps;
  j["total_bytes"] = r.total.in_bytes();
  j["capacity_bytes"] = r.capacity.in_bytes();
  j["usable_bytes"] = r.usable.in_bytes();
  j["free_bytes"] = r.free.in_bytes();
  j["fits"] = r.fits;
  json metrics = json::object();
  for (const auto& m : r.metrics) {
    if (std::isfinite(m.value) && m.value == std::floor(m.value) && std::fabs(m.value) < 9e15) {
      metrics[m.name] = static_cast<std::int64_t>(m.value);
    } else if (std::isfinite(m.value)) {
      metrics[m.name] = std::round(m.value * 10000.0) / 10000.0;
    } else {
      metrics[m.name] = nullptr;
    }
  }
  j["metrics"] = metrics;
  j["defaults_used"] = r.defaults_used;
  j["warnings"] = r.warnings;
  j["details"] = r.details;
  return j;
}

std::string to_text(const Report& r) {
  std::string out;
  char buf[256];
  for (const auto& c : r.components) {
    std::snprintf(buf, sizeof buf, "%-24s %14s  %12s\n", c.label.c_str(), format_exact(c.bytes).c_str(), format_iec(c.bytes).c_str());
    out += buf;
    out += "    " + c.formula + "\n";
  }
  std::snprintf(buf, sizeof buf, "%-24s %14s  %12s\n", "Total per GPU", format_exact(r.total).c_str(), format_iec(r.total).c_str());
  out += buf;
  std::snprintf(buf, sizeof buf, "%-24s %14s  %12s\n", "Usable (after headroom)", format_exact(r.usable).c_str(), format_iec(r.usable).c_str());
  out += buf;
  out += r.fits ? "Fits: " + format_iec(r.free) + " free\n" : "Does not fit: " + format_iec(Bytes{} - r.free) + " short\n";
  if (!r.metrics.empty()) {
    out += "Metrics:\n";
    for (const auto& m : r.metrics) {
      if (m.value == std::floor(m.value)) std::snprintf(buf, sizeof buf, "  %-22s %s\n", m.name.c_str(), group_thousands(static_cast<std::int64_t>(m.value)).c_str());
      else std::snprintf(buf, sizeof buf, "  %-22s %.2f\n", m.name.c_str(), m.value);
      out += buf;
    }
  }
  for (const auto& d : r.defaults_used) out += "default: " + d + "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  return out;
}

}  // namespace vram
