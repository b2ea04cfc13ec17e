#include "vram/report.hpp"

#include <cmath>
#include <cstdio>

#include "vram/io/json_writer.hpp"

namespace vram {

using nlohmann::json;

void Report::add(Component c) {
  total += c.bytes;
  components.push_back(std::move(c));
}

void Report::metric(std::string_view name, double value) {
  for (auto& m : metrics) {
    if (m.name == name) {
      m.value = value;
      return;
    }
  }
  metrics.push_back({name, value});
}

void Report::metric_range(std::string_view name, ByteRange r) {
  for (auto& [n, range] : metric_ranges) {
    if (n == name) {
      range = r;
      return;
    }
  }
  metric_ranges.emplace_back(name, r);
}

std::optional<ByteRange> Report::total_range() const {
  bool any = false;
  ByteRange t{total, total};
  for (const auto& c : components) {
    if (!c.range) continue;
    any = true;
    t.low += c.range->low - c.bytes;
    t.high += c.range->high - c.bytes;
  }
  return any ? std::optional<ByteRange>(t) : std::nullopt;
}

const Metric* Report::find_metric(std::string_view name) const {
  for (const auto& m : metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

const Component* Report::find_component(std::string_view id) const {
  for (const auto& c : components) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

}  // namespace vram
