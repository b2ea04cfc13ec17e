// vLLM's runtime terms as mechanisms: communication buffers by interconnect
// and layout, CUDA graphs by capture sizes and version, the engine ladder.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/accuracy.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/engines/vllm.hpp"
#include "vram/error.hpp"
#include "vram/io/measure.hpp"
#include "vram/io/render.hpp"

using namespace vram;
using namespace vram::vllm;

namespace {

CommLayout layout(std::int64_t tp, Interconnect link, int cc = 90, const char* version = "0.19.0",
                  std::int64_t pp = 1) {
  return CommLayout{tp, pp, link, cc, parse_version(version)};
}

constexpr std::int64_t kNvlinkConnection = 524'288 + 4'915'200 + 4'194'304;  // LL + LL128 + Simple
constexpr std::int64_t kPcieConnection = 524'288 + 4'194'304;                // no LL128 off NVLink

nlohmann::json scenario_with(const nlohmann::json& vllm, const nlohmann::json& hardware = {{"gpu", "H100-SXM-80GB"}}) {
  return {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
          {"hardware", hardware},
          {"inference", {{"engine", "vllm"}, {"context", 8192}, {"vllm", vllm}}}};
}

}  // namespace

TEST_CASE("NCCL connection buffers follow the interconnect", "[vllm][runtime][nccl]") {
  // 24 channels × 1 tree connection × 9,633,792 B on NVSwitch.
  const Term nv = nccl_buffers_term(layout(4, Interconnect::nvlink));
  CHECK(nv.bytes.in_bytes() == 24 * kNvlinkConnection);
  CHECK(nv.bytes.in_bytes() == 231'211'008);
  CHECK(consistent(nv));
  // PCIe with P2P: 2 channels, no LL128: 2 × 4,718,592 B.
  CHECK(nccl_buffers_term(layout(2, Interconnect::pcie_p2p)).bytes.in_bytes() == 2 * kPcieConnection);
  // PCIe without P2P: the SHM transport keeps its FIFOs in host memory.
  CHECK(nccl_buffers_term(layout(2, Interconnect::pcie)).bytes == Bytes{});
  CHECK(nccl_buffers_term(layout(1, Interconnect::nvlink)).bytes == Bytes{});
  // Unknown: NVSwitch assumed (the calibrating machines).
  CHECK(nccl_buffers_term(layout(2, Interconnect::unknown)).bytes.in_bytes() == 231'211'008);
}

TEST_CASE("NVLink SHARP buffers need NVSwitch, sm90 and more than two GPUs", "[vllm][runtime][nccl]") {
  // 16 channels × 2 × 1 MiB × 4 heads.
  CHECK(nvls_buffers_term(layout(4, Interconnect::nvlink)).bytes.in_bytes() == 134'217'728);
  CHECK(nvls_buffers_term(layout(8, Interconnect::nvlink)).bytes.in_bytes() == 268'435'456);
  CHECK(nvls_buffers_term(layout(2, Interconnect::nvlink)).bytes == Bytes{});      // NCCL: off with 2 GPUs
  CHECK(nvls_buffers_term(layout(4, Interconnect::nvlink, 80)).bytes == Bytes{});  // A100: no multicast
  CHECK(nvls_buffers_term(layout(4, Interconnect::pcie_p2p)).bytes == Bytes{});
}

TEST_CASE("vLLM enables custom all-reduce only where its checks pass", "[vllm][runtime][allreduce]") {
  CHECK(custom_allreduce_enabled(layout(2, Interconnect::nvlink)));
  CHECK(custom_allreduce_enabled(layout(8, Interconnect::nvlink)));
  CHECK(custom_allreduce_enabled(layout(8, Interconnect::xgmi)));
  CHECK(custom_allreduce_enabled(layout(2, Interconnect::pcie_p2p)));      // 2 GPUs with P2P
  CHECK(custom_allreduce_enabled(layout(2, Interconnect::nvlink_pairs)));
  CHECK_FALSE(custom_allreduce_enabled(layout(4, Interconnect::pcie_p2p)));  // more than 2 PCIe-only GPUs
  CHECK_FALSE(custom_allreduce_enabled(layout(4, Interconnect::nvlink_pairs)));
  CHECK_FALSE(custom_allreduce_enabled(layout(2, Interconnect::pcie)));      // no P2P
  CHECK_FALSE(custom_allreduce_enabled(layout(3, Interconnect::nvlink)));    // unsupported world size
  CHECK_FALSE(custom_allreduce_enabled(layout(16, Interconnect::nvlink)));
  CHECK_FALSE(custom_allreduce_enabled(layout(1, Interconnect::nvlink)));
  // 2 IPC buffers × 8 MiB.
  CHECK(custom_allreduce_term(layout(2, Interconnect::nvlink)).bytes.in_bytes() == 16'777'216);
  CHECK(custom_allreduce_term(layout(4, Interconnect::pcie_p2p)).bytes == Bytes{});
}

TEST_CASE("torch symmetric-memory buffers by capability, size and version", "[vllm][runtime][allreduce]") {
  CHECK(symm_mem_term(layout(2, Interconnect::nvlink)).bytes.in_bytes() == 64 << 20);
  CHECK(symm_mem_term(layout(4, Interconnect::nvlink)).bytes.in_bytes() == 32 << 20);
  CHECK(symm_mem_term(layout(8, Interconnect::nvlink, 100)).bytes.in_bytes() == std::int64_t{128} << 20);
  CHECK(symm_mem_term(layout(2, Interconnect::nvlink, 90, "0.10.1")).bytes == Bytes{});
  CHECK(symm_mem_term(layout(2, Interconnect::nvlink, 80)).bytes == Bytes{});
  CHECK(symm_mem_term(layout(2, Interconnect::pcie_p2p)).bytes == Bytes{});
}

TEST_CASE("the non-torch increase sums its mechanisms", "[vllm][runtime]") {
  // One GPU: the measured workspaces alone.
  const Term one = non_torch_term(layout(1, Interconnect::nvlink));
  CHECK(one.bytes.in_bytes() == 268'435'456);
  CHECK(*one.range == gib_range(0.235, 0.465));
  CHECK(non_torch_term(layout(1, Interconnect::nvlink, 90, "0.19.0", 2)).bytes == Bytes::from_fraction(0.07, kGiB));
  // The version sweep: 0.13 GiB on 0.15-0.17, 0.25 GiB from 0.18.
  CHECK(non_torch_term(layout(1, Interconnect::nvlink, 90, "0.16.0")).bytes == Bytes::from_fraction(0.13, kGiB));
  CHECK(non_torch_term(layout(1, Interconnect::nvlink, 90, "0.18.0")).bytes.in_bytes() == 268'435'456);
  // TP 2 on H100 SXM: 0.25 GiB + NCCL 231,211,008 + custom AR 16,777,216 + symm 67,108,864 + 1.54 GiB
  // = 2,237,094,953 B (2.08 GiB; the sweep measured 2.07-2.11 GiB).
  const Term tp2 = non_torch_term(layout(2, Interconnect::nvlink));
  CHECK(tp2.bytes.in_bytes() == 2'237'094'953);
  CHECK(consistent(tp2));
  // TP 4 adds NVLS (134,217,728) and halves the symmetric buffer: 2,337,758,249 B (2.18 GiB; 2.13-2.21).
  CHECK(non_torch_term(layout(4, Interconnect::nvlink)).bytes.in_bytes() == 2'337'758'249);
  // Four GeForce cards: no NCCL buffers on the GPU, no custom all-reduce, no NVLS, no symmetric memory;
  // no unattributed part without symmetric-memory all-reduce, its range up to the NVLink H100 figure.
  const Term geforce = non_torch_term(layout(4, Interconnect::pcie, 89));
  CHECK(geforce.bytes.in_bytes() == 268'435'456);
  CHECK(geforce.range->low == gib_range(0.235, 0.465).low);
  CHECK(geforce.range->high == gib_range(0.235, 0.465).high + gib_range(1.488, 1.578).high);
  CHECK(consistent(geforce));
  // An NVLink A100 (sm80) has no symmetric-memory all-reduce either: NCCL and custom all-reduce only.
  const Term a100 = non_torch_term(layout(2, Interconnect::nvlink, 80));
  CHECK(a100.bytes.in_bytes() == 268'435'456 + 231'211'008 + 16'777'216);
  CHECK_FALSE(symm_mem_on(layout(2, Interconnect::nvlink, 80)));
  CHECK(symm_mem_on(layout(2, Interconnect::nvlink, 90)));
  CHECK_FALSE(symm_mem_on(layout(2, Interconnect::nvlink, 90, "0.10.1")));
}

TEST_CASE("capture sizes follow the version and the scheduler limits", "[vllm][graphs]") {
  const VllmSettings none;
  const auto v19 = capture_sizes(none, parse_version("0.19.0"), 1024, 8192);
  REQUIRE(v19.size() == 51);  // 1, 2, 4, 8..248 by 8, 256..512 by 16
  CHECK(v19.front() == 1);
  CHECK(v19[3] == 8);
  CHECK(v19.back() == 512);
  // max = min(2 × 8, 512, tokens) = 16.
  CHECK(capture_sizes(none, parse_version("0.19.0"), 8, 8192) == std::vector<std::int64_t>{1, 2, 4, 8, 16});
  CHECK(capture_sizes(none, parse_version("0.19.0"), 1024, 100).back() == 96);
  // V1 before 0.11: 1, 2, 4, 8..512 by 8 = 67, cut by max_num_batched_tokens.
  CHECK(capture_sizes(none, parse_version("0.9.2"), 256, 2048).size() == 67);
  CHECK(capture_sizes(none, parse_version("0.9.2"), 256, 256).size() == 35);
  // V0: 1, 2, 4, 8..256 by 8 up to max_num_seqs padded to 8.
  CHECK(capture_sizes(none, parse_version("0.6.4"), 256, 2048).size() == 35);
  CHECK(capture_sizes(none, parse_version("0.6.4"), 20, 2048) == std::vector<std::int64_t>{1, 2, 4, 8, 16, 24});
  CHECK(capture_sizes(none, parse_version("0.9.2", VllmEngine::v0), 256, 2048).size() == 35);
  VllmSettings given;
  given.cudagraph_capture_sizes = {4, 1, 4, 64, 9000};
  CHECK(capture_sizes(given, parse_version("0.19.0"), 1024, 8192) == std::vector<std::int64_t>{1, 4, 64});
  VllmSettings eager;
  eager.enforce_eager = true;
  CHECK(capture_sizes(eager, parse_version("0.19.0"), 1024, 8192).empty());
}

TEST_CASE("graph modes and the graphs they capture", "[vllm][graphs]") {
  const VllmSettings none;
  CHECK(graph_mode(none, parse_version("0.19.0")) == GraphMode::full_and_piecewise);
  CHECK(graph_mode(none, parse_version("0.9.2")) == GraphMode::piecewise);
  CHECK(graph_mode(none, parse_version("0.6.4")) == GraphMode::full);
  VllmSettings eager;
  eager.enforce_eager = true;
  CHECK(graph_mode(eager, parse_version("0.19.0")) == GraphMode::none);
  const auto sizes = capture_sizes(none, parse_version("0.19.0"), 1024, 8192);
  CHECK(captured_graphs(GraphMode::full_and_piecewise, sizes, 1024) == 102);
  // Full decode graphs only up to max_num_seqs (sizes 1, 2, 4, 8..96: 15 of them).
  CHECK(captured_graphs(GraphMode::full_and_piecewise, sizes, 100) == 51 + 15);
  CHECK(captured_graphs(GraphMode::piecewise, sizes, 1024) == 51);
  CHECK(captured_graphs(GraphMode::none, {}, 1024) == 0);
}

TEST_CASE("the graph pool grows with graphs × layers", "[vllm][graphs][range]") {
  // 0.138 GiB (148,176,372 B) + 102 graphs × 32 layers × 168,430 B (549,755,520 B).
  const Term g = cuda_graph_term(102, 32, false);
  CHECK(g.bytes.in_bytes() == 148'176'372 + 549'755'520);
  // fp32 activations hold a pool twice as large.
  CHECK(cuda_graph_term(102, 32, false, 512, 4).bytes.in_bytes() == 296'352'743 + 549'755'520);
  CHECK(consistent(g));
  REQUIRE(g.range);
  CHECK(g.range->low < g.bytes);
  CHECK(g.range->high > g.bytes);
  CHECK(cuda_graph_term(0, 32, false).bytes == Bytes{});
  // Fewer sizes, smaller pool: max_num_seqs 8 captures 5 sizes up to 16 tokens, and 4 full graphs.
  // Pool: 0.138 GiB × 16 / 512 = 4,630,511.6 → 4,630,512 B.
  CHECK(cuda_graph_term(9, 32, false, 16).bytes.in_bytes() == 4'630'512 + 9 * 32 * 168'430);
  // FA3 split-KV accumulators: 32 splits × 512 tokens × 32 heads × (128 dims + 1 lse) × 4 B.
  const Term split = fa3_split_buffers_term(test::arch("meta-llama/Llama-3.1-8B"), 1, 512, 2, 90);
  CHECK(split.bytes.in_bytes() == 270'532'608);
  CHECK(consistent(split));
  CHECK(fa3_split_buffers_term(test::arch("meta-llama/Llama-3.1-8B"), 2, 512, 2, 90).bytes.in_bytes() == 135'266'304);
  CHECK(fa3_split_buffers_term(test::arch("meta-llama/Llama-3.1-8B"), 1, 512, 2, 80).bytes == Bytes{});  // FA2
  CHECK(fa3_split_buffers_term(test::arch("meta-llama/Llama-3.1-8B"), 1, 512, 4, 90).bytes == Bytes{});  // fp32
  // MLA: the latent (512) per head; DeepSeek-V2-Lite's 16 heads: 32 × 512 × 16 × 513 × 4 B.
  CHECK(fa3_split_buffers_term(test::arch("deepseek-ai/DeepSeek-V2-Lite-Chat"), 1, 512, 2, 90).bytes.in_bytes() ==
        32LL * 512 * 16 * 513 * 4);
}

TEST_CASE("the engine estimate reads the interconnect, the graphs and the engine", "[vllm][engine]") {
  const Report h100 = test::run(scenario_with({{"version", "0.19.0"}}));
  CHECK(test::metric(h100, "cuda_graph_bytes") == 148'176'372 + 549'755'520 + 270'532'608);
  const Report few = test::run(scenario_with({{"version", "0.19.0"}, {"max_num_seqs", 8}}));
  // 5 piecewise + 4 full graphs (sizes ≤ 8), FA3 accumulators for 8 tokens: 32 × 8 × 32 × 129 × 4 B.
  CHECK(test::metric(few, "cuda_graph_bytes") == 4'630'512 + 9 * 32 * 168'430 + 4'227'072);
  const Report eager = test::run(scenario_with({{"enforce_eager", true}}));
  CHECK(test::metric(eager, "cuda_graph_bytes") == 0);
  // Tensor parallel over PCIe without P2P (the RTX 4090's catalog interconnect): no NCCL or
  // all-reduce buffers on the GPU, no unattributed part.
  const nlohmann::json tp2 = {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
                              {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
                              {"inference", {{"engine", "vllm"}, {"context", 4096}, {"tensor_parallel", 2}}}};
  CHECK(test::metric(test::run(tp2), "non_torch_bytes") == 268'435'456);
  nlohmann::json nv = tp2;
  nv["hardware"]["interconnect"] = "nvlink";
  CHECK(test::metric(test::run(nv), "non_torch_bytes") > test::metric(test::run(tp2), "non_torch_bytes"));
}

TEST_CASE("bad interconnects and engines are refused at their field", "[vllm][input]") {
  try {
    test::scenario(scenario_with({}, {{"gpu", "H100-SXM-80GB"}, {"interconnect", "infiniband"}}));
    FAIL("accepted an unknown interconnect");
  } catch (const InputError& e) {
    CHECK(e.path() == "/hardware/interconnect");
    CHECK(std::string(e.what()).find("pcie, pcie-p2p, nvlink-pairs, nvlink, xgmi") != std::string::npos);
  }
  try {
    test::scenario(scenario_with({{"version", "0.19.0"}, {"engine", "v0"}}));
    FAIL("accepted V0 on 0.19");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/vllm/engine");
    CHECK(std::string(e.what()).find("allowed: v1") != std::string::npos);
  }
  CHECK_THROWS_AS(test::scenario(scenario_with({{"version", "0.6.4"}, {"engine", "v1"}})), InputError);
  CHECK_THROWS_AS(test::scenario(scenario_with({{"engine", "v2"}})), InputError);
  CHECK_THROWS_AS(test::scenario(scenario_with({{"cudagraph_capture_sizes", {1, 0}}})), InputError);
  CHECK_THROWS_AS(test::scenario(scenario_with({{"cudagraph_capture_sizes", nlohmann::json::array()}})), InputError);
  // A tag spelling of the version is read the same way.
  CHECK_NOTHROW(test::scenario(scenario_with({{"version", "v0.9.2"}, {"engine", "v0"}})));
  // 0.9 with VLLM_USE_V1=0 runs V0: full graphs over 35 sizes up to 256 sequences.
  const Scenario v0 = test::scenario(scenario_with({{"version", "0.9.2"}, {"engine", "v0"}}));
  CHECK_FALSE(parse_version(v0.inference().vllm.version, v0.inference().vllm.engine).v1_engine());
}

TEST_CASE("the version ladder: early V1 samples every scheduled token, V0 shards the MLP", "[vllm][version]") {
  // 2048 × 128,256 × (2 + 4 + 12 + 4) + 2048 × 4,096 × 2.
  const Term early = early_v1_sampler_term(2048, 128'256, 4096, 2);
  CHECK(early.bytes.in_bytes() == 5'795'479'552);
  CHECK(consistent(early));
  // V0 forward at TP 2: 20,000 × 3 × (14,336 / 2) × 2 + 20,000 × 3 × 4,096 × 2.
  CHECK(v0_forward_bytes(test::arch("meta-llama/Llama-3.1-8B"), 20000, 2, 2).in_bytes() ==
        20000LL * 3 * 7168 * 2 + 20000LL * 3 * 4096 * 2);
  // v0.9-0.16 sort the sampled rows' logits: 1024 × 151,936 × (2 + 4 + 12 + 8 + 12) + 10,240 × 5,120 × 2.
  const Term sorted = sort_sampler_term(1024, 8192, 151'936, 5120, 2);
  CHECK(sorted.bytes.in_bytes() == 6'016'991'232);
  CHECK(consistent(sorted));
  // The same L40S scenario as v0.8.5 and as v0.19: the early sampler's peak takes ~5.4 GiB more.
  auto l40s = [](const char* version) {
    return nlohmann::json{{"model", "meta-llama/Llama-3.1-8B-Instruct"},
                          {"hardware", {{"gpu", "L40S"}}},
                          {"inference", {{"engine", "vllm"}, {"context", 32768}, {"vllm", {{"version", version}}}}}};
  };
  const double v085 = test::metric(test::run(l40s("0.8.5")), "activation_bytes");
  const double v019 = test::metric(test::run(l40s("0.19.0")), "activation_bytes");
  // The early sampler's peak and the L40S's cuBLAS workspace (sm89: 2 × 4 MiB + 8 × 16 KiB).
  CHECK(v085 == 5'795'479'552 + 8'519'680);
  CHECK(v085 - v019 > 4.5 * (1 << 30));
}

TEST_CASE("versions off the ladder run as the nearest known one, named in warnings", "[vllm][version]") {
  CHECK(parse_version("0.22.1").minor == 21);
  CHECK(parse_version("0.22.1").fit == VersionFit::newer);
  CHECK(parse_version("1.0.0").fit == VersionFit::newer);
  CHECK(parse_version("0.2.7").minor == 4);
  CHECK(parse_version("0.2.7").fit == VersionFit::older);
  CHECK(parse_version("v0.10.1").minor == 10);
  CHECK(parse_version("v0.10.1").fit == VersionFit::exact);
  CHECK(parse_version("latest").fit == VersionFit::unreadable);
  CHECK(parse_version("0.8.3.dev").minor == 8);
  const Report newer = test::run(scenario_with({{"version", "0.22.1"}}));
  const Report known = test::run(scenario_with({{"version", "0.21.0"}}));
  CHECK(test::metric(newer, "kv_capacity_tokens") == test::metric(known, "kv_capacity_tokens"));
  auto warned = [](const Report& r, const char* text) {
    for (const auto& w : r.warnings)
      if (w.find(text) != std::string::npos) return true;
    return false;
  };
  CHECK(warned(newer, "estimated as the nearest, vLLM 0.21"));
  CHECK_FALSE(warned(known, "nearest"));
  CHECK(warned(test::run(scenario_with({{"version", "latest"}})), "is not a version"));
  // A custom GPU under tensor parallelism: the assumed interconnect is named.
  const nlohmann::json custom = {
      {"model", "meta-llama/Llama-3.1-8B-Instruct"},
      {"hardware", {{"gpu", {{"name", "some GPU"}, {"memory_bytes", 85'000'000'000LL}}}, {"count", 2}}},
      {"inference", {{"engine", "vllm"}, {"context", 8192}, {"tensor_parallel", 2}}}};
  CHECK(warned(test::run(custom), "NVLink through NVSwitch assumed"));
}

TEST_CASE("the CUDA context by architecture, and NCCL's communicators at start", "[vllm][runtime][context]") {
  // H100 SXM: 132 SMs × 2048 threads × 1 KiB + 258 MiB.
  CHECK(driver_context_term(90, 132).bytes.in_bytes() == 276'824'064 + 270'532'608);
  // RTX 4090: 128 SMs × 1536 threads × 1 KiB + 258 MiB; the fixed part unmeasured off sm90.
  const Term ada = driver_context_term(89, 128);
  CHECK(ada.bytes.in_bytes() == 128LL * 1536 * 1024 + 270'532'608);
  CHECK(ada.range->high.in_bytes() == 128LL * 1536 * 1024 + 405'798'912);
  CHECK(consistent(ada));
  CHECK(max_threads_per_sm(75) == 1024);
  CHECK(max_threads_per_sm(80) == 2048);
  CHECK(max_threads_per_sm(120) == 1536);
  // Unknown GPU: the H100's.
  CHECK(driver_context_term(0, 0).bytes == driver_context_term(90, 132).bytes);
  // Communicators: world + tp; + pp; + the expert group of a MoE model.
  CHECK(nccl_communicators(layout(1, Interconnect::nvlink)) == 0);
  CHECK(nccl_communicators(layout(2, Interconnect::nvlink)) == 2);
  CHECK(nccl_communicators(layout(1, Interconnect::nvlink, 90, "0.19.0", 2)) == 2);
  CHECK(nccl_communicators(layout(2, Interconnect::nvlink, 90, "0.19.0", 2)) == 3);
  CommLayout moe = layout(2, Interconnect::nvlink);
  moe.experts = true;
  CHECK(nccl_communicators(moe) == 3);
  // TP 2 over NVSwitch: 2 × (231,211,008 + 300,647,711); the sweep measured 1.43-1.53 GiB with the context.
  const Term init = nccl_init_term(layout(2, Interconnect::nvlink));
  CHECK(init.bytes.in_bytes() == 2 * (231'211'008LL + 300'647'711));
  CHECK(consistent(init));
  const double with_context = static_cast<double>(vllm_context_term(layout(2, Interconnect::nvlink), 132).bytes.in_bytes());
  CHECK(with_context / (1 << 30) == Approx(1.50).margin(0.01));
  // GeForce over PCIe: SHM in host memory, only the communicators' own state on the GPU.
  CHECK(nccl_init_term(layout(2, Interconnect::pcie, 89)).bytes.in_bytes() == 2 * 300'647'711LL);
}

TEST_CASE("an unknown family with linear-attention or state-space layers is refused at its field", "[model][input]") {
  // Fields of Qwen3-Next, Nemotron-H and Granite 4.0 hybrid under a model_type the estimator does not know.
  nlohmann::json cfg = {{"model_type", "acme_next"},   {"hidden_size", 2048},          {"num_hidden_layers", 48},
                        {"num_attention_heads", 16},   {"num_key_value_heads", 2},     {"intermediate_size", 5120},
                        {"vocab_size", 151936},        {"linear_num_value_heads", 32}, {"linear_key_head_dim", 128},
                        {"full_attention_interval", 4}};
  auto refused_at = [](const nlohmann::json& config) {
    try {
      test::scenario({{"model", {{"config", config}}}, {"inference", {{"context", 4096}}}});
    } catch (const InputError& e) {
      return e.path();
    }
    return std::string("accepted");
  };
  CHECK(refused_at(cfg) == "/model/config/linear_num_value_heads");
  nlohmann::json nemotron = cfg;
  for (const char* k : {"linear_num_value_heads", "linear_key_head_dim", "full_attention_interval"}) nemotron.erase(k);
  nemotron["model_type"] = "acme_h";
  nemotron["hybrid_override_pattern"] = "M-M-M-M*-M-M-M-M*-";
  CHECK(refused_at(nemotron) == "/model/config/hybrid_override_pattern");
  // Unknown layer names in layer_types are refused at their entry, even for a known hybrid family.
  nlohmann::json granite = nemotron;
  granite.erase("hybrid_override_pattern");
  granite["model_type"] = "granitemoehybrid";
  granite["layer_types"] = nlohmann::json::array();
  for (int i = 0; i < 48; ++i) granite["layer_types"].push_back(i % 6 == 5 ? "attention" : "retention");
  CHECK(refused_at(granite) == "/model/config/layer_types/0");
  // A plain unknown decoder is still counted, with a note.
  nlohmann::json plain = nemotron;
  plain.erase("hybrid_override_pattern");
  CHECK(refused_at(plain) == "accepted");
}

TEST_CASE("an unknown family with latent attention or a sparse-attention indexer is refused at its field",
          "[model][input]") {
  // DeepSeek-V3.2's config (model_type deepseek_v32): MLA plus the lightning indexer. Counted as a
  // llama-style decoder, its 128 KV heads × 128 dims would stand for the 576-value latent.
  nlohmann::json cfg = {{"model_type", "deepseek_v32"}, {"hidden_size", 7168},       {"num_hidden_layers", 61},
                        {"num_attention_heads", 128},   {"num_key_value_heads", 128}, {"intermediate_size", 18432},
                        {"vocab_size", 129280},         {"kv_lora_rank", 512},        {"q_lora_rank", 1536},
                        {"qk_rope_head_dim", 64},       {"qk_nope_head_dim", 128},    {"v_head_dim", 128},
                        {"index_n_heads", 64},          {"index_head_dim", 128},      {"index_topk", 2048}};
  auto refusal = [](const nlohmann::json& config) {
    try {
      test::scenario({{"model", {{"config", config}}}, {"inference", {{"context", 4096}}}});
    } catch (const InputError& e) {
      return e.path() + ": " + e.what();
    }
    return std::string("accepted");
  };
  const std::string v32 = refusal(cfg);
  CHECK_THAT(v32, Catch::StartsWith("/model/config/index_n_heads: "));
  CHECK_THAT(v32, Catch::Contains("sparse-attention indexer"));
  CHECK_THAT(v32, Catch::Contains("model_type \"deepseek_v32\" is not a known family"));
  CHECK_THAT(v32, Catch::Contains("deepseek_v2, deepseek_v3, kimi_k2"));
  // Latent attention alone, under another unknown name.
  nlohmann::json mla = cfg;
  for (const char* k : {"index_n_heads", "index_head_dim", "index_topk"}) mla.erase(k);
  mla["model_type"] = "acme_mla";
  CHECK_THAT(refusal(mla), Catch::StartsWith("/model/config/kv_lora_rank: describes multi-head latent attention"));
  // As the error says: read as deepseek_v3, the same config is estimated with its latent KV cache.
  mla["model_type"] = "deepseek_v3";
  mla["n_routed_experts"] = 256;
  mla["num_experts_per_tok"] = 8;
  mla["moe_intermediate_size"] = 2048;
  mla["n_shared_experts"] = 1;
  mla["first_k_dense_replace"] = 3;
  CHECK(refusal(mla) == "accepted");
  // Gemma 4's full-attention layers (wider heads, fewer KV heads) under the generic reader.
  nlohmann::json gemma4 = {{"model_type", "gemma4_text"}, {"hidden_size", 2816},       {"num_hidden_layers", 30},
                           {"num_attention_heads", 16},    {"num_key_value_heads", 8},  {"head_dim", 256},
                           {"intermediate_size", 2112},    {"vocab_size", 262144},      {"global_head_dim", 512},
                           {"num_global_key_value_heads", 2}, {"attention_k_eq_v", true}};
  CHECK(refusal(gemma4) == "/model/config/global_head_dim: describes full-attention layers with a head shape of their "
                           "own (Gemma 4), and model_type \"gemma4_text\" is not a known family; no known family has them");
  // MiMo-V2-Flash: which layers slide, and their own head shape, in fields of its own.
  nlohmann::json mimo = {{"model_type", "mimo_v2_flash"}, {"hidden_size", 4096},          {"num_hidden_layers", 6},
                         {"num_attention_heads", 64},      {"num_key_value_heads", 4},     {"head_dim", 192},
                         {"intermediate_size", 16384},     {"vocab_size", 152576},         {"sliding_window", 128},
                         {"hybrid_layer_pattern", {0, 1, 1, 1, 1, 0}}, {"swa_num_key_value_heads", 8}};
  CHECK_THAT(refusal(mimo), Catch::StartsWith("/model/config/hybrid_layer_pattern: describes which layers attend to a "
                                              "sliding window (MiMo-V2)"));
  CHECK_THAT(refusal(mimo), Catch::Contains("layer_types (sliding_attention, full_attention) is read for any family"));
  mimo.erase("hybrid_layer_pattern");
  CHECK_THAT(refusal(mimo), Catch::StartsWith("/model/config/swa_num_key_value_heads: "));
  // The same model stated with layer_types and one head shape is read.
  mimo.erase("swa_num_key_value_heads");
  mimo["layer_types"] = {"full_attention", "sliding_attention", "sliding_attention", "sliding_attention",
                         "sliding_attention", "full_attention"};
  CHECK(refusal(mimo) == "accepted");
}

TEST_CASE("from v0.21 the CUDA graphs are profiled inside the reservation", "[vllm][graphs][version]") {
  CHECK_FALSE(graphs_profiled(parse_version("0.19.0")));
  CHECK(graphs_profiled(parse_version("0.21.0")));
  const Report v19 = test::run(scenario_with({{"version", "0.19.0"}}));
  const Report v21 = test::run(scenario_with({{"version", "0.21.0"}}));
  const double graphs = test::metric(v21, "cuda_graph_bytes");
  CHECK(graphs == test::metric(v19, "cuda_graph_bytes"));
  // The KV budget shrinks by the graph pool; the graphs move inside the reservation.
  CHECK(test::metric(v19, "kv_cache_bytes") - test::metric(v21, "kv_cache_bytes") == graphs);
  CHECK(v19.find_component("cuda_graphs")->outside_reservation);
  CHECK_FALSE(v21.find_component("cuda_graphs")->outside_reservation);
}

TEST_CASE("on ROCm the graphs stay outside the reservation and no FA3 accumulators are kept", "[vllm][graphs][rocm]") {
  CHECK_FALSE(graphs_profiled(parse_version("0.21.0"), RocmArch::gfx942));
  CHECK(graphs_profiled(parse_version("0.21.0"), RocmArch::none));
  CHECK(fa3_split_buffers_term(test::arch("meta-llama/Llama-3.1-8B"), 1, 512, 2, 0, RocmArch::gfx942).bytes == Bytes{});
  CHECK(fa3_split_buffers_term(test::arch("meta-llama/Llama-3.1-8B"), 1, 512, 2, 0).bytes.in_bytes() == 270'532'608);
  const Report mi300x = test::run(scenario_with({{"version", "0.21.0"}}, {{"gpu", "MI300X"}}));
  CHECK(mi300x.find_component("cuda_graphs")->outside_reservation);
  CHECK(mi300x.find_component("cuda_graphs")->formula.find("FA3") == std::string::npos);
  // The per-graph cost was calibrated on H100s only: on ROCm its range is 0.5x to 2x, and said so.
  const vram::Component& g = *mi300x.find_component("cuda_graphs");
  REQUIRE(g.range);
  CHECK(g.range->high == ratio_range(g.bytes, 0.5, 2.0).high);
  CHECK(std::any_of(mi300x.warnings.begin(), mi300x.warnings.end(),
                    [](const std::string& w) { return w.find("CUDA graph pools on ROCm") != std::string::npos; }));
}

TEST_CASE("capture sizes by version: steps of 8 to min(2 x seqs, 512) from v0.10, steps of 16 past 256 from v0.11.1",
          "[vllm][graphs][version]") {
  const VllmSettings none;
  // v0.11.0: 1, 2, 4 and 8 ... 512 in steps of 8 = 67 sizes; v0.11.1: 8 ... 248 by 8, 256 ... 512 by 16 = 51.
  CHECK(capture_sizes(none, parse_version("0.11.0"), 1024, 8192).size() == 67);
  CHECK(capture_sizes(none, parse_version("0.11.1"), 1024, 8192).size() == 51);
  // v0.10 with 128 sequences: up to 2 × 128 = 256, 3 + 32 sizes; v0.9 ignores the sequences: up to 512.
  CHECK(capture_sizes(none, parse_version("0.10.2"), 128, 8192).size() == 35);
  CHECK(capture_sizes(none, parse_version("0.10.2"), 128, 8192).back() == 256);
  CHECK(capture_sizes(none, parse_version("0.9.2"), 128, 8192).size() == 67);
}

TEST_CASE("fused-MoE buffers: per call inside the forward pass before v0.14, a kept workspace from v0.14",
          "[vllm][moe][version]") {
  const auto& qwen = test::arch("Qwen/Qwen3-30B-A3B");
  // Qwen3-30B-A3B (H 2048, I 768, top-8) at T = 8,192, TP 1: per call 8,192 × 8 × (max(1,536, 2,048) + 768) × 2 B
  // = 369,098,752 B; the modular kernel's 8,192 × 8 × (max(768, 2,048) + max(1,536, 2,048)) × 2 B = 536,870,912 B.
  CHECK(transient_moe_term(qwen, 8192, 1, 2, 32768).bytes.in_bytes() == 369'098'752);
  CHECK(moe_workspace_term(qwen, 8192, 1, 2).bytes.in_bytes() == 536'870'912);
  // Chunks: 32,768 tokens until v0.11, 16,384 from v0.12, none from v0.18.
  CHECK(fused_moe_chunk(parse_version("0.11.0")) == 32768);
  CHECK(fused_moe_chunk(parse_version("0.13.0")) == 16384);
  CHECK(fused_moe_chunk(parse_version("0.18.0")) == 0);
  CHECK(transient_moe_term(qwen, 40000, 1, 2, 16384).bytes.in_bytes() == 16384LL * 8 * 2816 * 2);
  // v0.14-0.17 past one chunk: the chunk's workspace and the whole T × H output, 20,000 × 2,048 × 2 B.
  CHECK(moe_workspace_term(qwen, 20000, 1, 2, 16384).bytes.in_bytes() == 16384LL * 8 * 4096 * 2 + 20000LL * 2048 * 2);
  // The forward pass inside an MoE layer: 4 × T × H × 2 B beside the per-call buffers.
  CHECK(moe_layer_forward_term(qwen, 8192, 1, 2, 32768).bytes.in_bytes() == 4LL * 8192 * 2048 * 2 + 369'098'752);
  CHECK(consistent(moe_layer_forward_term(qwen, 8192, 1, 2, 32768)));

  // In an estimate: v0.13 has no kept workspace; v0.14 adds it beside the profile's peak.
  auto at = [](const char* version) {
    return nlohmann::json{{"model", "Qwen/Qwen3-30B-A3B"},
                          {"hardware", {{"gpu", "H100-SXM-80GB"}}},
                          {"inference", {{"engine", "vllm"}, {"context", 8192}, {"vllm", {{"version", version}}}}}};
  };
  const Report v13 = test::run(at("0.13.0"));
  const Report v14 = test::run(at("0.14.0"));
  CHECK(v13.find_component("activations")->formula.find("fused-MoE workspace") == std::string::npos);
  CHECK(v14.find_component("activations")->formula.find("fused-MoE workspace") != std::string::npos);
  CHECK(test::metric(v14, "activation_bytes") - test::metric(v13, "activation_bytes") >= 536'870'912.0 - 369'098'752.0);
}

TEST_CASE("hybrid attention + Mamba models align their pages (V1, v0.11+)", "[vllm][kv][hybrid]") {
  const Architecture& jamba = test::arch("ai21labs/Jamba-v0.1");
  const KvDtype bf16{"bf16", 1, 2};
  // Per Mamba layer: 8,192 d_inner × (3 conv + 16 SSM) × 2 B = 311,296 B; attention 2 × 8 × 128 × 2 = 4,096 B/token.
  const HybridPages h = hybrid_pages(jamba, bf16, 1, 16, 16);
  CHECK(h.mamba_state.in_bytes() == 311'296);
  CHECK(h.block_size == 80);  // 16 × cdiv(311,296, 16 × 4,096)
  CHECK(h.page.in_bytes() == 327'680);
  // A block size already above the alignment is kept.
  CHECK(hybrid_pages(jamba, bf16, 1, 128, 16).block_size == 128);
  // 4 attention + 28 Mamba layers: groups of 4 layers, 1 + 7 groups.
  const KvLayout k = hybrid_kv_layout(jamba, bf16, 1, 16, 16, 0, INT32_MAX);
  CHECK(k.group_size == 4);
  CHECK(k.groups == 8);
  CHECK(k.block_size == 80);
  // 1,000 block ids: 1,000 / 8 × 80 tokens; a 8,192-token request needs cdiv(8192, 80) = 103 pages + 7 Mamba pages.
  const KvPool p = kv_pool(k, k.page_bytes * k.group_size * 1000, 16, 8192, 8192);
  CHECK(p.blocks == 1000);
  CHECK(p.tokens == 125 * 80);
  CHECK(p.max_concurrency == Approx(1000.0 / 110.0));
  // Needed: 103 blocks × 80 tokens × 4 layers × 4,096 B + 28 layers × 327,680 B.
  const Term need = hybrid_kv_needed_term(jamba, bf16, 1, 16, 16, 8192, 1, 0, INT32_MAX);
  CHECK(need.bytes.in_bytes() == 103LL * 80 * 4 * 4096 + 28LL * 327'680);
  CHECK(consistent(need));
  // The engine uses it from v0.11; V0 keeps its separate state cache.
  auto run = [](const char* version) {
    return test::run({{"model", "ai21labs/Jamba-v0.1"},
                      {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
                      {"inference", {{"engine", "vllm"}, {"context", 8192}, {"tensor_parallel", 2},
                                     {"vllm", {{"version", version}}}}}});
  };
  const Report v19 = run("0.19.0");
  // TP 2 halves both the state and the per-token bytes: 80-token blocks again.
  CHECK(static_cast<std::int64_t>(test::metric(v19, "kv_capacity_tokens")) % 80 == 0);
  CHECK(test::metric(v19, "kv_capacity_tokens") != test::metric(run("0.6.4"), "kv_capacity_tokens"));
}

TEST_CASE("capture sizes match a startup log the estimator was not built on", "[vllm][graphs]") {
  // vllm-project/vllm#39559 (April 2026): "Profiling CUDA graph memory: PIECEWISE=51 (largest=512),
  // FULL=35 (largest=256)": 256 sequences (the default under 70 GiB), any max_num_batched_tokens ≥ 512.
  const VllmSettings none;
  const auto sizes = capture_sizes(none, parse_version("0.19.0"), 256, 8192);
  CHECK(sizes.size() == 51);
  CHECK(sizes.back() == 512);
  const auto full = std::count_if(sizes.begin(), sizes.end(), [](std::int64_t x) { return x <= 256; });
  CHECK(full == 35);
  CHECK(captured_graphs(GraphMode::full_and_piecewise, sizes, 256) == 51 + 35);
}

TEST_CASE("the project's own vLLM cases meet the bar", "[accuracy][cases]") {
  // Every own vLLM file: the H100 sweep's logs the public cases leave out, the version sweep, and the
  // public startup logs of other machines (A100, A10, L4, L40S, H200, RTX cards, MI300X; V0 and V1).
  std::string text;
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(VRAM_SOURCE_DIR "/tests/data/cases")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("vllm_", 0) != 0 || entry.path().extension() != ".jsonl") continue;
    text += test::read_file(entry.path().string());
    ++files;
  }
  CHECK(files >= 6);
  REQUIRE_FALSE(text.empty());
  const AccuracyRun run = run_accuracy(text, test::catalog());
  CHECK(run.malformed == 0);
  CHECK(run.not_estimated == 0);
  const MetricSummary* tokens = nullptr;
  const MetricSummary* non_torch = nullptr;
  const MetricSummary* graphs = nullptr;
  for (const auto& s : run.summary) {
    if (s.group != "inference/vllm") continue;
    if (s.metric == "kv_capacity_tokens") tokens = &s;
    if (s.metric == "non_torch_bytes") non_torch = &s;
    if (s.metric == "cuda_graph_bytes") graphs = &s;
  }
  REQUIRE(tokens != nullptr);
  REQUIRE(non_torch != nullptr);
  REQUIRE(graphs != nullptr);
  CHECK(tokens->n >= 48);
  CHECK(tokens->median_abs <= 0.02);
  CHECK(tokens->p90_abs <= 0.08);
  CHECK(non_torch->median_abs <= 0.20);
  CHECK(graphs->median_abs <= 0.20);
}

TEST_CASE("cudagraph_mode chooses which graphs are captured", "[vllm][graphs][input]") {
  VllmSettings s;
  s.cudagraph_mode = CudaGraphMode::full_decode_only;
  const Version v19 = parse_version("0.19.0");
  CHECK(graph_mode(s, v19) == GraphMode::full_decode_only);
  const auto sizes = capture_sizes(s, v19, 256, 8192);
  CHECK(captured_graphs(GraphMode::full_decode_only, sizes, 256) == 35);
  CHECK(captured_graphs(GraphMode::full, sizes, 256) == 51);
  s.enforce_eager = true;  // enforce_eager wins
  CHECK(graph_mode(s, v19) == GraphMode::none);
  const Report piecewise = test::run(scenario_with({{"version", "0.19.0"}, {"cudagraph_mode", "PIECEWISE"}}));
  // 51 piecewise graphs, no full decode graphs and no FA3 accumulators.
  CHECK(test::metric(piecewise, "cuda_graph_bytes") == 148'176'372 + 51 * 32 * 168'430);
  try {
    test::scenario(scenario_with({{"cudagraph_mode", "full"}}));
    FAIL("accepted a lower-case mode");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/vllm/cudagraph_mode");
    CHECK(std::string(e.what()).find("FULL_AND_PIECEWISE") != std::string::npos);
  }
}

TEST_CASE("enable_expert_parallel needs experts, and says when it changes nothing", "[vllm][ep][input]") {
  nlohmann::json dense = scenario_with({{"enable_expert_parallel", true}},
                                       {{"gpu", "H100-SXM-80GB"}, {"count", 2}});
  dense["inference"]["tensor_parallel"] = 2;
  try {
    test::scenario(dense);
    FAIL("accepted expert parallelism on a dense model");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/vllm/enable_expert_parallel");
    CHECK(std::string(e.what()).find("no routed experts") != std::string::npos);
  }
  nlohmann::json moe = {{"model", "mistralai/Mixtral-8x7B-Instruct-v0.1"},
                        {"hardware", {{"gpu", "H100-SXM-80GB"}}},
                        {"inference", {{"engine", "vllm"}, {"context", 8192}, {"vllm", {{"enable_expert_parallel", true}}}}}};
  const Scenario one = test::scenario(moe);
  CHECK(std::any_of(one.warnings.begin(), one.warnings.end(),
                    [](const std::string& w) { return w.find("nothing changes") != std::string::npos; }));
  moe["hardware"]["count"] = 4;
  moe["inference"]["tensor_parallel"] = 4;
  const Report r = test::run(moe);
  const vram::Component* w = r.find_component("weights");
  REQUIRE(w != nullptr);
  CHECK(w->formula.find("the 8 routed experts whole over 4 expert-parallel ranks (rank 0 holds 2)") != std::string::npos);
}

TEST_CASE("MXFP4 experts are padded as the GPU's MoE kernel lays them out", "[vllm][moe][mxfp4]") {
  // get_mxfp4_backend by compute capability: Marlin off sm90/sm100, Triton on sm90, FlashInfer on sm100.
  CHECK(mxfp4_moe_layout(80).backend == Mxfp4MoeBackend::marlin);
  CHECK(mxfp4_moe_layout(89).backend == Mxfp4MoeBackend::marlin);
  CHECK(mxfp4_moe_layout(120).backend == Mxfp4MoeBackend::marlin);
  CHECK(mxfp4_moe_layout(90).backend == Mxfp4MoeBackend::triton);
  CHECK(mxfp4_moe_layout(90).intermediate_multiple == 64);
  CHECK(mxfp4_moe_layout(90).hidden_multiple == 1);
  CHECK(mxfp4_moe_layout(100).backend == Mxfp4MoeBackend::flashinfer);
  // Unknown capability on a CUDA GPU: sm90's, said; ROCm: not modelled, stored.
  CHECK(mxfp4_moe_layout(0).backend == Mxfp4MoeBackend::triton);
  CHECK(mxfp4_moe_layout(0).assumed);
  CHECK(mxfp4_moe_layout(0, RocmArch::gfx942).backend == Mxfp4MoeBackend::none);

  const Tensor gate{TensorRole::expert_gate, 0, 2880, 2880};
  const Tensor down{TensorRole::expert_down, 0, 2880, 2880};
  const Tensor q{TensorRole::attn_q, 0, 2880, 2880};
  WeightPlacement marlin;
  marlin.expert_intermediate_multiple = 128;
  marlin.expert_hidden_multiple = 256;
  // gpt-oss: hidden 2880 → 3072 (256 × 12); intermediate 2880 → 2944 (128 × 23).
  CHECK(padded_expert_shape(gate, {2880, 2880}, marlin).rows == 2944);
  CHECK(padded_expert_shape(gate, {2880, 2880}, marlin).cols == 3072);
  CHECK(padded_expert_shape(down, {2880, 2880}, marlin).rows == 3072);
  CHECK(padded_expert_shape(down, {2880, 2880}, marlin).cols == 2944);
  CHECK(padded_expert_shape(q, {2880, 2880}, marlin).rows == 2880);

  // gpt-oss-20b on one A100 (Marlin): 24 layers × 32 experts × 3 matrices ×
  // (2,944 × 3,072 − 2,880 × 2,880 = 749,568) = 1,727,004,672 more values,
  // × 17 / 32 B = 917,471,232 B over the stored 13,761,264,768 B.
  const nlohmann::json a100 = {{"model", "openai/gpt-oss-20b"},
                               {"hardware", {{"gpu", "A100-80GB"}}},
                               {"inference", {{"engine", "vllm"}, {"context", 8192}}}};
  const auto weights = [](const Report& rep) {
    const vram::Component* c = rep.find_component("weights");
    return c ? c->bytes.in_bytes() : -1;
  };
  const Report r = test::run(a100);
  CHECK(weights(r) == 13'761'264'768 + 917'471'232);
  const vram::Component* w = r.find_component("weights");
  REQUIRE(w != nullptr);
  CHECK(w->formula.find("1,727,004,672 padding values (Marlin MoE: intermediate per rank to a multiple of 128, "
                        "hidden to 256)") != std::string::npos);

  // Two H100s (Triton): the intermediate per rank 1,440 → 1,472, hidden unpadded:
  // 24 × 32 × 3 × (1,472 − 1,440) × 2,880 = 212,336,640 values × 17 / 32 = 112,803,840 B.
  nlohmann::json h100 = a100;
  h100["hardware"] = {{"gpu", "H100-SXM-80GB"}, {"count", 2}};
  h100["inference"]["tensor_parallel"] = 2;
  const Report t = test::run(h100);
  const vram::Component* tw = t.find_component("weights");
  REQUIRE(tw != nullptr);
  CHECK(tw->formula.find("= 112,803,840 B") != std::string::npos);
  // And the triton_kernels layout beyond it (per expert, I_p = 1,472, H = 2,880):
  // values 2,944 × (1,472 − 1,440) + 2,880 × (768 − 736) = 186,368 B; scales
  // 3,072 × 90 + 3,072 × 46 − (2,944 × 90 + 2,880 × 46 = 397,440) = 20,352 B; the
  // checkpoint's 397,440 B of scales kept; biases 4 × (2,944 + 2,880) − 2 × (2,880
  // + 2,880) = 11,776 B: 615,936 B × 32 experts × 24 layers = 473,038,848 B.
  CHECK(tw->formula.find("triton_kernels layout") != std::string::npos);
  CHECK(tw->formula.find("= 473,038,848 B") != std::string::npos);
  Mxfp4TritonShape shape{24, 32, 2880, 1440, 1472, true, true};
  CHECK(mxfp4_triton_layout_term(shape).bytes.in_bytes() == 473'038'848);
  CHECK(consistent(mxfp4_triton_layout_term(shape)));
  // Before vLLM 0.16 (triton_kernels v3.5.0) the values are not padded to 64.
  shape.value_padding = false;
  CHECK(mxfp4_triton_layout_term(shape).bytes.in_bytes() == 473'038'848 - 186'368LL * 32 * 24);
  h100["inference"]["vllm"] = {{"version", "0.15.1"}};
  CHECK(weights(test::run(h100)) == weights(t) - 186'368LL * 32 * 24);

  // A custom GPU without a compute capability: sm90's layout, and said so
  // (per expert at TP 1: values 276,480 + scales 28,800 + kept 777,600 +
  // biases 17,280 = 1,100,160 B; × 32 × 24); with one, as that architecture pads.
  nlohmann::json custom = a100;
  custom["hardware"] = {{"gpu", {{"name", "an A100"}, {"memory_bytes", 85'899'345'920}}}};
  const Report c = test::run(custom);
  CHECK(weights(c) == 13'761'264'768 + 1'100'160LL * 32 * 24);
  CHECK(std::any_of(c.warnings.begin(), c.warnings.end(),
                    [](const std::string& s) { return s.find("sm90's (triton_kernels) assumed") != std::string::npos; }));
  // On ROCm the layout is not modelled: stored, and said so.
  nlohmann::json mi300 = a100;
  mi300["hardware"] = {{"gpu", "MI300X"}};
  const Report rocm = test::run(mi300);
  CHECK(weights(rocm) == 13'761'264'768);
  CHECK(std::any_of(rocm.warnings.begin(), rocm.warnings.end(),
                    [](const std::string& s) { return s.find("MXFP4 experts on ROCm") != std::string::npos; }));
  custom["hardware"]["gpu"]["compute_capability"] = 8.0;
  CHECK(weights(test::run(custom)) == 13'761'264'768 + 917'471'232);
  custom["hardware"]["gpu"]["compute_capability"] = "8.0";
  try {
    test::scenario(custom);
    FAIL("accepted a compute capability that is not a number");
  } catch (const InputError& e) {
    CHECK(e.path() == "/hardware/gpu/compute_capability");
    CHECK(std::string(e.what()).find("from 3 to 15.9") != std::string::npos);
  }
}

TEST_CASE("the sampler step follows FlashInfer's presence and the version's default", "[vllm][sampler]") {
  // Qwen2.5-7B, 256 rows, T = 2048: 256 × 152,064 × (2 + 4 + 4 + 4) = 544,997,376
  // + 2,560 × 3,584 × 2 = 18,350,080: 563,347,456 B.
  CHECK(flashinfer_sampler_term(256, 2048, 152'064, 3'584, 2).bytes.in_bytes() == 563'347'456);
  CHECK(consistent(flashinfer_sampler_term(256, 2048, 152'064, 3'584, 2)));
  // V1's default until v0.11.0 (vllm-project/vllm#26859 turned it off for v0.11.1).
  CHECK(flashinfer_sampler_by_default(parse_version("0.9.2")));
  CHECK(flashinfer_sampler_by_default(parse_version("0.10.1.1")));
  CHECK(flashinfer_sampler_by_default(parse_version("0.11.0")));
  CHECK_FALSE(flashinfer_sampler_by_default(parse_version("0.11.1")));
  CHECK_FALSE(flashinfer_sampler_by_default(parse_version("0.15.0")));
  CHECK_FALSE(flashinfer_sampler_by_default(parse_version("0.10.1.1", VllmEngine::v0)));

  nlohmann::json s = {{"model", "Qwen/Qwen2.5-7B-Instruct"},
                      {"hardware", {{"gpu", "A100-80GB"}}},
                      {"inference",
                       {{"engine", "vllm"},
                        {"context", 16384},
                        {"vllm", {{"gpu_memory_utilization", 0.25}, {"version", "0.10.1.1"}}}}}};
  const Report fi = test::run(s);
  const vram::Component* act = fi.find_component("activations");
  REQUIRE(act != nullptr);
  CHECK(act->formula.find("FlashInfer top-k/top-p") != std::string::npos);
  CHECK(std::any_of(fi.warnings.begin(), fi.warnings.end(),
                    [](const std::string& w) { return w.find("FlashInfer is not available") != std::string::npos; }));
  s["inference"]["vllm"]["flashinfer_sampler"] = false;  // "FlashInfer is not available" in the log: PyTorch's sort
  const Report sorted = test::run(s);
  // Each beside the A100's cuBLAS workspace (sm80: 2 × 4 MiB + 8 × 16 KiB = 8,519,680 B).
  CHECK(test::metric(fi, "activation_bytes") == 563'347'456.0 + 8'519'680);
  CHECK(test::metric(sorted, "activation_bytes") ==
        static_cast<double>(sort_sampler_term(256, 2048, 152'064, 3'584, 2).bytes.in_bytes() + 8'519'680));
  CHECK(std::none_of(sorted.warnings.begin(), sorted.warnings.end(),
                     [](const std::string& w) { return w.find("FlashInfer is not available") != std::string::npos; }));
  s["inference"]["vllm"]["flashinfer_sampler"] = "yes";
  try {
    test::scenario(s);
    FAIL("accepted a string for a boolean");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/vllm/flashinfer_sampler");
  }
}

TEST_CASE("the BLAS workspace follows the GPU: sm90's 32 MiB, 8 MiB + 128 KiB elsewhere, ROCm's hipBLAS and hipBLASLt",
          "[vllm][runtime][rocm]") {
  // CUBLAS_WORKSPACE_CONFIG ":4096:8" on sm90: 8 × 4 MiB.
  CHECK(blas_workspace_term(90, RocmArch::none).bytes.in_bytes() == 33'554'432);
  // Unknown capability: sm90's, said in the formula.
  const Term unknown = blas_workspace_term(0, RocmArch::none);
  CHECK(unknown.bytes.in_bytes() == 33'554'432);
  CHECK(io::render(unknown).find("sm90 assumed") != std::string::npos);
  // ":4096:2:16:8" on every other CUDA GPU: 2 × 4 MiB + 8 × 16 KiB.
  for (int cc : {80, 86, 89, 120}) CHECK(blas_workspace_term(cc, RocmArch::none).bytes.in_bytes() == 8'519'680);
  CHECK_FALSE(blas_workspace_term(89, RocmArch::none).range);
  // Blackwell joins sm90 in PyTorch 2.11: the figure carries that range.
  const Term blackwell = blas_workspace_term(100, RocmArch::none);
  REQUIRE(blackwell.range);
  CHECK(blackwell.range->high.in_bytes() == 33'554'432);
  // ROCm: hipBLASLt's 76 MiB; hipBLAS's 128 MiB only if a GEMM runs through it (the range).
  const Term mi355 = blas_workspace_term(0, RocmArch::gfx950);
  for (RocmArch arch : {RocmArch::gfx942, RocmArch::gfx950}) {
    const Term t = blas_workspace_term(0, arch);
    CHECK(t.bytes.in_bytes() == 76 * 1'048'576LL);
    REQUIRE(t.range);
    CHECK(t.range->high.in_bytes() == (76 + 128) * 1'048'576LL);
  }
  for (const Term& t : {unknown, blackwell, mi355, blas_workspace_term(86, RocmArch::none)}) CHECK(consistent(t));

  // In a report: the profiling peak holds it once, beside the larger of forward and sampler.
  auto on = [](const char* gpu) {
    return test::metric(test::run({{"model", "meta-llama/Llama-3.1-8B"},
                                   {"hardware", {{"gpu", gpu}}},
                                   {"inference",
                                    {{"engine", "vllm"},
                                     {"context", 8192},
                                     // Few sequences: the forward pass, the same on every GPU, is the larger step.
                                     {"vllm", {{"max_num_seqs", 16}, {"max_num_batched_tokens", 8192}}}}}}),
                        "activation_bytes");
  };
  CHECK(on("H100-SXM-80GB") - on("A100-80GB") == 33'554'432 - 8'519'680);
  CHECK(on("MI300X") - on("H100-SXM-80GB") == (76 - 32) * 1'048'576LL);
}

namespace {
/// A vLLM scenario over `gpus` GPUs of one tensor-parallel group, profiled at 8,192 batched tokens.
nlohmann::json tensor_parallel_at_8192_tokens(const char* model, const char* gpu, int gpus, int context) {
  return {{"model", model},
          {"hardware", {{"gpu", gpu}, {"count", gpus}}},
          {"inference",
           {{"engine", "vllm"},
            {"context", context},
            {"tensor_parallel", gpus},
            {"vllm", {{"max_num_batched_tokens", 8192}}}}}};
}
}  // namespace

TEST_CASE("block-fp8 experts under DeepGEMM: its 128-row groups size the MoE workspace", "[vllm][moe][deepgemm]") {
  // DeepSeek-V3 at TP 8, T = 8,192: M_sum = round_up(8,192 × 8 + 256 × 127, 128) = 98,048 rows ×
  // (max(256, 7,168) + max(512, 7,168)) × 2 B = 2,811,232,256 B; Triton's 8,192 × 8 × 14,336 × 2 B
  // = 1,879,048,192 B.
  const auto& v3 = test::arch("deepseek-ai/DeepSeek-V3");
  CHECK(deep_gemm_workspace_term(v3, 8192, 8, 2).bytes.in_bytes() == 2'811'232'256);
  CHECK(deep_gemm_workspace_term(v3, 2048, 8, 2).bytes.in_bytes() == 1'401'946'112);
  CHECK(moe_workspace_term(v3, 8192, 8, 2).bytes.in_bytes() == 1'879'048'192);
  CHECK(consistent(deep_gemm_workspace_term(v3, 8192, 8, 2)));

  nlohmann::json s = tensor_parallel_at_8192_tokens("deepseek-ai/DeepSeek-V3", "H200", 8, 32768);
  const double triton = test::metric(test::run(s), "activation_bytes");
  s["inference"]["vllm"]["moe_backend"] = "deep_gemm";
  const Report deep = test::run(s);
  CHECK(test::metric(deep, "activation_bytes") - triton == 2'811'232'256.0 - 1'879'048'192.0);
  CHECK(deep.find_component("activations")->formula.find("fused-MoE workspace (DeepGEMM)") != std::string::npos);

  // Not block-fp8 experts: DeepGEMM does not run them; Triton's workspace, and said so.
  nlohmann::json mixtral = {{"model", "mistralai/Mixtral-8x7B-v0.1"},
                            {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
                            {"inference", {{"engine", "vllm"}, {"context", 8192}, {"tensor_parallel", 2}}}};
  const double plain = test::metric(test::run(mixtral), "activation_bytes");
  mixtral["inference"]["vllm"] = {{"moe_backend", "deep_gemm"}};
  const Report asked = test::run(mixtral);
  CHECK(test::metric(asked, "activation_bytes") == plain);
  CHECK(std::any_of(asked.warnings.begin(), asked.warnings.end(), [](const std::string& w) {
    return w.find("DeepGEMM runs fp8 experts quantized in 128 × 128 blocks only") != std::string::npos;
  }));
  // A dense model, or a backend vLLM does not name: refused at the field.
  mixtral["inference"]["vllm"]["moe_backend"] = "cutlass";
  try {
    test::scenario(mixtral);
    FAIL("accepted moe_backend cutlass");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/vllm/moe_backend");
    CHECK(std::string(e.what()).find("triton, deep_gemm") != std::string::npos);
  }
  nlohmann::json dense = {{"model", "meta-llama/Llama-3.1-8B"},
                          {"inference", {{"engine", "vllm"}, {"vllm", {{"moe_backend", "deep_gemm"}}}}}};
  try {
    test::scenario(dense);
    FAIL("accepted deep_gemm for a dense model");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/vllm/moe_backend");
  }
}

TEST_CASE("under expert parallelism the MoE workspace holds whole experts' widths", "[vllm][moe][ep]") {
  // Mixtral-8x7B on two H100s, T = 8,192, top-2: TP slices I = 14,336 to 7,168, so the Triton
  // workspace is 8,192 × 2 × (max(7,168, 4,096) + max(14,336, 4,096)) × 2 B = 704,643,072 B;
  // with --enable-expert-parallel each rank runs whole experts: (14,336 + 28,672) → 1,409,286,144 B.
  nlohmann::json s = tensor_parallel_at_8192_tokens("mistralai/Mixtral-8x7B-v0.1", "H100-SXM-80GB", 2, 8192);
  const double sliced = test::metric(test::run(s), "activation_bytes");
  s["inference"]["vllm"]["enable_expert_parallel"] = true;
  CHECK(test::metric(test::run(s), "activation_bytes") - sliced == 1'409'286'144.0 - 704'643'072.0);
  // DeepGEMM groups only this rank's experts: DeepSeek-V3 with EP 8 holds 32 of 256, so
  // M_sum = round_up(8,192 × 8 + 32 × 127, 128) = 69,632 rows × (7,168 + 7,168) × 2 B.
  CHECK(deep_gemm_workspace_term(test::arch("deepseek-ai/DeepSeek-V3"), 8192, 1, 2, 32).bytes.in_bytes() ==
        69'632LL * 14'336 * 2);
}

TEST_CASE("vLLM's multimodal profiling keeps the dummy images and their embeddings through the LM's run",
          "[vllm][activations][multimodal]") {
  // Gemma 3 4B: 896² images of 256 embeddings; 8,192 budget tokens / 256 = 32 images:
  // 32 × 3 × 896 × 896 × 2 B = 154,140,672 B of pixels and 32 × 256 × 2,560 × 2 B = 41,943,040 B of outputs.
  const Architecture& gemma = test::arch("google/gemma-3-4b-it");
  CHECK(gemma.image_profile.tokens == 256);
  Term t = mm_profile_inputs_term(gemma, 8192, 1024, 131072, 2);
  CHECK(t.bytes.in_bytes() == 32LL * 3 * 896 * 896 * 2 + 32LL * 256 * 2560 * 2);
  CHECK(t.bytes.in_bytes() == 196'083'712);
  CHECK(consistent(t));
  // Fewer prompts than budget: 1 sequence of at most 300 tokens takes one image.
  CHECK(mm_profile_inputs_term(gemma, 8192, 1, 300, 2).bytes.in_bytes() == 3LL * 896 * 896 * 2 + 256LL * 2560 * 2);
  // Mistral Small 3.1 (Pixtral at 1,540²): 55 × 55 = 3,025 embeddings, 55 × 56 = 3,080 prompt tokens →
  // 8,192 / 3,080 = 2 images: 2 × 3 × 1,540² × 2 B + 2 × 3,025 × 5,120 × 2 B = 90,411,200 B.
  const Architecture& mistral = test::arch("mistralai/Mistral-Small-3.1-24B-Instruct-2503");
  CHECK(mistral.image_profile.embeddings == 3025);
  CHECK(mistral.image_profile.tokens == 3080);
  CHECK(mm_profile_inputs_term(mistral, 8192, 1024, 131072, 2).bytes.in_bytes() == 90'411'200);
  // Qwen3.5 (Qwen3-VL's processor): one 4,096² image, (4,096 / 32)² = 16,384 tokens, over the 16,384-token budget
  // its size raises the encoder budget to: 1 × 3 × 4,096² × 2 frames × 2 B + 16,384 × 2,048 × 2 B.
  const Architecture& qwen = test::arch("Qwen/Qwen3.5-35B-A3B");
  CHECK(qwen.image_profile.tokens == 16384);
  CHECK(mm_profile_inputs_term(qwen, 8192, 1024, 262144, 2).bytes.in_bytes() == 3LL * 4096 * 4096 * 2 * 2 + 16384LL * 2048 * 2);
  // A tower whose largest image neither config.json nor a processor default fixes (Kimi-VL) adds nothing.
  CHECK(mm_profile_inputs_term(test::arch("moonshotai/Kimi-VL-A3B-Instruct"), 8192, 1024, 131072, 2).bytes.in_bytes() == 0);
  // In an estimate the term sits in the first stage's activation peak (the H100 sweep's Gemma 3 4B run at 8,192
  // tokens measures 4,176,855,695 B; the language model's peak alone is 196 MB short of it).
  const Report r = test::run({{"model", "google/gemma-3-4b-it"}, {"inference", {{"context", 8192}}}});
  const vram::Component* act = r.find_component("activations");
  REQUIRE(act != nullptr);
  CHECK(act->formula.find("multimodal profiling inputs") != std::string::npos);
}

TEST_CASE("vllm.language_model_only: no encoder profiling, and from v0.15 no vision tower", "[vllm][multimodal]") {
  const json base = {{"model", "google/gemma-3-4b-it"}, {"inference", {{"context", 8192}}}};
  json text_only = base;
  text_only["inference"]["vllm"] = {{"language_model_only", true}};
  const Report both = test::run(base);
  const Report text = test::run(text_only);
  // The multimodal profiling inputs (196,083,712 B, see above) leave the activation peak.
  CHECK(test::metric(both, "activation_bytes") - test::metric(text, "activation_bytes") == 196'083'712);
  // The tower (and projector) leave the weights: Gemma 3's SigLIP counted from vision_config.
  const Architecture& a = test::arch("google/gemma-3-4b-it");
  CHECK(test::metric(both, "weights_bytes") - test::metric(text, "weights_bytes") == a.vision_params * 2);
  CHECK(text.find_component("activations")->formula.find("multimodal") == std::string::npos);
  // Before v0.15 the tower is built anyway: weights as before, a warning says so.
  json old = text_only;
  old["inference"]["vllm"]["version"] = "0.14.1";
  json old_both = base;
  old_both["inference"]["vllm"] = {{"version", "0.14.1"}};
  const Report o = test::run(old);
  CHECK(test::metric(o, "weights_bytes") == test::metric(test::run(old_both), "weights_bytes"));
  CHECK(std::any_of(o.warnings.begin(), o.warnings.end(),
                    [](const std::string& w) { return w.find("builds the vision tower") != std::string::npos; }));
  // A text-only model: a warning, nothing else changes.
  json plain = {{"model", "meta-llama/Llama-3.1-8B"},
                {"inference", {{"context", 8192}, {"vllm", {{"language_model_only", true}}}}}};
  const Report p = test::run(plain);
  CHECK(std::any_of(p.warnings.begin(), p.warnings.end(),
                    [](const std::string& w) { return w.find("has no vision tower") != std::string::npos; }));
  // The measurement command says it.
  CHECK(vram::io::measure_json(test::scenario(text_only)).find("--limit-mm-per-prompt") != std::string::npos);
  // Not a boolean: refused, naming the field.
  json bad = base;
  bad["inference"]["vllm"] = {{"language_model_only", "yes"}};
  CHECK(test::error_path(bad) == "/inference/vllm/language_model_only");
}

TEST_CASE("vLLM from v0.14 reads kv_cache_dtype auto as the fp8 cache a ModelOpt checkpoint declares",
          "[vllm][kv]") {
  // nvidia/Qwen3-235B-A22B-NVFP4: hf_quant_config kv_cache_quant_algo FP8; 94 layers × 4 KV heads × 128 dims ×
  // (K, V) per token: 96,256 B in fp8, 192,512 B in bf16.
  const auto per_token = [](const nlohmann::json& inference) {
    nlohmann::json s = {{"model", "nvidia/Qwen3-235B-A22B-NVFP4"},
                        {"hardware", {{"gpu", "B200"}, {"count", 4}}},
                        {"inference", inference}};
    s["inference"]["tensor_parallel"] = 4;
    return test::metric(test::run(s), "kv_bytes_per_token");
  };
  CHECK(per_token({{"context", 8192}}) == 96'256);
  CHECK(per_token({{"context", 8192}, {"kv_cache_dtype", "auto"}, {"vllm", {{"version", "0.19.0"}}}}) == 96'256);
  CHECK(per_token({{"context", 8192}, {"vllm", {{"version", "0.13.0"}}}}) == 192'512);  // before the change
  CHECK(per_token({{"context", 8192}, {"kv_cache_dtype", "bf16"}}) == 192'512);         // a stated dtype wins
  const Report r = test::run({{"model", "nvidia/Qwen3-235B-A22B-NVFP4"},
                              {"hardware", {{"gpu", "B200"}, {"count", 4}}},
                              {"inference", {{"context", 8192}, {"tensor_parallel", 4}}}});
  CHECK(std::any_of(r.defaults_used.begin(), r.defaults_used.end(), [](const std::string& d) {
    return d.rfind("inference.kv_cache_dtype = auto: fp8", 0) == 0;
  }));
  // A checkpoint that declares no KV cache keeps its 16-bit one.
  CHECK(test::metric(test::run({{"model", "Qwen/Qwen3-8B"}, {"inference", {{"context", 8192}}}}),
                     "kv_bytes_per_token") == 36LL * 8 * 128 * 2 * 2);
}
