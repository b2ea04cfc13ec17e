#include "vram/engines/llamacpp.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/error.hpp"
#include "vram/plan.hpp"

using namespace vram;
using nlohmann::json;

TEST_CASE("llama.cpp pads the cache to 256 cells and shares it between sequences", "[llamacpp][kv]") {
  CHECK(llamacpp::kv_cells(2048, 4) == 8192);
  CHECK(llamacpp::kv_cells(1000, 1) == 1024);
  CHECK(llamacpp::kv_cells(4096, 4) == 16384);
}

TEST_CASE("compute buffer without flash attention: KQ scores dominate", "[llamacpp][activations]") {
  const auto& a8 = test::catalog().find_model("meta-llama/Llama-3.1-8B")->model.arch;
  // 8,192 × 512 × 32 heads × 4 B + mask 8,192 × 512 × 4 B + 4 × 512 × 4,096 × 4 B = 560 MiB
  CHECK(llamacpp::compute_buffer_bytes(a8, 8192, 512, false, false).in_bytes() == 587'202'560);
  const auto& a70 = test::catalog().find_model("meta-llama/Llama-3.1-70B")->model.arch;
  CHECK(llamacpp::compute_buffer_bytes(a70, 8192, 512, false, false).in(kMiB) == 1104.0);
  // Flash attention: no scores; the output device ends with 512 × (128,256 + 4,096) × 4 B of logits.
  CHECK(llamacpp::compute_buffer_bytes(a8, 8192, 512, true, true).in_bytes() == 512LL * (128256 + 4096) * 4);
  CHECK(llamacpp::compute_buffer_bytes(a8, 8192, 512, true, false).in_bytes() == 16'777'216 + 33'554'432);
}

namespace {
/// Llama-3.1-8B-Instruct Q4_K_M on an RTX 4090, four sequences of 2,048 tokens, every layer offloaded.
json llama8b_four_sequences(json llama_cpp) {
  llama_cpp["n_gpu_layers"] = 33;
  llama_cpp["n_seq_max"] = 4;
  return {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
          {"weights", "gguf:Q4_K_M"},
          {"hardware", {{"gpu", "RTX-4090"}}},
          {"inference", {{"engine", "llama.cpp"}, {"context", 2048}, {"concurrency", 4}, {"llama_cpp", llama_cpp}}}};
}
}  // namespace

TEST_CASE("llama.cpp log of Llama-3.1-8B Q4_K_M, 4 × 2048 tokens", "[llamacpp][estimate]") {
  const Report r = test::run(llama8b_four_sequences({{"n_ubatch", 512}}));
  CHECK(test::metric(r, "kv_cache_bytes") == 1024.0 * 1024 * 1024);   // "KV self size = 1024.00 MiB"
  CHECK(test::metric(r, "activation_bytes") == 560.0 * 1024 * 1024);  // "CUDA0 compute buffer size = 560.00 MiB"
  CHECK(test::metric(r, "weights_bytes") / 1048576.0 == Approx(4403.49).margin(0.01));
  CHECK(r.fits);
}

TEST_CASE("one KV stream per sequence: the same cells, each micro-batch row attends to its own stream",
          "[llamacpp][kv][streams]") {
  // src/llama-context.cpp (b6975+): n_ctx_seq = PAD(PAD(n_ctx, 256) / n_seq_max, 256) per stream.
  CHECK(llamacpp::kv_streams(2048, 4, false).cells == 2048);
  CHECK(llamacpp::kv_streams(2048, 4, false).streams == 4);
  CHECK(llamacpp::kv_streams(1000, 3, false).cells == 1024);  // PAD(3000, 256) = 3072; 3072 / 3 = 1024
  CHECK(llamacpp::kv_streams(1000, 3, false).total() == 3072);
  CHECK(llamacpp::kv_streams(2048, 4, true).cells == 8192);
  CHECK(llamacpp::kv_streams(2048, 4, true).streams == 1);
  CHECK(llamacpp::kv_streams(2048, 1, false).streams == 1);

  // The 4 × 2048 scenario above without -kvu: KV unchanged (4 streams × 2,048 cells); the
  // attention of the micro-batch sees one stream: scores 2,048 × 512 × 32 × 4 B = 128 MiB,
  // mask 2,048 × pad(512 / 4, 64) × 4 streams × 4 B = 4 MiB, hidden rows 32 MiB: 164 MiB,
  // under the output logits 512 × (128,256 + 4,096) × 4 B = 271,056,896 B, which decide.
  const auto& a8 = test::catalog().find_model("meta-llama/Llama-3.1-8B")->model.arch;
  CHECK(llamacpp::compute_buffer_bytes(a8, 2048, 512, false, false, 4).in_bytes() ==
        134'217'728 + 4'194'304 + 33'554'432);
  CHECK(consistent(llamacpp::compute_buffer_term(a8, 2048, 512, false, true, 4)));
  json s = llama8b_four_sequences({{"kv_unified", false}});
  const Report r = test::run(s);
  CHECK(test::metric(r, "kv_cache_bytes") == 1024.0 * 1024 * 1024);
  CHECK(test::metric(r, "activation_bytes") == 271'056'896.0);
  CHECK(r.find_component("kv_cache")->formula.find("4 streams × 2,048, one per sequence") != std::string::npos);
  // Not given: one shared cache, and said so.
  s["inference"]["llama_cpp"].erase("kv_unified");
  const Report shared = test::run(s);
  CHECK(test::metric(shared, "activation_bytes") == 560.0 * 1024 * 1024);
  CHECK(std::any_of(shared.defaults_used.begin(), shared.defaults_used.end(),
                    [](const std::string& d) { return d.rfind("llama_cpp.kv_unified = true", 0) == 0; }));
  s["inference"]["llama_cpp"]["kv_unified"] = "no";
  CHECK_THROWS_AS(test::scenario(s), InputError);

  // Windowed layers hold n_swa + n_ubatch per stream instead of n_swa × n_seq_max + n_ubatch:
  // gemma-2-2b (13 windowed layers of 4,096 tokens, 4,096 B per cell), 2 × 8,192 tokens:
  // 2 × pad(4,096 + 512, 256) = 9,216 cells against pad(2 × 4,096 + 512, 256) = 8,704.
  json g = {{"model", "google/gemma-2-2b-it"},
            {"weights", "gguf:Q8_0"},
            {"inference",
             {{"engine", "llama.cpp"}, {"context", 8192}, {"llama_cpp", {{"n_seq_max", 2}, {"kv_unified", true}}}}}};
  const double unified = test::metric(test::run(g), "kv_cache_bytes");
  g["inference"]["llama_cpp"]["kv_unified"] = false;
  CHECK(test::metric(test::run(g), "kv_cache_bytes") - unified == 13.0 * (9216 - 8704) * 4096);
}

TEST_CASE("the KQ mask by build: row padding, the F16 cast flash attention reads, then an F16 mask",
          "[llamacpp][activations][build]") {
  CHECK(llamacpp::mask_layout(3000, false).row_pad == 32);
  CHECK(llamacpp::mask_layout(5000, false).row_pad == 64);
  CHECK(llamacpp::mask_layout(8000, false).row_pad == 1);
  CHECK(llamacpp::mask_layout(std::nullopt, false).row_pad == 1);  // the newest known build
  CHECK(llamacpp::mask_layout(9000, true).f16_copy == 2);
  CHECK(llamacpp::mask_layout(9000, true).bytes == 4);
  CHECK(llamacpp::mask_layout(9410, true).f16_copy == 0);
  CHECK(llamacpp::mask_layout(9410, true).bytes == 2);
  CHECK(llamacpp::mask_layout(9410, false).bytes == 4);

  // Llama-3.1-8B at 131,072 cells, n_ubatch 512, flash attention, on the output GPU:
  // b9000: mask 131,072 × 512 × 4 B + its F16 cast × 2 B + hidden rows 4 × 512 × 4,096 × 4 B
  // = 268,435,456 + 134,217,728 + 33,554,432 = 436,207,616 B, over the logits' 271,056,896 B;
  // b9410: an F16 mask, 134,217,728 + 33,554,432 = 167,772,160 B: the logits decide.
  const auto& a8 = test::catalog().find_model("meta-llama/Llama-3.1-8B")->model.arch;
  const auto old_fa = llamacpp::mask_layout(9000, true);
  CHECK(llamacpp::compute_buffer_bytes(a8, 131072, 512, true, true, 1, old_fa).in_bytes() == 436'207'616);
  CHECK(consistent(llamacpp::compute_buffer_term(a8, 131072, 512, true, true, 1, old_fa)));
  CHECK(llamacpp::compute_buffer_bytes(a8, 131072, 512, true, true, 1, llamacpp::mask_layout(9410, true)).in_bytes() ==
        271'056'896);
  // Rows padded to 64 before b7256: 100 → 128 rows; unpadded after.
  CHECK(llamacpp::compute_buffer_bytes(a8, 8192, 100, true, false, 1, llamacpp::mask_layout(5000, false)).in_bytes() ==
        8192LL * 128 * 4 + 4LL * 100 * 4096 * 4);
  CHECK(llamacpp::compute_buffer_bytes(a8, 8192, 100, true, false, 1, llamacpp::mask_layout(8000, false)).in_bytes() ==
        8192LL * 100 * 4 + 4LL * 100 * 4096 * 4);

  json s = {{"model", "meta-llama/Llama-3.1-8B"},
            {"weights", "gguf:Q4_K_M"},
            {"hardware", {{"gpu", "H100-SXM-80GB"}}},
            {"inference",
             {{"engine", "llama.cpp"}, {"context", 131072}, {"llama_cpp", {{"flash_attn", true}, {"build", 9000}}}}}};
  const Report r = test::run(s);
  CHECK(test::metric(r, "activation_bytes") == 436'207'616.0);
  CHECK(r.find_component("activations")->formula.find("its F16 cast for flash attention") != std::string::npos);
  s["inference"]["llama_cpp"].erase("build");
  const Report newest = test::run(s);
  CHECK(test::metric(newest, "activation_bytes") == 271'056'896.0);
  CHECK(std::any_of(newest.defaults_used.begin(), newest.defaults_used.end(),
                    [](const std::string& d) { return d.rfind("llama_cpp.build = the newest known (b10309)", 0) == 0; }));
  s["inference"]["llama_cpp"]["build"] = "b5913";
  try {
    test::scenario(s);
    FAIL("accepted a build that is not a number");
  } catch (const InputError& e) {
    CHECK(e.path() == "/inference/llama_cpp/build");
  }
}

TEST_CASE("partial offload keeps the first layers on the CPU", "[llamacpp]") {
  const Report all = test::run({{"model", "meta-llama/Llama-3.1-8B"},
                                {"weights", "gguf:Q4_K_M"},
                                {"inference", {{"engine", "llama.cpp"}, {"context", 4096}}}});
  const Report half =
      test::run({{"model", "meta-llama/Llama-3.1-8B"},
                 {"weights", "gguf:Q4_K_M"},
                 {"inference", {{"engine", "llama.cpp"}, {"context", 4096}, {"llama_cpp", {{"n_gpu_layers", 16}}}}}});
  CHECK(test::metric(half, "weights_bytes") < test::metric(all, "weights_bytes") / 2);
  CHECK(test::metric(half, "kv_cache_bytes") == test::metric(all, "kv_cache_bytes") / 2);
  CHECK_FALSE(half.warnings.empty());
}

namespace {

// Llama-3.1-8B at gguf:Q4_K_M, per layer (hand-computed from the GGML blocks: Q4_K 144 B and Q6_K 210 B per
// 256 weights). q and o 4096 × 4096 → 9,437,184 B each; k 1024 × 4096 → 2,359,296 B; gate and up
// 14336 × 4096 → 33,030,144 B each; two F32 norms 32,768 B. attn_v (1024 × 4096) and ffn_down (4096 × 14336)
// are Q6_K in the use_more_bits layers (0–3, 28–31 and every third from 6): 3,440,640 B and 48,168,960 B,
// else Q4_K: 2,359,296 B and 33,030,144 B.
constexpr std::int64_t kPlainLayer = 122'716'160;  // 87,293,952 + 2,359,296 + 33,030,144 + 32,768
constexpr std::int64_t kMoreLayer = 138'936'320;   // 87,293,952 + 3,440,640 + 48,168,960 + 32,768
constexpr std::int64_t kOutput = 430'956'544;      // lm_head 128,256 × 4,096 at Q6_K + output_norm 16,384 B
constexpr std::int64_t kTokenEmbd = 295'501'824;   // 128,256 × 4,096 at Q4_K, always on the host
constexpr std::int64_t kKvPerLayerCell = 4096;     // 2 (K,V) × 8 KV heads × 128 × 2 B (f16)

json llama8b(int gpus, json llama_cpp = json::object()) {
  return {{"model", "meta-llama/Llama-3.1-8B"},
          {"weights", "gguf:Q4_K_M"},
          {"hardware", {{"gpu", "RTX-4090"}, {"count", gpus}}},
          {"inference", {{"engine", "llama.cpp"}, {"context", 8192}, {"llama_cpp", llama_cpp}}}};
}

std::string failure_path(const json& j) {
  try {
    (void)test::run(j);
  } catch (const InputError& e) {
    return e.path() + ": " + e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("two GPUs, layer split: 17 layers on GPU 0, 15 and the output on GPU 1", "[llamacpp][split]") {
  const llamacpp::Placement p = llamacpp::place(test::scenario(llama8b(2)));
  REQUIRE(p.gpus.size() == 2);
  // GPU 0: layers 0–16, of which 8 use more bits (0–3, 6, 9, 12, 15).
  CHECK(p.gpus[0].weights.bytes.in_bytes() == 9 * kPlainLayer + 8 * kMoreLayer);
  // GPU 1: layers 17–31, 8 with more bits (18, 21, 24, 27, 28–31), and the output layer.
  CHECK(p.gpus[1].weights.bytes.in_bytes() == 7 * kPlainLayer + 8 * kMoreLayer + kOutput);
  CHECK(p.gpus[0].kv.in_bytes() == 17 * 8192 * kKvPerLayerCell);
  CHECK(p.gpus[1].kv.in_bytes() == 15 * 8192 * kKvPerLayerCell);
  // Each GPU runs its layers' attention: the single-GPU 560 MiB; the logits (259 MiB) stay below it.
  CHECK(p.gpus[0].compute.in_bytes() == 587'202'560);
  CHECK(p.gpus[1].compute.in_bytes() == 587'202'560);
  CHECK(p.host_weights.in_bytes() == kTokenEmbd);
  CHECK(p.pipeline);
  // The report is the fullest GPU's: GPU 1.
  const Report r = test::run(llama8b(2));
  CHECK(p.heaviest == 1);
  CHECK(test::metric(r, "weights_bytes") == 7.0 * kPlainLayer + 8.0 * kMoreLayer + kOutput);
  CHECK(test::metric(r, "kv_cache_bytes") == 15.0 * 8192 * kKvPerLayerCell);
  CHECK(r.total == p.gpus[1].total());
}

TEST_CASE("three GPUs with tensor_split [1, 2, 1]: layers 0–8, 9–24, 25–31 + output", "[llamacpp][split]") {
  const llamacpp::Placement p = llamacpp::place(test::scenario(llama8b(3, {{"tensor_split", {1, 2, 1}}})));
  REQUIRE(p.gpus.size() == 3);
  CHECK(p.gpus[0].end_layer == 9);
  CHECK(p.gpus[1].first_layer == 9);
  CHECK(p.gpus[1].end_layer == 25);
  CHECK(p.gpus[2].output);
  CHECK(p.gpus[0].kv.in_bytes() == 9 * 8192 * kKvPerLayerCell);
  CHECK(p.gpus[1].kv.in_bytes() == 16 * 8192 * kKvPerLayerCell);
  CHECK(p.gpus[2].kv.in_bytes() == 7 * 8192 * kKvPerLayerCell);
  // GPU 1, layers 9–24: more bits in 9, 12, 15, 18, 21, 24.
  CHECK(p.gpus[1].weights.bytes.in_bytes() == 10 * kPlainLayer + 6 * kMoreLayer);
  CHECK(p.heaviest == 1);
}

TEST_CASE("row split halves every 2D matrix; norms and KV follow the layer split", "[llamacpp][split]") {
  const llamacpp::Placement p = llamacpp::place(test::scenario(llama8b(2, {{"split_mode", "row"}})));
  // All 2D weights of the 32 layers: 32 × (122,716,160 − 32,768) + 16 × (138,936,320 − 122,716,160);
  // every row count (1,024 … 128,256) halves on a multiple of 128, so each GPU holds exactly half of them
  // and half of lm_head (64,128 rows), plus the norms of its own layers.
  const std::int64_t matrices = 32 * (kPlainLayer - 32'768) + 16 * (kMoreLayer - kPlainLayer);
  const std::int64_t lm_head = kOutput - 16'384;
  CHECK(p.gpus[0].weights.bytes.in_bytes() == matrices / 2 + lm_head / 2 + 17 * 32'768);
  CHECK(p.gpus[1].weights.bytes.in_bytes() == matrices / 2 + lm_head / 2 + 15 * 32'768 + 16'384);
  CHECK(p.gpus[0].kv.in_bytes() == 17 * 8192 * kKvPerLayerCell);
  CHECK(p.gpus[1].kv.in_bytes() == 15 * 8192 * kKvPerLayerCell);
  CHECK_FALSE(p.pipeline);  // llama.cpp pipelines layer splits only
  // split_mode none: everything on main_gpu, the other GPU idle.
  const llamacpp::Placement none =
      llamacpp::place(test::scenario(llama8b(2, {{"split_mode", "none"}, {"main_gpu", 1}})));
  CHECK_FALSE(none.gpus[0].used);
  CHECK(none.gpus[0].total().in_bytes() == 0);
  CHECK(none.gpus[1].weights.bytes.in_bytes() == 16 * kPlainLayer + 16 * kMoreLayer + kOutput);
}

TEST_CASE("n_gpu_layers solver: the most layers that fit, and the host memory for the rest", "[llamacpp][plan]") {
  // n_gpu_layers 20 at 4,096 tokens: layers 12–31 (10 with more bits) + their KV (20 × 4,096 cells × 4,096 B)
  // + the compute buffer (4,096 × 512 × 32 × 4 + 4,096 × 512 × 4 + 4 × 512 × 4,096 × 4 = 310,378,496 B)
  // + the driver context of a GPU of unknown capability (an H100's: 132 SMs × 2,048 threads × 1 KiB + 258 MiB =
  // 547,356,672 B) = 3,809,804,288 B. Layer 11 (Q4_K only) adds 139,493,376 B.
  const std::int64_t at20 =
      10 * kPlainLayer + 10 * kMoreLayer + 20 * 4096 * kKvPerLayerCell + 310'378'496 + 547'356'672;
  REQUIRE(at20 == 3'809'804'288);
  const Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-8B"},
                                     {"weights", "gguf:Q4_K_M"},
                                     {"headroom", 0},
                                     {"hardware", {{"gpu", {{"name", "test GPU"}, {"memory_bytes", at20}}}}},
                                     {"inference", {{"engine", "llama.cpp"}, {"context", 4096}}}});
  const auto f = max_gpu_layers(s);
  REQUIRE(f);
  CHECK(f->n_gpu_layers == 20);
  CHECK(f->n_layer == 32);
  // Host: layers 0–11 (6 with more bits), token_embd and the output layer; the KV of 12 layers.
  CHECK(f->host_weights.in_bytes() == 6 * kPlainLayer + 6 * kMoreLayer + kTokenEmbd + kOutput);
  CHECK(f->host_kv.in_bytes() == 12 * 4096 * kKvPerLayerCell);
  // One byte less and layer 12 (more bits) no longer fits either: 19.
  Scenario tight = s;
  tight.gpu.memory = Bytes::of(at20 - 1);
  CHECK(max_gpu_layers(tight)->n_gpu_layers == 19);
  // plan_json carries it; on an 80 GB GPU everything fits (n_layer + 1).
  const json plan = plan_json(llama8b(1).dump(), test::catalog());
  CHECK(plan["max_gpu_layers"]["n_gpu_layers"] == 33);
  CHECK(plan["max_gpu_layers"]["all_layers"] == true);
}

TEST_CASE("Mixtral-8x7B on two RTX 4090s: the split lowers the per-GPU total", "[llamacpp][split]") {
  auto mixtral = [](int gpus) {
    return json{{"model", "mistralai/Mixtral-8x7B-Instruct-v0.1"},
                {"weights", "gguf:Q4_K_M"},
                {"hardware", {{"gpu", "RTX-4090"}, {"count", gpus}}},
                {"inference", {{"engine", "llama.cpp"}, {"context", 8192}}}};
  };
  // Per layer: q, o 9,437,184 B; k 2,359,296 B; 8 experts' gate and up 8 × 14,336 × 4,096 at Q4_K =
  // 264,241,152 B each; down 264,241,152 B (Q4_K) or 385,351,680 B (Q6_K); v 2,359,296 / 3,440,640 B;
  // router 8 × 4,096 F32 and two norms 163,840 B.
  const std::int64_t plain = 816'480'256, more = 938'672'128;
  const Report one = test::run(mixtral(1));
  const Report two = test::run(mixtral(2));
  CHECK_FALSE(one.fits);
  CHECK(two.fits);
  // GPU 0 holds layers 0–16 (8 with more bits) and their KV (17 × 8,192 cells × 4,096 B).
  CHECK(test::metric(two, "weights_bytes") == 9.0 * plain + 8.0 * more);
  CHECK(test::metric(two, "kv_cache_bytes") == 17.0 * 8192 * 4096);
  CHECK(test::metric(one, "kv_cache_bytes") == 32.0 * 8192 * 4096);
  CHECK(two.total < one.total);
  // The plan offers the second GPU, and applying its patch gives that estimate.
  const json plan = plan_json(mixtral(1).dump(), test::catalog());
  const auto hint = std::find_if(plan["hints"].begin(), plan["hints"].end(),
                                 [](const json& h) { return h["change"].get<std::string>().rfind("2 GPUs", 0) == 0; });
  REQUIRE(hint != plan["hints"].end());
  json patched = mixtral(1);
  patched.merge_patch((*hint)["patch"]);
  CHECK(test::run(patched).total == two.total);
}

TEST_CASE("the 70B log's two devices: the layer split reproduces their difference", "[llamacpp][split]") {
  // Accuracy case llamacpp-02 notes: device 0 (RPC) 19,142.56 MiB, CUDA0 18,764.46 MiB: 378.10 MiB apart.
  // 80 layers on two devices: 41 | 39 + output.
  const Report r = test::run({{"model", "meta-llama/Llama-3.1-70B-Instruct"},
                              {"weights", "gguf:Q4_K_S"},
                              {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
                              {"inference", {{"engine", "llama.cpp"}, {"context", 8192}}}});
  const llamacpp::Placement p = llamacpp::place(test::scenario({{"model", "meta-llama/Llama-3.1-70B-Instruct"},
                                                                {"weights", "gguf:Q4_K_S"},
                                                                {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
                                                                {"inference", {{"engine", "llama.cpp"}}}}));
  CHECK(p.gpus[0].end_layer == 41);
  const double apart = (p.gpus[0].weights.bytes - p.gpus[1].weights.bytes).in(kMiB);
  CHECK(apart == Approx(378.10).epsilon(0.01));
  CHECK(test::metric(r, "activation_bytes") == 1104.0 * 1048576);  // "compute buffer size = 1104.00 MiB" on both
}

TEST_CASE("a bare parameter count at gguf:Q4_K_M uses Q4_K's nominal 4.5 bits", "[llamacpp][weights]") {
  const Report r = test::run(
      {{"model", {{"params", 13'000'000'000}}}, {"weights", "gguf:Q4_K_M"}, {"inference", {{"engine", "llama.cpp"}}}});
  // 13,000,000,000 / 256 = 50,781,250 blocks × 144 B = 7,312,500,000 B (it was 4 B per weight: 48.43 GiB).
  CHECK(test::metric(r, "weights_bytes") == 7'312'500'000.0);
  const vram::Component* w = r.find_component("weights");
  REQUIRE(w != nullptr);
  CHECK(w->formula.find("13,000,000,000 params × 0.5625 B (Q4_K)") != std::string::npos);
  CHECK(std::any_of(r.warnings.begin(), r.warnings.end(),
                    [](const std::string& x) { return x.find("4.5 bits") != std::string::npos; }));
  // Two GPUs with tensor_split [3, 1]: GPU 0 holds three quarters.
  const Report two = test::run({{"model", {{"params", 13'000'000'000}}},
                                {"weights", "gguf:Q4_K_M"},
                                {"hardware", {{"count", 2}}},
                                {"inference", {{"engine", "llama.cpp"}, {"llama_cpp", {{"tensor_split", {3, 1}}}}}}});
  CHECK(test::metric(two, "weights_bytes") == 5'484'375'000.0);
}

TEST_CASE("llama.cpp refuses fp8 KV and accepts its own cache types", "[llamacpp][scenario]") {
  json fp8 = llama8b(1);
  fp8["inference"]["kv_cache_dtype"] = "fp8";
  const std::string e = failure_path(fp8);
  CHECK(e.rfind("/inference/kv_cache_dtype: ", 0) == 0);
  CHECK(e.find("q5_1") != std::string::npos);
  // q4_1: 32 values in 20 B; 2 × 8 × 128 = 2,048 values per layer and token → 1,280 B × 32 layers.
  json q41 = llama8b(1);
  q41["inference"]["kv_cache_dtype"] = "q4_1";
  CHECK(test::metric(test::run(q41), "kv_bytes_per_token") == 40'960.0);
  json vllm = {{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"kv_cache_dtype", "q4_1"}}}};
  CHECK(failure_path(vllm).rfind("/inference/kv_cache_dtype: ", 0) == 0);
}

TEST_CASE("tensor_split, main_gpu and tensor_parallel are checked for llama.cpp", "[llamacpp][scenario]") {
  CHECK(failure_path(llama8b(2, {{"tensor_split", {1}}})).rfind("/inference/llama_cpp/tensor_split: has 1", 0) == 0);
  CHECK(failure_path(llama8b(2, {{"tensor_split", {1, -1}}})).rfind("/inference/llama_cpp/tensor_split/1: ", 0) == 0);
  CHECK(failure_path(llama8b(2, {{"tensor_split", {0, 0}}})).rfind("/inference/llama_cpp/tensor_split: ", 0) == 0);
  CHECK(failure_path(llama8b(2, {{"main_gpu", 2}})).rfind("/inference/llama_cpp/main_gpu: ", 0) == 0);
  CHECK(failure_path(llama8b(2, {{"split_mode", "tensor"}})).rfind("/inference/llama_cpp/split_mode: ", 0) == 0);
  json tp = llama8b(2);
  tp["inference"]["tensor_parallel"] = 2;
  CHECK(failure_path(tp).rfind("/inference/tensor_parallel: llama.cpp does not split attention heads", 0) == 0);
  // For llama.cpp a GPU count is the split, not replicas.
  const Report r = test::run(llama8b(2));
  CHECK(std::none_of(r.warnings.begin(), r.warnings.end(),
                     [](const std::string& w) { return w.find("replicas") != std::string::npos; }));
}
