#include "vram/budget/kv_cache.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace vram;

namespace {
using test::arch;
using test::kBf16;
const KvDtype kFp8 = kv_dtype_of(KvKind::fp8);
const KvDtype kQ8 = kv_dtype_of(KvKind::q8_0);
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

TEST_CASE("the KV terms give the same bytes as the layer sums, for every catalog model", "[kv][term]") {
  const KvDtype kQ4 = kv_dtype_of(KvKind::q4_0);
  for (const CatalogModel* cm_entry : test::catalog().models()) {
    const CatalogModel& cm = *cm_entry;
    const Architecture& a = cm.model.arch;
    for (const KvDtype* d : {&kBf16, &kFp8, &kQ8, &kQ4}) {
      for (const std::int64_t tp : {1, 2, 8}) {
        INFO(cm.model.id << " " << d->name << " tp " << tp);
        const Term per = kv_per_token_term(a, *d, tp);
        CHECK(per.bytes == kv_bytes_per_token(a, *d, tp));
        CHECK(consistent(per));
        const Term seq = kv_sequences_term(a, *d, tp, 3, 512, 16);
        CHECK(seq.bytes == kv_bytes_for_sequence(a, *d, tp, 8192) * 3);
        CHECK(consistent(seq));
        // Plain tokens (no blocks), a count no window divides.
        CHECK(kv_sequences_term(a, *d, tp, 2, 5001, 1).bytes == kv_bytes_for_sequence(a, *d, tp, 5001) * 2);
        // A pipeline stage: the second half of the layers.
        const auto half = static_cast<std::int32_t>(a.layer_specs.size() / 2);
        CHECK(kv_sequences_term(a, *d, tp, 1, 512, 16, half).bytes ==
              kv_bytes_for_sequence(a, *d, tp, 8192, half, INT32_MAX));
      }
    }
    for (const std::int64_t bits : {16, 32, 12}) {
      const Term state = mamba_state_term(a, bits, 2, 4);
      CHECK(state.bytes == mamba_state_bytes_per_sequence(a, bits, 2) * 4);
      CHECK(consistent(state));
    }
  }
}

TEST_CASE("KV terms by hand: sliding layers at their window, blocks of a block type", "[kv][term]") {
  // gemma-2-9b, one sequence of 512 blocks of 16 tokens: 21 global layers hold 8,192 tokens,
  // 21 local ones their 4,096-token window; 2 (K,V) × 8 KV heads × 256 dims × 2 B each.
  const auto& g = arch("google/gemma-2-9b-it");
  const Term t = kv_sequences_term(g, kBf16, 1, 1, 512, 16);
  REQUIRE(t.op == Term::Op::sum);
  REQUIRE(t.parts.size() == 2);
  CHECK(t.bytes.in_bytes() == 21LL * 8192 * 8192 + 21LL * 4096 * 8192);
  // q8_0: one K row of 8 heads × 128 = 1,024 values = 32 blocks of 34 B.
  const auto& a = arch("meta-llama/Llama-3.1-8B");
  CHECK(kv_per_token_formula(a, kQ8, 1) == "32 layers × 2 (K,V) × 32 blocks of 32 values × 34 B (q8_0) = 69,632 B/token");
  CHECK(kv_per_token_formula(a, kBf16, 1) == "32 layers × 2 (K,V) × 8 KV heads × 128 dims × 2 B (bf16) = 131,072 B/token");
  // DeepSeek-V2-Lite: 27 MLA layers × (512 latent + 64 rope) × 2 B
  CHECK(kv_per_token_formula(arch("deepseek-ai/DeepSeek-V2-Lite"), kBf16, 8) ==
        "27 MLA layers × 576 dims (latent + rope) × 2 B (bf16) = 31,104 B/token");
  // falcon-mamba: no attention layers; 2 sequences × 64 layers × 8,192 × (3 conv + 16 SSM) × 2 B
  const Term m = mamba_state_term(arch("tiiuae/falcon-mamba-7b"), 16, 1, 2);
  CHECK(m.bytes.in_bytes() == 2LL * 64 * 8192 * 3 * 2 + 2LL * 64 * 8192 * 16 * 2);
  CHECK(kv_per_token_formula(arch("tiiuae/falcon-mamba-7b"), kBf16, 1) ==
        "0 attention layers = 0 B/token; 64 Mamba layers hold a constant state per sequence instead");
}

TEST_CASE("KV cache types: one table of names, ggml block layouts from the formats table", "[kv][dtype]") {
  CHECK(kv_dtype_of(KvKind::bf16).block_bytes == 2);
  CHECK(kv_dtype_of(KvKind::fp32).block_bytes == 4);
  CHECK(kv_dtype_of(KvKind::fp8).block_bytes == 1);
  // ggml block_q8_0: 32 int8 values + one fp16 scale = 34 B; block_q4_0: 16 B of nibbles + fp16 = 18 B.
  CHECK((kv_dtype_of(KvKind::q8_0).block_elems == 32 && kv_dtype_of(KvKind::q8_0).block_bytes == 34));
  CHECK((kv_dtype_of(KvKind::q4_0).block_elems == 32 && kv_dtype_of(KvKind::q4_0).block_bytes == 18));
  CHECK(kv_dtype_of(KvKind::fp16).name == "fp16");
  CHECK(kv_dtype_of(KvKind::iq4_nl).ggml());
  CHECK_FALSE(kv_dtype_of(KvKind::fp8).ggml());
}
