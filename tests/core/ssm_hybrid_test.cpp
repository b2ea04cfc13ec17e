// The element widths of recurrent states (vLLM's mamba_cache_dtype and
// mamba_ssm_cache_dtype).
#include <catch2/catch.hpp>
#include <climits>
#include <string>

#include "test_support.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/budget/term.hpp"
#include "vram/engines/vllm.hpp"
#include "vram/error.hpp"
#include "vram/model.hpp"

using namespace vram;
using namespace vram::vllm;
using nlohmann::json;

namespace {

const KvDtype kBf16{"bf16", 1, 2};

Version version(const char* text) {
  return parse_version(text);
}

json on_h100(const char* id, json vllm = json::object()) {
  return {{"model", id},
          {"hardware", {{"gpu", "H100-SXM-80GB"}}},
          {"inference", {{"engine", "vllm"}, {"vllm", std::move(vllm)}}}};
}

}  // namespace

TEST_CASE("Nemotron-H's SSM state in float32, its conv state in bf16", "[kv][hybrid][mamba2][ssm-dtype]") {
  const Architecture& a = test::arch("nvidia/Nemotron-H-8B-Base-8K");
  // Per Mamba-2 layer at TP 1: conv 3 × (8,192 + 2 × 8 groups × 128) = 30,720 elements in bf16 = 61,440 B;
  // SSM 128 heads × 64 × 128 = 1,048,576 elements in float32 = 4,194,304 B; 4,255,744 B a layer, 24 layers:
  // 102,137,856 B per sequence (51,806,208 B with both states in bf16).
  const StateBits f32_ssm{16, 32, "bf16", "float32"};
  CHECK(mamba_state_bytes_per_sequence(a, f32_ssm, 1).in_bytes() == 102'137'856);
  CHECK(mamba_state_bytes_per_sequence(a, 16, 1).in_bytes() == 51'806'208);
  const Term t = mamba_state_term(a, f32_ssm, 1, 2);
  CHECK(t.bytes.in_bytes() == 2 * 102'137'856);
  CHECK(consistent(t));
  // vLLM from 0.13 makes Nemotron-H's "auto" SSM state float32 (the config states none); before, the model dtype.
  const StateBits now = mamba_state_bits(VllmSettings{}, a, version("0.19.0"), 16);
  CHECK(now.conv == 16);
  CHECK(now.ssm == 32);
  CHECK(mamba_state_bits(VllmSettings{}, a, version("0.10.2"), 16).ssm == 16);
  // Page alignment with it: 4,255,744 B of state over 4,096 B per token (8 KV heads × 128 × 2 (K,V) × 2 B)
  // → 16 × cdiv(4,255,744, 65,536) = 16 × 65 = 1,040-token blocks (528 with a bf16 SSM state: 2,158,592 B → 33).
  CHECK(hybrid_pages(a, kBf16, 1, 16, now).block_size == 1'040);
  CHECK(hybrid_pages(a, kBf16, 1, 16, 16).block_size == 528);
}

TEST_CASE("mamba_cache_dtype and mamba_ssm_cache_dtype as vLLM resolves them", "[vllm][ssm-dtype]") {
  const Architecture& granite = test::arch("ibm-granite/granite-4.0-h-tiny");
  VllmSettings s;
  // "auto" everywhere: the model dtype for both.
  CHECK(mamba_state_bits(s, granite, version("0.19.0"), 16).ssm == 16);
  // mamba_cache_dtype float32: the conv state, and the SSM state through its "auto".
  s.mamba_cache_dtype = MambaDtype::float32;
  CHECK(mamba_state_bits(s, granite, version("0.19.0"), 16).conv == 32);
  CHECK(mamba_state_bits(s, granite, version("0.19.0"), 16).ssm == 32);
  // mamba_ssm_cache_dtype alone changes the SSM state only.
  s = VllmSettings{};
  s.mamba_ssm_cache_dtype = MambaDtype::float32;
  CHECK(mamba_state_bits(s, granite, version("0.19.0"), 16).conv == 16);
  CHECK(mamba_state_bits(s, granite, version("0.19.0"), 16).ssm == 32);
  // An explicit value beats Nemotron-H's own default.
  const Architecture& nemotron = test::arch("nvidia/Nemotron-H-8B-Base-8K");
  s.mamba_ssm_cache_dtype = MambaDtype::bfloat16;
  CHECK(mamba_state_bits(s, nemotron, version("0.19.0"), 16).ssm == 16);
  // A Nemotron-H config that states mamba_ssm_cache_dtype: its value.
  json cfg = test::catalog().find_model("nvidia/Nemotron-H-8B-Base-8K")->config;
  cfg["mamba_ssm_cache_dtype"] = "float16";
  const Model m = model_from_config(cfg, "/model/config", "x");
  CHECK(mamba_state_bits(VllmSettings{}, m.arch, version("0.19.0"), 16).ssm == 16);
  cfg["mamba_ssm_cache_dtype"] = "fp8";
  CHECK_THROWS_AS(model_from_config(cfg, "/model/config", "x"), InputError);
}

TEST_CASE("the state dtypes are scenario fields with their allowed values", "[vllm][ssm-dtype][input]") {
  std::string message;
  CHECK(test::error_path(on_h100("nvidia/Nemotron-H-8B-Base-8K", {{"mamba_ssm_cache_dtype", "fp8"}}), &message) ==
        "/inference/vllm/mamba_ssm_cache_dtype");
  CHECK(message.find("allowed: auto, float32, float16, bfloat16") != std::string::npos);
  CHECK(test::error_path(on_h100("nvidia/Nemotron-H-8B-Base-8K", {{"mamba_cache_dtype", "int8"}})) ==
        "/inference/vllm/mamba_cache_dtype");
  // The SSM state in float32 doubles Nemotron-H's state and so shrinks the pool of an 8K context.
  json f32 = on_h100("nvidia/Nemotron-H-8B-Base-8K", {{"mamba_ssm_cache_dtype", "float32"}});
  json b16 = on_h100("nvidia/Nemotron-H-8B-Base-8K", {{"mamba_ssm_cache_dtype", "bfloat16"}});
  f32["inference"]["context"] = 8192;
  b16["inference"]["context"] = 8192;
  CHECK(test::metric(test::run(f32), "max_concurrency") < test::metric(test::run(b16), "max_concurrency"));
}
