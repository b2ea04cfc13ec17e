// Budget category terms on hand-computed values: optimizer state and master weights.
#include <catch2/catch.hpp>

#include "vram/budget/optimizer_state.hpp"

using namespace vram;

namespace {
TrainableSet one_block(std::int64_t rows, std::int64_t cols, std::int64_t count = 1) {
  TrainableSet s;
  s.blocks.push_back({rows, cols, count});
  return s;
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
