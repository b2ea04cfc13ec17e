// How a scenario's GPUs divide the work, and what share of each tensor, state
// and activation one GPU holds. Parallelism is not an inference setting:
// training and video divide GPUs too.
//
// Sources: Megatron-LM (Shoeybi et al. 2019, §3: column- and row-parallel
// linears); ZeRO (Rajbhandari et al. 2020, §5: stage 1 shards optimizer
// states, stage 2 also gradients, stage 3 also parameters, over the data-
// parallel group); PyTorch FSDP docs (pytorch.org/docs/2.8/fsdp.html: FULL_SHARD
// = parameters, gradients and optimizer states sharded; HYBRID_SHARD shards
// within a group and replicates across groups); DistributedDataParallel
// replicates everything (pytorch.org/docs/2.8/notes/ddp.html).
#pragma once

#include <cstdint>

#include "vram/workloads.hpp"

namespace vram {

/// A share of something: numerator / denominator, exact.
struct Share {
  std::int64_t num = 1;
  std::int64_t den = 1;
  /// ceil(n × share): a GPU holds whole elements.
  std::int64_t of(std::int64_t n) const;
};

/// What a sharded training state is.
enum class StateKind : std::uint8_t { parameters, gradients, optimizer_state };

struct Parallelism {
  std::int64_t tensor = 1;    ///< tensor-parallel ranks: sharded linears split across them
  std::int64_t pipeline = 1;  ///< pipeline stages (vLLM PP, llama.cpp's layer split over GPUs)
  std::int64_t context = 1;   ///< context / sequence-parallel ranks: the token sequence split
  std::int64_t data = 1;      ///< data-parallel ranks (training) or independent replicas (inference)
  Sharding sharding = Sharding::none;
  std::int64_t shard_group = 1;  ///< GPUs one ZeRO/FSDP shard group spans (≤ data × context)

  /// GPUs in all: tensor × pipeline × context × data.
  std::int64_t gpus() const;

  /// Share of a training state on one GPU under the sharding strategy (after
  /// tensor and pipeline parallelism have cut the model): 1/shard_group for the
  /// states the strategy shards, 1 for the others.
  Share state_share(StateKind kind) const;

  /// Share of the sequence one GPU processes (context / sequence parallelism).
  Share sequence_share() const { return {1, context}; }
};

/// Inference: `gpus` GPUs, `tp` × `pp` of them per replica; the rest replicas.
Parallelism inference_parallelism(std::int64_t gpus, std::int64_t tp, std::int64_t pp);

/// Training: the block's parallel sizes over `gpus` GPUs; data-parallel ranks
/// are what remains, and a shard group spans `shard_group_size` of the data ×
/// context-parallel ranks (0 = all: context-parallel ranks hold the same parameters).
Parallelism training_parallelism(std::int64_t gpus, const TrainingSettings& t);

}  // namespace vram
