// Shared helpers for the core tests: the embedded catalog, built once.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "vram/catalog.hpp"
#include "vram/estimate.hpp"
#include "vram/scenario.hpp"

namespace vram::test {

inline const Catalog& catalog() {
  static const Catalog c(embedded_catalog_files());
  return c;
}

/// A catalog model's architecture (fails the test when the id is missing).
inline const Architecture& arch(const char* id) {
  const CatalogModel* m = catalog().find_model(id);
  if (m == nullptr) throw std::runtime_error(std::string("not in the catalog: ") + id);
  return m->model.arch;
}

inline Scenario scenario(const nlohmann::json& j) {
  return parse_scenario(j, catalog());
}

inline Report run(const nlohmann::json& j) {
  return estimate(scenario(j));
}

inline double metric(const Report& r, const std::string& name) {
  const Metric* m = r.find_metric(name);
  return m ? m->value : -1;
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace vram::test
