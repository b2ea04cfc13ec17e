// Hybrid and linear-attention models: Mamba-2 (Granite 4.0 hybrid, Nemotron-H)
// and Gated DeltaNet (Qwen3-Next) layers, their weights, their per-sequence
// state as vLLM shapes it, and vLLM's page alignment over them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <cmath>
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

const KvDtype kHybridBf16{"bf16", 1, 2};

// A small Nemotron-H: one Mamba-2 block, one attention block, one MLP block.
json tiny_nemotron() {
  return {{"model_type", "nemotron_h"},
          {"hidden_size", 256},
          {"num_hidden_layers", 3},
          {"hybrid_override_pattern", "M*-"},
          {"num_attention_heads", 4},
          {"num_key_value_heads", 2},
          {"head_dim", 64},
          {"intermediate_size", 512},
          {"vocab_size", 1000},
          {"mamba_num_heads", 8},
          {"mamba_head_dim", 32},
          {"n_groups", 1},
          {"ssm_state_size", 16},
          {"conv_kernel", 4},
          {"use_conv_bias", true},
          {"use_bias", false},
          {"tie_word_embeddings", false},
          {"torch_dtype", "bfloat16"}};
}

// A small Granite 4.0 hybrid: a Mamba-2 layer and an attention layer, each with a MoE and a shared MLP.
json tiny_granite() {
  return {{"model_type", "granitemoehybrid"},
          {"hidden_size", 128},
          {"num_hidden_layers", 2},
          {"layer_types", {"mamba", "attention"}},
          {"num_attention_heads", 4},
          {"num_key_value_heads", 2},
          {"intermediate_size", 64},
          {"num_local_experts", 4},
          {"num_experts_per_tok", 2},
          {"shared_intermediate_size", 96},
          {"vocab_size", 500},
          {"tie_word_embeddings", true},
          {"mamba_expand", 2},
          {"mamba_n_heads", 8},
          {"mamba_d_head", 32},
          {"mamba_n_groups", 1},
          {"mamba_d_state", 16},
          {"mamba_d_conv", 4},
          {"mamba_conv_bias", true},
          {"mamba_proj_bias", false},
          {"position_embedding_type", "nope"},
          {"torch_dtype", "bfloat16"}};
}

Model model(const json& config) {
  return model_from_config(config, "/model/config", "x");
}

std::string refused_at(const json& config) {
  try {
    test::scenario({{"model", {{"config", config}}}, {"inference", {{"context", 4096}}}});
  } catch (const InputError& e) {
    return e.path();
  }
  return "accepted";
}

bool has_warning(const Report& r, const std::string& text) {
  return std::any_of(r.warnings.begin(), r.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

json qwen3_next_h200_tp2(const char* version) {
  return {{"model", "Qwen/Qwen3-Next-80B-A3B-Instruct"},
          {"hardware", {{"gpu", "H200"}, {"count", 2}}},
          {"inference",
           {{"engine", "vllm"}, {"context", 262144}, {"tensor_parallel", 2}, {"vllm", {{"version", version}}}}}};
}

}  // namespace

TEST_CASE("Qwen3-Next: Gated DeltaNet every layer but each fourth, and its exact checkpoint", "[model][hybrid]") {
  const Architecture& a = test::arch("Qwen/Qwen3-Next-80B-A3B-Instruct");
  REQUIRE(a.layer_specs.size() == 48);
  std::int64_t linear = 0;
  for (const auto& l : a.layer_specs) linear += l.kind == LayerKind::linear_attention;
  CHECK(linear == 36);
  CHECK(a.layer_specs[3].kind == LayerKind::full_attention);  // (3 + 1) % full_attention_interval 4 == 0
  CHECK(a.layer_specs[0].kind == LayerKind::linear_attention);
  CHECK(a.family == Family::qwen3_next);
  // embedding + lm_head 2 × 151,936 × 2,048 = 622,329,856
  // 36 Gated DeltaNet: qkvz 12,288 × 2,048 + ba 64 × 2,048 + conv 8,192 × 4 + 32 + 32 + 128 + out 2,048 × 4,096
  //                    = 33,718,464 each → 1,213,864,704
  // 12 gated attention: q 8,192 × 2,048 + k, v 512 × 2,048 + o 2,048 × 4,096 + 2 × 256 = 27,263,488 → 327,161,856
  // 48 MoE: 512 × 2,048 + 512 × 3 × 512 × 2,048 + 3 × 512 × 2,048 + 2,048 = 1,614,809,088; + 2 norms of 2,048
  //         → 48 × 1,614,813,184 = 77,511,032,832
  // final norm 2,048; MTP: fc 2,048 × 4,096 + 2 × 2,048 + (2 × 2,048 + 27,263,488 + 1,614,809,088) + 2,048 =
  // 1,650,471,424 total 81,324,862,720 (the published checkpoint's tensor listing), × 2 B = 162,649,725,440 B.
  const CatalogModel* m = test::catalog().find_model("Qwen/Qwen3-Next-80B-A3B-Instruct");
  REQUIRE(m != nullptr);
  CHECK(parameter_count(m->model.tensors) == 81'324'862'720);
  CHECK(parameter_count(m->model.tensors, TensorStage::mtp) == 1'650'471'424);
}

TEST_CASE("Gated DeltaNet state per sequence, sharded as vLLM shards it", "[kv][hybrid][deltanet]") {
  const Architecture& a = test::arch("Qwen/Qwen3-Next-80B-A3B-Instruct");
  // conv (kernel 4 − 1) × (2 × 16 × 128 + 32 × 128 = 8,192) = 24,576; recurrent 32 × 128 × 128 = 524,288.
  const StateElems one = recurrent_state_elems(a, LayerKind::linear_attention, 1);
  CHECK(one.conv == 24'576);
  CHECK(one.ssm == 524'288);
  // TP 2: 3 × 4,096 = 12,288 and 16 × 128 × 128 = 262,144.
  const StateElems two = recurrent_state_elems(a, LayerKind::linear_attention, 2);
  CHECK(two.conv == 12'288);
  CHECK(two.ssm == 262'144);
  // bf16, TP 1: 36 layers × (24,576 + 524,288) × 2 B = 39,518,208 B.
  CHECK(mamba_state_bytes_per_sequence(a, 16, 1).in_bytes() == 39'518'208);
  // The term: 3 sequences at TP 2 = 3 × 36 × (12,288 + 262,144) × 2 B = 59,277,312 B.
  const Term t = mamba_state_term(a, 16, 2, 3);
  CHECK(t.bytes.in_bytes() == 59'277'312);
  CHECK(t.bytes == mamba_state_bytes_per_sequence(a, 16, 2) * 3);
  CHECK(consistent(t));
  // Only the 12 attention layers cache tokens: 12 × 2 (K,V) × 2 KV heads × 256 × 2 B = 24,576 B per token.
  CHECK(kv_bytes_per_token(a, kHybridBf16, 1).in_bytes() == 24'576);
}

TEST_CASE("Nemotron-H: one block kind per pattern character and the Mamba-2 inventory", "[model][hybrid][mamba2]") {
  const Model m = model(tiny_nemotron());
  REQUIRE(m.arch.layer_specs.size() == 3);
  CHECK(m.arch.layer_specs[0].kind == LayerKind::mamba2);
  CHECK(m.arch.layer_specs[1].kind == LayerKind::full_attention);
  CHECK(m.arch.layer_specs[2].kind == LayerKind::mlp_only);
  // embedding + lm_head 2 × 1,000 × 256 = 512,000; final norm 256
  // M: norm 256 + in_proj (2 × 256 + 2 × 1 × 16 + 8 = 552) × 256 = 141,312 + conv (256 + 32 = 288) × 4 = 1,152
  //    + conv bias 288 + dt_bias, A_log, D 3 × 8 + gated norm 256 + out_proj 256 × 256 = 65,536 → 208,824
  // *: norm 256 + q 256 × 256 + k, v 128 × 256 + o 256 × 256 = 196,608 → 196,864
  // -: norm 256 + up 512 × 256 + down 256 × 512 = 262,144 → 262,400
  CHECK(parameter_count(m.tensors) == 512'000 + 256 + 208'824 + 196'864 + 262'400);
}

TEST_CASE("Nemotron-H MoE blocks (E): a router with its correction bias, non-gated experts, a shared expert",
          "[model][hybrid][mamba2][moe]") {
  json c = tiny_nemotron();
  c["hybrid_override_pattern"] = "M*E";
  c["n_routed_experts"] = 4;
  c["num_experts_per_tok"] = 2;
  c["moe_intermediate_size"] = 64;
  c["n_shared_experts"] = 1;
  c["moe_shared_expert_intermediate_size"] = 96;
  const Model m = model(c);
  CHECK(m.arch.layer_specs[2].kind == LayerKind::mlp_only);
  CHECK(m.arch.layer_specs[2].moe);
  CHECK_FALSE(m.arch.layer_specs[0].moe);
  CHECK(m.arch.shared_experts_intermediate == 96);
  // E: norm 256 + router 4 × 256 = 1,024 + correction bias 4 + experts 4 × (up 64 × 256 + down 256 × 64) = 131,072
  //    + shared expert (up 96 × 256 + down 256 × 96) = 49,152 → 181,508; no gate projections (relu²).
  CHECK(parameter_count(m.tensors) == 512'000 + 256 + 208'824 + 196'864 + 181'508);
  CHECK(std::none_of(m.tensors.begin(), m.tensors.end(), [](const Tensor& t) { return t.role == TensorRole::expert_gate; }));

  // An E block needs experts; latent MoE and unknown block kinds are refused, naming the field.
  json no_experts = tiny_nemotron();
  no_experts["hybrid_override_pattern"] = "M*E";
  CHECK(refused_at(no_experts) == "/model/config/hybrid_override_pattern");
  CHECK_THROWS_WITH(model(no_experts), Catch::Contains("no n_routed_experts"));
  json latent = c;
  latent["moe_latent_size"] = 1024;
  CHECK(refused_at(latent) == "/model/config/moe_latent_size");
  CHECK_THROWS_WITH(model(latent), Catch::Contains("latent MoE"));
  json unknown = tiny_nemotron();
  unknown["hybrid_override_pattern"] = "M*X";
  CHECK_THROWS_WITH(model(unknown), Catch::Contains("'X' at layer 2") && Catch::Contains("E (mixture of experts)"));
  json no_width = c;
  no_width.erase("moe_shared_expert_intermediate_size");
  CHECK(refused_at(no_width) == "/model/config/moe_shared_expert_intermediate_size");
}

TEST_CASE("vLLM's fused-MoE workspace for non-gated experts: N = I/tp, not 2·I/tp", "[vllm][moe][hybrid]") {
  const Architecture& a = test::arch("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
  // TritonExperts.workspace_shapes with is_act_and_mul=False: (M, topk, max(N, K)) twice, N = I = 1,856 < K = 2,688.
  CHECK(moe_workspace_bytes(a, 8192, 1, 2).in_bytes() == 2LL * 8192 * 6 * 2688 * 2);
  // A gated MoE of the same widths takes max(2·I, K) = 3,712 for the second buffer.
  Architecture gated = a;
  gated.block.gated_mlp = true;
  CHECK(moe_workspace_bytes(gated, 8192, 1, 2).in_bytes() == 8192LL * 6 * (2688 + 3712) * 2);
}

TEST_CASE("Qwen3.5: Qwen3-Next's layers in text_config, a Qwen3-VL tower, the state dtype from the config",
          "[model][hybrid][qwen3.5]") {
  const Architecture& a = test::arch("Qwen/Qwen3.5-27B");
  CHECK(a.family == Family::qwen3_next);
  CHECK(std::count_if(a.layer_specs.begin(), a.layer_specs.end(),
                      [](const LayerSpec& l) { return l.kind == LayerKind::linear_attention; }) == 48);
  CHECK(a.block.attn_output_gate);
  CHECK(a.rotary_dim == 64);  // rope_parameters.partial_rotary_factor 0.25 × head_dim 256
  CHECK(a.config_ssm_cache_bits == 32);
  // The tower: Conv3d 3 × 2 × 16 × 16 × 1,152 + 1,152; 2,304 position embeddings × 1,152; 27 blocks of
  // 2 LayerNorms (4 × 1,152), qkv 3 × 1,152² + 3 × 1,152, proj 1,152² + 1,152, MLP 1,152 × 4,304 + 4,304 +
  // 4,304 × 1,152 + 1,152; the merger's LayerNorm 2 × 1,152, 4,608² + 4,608 and 4,608 × 5,120 + 5,120.
  const std::int64_t h = 1152, i = 4304, m = 4608;
  const std::int64_t block = 4 * h + 3 * h * h + 3 * h + h * h + h + h * i + i + i * h + h;
  CHECK(a.vision_params == 3 * 2 * 16 * 16 * h + h + 2304 * h + 27 * block + 2 * h + m * m + m + m * 5120 + 5120);
  CHECK(a.vision_params == 460'730'096);
  // vLLM from v0.16 keeps the Gated DeltaNet state in the config's mamba_ssm_dtype (float32); before, bf16.
  CHECK(mamba_state_bits(VllmSettings{}, a, parse_version("0.16.0"), 16).ssm == 32);
  CHECK(mamba_state_bits(VllmSettings{}, a, parse_version("0.15.1"), 16).ssm == 16);
}

TEST_CASE("vLLM aligns Qwen3.5/3.6 pages as their startup logs print them", "[vllm][kv][hybrid][qwen3.5]") {
  // Qwen3.6-27B (the same text shapes as Qwen3.5-27B), fp8 KV, TP 1: Gated DeltaNet state per layer:
  // conv 3 × (2 × 16 × 128 + 48 × 128) = 30,720 elements in bf16 = 61,440 B; state 48 × 128 × 128 in float32
  // = 3,145,728 B → 3,207,168 B; attention 2 × 4 KV heads × 256 × 1 B = 2,048 B per token → 16 × cdiv(3,207,168,
  // 32,768) = 1,568-token blocks, the state padded by 4,096 / 3,207,168 = 0.13 % ("Setting attention block size to
  // 1568 tokens", "Padding mamba page size by 0.13%").
  const Architecture& dense = test::arch("Qwen/Qwen3.5-27B");
  const KvDtype fp8{"fp8", 1, 1};
  const StateBits state = mamba_state_bits(VllmSettings{}, dense, parse_version("0.20.0"), 16);
  const HybridPages h = hybrid_pages(dense, fp8, 1, 16, state);
  CHECK(h.mamba_state.in_bytes() == 3'207'168);
  CHECK(h.block_size == 1'568);
  CHECK(h.page.in_bytes() == 3'211'264);
  // 16 attention + 48 Gated DeltaNet layers: groups of 16, 4 groups; the log's 6.67 GiB (7,161,770,803 B)
  // / (3,211,264 × 16) = 139 block ids; 139 / 4 = 34 × 1,568 = 53,312 tokens ("GPU KV cache size: 53,312 tokens").
  const KvLayout k = hybrid_kv_layout(dense, fp8, 1, 16, state, 0, INT32_MAX);
  CHECK(k.group_size == 16);
  CHECK(k.groups == 4);
  CHECK(kv_pool(k, Bytes::of(7'161'770'803), 16, 32'768, 8192).tokens == 53'312);
  // Qwen3.6-35B-A3B (Qwen3.5-35B-A3B's shapes) at TP 4, bf16 KV: state 8 value heads × 128 × 128 × 4 B +
  // 3 × (4,096 + 4,096) / 4 × 2 B = 536,576 B; 1 KV head per rank (2 over 4, replicated) × 256 × 2 × 2 B = 1,024 B
  // per token → 16 × cdiv(536,576, 16,384) = 528 tokens ("Setting attention block size to 528 tokens").
  const Architecture& moe = test::arch("Qwen/Qwen3.5-35B-A3B");
  CHECK(hybrid_pages(moe, kHybridBf16, 4, 16, mamba_state_bits(VllmSettings{}, moe, parse_version("0.19.0"), 16)).block_size ==
        528);
  // Qwen3.5-35B-A3B-FP8 (fp8 weights, the same shapes) at TP 1, bf16 KV, v0.18.1: state 32 × 128 × 128 × 4 B +
  // 3 × 8,192 × 2 B = 2,146,304 B; 2 × 2 × 256 × 2 B = 2,048 B per token → 16 × cdiv(2,146,304, 32,768) = 1,056
  // tokens, padded by 16,384 / 2,146,304 = 0.76 % (its GB10 startup log: "Setting attention block size to 1056
  // tokens", "Padding mamba page size by 0.76%").
  const HybridPages one = hybrid_pages(moe, kHybridBf16, 1, 16, mamba_state_bits(VllmSettings{}, moe, parse_version("0.18.1"), 16));
  CHECK(one.mamba_state.in_bytes() == 2'146'304);
  CHECK(one.block_size == 1'056);
  CHECK(one.page.in_bytes() == 2'162'688);
}

TEST_CASE("a Mamba-2 block in vLLM's profiling run: in_proj's output, two copies of x, B, C, the SSM output",
          "[vllm][hybrid][mamba2][activations]") {
  const Architecture& a = test::arch("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4");
  // TP 1, 8,192 tokens, bf16: in_proj 4,096 (z) + 6,144 (x, B, C: 4,096 + 2 × 8 × 128) + 64 (dt) = 10,304;
  // 2 × 6,144 copies; residual and normed input 2 × 2,688; from v0.12 the SSM output 4,096.
  const Term t = mamba2_profile_block_term(a, 8192, 1, 2, true);
  CHECK(t.bytes.in_bytes() == 8192LL * (10304 + 2 * 6144 + 2 * 2688 + 4096) * 2);
  CHECK(t.bytes.in_bytes() == 525'336'576);
  CHECK(consistent(t));
  CHECK(mamba2_profile_block_term(a, 8192, 1, 2, false).bytes.in_bytes() == 8192LL * (10304 + 2 * 6144 + 2 * 2688) * 2);
  // TP 2: 8 groups divide evenly; every width halves.
  CHECK(mamba2_profile_block_term(a, 8192, 2, 2, true).bytes.in_bytes() ==
        8192LL * (5152 + 2 * 3072 + 2 * 2688 + 2048) * 2);
  // In the v0.19.1 estimate it outweighs the dense forward pass (8,192 × (3 × 1,856 + 4 × 2,688) × 2 B): the
  // profiling peak is that block, the cuBLAS workspace and the persistent fused-MoE workspace.
  const Report r = test::run({{"model", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4"},
                              {"hardware", {{"gpu", "H100-NVL-94GB"}}},
                              {"inference",
                               {{"context", 262144},
                                {"kv_cache_dtype", "fp8"},
                                {"vllm",
                                 {{"version", "0.19.1"},
                                  {"gpu_memory_utilization", 0.95},
                                  {"max_num_seqs", 40},
                                  {"mamba_ssm_cache_dtype", "float32"}}}}}});
  CHECK(test::metric(r, "activation_bytes") == 525'336'576 + 33'554'432 + 528'482'304);
}

TEST_CASE("vLLM aligns Nemotron-3 Nano's pages as its v0.19.1 startup log prints them", "[vllm][kv][hybrid][mamba2]") {
  const Architecture& a = test::arch("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4");
  // Per Mamba-2 layer at TP 1: conv 3 × (4,096 + 2 × 8 × 128) = 18,432 elements in bf16 = 36,864 B; SSM 64 heads
  // × 64 × 128 in float32 (mamba_ssm_cache_dtype) = 2,097,152 B → 2,134,016 B. fp8 KV: 2 × 2 KV heads × 128 × 1 B
  // = 512 B per token → 16 × cdiv(2,134,016, 8,192) = 4,176-token blocks, 2,138,112 B pages, the state padded by
  // 4,096 / 2,134,016 = 0.19 % ("Setting attention block size to 4176 tokens", "Padding mamba page size by 0.19%").
  const KvDtype fp8{"fp8", 1, 1};
  const StateBits f32_ssm{16, 32, "bf16", "float32"};
  const HybridPages h = hybrid_pages(a, fp8, 1, 16, f32_ssm);
  CHECK(h.mamba_state.in_bytes() == 2'134'016);
  CHECK(h.block_size == 4'176);
  CHECK(h.page.in_bytes() == 2'138'112);
  // 6 attention + 23 Mamba-2 layers: groups of 6, the last Mamba group padded ("Add 1 padding layers") → 5 groups.
  const KvLayout k = hybrid_kv_layout(a, fp8, 1, 16, f32_ssm, 0, INT32_MAX);
  CHECK(k.group_size == 6);
  CHECK(k.groups == 5);
  // The log's 68.97 GiB: 74,056,973,601 B / (2,138,112 × 6) = 5,772 block ids; 5,772 / 5 = 1,154 × 4,176 =
  // 4,819,104 tokens ("GPU KV cache size: 4,819,104 tokens").
  const KvPool p = kv_pool(k, Bytes::of(74'056'973'601), 16, 262'144, 8192);
  CHECK(p.blocks == 5'772);
  CHECK(p.tokens == 4'819'104);
}

TEST_CASE("Mamba-2 state per sequence, groups replicated when they do not divide over TP", "[kv][hybrid][mamba2]") {
  const Model m = model(tiny_nemotron());
  const Architecture& a = m.arch;
  // TP 1: conv (4 − 1) × (256 + 2 × 1 × 16) = 864; SSM 8 heads × 32 × 16 = 4,096; × 2 B = 9,920 B.
  CHECK(recurrent_state_elems(a, LayerKind::mamba2, 1).conv == 864);
  CHECK(recurrent_state_elems(a, LayerKind::mamba2, 1).ssm == 4'096);
  CHECK(mamba_state_bytes_per_sequence(a, 16, 1).in_bytes() == 9'920);
  // TP 2, n_groups 1: groups extended to 1 + (2 − 1) = 2: conv 3 × (256 + 2 × 2 × 16) / 2 = 480; SSM 4 × 32 × 16 =
  // 2,048.
  CHECK(mamba2_groups_per_shard_set(1, 2) == 2);
  CHECK(mamba2_groups_per_shard_set(8, 2) == 8);
  CHECK(recurrent_state_elems(a, LayerKind::mamba2, 2).conv == 480);
  CHECK(recurrent_state_elems(a, LayerKind::mamba2, 2).ssm == 2'048);
  // TP 4: 4 groups: conv 3 × (256 + 128) / 4 = 288; SSM 2 × 32 × 16 = 1,024; × 2 B = 2,624 B.
  CHECK(mamba_state_bytes_per_sequence(a, 16, 4).in_bytes() == 2'624);
  const Term t = mamba_state_term(a, 16, 2, 5);
  CHECK(t.bytes.in_bytes() == 5 * (480 + 2'048) * 2);
  CHECK(consistent(t));
  // No K/V in the Mamba-2 or MLP blocks: 1 layer × 2 × 2 KV heads × 64 × 2 B per token.
  CHECK(kv_bytes_per_token(a, kHybridBf16, 1).in_bytes() == 512);
}

TEST_CASE("Granite 4.0 hybrid: Mamba-2 and attention layers, each with experts and a shared MLP", "[model][hybrid]") {
  const Model m = model(tiny_granite());
  CHECK(m.arch.layer_specs[0].kind == LayerKind::mamba2);
  CHECK(m.arch.layer_specs[1].kind == LayerKind::full_attention);
  CHECK(m.arch.rotary_dim == 0);  // position_embedding_type "nope"
  // embedding 500 × 128 = 64,000 (tied); final norm 128
  // layer 0: 2 norms 256 + Mamba-2 (in_proj 552 × 128 = 70,656, conv 288 × 4 + 288, 3 × 8, norm 256, out 128 × 256)
  //          = 105,144 + MoE (router 4 × 128 + experts 3 × 4 × 64 × 128 + shared 3 × 96 × 128) = 135,680 → 241,080
  // layer 1: 2 norms 256 + attention (q, o 128 × 128, k, v 64 × 128) 49,152 + MoE 135,680 → 185,088
  CHECK(parameter_count(m.tensors) == 64'000 + 128 + 241'080 + 185'088);
  // num_local_experts 0 (h-micro, h-1b): the shared MLP alone, 3 × 96 × 128 = 36,864 per layer.
  json dense = tiny_granite();
  dense["num_local_experts"] = 0;
  CHECK(parameter_count(model(dense).tensors) == 64'000 + 128 + 241'080 + 185'088 - 2 * (135'680 - 36'864));
}

TEST_CASE("vLLM aligns Qwen3-Next's pages as its v0.10.2 startup log prints them", "[vllm][kv][hybrid]") {
  const Architecture& a = test::arch("Qwen/Qwen3-Next-80B-A3B-Instruct");
  // TP 2: state 36 layers' one: (12,288 + 262,144) × 2 B = 548,864 B; attention 2 × 1 KV head × 256 × 2 B = 1,024 B
  // per token → block 16 × cdiv(548,864, 16 × 1,024) = 16 × 34 = 544 tokens; page 544 × 1,024 = 557,056 B,
  // the state padded by 8,192 / 548,864 = 1.49 % ("Setting attention block size to 544 tokens", "Padding mamba
  // page size by 1.49%").
  const HybridPages h = hybrid_pages(a, kHybridBf16, 2, 16, 16);
  CHECK(h.mamba_state.in_bytes() == 548'864);
  CHECK(h.block_size == 544);
  CHECK(h.page.in_bytes() == 557'056);
  // 12 attention + 36 Gated DeltaNet layers: groups of 12 layers, 1 + 3 groups.
  const KvLayout k = hybrid_kv_layout(a, kHybridBf16, 2, 16, 16, 0, INT32_MAX);
  CHECK(k.group_size == 12);
  CHECK(k.groups == 4);
  // The log's pool, 47,878,721,024 B: 47,878,721,024 / (557,056 × 12) = 7,162 block ids (num_gpu_blocks 7162);
  // 7,162 / 4 groups = 1,790 × 544 = 973,760 tokens; a 262,144-token request needs cdiv(262,144, 544) = 482
  // attention pages + 3 state pages → 7,162 / 485 = 14.77×.
  const KvPool p = kv_pool(k, Bytes::of(47'878'721'024), 16, 262'144, 8192);
  CHECK(p.blocks == 7'162);
  CHECK(p.tokens == 973'760);
  CHECK(std::round(p.max_concurrency * 100) / 100 == Approx(14.77));
  // Needed by one sequence: 482 blocks × 544 tokens × 12 layers × 1,024 B + 36 × 557,056 B.
  const Term need = hybrid_kv_needed_term(a, kHybridBf16, 2, 16, 16, 262'144, 1, 0, INT32_MAX);
  CHECK(need.bytes.in_bytes() == 482LL * 544 * 12 * 1024 + 36LL * 557'056);
  CHECK(consistent(need));
}

TEST_CASE("the engine applies the alignment from v0.10.2 and warns before the family's support",
          "[vllm][hybrid][version]") {
  const Report v102 = test::run(qwen3_next_h200_tp2("0.10.2"));
  CHECK(static_cast<std::int64_t>(test::metric(v102, "kv_capacity_tokens")) % 544 == 0);
  CHECK_FALSE(has_warning(v102, "predates support"));
  // v0.10.2 sets FULL_AND_PIECEWISE graphs for hybrid models itself ("Hybrid or mamba-based model detected: setting
  // cudagraph mode to FULL_AND_PIECEWISE").
  json explicit_mode = qwen3_next_h200_tp2("0.10.2");
  explicit_mode["inference"]["vllm"]["cudagraph_mode"] = "FULL_AND_PIECEWISE";
  CHECK(test::metric(v102, "cuda_graph_bytes") == test::metric(test::run(explicit_mode), "cuda_graph_bytes"));
  explicit_mode["inference"]["vllm"]["cudagraph_mode"] = "PIECEWISE";
  CHECK(test::metric(v102, "cuda_graph_bytes") > test::metric(test::run(explicit_mode), "cuda_graph_bytes"));
  const Report v101 = test::run(qwen3_next_h200_tp2("0.10.1"));
  CHECK(has_warning(v101, "predates support for model_type \"qwen3_next\""));
  json granite = {{"model", {{"config", tiny_granite()}}},
                  {"hardware", {{"gpu", "H100-SXM-80GB"}}},
                  {"inference", {{"engine", "vllm"}, {"context", 4096}, {"vllm", {{"version", "0.8.5"}}}}}};
  CHECK(has_warning(test::run(granite), "predates support for model_type \"granitemoehybrid\""));
}

TEST_CASE("unknown mixers and layer types are refused at their field", "[model][hybrid][input]") {
  // An unknown model_type whose config describes linear-attention or state-space layers.
  json unknown = {{"model_type", "acme_hybrid"}, {"hidden_size", 2048},          {"num_hidden_layers", 48},
                  {"num_attention_heads", 16},   {"num_key_value_heads", 2},     {"intermediate_size", 5120},
                  {"vocab_size", 151936},        {"linear_num_value_heads", 32}, {"full_attention_interval", 4}};
  CHECK(refused_at(unknown) == "/model/config/linear_num_value_heads");
  unknown.erase("linear_num_value_heads");
  unknown.erase("full_attention_interval");
  unknown["layers_block_type"] = {"mamba", "attention"};
  CHECK(refused_at(unknown) == "/model/config/layers_block_type");
  // A known family with a layer type it does not have.
  json granite = tiny_granite();
  granite["layer_types"] = {"mamba", "retention"};
  CHECK(refused_at(granite) == "/model/config/layer_types/1");
  json qwen = tiny_granite();
  qwen["model_type"] = "qwen3_next";
  qwen["layer_types"] = {"linear_attention", "mamba"};
  CHECK(refused_at(qwen) == "/model/config/layer_types/1");
  // Nemotron-H blocks not modelled (MoE "E") and a pattern of the wrong length.
  json nemotron = tiny_nemotron();
  nemotron["hybrid_override_pattern"] = "ME-";
  CHECK(refused_at(nemotron) == "/model/config/hybrid_override_pattern");
  nemotron["hybrid_override_pattern"] = "M*";
  CHECK(refused_at(nemotron) == "/model/config/hybrid_override_pattern");
  // Mamba-2 heads that do not tile the width (8 × 30 ≠ mamba_expand 2 × hidden 128).
  json wide = tiny_granite();
  wide["mamba_d_head"] = 30;
  CHECK(refused_at(wide) == "/model/config/mamba_n_heads");
}

TEST_CASE("MiniMax-M1: lightning attention in 70 layers, softmax in every eighth, and its exact checkpoint",
          "[model][hybrid][minimax]") {
  const Architecture& a = test::arch("MiniMaxAI/MiniMax-M1-80k");
  REQUIRE(a.layer_specs.size() == 80);
  CHECK(a.family == Family::minimax);
  std::int64_t lightning = 0;
  for (const auto& l : a.layer_specs) lightning += l.kind == LayerKind::lightning_attention;
  CHECK(lightning == 70);
  CHECK(a.layer_specs[7].kind == LayerKind::full_attention);
  CHECK(a.rotary_dim == 64);
  // embed + lm_head 2 × 200,064 × 6,144 = 2,458,386,432; per layer 2 norms of 6,144 and 32 experts × 3 × 9,216 × 6,144
  // = 5,435,817,984 + the router 32 × 6,144 (fp32); lightning: qkv 24,576 × 6,144 + gate 8,192 × 6,144 + norm 8,192 +
  // out 6,144 × 8,192 = 251,666,432; softmax: q 8,192 × 6,144 + k, v 1,024 × 6,144 + o 6,144 × 8,192 = 113,246,208.
  // 80 × (12,288 + 5,435,817,984 + 196,608) + 70 × 251,666,432 + 10 × 113,246,208 + 6,144 + 2,458,386,432
  // = 456,089,655,296 parameters; bf16 with the 80 routers in fp32: 912,210,767,872 B, the index total_size.
  const CatalogModel* m = test::catalog().find_model("MiniMaxAI/MiniMax-M1-80k");
  REQUIRE(m != nullptr);
  CHECK(parameter_count(m->model.tensors) == 456'089'655'296);
  const Report r = test::run({{"model", "MiniMaxAI/MiniMax-M1-80k"},
                              {"hardware", {{"gpu", "H200"}, {"count", 8}}},
                              {"inference", {{"engine", "vllm"}, {"context", 131072}, {"tensor_parallel", 8}}}});
  // Per rank: the checkpoint / 8 rounded by the shard shapes; the routers' fp32 shows in the formula.
  CHECK(r.find_component("weights")->formula.find("× 4 B (fp32)") != std::string::npos);
  // The rotary cache is sized by max_model_len (131,072 × 64 × 2 B), not 10,240,000 positions.
  CHECK(r.find_component("rotary_cache")->bytes.in_bytes() == 131072LL * 64 * 2);
}

TEST_CASE("lightning attention state per sequence: heads / TP × d × d in mamba_cache_dtype", "[kv][hybrid][minimax]") {
  const Architecture& a = test::arch("MiniMaxAI/MiniMax-M1-80k");
  // TP 8: 8 × 128 × 128 = 131,072 elements, no conv state.
  const StateElems e = recurrent_state_elems(a, LayerKind::lightning_attention, 8);
  CHECK(e.conv == 131'072);
  CHECK(e.ssm == 0);
  // bf16: 70 layers × 131,072 × 2 B = 18,350,080 B per sequence at TP 8.
  CHECK(mamba_state_bytes_per_sequence(a, 16, 8).in_bytes() == 18'350'080);
  const Term t = mamba_state_term(a, 16, 8, 4);
  CHECK(t.bytes.in_bytes() == 4 * 18'350'080);
  CHECK(consistent(t));
  // Only the 10 softmax layers cache tokens: 10 × 2 × 1 KV head (8 / TP 8) × 128 × 2 B = 5,120 B per token.
  CHECK(kv_bytes_per_token(a, kHybridBf16, 8).in_bytes() == 5'120);
}

TEST_CASE("MiniMax: attention types read and refused at their entry; llama.cpp refuses the family; V0 before 0.10.1",
          "[model][hybrid][minimax][input]") {
  json cfg = test::catalog().find_model("MiniMaxAI/MiniMax-M1-80k")->config;
  auto refused_at = [](const json& config) -> std::string {
    try {
      test::scenario({{"model", {{"config", config}}}, {"inference", {{"context", 4096}}}});
    } catch (const InputError& e) {
      return e.path();
    }
    return "accepted";
  };
  json bad = cfg;
  bad["attn_type_list"][3] = 2;
  CHECK(refused_at(bad) == "/model/config/attn_type_list/3");
  bad = cfg;
  bad["attn_type_list"].erase(0);
  CHECK(refused_at(bad) == "/model/config/attn_type_list");
  bad = cfg;
  bad.erase("attn_type_list");
  CHECK(refused_at(bad) == "/model/config/attn_type_list");
  // transformers' form: layer_types with "linear_attention".
  json hf = cfg;
  hf.erase("attn_type_list");
  hf["model_type"] = "minimax";
  hf["layer_types"] = json::array();
  for (int i = 0; i < 80; ++i) hf["layer_types"].push_back(i % 8 == 7 ? "full_attention" : "linear_attention");
  CHECK(refused_at(hf) == "accepted");
  try {
    test::run({{"model", "MiniMaxAI/MiniMax-M1-80k"},
               {"weights", "gguf:Q4_K_M"},
               {"hardware", {{"gpu", "H200"}, {"count", 8}}},
               {"inference", {{"engine", "llama.cpp"}, {"context", 4096}}}});
    FAIL("llama.cpp accepted lightning attention");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/engine");
  }
  CHECK(default_engine(parse_version("0.10.0"), GpuChoice{}, 1, Family::minimax) == VllmEngine::v0);
  CHECK_FALSE(default_engine(parse_version("0.10.1"), GpuChoice{}, 1, Family::minimax));
}
