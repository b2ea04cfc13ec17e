#include "vram/budget/runtime.hpp"

namespace vram {

RuntimeTerm cuda_context(bool multi_gpu) {
  const char* src =
      "vLLM 0.19.0 H100 sweep, init_non_torch_GiB (llm-d-incubation/llm-d-planner @ d3121e059da8, "
      "accuracy/results/v0.19.0/results_raw.csv): 0.51 GiB single-GPU runs, 1.43-1.53 GiB with TP/PP";
  return multi_gpu ? RuntimeTerm{Bytes::from_fraction(1.51, kGiB), src}
                   : RuntimeTerm{Bytes::from_fraction(0.51, kGiB), src};
}

}  // namespace vram
