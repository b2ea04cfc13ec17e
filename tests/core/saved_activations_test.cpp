// Budget category terms on hand-computed values: saved activations, logits and loss.
#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/error.hpp"

#include "vram/budget/saved_activations.hpp"

using namespace vram;

namespace {
LayerDims small_layer() {
  LayerDims d;
  d.hidden = 8;
  d.q_dim = 8;
  d.kv_dim = 4;
  d.heads = 2;
  d.mlp_width = 16;
  return d;
}
/// One FSDP training step of `model` on `gpus` H100s at seq_len 8,192, with `training` added.
Report fsdp_step(const char* model, int gpus, nlohmann::json training) {
  training["seq_len"] = 8192;
  training["sharding"] = "fsdp";
  return test::run(nlohmann::json{{"workload", "training"},
                                  {"model", model},
                                  {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", gpus}}},
                                  {"training", std::move(training)}});
}
}  // namespace

TEST_CASE("one layer's saved activations per attention kind and MLP kernel", "[training][saved_activations]") {
  const LayerDims d = small_layer();
  // 10 tokens, bf16, eager: norms 10×2×8×(4+2+2) + attention 10×(2×8 + 2×4)×2 + rotary 10×2×(8+4)×2
  // + log-sum-exp 10×2×4 + MLP 10×4×16×2.
  const Term flash = layer_saved_term(d, 10, 10, 2, TrainAttention::flash, LayerKernels::eager);
  CHECK(flash.bytes == Bytes::of(1280 + 480 + 480 + 80 + 1280));
  CHECK(consistent(flash));
  // Eager attention adds the fp32 probabilities and their cast: 10 tokens × 2 heads × 10 keys × 6 B.
  CHECK(layer_saved_term(d, 10, 10, 2, TrainAttention::eager, LayerKernels::eager).bytes == Bytes::of(3600 + 1200));
  CHECK(layer_saved_term(d, 10, 10, 2, TrainAttention::sdpa, LayerKernels::eager).bytes == flash.bytes);
  // Fused kernels: norms 10×2×8×4, no rotary copies, MLP gate and up 10×2×16×2.
  CHECK(layer_saved_term(d, 10, 10, 2, TrainAttention::flash, LayerKernels::fused).bytes ==
        Bytes::of(640 + 480 + 80 + 640));
  LayerDims no_rope = d;
  no_rope.rotary = false;
  CHECK(layer_saved_term(no_rope, 10, 10, 2, TrainAttention::flash, LayerKernels::eager).bytes ==
        Bytes::of(3600 - 480));
  CHECK(checkpoints_term(3, 10, 8, 2).bytes == Bytes::of(480));
  const Term work = layer_backward_work_term(d, 10, 2);
  CHECK(work.bytes == Bytes::of(960));
  REQUIRE(work.range);
  CHECK(work.range->low == Bytes::of(480));
  CHECK(work.range->high == Bytes::of(1440));
}

TEST_CASE("logits and cross-entropy: materialised, chunked, cut", "[training][saved_activations]") {
  // 10 tokens × 100 vocab: 16-bit logits 2,000 B; fp32 log-softmax, its gradient and the input gradient 12,000 B.
  CHECK(logits_loss_term(10, 100, 2, LossKind::materialized, 8, true).bytes == Bytes::of(14000));
  CHECK(logits_loss_term(10, 100, 2, LossKind::materialized, 8, false).bytes == Bytes::of(12000));
  // Chunked: the 16-bit chunks, every chunk's fp32 log-softmax, two fp32 gradients of one chunk (2 tokens).
  CHECK(logits_loss_term(10, 100, 2, LossKind::chunked, 8, false).bytes == Bytes::of(2000 + 4000 + 1600));
  CHECK(logits_loss_term(10, 100, 2, LossKind::cut, 8, false).bytes == Bytes::of(40));
  CHECK(logits_loss_term(10, 100, 2, LossKind::in_place, 8, false).bytes == Bytes::of(2000 + 40));
  // torch.compile'd: the 16-bit logits, 4 B of log-sum-exp per token, and a 16-bit gradient of the whole
  // batch (10 × 100 × 2 B) or, chunked into 8, of one chunk of 2 tokens (2 × 100 × 2 B).
  CHECK(logits_loss_term(10, 100, 2, LossKind::compiled, 1, false).bytes == Bytes::of(2000 + 40 + 2000));
  CHECK(logits_loss_term(10, 100, 2, LossKind::compiled_chunked, 8, false).bytes == Bytes::of(2000 + 40 + 400));
}

TEST_CASE("torch.compile is read from training.compile or training.extra.compile", "[training][compile]") {
  const auto base = nlohmann::json{{"workload", "training"}, {"model", "meta-llama/Llama-3.2-3B"},
                                   {"hardware", {{"gpu", "A100-80GB"}}}};
  auto with = [&](nlohmann::json training) {
    nlohmann::json s = base;
    s["training"] = std::move(training);
    return s;
  };
  CHECK_FALSE(test::scenario(with({{"seq_len", 4096}})).training()->training.compile);
  CHECK(test::scenario(with({{"extra", {{"compile", true}, {"packed", true}}}})).training()->training.compile);
  CHECK(test::scenario(with({{"compile", true}})).training()->training.compile);
  // The compiled loss keeps no fp32 log-softmax: the estimate is lower, by the mechanism's bytes.
  const double eager = test::metric(test::run(with({{"seq_len", 4096}, {"micro_batch", 2}})), "peak_allocated_bytes");
  const double compiled =
      test::metric(test::run(with({{"seq_len", 4096}, {"micro_batch", 2}, {"compile", true}})), "peak_allocated_bytes");
  // materialised 3 × 8,192 × 128,256 × 4 B → compiled 8,192 × 4 B + 8,192 × 128,256 × 2 B.
  CHECK(eager - compiled == Approx(3.0 * 8192 * 128256 * 4 - (8192.0 * 4 + 8192.0 * 128256 * 2)));
  try {
    test::scenario(with({{"extra", 3}}));
    FAIL("extra must be an object");
  } catch (const InputError& e) {
    CHECK(e.path() == "/training/extra");
  }
}

TEST_CASE("layer widths on a tensor-parallel rank", "[training][saved_activations]") {
  Architecture a;
  a.hidden = 4096;
  a.heads = 32;
  a.kv_heads = 8;
  a.head_dim = 128;
  a.intermediate = 14336;
  const LayerDims d = layer_dims(a, 2);
  CHECK(d.heads == 16);
  CHECK(d.q_dim == 2048);
  CHECK(d.kv_dim == 512);
  CHECK(d.mlp_width == 7168);
  CHECK(d.hidden == 4096);
}

TEST_CASE("op-level selective checkpointing keeps the block input, every other matmul and the attention output",
          "[training][saved_activations][torchtitan]") {
  const LayerDims d = small_layer();
  // 10 tokens, bf16: the input 10 × 8 × 2; q, v, gate and down (8 + 4 + 16 + 8) × 10 × 2; the attention
  // output 10 × 8 × 2; the log-sum-exp 10 × 2 heads × 4.
  const Term gated = op_sac_saved_term(d, 10, 2);
  CHECK(gated.bytes == Bytes::of(160 + 720 + 160 + 80));
  CHECK(consistent(gated));
  CHECK(gated.source.find("parallelize_llama.py") != std::string_view::npos);
  // Ungated (six matmuls: q, k, v, o, up, down): q, v and the up projection.
  LayerDims plain = d;
  plain.gated = false;
  CHECK(op_sac_saved_term(plain, 10, 2).bytes == Bytes::of(160 + 560 + 160 + 80));
  // Less than the layer's eager saved tensors (3,600 B above), more than its input alone.
  CHECK(gated.bytes < layer_saved_term(d, 10, 10, 2, TrainAttention::flash, LayerKernels::eager).bytes);
  // Sequence-parallel over 2 ranks: the input is a 5-token shard (80 B), the reduce-scatters after o and
  // down are shards too (5 × 2 × 8 × 2 = 160 B); the matmul outputs stay whole (the down projection's is
  // the partial sum before its reduce-scatter).
  LayerDims sp = d;
  sp.seq_shard = 2;
  CHECK(op_sac_saved_term(sp, 10, 2).bytes == Bytes::of(80 + 720 + 160 + 80 + 160));
}

TEST_CASE("sequence parallelism shards the hidden-sized tensors of a layer", "[training][saved_activations]") {
  LayerDims d = small_layer();
  d.seq_shard = 2;
  // The norms' 10 × 2 × 8 × 8 B become 5 × 2 × 8 × 8 B; attention, rotary and MLP tensors are per rank already.
  CHECK(layer_saved_term(d, 10, 10, 2, TrainAttention::flash, LayerKernels::eager).bytes ==
        Bytes::of(640 + 480 + 480 + 80 + 1280));
  // The residual gradients in and out over the shard: 5 × 2 × 8 × 2 B; the MLP's 10 × 2 × 16 × 2 B.
  CHECK(layer_backward_work_term(d, 10, 2).bytes == Bytes::of(160 + 640));
}

TEST_CASE("torchtitan's selective checkpointing is its op-level policy; others keep all but the attention scores",
          "[training][torchtitan]") {
  // Llama-3.1-8B, 8 × H100, FSDP, 2 × 8,192 tokens. Per layer under torchtitan's policy: 16,384 tokens ×
  // (4,096 input + 4,096 q + 1,024 v + 14,336 gate + 4,096 down + 4,096 attention output) × 2 B + 16,384 ×
  // 32 heads × 4 B = 1,042,284,544 B; 32 layers.
  auto run = [](const char* framework, const char* ck) {
    return fsdp_step("meta-llama/Llama-3.1-8B", 8, {{"framework", framework}, {"micro_batch", 2}, {"checkpointing", ck}});
  };
  const Report titan = run("torchtitan", "selective");
  const Component* act = titan.find_component("activations");
  REQUIRE(act != nullptr);
  CHECK(act->formula.find("op-level selective checkpointing") != std::string::npos);
  CHECK(act->formula.find("1,042,284,544 B) × 32 layers") != std::string::npos);
  // transformers' selective keeps each layer's eager tensors (flash attention has no scores to drop): more.
  CHECK(test::metric(run("transformers", "selective"), "activation_bytes") > test::metric(titan, "activation_bytes"));
  // Full recomputation keeps only the layer inputs: less.
  CHECK(test::metric(run("torchtitan", "full"), "activation_bytes") < test::metric(titan, "activation_bytes"));
}

TEST_CASE("torchtitan's tensor parallelism is sequence-parallel: the kept layer inputs are sequence shards",
          "[training][torchtitan]") {
  // Llama-3.1-70B, 16 × H100, FSDP 2 × TP 8, full recomputation, 65,536 tokens: 80 layer inputs of
  // 65,536 / 8 tokens × 8,192 hidden × 2 B on a rank (Korthikanti et al. 2022 §4.2.2).
  auto run = [](const char* framework) {
    return fsdp_step("meta-llama/Llama-3.1-70B", 16,
                     {{"framework", framework}, {"micro_batch", 8}, {"tensor_parallel", 8}, {"checkpointing", "full"}});
  };
  const Report titan = run("torchtitan");
  const Component* act = titan.find_component("activations");
  REQUIRE(act != nullptr);
  CHECK(act->formula.find("80 layer inputs × 8,192 tokens × 8,192 hidden × 2 B") != std::string::npos);
  // transformers' tensor parallelism (no sequence parallelism) keeps whole-sequence inputs on every rank.
  const Report transformers = run("transformers");
  const Component* plain = transformers.find_component("activations");
  REQUIRE(plain != nullptr);
  CHECK(plain->formula.find("80 layer inputs × 65,536 tokens × 8,192 hidden × 2 B") != std::string::npos);
}
