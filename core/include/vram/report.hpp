// The report (CONTRACT v1 section 2): the budget per GPU, in the article's
// categories, each with its bytes, the formula that produced them and a source.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vram/budget/term.hpp"
#include "vram/units.hpp"

namespace vram {

/// One budget line.
struct Component {
  std::string_view id;     ///< weights, kv_cache, activations, non_torch, cuda_graphs, cuda_context, ... (a literal)
  std::string_view label;  ///< a literal
  Bytes bytes;
  std::string formula;  ///< every factor visible, ending in "= N B ≈ X GiB"
  std::string source;   ///< paper, documentation page or code path pinned to a version
  /// Allocated outside the engine's own reservation (vLLM: the CUDA context
  /// before it, CUDA graphs after it); see plan/fit.hpp.
  bool outside_reservation = false;
  /// Held by the framework's caching allocator (torch.cuda.memory_reserved
  /// counts it); false for the CUDA context, NCCL and other non-torch memory.
  bool torch_allocator = true;
  /// Where a calibrated figure may lie (CONTRACT 1.1); none for a derived one.
  std::optional<ByteRange> range = std::nullopt;
};

/// A named figure (CONTRACT section 3). Bytes and tokens are integers.
struct Metric {
  std::string_view name;  ///< a literal from the vocabulary
  double value;
};

struct Report {
  /// When false (sweeps, solvers), engines skip formula text and details: only
  /// the figures are computed.
  bool explain = true;
  std::vector<Component> components;  ///< per GPU
  Bytes total;                        ///< sum of components
  Bytes capacity;                     ///< what the framework sees on one GPU
  Bytes usable;                       ///< capacity × (1 − headroom)
  Bytes free;                         ///< usable − total (negative when it does not fit)
  bool fits = false;
  /// The engine's own admission check (vLLM: the KV pool holds `concurrency`
  /// sequences of `context` tokens); the fit verdict requires it too.
  bool engine_admits = true;
  /// The share of the card the engine reserves for itself (vLLM:
  /// gpu_memory_utilization × memory); it replaces the scenario's headroom.
  std::optional<Bytes> reservation;
  std::vector<Metric> metrics;
  /// Ranges of calibrated metrics (CONTRACT 1.1 "ranges"), keyed by metric name.
  std::vector<std::pair<std::string_view, ByteRange>> metric_ranges;
  std::vector<std::string> defaults_used;
  std::vector<std::string> warnings;
  /// Engine accounting, model and GPU summary (presentation data): key → JSON text.
  std::vector<std::pair<std::string_view, std::string>> details;

  void add(Component c);
  void metric(std::string_view name, double value);
  void metric_range(std::string_view name, ByteRange r);
  /// The total with each component at the ends of its range; none when no component has one.
  std::optional<ByteRange> total_range() const;
  void detail(std::string_view key, std::string json_text) { details.emplace_back(key, std::move(json_text)); }
  /// Value of a metric, or nullptr.
  const Metric* find_metric(std::string_view name) const;
  const Component* find_component(std::string_view id) const;
};

/// `f()` when the report explains itself, else an empty string (not built).
template <typename F>
std::string explained(const Report& r, F&& f) {
  return r.explain ? std::string(f()) : std::string();
}

namespace io {
class JsonWriter;
}

/// `{"ok": true, "v": 1, ...}` per the contract, as JSON text.
std::string to_json_text(const Report& report);
/// The same written by `w` (a face that hands the text on without a copy).
void write_json(io::JsonWriter& w, const Report& report);

/// A readable text form for the terminal.
std::string to_text(const Report& report);

}  // namespace vram
