#include "vram/engines/vllm.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/io/render.hpp"

using namespace vram;
using namespace vram::vllm;

namespace {
using test::arch;
using test::kBf16;
}  // namespace

TEST_CASE("vLLM scheduler defaults follow the version and the GPU", "[vllm]") {
  const VllmSettings none;
  auto gpu = [](const char* name, double gib) { return GpuChoice{"x", name, Bytes::from_fraction(gib, kGiB), {}, 0}; };
  const auto h100 = scheduler_limits(none, parse_version("0.19.0"), gpu("NVIDIA H100 80GB HBM3", 79.19), 8192);
  CHECK(h100.max_num_batched_tokens == 8192);
  CHECK(h100.max_num_seqs == 1024);
  const auto l40s = scheduler_limits(none, parse_version("0.19.0"), gpu("NVIDIA L40S", 44.52), 8192);
  CHECK(l40s.max_num_batched_tokens == 2048);
  CHECK(l40s.max_num_seqs == 256);
  // A100s keep the small defaults whatever their memory.
  CHECK(scheduler_limits(none, parse_version("0.19.0"), gpu("NVIDIA A100 80GB (SXM4)", 79.26), 8192).max_num_seqs ==
        256);
  const auto v0 = scheduler_limits(none, parse_version("0.6.4"), gpu("NVIDIA RTX 3090", 23.58), 20000);
  CHECK(v0.max_num_batched_tokens == 20000);  // no chunked prefill: the whole prompt at once
  CHECK(v0.max_num_seqs == 256);
  CHECK(scheduler_limits(none, parse_version("0.6.4"), gpu("NVIDIA RTX 3090", 23.58), 65536).max_num_batched_tokens ==
        2048);
  // v0.8 chose by name: 8192 tokens on an H100 or H200 only, 1024 sequences on every GPU.
  const auto v08_h100 = scheduler_limits(none, parse_version("0.8.5"), gpu("NVIDIA H100 80GB HBM3", 79.19), 8192);
  CHECK(v08_h100.max_num_batched_tokens == 8192);
  CHECK(v08_h100.max_num_seqs == 1024);
  const auto v08_l40s = scheduler_limits(none, parse_version("0.8.5"), gpu("NVIDIA L40S", 44.52), 8192);
  CHECK(v08_l40s.max_num_batched_tokens == 2048);
  CHECK(v08_l40s.max_num_seqs == 1024);
  // v0.9 already sizes by memory.
  CHECK(scheduler_limits(none, parse_version("0.9.2"), gpu("NVIDIA L40S", 44.52), 8192).max_num_seqs == 256);
  CHECK(scheduler_limits(none, parse_version("0.9.2"), gpu("AMD Instinct MI300X", 191.5), 8192).max_num_batched_tokens ==
        8192);
  // V0 chunks long prompts by itself only on CUDA (and not for MLA, multimodal or sliding-window models).
  CHECK(scheduler_limits(none, parse_version("0.7.3"), gpu("NVIDIA A10", 22.07), 131072, false).max_num_batched_tokens ==
        131072);
  VllmSettings set;
  set.max_num_batched_tokens = 4096;
  CHECK(scheduler_limits(set, parse_version(""), gpu("NVIDIA H100", 80), 8192).max_num_batched_tokens == 4096);
}

TEST_CASE("pipeline stages get L / pp layers, the remainder before the last stage", "[vllm][pp]") {
  CHECK(pipeline_partition(32, 2) == std::vector<std::int64_t>{16, 16});
  CHECK(pipeline_partition(30, 4) == std::vector<std::int64_t>{7, 8, 8, 7});
  CHECK(pipeline_partition(80, 3) == std::vector<std::int64_t>{27, 27, 26});
}

TEST_CASE("rotary cache: max_position × rotary_dim in the model dtype", "[vllm]") {
  CHECK(rotary_cache_bytes(arch("meta-llama/Llama-3.1-8B"), 2).in_bytes() == 131072LL * 128 * 2);
  CHECK(rotary_cache_bytes(arch("microsoft/phi-2"), 2).in_bytes() ==
        2048LL * 32 * 2);  // partial_rotary_factor 0.4 of 80
}

TEST_CASE("profiling peak terms", "[vllm][activations]") {
  // Llama-3.1-8B, H100 defaults: (14·1024 + 528)·128,256 + (8,192 + 2,048)·4,096·2
  CHECK(profile_sampler_bytes(1024, 8192, 128256, 4096, 2, 132).in_bytes() == 1'906'397'184 + 83'886'080);
  CHECK(sampler_scratch_rows(132, 1024) == 132);  // H100 SXM
  CHECK(sampler_scratch_rows(142, 256) == 142);   // L40S
  CHECK(sampler_scratch_rows(132, 100) == 128);   // fewer rows than SMs: the next power of two
  // forward: 8,192 × 2 × (3 × 14,336 + 4 × 4,096)
  CHECK(profile_forward_bytes(arch("meta-llama/Llama-3.1-8B"), 8192, 1, 2).in_bytes() ==
        8192LL * 2 * (3 * 14336 + 4 * 4096));
  // Mixtral TP2: 2 × 8,192 × top-2 × (7,168 + 14,336)
  CHECK(moe_workspace_bytes(arch("mistralai/Mixtral-8x7B-v0.1"), 8192, 2, 2).in_bytes() == 704'643'072);
  CHECK(moe_workspace_bytes(arch("meta-llama/Llama-3.1-8B"), 8192, 1, 2).in_bytes() == 0);
  // V0 eager forward for a 20,000-token prompt: 20,000 × 2 × 3 × (14,336 + 4,096) = 2,211,840,000 B
  // (the RTX 3090 log of vllm-gh-01 measured 2.07 GiB = 2,223,934,066 B)
  CHECK(v0_forward_bytes(arch("meta-llama/Llama-3.1-8B"), 20000, 2).in_bytes() == 2'211'840'000);
}

TEST_CASE("KV groups: one per attention type, equal sizes", "[vllm][kv]") {
  const KvLayout dense = kv_layout(arch("meta-llama/Llama-3.1-8B"), kBf16, 1, 16, 0, INT32_MAX);
  CHECK(dense.groups == 1);
  CHECK(dense.group_size == 32);
  CHECK(dense.page_bytes.in_bytes() == 16 * 2 * 8 * 128 * 2);
  const KvLayout gemma2 = kv_layout(arch("google/gemma-2-9b-it"), kBf16, 1, 16, 0, INT32_MAX);
  CHECK(gemma2.groups == 2);
  CHECK(gemma2.group_size == 21);
  const KvLayout gemma3 = kv_layout(arch("google/gemma-3-27b-it"), kBf16, 1, 16, 0, INT32_MAX);  // 52 local + 10 global
  CHECK(gemma3.group_size == 10);
  CHECK(gemma3.groups == 7);
  // Llama 4 Scout: 36 chunked-local (8,192) + 12 global layers → 3 + 1 groups of 12.
  const KvLayout scout = kv_layout(arch("meta-llama/Llama-4-Scout-17B-16E-Instruct"), kBf16, 4, 16, 0, INT32_MAX);
  CHECK(scout.group_size == 12);
  CHECK(scout.groups == 4);
  // Public log vllm-llmd-30: 91,495 blocks → 91,495 // 4 × 16 = 365,968 tokens; per request
  // 512 pages (global) + 3 × cdiv(min(8,192 + 8,192, 8,192), 16) = 2,048 → 44.68×.
  const KvPool sp = kv_pool(scout, scout.page_bytes * scout.group_size * 91'495, 16, 8192, 8192);
  CHECK(sp.tokens == 365'968);
  CHECK(std::round(sp.max_concurrency * 100) / 100 == Approx(44.68));
  const KvLayout oss = kv_layout(arch("openai/gpt-oss-20b"), kBf16, 2, 16, 0, INT32_MAX);
  CHECK(oss.groups == 2);
  CHECK(oss.page_bytes.in_bytes() == 16 * 2 * 4 * 64 * 2);
}

TEST_CASE("KV pool: blocks, tokens and concurrency as vLLM prints them", "[vllm][kv]") {
  const Architecture& a = arch("meta-llama/Llama-3.1-8B");
  const KvLayout k = kv_layout(a, kBf16, 1, 16, 0, INT32_MAX);
  // 62,400,000,000 B / (65,536 B × 32 layers) = 29,754 blocks = 476,064 tokens; 29,754 / 512 = 58.11×
  const KvPool p = kv_pool(k, Bytes::of(62'400'000'000), 16, 8192, 8192);
  CHECK(p.blocks == 29'754);
  CHECK(p.tokens == 476'064);
  CHECK(p.max_concurrency == Approx(29754.0 / 512.0));
}

TEST_CASE("sliding layers need at most window − 1 + max_num_batched_tokens tokens of pages", "[vllm][kv][swa]") {
  // gpt-oss-20b TP2 (public log vllm-llmd-39): 323,972 blocks; per request 512 full + 513 sliding pages.
  const Architecture& a = arch("openai/gpt-oss-20b");
  const KvLayout k = kv_layout(a, kBf16, 2, 16, 0, INT32_MAX);
  const Bytes available = k.page_bytes * k.group_size * 323'972;
  const KvPool p = kv_pool(k, available, 16, 8192, 8192);
  CHECK(p.tokens == 2'591'776);
  CHECK(std::round(p.max_concurrency * 100) / 100 == Approx(316.07));
}

TEST_CASE("vLLM worked example: Llama-3.1-8B on an H100 at 0.95", "[vllm][estimate]") {
  const Report r = test::run(
      {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
       {"weights", "bf16"},
       {"hardware", {{"gpu", "H100-SXM-80GB"}}},
       {"headroom", 0},
       {"inference",
        {{"engine", "vllm"}, {"context", 8192}, {"vllm", {{"gpu_memory_utilization", 0.95}, {"version", "0.19.0"}}}}}});
  // Measured (vLLM 0.19.0 log): weights 14.99 GiB, KV 58.11 GiB, 476,016 tokens, 58.11×.
  CHECK(test::metric(r, "weights_bytes") == 16'060'522'496 + 33'554'432);
  CHECK(test::metric(r, "kv_capacity_tokens") == Approx(476'016).epsilon(0.002));
  CHECK(test::metric(r, "max_concurrency") == Approx(58.11).epsilon(0.002));
  CHECK(r.fits);
}

TEST_CASE("vLLM requests ceil(total × gpu_memory_utilization)", "[vllm]") {
  // 79.19 GiB = 85,029,615,043 B; × 0.95 = 80,778,134,290.85 → 80,778,134,291 B
  const Term t = requested_memory_term(Bytes::of(85'029'615'043), 0.95);
  CHECK(t.bytes.in_bytes() == 80'778'134'291);
  CHECK(io::render(t) ==
        "85,029,615,043 B of GPU memory × 0.95 gpu_memory_utilization = 80,778,134,291 B ≈ 75.23 GiB");
}

TEST_CASE("KV needed: whole blocks on full layers, the window on sliding ones", "[vllm][kv][swa]") {
  // gpt-oss-20b TP2 at 8,192 tokens: 12 full layers × 512 blocks × 16 tokens and 12 sliding
  // layers × 128 tokens, each 2 (K,V) × 4 KV heads × 64 dims × 2 B.
  const Architecture& a = arch("openai/gpt-oss-20b");
  const Term t = kv_needed_term(a, kBf16, 2, 16, 8192, 1, 0, INT32_MAX, 16);
  CHECK(t.bytes.in_bytes() == 12LL * 8192 * 1024 + 12LL * 128 * 1024);  // 102,236,160
  CHECK(t.op == Term::Op::sum);
  CHECK(consistent(t));
  // Jamba TP2, 4 sequences: 4 attention layers plus the Mamba states.
  const Architecture& j = arch("ai21labs/Jamba-v0.1");
  const Term jt = kv_needed_term(j, kBf16, 2, 16, 8192, 4, 0, INT32_MAX, 16);
  CHECK(jt.bytes == kv_bytes_for_sequence(j, kBf16, 2, 8192) * 4 + mamba_state_bytes_per_sequence(j, 16, 2) * 4);
  CHECK(jt.note.empty());  // the states are counted, so no remark that they replace the cache
  CHECK(consistent(jt));
}

TEST_CASE("profiling terms are products of their factors", "[vllm][activations]") {
  const Term sampler = profile_sampler_term(1024, 8192, 128256, 4096, 2, 132);
  CHECK(sampler.bytes.in_bytes() == 1'990'283'264);
  CHECK(sampler.parts.size() == 5);  // logits, fp32 copy, scratch, probabilities, hidden
  CHECK(profile_sampler_term(1024, 8192, 128256, 4096, 4, 132).parts.size() == 4);  // no fp32 copy of fp32 logits
  CHECK(consistent(sampler));
  CHECK(consistent(profile_forward_term(arch("meta-llama/Llama-3.1-8B"), 8192, 1, 2)));
  CHECK(consistent(moe_workspace_term(arch("mistralai/Mixtral-8x7B-v0.1"), 8192, 2, 2)));
  CHECK(consistent(v0_forward_term(arch("meta-llama/Llama-3.1-8B"), 20000, 2)));
  // 2 × 8,192 × 5,120 × 2 B
  CHECK(pipeline_buffers_term(8192, 5120, 2).bytes.in_bytes() == 167'772'160);
}

TEST_CASE("the report carries the ranges of the calibrated components", "[vllm][range]") {
  const Report r = test::run({{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 8192}}}});
  const vram::Component* nt = r.find_component("non_torch");
  REQUIRE(nt);
  REQUIRE(nt->range);
  CHECK(nt->range->low == Bytes::from_fraction(0.235, kGiB));
  CHECK(r.find_component("weights")->range == std::nullopt);  // derived
  const nlohmann::json j = nlohmann::json::parse(to_json_text(r));
  bool seen = false;
  for (const auto& c : j["components"]) {
    if (c["id"] == "cuda_graphs") {
      seen = true;
      CHECK(c["range"]["low"].get<std::int64_t>() == 787'002'208);
      CHECK(c["range"]["high"].get<std::int64_t>() == 1'059'195'646);
    }
    if (c["id"] == "kv_cache") CHECK_FALSE(c.contains("range"));
  }
  CHECK(seen);
  // The peak the driver sees moves with the three calibrated terms.
  const auto total = r.total_range();
  REQUIRE(total);
  const auto peak = j["ranges"]["peak_device_bytes"];
  CHECK(peak[0].get<std::int64_t>() == total->low.in_bytes());
  CHECK(peak[1].get<std::int64_t>() == total->high.in_bytes());
  CHECK(peak[0].get<std::int64_t>() < r.total.in_bytes());
  CHECK(j["ranges"]["non_torch_bytes"][1].get<std::int64_t>() == Bytes::from_fraction(0.465, kGiB).in_bytes());
}

TEST_CASE("the engine a version runs by default: V0 on ROCm until 0.9.2, with pipeline parallelism until 0.8.3",
          "[vllm][version][rocm]") {
  GpuChoice mi300x{"MI300X", "AMD Instinct MI300X", Bytes::from(192, kGiB), {}, 0};
  mi300x.rocm_arch = RocmArch::gfx942;
  const GpuChoice h100{"H100-SXM-80GB", "NVIDIA H100 80GB HBM3", Bytes::from(80, kGiB), {}, 90};
  CHECK(default_engine(parse_version("0.8.5"), mi300x, 1) == VllmEngine::v0);
  CHECK(default_engine(parse_version("0.9.1"), mi300x, 1) == VllmEngine::v0);
  CHECK_FALSE(default_engine(parse_version("0.9.2"), mi300x, 1));
  CHECK_FALSE(default_engine(parse_version("0.8.5"), h100, 1));
  CHECK(default_engine(parse_version("0.8.2"), h100, 2) == VllmEngine::v0);
  CHECK_FALSE(default_engine(parse_version("0.8.3"), h100, 2));
  CHECK_FALSE(default_engine(parse_version("0.7.3"), mi300x, 1));  // V0 anyway
  // V0 on ROCm never chunks by itself; on CUDA it does past 32k, except for MLA or sliding windows.
  CHECK_FALSE(v0_chunks_long_context(arch("meta-llama/Llama-3.1-8B"), mi300x));
  CHECK(v0_chunks_long_context(arch("meta-llama/Llama-3.1-8B"), h100));
  CHECK_FALSE(v0_chunks_long_context(arch("deepseek-ai/DeepSeek-V2-Lite-Chat"), h100));
  const Report r = test::run({{"model", "meta-llama/Llama-3.1-8B"},
                              {"hardware", {{"gpu", "MI300X"}}},
                              {"inference", {{"engine", "vllm"}, {"context", 8192}, {"vllm", {{"version", "0.8.5"}}}}}});
  bool warned = false;
  for (const auto& w : r.warnings) warned = warned || w.find("falls back to its V0 engine on ROCm") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("every component cites its sources, a sum of mechanisms each of its parts'", "[vllm][sources]") {
  const Report r = test::run({{"model", "Qwen/Qwen3-30B-A3B"},
                              {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
                              {"inference", {{"engine", "vllm"}, {"context", 8192}, {"tensor_parallel", 2}}}});
  for (const auto& c : r.components) {
    INFO(c.id);
    CHECK_FALSE(c.source.empty());
  }
  // The non-torch sum cites the NCCL buffers' and the custom all-reduce's code, once each.
  const std::string& nt = r.find_component("non_torch")->source;
  CHECK(nt.find("NVIDIA/nccl src/init.cc") != std::string::npos);
  CHECK(nt.find("custom_all_reduce.py") != std::string::npos);
  CHECK(nt.find("NVIDIA/nccl src/init.cc") == nt.rfind("NVIDIA/nccl src/init.cc"));
}

TEST_CASE("the V0 sampler sorts every prompt's fp32 logits on the driver rank", "[vllm][sampler][v0]") {
  // Qwen2.5-14B (R1-Distill-Qwen-14B's shapes): 256 rows × 152,064 × (2 + 4 + 12 + 8 + 12) + (2,048 + 256) × 5,120 × 2 = 1,502,871,552 B.
  CHECK(v0_sampler_term(256, 2048, 152'064, 5'120, 2).bytes.in_bytes() == 1'502'871'552);
  CHECK(consistent(v0_sampler_term(256, 2048, 152'064, 5'120, 2)));
  // A 0.7.2 scenario at 131,072 tokens (chunked: 2,048 tokens, 256 sequences) peaks in that sampler step.
  const Report r = test::run({{"model", "Qwen/Qwen2.5-14B"},
                              {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
                              {"inference",
                               {{"engine", "vllm"}, {"context", 131072}, {"tensor_parallel", 2},
                                {"vllm", {{"version", "0.7.2"}, {"gpu_memory_utilization", 0.98}}}}}});
  CHECK(test::metric(r, "activation_bytes") == 1'502'871'552.0);
  CHECK(r.find_component("activations")->formula.find("V0 sampler step on the driver rank") != std::string::npos);
}
