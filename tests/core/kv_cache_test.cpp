#include "vram/budget/kv_cache.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace vram;

namespace {
using test::arch;
const KvDtype kBf16{"bf16", 1, 2};
const KvDtype kFp8{"fp8", 1, 1};
const KvDtype kQ8{"q8_0", 32, 34};
}  // namespace

TEST_CASE("GQA KV per token: layers × 2 × KV heads × head_dim × bytes", "[kv]") {
  const auto& a = arch("meta-llama/Llama-3.1-8B");
  CHECK(kv_bytes_per_token(a, kBf16, 1).in_bytes() == 32 * 2 * 8 * 128 * 2);  // 131,072
  CHECK(kv_bytes_per_token(a, kFp8, 1).in_bytes() == 65'536);
  CHECK(kv_per_token_formula(a, kBf16, 1).find("= 131,072 B/token") != std::string::npos);
}

TEST_CASE("tensor parallelism splits KV heads and replicates them past the head count", "[kv]") {
  const auto& a = arch("meta-llama/Llama-3.1-8B");  // 8 KV heads
  CHECK(kv_heads_per_rank(a, 2) == 4);
  CHECK(kv_bytes_per_token(a, kBf16, 2).in_bytes() == 65'536);
  CHECK(kv_heads_per_rank(a, 16) == 1);
  CHECK(kv_bytes_per_token(a, kBf16, 16).in_bytes() == 32 * 2 * 1 * 128 * 2);  // 16,384
}

TEST_CASE("MLA caches one latent of kv_lora_rank + rope dims per layer", "[kv][mla]") {
  const auto& a = arch("deepseek-ai/DeepSeek-V2-Lite");
  CHECK(kv_bytes_per_token(a, kBf16, 1).in_bytes() == 27 * (512 + 64) * 2);  // 31,104
  CHECK(kv_bytes_per_token(a, kBf16, 8).in_bytes() == 31'104);               // not split by TP
}

TEST_CASE("sliding-window layers never hold more than the window", "[kv][swa]") {
  const auto& m = arch("mistralai/Mistral-7B-v0.1");  // window 4096 on all 32 layers
  const std::int64_t per_token = 32 * 2 * 8 * 128 * 2;
  CHECK(kv_bytes_for_sequence(m, kBf16, 1, 2048).in_bytes() == per_token * 2048);
  CHECK(kv_bytes_for_sequence(m, kBf16, 1, 8192).in_bytes() == per_token * 4096);
  // gemma-2-9b: 21 local (4096) + 21 global layers, 8 KV heads × 256
  const auto& g = arch("google/gemma-2-9b-it");
  const std::int64_t layer = 2 * 8 * 256 * 2;
  CHECK(kv_bytes_per_token(g, kBf16, 1).in_bytes() == 42 * layer);
  CHECK(kv_bytes_for_sequence(g, kBf16, 1, 8192).in_bytes() == 21 * layer * 8192 + 21 * layer * 4096);
}

TEST_CASE("block-quantized caches round each row up to whole blocks", "[kv]") {
  const auto& a = arch("meta-llama/Llama-3.1-8B");
  // one K row = 8 heads × 128 = 1,024 values = 32 blocks of 34 B
  CHECK(kv_row_bytes(1024, kQ8).in_bytes() == 1088);
  CHECK(kv_bytes_per_token(a, kQ8, 1).in_bytes() == 32 * 2 * 1088);
}

TEST_CASE("Mamba layers keep a constant state per sequence", "[kv][mamba]") {
  const auto& a = arch("tiiuae/falcon-mamba-7b");  // 64 layers, d_inner 8192, d_state 16, d_conv 4
  CHECK(kv_bytes_per_token(a, kBf16, 1).in_bytes() == 0);
  // (conv 8192 × 3 + ssm 8192 × 16) × 4 B × 64 layers
  CHECK(mamba_state_bytes_per_sequence(a, 32, 1).in_bytes() == (8192LL * 3 + 8192LL * 16) * 4 * 64);
}

TEST_CASE("recurrent state joins the KV budget of each engine", "[kv][mamba]") {
  auto kv = [](const char* engine) {
    return test::metric(test::run({{"model", "tiiuae/falcon-mamba-7b"},
                                   {"hardware", {{"gpu", "H200"}}},
                                   {"inference", {{"engine", engine}, {"context", 8192}, {"concurrency", 2}}}}),
                        "kv_cache_bytes");
  };
  // llama.cpp: f32 states, 2 sequences: 2 × 39,845,888 B
  CHECK(kv("llama.cpp") == 2.0 * 39'845'888);
  // transformers: bf16 states
  CHECK(kv("transformers") == 2.0 * 39'845'888 / 2);
  // vLLM: the pool counts sequences, one state each
  const Report r = test::run(
      {{"model", "tiiuae/falcon-mamba-7b"}, {"hardware", {{"gpu", "H200"}}}, {"inference", {{"context", 8192}}}});
  CHECK(test::metric(r, "max_concurrency") ==
        Approx(test::metric(r, "kv_cache_bytes") / (39'845'888 / 2)).epsilon(0.001));
}

TEST_CASE("Mllama cross-attention layers add no per-token cache", "[kv]") {
  const auto& a = arch("meta-llama/Llama-3.2-11B-Vision");  // 40 layers, 8 of them cross-attention
  CHECK(kv_bytes_per_token(a, kBf16, 1).in_bytes() == 32 * 2 * 8 * 128 * 2);
}
