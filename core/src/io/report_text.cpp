// The report as text: JSON (CONTRACT section 2) and the terminal form.
#include "vram/report.hpp"
#include <cmath>
#include <cstdio>
#include "vram/io/json_writer.hpp"

namespace vram {

namespace {

/// "ranges": {"metric": [low, high], ...}: the engine's calibrated metrics and,
/// when the report states the peak the driver sees, that peak's range.
void write_ranges(io::JsonWriter& w, const Report& r) {
  const std::optional<ByteRange> total = r.find_metric("peak_device_bytes") ? r.total_range() : std::nullopt;
  if (r.metric_ranges.empty() && !total) return;
  w.key("ranges").begin_object();
  for (const auto& [name, range] : r.metric_ranges) {
    w.key(name).begin_array().value(range.low.in_bytes()).value(range.high.in_bytes()).end_array();
  }
  if (total) w.key("peak_device_bytes").begin_array().value(total->low.in_bytes()).value(total->high.in_bytes()).end_array();
  w.end_object();
}

}  // namespace

void write_json(io::JsonWriter& w, const Report& r) {
  w.begin_object().key("ok").value(true).key("v").value(1);
  w.key("components").begin_array();
  for (const auto& c : r.components) {
    w.begin_object().key("id").value(c.id).key("label").value(c.label).key("bytes").value(c.bytes.in_bytes());
    w.key("formula").value(c.formula).key("source").value(c.source);
    if (c.range) {
      w.key("range").begin_object().key("low").value(c.range->low.in_bytes());
      w.key("high").value(c.range->high.in_bytes()).end_object();
    }
    w.end_object();
  }
  w.end_array();
  w.key("total_bytes").value(r.total.in_bytes()).key("capacity_bytes").value(r.capacity.in_bytes());
  w.key("usable_bytes").value(r.usable.in_bytes()).key("free_bytes").value(r.free.in_bytes()).key("fits").value(r.fits);
  w.key("metrics").begin_object();
  for (const auto& m : r.metrics) {
    w.key(m.name);
    if (!std::isfinite(m.value))
      w.null();
    else if (m.value == std::floor(m.value) && std::fabs(m.value) <= 9007199254740992.0)  // 2^53: exact in a double
      w.value(static_cast<std::int64_t>(m.value));
    else
      w.value(std::round(m.value * 10000.0) / 10000.0);
  }
  w.end_object();
  write_ranges(w, r);
  w.key("defaults_used").begin_array();
  for (const auto& d : r.defaults_used) w.value(d);
  w.end_array().key("warnings").begin_array();
  for (const auto& x : r.warnings) w.value(x);
  w.end_array();
  w.key("details").begin_object();
  for (const auto& [k, text] : r.details) w.key(k).raw(text);
  w.end_object();
  w.end_object();
}

std::string to_json_text(const Report& r) {
  char store[12288];  // a report with its details fits; the text is copied out once
  io::JsonWriter w(store, sizeof store);
  write_json(w, r);
  return w.take();
}

std::string to_text(const Report& r) {
  std::string out;
  char buf[256];
  for (const auto& c : r.components) {
    std::snprintf(buf, sizeof buf, "%-24s %14s  %12s\n", std::string(c.label).c_str(), format_exact(c.bytes).c_str(),
                  format_iec(c.bytes).c_str());
    out += buf;
    out += "    " + c.formula + "\n";
    if (c.range) out += "    calibrated range " + format_iec(c.range->low) + " – " + format_iec(c.range->high) + "\n";
  }
  std::snprintf(buf, sizeof buf, "%-24s %14s  %12s\n", "Total per GPU", format_exact(r.total).c_str(),
                format_iec(r.total).c_str());
  out += buf;
  std::snprintf(buf, sizeof buf, "%-24s %14s  %12s\n", "Usable (after headroom)", format_exact(r.usable).c_str(),
                format_iec(r.usable).c_str());
  out += buf;
  if (r.fits)
    out += "Fits: " + format_iec(r.free) + " free\n";
  else if (r.free < Bytes{})
    out += "Does not fit: " + format_iec(Bytes{} - r.free) + " short\n";
  else
    out += "Does not fit: the engine's KV pool holds fewer sequences than requested (see the warnings)\n";
  if (!r.metrics.empty()) {
    out += "Metrics:\n";
    for (const auto& m : r.metrics) {
      if (m.value == std::floor(m.value))
        std::snprintf(buf, sizeof buf, "  %-22s %s\n", std::string(m.name).c_str(),
                      group_thousands(static_cast<std::int64_t>(m.value)).c_str());
      else
        std::snprintf(buf, sizeof buf, "  %-22s %.2f\n", std::string(m.name).c_str(), m.value);
      out += buf;
    }
  }
  // The engine's own accounting, as its formulas.
  for (const auto& [key, text] : r.details) {
    const nlohmann::ordered_json d = nlohmann::ordered_json::parse(text, nullptr, false);
    if (!d.is_object()) continue;
    for (auto it = d.begin(); it != d.end(); ++it) {
      const std::string& k = it.key();
      if (it->is_string() && k.size() > 8 && k.compare(k.size() - 8, 8, "_formula") == 0) {
        out += std::string(key) + ": " + it->get<std::string>() + "\n";
      }
    }
  }
  for (const auto& d : r.defaults_used) out += "default: " + d + "\n";
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  return out;
}

}  // namespace vram
