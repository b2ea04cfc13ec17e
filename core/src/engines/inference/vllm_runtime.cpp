// vLLM's fixed terms: the rotary cache held with the weights and the memory
// it requests. The non-torch increase is in vllm_comm.cpp, the CUDA graphs in
// vllm_graphs.cpp.
#include <cmath>

#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kRotarySource =
    "vllm/model_executor/layers/rotary_embedding/base.py _compute_cos_sin_cache (v0.19.0)";
constexpr std::string_view kMinimaxRotarySource =
    "vllm/model_executor/models/minimax_text_01.py MiniMaxText01DecoderLayer (max_position_embeddings = "
    "min(config.max_position_embeddings, config.max_model_len)); rotary_embedding/base.py _compute_cos_sin_cache";
constexpr std::string_view kRequestSource = "vllm/v1/worker/utils.py request_memory (v0.19.0)";

}  // namespace

Term rotary_cache_term(const Architecture& a, std::int64_t b, std::int64_t max_model_len) {
  // MiniMax's decoder layers build their rotary embedding for min(max_position_embeddings,
  // max_model_len) positions (vllm/model_executor/models/minimax_text_01.py MiniMaxText01DecoderLayer).
  if (a.family == Family::minimax && max_model_len > 0 && max_model_len < a.max_positions) {
    return Term::product({Factor::of(max_model_len, "positions (max_model_len)"), Factor::of(a.rotary_dim, "rotary dims"),
                          Factor::bytes(b)})
        .cite(kMinimaxRotarySource)
        .shown_in(kMiB);
  }
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
