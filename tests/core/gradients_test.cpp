// Budget category terms on hand-computed values: gradients and the trainable set.
#include <catch2/catch.hpp>

#include "vram/budget/gradients.hpp"
#include "vram/budget/optimizer_state.hpp"

using namespace vram;

namespace {
TrainableSet one_block(std::int64_t rows, std::int64_t cols, std::int64_t count = 1) {
  TrainableSet s;
  s.blocks.push_back({rows, cols, count});
  return s;
}
}  // namespace

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
