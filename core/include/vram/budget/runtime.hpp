// Budget category: runtime memory outside the framework's tensors.
//
// The CUDA context (driver state, kernel images of the loaded libraries) and
// the communication buffers of NCCL are not torch tensors, so
// torch.cuda.memory_allocated() never shows them, yet nvidia-smi does.
// PyTorch docs, "CUDA semantics — Memory management" (pytorch.org/docs/2.8/notes/cuda.html):
// "the CUDA context ... is not counted in memory_allocated".
#pragma once

#include "vram/budget/term.hpp"
#include "vram/gpu_arch.hpp"
#include "vram/units.hpp"

namespace vram {

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
/// H100: 276,824,064 + 270,532,608 = 547,356,672 B. On ROCm (`rocm` set) the
/// HIP runtime reserves no stack at start: the fixed part alone, with a range
/// of 0.5x to 2x (never measured on an AMD GPU).
Term driver_context_term(int compute_capability, int sm_count, RocmArch rocm = RocmArch::none);

/// One NCCL communicator's device state beyond its buffers: 0.28 GiB
/// (0.245-0.295 GiB), calibrated on the vLLM 0.19 H100 sweep.
Term nccl_communicator_state_term();

/// The context of one GPU before any tensor for an engine other than vLLM:
/// the driver context, plus one NCCL communicator where the GPUs talk through
/// torch.distributed (`nccl`: tensor parallel, DDP, FSDP, sequence parallel).
/// H100 with NCCL: 547,356,672 + 300,647,711 = 848,004,383 B.
Term engine_context_term(int compute_capability, int sm_count, RocmArch rocm, bool nccl);

/// PyTorch's BLAS workspaces, taken from the caching allocator at the first
/// matrix multiply and kept (so inside torch's peak), per GPU and stream:
///  - CUDA: cuBLAS's CUBLAS_WORKSPACE_CONFIG default, ":4096:8" on sm90 only
///    (8 chunks × 4 MiB = 32 MiB) and ":4096:2:16:8" elsewhere (2 × 4 MiB +
///    8 × 16 KiB = 8,519,680 B); Blackwell gets sm90's 32 MiB from PyTorch
///    2.11, so its figure carries that range. Unknown capability: sm90's.
///  - ROCm: hipBLASLt's 76 MiB, PyTorch's default GEMM path on CDNA 3 and 4;
///    hipBLAS's own workspace (128 MiB on MI300, gfx94x) exists only once a
///    GEMM runs through hipBLAS, so it widens the range, not the figure.
/// Sources: pytorch v2.6.0 aten/src/ATen/cuda/CublasHandlePool.cpp
/// parseChosenWorkspaceSize, aten/src/ATen/cuda/CUDABlas.cpp _parseChosenWorkspaceSize.
Term blas_workspace_term(int compute_capability, RocmArch rocm);


}  // namespace vram
