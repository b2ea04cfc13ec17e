#include "vram/engines/llamacpp.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace vram;

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

TEST_CASE("llama.cpp log of Llama-3.1-8B Q4_K_M, 4 × 2048 tokens", "[llamacpp][estimate]") {
  const Report r = test::run({{"model", "meta-llama/Llama-3.1-8B-Instruct"},
                              {"weights", "gguf:Q4_K_M"},
                              {"hardware", {{"gpu", "RTX-4090"}}},
                              {"inference",
                               {{"engine", "llama.cpp"},
                                {"context", 2048},
                                {"concurrency", 4},
                                {"llama_cpp", {{"n_gpu_layers", 33}, {"n_ubatch", 512}, {"n_seq_max", 4}}}}}});
  CHECK(test::metric(r, "kv_cache_bytes") == 1024.0 * 1024 * 1024);   // "KV self size = 1024.00 MiB"
  CHECK(test::metric(r, "activation_bytes") == 560.0 * 1024 * 1024);  // "CUDA0 compute buffer size = 560.00 MiB"
  CHECK(test::metric(r, "weights_bytes") / 1048576.0 == Approx(4403.49).margin(0.01));
  CHECK(r.fits);
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
