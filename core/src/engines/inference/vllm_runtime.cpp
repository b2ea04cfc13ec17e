// vLLM's fixed and calibrated terms: the rotary cache held with the weights,
// the memory it requests, the non-torch increase of the profiling run and the
// CUDA graph pools captured after it.
#include <cmath>

#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kRotarySource =
    "vllm/model_executor/layers/rotary_embedding/base.py _compute_cos_sin_cache (v0.19.0)";
constexpr std::string_view kRequestSource = "vllm/v1/worker/utils.py request_memory (v0.19.0)";

// Ranges: the lowest and highest "non-torch forward increase memory" of the
// sweep's runs of each layout, widened by the log's rounding to 0.01 GiB.
constexpr std::string_view kNonTorchSource =
    "vLLM 0.19.0 startup logs, H100 sweep (llm-d-incubation/llm-d-planner @ d3121e059da8, "
    "accuracy/results/v0.19.0/logs); range: the lowest and highest non-torch increase of the sweep's runs of this "
    "layout (22 single-GPU runs 0.24-0.46 GiB, 11 tensor-parallel runs 2.07-2.21 GiB, 2 pipeline-parallel runs "
    "0.07 GiB), widened by the log's rounding to 0.01 GiB";
constexpr std::string_view kGraphSource =
    "vLLM 0.19.0 startup logs, H100 sweep (llm-d-incubation/llm-d-planner @ d3121e059da8, "
    "accuracy/results/v0.19.0/logs); range: measured / estimated CUDA graph memory over the sweep's runs, "
    "0.74-1.13 over its 31 dense runs, 0.97-2.01 over its 4 MoE runs";

}  // namespace

Term rotary_cache_term(const Architecture& a, std::int64_t b) {
  return Term::product({Factor::of(a.max_positions, "positions"), Factor::of(a.rotary_dim, "rotary dims"),
                        Factor::bytes(b)})
      .cite(kRotarySource)
      .shown_in(kMiB);
}

Bytes rotary_cache_bytes(const Architecture& a, std::int64_t b) {
  return rotary_cache_term(a, b).bytes;
}

Term requested_memory_term(Bytes total, double utilization) {
  return Term::product({Factor::of(total.in_bytes(), "B of GPU memory"), Factor::real(utilization, "gpu_memory_utilization")},
                       Rounding::ceil)
      .cite(kRequestSource);
}

Term non_torch_term(std::int64_t tp, std::int64_t pp) {
  if (tp > 1) {
    return Term::product({Factor::gib(2.1)}, Rounding::nearest)
        .named("cuBLAS/attention workspaces + NCCL and custom all-reduce buffers (tensor parallel)")
        .noted("measured per engine version")
        .cite(kNonTorchSource)
        .within(gib_range(2.065, 2.215));
  }
  if (pp > 1) {
    return Term::product({Factor::gib(0.07)}, Rounding::nearest)
        .named("cuBLAS/attention workspaces (pipeline parallel)")
        .noted("measured per engine version")
        .cite(kNonTorchSource)
        .within(gib_range(0.065, 0.075));
  }
  return Term::product({Factor::gib(0.25)}, Rounding::nearest)
      .named("cuBLAS/attention workspaces")
      .noted("measured per engine version")
      .cite(kNonTorchSource)
      .within(gib_range(0.235, 0.465));
}

Bytes non_torch_increase(std::int64_t tp, std::int64_t pp) {
  return non_torch_term(tp, pp).bytes;
}

Term cuda_graph_term(bool eager, std::int64_t layers, bool moe) {
  if (eager) return Term::given(Bytes{}).named("none with enforce_eager").cite(kGraphSource);
  // The fit is one figure, 0.39 + 0.016 × layers GiB, rounded once: the
  // per-layer part is what remains after the fixed part's own rounding.
  const Bytes total = Bytes::from_fraction(0.39 + 0.016 * static_cast<double>(layers), kGiB);
  Term fixed = Term::product({Factor::gib(0.39)}, Rounding::nearest);
  Term per_layer = Term::shown_as(total - fixed.bytes, {Factor::gib(0.016), Factor::of(layers, "layers")});
  return Term::sum(terms(std::move(fixed), std::move(per_layer)))
      .noted("captured after the KV cache, outside gpu_memory_utilization (0 with enforce_eager)")
      .cite(kGraphSource)
      .within(moe ? ratio_range(total, 0.97, 2.01) : ratio_range(total, 0.74, 1.13));
}

Bytes cuda_graph_bytes(bool eager, std::int64_t layers) {
  return cuda_graph_term(eager, layers, false).bytes;
}

}  // namespace vram::vllm
