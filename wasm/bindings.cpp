// The WebAssembly face: JSON strings in, JSON strings out. Nothing here
// computes; every exception is caught so JavaScript always gets an object.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <string>

#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/plan.hpp"

namespace {

/// The catalog is immutable data embedded in the module; it is parsed once.
const vram::Catalog& catalog() {
  static const vram::Catalog c(vram::embedded_catalog_files());
  return c;
}

// Hands text to JavaScript through one TextDecoder call over the known length;
// embind's std::string return path (and UTF8ToString) scan the bytes one by one
// in JavaScript first.
EM_JS(emscripten::EM_VAL, vram_text_to_js, (const char* text, int length), {
  if (!Module.vramTextDecoder) Module.vramTextDecoder = new TextDecoder("utf-8");
  return Emval.toHandle(Module.vramTextDecoder.decode(HEAPU8.subarray(text, text + length)));
});

emscripten::val to_js(const std::string& text) {
  return emscripten::val::take_ownership(vram_text_to_js(text.data(), static_cast<int>(text.size())));
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

emscripten::val estimate(const std::string& scenario) {
  return to_js(guarded([&] { return vram::estimate_json(scenario, catalog()); }));
}

emscripten::val plan(const std::string& scenario) {
  return to_js(guarded([&] { return vram::plan_json(scenario, catalog()).dump(); }));
}

emscripten::val sweep(const std::string& scenario) {
  return to_js(guarded([&] { return vram::sweep_json(scenario, catalog()).dump(); }));
}

emscripten::val grid(const std::string& scenario, int n_contexts, int n_concurrency) {
  return to_js(guarded([&] { return vram::grid_json(scenario, catalog(), n_contexts, n_concurrency).dump(); }));
}

emscripten::val catalog_json() {
  return to_js(guarded([&] { return vram::catalog_summary_json(catalog()).dump(); }));
}

}  // namespace

EMSCRIPTEN_BINDINGS(vram_budget) {
  emscripten::function("estimate", &estimate);
  emscripten::function("plan", &plan);
  emscripten::function("sweep", &sweep);
  emscripten::function("grid", &grid);
  emscripten::function("catalog", &catalog_json);
}
