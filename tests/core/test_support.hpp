// Shared helpers for the core tests: the embedded catalog, built once.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "vram/budget/generation.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/generation/pipeline.hpp"
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

/// A catalog pipeline and one of its components (fail the test when missing).
inline const generation::Pipeline& pipeline(const char* id) {
  const auto p = catalog().find_pipeline(id);
  if (!p) throw std::runtime_error(std::string("no pipeline ") + id);
  return *p;
}

inline const generation::Component& part(const char* id, const char* name) {
  const generation::Component* c = pipeline(id).find(name);
  if (!c) throw std::runtime_error(std::string("no component ") + name);
  return *c;
}

/// The decode of a catalog pipeline at `width` × `height` × `frames`, in 16 bits (its own latent geometry).
inline generation::DecodeShape native_decode(const char* id, std::int64_t width, std::int64_t height,
                                             std::int64_t frames) {
  generation::DecodeShape s;
  s.latent = generation::latent_geometry(pipeline(id), GenerationSettings{}, width, height, frames);
  s.width = width;
  s.height = height;
  s.frames = frames;
  s.elem = 2;
  return s;
}

/// The InputError a scenario raises: its path ("(no error)" when it estimates) and message.
struct Failure {
  std::string path, message;
};
inline Failure failure(const nlohmann::json& j) {
  try {
    (void)run(j);
  } catch (const InputError& e) {
    return {e.path(), e.what()};
  }
  return {"(no error)", ""};
}

/// The JSON path of the InputError a scenario raises ("(no error)" when it
/// estimates), and its message.
inline std::string error_path(const nlohmann::json& j, std::string* message = nullptr) {
  Failure f = failure(j);
  if (message && f.path != "(no error)") *message = std::move(f.message);
  return f.path;
}

/// The bf16 KV cache element.
inline const KvDtype kBf16 = kv_dtype_of(KvKind::bf16);

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
