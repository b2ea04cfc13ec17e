// Budget category: gradients of the trainable parameters.
//
// Sources: ZeRO (Rajbhandari et al. 2020, §3.1 and §5: 2Ψ bytes of fp16
// gradients, partitioned over N_d ranks from stage 2 on); PyTorch DDP
// (pytorch.org/docs/2.8/generated/torch.nn.parallel.DistributedDataParallel.html,
// `gradient_as_bucket_view`: "the saved memory size will be equal to the total
// gradients size" — the buckets are a second copy unless it is set); torchtune
// optimizer-in-backward (torchtune v0.6.1 recipes/full_finetune_single_device.py,
// `optimizer_in_bwd`: each parameter is stepped in a post-accumulate-grad hook
// and its gradient freed, so one parameter's gradient is alive at a time).
#pragma once

#include <cstdint>

#include "vram/budget/term.hpp"
#include "vram/budget/trainable.hpp"
#include "vram/parallel/parallelism.hpp"

namespace vram {

/// A share of a figure as a factor ("1/8 (shard group of 8)"); none when whole.
Factors share_factors(Share share);

/// params × grad_bytes × share: one gradient per trainable parameter.
Term gradients_term(std::int64_t params, std::int64_t grad_bytes, Share share);

/// Optimizer-in-backward: the largest trainable tensor's gradient, the only one alive.
Term gradients_in_backward_term(std::int64_t largest_tensor, std::int64_t grad_bytes);

/// DDP's all-reduce buckets: a copy of every gradient (gradient_as_bucket_view = False).
Term ddp_buckets_term(std::int64_t params, std::int64_t grad_bytes);

/// DeepSpeed ZeRO-1/2 gradient reduction bucket: min(reduce_bucket_size, params)
/// elements of the gradient dtype (deepspeed v0.16 runtime/zero/config.py
/// reduce_bucket_size = 5e8).
Term zero_reduce_bucket_term(std::int64_t params, std::int64_t grad_bytes);

}  // namespace vram
