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

}  // namespace vram
