// Budget category: runtime memory outside the framework's tensors.
//
// The CUDA context (driver state, kernel images of the loaded libraries) and
// the communication buffers of NCCL are not torch tensors, so
// torch.cuda.memory_allocated() never shows them, yet nvidia-smi does.
// PyTorch docs, "CUDA semantics — Memory management" (pytorch.org/docs/2.8/notes/cuda.html):
// "the CUDA context ... is not counted in memory_allocated".
#pragma once

#include "vram/budget/term.hpp"
#include "vram/report.hpp"
#include "vram/units.hpp"

namespace vram {

/// CUDA context plus library kernels at engine start, per GPU, before any
/// tensor: 0.51 GiB for one GPU; 1.51 GiB once NCCL is initialised for
/// tensor or pipeline parallelism ("init_non_torch" in the public vLLM 0.19
/// H100 sweep, llm-d-planner accuracy/results/v0.19.0/results_raw.csv).
/// Calibrated: the term carries the spread of that sweep as its range.
Term cuda_context(bool multi_gpu);

/// The CUDA context as a report line (formula and source filled when `explain`).
Component cuda_context_component(bool multi_gpu, bool explain);

/// Resident threads one SM can hold, by compute capability (× 10): 1024 on
/// sm75, 1536 on sm86/87/89/120, 2048 elsewhere (CUDA C++ Programming Guide,
/// "Technical Specifications per Compute Capability", CUDA 12.8).
int max_threads_per_sm(int compute_capability);

/// The driver context of one GPU before any tensor: the local memory it
/// reserves for the default 1 KiB stack of every resident thread (SMs × threads
/// per SM × 1 KiB; cudaLimitStackSize, CUDA Runtime API 12.8) plus driver state
/// and the kernel images loaded at start (258 MiB, calibrated on sm90: 0.51 GiB
/// in the vLLM 0.19 H100 sweep less the H100's 132 × 2048 × 1 KiB).
/// Unknown capability or SM count: the H100's, said in the formula.
/// H100: 276,824,064 + 270,532,608 = 547,356,672 B.
Term driver_context_term(int compute_capability, int sm_count);

/// A context term (an engine's own composition) as a report line.
Component cuda_context_component(Term context, bool explain);

}  // namespace vram
