#include "vram/budget/runtime.hpp"

#include "vram/io/render.hpp"

namespace vram {

namespace {
constexpr std::string_view kContextSource =
    "vLLM 0.19.0 H100 sweep, init_non_torch_GiB (llm-d-incubation/llm-d-planner @ d3121e059da8, "
    "accuracy/results/v0.19.0/results_raw.csv): 0.51 GiB in all 22 single-GPU runs, 1.43-1.53 GiB with TP/PP "
    "on dense models and 1.99-2.05 GiB on MoE models (13 runs); range: the lowest and highest of those runs, "
    "widened by the log's rounding to 0.01 GiB";
}  // namespace

Term cuda_context(bool multi_gpu) {
  if (multi_gpu) {
    return Term::product({Factor::gib(1.51)}, Rounding::nearest)
        .named("driver context, library kernels and NCCL communicators at start")
        .cite(kContextSource)
        .within(gib_range(1.425, 2.055));
  }
  return Term::product({Factor::gib(0.51)}, Rounding::nearest)
      .named("driver context and library kernels at start")
      .cite(kContextSource)
      .within(gib_range(0.505, 0.515));
}

Component cuda_context_component(bool multi_gpu, bool explain) {
  Component c = io::component("cuda_context", "CUDA context", cuda_context(multi_gpu), explain);
  c.outside_reservation = true;  // created before any engine reserves memory
  c.torch_allocator = false;
  return c;
}

}  // namespace vram
