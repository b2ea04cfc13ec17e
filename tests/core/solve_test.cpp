#include "vram/plan/solve.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/estimate.hpp"
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

namespace {

/// The answer by plain bisection over the verdict alone (the reference the
/// guided search must match), and the estimates it takes.
SearchResult bisect_reference(const Scenario& s, Setting setting, std::int64_t lo, std::int64_t hi) {
  SearchResult out;
  auto ok = [&](std::int64_t v) {
    ++out.estimates;
    Scenario t = s;
    apply_setting(t, setting, v);
    return fits(t);
  };
  if (!ok(lo)) return out;
  if (ok(hi)) {
    out.value = hi;
    return out;
  }
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (ok(mid) ? lo : hi) = mid;
  }
  out.value = lo;
  return out;
}

}  // namespace

TEST_CASE("the guided search finds the bisection's answer in fewer estimates", "[plan][solve]") {
  struct Case {
    const char* what;
    json scenario;
    Setting setting;
    std::int64_t hi;
    int most_estimates;  // well under the bisection's count over the same range
  };
  const std::vector<Case> cases = {
      {"LoRA seq_len (activations and logits linear in it)",
       {{"workload", "training"}, {"model", "meta-llama/Llama-3.1-8B"}, {"hardware", {{"gpu", "RTX-4090"}}},
        {"training", {{"framework", "torchtune"}, {"method", "lora"}, {"seq_len", 2048}}}},
       // 6: after two fitting probes whose line crosses zero before the next value, that value
       // settles it (a bisection step towards the far failing probe took one more)
       Setting::seq_len, 50'000'000, 6},
      {"full fine-tune micro-batch",
       {{"workload", "training"}, {"model", "Qwen/Qwen3-0.6B"}, {"hardware", {{"gpu", "H100-SXM-80GB"}}},
        {"training", {{"method", "full"}, {"seq_len", 1024}}}},
       Setting::micro_batch, 100'000, 8},
      {"transformers context (eager attention scores: quadratic)",
       {{"model", "meta-llama/Llama-3.1-8B"}, {"hardware", {{"gpu", "RTX-4090"}}},
        {"inference", {{"engine", "transformers"}, {"context", 4096}, {"transformers", {{"attn_implementation", "eager"}}}}}},
       // the margin falls with the square of the context: more probes than a near-linear one, fewer than bisection (22)
       Setting::context, 1'000'000, 14},
      {"vLLM concurrency (the KV pool admits, the bytes do not decide)",
       {{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 8192}}}}, Setting::concurrency, 1'000'000, 12},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const Scenario s = test::scenario(c.scenario);
    const bool doubling = c.setting != Setting::context;
    const SearchResult guided = search_fitting(s, c.setting, {1, c.hi, doubling});
    const SearchResult plain = bisect_reference(s, c.setting, 1, c.hi);
    REQUIRE(plain.value.has_value());
    CHECK(guided.value == plain.value);
    CHECK(guided.estimates <= c.most_estimates);
    CHECK(guided.estimates < plain.estimates);
  }
}

TEST_CASE("a verdict already in hand starts the search and does not change its answer", "[plan][solve]") {
  const Scenario s = test::scenario({{"workload", "training"},
                                     {"model", "meta-llama/Llama-3.1-8B"},
                                     {"hardware", {{"gpu", "RTX-4090"}}},
                                     {"headroom", 0},
                                     {"training", {{"framework", "torchtune"}, {"method", "lora"}, {"seq_len", 2048}}}});
  const Report r = estimate(s, {false, nullptr});
  REQUIRE_FALSE(r.fits);  // 2048 tokens do not fit: the known value is the bracket's top
  const SearchRange range{1, 50'000'000, true};
  const SearchResult cold = search_fitting(s, Setting::seq_len, range);
  const SearchResult seeded =
      search_fitting(s, Setting::seq_len, range, nullptr, KnownVerdict{2048, false, static_cast<double>(r.free.in_bytes())});
  CHECK(seeded.value == cold.value);
  CHECK(seeded.estimates < cold.estimates);
  // A known fitting value below the answer is a bracket's bottom.
  REQUIRE(cold.value.has_value());
  const SearchResult from_below =
      search_fitting(s, Setting::seq_len, range, nullptr, KnownVerdict{*cold.value / 2, true, std::nullopt});
  CHECK(from_below.value == cold.value);
}
