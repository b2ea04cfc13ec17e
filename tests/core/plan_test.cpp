#include "vram/plan.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace vram;
using nlohmann::json;

TEST_CASE("max context is the longest that fits, and one more token does not", "[plan]") {
  Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-8B"},
                               {"hardware", {{"gpu", "RTX-4090"}}},
                               {"inference", {{"engine", "transformers"}}}});
  const std::int64_t ctx = max_context(s, 131072);
  REQUIRE(ctx > 0);
  REQUIRE(ctx < 131072);
  s.inference.context = ctx;
  CHECK(fits(s));
  s.inference.context = ctx + 1;
  CHECK_FALSE(fits(s));
}

TEST_CASE("max concurrency on vLLM is the pool's floor", "[plan]") {
  Scenario s =
      test::scenario({{"model", "meta-llama/Llama-3.1-8B"}, {"headroom", 0}, {"inference", {{"context", 8192}}}});
  const std::int64_t c = max_concurrency(s);
  CHECK(c == static_cast<std::int64_t>(test::metric(estimate(s), "max_concurrency")));
}

TEST_CASE("the solvers do not change their input", "[plan]") {
  const Scenario s = test::scenario({{"model", "Qwen/Qwen2.5-72B"}, {"inference", {{"context", 8192}}}});
  const Scenario copy = s;
  (void)max_context(s, 131072);
  (void)hints(s);
  CHECK(s.inference.context == copy.inference.context);
  CHECK(s.inference.tensor_parallel == copy.inference.tensor_parallel);
}

TEST_CASE("a 72B model needs tensor parallelism on 80 GB GPUs", "[plan]") {
  const Scenario s = test::scenario({{"model", "Qwen/Qwen2.5-72B"}, {"inference", {{"context", 8192}}}});
  const auto tp = smallest_tensor_parallel(s);
  REQUIRE(tp.has_value());
  CHECK(*tp == 4);  // 145 GB of bf16 weights: 2 × 79 GiB leaves too little KV with 10 % headroom
}

TEST_CASE("GPU options are sorted cheapest first and all fit", "[plan]") {
  const Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 8192}}}});
  const auto opts = gpu_options(s, test::catalog());
  REQUIRE(opts.size() >= 10);
  for (std::size_t i = 1; i < opts.size(); ++i) {
    if (opts[i - 1].price_usd_per_hour && opts[i].price_usd_per_hour) {
      CHECK(*opts[i - 1].price_usd_per_hour <= *opts[i].price_usd_per_hour);
    }
  }
  for (const auto& o : opts) {
    CHECK(o.total_per_gpu <= scale_floor(o.memory_per_gpu, 0.9));
    CHECK(o.gpu_id != "P40");  // compute capability 6.1: vLLM does not run there
  }
}

TEST_CASE("hints say what each change buys", "[plan]") {
  const Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-70B"}, {"inference", {{"context", 32768}}}});
  const auto hs = hints(s);
  REQUIRE_FALSE(hs.empty());
  bool fp8_kv = false, more_gpus = false;
  for (const auto& h : hs) {
    fp8_kv = fp8_kv || h.change == "kv_cache_dtype = fp8";
    more_gpus = more_gpus || h.change.find("GPUs") != std::string::npos;
    CHECK(h.effect.find("→") != std::string::npos);
  }
  CHECK(fp8_kv);
  CHECK(more_gpus);
}

TEST_CASE("plan and sweep JSON", "[plan][contract]") {
  const json p = plan_json(R"({"model":"meta-llama/Llama-3.1-8B","inference":{"context":8192}})", test::catalog());
  CHECK(p["ok"] == true);
  CHECK(p["max_context_tokens"].get<std::int64_t>() == 131072);
  CHECK(p["gpu_options"].size() >= 10);
  // The model summary says where the 8,030,261,248 parameters are.
  CHECK(p["model"]["params"] == 8'030'261'248);
  const json& roles = p["model"]["params_by_role"];
  CHECK(roles[0]["params"] >= roles[1]["params"]);  // largest first
  auto role = [&](const char* name) {
    for (const auto& r : roles)
      if (r["role"] == name) return r["params"].get<std::int64_t>();
    return std::int64_t{-1};
  };
  CHECK(role("token embedding") == 525'336'576);
  CHECK(role("MLP up") == 32LL * 14336 * 4096);
  const json w = sweep_json(R"({"model":"meta-llama/Llama-3.1-8B","inference":{"context":8192}})", test::catalog());
  CHECK(w["ok"] == true);
  CHECK(w["contexts"].size() == w["totals"].size());
  // The budget grows with context.
  CHECK(w["totals"].back().get<std::int64_t>() > w["totals"].front().get<std::int64_t>());
  CHECK(plan_json("{", test::catalog())["ok"] == false);
}
