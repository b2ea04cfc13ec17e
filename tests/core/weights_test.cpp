#include "vram/budget/weights.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace vram;
using nlohmann::json;

namespace {
const Model& model(const char* id) {
  const CatalogModel* m = test::catalog().find_model(id);
  REQUIRE(m != nullptr);
  return m->model;
}
WeightFormat fmt(const char* name) {
  return parse_weight_format(json(name), "/weights", "bf16");
}
}  // namespace

TEST_CASE("the article's example: 13,000,000,000 × 2 B = 26,000,000,000 B ≈ 24.21 GiB", "[weights][article]") {
  const WeightsEstimate w = weights_on_gpu(model_from_param_count(13'000'000'000), fmt("bf16"), WeightPlacement{});
  CHECK(w.bytes.in_bytes() == 26'000'000'000);
  CHECK(weights_formula(w) == "13,000,000,000 params × 2 B (bf16) = 26,000,000,000 B ≈ 24.21 GiB");
}

TEST_CASE("quantized formats keep embeddings and lm_head in 16 bits", "[weights]") {
  const Model& m = model("meta-llama/Llama-3.1-8B");
  // 32 layers × 218,103,808 linear params at 1 B + 32 × 43,008 output channels × 4 B scales,
  // embed + lm_head 1,050,673,152 × 2 B, norms 65 × 4,096 × 2 B.
  const std::int64_t linear = 32LL * 218'103'808;
  const std::int64_t expected = linear + 32LL * 43'008 * 4 + 1'050'673'152LL * 2 + 65LL * 4096 * 2;
  CHECK(weights_on_gpu(m, fmt("fp8"), WeightPlacement{}).bytes.in_bytes() == expected);
}

TEST_CASE("tensor parallelism shards weights; KV projections replicate past the KV heads", "[weights][tp]") {
  const Model& m = model("meta-llama/Llama-3.1-8B");
  WeightPlacement p;
  p.tensor_parallel = 2;
  const Bytes half = weights_on_gpu(m, fmt("bf16"), p).bytes;
  // Everything halves except the 65 replicated norm vectors.
  CHECK(half.in_bytes() == (16'060'522'496 - 65LL * 4096 * 2) / 2 + 65LL * 4096 * 2);
  const Tensor k{TensorRole::attn_k, 0, 1024, 4096, 1, TensorStage::text, Shard::kv_rows, true};
  CHECK(shard_shape(k, m.arch, 16, 1).rows == 128);  // one whole head per rank
  CHECK(shard_shape(k, m.arch, 4, 1).rows == 256);
}

TEST_CASE("vocabulary rows pad to the engine's multiple before sharding", "[weights]") {
  const Model& m = model("codellama/CodeLlama-7b-hf");  // vocab 32,016 → 32,064 in vLLM
  const Tensor embed = m.tensors.front();
  REQUIRE(embed.role == TensorRole::embedding);
  CHECK(shard_shape(embed, m.arch, 1, 64).rows == 32'064);
  CHECK(shard_shape(embed, m.arch, 2, 64).rows == 16'032);
}

TEST_CASE("pipeline placement keeps only the stage's layers", "[weights][pp]") {
  const Model& m = model("meta-llama/Llama-3.1-8B");
  WeightPlacement first;
  first.end_layer = 16;
  first.head = false;
  // embedding 525,336,576 + 16 layers × 218,112,000, in bf16
  CHECK(weights_on_gpu(m, fmt("bf16"), first).bytes.in_bytes() == (525'336'576LL + 16LL * 218'112'000) * 2);
}

TEST_CASE("llama.cpp Q4_K_M mixture of Llama-3.1-8B, token_embd on the host", "[weights][gguf]") {
  const Model& m = model("meta-llama/Llama-3.1-8B-Instruct");
  WeightPlacement gpu;
  gpu.embedding = false;
  // "CUDA0 model buffer size = 4403.49 MiB" (public llama.cpp log, accuracy case llamacpp-01)
  CHECK(weights_on_gpu(m, fmt("gguf:Q4_K_M"), gpu).bytes.in(kMiB) == Approx(4403.49).margin(0.01));
}

TEST_CASE("a pasted config with its exact checkpoint size uses that size", "[weights]") {
  const json cfg = test::catalog().find_model("meta-llama/Llama-3.1-8B")->config;
  // The published total plus 1 GiB (as if the checkpoint held extra tensors): vLLM loads what is stored.
  const std::int64_t given = 16'060'522'496 + (1LL << 30);
  const Report r =
      test::run({{"model", {{"config", cfg}, {"weights_bytes", given}}}, {"inference", {{"context", 4096}}}});
  CHECK(test::metric(r, "weights_bytes") == Approx(static_cast<double>(given + 33'554'432)).epsilon(1e-6));
  // weights_by_dtype: 8,030,261,248 BF16 parameters = 16,060,522,496 B.
  const Report d = test::run({{"model", {{"config", cfg}, {"weights_by_dtype", {{"BF16", 8'030'261'248LL}}}}},
                              {"inference", {{"context", 4096}}}});
  CHECK(test::metric(d, "weights_bytes") == Approx(16'060'522'496.0 + 33'554'432).epsilon(1e-9));
}

TEST_CASE("the weights term adds up to the weights, for every catalog model and format", "[weights][term]") {
  for (const CatalogModel* cm_entry : test::catalog().models()) {
    const CatalogModel& cm = *cm_entry;
    for (const char* f : {"bf16", "fp8", "gptq-int4", "nf4", "mxfp4", "gguf:Q4_K_M"}) {
      INFO(cm.model.id << " " << f);
      const WeightFormat format = fmt(f);
      WeightPlacement p;
      p.tensor_parallel = 2;
      const WeightsEstimate w = weights_on_gpu(cm.model, format, p);
      const Term t = weights_term(w);
      CHECK(t.bytes == w.bytes);
      CHECK(consistent(t));
    }
  }
}

TEST_CASE("weights: whole bytes per param exactly, others to four decimals", "[weights][term]") {
  const Model& m = model("meta-llama/Llama-3.1-8B");
  const WeightsEstimate w = weights_on_gpu(m, fmt("fp8"), WeightPlacement{});
  const Term t = weights_term(w);
  REQUIRE(t.op == Term::Op::sum);
  REQUIRE(t.parts.size() == 2);
  // The fp8 linear layers: 6,979,321,856 params in 1 B each plus 32 × 43,008 fp32 scales.
  const Term& fp8 = t.parts[0];
  CHECK(fp8.bytes.in_bytes() == 6'979'321'856LL + 32LL * 43'008 * 4);
  CHECK_FALSE(fp8.factors[1].integer);
  CHECK(fp8.factors[1].value == Approx(1.000788).epsilon(1e-6));
  // The 16-bit rest: 1,050,939,392 params × 2 B exactly.
  CHECK(t.parts[1].factors[1].integer);
  CHECK(t.parts[1].bytes.in_bytes() == 1'050'939'392LL * 2);
  CHECK(weights_formula(w).find("6,979,321,856 params × 1.0008 B (") == 0);
}

TEST_CASE("expert parallelism gives rank 0 ceil(E / ep) whole experts instead of a slice of each", "[weights][ep]") {
  const Model& m = model("mistralai/Mixtral-8x7B-v0.1");  // 8 experts of 3 × 14,336 × 4,096, 32 layers
  WeightPlacement tp;
  tp.tensor_parallel = 3;
  WeightPlacement ep = tp;
  ep.expert_parallel = 3;
  const std::int64_t whole_expert = 3LL * 14'336 * 4'096 * 2;  // B in bf16
  // TP 3 slices each expert: gate/up rows and down columns ceil(14,336 / 3) = 4,779.
  const std::int64_t sliced = 8LL * 3 * 4'779 * 4'096 * 2;
  // EP 3: ceil(8 / 3) = 3 whole experts on rank 0.
  const std::int64_t whole = 3LL * whole_expert;
  const std::int64_t diff = weights_on_gpu(m, fmt("bf16"), ep).bytes.in_bytes() -
                            weights_on_gpu(m, fmt("bf16"), tp).bytes.in_bytes();
  CHECK(diff == 32LL * (whole - sliced));
  // EP equal to a divisor of E holds the same bytes as the TP slice when nothing rounds.
  WeightPlacement tp4;
  tp4.tensor_parallel = 4;
  WeightPlacement ep4 = tp4;
  ep4.expert_parallel = 4;
  CHECK(weights_on_gpu(m, fmt("bf16"), ep4).bytes == weights_on_gpu(m, fmt("bf16"), tp4).bytes);
}
