// The training budget terms on hand-computed values.
#include <catch2/catch.hpp>

#include "vram/budget/gradients.hpp"
#include "vram/budget/optimizer_state.hpp"
#include "vram/budget/saved_activations.hpp"
#include "vram/budget/training_runtime.hpp"

using namespace vram;

namespace {
TrainableSet one_block(std::int64_t rows, std::int64_t cols, std::int64_t count = 1) {
  TrainableSet s;
  s.blocks.push_back({rows, cols, count});
  return s;
}
LayerDims small_layer() {
  LayerDims d;
  d.hidden = 8;
  d.q_dim = 8;
  d.kv_dim = 4;
  d.heads = 2;
  d.mlp_width = 16;
  return d;
}
}  // namespace

TEST_CASE("8-bit AdamW: uint8 moments, an fp32 absmax per 256, small tensors in fp32", "[training][optimizer_state]") {
  TrainableSet s;
  s.blocks.push_back({4096, 4096, 1});  // 16,777,216 elements: 65,536 blocks
  s.blocks.push_back({1, 4096, 1});     // exactly min_8bit_size: quantized, 16 blocks
  s.blocks.push_back({1, 100, 1});      // under it: fp32 states
  const Term t = optimizer_state_term(s, Optimizer::adamw_8bit, 4, {1, 1});
  // 16,781,312 × 2 × 1 + 65,552 × 2 × 4 + 100 × 2 × 4
  CHECK(t.bytes == Bytes::of(33'562'624 + 524'416 + 800));
  CHECK(consistent(t));
  CHECK(optimizer_state_term(s, Optimizer::paged_adamw_8bit, 4, {1, 1}).bytes == t.bytes);
}

TEST_CASE("full-precision optimizer states follow the moments and the shard", "[training][optimizer_state]") {
  const TrainableSet s = one_block(10, 100);  // 1,000 params
  CHECK(optimizer_state_term(s, Optimizer::adamw, 4, {1, 1}).bytes == Bytes::of(8000));
  CHECK(optimizer_state_term(s, Optimizer::adamw, 2, {1, 1}).bytes == Bytes::of(4000));  // zeros_like(bf16 param)
  CHECK(optimizer_state_term(s, Optimizer::adamw, 4, {1, 8}).bytes == Bytes::of(1000));
  CHECK(optimizer_state_term(s, Optimizer::adamw, 4, {1, 3}).bytes == Bytes::of(2667));  // rounded up
  CHECK(optimizer_state_term(s, Optimizer::sgd, 4, {1, 1}).bytes == Bytes{});
  CHECK(optimizer_state_term(s, Optimizer::sgd_momentum, 2, {1, 1}).bytes == Bytes::of(2000));
  CHECK(optimizer_state_term(s, Optimizer::lion, 4, {1, 1}).bytes == Bytes::of(4000));
  CHECK(consistent(optimizer_state_term(s, Optimizer::adamw, 4, {1, 3})));
}

TEST_CASE("Adafactor keeps a row and a column factor per matrix", "[training][optimizer_state]") {
  TrainableSet s = one_block(10, 20, 3);  // (10 + 20) × 3 factors
  s.blocks.push_back({1, 50, 1});         // a vector: its full second moment
  CHECK(optimizer_state_term(s, Optimizer::adafactor, 4, {1, 1}).bytes == Bytes::of(90 * 4 + 50 * 4));
}

TEST_CASE("master weights and gradients", "[training][gradients]") {
  CHECK(master_weights_term(1000, {1, 1}).bytes == Bytes::of(4000));
  CHECK(master_weights_term(1000, {1, 2}).bytes == Bytes::of(2000));
  CHECK(gradients_term(1000, 2, {1, 4}).bytes == Bytes::of(500));
  CHECK(gradients_in_backward_term(300, 4).bytes == Bytes::of(1200));
  CHECK(ddp_buckets_term(1000, 2).bytes == Bytes::of(2000));
  CHECK(zero_reduce_bucket_term(2'000'000'000, 2).bytes == Bytes::of(1'000'000'000));  // capped at 5e8 elements
  const TrainableSet s = [] {
    TrainableSet t = one_block(10, 100, 4);
    t.blocks.push_back({30, 40, 1});
    return t;
  }();
  CHECK(s.params() == 5200);
  CHECK(s.largest_tensor() == 1200);
}

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

TEST_CASE("sharded units, dequantized weights and the allocator reserve", "[training][training_runtime]") {
  CHECK(sharded_unit_term(100, 2.0, 4).bytes == Bytes::of(800));
  CHECK(sharded_unit_term(100, 0.5159, 0).bytes == Bytes::of(104));  // NF4: 103.18 B rounded up
  CHECK(dequantized_weight_term(1000, 2).bytes == Bytes::of(2000));
  const Term r = allocator_reserve_term(Bytes::of(1000));
  CHECK(r.bytes == Bytes::of(100));
  REQUIRE(r.range);
  CHECK(r.range->low == Bytes{});
  CHECK(r.range->high == Bytes::of(250));
  CHECK(consistent(r));
}
