#include "vram/budget/runtime.hpp"

#include <string_view>

namespace vram {

namespace {
constexpr std::string_view kContextSource =
    "vLLM 0.19.0 H100 sweep, init_non_torch_GiB (llm-d-incubation/llm-d-planner @ d3121e059da8, "
    "accuracy/results/v0.19.0/results_raw.csv): 0.51 GiB in all 22 single-GPU runs, 1.43-1.53 GiB with TP/PP "
    "on dense models and 1.99-2.05 GiB on MoE models (13 runs); range: the lowest and highest of those runs, "
    "widened by the log's rounding to 0.01 GiB";
constexpr std::string_view kDriverSource =
    "CUDA Runtime API 12.8 cudaDeviceSetLimit (cudaLimitStackSize: 1 KiB per thread by default, local memory "
    "reserved for every resident thread); CUDA C++ Programming Guide 12.8, technical specifications per compute "
    "capability (resident threads per SM); fixed part: vLLM 0.19.0 H100 sweep init_non_torch_GiB 0.51 GiB "
    "(llm-d-incubation/llm-d-planner @ d3121e059da8) less the H100's stack reservation";
constexpr std::string_view kHipContextSource =
    "ROCm/ROCR-Runtime src/core/runtime/amd_gpu_agent.cpp AcquireQueueScratch (scratch memory acquired for a queue "
    "when a dispatch needs it, not at context creation); fixed part: the sm90 figure of the CUDA driver context "
    "(vLLM 0.19.0 H100 sweep, llm-d-incubation/llm-d-planner @ d3121e059da8), no AMD GPU measured";
constexpr std::string_view kCommunicatorSource =
    "torch.distributed ProcessGroupNCCL (one NCCL communicator for the default group at its first collective); "
    "device state per communicator from the vLLM 0.19.0 H100 sweep's init_non_torch (llm-d-incubation/"
    "llm-d-planner @ d3121e059da8: 1.43-1.53 GiB with 2 communicators) less the driver context and ring buffers: "
    "0.245-0.295 GiB";
constexpr std::string_view kCublasSource =
    "pytorch v2.6.0 aten/src/ATen/cuda/CublasHandlePool.cpp parseChosenWorkspaceSize (CUBLAS_WORKSPACE_CONFIG "
    "default \":4096:8\" when major == 9 && minor == 0, \":4096:2:16:8\" otherwise; Blackwell joins sm90 in "
    "pytorch#175344, PyTorch 2.11) and getCurrentCUDABlasHandle (one workspace per handle and stream, from the "
    "caching allocator)";
constexpr std::string_view kRocmBlasSource =
    "pytorch v2.6.0 aten/src/ATen/cuda/CublasHandlePool.cpp parseChosenWorkspaceSize (ROCm: \"32MiB default, "
    "128MiB for MI300\", gfx94x; gfx95x joins it in later releases) and aten/src/ATen/cuda/CUDABlas.cpp "
    "_parseChosenWorkspaceSize (\"Use 76 MB for hipBLASLt\"; hipBLASLt is the default GEMM path on gfx90a and "
    "gfx94x)";

/// hipBLASLt's workspace, PyTorch's GEMM path on CDNA 3 and 4 alike; hipBLAS's
/// own (128 MiB on gfx94x, 32 MiB on gfx95x in PyTorch 2.6, 128 MiB later)
/// exists only once a GEMM runs through hipBLAS, so it is the range's upper end.
Term rocm_blas_workspace_term() {
  const std::int64_t hipblas_mib = 128;  // the larger of the architectures' figures, by release
  Term lt = Term::product({Factor::mib(76, "MiB hipBLASLt workspace")})
                .named("BLAS workspace (ROCm)")
                .noted("plus hipBLAS's own {} MiB if a GEMM runs through hipBLAS (the range)", {hipblas_mib})
                .cite(kRocmBlasSource);
  lt.range = ByteRange{lt.bytes, lt.bytes + Bytes::of(hipblas_mib << 20)};
  return lt;
}

}  // namespace

Term blas_workspace_term(int cc, RocmArch rocm) {
  if (rocm != RocmArch::none) return rocm_blas_workspace_term();
  if (cc <= 0 || cc == 90) {
    return Term::product({Factor::of(8, cc <= 0 ? "chunks (sm90 assumed: compute capability unknown)" : "chunks (sm90)"),
                          Factor::mib(4, "MiB")})
        .named("cuBLAS workspace")
        .cite(kCublasSource);
  }
  Term t = Term::sum(terms(Term::product({Factor::of(2, "chunks"), Factor::mib(4, "MiB")}),
                           Term::product({Factor::of(8, "chunks"), Factor::bytes(16 * 1024)})))
               .named("cuBLAS workspace")
               .cite(kCublasSource);
  if (cc >= 100) t.range = ByteRange{t.bytes, Bytes::of(std::int64_t{32} << 20)};  // 32 MiB from PyTorch 2.11
  return t;
}

int max_threads_per_sm(int cc) {
  switch (cc) {
    case 75: return 1024;
    case 86:
    case 87:
    case 89:
    case 120:
    case 121: return 1536;
    default: return 2048;
  }
}

Term driver_context_term(int cc, int sms, RocmArch rocm) {
  const Bytes fixed = Bytes::of(std::int64_t{258} << 20);
  if (rocm != RocmArch::none) {
    // HIP: no stack reservation at start (the runtime acquires a queue's scratch when a
    // dispatch needs it); the fixed part is sm90's, never measured on an AMD GPU.
    return Term::product({Factor::mib(258, "MiB runtime state and kernel images")})
        .within(ratio_range(fixed, 0.5, 2.0))
        .named("HIP runtime context")
        .noted("the fixed part measured on sm90 only; scratch is acquired per queue at dispatch")
        .cite(kHipContextSource);
  }
  const bool assumed = cc <= 0 || sms <= 0;
  const int capability = assumed ? 90 : cc;
  const int count = assumed ? 132 : sms;
  Term stack = Term::product({Factor::of(count, assumed ? "SMs (H100 assumed)" : "SMs"),
                              Factor::of(max_threads_per_sm(capability), "resident threads per SM"),
                              Factor::bytes(1024, "default stack")})
                   .named("stack local memory");
  const ByteRange measured{gib_range(0.505, 0.515).low - Bytes::of(276'824'064),
                           gib_range(0.505, 0.515).high - Bytes::of(276'824'064)};
  Term rest = Term::product({Factor::mib(258, "MiB driver state and kernel images")})
                  .within(capability == 90 ? measured : ratio_range(fixed, 0.5, 1.5));
  return Term::sum(terms(std::move(stack), std::move(rest)))
      .named("driver context")
      .noted(capability == 90 ? "measured on sm90" : "the fixed part measured on sm90 only")
      .cite(kDriverSource);
}

Term nccl_communicator_state_term() {
  return Term::product({Factor::gib(0.28, "GiB NCCL communicator device state")}, Rounding::nearest)
      .within(gib_range(0.245, 0.295))
      .cite(kCommunicatorSource);
}

Term engine_context_term(int cc, int sms, RocmArch rocm, bool nccl) {
  if (!nccl) return driver_context_term(cc, sms, rocm);
  return Term::sum(terms(driver_context_term(cc, sms, rocm), nccl_communicator_state_term().named("NCCL communicator")))
      .named("context");
}

}  // namespace vram
