#include "vram/budget/runtime.hpp"

namespace vram {

RuntimeTerm cuda_context(bool multi_gpu) {
  const char* src =
      "vLLM 0.19.0 H100 sweep, init_non_torch_GiB (llm-d-incubation/llm-d-planner @ d3121e059da8, "
      "accuracy/results/v0.19.0/results_raw.csv): 0.51 GiB single-GPU runs, 1.43-1.53 GiB with TP/PP";
  return multi_gpu ? RuntimeTerm{Bytes::from_fraction(1.51, kGiB), src}
                   : RuntimeTerm{Bytes::from_fraction(0.51, kGiB), src};
}

Component cuda_context_component(bool multi_gpu, bool explain) {
  const RuntimeTerm t = cuda_context(multi_gpu);
  Component c{"cuda_context", "CUDA context", t.bytes, "", ""};
  if (explain) {
    c.formula = std::string(multi_gpu ? "driver context, library kernels and NCCL communicators at start"
                                      : "driver context and library kernels at start") +
                " = " + format_exact(t.bytes) + " ≈ " + format_iec(t.bytes);
    c.source = t.source;
  }
  return c;
}

}  // namespace vram
