// The report (CONTRACT v1 section 2): the budget per GPU, in the article's
// categories, each with its bytes, the formula that produced them and a source.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "vram/units.hpp"

namespace vram {

/// One budget line.
struct Component {
  std::string id;       ///< weights, kv_cache, activations, workspace, runtime, cuda_graphs, ...
  std::string label;
  Bytes bytes;
  std::string formula;  ///< every factor visible, ending in "= N B ≈ X GiB"
  std::string source;   ///< paper, documentation page or code path pinned to a version
};

/// A named figure (CONTRACT section 3). Bytes and tokens are integers.
struct Metric {
  std::string name;
  double value;
};

struct Report {
  std::vector<Component> components;  ///< per GPU
  Bytes total;                        ///< sum of components
  Bytes capacity;                     ///< what the framework sees on one GPU
  Bytes usable;                       ///< capacity × (1 − headroom)
  Bytes free;                         ///< usable − total (negative when it does not fit)
  bool fits = false;
  std::vector<Metric> metrics;
  std::vector<std::string> defaults_used;
  std::vector<std::string> warnings;
  /// Engine accounting, model summary, solver answers and hints (presentation data).
  nlohmann::json details = nlohmann::json::object();

  void add(Component c);
  void metric(const std::string& name, double value);
  /// Value of a metric, or nullptr.
  const Metric* find_metric(const std::string& name) const;
  const Component* find_component(const std::string& id) const;
};

/// `{"ok": true, "v": 1, ...}` per the contract.
nlohmann::json to_json(const Report& report);

/// A readable text form for the terminal.
std::string to_text(const Report& report);

}  // namespace vram
