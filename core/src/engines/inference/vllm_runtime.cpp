// vLLM's fixed terms: the rotary cache held with the weights and the memory
// it requests. The non-torch increase is in vllm_comm.cpp, the CUDA graphs in
// vllm_graphs.cpp.
#include <cmath>

#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kRotarySource =
    "vllm/model_executor/layers/rotary_embedding/base.py _compute_cos_sin_cache (v0.19.0)";
constexpr std::string_view kRequestSource = "vllm/v1/worker/utils.py request_memory (v0.19.0)";

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

}  // namespace vram::vllm
