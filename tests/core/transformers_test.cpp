// transformers generate(): the cache classes, eager attention and the version ladder.
#include "vram/engines/transformers.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

#include "test_support.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/error.hpp"
#include "vram/io/version_text.hpp"

namespace vram {
namespace te = transformers_engine;

namespace {

// Llama-3.1-8B: 32 layers, 32 heads, 8 KV heads, head_dim 128, vocab 128,256:
// one token's K and V in one layer = 2 × 8 × 128 × 2 B = 4,096 B; all layers 131,072 B.
const Architecture& llama8b() {
  return test::arch("meta-llama/Llama-3.1-8B");
}

KvDtype bf16() {
  return kv_dtype_of(KvKind::bf16);
}

nlohmann::json hf(const nlohmann::json& block, std::int64_t context = 4096) {
  return {{"model", "meta-llama/Llama-3.1-8B"},
          {"inference", {{"engine", "transformers"}, {"context", context}, {"transformers", block}}}};
}

std::string parse_error(const nlohmann::json& j) {
  try {
    (void)test::scenario(j);
  } catch (const InputError& e) {
    return e.path() + ": " + e.what();
  }
  return "";
}

bool has(const std::vector<std::string>& v, const std::string& needle) {
  for (const auto& s : v)
    if (s.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the default path is DynamicCache, sdpa and v4.56, as before the settings block", "[transformers]") {
  const Report plain = test::run({{"model", "meta-llama/Llama-3.1-8B"},
                                  {"inference", {{"engine", "transformers"}, {"context", 4096}, {"concurrency", 2}}}});
  const Report given =
      test::run({{"model", "meta-llama/Llama-3.1-8B"},
                 {"inference",
                  {{"engine", "transformers"},
                   {"context", 4096},
                   {"concurrency", 2},
                   {"transformers",
                    {{"cache_implementation", "dynamic"}, {"attn_implementation", "sdpa"}, {"version", "4.56.0"}}}}}});
  // 2 sequences × 4,096 tokens × 131,072 B = 1,073,741,824 B
  CHECK(test::metric(plain, "kv_cache_bytes") == 1'073'741'824.0);
  // prefill over 2 × 4,096 = 8,192 tokens: residual 2 × 8,192 × 4,096 × 2 = 134,217,728 + the MLP (the
  // largest temporary) 3 × 8,192 × 14,336 × 2 = 704,643,072 + held by the model's forward (inputs_embeds and
  // the layer's input) 2 × 8,192 × 4,096 × 2 = 134,217,728 = 973,078,528 B; lm_head after the layers'
  // temporaries are freed: final hidden 8,192 × 4,096 × 2 = 67,108,864 + last-position logits
  // 2 × 128,256 × 2 = 513,024 + 2 fp32 copies 2 × 2 × 128,256 × 4 = 2,052,096 = 69,673,984 B, lower
  CHECK(test::metric(plain, "activation_bytes") == 973'078'528.0);
  CHECK(test::metric(given, "kv_cache_bytes") == test::metric(plain, "kv_cache_bytes"));
  CHECK(test::metric(given, "activation_bytes") == test::metric(plain, "activation_bytes"));
  CHECK(test::metric(plain, "peak_allocated_bytes") == test::metric(plain, "weights_bytes") +
                                                           test::metric(plain, "kv_cache_bytes") +
                                                           test::metric(plain, "activation_bytes"));
  const Scenario s =
      test::scenario({{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"engine", "transformers"}}}});
  CHECK(has(s.defaults_used, "transformers.cache_implementation = dynamic"));
  CHECK(has(s.defaults_used, "transformers.attn_implementation = sdpa"));
}

TEST_CASE("StaticCache preallocates max_cache_len; sliding layers capped from v4.56", "[transformers]") {
  // Llama-3.1-8B, 3 sequences × 8,192 tokens × 131,072 B = 3,221,225,472 B (no sliding layers).
  CHECK(te::static_cache_term(llama8b(), bf16(), 1, 3, 8192, te::HfVersion{}).bytes.in_bytes() == 3'221'225'472);
  // Mistral-7B-v0.1: 32 sliding layers (window 4,096), 8 KV heads × 128 dims: 131,072 B per token.
  const Architecture& mistral = test::arch("mistralai/Mistral-7B-v0.1");
  // v4.56: min(4,096 window, 8,192) × 131,072 B = 536,870,912 B
  CHECK(te::static_cache_term(mistral, bf16(), 1, 1, 8192, te::HfVersion{56}).bytes.in_bytes() == 536'870'912);
  // v4.50: every layer holds max_cache_len: 8,192 × 131,072 B = 1,073,741,824 B
  CHECK(te::static_cache_term(mistral, bf16(), 1, 1, 8192, te::HfVersion{50}).bytes.in_bytes() == 1'073'741'824);
}

TEST_CASE("QuantizedCache: packed codes, a scale and a zero point per group, the residual in bf16", "[transformers]") {
  TransformersSettings ts;
  ts.cache = HfCache::quantized;  // quanto, 4 bits, groups of 64, residual_length 128
  // 1 sequence, 4,096 tokens: residual 127 tokens, quantized 3,969 tokens.
  // values per layer and tensor: 3,969 × 8 × 128 = 4,064,256 → 63,504 groups of 64
  // codes: 32 layers × 2 (K,V) × 63,504 × 32 B = 130,056,192 B
  // scales and zero points: 32 × 2 × 63,504 × 2 × 2 B = 16,257,024 B
  // residual: 127 × 32 × 2 × 1,024 × 2 B = 16,646,144 B
  // total 162,959,360 B (DynamicCache: 536,870,912 B)
  CHECK(te::quantized_cache_term(llama8b(), ts, 1, 1, 4096, 2).bytes.in_bytes() == 162'959'360);
  // HQQ, 3 bits: 10 codes per int32, ceil(64 / 10) × 4 = 28 B per group:
  // 32 × 2 × 63,504 × 28 = 113,799,168 + 16,257,024 + 16,646,144 = 146,702,336 B
  ts.backend = HfQuantBackend::hqq;
  ts.nbits = 3;
  CHECK(te::quantized_cache_term(llama8b(), ts, 1, 1, 4096, 2).bytes.in_bytes() == 146'702'336);
  // residual_length 0: every token quantized, 4,096 × 1,024 / 64 = 65,536 groups;
  // 32 × 2 × 65,536 × (28 + 4) B = 134,217,728 B
  ts.residual_length = 0;
  CHECK(te::quantized_cache_term(llama8b(), ts, 1, 1, 4096, 2).bytes.in_bytes() == 134'217'728);
}

TEST_CASE("QuantizedCache decode step: dequantized and returned copies, the quantizer's working set",
          "[transformers]") {
  TransformersSettings ts;
  ts.cache = HfCache::quantized;
  // quanto working set: 4,096 tokens × 1,024 values × (2 × 2 + 1) B = 20,971,520 B, range × [3/5, 7/5]
  const Term ws = te::requantize_working_term(llama8b(), ts, 1, 1, 4096, 2);
  CHECK(ws.bytes.in_bytes() == 20'971'520);
  REQUIRE(ws.range);
  // (the range is rounded outwards: within a byte of the ratios)
  CHECK(std::abs(ws.range->low.in_bytes() - 12'582'912) <= 1);
  CHECK(std::abs(ws.range->high.in_bytes() - 29'360'128) <= 1);
  // one layer: 2 × (4,096 × 2 (K,V) × 1,024 × 2 B) = 33,554,432 B, plus the working set = 54,525,952 B
  CHECK(te::quantized_step_term(llama8b(), ts, 1, 1, 4096, 2).bytes.in_bytes() == 54'525'952);
  // HQQ: fp32 copy and two fp32 temporaries, 12 B per value: 4,096 × 1,024 × 12 = 50,331,648 B
  ts.backend = HfQuantBackend::hqq;
  CHECK(te::requantize_working_term(llama8b(), ts, 1, 1, 4096, 2).bytes.in_bytes() == 50'331'648);
}

TEST_CASE("OffloadedCache: the current and the prefetched layer on the GPU", "[transformers]") {
  // Llama-3.1-8B, 2 sequences × 4,096 tokens × 2 layers × 2 × 1,024 × 2 B = 67,108,864 B
  CHECK(te::offloaded_cache_term(llama8b(), bf16(), 1, 2, 4096, te::HfVersion{}).bytes.in_bytes() == 67'108'864);
  // Gemma-2-2b: 26 layers, 13 sliding (window 4,096) and 13 global, 4 KV heads × 256 dims:
  // 2 × 4 × 256 × 2 B = 4,096 B per token and layer. 8,192 tokens, 1 sequence.
  const Architecture& gemma = test::arch("google/gemma-2-2b-it");
  // v4.56 keeps the sliding layers: 2 × 8,192 × 4,096 = 67,108,864 + 13 × 4,096 × 4,096 = 218,103,808 → 285,212,672 B
  CHECK(te::offloaded_cache_term(gemma, bf16(), 1, 1, 8192, te::HfVersion{56}).bytes.in_bytes() == 285'212'672);
  // v4.44: every layer offloaded: 2 × 8,192 × 4,096 B = 67,108,864 B
  CHECK(te::offloaded_cache_term(gemma, bf16(), 1, 1, 8192, te::HfVersion{44}).bytes.in_bytes() == 67'108'864);
}

TEST_CASE("eager attention holds one layer's scores, their fp32 softmax and the cast back", "[transformers]") {
  // 1 sequence, 4,096 × 4,096, 32 heads: scores 32 × 4,096² × 2 = 1,073,741,824; softmax × 4 = 2,147,483,648;
  // cast back 1,073,741,824; mask 4,096² × 2 = 33,554,432; repeat_kv 2 × 32 × 4,096 × 128 × 2 = 67,108,864
  // total 4,395,630,592 B
  CHECK(te::eager_scores_term(llama8b(), 1, 4096, 4096, 1, 2).bytes.in_bytes() == 4'395'630'592);
  // tensor parallel 2, 16 heads per rank, the mask whole:
  // scores 536,870,912 + softmax 1,073,741,824 + cast 536,870,912 + mask 33,554,432 + repeat_kv 33,554,432
  CHECK(te::eager_scores_term(llama8b(), 1, 4096, 4096, 2, 2).bytes.in_bytes() == 2'214'592'512);
  const Report sdpa = test::run(hf({{"attn_implementation", "sdpa"}}));
  const Report eager = test::run(hf({{"attn_implementation", "eager"}}));
  CHECK(test::metric(eager, "activation_bytes") > test::metric(sdpa, "activation_bytes") + 4e9);
  CHECK(test::metric(test::run(hf({{"attn_implementation", "flash_attention_2"}})), "activation_bytes") ==
        test::metric(sdpa, "activation_bytes"));
}

TEST_CASE("before num_logits_to_keep every prompt position's logits, upcast to fp32", "[transformers]") {
  // 1 sequence × 4,096 positions × 128,256 vocab: × 2 B = 1,050,673,152; × 4 B = 2,101,346,304;
  // next-token scores 128,256 × 4 = 513,024; total 3,152,532,480 B
  CHECK(te::full_logits_term(1, 4096, 128256, 2).bytes.in_bytes() == 3'152'532'480);
  const double v44 = test::metric(test::run(hf({{"version", "4.44.2"}})), "activation_bytes");
  const double v45 = test::metric(test::run(hf({{"version", "4.45.0"}})), "activation_bytes");
  // v4.44: the lm_head step holds the final hidden states 4,096 × 4,096 × 2 = 33,554,432 B beside the full
  // logits: 3,186,086,912 B, above the forward (4 × 4,096 × 4,096 × 2 hidden-size tensors + 3 × 4,096 ×
  // 14,336 × 2 = 486,539,264 B)
  CHECK(v44 == 3'186'086'912.0);
  // v4.45: the last position's logits, 128,256 × 2 + 2 × 128,256 × 4 = 1,282,560 B beside the hidden states,
  // are below the forward, which is the peak
  CHECK(v45 == 486'539'264.0);
}

TEST_CASE("max_new_tokens: the prefill runs over the prompt, the cache over the whole context", "[transformers]") {
  // Llama-3.1-8B on v4.44, context 4,096 of which 1,024 generated: a 3,072-token prompt.
  const Report r = test::run(hf({{"version", "4.44.2"}, {"max_new_tokens", 1024}}));
  // every prompt position's logits: 3,072 × 128,256 = 394,002,432 × (2 + 4) B = 2,364,014,592 + next-token
  // scores 128,256 × 4 = 513,024, beside the final hidden states 3,072 × 4,096 × 2 = 25,165,824: 2,389,693,440 B
  // (the forward, 4 × 3,072 × 4,096 × 2 + 3 × 3,072 × 14,336 × 2 = 364,904,448 B, is lower)
  CHECK(test::metric(r, "activation_bytes") == 2'389'693'440.0);
  // the cache still holds all 4,096 tokens: 4,096 × 131,072 B
  CHECK(test::metric(r, "kv_cache_bytes") == 536'870'912.0);
  const Scenario none = test::scenario(hf({{"version", "4.44.2"}}));
  CHECK(has(none.defaults_used, "transformers.max_new_tokens = 0"));
  const Scenario given = test::scenario(hf({{"max_new_tokens", 1024}}));
  CHECK(!has(given.defaults_used, "max_new_tokens"));
  CHECK(given.inference().transformers.max_new_tokens == 1024);
}

TEST_CASE("max_new_tokens must leave a prompt token inside the context", "[transformers][errors]") {
  for (const int n : {4096, 5000, -1}) {
    const std::string e = parse_error(hf({{"max_new_tokens", n}}));
    CHECK(e.find("/inference/transformers/max_new_tokens") != std::string::npos);
    CHECK(e.find("below inference.context (4,096 tokens") != std::string::npos);
  }
  CHECK(parse_error(hf({{"max_new_tokens", 4095}})).empty());
}

TEST_CASE("before v4.42 the second step holds two caches and the first step's logits", "[transformers]") {
  const Term cache = Term::given(Bytes::of(536'870'912));
  // 536,870,912 + 1 × 4,096 × 128,256 × 4 B = 2,638,217,216 B
  CHECK(te::legacy_step_term(cache, 1, 4096, 128256).bytes.in_bytes() == 2'638'217'216);
  // Llama-2-7B (32 KV heads: 32 layers × 2 × 32 × 128 × 2 B = 524,288 B per token, vocab 32,000), 4,096
  // tokens on v4.40 with sdpa. Second step: 4,096 × 524,288 = 2,147,483,648 cache copy + 4,096 × 32,000 × 4 =
  // 524,288,000 leaked logits = 2,671,771,648 B. Prefill: forward 4 × 4,096 × 4,096 × 2 + 3 × 4,096 × 11,008 × 2
  // = 404,750,336; lm_head: hidden 4,096 × 4,096 × 2 = 33,554,432 + logits 262,144,000 + 524,288,000 + 128,000
  // = 820,114,432 B, the larger of the two and still less.
  const Report r = test::run({{"model", "meta-llama/Llama-2-7b-hf"},
                              {"inference",
                               {{"engine", "transformers"},
                                {"context", 4096},
                                {"transformers", {{"version", "4.40.0"}, {"attn_implementation", "sdpa"}}}}}});
  CHECK(test::metric(r, "activation_bytes") == 2'671'771'648.0);
  CHECK(test::metric(r, "kv_cache_bytes") == 2'147'483'648.0);
}

TEST_CASE("the version ladder: reading, nearest known, the version's default attention", "[transformers]") {
  const auto v = vram::io::read_version("4.46.3");
  REQUIRE(v);
  CHECK((v->major == 4 && v->minor == 46 && v->patch == 3));
  CHECK(vram::io::read_version("v4.36"));
  CHECK(vram::io::read_version("4.57.0.dev0"));
  CHECK_FALSE(vram::io::read_version("latest"));
  CHECK_FALSE(vram::io::read_version("4"));
  CHECK_FALSE(vram::io::read_version("4.x"));
  CHECK_FALSE(vram::io::read_version("4.40 beta"));
  CHECK(te::on_ladder(5, 0).fit == te::HfVersionFit::newer);
  CHECK(te::on_ladder(5, 0).minor == te::kHfNewestMinor);
  CHECK(te::on_ladder(4, 20).minor == te::kHfOldestMinor);
  const Report newer = estimate(test::scenario(hf({{"version", "5.1.0"}})), {true, nullptr});
  CHECK(has(newer.warnings, "newer than the versions modelled"));
  const Scenario old = test::scenario(hf({{"version", "4.35.2"}}));
  CHECK(te::attention_of(old.inference().transformers) == HfAttention::eager);
  CHECK(has(old.defaults_used, "transformers.attn_implementation = eager (the version's default)"));
}

TEST_CASE("the transformers block refuses what transformers refuses", "[transformers][scenario]") {
  CHECK_THAT(parse_error(hf({{"cache", "static"}})),
             Catch::Contains("/inference/transformers/cache") && Catch::Contains("cache_implementation"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "paged"}})),
             Catch::Contains("dynamic, static, quantized, offloaded"));
  CHECK_THAT(parse_error(hf({{"attn_implementation", "flex"}})), Catch::Contains("sdpa, eager, flash_attention_2"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "quantized"}, {"nbits", 8}})),
             Catch::Contains("/inference/transformers/nbits") && Catch::Contains("quanto backend: 2, 4"));
  CHECK(parse_error(hf({{"cache_implementation", "quantized"}, {"backend", "hqq"}, {"nbits", 8}})).empty());
  CHECK_THAT(parse_error(hf({{"cache_implementation", "quantized"}, {"backend", "hqq"}, {"nbits", 5}})),
             Catch::Contains("1, 2, 3, 4, 8"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "quantized"}, {"q_group_size", 0}})),
             Catch::Contains("/inference/transformers/q_group_size"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "quantized"}, {"residual_length", -1}})),
             Catch::Contains("/inference/transformers/residual_length"));
  CHECK_THAT(parse_error(hf({{"version", "latest"}})), Catch::Contains("/inference/transformers/version"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "static"}, {"version", "4.36.2"}})),
             Catch::Contains("StaticCache (added in 4.38)"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "quantized"}, {"version", "4.41"}})),
             Catch::Contains("QuantizedCache (added in 4.42)"));
  CHECK_THAT(parse_error(hf({{"cache_implementation", "offloaded"}, {"version", "4.43.4"}})),
             Catch::Contains("OffloadedCache (added in 4.44)"));
  CHECK_THAT(parse_error(hf({{"attn_implementation", "sdpa"}, {"version", "4.35.2"}})),
             Catch::Contains("SDPA attention (added in 4.36)"));
  const Scenario unused = test::scenario(hf({{"nbits", 2}}));
  CHECK(has(unused.warnings, "/inference/transformers/nbits: applies to cache_implementation \"quantized\" only"));
}

}  // namespace vram

namespace vram {

TEST_CASE("every transformers term recomputes to its figure, ranges hold their values", "[transformers][render]") {
  TransformersSettings q;
  q.cache = HfCache::quantized;
  TransformersSettings hqq = q;
  hqq.backend = HfQuantBackend::hqq;
  hqq.nbits = 3;
  const Architecture& gemma = test::arch("google/gemma-2-2b-it");
  const KvDtype kv = kv_dtype_of(KvKind::bf16);
  for (const Term& t :
       {te::static_cache_term(gemma, kv, 1, 2, 8192, te::HfVersion{50}),
        te::quantized_cache_term(gemma, q, 1, 2, 8192, 2), te::quantized_cache_term(gemma, hqq, 1, 2, 100, 2),
        te::quantized_step_term(gemma, hqq, 1, 2, 8192, 2),
        te::offloaded_cache_term(gemma, kv, 1, 2, 8192, te::HfVersion{}),
        te::eager_scores_term(gemma, 2, 8192, 8192, 1, 2), te::full_logits_term(2, 8192, 256000, 2)}) {
    CHECK(consistent(t));
  }
  for (const char* block : {R"({"cache_implementation": "quantized", "backend": "hqq", "nbits": 8})",
                            R"({"cache_implementation": "offloaded"})", R"({"attn_implementation": "eager"})",
                            R"({"version": "4.40.0", "attn_implementation": "sdpa"})", R"({"version": "4.35.2"})"}) {
    INFO(block);
    const Report r = test::run({{"model", "google/gemma-2-2b-it"},
                                {"inference",
                                 {{"engine", "transformers"},
                                  {"context", 8192},
                                  {"concurrency", 2},
                                  {"transformers", nlohmann::json::parse(block)}}}});
    for (const auto& c : r.components) CHECK(c.bytes.in_bytes() >= 0);
    CHECK(test::metric(r, "peak_allocated_bytes") > test::metric(r, "weights_bytes"));
  }
}

}  // namespace vram
