// Fuzz target: the input bytes are a pasted log (io/reconcile.hpp), read by
// read_log and reconciled by reconcile_json against a catalog scenario (vLLM
// or llama.cpp, by the input's length). It must not crash, and what it reports
// must keep the invariants below: every figure a vocabulary metric, finite,
// within [0, 2^53], from a line the log has; a refusal at /log that says why;
// one row per figure; and a case the accuracy runner reads as valid.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.hpp"
#include "vram/accuracy.hpp"
#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/io/reconcile.hpp"

namespace {

using vram::fuzz::json;
using vram::fuzz::require;

const vram::Catalog& catalog() {
  static const vram::Catalog c(vram::embedded_catalog_files());
  return c;
}

constexpr const char* kScenarios[] = {
    R"({"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 8192}})",
    R"({"model": "Qwen/Qwen3-8B", "weights": "gguf:Q4_K_M", "inference": {"engine": "llama.cpp", "context": 4096}})",
};

std::int64_t lines_in(const std::string& text) {
  std::int64_t n = 0;
  for (std::size_t start = 0; start < text.size(); ++n) {
    const std::size_t end = text.find('\n', start);
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return n;
}

void check_reading(const vram::io::LogReading& r, const std::string& text) {
  constexpr const char* where = "read_log";
  const double max = static_cast<double>(vram::kMaxPlausibleBytes.in_bytes());
  const std::int64_t lines = lines_in(text);
  require(!r.found.empty(), where, "an answer without figures");
  for (std::size_t i = 0; i < r.found.size(); ++i) {
    const auto& f = r.found[i];
    const std::string m(f.metric);
    require(vram::metric_unit(f.metric).has_value(), where, "a metric outside the vocabulary: " + m);
    for (std::size_t k = 0; k < i; ++k) require(r.found[k].metric != f.metric, where, "two figures of " + m);
    require(std::isfinite(f.value) && f.value >= 0 && f.value <= max, where, m + " out of [0, 2^53]");
    require(std::isfinite(f.tolerance) && f.tolerance >= 0, where, m + ": a bad tolerance");
    if (f.in_bytes) {
      require(f.bytes.in_bytes() >= 0 && f.bytes <= vram::kMaxPlausibleBytes, where, m + " bytes out of range");
      require(f.value == static_cast<double>(f.bytes.in_bytes()), where, m + ": value and bytes differ");
    }
    require(f.line_number >= 1 && f.line_number <= lines, where, m + ": a line the log does not have");
    require(f.line.size() <= 480, where, m + ": a quote of " + std::to_string(f.line.size()) + " bytes");
  }
}

void check_answer(const json& j) {
  constexpr const char* where = "reconcile_json";
  if (!j.at("ok").get<bool>()) {
    const std::string path = j.at("error").at("path").get<std::string>();
    require(path.rfind("/log", 0) == 0, where, "an error outside /log for a catalog scenario: " + path);
    return;
  }
  require(j.at("rows").size() == j.at("found").size(), where, "rows and figures differ in number");
  for (const auto& row : j.at("rows")) {
    require(row.at("estimated").is_null() || row.at("estimated").is_number(), where, "estimated is not a number");
    if (row.at("error").is_number()) require(std::isfinite(row.at("error").get<double>()), where, "error not finite");
    require(row.at("meaning").is_string() && !row.at("meaning").get<std::string>().empty(), where, "no meaning");
  }
  const json& c = j.at("case");
  if (c.at("measured").empty()) return;
  const vram::AccuracyRun run = vram::run_accuracy(c.dump(), catalog());
  require(run.cases.size() == 1 && run.malformed == 0, where, "the case is not a valid accuracy line");
  require(run.cases[0].error.empty(), where, "the case was not estimated: " + run.cases[0].error);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  catalog();  // parsed once, before the first input is timed
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    check_reading(vram::io::read_log(text), text);
  } catch (const vram::InputError& e) {
    require(e.path() == "/log", "read_log", "a refusal outside /log: " + e.path());
    require(std::string(e.what()).find("recognised") != std::string::npos ||
                std::string(e.what()).find("at most 16 MiB") != std::string::npos,
            "read_log", std::string("a refusal that does not say why: ") + e.what());
  } catch (const std::exception& e) {
    vram::fuzz::violated("read_log", std::string("an exception escaped: ") + e.what());
  }
  const char* scenario = kScenarios[size % 2];
  const std::string answer =
      vram::fuzz::no_throw("reconcile_json", [&] { return vram::reconcile_json(text, scenario, catalog()); });
  check_answer(vram::fuzz::parse_answer(answer, "reconcile_json"));
  return 0;
}
