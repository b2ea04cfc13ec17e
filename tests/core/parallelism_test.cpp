#include "vram/parallel/parallelism.hpp"

#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace vram;

TEST_CASE("shares are exact and round up to whole elements", "[parallel]") {
  CHECK(Share{1, 8}.of(4096) == 512);
  CHECK(Share{1, 3}.of(10) == 4);  // a GPU holds whole elements
  CHECK(Share{1, 1}.of(7) == 7);
}

TEST_CASE("ZeRO stages and FSDP shard what their papers say, over the shard group", "[parallel]") {
  TrainingSettings t;
  t.sharding = Sharding::zero1;
  Parallelism p = training_parallelism(8, t);
  CHECK(p.data == 8);
  CHECK(p.shard_group == 8);
  CHECK(p.state_share(StateKind::optimizer_state).den == 8);
  CHECK(p.state_share(StateKind::gradients).den == 1);
  CHECK(p.state_share(StateKind::parameters).den == 1);
  t.sharding = Sharding::zero2;
  p = training_parallelism(8, t);
  CHECK(p.state_share(StateKind::gradients).den == 8);
  CHECK(p.state_share(StateKind::parameters).den == 1);
  t.sharding = Sharding::fsdp;
  t.shard_group_size = 4;  // hybrid sharding: shard within 4, replicate across the 2 groups
  p = training_parallelism(8, t);
  CHECK(p.shard_group == 4);
  CHECK(p.state_share(StateKind::parameters).den == 4);
  t.sharding = Sharding::ddp;  // DDP replicates: no pooled memory
  p = training_parallelism(8, t);
  CHECK(p.state_share(StateKind::optimizer_state).den == 1);
}

TEST_CASE("data-parallel ranks are the GPUs left after tensor, pipeline and context parallelism", "[parallel]") {
  TrainingSettings t;
  t.tensor_parallel = 2;
  t.context_parallel = 2;
  t.sharding = Sharding::fsdp;
  const Parallelism p = training_parallelism(16, t);
  CHECK(p.data == 4);
  CHECK(p.gpus() == 16);
  CHECK(p.sequence_share().den == 2);
  // The context-parallel ranks hold the same parameters: FSDP shards over them too, 4 × 2.
  CHECK(p.state_share(StateKind::parameters).den == 8);
  t.shard_group_size = 4;  // hybrid sharding: a group of 4, replicated across the rest
  CHECK(training_parallelism(16, t).state_share(StateKind::parameters).den == 4);
  t.shard_group_size = 0;
  t.context_parallel = 1;
  CHECK(training_parallelism(16, t).state_share(StateKind::parameters).den == 8);
  const Parallelism inf = inference_parallelism(8, 2, 2);
  CHECK(inf.data == 2);  // two replicas of a TP2 × PP2 engine
  CHECK(inf.gpus() == 8);
}

TEST_CASE("a parsed scenario carries its parallelism", "[parallel][scenario]") {
  const Scenario s = test::scenario({{"workload", "training"},
                                     {"model", "meta-llama/Llama-3.1-8B"},
                                     {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 8}}},
                                     {"training", {{"sharding", "zero3"}, {"tensor_parallel", 2}}}});
  CHECK(s.parallel.tensor == 2);
  CHECK(s.parallel.data == 4);
  CHECK(s.parallel.state_share(StateKind::gradients).den == 4);
  const Scenario i = test::scenario({{"model", "meta-llama/Llama-3.1-8B"},
                                     {"hardware", {{"count", 4}}},
                                     {"inference", {{"tensor_parallel", 2}}}});
  CHECK(i.parallel.tensor == 2);
  CHECK(i.parallel.data == 2);
}

TEST_CASE("llama.cpp's GPU count is a layer split, not replicas", "[parallel][llamacpp]") {
  const Scenario s = test::scenario({{"model", "meta-llama/Llama-3.1-8B"},
                                     {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
                                     {"inference", {{"engine", "llama.cpp"}}}});
  CHECK(s.parallel.pipeline == 2);
  CHECK(s.parallel.data == 1);
}
