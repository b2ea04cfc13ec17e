// The element widths of recurrent states (vLLM's mamba_cache_dtype and
// mamba_ssm_cache_dtype), and the Mamba-2 hybrids Bamba (attention at
// attn_layer_indices) and Falcon-H1 (attention and Mamba-2 side by side in
// every layer): their weights, per-token cache, per-sequence state and pages.
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

TEST_CASE("Bamba-9B: Mamba-2 layers, attention at attn_layer_indices, and its 9.78B parameters",
          "[model][hybrid][bamba]") {
  const CatalogModel* m = test::catalog().find_model("ibm-ai-platform/Bamba-9B");
  REQUIRE(m != nullptr);
  const Architecture& a = m->model.arch;
  REQUIRE(a.layer_specs.size() == 32);
  CHECK(a.family == Family::bamba);
  CHECK(a.layer_specs[9].kind == LayerKind::full_attention);
  CHECK(a.layer_specs[18].kind == LayerKind::full_attention);
  CHECK(a.layer_specs[27].kind == LayerKind::full_attention);
  CHECK(a.layer_specs[0].kind == LayerKind::mamba2);
  CHECK(a.rotary_dim == 64);          // attn_rotary_emb
  CHECK(a.max_positions == 262'144);  // BambaConfig default
  // embedding + lm_head 2 × 128,256 × 4,096 = 1,050,673,152
  // 29 Mamba-2 layers: 2 norms 8,192 + in_proj (8,192 + 8,448 + 128) × 4,096 = 68,681,728 + conv 8,448 × 4 + 8,448
  //   + 3 × 128 + gated norm 8,192 + out_proj 4,096 × 8,192 = 33,554,432 + MLP 3 × 14,336 × 4,096 = 176,160,768
  //   = 278,455,936 each
  // 3 attention layers: 8,192 + q, o 4,096 × 4,096 + k, v 1,024 × 4,096 + MLP = 218,112,000 each
  // final norm 4,096: 9,780,235,392 ("Bamba 9B (9.78B)" on the model card)
  CHECK(parameter_count(m->model.tensors) == 1'050'673'152 + 29LL * 278'455'936 + 3LL * 218'112'000 + 4'096);
  CHECK(parameter_count(m->model.tensors) == 9'780'235'392);
}

TEST_CASE("Bamba-9B: K/V in 3 layers, a Mamba-2 state in 29, and vLLM's pages", "[kv][hybrid][bamba]") {
  const Architecture& a = test::arch("ibm-ai-platform/Bamba-9B");
  // 3 layers × 2 (K,V) × 8 KV heads × 128 × 2 B = 12,288 B per token.
  CHECK(kv_bytes_per_token(a, kBf16, 1).in_bytes() == 12'288);
  // Per layer: conv 3 × (8,192 + 2 × 1 × 128) = 25,344; SSM 128 × 64 × 128 = 1,048,576; × 2 B = 2,147,840 B;
  // 29 layers: 62,287,360 B per sequence.
  CHECK(mamba_state_bytes_per_sequence(a, 16, 1).in_bytes() == 62'287'360);
  // Pages: 16 × cdiv(2,147,840, 16 × 4,096) = 16 × 33 = 528-token blocks, 528 × 4,096 = 2,162,688 B.
  const HybridPages h = hybrid_pages(a, kBf16, 1, 16, 16);
  CHECK(h.mamba_state.in_bytes() == 2'147'840);
  CHECK(h.block_size == 528);
  CHECK(h.page.in_bytes() == 2'162'688);
  // 3 attention + 29 Mamba layers: groups of 3 layers (29 ≥ 1.5 × 3), 1 + 10 groups.
  const KvLayout k = hybrid_kv_layout(a, kBf16, 1, 16, 16, 0, INT32_MAX);
  CHECK(k.group_size == 3);
  CHECK(k.groups == 11);
}

TEST_CASE("Falcon-H1: attention and a Mamba-2 mixer side by side in every layer", "[model][hybrid][falcon-h1]") {
  const CatalogModel* m = test::catalog().find_model("tiiuae/Falcon-H1-0.5B-Instruct");
  REQUIRE(m != nullptr);
  const Architecture& a = m->model.arch;
  REQUIRE(a.layer_specs.size() == 36);
  CHECK(a.family == Family::falcon_h1);
  for (const LayerSpec& l : a.layer_specs) CHECK(l.kind == LayerKind::attention_mamba2);
  // embedding + lm_head 2 × 32,784 × 1,024 = 67,141,632; final norm 1,024
  // each layer: 2 norms 2,048 + attention (q, o 512 × 1,024, k, v 128 × 1,024) 1,310,720
  //   + Mamba-2 (in_proj (1,536 + 1,792 + 24) × 1,024 = 3,432,448, conv 1,792 × 4 + 1,792, 3 × 24, no gated norm,
  //   out_proj 1,024 × 1,536 = 1,572,864) 5,014,344 + MLP 3 × 2,048 × 1,024 = 6,291,456 → 12,618,568
  CHECK(parameter_count(m->model.tensors) == 67'141'632 + 36LL * 12'618'568 + 1'024);
  // Every layer caches K/V: 36 × 2 × 2 KV heads × 64 × 2 B = 18,432 B per token.
  CHECK(kv_bytes_per_token(a, kBf16, 1).in_bytes() == 18'432);
  // And keeps a Mamba-2 state: conv 3 × (1,536 + 2 × 1 × 128) = 5,376, SSM 24 × 64 × 128 = 196,608;
  // × 2 B = 403,968 B a layer, 14,542,848 B per sequence.
  CHECK(recurrent_state_elems(a, LayerKind::attention_mamba2, 1).conv == 5'376);
  CHECK(mamba_state_bytes_per_sequence(a, 16, 1).in_bytes() == 14'542'848);
  const Term state = mamba_state_term(a, 16, 1, 3);
  CHECK(state.bytes.in_bytes() == 3 * 14'542'848);
  CHECK(consistent(state));
  // One sequence of 1,000 tokens without blocks: 1,000 × 18,432 B.
  CHECK(kv_sequences_term(a, kBf16, 1, 1, 1'000, 1).bytes.in_bytes() == 18'432'000);
}

TEST_CASE("Falcon-H1 under vLLM's page alignment: 36 attention and 36 Mamba-2 pages", "[vllm][kv][falcon-h1]") {
  const Architecture& a = test::arch("tiiuae/Falcon-H1-0.5B-Instruct");
  // 512 B per token per layer; 16 × cdiv(403,968, 8,192) = 16 × 50 = 800-token blocks, 409,600 B pages.
  const HybridPages h = hybrid_pages(a, kBf16, 1, 16, 16);
  CHECK(h.block_size == 800);
  CHECK(h.page.in_bytes() == 409'600);
  const KvLayout k = hybrid_kv_layout(a, kBf16, 1, 16, 16, 0, INT32_MAX);
  CHECK(k.group_size == 36);
  CHECK(k.groups == 2);
  // 10 GiB: 10,737,418,240 / (409,600 × 36) = 728 block ids, 364 × 800 = 291,200 tokens; a 16,384-token request
  // needs cdiv(16,384, 800) = 21 attention pages + 1 state page → 728 / 22 = 33.09×.
  const KvPool p = kv_pool(k, Bytes::of(10'737'418'240), 16, 16'384, 8192);
  CHECK(p.blocks == 728);
  CHECK(p.tokens == 291'200);
  CHECK(p.max_concurrency == Approx(728.0 / 22));
  // Needed by 2 sequences: 2 × 21 × 800 × 36 × 512 B + 2 × 36 × 409,600 B.
  const Term need = hybrid_kv_needed_term(a, kBf16, 1, 16, 16, 16'384, 2, 0, INT32_MAX);
  CHECK(need.bytes.in_bytes() == 2LL * 21 * 800 * 36 * 512 + 2LL * 36 * 409'600);
  CHECK(consistent(need));
}

TEST_CASE("Bamba and Falcon-H1 configs are estimated, their wrong fields refused", "[model][hybrid][input]") {
  CHECK(test::metric(test::run(on_h100("ibm-ai-platform/Bamba-9B")), "kv_capacity_tokens") > 0);
  CHECK(test::metric(test::run(on_h100("tiiuae/Falcon-H1-0.5B-Instruct")), "kv_capacity_tokens") > 0);
  json falcon = test::catalog().find_model("tiiuae/Falcon-H1-0.5B-Instruct")->config;
  falcon["attn_layer_indices"] = {0, 1};
  CHECK(test::error_path({{"model", {{"config", falcon}}}}) == "/model/config/attn_layer_indices");
  json bamba = test::catalog().find_model("ibm-ai-platform/Bamba-9B")->config;
  bamba["attn_layer_indices"] = {9, 40};
  CHECK(test::error_path({{"model", {{"config", bamba}}}}) == "/model/config/attn_layer_indices/1");
  bamba = test::catalog().find_model("ibm-ai-platform/Bamba-9B")->config;
  bamba["mamba_d_head"] = 60;  // 128 × 60 ≠ 2 × 4,096
  CHECK(test::error_path({{"model", {{"config", bamba}}}}) == "/model/config/mamba_n_heads");
}
