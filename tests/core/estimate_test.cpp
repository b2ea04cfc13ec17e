#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/budget/activations.hpp"
#include "vram/budget/runtime.hpp"

using namespace vram;
using nlohmann::json;

TEST_CASE("the article's scenario end to end", "[estimate][article]") {
  const Report r = test::run({{"v", 1},
                              {"model", {{"params", 13000000000LL}}},
                              {"weights", "bf16"},
                              {"hardware", {{"gpu", "H100-SXM-80GB"}}}});
  const vram::Component* w = r.find_component("weights");
  REQUIRE(w != nullptr);
  CHECK(w->bytes.in_bytes() == 26'000'000'000);
  CHECK(w->formula == "13,000,000,000 params × 2 B (bf16) = 26,000,000,000 B ≈ 24.21 GiB");
  CHECK(test::metric(r, "weights_bytes") == 26'000'000'000);
  // vLLM's reservation is the headroom: usable = ceil(85,029,158,912 × 0.9) = 76,526,243,021
  // + what vLLM allocates outside it: the H100's driver context (132 × 2048 × 1 KiB stack
  // + 258 MiB = 547,356,672 B) + the CUDA graphs' shared pool 0.138 GiB (148,176,372 B; no
  // layers to capture) = 77,221,776,065 B.
  CHECK(r.usable.in_bytes() == 77'221'776'065);
  CHECK(r.fits);
  CHECK(r.free == r.usable - r.total);
}

TEST_CASE("the total is the sum of the components", "[estimate]") {
  const Report r = test::run({{"model", "Qwen/Qwen2.5-7B"}, {"inference", {{"context", 32768}, {"concurrency", 8}}}});
  Bytes sum;
  for (const auto& c : r.components) {
    CAPTURE(c.id);
    CHECK(!c.formula.empty());
    CHECK(!c.source.empty());
    sum += c.bytes;
  }
  CHECK(sum == r.total);
}

TEST_CASE("a workload that needs more KV than the GPU has does not fit", "[estimate]") {
  // Llama-3.1-8B's 16 GB of weights fit an H100; 8 sequences of 131,072 tokens at
  // 131,072 B per token (137 GB of KV cache) do not.
  const json one = {{"model", "meta-llama/Llama-3.1-8B"},
                    {"hardware", {{"gpu", "H100-SXM-80GB"}}},
                    {"inference", {{"context", 131072}, {"concurrency", 1}}}};
  json eight = one;
  eight["inference"]["concurrency"] = 8;
  const Report fits_one = test::run(one);
  const Report r = test::run(eight);
  CHECK(fits_one.fits);
  CHECK(r.find_component("weights")->bytes < r.usable);
  CHECK(r.find_component("kv_cache")->bytes == Bytes::product(8, 131072, 131072));
  CHECK_FALSE(r.fits);
  CHECK_FALSE(r.engine_admits);
  CHECK(r.free < Bytes{});
}

TEST_CASE("report JSON follows the contract", "[estimate][contract]") {
  const json j = json::parse(
      to_json_text(test::run({{"model", "mistralai/Mistral-7B-v0.3"}, {"inference", {{"context", 4096}}}})));
  CHECK(j["ok"] == true);
  CHECK(j["v"] == 1);
  for (const char* k : {"components", "total_bytes", "capacity_bytes", "usable_bytes", "free_bytes", "fits", "metrics",
                        "defaults_used", "warnings"}) {
    CAPTURE(k);
    CHECK(j.contains(k));
  }
  for (const char* m :
       {"weights_bytes", "kv_bytes_per_token", "kv_cache_bytes", "activation_bytes", "peak_reserved_bytes"}) {
    CAPTURE(m);
    CHECK(j["metrics"].contains(m));
    CHECK(j["metrics"][m].is_number_integer());
  }
  CHECK(j["components"][0].contains("formula"));
}

TEST_CASE("estimate_json never throws and returns the error shape", "[estimate][errors]") {
  const json e = json::parse(estimate_json("{\"model\": {\"params\": \"lots\"}}", test::catalog()));
  CHECK(e["ok"] == false);
  CHECK(e["error"]["path"] == "/model/params");
  CHECK(json::parse(estimate_json("not json", test::catalog()))["ok"] == false);
}

TEST_CASE("the fit detail states vLLM's headroom to a millionth, and an rvalue scenario keeps its notes", "[estimate]") {
  const std::string text = R"({"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 8192}})";
  const std::string out = estimate_json(text, test::catalog());
  const json r = json::parse(out);
  // The reservation is floor(memory × 0.9): 1 − 76,526,243,021 / 85,029,158,912 is 0.1 less some 1e-12.
  CHECK(r["details"]["fit"]["headroom"].get<double>() == 0.1);
  CHECK(out.find("\"headroom\":0.1,") != std::string::npos);
  Scenario s = parse_scenario_text(text, test::catalog());
  const Report by_ref = estimate(s);
  const Report by_move = estimate(std::move(s));
  CHECK(!by_move.defaults_used.empty());
  CHECK(by_move.defaults_used == by_ref.defaults_used);
  CHECK(by_move.warnings == by_ref.warnings);
}

TEST_CASE("forward-pass activation terms", "[activations]") {
  CHECK(residual_stream_bytes(8192, 4096, 2).in_bytes() == 2LL * 8192 * 4096 * 2);
  CHECK(mlp_transient_bytes(8192, 14336, true, 2).in_bytes() == 3LL * 8192 * 14336 * 2);
  CHECK(mlp_transient_bytes(8192, 10240, false, 2).in_bytes() == 2LL * 8192 * 10240 * 2);
  CHECK(attention_transient_bytes(100, 4096, 1024, 2).in_bytes() == 100LL * (4096 + 2048) * 2 + 100LL * 4096 * 2);
  CHECK(moe_transient_bytes(10, 2, 14336, 4096, 2).in_bytes() == 10LL * 2 * (3 * 14336 + 4096) * 2);
  CHECK(logits_bytes(4, 128256, 4).in_bytes() == 4LL * 128256 * 4);
}

TEST_CASE("the context of llama.cpp, transformers and training follows the GPU, not one H100 figure", "[runtime]") {
  // H100: 132 SMs × 2,048 threads × 1 KiB + 258 MiB; with NCCL one communicator's 0.28 GiB more.
  CHECK(engine_context_term(90, 132, RocmArch::none, false).bytes.in_bytes() == 547'356'672);
  CHECK(engine_context_term(90, 132, RocmArch::none, true).bytes.in_bytes() == 547'356'672 + 300'647'711);
  // RTX 4090 (sm89, 128 SMs of 1,536 threads): 201,326,592 + 270,532,608 B.
  CHECK(engine_context_term(89, 128, RocmArch::none, false).bytes.in_bytes() == 471'859'200);
  // MI300X: no stack at start, the fixed part with a wide range.
  const Term hip = engine_context_term(0, 304, RocmArch::gfx942, false);
  CHECK(hip.bytes.in_bytes() == 270'532'608);
  REQUIRE(hip.range);
  CHECK(hip.range->high.in_bytes() == 2 * 270'532'608);
  const Report lc = test::run({{"model", "meta-llama/Llama-3.1-8B"},
                               {"weights", "gguf:Q4_K_M"},
                               {"hardware", {{"gpu", "RTX-4090"}}},
                               {"inference", {{"engine", "llama.cpp"}, {"context", 8192}}}});
  CHECK(lc.find_component("cuda_context")->bytes.in_bytes() == 471'859'200);
  CHECK(lc.find_component("cuda_context")->formula.find("128 SMs") != std::string::npos);
}

TEST_CASE("transformers generate: weights, dynamic cache, prefill and logits", "[estimate][transformers]") {
  const Report r = test::run({{"model", "meta-llama/Llama-3.1-8B"},
                              {"inference", {{"engine", "transformers"}, {"context", 4096}, {"concurrency", 2}}}});
  CHECK(test::metric(r, "kv_cache_bytes") == 2.0 * 4096 * 131072);
  CHECK(test::metric(r, "weights_bytes") == 16'060'522'496);
}

TEST_CASE("a custom GPU may state its SM count; the context and the sampler scratch follow it", "[runtime][input]") {
  nlohmann::json s = {{"model", "meta-llama/Llama-3.1-8B"},
                      {"hardware", {{"gpu", {{"name", "an L4"}, {"memory_bytes", 24'000'000'000LL},
                                             {"compute_capability", 8.9}, {"sm_count", 58}}}}},
                      {"inference", {{"engine", "vllm"}, {"context", 8192}}}};
  const Report r = test::run(s);
  // 58 SMs × 1,536 threads × 1 KiB + 258 MiB.
  CHECK(r.find_component("cuda_context")->bytes.in_bytes() == 58LL * 1536 * 1024 + 270'532'608);
  CHECK(r.find_component("cuda_context")->formula.find("58 SMs") != std::string::npos);
  s["hardware"]["gpu"]["sm_count"] = 0;
  try {
    test::scenario(s);
    FAIL("accepted 0 SMs");
  } catch (const InputError& e) {
    CHECK(e.path() == "/hardware/gpu/sm_count");
  }
}
