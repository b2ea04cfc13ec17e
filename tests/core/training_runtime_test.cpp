// Budget category terms on hand-computed values: sharded units, dequantized weights, the allocator reserve.
#include <catch2/catch.hpp>

#include "vram/budget/training_runtime.hpp"

using namespace vram;

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
