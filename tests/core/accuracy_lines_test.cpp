// The accuracy runner on a .jsonl text with hostile lines: each bad line is
// reported with its 1-based line number and the JSON pointer of the field at
// fault (CaseResult::line, CaseResult::error_path, CaseResult::error), and the
// good lines are still scored.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "vram/accuracy.hpp"

using namespace vram;

namespace {

struct Line {
  std::string text;
  // For a bad line: the pointer its error must name (exactly, or as a prefix),
  // and a word its message must hold. Good and blank lines have neither.
  std::optional<std::string> path;
  bool prefix = false;
  std::string message_has;
};

const std::string kScenario = R"({"model":{"params":13000000000},"weights":"bf16"})";
const std::string kVllm8b =
    R"({"model":"meta-llama/Llama-3.1-8B","hardware":{"gpu":"H100-SXM-80GB"},"inference":{"context":8192}})";

std::string deep_array(std::size_t n) {
  return std::string(n, '[') + std::string(n, ']');
}

std::vector<Line> hostile_lines() {
  return {
      // 1: good
      {R"({"id":"good-weights","kind":"exact","scenario":)" + kScenario + R"(,"measured":{"weights_bytes":26000000000}})"},
      // 2: id as a number
      {R"({"id":7,"scenario":)" + kScenario + R"(,"measured":{"weights_bytes":26000000000}})", "/id"},
      // 3: scenario as a string
      {R"({"id":"scenario-string","scenario":"{\"model\":{\"params\":7}}","measured":{"weights_bytes":1}})", "/scenario"},
      // 4: measured as an array
      {R"({"id":"measured-array","scenario":)" + kScenario + R"(,"measured":[26000000000]})", "/measured"},
      // 5: a measured value of 0
      {R"({"id":"measured-zero","scenario":)" + kVllm8b + R"(,"measured":{"kv_capacity_tokens":0}})",
       "/measured/kv_capacity_tokens"},
      // 6: blank
      {""},
      // 7: a negative measured value
      {R"({"id":"measured-negative","scenario":)" + kScenario + R"(,"measured":{"weights_bytes":-26000000000}})",
       "/measured/weights_bytes"},
      // 8: a denormal measured value
      {R"({"id":"measured-denormal","scenario":)" + kVllm8b + R"(,"measured":{"kv_capacity_tokens":5e-324}})",
       "/measured/kv_capacity_tokens"},
      // 9: 5,000 nested arrays inside the scenario's extra
      {R"({"id":"deep","scenario":{"model":{"params":1000},"extra":)" + deep_array(5000) +
           R"(},"measured":{"weights_bytes":2000}})",
       "/scenario/extra", true, "nest"},
      // 10: not JSON
      {R"({"id": "broken", "scenario": )", ""},
      // 11: a duplicate key
      {R"({"id":"duplicate","scenario":)" + kScenario +
           R"(,"measured":{"weights_bytes":26000000000,"weights_bytes":1}})",
       "/measured/weights_bytes", false, "duplicate"},
      // 12: whitespace only
      {"   \t"},
      // 13: a measured value as a string
      {R"({"id":"measured-string","scenario":)" + kScenario + R"(,"measured":{"weights_bytes":"26000000000"}})",
       "/measured/weights_bytes"},
      // 14: an unknown kind
      {R"({"id":"kind","kind":"sometimes","scenario":)" + kScenario + R"(,"measured":{"weights_bytes":26000000000}})",
       "/kind"},
      // 15: a scenario field of the wrong type: the pointer runs into the scenario
      {R"({"id":"bad-context","scenario":{"model":"meta-llama/Llama-3.1-8B","inference":{"context":"8192"}},"measured":{"kv_capacity_tokens":400000}})",
       "/scenario/inference/context"},
      // 16: an array, not a case
      {R"([1, 2])", ""},
      // 17: good, with a Windows line ending
      {R"({"id":"good-kv","scenario":)" + kVllm8b + R"(,"measured":{"kv_capacity_tokens":400000}})" + "\r"},
      // 18: ill-formed UTF-8 in the id
      {"{\"id\":\"bad-\xC0\xAF\",\"scenario\":" + kScenario + ",\"measured\":{\"weights_bytes\":26000000000}}", "",
       false, "UTF-8"},
      // 19: no scenario
      {R"({"id":"no-scenario","measured":{"weights_bytes":26000000000}})", "/scenario"},
      // 20: 100,000 nested arrays as a measured value
      {R"({"id":"deep-measured","scenario":)" + kScenario + R"(,"measured":{"weights_bytes":)" + deep_array(100000) +
           "}}",
       "/measured/weights_bytes", true, "nest"},
      // 21: good, an upper bound
      {R"({"id":"good-bound","kind":"upper_bound","scenario":)" + kScenario +
       R"(,"measured":{"weights_bytes":30000000000}})"},
      // 22: a line of 5 MB
      {R"({"id":"huge","scenario":)" + kScenario + R"(,"notes":")" + std::string(5'000'000, 'x') +
           R"(","measured":{"weights_bytes":26000000000}})",
       "", false, "MiB"},
  };
}

bool blank(const std::string& s) {
  return s.find_first_not_of(" \t\r") == std::string::npos;
}

const CaseResult* at_line(const AccuracyRun& run, int line) {
  for (const auto& c : run.cases) {
    if (c.line == line) return &c;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("accuracy: each bad line is reported with its line and field; good lines are scored",
          "[accuracy][hostile]") {
  const std::vector<Line> lines = hostile_lines();
  std::string jsonl;
  for (const auto& l : lines) jsonl += l.text + "\n";
  const AccuracyRun run = run_accuracy(jsonl, test::catalog());

  int non_blank = 0, bad = 0;
  for (const auto& l : lines) {
    non_blank += blank(l.text) ? 0 : 1;
    bad += l.path ? 1 : 0;
  }
  CHECK(static_cast<int>(run.cases.size()) == non_blank);
  CHECK(run.malformed + run.not_estimated == bad);

  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    const Line& l = lines[i];
    INFO("line " << line_no << ": " << l.text.substr(0, 120));
    const CaseResult* c = at_line(run, line_no);
    if (blank(l.text)) {
      CHECK(c == nullptr);
      continue;
    }
    REQUIRE(c != nullptr);
    INFO("reported: error_path \"" << c->error_path.substr(0, 120) << "\", error: " << c->error.substr(0, 300));
    if (!l.path) {
      CHECK(c->error.empty());
      CHECK_FALSE(c->checks.empty());
      for (const auto& m : c->checks) CHECK(m.predicted.has_value());
      continue;
    }
    CHECK_FALSE(c->error.empty());
    CHECK(c->checks.empty());
    if (l.prefix)
      CHECK(c->error_path.rfind(*l.path, 0) == 0);
    else
      CHECK(c->error_path == *l.path);
    if (!l.message_has.empty()) CHECK(c->error.find(l.message_has) != std::string::npos);
  }

  // The good lines, and only they, are in the summary.
  const CaseResult* first = at_line(run, 1);
  REQUIRE(first != nullptr);
  REQUIRE(first->checks.size() == 1);
  CHECK(first->checks[0].rel_error == 0);
  const CaseResult* bound = at_line(run, 21);
  REQUIRE(bound != nullptr);
  REQUIRE(bound->checks.size() == 1);
  CHECK(bound->checks[0].upper_bound);
  CHECK(bound->checks[0].within_bound);
  int weights_n = -1, kv_n = -1;
  for (const auto& s : run.summary) {
    if (s.group == "inference/vllm" && s.metric == "weights_bytes") weights_n = s.n;
    if (s.group == "inference/vllm" && s.metric == "kv_capacity_tokens") kv_n = s.n;
  }
  CHECK(weights_n == 1);  // line 1 (line 21 is an upper bound, not an error sample)
  CHECK(kv_n == 1);       // line 17

  // The machine-readable form carries the line and the field of each case.
  const nlohmann::json j = to_json(run);
  REQUIRE(j.at("cases").size() == run.cases.size());
  for (const auto& c : j["cases"]) {
    CHECK(c.at("line").get<int>() >= 1);
    CHECK(c.contains("error_path"));
  }
  const std::string text = to_text(run);
  CHECK(text.find("line 10") != std::string::npos);
  CHECK(text.find("/measured/kv_capacity_tokens") != std::string::npos);
}

TEST_CASE("accuracy: a text of only bad lines scores nothing and still answers", "[accuracy][hostile]") {
  const std::string jsonl = "\n\nnot json\n" + deep_array(300000) + "\n{\"id\":1}\n\xFF\xFE\n";
  const AccuracyRun run = run_accuracy(jsonl, test::catalog());
  REQUIRE(run.cases.size() == 4);
  CHECK(run.cases[0].line == 3);
  CHECK(run.cases[1].line == 4);
  CHECK(run.cases[1].error.find("nest") != std::string::npos);
  CHECK(run.cases[2].line == 5);
  CHECK(run.cases[2].error_path == "/id");
  CHECK(run.cases[3].line == 6);
  CHECK(run.cases[3].error.find("UTF-8") != std::string::npos);
  for (const auto& c : run.cases) CHECK_FALSE(c.error.empty());
  CHECK(run.summary.empty());
}
