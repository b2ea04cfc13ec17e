// Fuzz target: the input bytes are the text of an accuracy file (.jsonl, one
// case per line, CONTRACT section 4), scored by the accuracy runner against the
// embedded catalog and rendered as JSON and as text. It must not crash, and what
// it reports must keep the invariants below.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "checks.hpp"
#include "json_mutator.hpp"
#include "vram/accuracy.hpp"
#include "vram/catalog.hpp"

namespace {

using vram::fuzz::json;
using vram::fuzz::require;

const vram::Catalog& catalog() {
  static const vram::Catalog c(vram::embedded_catalog_files());
  return c;
}

/// Lines the runner reads as cases: every line that is not blank (spaces, tabs, CR).
std::size_t case_lines(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++n;
  }
  return n;
}

void check_run(const vram::AccuracyRun& run, const std::string& text) {
  constexpr const char* where = "run_accuracy";
  require(run.cases.size() == case_lines(text), where,
          std::to_string(run.cases.size()) + " cases for " + std::to_string(case_lines(text)) + " non-blank lines");
  int malformed = 0, refused = 0;
  for (const auto& c : run.cases) {
    require(!c.malformed || !c.error.empty(), where, c.id + ": a malformed line without a reason");
    require(c.error_path.empty() || c.error_path.front() == '/', where,
            c.id + ": error_path is not a JSON pointer: \"" + c.error_path + "\"");
    if (!c.error.empty()) {
      (c.malformed ? malformed : refused) += 1;
      require(c.checks.empty(), where, c.id + " has an error and checks");
      if (!vram::fuzz::unnamed_errors_allowed()) {
        require(c.error.rfind("internal error", 0) != 0, where, c.id + ": an exception escaped: " + c.error);
      }
      continue;
    }
    for (const auto& m : c.checks) {
      require(std::isfinite(m.measured) && m.measured > 0, where,
              c.id + ": measured " + m.metric + " accepted as " + std::to_string(m.measured));
      if (!m.predicted) continue;
      const double p = *m.predicted;
      require(std::isfinite(p), where, c.id + ": predicted " + m.metric + " is not finite");
      const bool counted =
          m.metric.ends_with("_bytes") || m.metric == "kv_capacity_tokens" || m.metric == "max_concurrency";
      if (counted) require(p >= 0, where, c.id + ": negative predicted " + m.metric);
      require(std::isfinite(m.rel_error), where, c.id + ": relative error of " + m.metric + " is not finite");
      if (m.upper_bound) require(m.within_bound == (p <= m.measured), where, c.id + ": bound verdict");
    }
  }
  require(malformed == run.malformed, where, "the malformed count disagrees with the cases");
  require(refused == run.not_estimated, where, "the not-estimated count disagrees with the cases");
  for (const auto& s : run.summary) {
    require(s.n > 0, where, "a summary row without cases: " + s.group + " " + s.metric);
    require(std::isfinite(s.median_abs) && std::isfinite(s.p90_abs) && std::isfinite(s.max_abs), where,
            "a summary figure is not finite: " + s.group + " " + s.metric);
    require(0 <= s.median_abs && s.median_abs <= s.p90_abs && s.p90_abs <= s.max_abs, where,
            "summary percentiles out of order: " + s.group + " " + s.metric);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  vram::fuzz::load_dictionary_names(*argc, *argv);
  catalog();  // parsed once, before the first input is timed
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return vram::fuzz::mutate_json(data, size, max_size, seed, /*per_line=*/true);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const vram::AccuracyRun run =
      vram::fuzz::no_throw("run_accuracy", [&] { return vram::run_accuracy(text, catalog()); });
  check_run(run, text);
  const json j = vram::fuzz::no_throw("to_json(AccuracyRun)", [&] { return vram::to_json(run); });
  const std::string dumped = vram::fuzz::serialise(j, "to_json(AccuracyRun)");
  const json back = json::parse(dumped);
  require(back.at("total").get<std::size_t>() == run.cases.size(), "to_json(AccuracyRun)", "total is not the cases");
  require(back.at("not_estimated").get<int>() == run.not_estimated && back.at("malformed").get<int>() == run.malformed,
          "to_json(AccuracyRun)", "the counts differ from the run");
  const std::string rendered = vram::fuzz::no_throw("to_text(AccuracyRun)", [&] { return vram::to_text(run); });
  require(!rendered.empty(), "to_text(AccuracyRun)", "empty text");
  return 0;
}
