#include "vram/parallel/parallelism.hpp"

#include <algorithm>

#include "vram/units.hpp"

namespace vram {

std::int64_t Share::of(std::int64_t n) const {
  return checked::ceil_div(checked::mul(n, num), den);
}

std::int64_t Parallelism::gpus() const {
  return checked::product(tensor, pipeline, context, data);
}

Share Parallelism::state_share(StateKind kind) const {
  const Share whole{1, 1};
  const Share sharded{1, std::max<std::int64_t>(1, shard_group)};
  switch (sharding) {
    case Sharding::none:
    case Sharding::ddp: return whole;  // every rank holds all of its model states
    case Sharding::zero1: return kind == StateKind::optimizer_state ? sharded : whole;
    case Sharding::zero2: return kind == StateKind::parameters ? whole : sharded;
    case Sharding::zero3:
    case Sharding::fsdp: return sharded;
  }
  return whole;
}

Parallelism inference_parallelism(std::int64_t gpus, std::int64_t tp, std::int64_t pp) {
  Parallelism p;
  p.tensor = tp;
  p.pipeline = pp;
  p.data = std::max<std::int64_t>(1, gpus / std::max<std::int64_t>(1, tp * pp));
  return p;
}

Parallelism training_parallelism(std::int64_t gpus, const TrainingSettings& t) {
  Parallelism p;
  p.tensor = t.tensor_parallel;
  p.pipeline = t.pipeline_parallel;
  p.context = t.context_parallel;
  p.data = std::max<std::int64_t>(1, gpus / std::max<std::int64_t>(1, p.tensor * p.pipeline * p.context));
  p.sharding = t.sharding;
  // Context-parallel ranks hold the same parameters: ZeRO / FSDP shard over them too
  // (torchtitan @e7c0cae distributed/parallel_dims.py, the "dp_shard_cp" mesh FSDP is applied on;
  // Megatron-LM's distributed optimizer over the data-parallel group with context parallelism).
  const std::int64_t ranks = checked::mul(p.data, p.context);
  const std::int64_t group = t.shard_group_size > 0 ? t.shard_group_size : ranks;
  p.shard_group = std::clamp<std::int64_t>(group, 1, ranks);
  return p;
}

}  // namespace vram
