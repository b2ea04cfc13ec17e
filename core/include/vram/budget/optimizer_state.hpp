// Budget category: optimizer state and fp32 master weights.
//
// Sources: ZeRO (Rajbhandari et al. 2020, §3.1: mixed-precision Adam keeps an
// fp32 copy of the parameters, momentum and variance, 12Ψ bytes, K = 12);
// torch.optim.AdamW / SGD / Lion-style states are `zeros_like(param)`, i.e. in
// the parameter's dtype (pytorch v2.8 torch/optim/adamw.py `_init_group`);
// bitsandbytes v0.45 bitsandbytes/optim/optimizer.py Optimizer2State.init_state
// (uint8 state1/state2 plus one fp32 absmax per 256 elements each when
// block_wise; tensors under min_8bit_size = 4096 elements keep fp32 states;
// paged states live in CUDA unified memory, outside the PyTorch allocator);
// Adafactor (Shazeer & Stern 2018, §3: a matrix's second moment factored into
// a row and a column vector; transformers v4.56 optimization.py Adafactor keeps
// no first moment when beta1 is None, its default); Muon (K. Jordan 2024,
// kellerjordan.github.io/posts/muon; pytorch v2.9 torch/optim/_muon.py: one
// momentum buffer per 2-D parameter, zeros_like(grad), the update
// orthogonalised by five Newton–Schulz iterations in 16 bits, one matrix at a
// time), with AdamW for every other parameter as its frameworks pair them
// (deepspeed v0.19.6 runtime/engine.py MuonWithAuxAdam; torchtitan @b5bcd76
// flex_shard DistMuon beside AdamW).
#pragma once

#include <cstdint>

#include "vram/budget/term.hpp"
#include "vram/budget/trainable.hpp"
#include "vram/parallel/parallelism.hpp"
#include "vram/workloads.hpp"

namespace vram {

/// bitsandbytes: one fp32 absmax per this many elements of an 8-bit state.
inline constexpr std::int64_t kBnbStateBlock = 256;
/// bitsandbytes: tensors with fewer elements keep 32-bit states.
inline constexpr std::int64_t kBnbMin8bitSize = 4096;

/// Optimizer state of `set` under `opt`; `state_bytes` is the dtype of a
/// full-precision state (the parameter's, or fp32 beside master weights).
Term optimizer_state_term(const TrainableSet& set, Optimizer opt, std::int64_t state_bytes, Share share);

/// Moments of bitsandbytes 8-bit Adam/AdamW, block-wise with absmax.
Term adam8bit_state_term(const TrainableSet& set, Share share);

/// Adafactor: rows + cols fp32 per matrix, the full vector for 1-D tensors.
Term adafactor_state_term(const TrainableSet& set, Share share);

/// Muon on the hidden-layer matrices (one momentum of `momentum_bytes`), AdamW
/// on every other trainable parameter (two moments of `adam_bytes`), × share.
Term muon_state_term(const TrainableSet& set, std::int64_t momentum_bytes, std::int64_t adam_bytes, Share share);

/// How a framework runs Muon's Newton–Schulz iteration.
enum class NewtonSchulz : std::uint8_t {
  /// The quintic iteration on X (torch.optim.Muon, its nesterov update a new
  /// tensor in the gradient's dtype, X its bf16 copy): live at once, in 16
  /// bits, max(m·n + 5k², 4m·n + 2k²) for an m × n matrix, k = min(m, n).
  quintic,
  /// DeepSpeed's default "gram" iteration on R = X Xᵀ (in place on the
  /// gradient, X an fp16 copy): max(2m·n + 4k², m·n + 7k²) in 16 bits.
  gram,
};

/// The optimizer step's working set when Muon orthogonalises the largest
/// hidden matrix (`rows` × `cols`), its gradient in `grad_bytes`.
Term newton_schulz_term(std::int64_t rows, std::int64_t cols, std::int64_t grad_bytes, NewtonSchulz kernel);

/// The temporaries of torch.optim.AdamW's step over `set`, states in `state_bytes`, × share:
/// - fused: none (one kernel updates parameters and states in place);
/// - foreach (what torch.optim runs for CUDA parameters unless `fused` is asked): sqrt(exp_avg_sq)
///   is a new list of tensors, one per parameter of a device and dtype group, alive until the update;
/// - for-loop: one parameter at a time, its sqrt(exp_avg_sq) and that divided by the bias
///   correction at once: 2 × the largest tensor.
Term adamw_step_term(const TrainableSet& set, OptimizerImpl impl, std::int64_t state_bytes, Share share);

/// fp32 master copies of the trainable parameters under mixed precision: params × 4 B × share.
Term master_weights_term(std::int64_t params, Share share);

/// Moments per parameter that `opt` keeps at full precision (AdamW 2, SGD 0, ...).
std::int64_t full_precision_moments(Optimizer opt);

}  // namespace vram
