// Budget category: what a training step needs beyond states and activations:
// sharded units gathered for compute, QLoRA's dequantized base weight, and the
// PyTorch caching allocator's reserve above the live tensors.
//
// Sources: PyTorch FSDP2 (pytorch v2.8 torch/distributed/fsdp/_fully_shard:
// each wrapped unit — a decoder layer in torchtune and torchtitan — is
// all-gathered before use and the next one prefetched; its unsharded gradient
// is reduce-scattered after backward); bitsandbytes v0.45
// autograd/_functions.py MatMul4Bit (the NF4 weight is dequantized to the
// compute dtype for every matmul, forward and backward); PyTorch "CUDA
// semantics — memory management" (pytorch.org/docs/2.8/notes/cuda.html:
// the caching allocator keeps freed blocks reserved; sizes are rounded to
// 512 B and large blocks come from 2 MiB and 20 MiB segments, which fragment).
#pragma once

#include <cstdint>

#include "vram/budget/term.hpp"

namespace vram {

/// One sharded unit gathered in its stored layout (`param_bytes` per
/// parameter: 2 for bf16, about 0.52 for NF4), plus the one prefetched, plus
/// the unit's unsharded gradient (`grad_bytes`, 0 for a frozen unit):
/// unit params × (2 × param_bytes + grad_bytes).
Term sharded_unit_term(std::int64_t unit_params, double param_bytes, std::int64_t grad_bytes);

/// The largest quantized base weight, dequantized to the compute dtype.
/// DoRA's weight norm, rebuilt in each adapted module's forward (detached from
/// the graph, so freed after it): an in × in identity pushed through the
/// adapter, the adapter's out × in product, its scaled copy and the sum with
/// the base weight: (in² + 3 × out × in) × b for the largest adapted weight.
Term dora_norm_term(std::int64_t in, std::int64_t out, std::int64_t elem_bytes);

Term dequantized_weight_term(std::int64_t elements, std::int64_t elem_bytes);

/// The caching allocator's reserve over the peak of live tensors: a calibrated
/// fraction of the transient working set that churns through it (activations,
/// logits, gathered units); carries a range.
Term allocator_reserve_term(Bytes transient);

/// The fraction above, and its low and high ends.
inline constexpr double kAllocatorReserve = 0.10;
inline constexpr double kAllocatorReserveLow = 0.0;
inline constexpr double kAllocatorReserveHigh = 0.25;

}  // namespace vram
