#include "vram/plan/solve.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/plan.hpp"

using namespace vram;
using nlohmann::json;

TEST_CASE("one search answers every largest-setting question at the verdict's boundary", "[plan][solve]") {
  const Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-8B"},
                                     {"hardware", {{"gpu", "RTX-4090"}}},
                                     {"inference", {{"engine", "transformers"}, {"context", 4096}}}});
  for (const Setting setting : {Setting::context, Setting::concurrency}) {
    const auto best = largest_fitting(s, setting, {1, 1'000'000, setting == Setting::concurrency});
    REQUIRE(best.has_value());
    Scenario at = s, past = s;
    apply_setting(at, setting, *best);
    apply_setting(past, setting, *best + 1);
    CHECK(fits(at));
    CHECK_FALSE(fits(past));
  }
  // Nothing fits: not even one token of a 70B model in bf16 on a 24 GB card.
  const Scenario big = test::scenario({{"model", "meta-llama/Llama-3.1-70B"}, {"hardware", {{"gpu", "RTX-4090"}}}});
  CHECK_FALSE(largest_fitting(big, Setting::context, {1, 131072}).has_value());
  // The whole range fits: the top is returned.
  const Scenario tiny = test::scenario({{"model", "Qwen/Qwen3-0.6B"}, {"inference", {{"engine", "transformers"}}}});
  CHECK(largest_fitting(tiny, Setting::context, {1, 2048}) == 2048);
}

TEST_CASE("settings are applied as the engine ties them", "[plan][solve]") {
  Scenario s = test::scenario({{"model", "Qwen/Qwen3-8B"}, {"inference", {{"engine", "llama.cpp"}}}});
  apply_setting(s, Setting::concurrency, 6);
  CHECK(s.inference().concurrency == 6);
  CHECK(s.inference().llama_cpp.n_seq_max == 6);  // one slot per sequence
  apply_setting(s, Setting::n_gpu_layers, 12);
  CHECK(s.inference().llama_cpp.n_gpu_layers == 12);
  CHECK(setting_path(Setting::n_gpu_layers) == "/inference/llama_cpp/n_gpu_layers");
}
