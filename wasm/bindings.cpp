// The WebAssembly face: JSON strings in, JSON strings out. Nothing here
// computes; every exception is caught so JavaScript always gets an object.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <string>
#include <string_view>
#include <utility>

#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/io/inspect.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/json_read.hpp"
#include "vram/io/reconcile.hpp"
#include "vram/plan.hpp"
#include "vram/units.hpp"

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

emscripten::val to_js(std::string_view text) {
  return emscripten::val::take_ownership(vram_text_to_js(text.data(), static_cast<int>(text.size())));
}

// The same for text that is ASCII by construction (an estimate's report: the
// JSON writer escapes every non-ASCII character, and its keys are identifiers
// from the code). Under node, Buffer's latin1 decoding copies the bytes as
// they are, about twice as fast as TextDecoder there (its latin1Slice where
// present: no Buffer object per call); browsers use TextDecoder.
EM_JS(emscripten::EM_VAL, vram_ascii_to_js, (const char* text, int length), {
  if (Module.vramLatin1 === undefined) {
    const node = typeof Buffer === "function" && typeof Buffer.from === "function";
    Module.vramLatin1 = !node ? null : typeof Buffer.prototype.latin1Slice === "function" ?
      function (at, n) { return Buffer.prototype.latin1Slice.call(HEAPU8, at, at + n); } :
      function (at, n) { return Buffer.from(HEAPU8.buffer, at, n).toString("latin1"); };
  }
  if (Module.vramLatin1) return Emval.toHandle(Module.vramLatin1(text, length));
  if (!Module.vramTextDecoder) Module.vramTextDecoder = new TextDecoder("utf-8");
  return Emval.toHandle(Module.vramTextDecoder.decode(HEAPU8.subarray(text, text + length)));
});

template <typename F>
std::string guarded(F&& f) {
  return vram::text_or_error(std::forward<F>(f));
}

// The length of a JavaScript string in UTF-16 units, or -1 for any other value.
EM_JS(double, vram_string_units, (emscripten::EM_VAL handle), {
  var s = Emval.toValue(handle);
  return typeof s === "string" ? s.length : -1;
});

// Writes the string's UTF-8 form into buf[0, capacity) with one TextEncoder
// call and answers the bytes written (embind's std::string path measures and
// copies it one character at a time in JavaScript).
EM_JS(int, vram_string_utf8, (emscripten::EM_VAL handle, char* buf, int capacity), {
  if (!Module.vramTextEncoder) Module.vramTextEncoder = new TextEncoder();
  return Module.vramTextEncoder.encodeInto(Emval.toValue(handle), HEAPU8.subarray(buf, buf + capacity)).written;
});

/// A text argument as C++ text, checked in JavaScript before it is copied
/// into the module: a string, and short enough that its UTF-8 form can be
/// within `limit` bytes (each UTF-16 unit is at least one byte). Anything else
/// is an error text; nothing large enters the module's memory.
bool text_arg(const emscripten::val& v, const char* fn, const char* what, const char* form, std::size_t limit,
              std::string& text, std::string& error) {
  const double units = vram_string_units(v.as_handle());
  if (units < 0) {
    error = vram::error_text("", std::string(fn) + "() takes the " + what + " as " + form + " (a string); got " +
                                     (v.isNull() ? std::string("null") : v.typeOf().as<std::string>()));
    return false;
  }
  if (units > static_cast<double>(limit)) {
    error = vram::error_text("", std::string("the ") + what + " is " +
                                     vram::group_thousands(static_cast<std::int64_t>(units)) + " characters; at most " +
                                     std::to_string(limit >> 20) + " MiB (" +
                                     vram::group_thousands(static_cast<std::int64_t>(limit)) + " bytes) is read");
    return false;
  }
  // Each UTF-16 unit takes at most three UTF-8 bytes (a surrogate pair, two units, takes four).
  text.resize(static_cast<std::size_t>(units) * 3);
  text.resize(static_cast<std::size_t>(vram_string_utf8(v.as_handle(), text.data(), static_cast<int>(text.size()))));
  return true;
}

/// The scenario argument: JSON text within the reader's limit.
bool scenario_arg(const emscripten::val& v, const char* fn, std::string& text, std::string& error) {
  return text_arg(v, fn, "scenario", "JSON text", vram::io::kDefaultReadLimits.max_bytes, text, error);
}

/// A whole-number argument in [1, max], or an error text naming it.
bool count_arg(const emscripten::val& v, const char* name, std::int64_t max, std::int64_t& out, std::string& error) {
  const double d = v.isNumber() ? v.as<double>() : 0.0;
  if (!v.isNumber() || !(d >= 1 && d <= static_cast<double>(max)) || d != static_cast<double>(static_cast<std::int64_t>(d))) {
    error = vram::error_text(name, std::string("must be a whole number from 1 to ") + std::to_string(max) + "; got " +
                                       (v.isNumber() ? vram::format_decimal(d, 3) : v.typeOf().as<std::string>()));
    return false;
  }
  out = static_cast<std::int64_t>(d);
  return true;
}

template <typename F>
emscripten::val with_scenario(const emscripten::val& arg, const char* fn, F&& f) {
  try {
    std::string text, error;
    if (!scenario_arg(arg, fn, text, error)) return to_js(error);
    return to_js(guarded([&] { return f(text); }));
  } catch (...) {  // only memory exhaustion gets here
    return to_js(R"({"ok":false,"error":{"path":"","message":"internal error: out of memory"}})");
  }
}

std::string dumped(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The report goes to JavaScript from the writer's own storage (a stack block
/// that holds most reports), not through a copy into a string.
emscripten::val estimate(emscripten::val scenario) {
  try {
    std::string text, error;
    if (!scenario_arg(scenario, "estimate", text, error)) return to_js(error);
    char store[12288];
    vram::io::JsonWriter w(store, sizeof store);
    error = guarded([&] {
      vram::write_estimate_json(w, text, catalog());
      return std::string();
    });
    if (!error.empty()) return to_js(error);
    const std::string_view report = w.view();
    return emscripten::val::take_ownership(vram_ascii_to_js(report.data(), static_cast<int>(report.size())));
  } catch (...) {  // only memory exhaustion gets here
    return to_js(R"({"ok":false,"error":{"path":"","message":"internal error: out of memory"}})");
  }
}

emscripten::val reconcile(emscripten::val log, emscripten::val scenario) {
  std::string log_text;
  try {
    std::string error;
    if (!text_arg(log, "reconcile", "log", "text", vram::io::kMaxLogBytes, log_text, error)) return to_js(error);
  } catch (...) {  // only memory exhaustion gets here
    return to_js(R"({"ok":false,"error":{"path":"","message":"internal error: out of memory"}})");
  }
  return with_scenario(scenario, "reconcile",
                       [&](const std::string& t) { return vram::reconcile_json(log_text, t, catalog()); });
}

emscripten::val plan(emscripten::val scenario) {
  return with_scenario(scenario, "plan", [](const std::string& t) { return dumped(vram::plan_json(t, catalog())); });
}

emscripten::val sweep(emscripten::val scenario) {
  return with_scenario(scenario, "sweep", [](const std::string& t) { return dumped(vram::sweep_json(t, catalog())); });
}

emscripten::val grid(emscripten::val scenario, emscripten::val n_contexts, emscripten::val n_concurrency) {
  std::int64_t n_ctx = 0, n_conc = 0;
  std::string error;
  try {
    if (!count_arg(n_contexts, "/n_contexts", vram::kMaxGridSide, n_ctx, error) ||
        !count_arg(n_concurrency, "/n_concurrency", vram::kMaxGridSide, n_conc, error))
      return to_js(error);
  } catch (...) {
    return to_js(R"({"ok":false,"error":{"path":"","message":"internal error: out of memory"}})");
  }
  return with_scenario(scenario, "grid",
                       [&](const std::string& t) { return vram::grid_json(t, catalog(), n_ctx, n_conc); });
}

/// A pasted config.json: {ok, config, notes}, Python's Infinity and NaN read as null.
emscripten::val read_config(emscripten::val text) {
  try {
    std::string t, error;
    if (!text_arg(text, "readConfig", "config.json", "JSON text", vram::io::kDefaultReadLimits.max_bytes, t, error))
      return to_js(error);
    return to_js(guarded([&] { return dumped(vram::io::config_document(t)); }));
  } catch (...) {  // only memory exhaustion gets here
    return to_js(R"({"ok":false,"error":{"path":"","message":"internal error: out of memory"}})");
  }
}

/// One {name, size, prefix} entry of inspect()'s list, checked before any byte is copied.
bool file_prefix_arg(const emscripten::val& e, std::size_t i, vram::io::FilePrefix& out, std::string& error) {
  const std::string at = "/" + std::to_string(i);
  const bool object = !e.isNull() && !e.isUndefined() && e.typeOf().as<std::string>() == "object";
  if (!object || !e["name"].isString() || !e["size"].isNumber() || e["prefix"].isUndefined()) {
    error = vram::error_text(at, "must be {name: string, size: number, prefix: Uint8Array}");
    return false;
  }
  const double size = e["size"].as<double>();
  const double len = e["prefix"]["length"].isNumber() ? e["prefix"]["length"].as<double>() : -1;
  const bool bytes = e["prefix"].instanceof(emscripten::val::global("Uint8Array"));
  if (!(size >= 0 && size <= 9007199254740992.0) || size != static_cast<double>(static_cast<std::uint64_t>(size)) ||
      !bytes || len > size || len > static_cast<double>(vram::io::kMaxHeaderBytes) || e["name"]["length"].as<double>() > 1024) {
    error = vram::error_text(at, "size must be a whole number of bytes, prefix a Uint8Array of at most min(size, 64 MiB) "
                                 "bytes and name at most 1,024 characters");
    return false;
  }
  out.name = e["name"].as<std::string>();
  out.size = static_cast<std::uint64_t>(size);
  out.prefix.assign(static_cast<std::size_t>(len), '\0');
  emscripten::val(emscripten::typed_memory_view(out.prefix.size(), reinterpret_cast<unsigned char*>(out.prefix.data())))
      .call<void>("set", e["prefix"]);
  return true;
}

emscripten::val inspect(emscripten::val list) {
  try {
    if (!list.isArray() || list["length"].as<double>() > 1024) {
      return to_js(vram::error_text("", "inspect() takes an array of at most 1,024 {name, size, prefix} entries"));
    }
    std::vector<vram::io::FilePrefix> files(list["length"].as<std::size_t>());
    std::string error;
    for (std::size_t i = 0; i < files.size(); ++i)
      if (!file_prefix_arg(list[i], i, files[i], error)) return to_js(error);
    return to_js(guarded([&] { return dumped(vram::io::inspect_prefixes(files)); }));
  } catch (...) {  // only memory exhaustion gets here
    return to_js(R"({"ok":false,"error":{"path":"","message":"internal error: out of memory"}})");
  }
}

emscripten::val catalog_json(bool with_models) {
  return to_js(guarded([&] { return vram::catalog_summary_text(catalog(), with_models); }));
}

emscripten::val models_json() {
  return to_js(guarded([&] {
    return dumped(nlohmann::json{{"ok", true}, {"models", vram::catalog_models_json(catalog())}});
  }));
}

}  // namespace

// Registered under internal names; wasm/boundary.js exposes the public ones,
// which accept any number of arguments (embind itself throws on a wrong count).
EMSCRIPTEN_BINDINGS(vram_budget) {
  emscripten::function("vramEstimate", &estimate);
  emscripten::function("vramReconcile", &reconcile);
  emscripten::function("vramPlan", &plan);
  emscripten::function("vramSweep", &sweep);
  emscripten::function("vramGrid", &grid);
  emscripten::function("vramCatalog", &catalog_json);
  emscripten::function("vramModels", &models_json);
  emscripten::function("vramInspect", &inspect);
  emscripten::function("vramReadConfig", &read_config);
}
