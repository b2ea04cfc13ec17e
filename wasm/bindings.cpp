// The WebAssembly face: JSON strings in, JSON strings out. Nothing here
// computes; every exception is caught so JavaScript always gets an object.
#include <emscripten/bind.h>

#include <string>

#include "vram/catalog.hpp"
#include "vram/estimate.hpp"
#include "vram/error.hpp"
#include "vram/plan.hpp"

namespace {

/// The catalog is immutable data embedded in the module; it is parsed once.
const vram::Catalog& catalog() {
  static const vram::Catalog c(vram::embedded_catalog_files());
  return c;
}

template <typename F>
std::string guarded(F&& f) {
  try {
    return f();
  } catch (const vram::InputError& e) {
    return vram::error_json(e.path(), e.what()).dump();
  } catch (const std::exception& e) {
    return vram::error_json("", std::string("internal error: ") + e.what()).dump();
  } catch (...) {
    return vram::error_json("", "internal error").dump();
  }
}

std::string estimate(const std::string& scenario) {
  return guarded([&] { return vram::estimate_json(scenario, catalog()).dump(); });
}

std::string plan(const std::string& scenario) {
  return guarded([&] { return vram::plan_json(scenario, catalog()).dump(); });
}

std::string sweep(const std::string& scenario) {
  return guarded([&] { return vram::sweep_json(scenario, catalog()).dump(); });
}

std::string catalog_json() {
  return guarded([&] { return vram::catalog_summary_json(catalog()).dump(); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(vram_budget) {
  emscripten::function("estimate", &estimate);
  emscripten::function("plan", &plan);
  emscripten::function("sweep", &sweep);
  emscripten::function("catalog", &catalog_json);
}
