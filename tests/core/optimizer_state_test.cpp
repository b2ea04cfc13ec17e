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

TEST_CASE("AdamW's step temporaries: none fused, every sqrt(exp_avg_sq) foreach, two of the largest for-loop",
          "[training][optimizer_state]") {
  TrainableSet s = one_block(10, 100);  // 1,000 params
  s.blocks.push_back({1, 300, 2});      // and 600 more, 300 at most per tensor
  CHECK(adamw_step_term(s, OptimizerImpl::fused, 4, {1, 1}).bytes == Bytes{});
  CHECK(adamw_step_term(s, OptimizerImpl::foreach, 4, {1, 1}).bytes == Bytes::of(6'400));
  CHECK(adamw_step_term(s, OptimizerImpl::foreach, 2, {1, 1}).bytes == Bytes::of(3'200));
  CHECK(adamw_step_term(s, OptimizerImpl::foreach, 4, {1, 3}).bytes == Bytes::of(2'134));  // a third, rounded up
  CHECK(adamw_step_term(s, OptimizerImpl::for_loop, 4, {1, 1}).bytes == Bytes::of(8'000));  // 2 × 1,000 × 4 B
  CHECK(consistent(adamw_step_term(s, OptimizerImpl::foreach, 4, {1, 3})));
  CHECK(consistent(adamw_step_term(s, OptimizerImpl::for_loop, 2, {1, 1})));
}

TEST_CASE("Adafactor keeps a row and a column factor per matrix", "[training][optimizer_state]") {
  TrainableSet s = one_block(10, 20, 3);  // (10 + 20) × 3 factors
  s.blocks.push_back({1, 50, 1});         // a vector: its full second moment
  CHECK(optimizer_state_term(s, Optimizer::adafactor, 4, {1, 1}).bytes == Bytes::of(90 * 4 + 50 * 4));
}

TEST_CASE("Muon: one momentum on the hidden matrices, AdamW's two moments on the rest", "[training][optimizer_state]") {
  TrainableSet s;
  s.blocks.push_back({4096, 1024, 2, true});  // two hidden matrices: 8,388,608 params
  s.blocks.push_back({1, 4096, 3, false});     // norms: 12,288 params
  s.blocks.push_back({32000, 4096, 1, false});  // embeddings: 131,072,000 params
  // 8,388,608 × 1 × 2 + (12,288 + 131,072,000) × 2 × 4
  const Term t = muon_state_term(s, 2, 4, {1, 1});
  CHECK(t.bytes == Bytes::of(16'777'216 + 1'048'674'304));
  CHECK(consistent(t));
  // Sharded over 8: the sum, divided.
  CHECK(muon_state_term(s, 2, 4, {1, 8}).bytes == Bytes::of((16'777'216 + 1'048'674'304) / 8));
  // Through optimizer_state_term both moments take the state dtype.
  CHECK(optimizer_state_term(s, Optimizer::muon, 4, {1, 1}).bytes == Bytes::of(33'554'432 + 1'048'674'304));
  const ParamBlock h = s.largest_hidden_matrix();
  CHECK((h.rows == 4096 && h.cols == 1024 && h.count == 2));
  CHECK(one_block(10, 10).largest_hidden_matrix().count == 0);  // no hidden matrix
}

TEST_CASE("Newton-Schulz: the widest line of each iteration, in 16 bits", "[training][optimizer_state]") {
  // A 14,336 × 4,096 matrix: m·n = 58,720,256, k = 4,096, k² = 16,777,216.
  // Quintic: max(m·n + 5k², 4m·n + 2k²) = max(142,606,336, 268,435,456) × 2 B = 536,870,912 B,
  // plus the nesterov update in fp32: 58,720,256 × 4 = 234,881,024 B.
  const Term q = newton_schulz_term(14336, 4096, 4, NewtonSchulz::quintic);
  CHECK(q.bytes == Bytes::of(536'870'912 + 234'881'024));
  CHECK(consistent(q));
  // A bf16 gradient is the update's own bf16 copy: nothing more.
  CHECK(newton_schulz_term(14336, 4096, 2, NewtonSchulz::quintic).bytes == Bytes::of(536'870'912));
  // Gram: max(2m·n + 4k², m·n + 7k²) = max(184,549,376, 176,160,768) × 2 B; the gradient is updated in place.
  const Term g = newton_schulz_term(14336, 4096, 2, NewtonSchulz::gram);
  CHECK(g.bytes == Bytes::of(369'098'752));
  CHECK(consistent(g));
  // A square matrix: k = m = n, the Gram temporaries dominate: max(6, 8) × 4,096² × 2 B.
  CHECK(newton_schulz_term(4096, 4096, 2, NewtonSchulz::gram).bytes == Bytes::of(8LL * 16'777'216 * 2));
}
