#include "vram/plan.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/plan/solve.hpp"

using namespace vram;
using nlohmann::json;

TEST_CASE("max context is the longest that fits, and one more token does not", "[plan]") {
  Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-8B"},
                               {"hardware", {{"gpu", "RTX-4090"}}},
                               {"inference", {{"engine", "transformers"}}}});
  const std::int64_t ctx = max_context(s, 131072);
  REQUIRE(ctx > 0);
  REQUIRE(ctx < 131072);
  s.inference().context = ctx;
  CHECK(fits(s));
  s.inference().context = ctx + 1;
  CHECK_FALSE(fits(s));
}

TEST_CASE("max concurrency on vLLM is the pool's floor", "[plan]") {
  Scenario s =
      test::scenario({{"model", "meta-llama/Llama-3.1-8B"}, {"headroom", 0}, {"inference", {{"context", 8192}}}});
  const std::int64_t c = max_concurrency(s);
  CHECK(c == static_cast<std::int64_t>(test::metric(estimate(s), "max_concurrency")));
}

TEST_CASE("the solvers keep no state: answers do not depend on what ran before", "[plan]") {
  // The scenario shares its model (and weight sums) with the catalog: a solver
  // that changed anything shared would change the next estimate.
  const Scenario s = test::scenario({{"model", "Qwen/Qwen2.5-72B"}, {"inference", {{"context", 8192}}}});
  const std::string before = to_json_text(estimate(s));
  const std::int64_t ctx = max_context(s, 131072);
  const std::int64_t conc = max_concurrency(s);
  (void)hints(s);
  (void)gpu_options(s, test::catalog());
  (void)sweep(s, {1024, 65536}, {1, 64});
  CHECK(to_json_text(estimate(s)) == before);
  CHECK(max_context(s, 131072) == ctx);
  CHECK(max_concurrency(s) == conc);
  // A second scenario of the same catalog model sees the same figures.
  const Scenario other = test::scenario({{"model", "Qwen/Qwen2.5-72B"}, {"inference", {{"context", 8192}}}});
  CHECK(to_json_text(estimate(other)) == before);
}

TEST_CASE("a 72B model needs tensor parallelism on 80 GB GPUs", "[plan]") {
  const Scenario s = test::scenario({{"model", "Qwen/Qwen2.5-72B"}, {"inference", {{"context", 8192}}}});
  const auto tp = smallest_tensor_parallel(s);
  REQUIRE(tp.has_value());
  CHECK(*tp == 4);  // 145 GB of bf16 weights: 2 × 79 GiB at gpu_memory_utilization 0.9 leaves too little KV
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

TEST_CASE("vLLM: its reservation is the headroom, and verdict, solvers and metrics agree", "[plan][fit]") {
  // Qwen3-32B on one H100 at 32k with gpu_memory_utilization 0.95: vLLM starts
  // with a KV pool of more than 1.4 sequences of 32,768 tokens.
  const json j = {{"model", "Qwen/Qwen3-32B"},
                  {"hardware", {{"gpu", "H100-SXM-80GB"}}},
                  {"inference", {{"context", 32768}, {"vllm", {{"gpu_memory_utilization", 0.95}}}}}};
  const Scenario s = test::scenario(j);
  const Report r = estimate(s);
  const double pool_tokens = test::metric(r, "kv_capacity_tokens");
  const double conc = test::metric(r, "max_concurrency");
  REQUIRE(pool_tokens > 32768);
  REQUIRE(conc > 1.0);
  CHECK(r.fits);
  // The reservation replaces the headroom: 85,029,158,912 × 0.95 rounded up, plus the terms outside it.
  Bytes outside;
  for (const auto& c : r.components)
    if (c.outside_reservation) outside += c.bytes;
  CHECK(r.usable == Bytes::of(80'777'700'967) + outside);
  // The longest context is what the pool holds in whole blocks, and the
  // largest concurrency is the floor of vLLM's printed figure.
  const std::int64_t ctx = max_context(s, 131072);
  CHECK(ctx >= 32768);
  CHECK(static_cast<double>(ctx) <= pool_tokens);
  CHECK(max_concurrency(s) == static_cast<std::int64_t>(conc));
  Scenario more = s;
  more.inference().concurrency = static_cast<std::int64_t>(conc) + 1;
  CHECK_FALSE(fits(more));
}

TEST_CASE("the scenario headroom is not applied on top of vLLM's reservation", "[plan][fit]") {
  const json base = {{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 8192}}}};
  json with_headroom = base;
  with_headroom["headroom"] = 0.3;
  const Report a = test::run(base);
  const Report b = test::run(with_headroom);
  CHECK(a.usable == b.usable);
  CHECK(a.fits == b.fits);
  bool warned = false;
  for (const auto& w : b.warnings) warned = warned || w.find("headroom is not applied with vLLM") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("terms outside vLLM's reservation must fit in the rest of the card", "[plan][fit]") {
  // gpu_memory_utilization 0.99 leaves 0.8 GiB of an 80 GiB card: less than the
  // CUDA context and graphs need, so vLLM cannot start however small the model.
  const Report r = test::run({{"model", "Qwen/Qwen3-0.6B"},
                              {"inference", {{"context", 4096}, {"vllm", {{"gpu_memory_utilization", 0.99}}}}}});
  CHECK(test::metric(r, "max_concurrency") > 1);
  CHECK_FALSE(r.fits);
  CHECK(r.usable == r.capacity);
}

TEST_CASE("GPU options are estimated with each GPU's own interconnect", "[plan][gpus]") {
  // Llama-3.1-70B in bf16 needs several GPUs; an L40S set talks over PCIe, an H100 set over NVLink,
  // so their NCCL and all-reduce buffers differ: each option equals a direct estimate on that GPU.
  const Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-70B"}, {"inference", {{"context", 8192}}}});
  const auto opts = gpu_options(s, test::catalog());
  int checked = 0;
  for (const auto& o : opts) {
    if (o.gpu_id != "L40S" && o.gpu_id != "H100-SXM-80GB") continue;
    const Report direct = test::run({{"model", "meta-llama/Llama-3.1-70B"},
                                     {"hardware", {{"gpu", o.gpu_id}, {"count", o.count}}},
                                     {"inference", {{"context", 8192}, {"tensor_parallel", o.count}}}});
    INFO(o.gpu_id << " × " << o.count);
    CHECK(o.total_per_gpu == direct.total);
    ++checked;
  }
  CHECK(checked == 2);
}

TEST_CASE("a sweep's points are the estimates of those points, whatever it reuses between them", "[plan][sweep]") {
  const std::vector<nlohmann::json> scenarios = {
      {{"model", "deepseek-ai/DeepSeek-V3"}, {"hardware", {{"gpu", "H200"}, {"count", 8}}},
       {"inference", {{"context", 32768}, {"tensor_parallel", 8}}}},
      {{"model", "meta-llama/Llama-3.1-70B"}, {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 4}}},
       {"inference", {{"context", 8192}, {"tensor_parallel", 2}, {"pipeline_parallel", 2}}}},
      {{"model", "ai21labs/Jamba-v0.1"}, {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
       {"inference", {{"context", 8192}, {"tensor_parallel", 2}}}},
      {{"model", "mistralai/Mixtral-8x7B-Instruct-v0.1"}, {"weights", "gguf:Q4_K_M"},
       {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}}, {"inference", {{"engine", "llama.cpp"}, {"context", 4096}}}},
  };
  const std::vector<std::int64_t> contexts = {1024, 16384, 131072}, conc = {1, 7, 64};
  for (const auto& j : scenarios) {
    const Scenario s = test::scenario(j);
    const auto points = sweep(s, contexts, conc);
    REQUIRE(points.size() == 9);
    for (std::size_t k = 0; k < conc.size(); ++k) {
      for (std::size_t i = 0; i < contexts.size(); ++i) {
        const SweepPoint& p = points[k * contexts.size() + i];  // concurrency-major, as grid_json reads them
        CAPTURE(j.dump(), contexts[i], conc[k]);
        CHECK(p.context == contexts[i]);
        CHECK(p.concurrency == conc[k]);
        Scenario t = s;
        apply_setting(t, Setting::context, contexts[i]);
        apply_setting(t, Setting::concurrency, conc[k]);
        const Report r = estimate(t, {false, nullptr});
        REQUIRE(p.total.has_value());
        CHECK(*p.total == r.total);
        CHECK(p.fits == r.fits);
      }
    }
  }
}

TEST_CASE("the hints that make the scenario fit come first", "[plan]") {
  // Llama-3.1-70B at 32k on four H100s without tensor parallelism: every GPU would hold the whole model.
  const Scenario s = test::scenario(nlohmann::json{{"model", "meta-llama/Llama-3.1-70B"},
                                                   {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 4}}},
                                                   {"inference", {{"context", 32768}}}});
  const std::vector<Hint> h = hints(s);
  REQUIRE(h.size() >= 2);
  CHECK(h.front().change == "4 GPUs (tensor_parallel = 4)");
  bool short_seen = false;
  for (const Hint& x : h) {
    const bool fits = x.effect.find("; fits,") != std::string::npos;
    CAPTURE(x.change, x.effect);
    CHECK_FALSE((fits && short_seen));  // no fitting hint after one that leaves it short
    short_seen = short_seen || !fits;
  }
  CHECK(short_seen);  // the 4-bit and fp8 hints alone leave it short
}

TEST_CASE("llama.cpp without flash attention: the current builds' default is offered, with its figure", "[plan]") {
  json j{{"model", "meta-llama/Llama-3.1-70B-Instruct"},
         {"weights", "gguf:Q4_K_M"},
         {"hardware", {{"gpu", "RTX-3090"}, {"count", 2}}},
         {"inference", {{"engine", "llama.cpp"}, {"context", 16384}}}};
  const Report off = estimate(test::scenario(j));
  CHECK(std::find_if(off.defaults_used.begin(), off.defaults_used.end(), [](const std::string& d) {
          return d.rfind("llama_cpp.flash_attn = false (llama.cpp from b6325", 0) == 0;
        }) != off.defaults_used.end());
  const std::vector<Hint> h = hints(test::scenario(j));
  const auto fa = std::find_if(h.begin(), h.end(), [](const Hint& x) { return x.change.rfind("flash_attn = true", 0) == 0; });
  REQUIRE(fa != h.end());
  json on = j;
  on["inference"]["llama_cpp"] = fa->scenario_patch["inference"]["llama_cpp"];
  const Report with = estimate(test::scenario(on));
  CHECK(with.total < off.total);
  CHECK(fa->effect.find(format_iec(with.total)) != std::string::npos);
  const std::vector<Hint> after = hints(test::scenario(on));
  CHECK(std::none_of(after.begin(), after.end(), [](const Hint& x) { return x.change.rfind("flash_attn", 0) == 0; }));
}
