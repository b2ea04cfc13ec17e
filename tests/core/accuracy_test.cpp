#include "vram/accuracy.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace vram;

namespace {
const MetricSummary* find(const AccuracyRun& run, const std::string& group, const std::string& metric) {
  for (const auto& s : run.summary) {
    if (s.group == group && s.metric == metric) return &s;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("percentiles of absolute errors", "[accuracy]") {
  CHECK(abs_percentile({}, 50) == 0);
  CHECK(abs_percentile({-0.1, 0.2, 0.3}, 50) == Approx(0.2));
  CHECK(abs_percentile({0.0, 1.0}, 90) == Approx(0.9));
  CHECK(abs_percentile({-5.0}, 100) == 5.0);
}

TEST_CASE("a case compares each measured metric with the report", "[accuracy]") {
  const std::string jsonl =
      R"({"id":"article","kind":"exact","scenario":{"model":{"params":13000000000},"weights":"bf16"},"measured":{"weights_bytes":26000000000}})"
      "\n\n"
      R"({"id":"broken","scenario":{"model":"no/such-model"},"measured":{"weights_bytes":1}})"
      "\n"
      "not json\n";
  const AccuracyRun run = run_accuracy(jsonl, test::catalog());
  REQUIRE(run.cases.size() == 3);
  CHECK(run.cases[0].checks.at(0).rel_error == 0);
  CHECK(run.cases[1].error.find("no/such-model") != std::string::npos);
  // A line that is not a case is named by its line number and does not stop the run.
  CHECK(run.cases[2].malformed);
  CHECK(run.cases[2].line == 4);
  CHECK(run.cases[2].error.find("malformed JSON at byte offset 1") != std::string::npos);
  CHECK(run.not_estimated == 1);
  CHECK(run.malformed == 1);
}

TEST_CASE("inference accuracy on the public measurements meets the bar", "[accuracy][public]") {
  const std::string text = test::read_file(std::string(VRAM_SHARED_DIR) + "/accuracy/public.jsonl");
  if (text.empty()) {
    WARN("shared/accuracy/public.jsonl not found beside the checkout; skipped");
    return;
  }
  const AccuracyRun run = run_accuracy(text, test::catalog());
  const MetricSummary* weights = find(run, "inference/vllm", "weights_bytes");
  const MetricSummary* tokens = find(run, "inference/vllm", "kv_capacity_tokens");
  const MetricSummary* lc_kv = find(run, "inference/llama.cpp", "kv_cache_bytes");
  REQUIRE(weights != nullptr);
  REQUIRE(tokens != nullptr);
  REQUIRE(lc_kv != nullptr);
  CHECK(weights->n >= 35);
  CHECK(weights->median_abs <= 0.02);
  CHECK(tokens->n >= 35);
  CHECK(tokens->median_abs <= 0.05);
  CHECK(tokens->p90_abs <= 0.12);
  CHECK(lc_kv->max_abs <= 0.01);
  // Every inference case is estimated.
  for (const auto& c : run.cases) {
    if (c.workload == "inference") {
      CAPTURE(c.id);
      CHECK(c.error.empty());
    }
  }
}
