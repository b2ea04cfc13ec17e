// vLLM's CUDA graphs: which batch sizes it captures (per version, cut by the
// scheduler limits or given as cudagraph_capture_sizes), in which mode, and
// the pool those graphs hold after the KV cache is allocated.
#include <algorithm>

#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kGraphSource =
    "capture sizes: vllm/config/vllm.py _set_cudagraph_sizes (v0.11+: [1, 2, 4] + range(8, 256, 8) + range(256, "
    "max + 1, 16), max = min(2 × max_num_seqs, 512, max_num_batched_tokens); v0.7-0.10 V1: [1, 2, 4] + range(8, 513, "
    "8) up to max_num_batched_tokens, piecewise; V0: [1, 2, 4] + range(8, 257, 8) up to max_num_seqs, full graphs); "
    "mode: vllm/config/compilation.py CUDAGraphMode (FULL_AND_PIECEWISE default from v0.11). Per-graph cost: vLLM "
    "0.19.0 startup logs, H100 sweep (llm-d-incubation/llm-d-planner @ d3121e059da8): 0.39 GiB + 0.016 GiB per layer "
    "over its 102 graphs (51 sizes, piecewise and full); range: measured / estimated over the sweep, 0.74-1.13 on "
    "31 dense runs, 0.97-2.01 on 4 MoE runs; the pool scaled by the largest capture size (small capture sets: "
    "'Estimated CUDA graph memory: 0.09 GiB' for 5 graphs up to 16 tokens, noonghunna/club-3090#434). From v0.21 the graphs are profiled and taken out of the KV budget "
    "(startup log: 'CUDA graph memory profiling is enabled (default since v0.21.0)', gpustack/runner#251, "
    "noonghunna/club-3090#434)";

/// Bytes one captured graph holds per decoder layer (0.016 GiB over 102 graphs).
constexpr std::int64_t kPerGraphLayer = 168'430;

void keep_up_to(std::vector<std::int64_t>& sizes, std::int64_t limit) {
  std::erase_if(sizes, [&](std::int64_t x) { return x > limit; });
}

std::vector<std::int64_t> default_sizes(const Version& v, std::int64_t max_seqs, std::int64_t max_tokens) {
  std::vector<std::int64_t> sizes{1, 2, 4};
  if (!v.v1_engine()) {
    for (std::int64_t x = 8; x <= 256; x += 8) sizes.push_back(x);
    keep_up_to(sizes, (max_seqs + 7) / 8 * 8);  // V0 pads the batch to a multiple of 8
    return sizes;
  }
  if (!v.at_least(0, 11)) {
    for (std::int64_t x = 8; x <= 512; x += 8) sizes.push_back(x);
    keep_up_to(sizes, max_tokens);
    return sizes;
  }
  const std::int64_t top = std::min({checked::mul(2, max_seqs), std::int64_t{512}, max_tokens});
  for (std::int64_t x = 8; x < std::min<std::int64_t>(top + 1, 256); x += 8) sizes.push_back(x);
  for (std::int64_t x = 256; x <= top; x += 16) sizes.push_back(x);
  keep_up_to(sizes, top);
  return sizes;
}

}  // namespace

bool graphs_profiled(const Version& v) {
  return v.v1_engine() && v.at_least(0, 21);
}

GraphMode graph_mode(const VllmSettings& s, const Version& v) {
  if (s.enforce_eager) return GraphMode::none;
  if (!v.v1_engine()) return GraphMode::full;
  return v.at_least(0, 11) ? GraphMode::full_and_piecewise : GraphMode::piecewise;
}

std::vector<std::int64_t> capture_sizes(const VllmSettings& s, const Version& v, std::int64_t max_num_seqs,
                                        std::int64_t max_num_batched_tokens) {
  if (graph_mode(s, v) == GraphMode::none) return {};
  if (s.cudagraph_capture_sizes.empty()) return default_sizes(v, max_num_seqs, max_num_batched_tokens);
  std::vector<std::int64_t> sizes = s.cudagraph_capture_sizes;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  keep_up_to(sizes, max_num_batched_tokens);
  return sizes;
}

std::int64_t captured_graphs(GraphMode mode, const std::vector<std::int64_t>& sizes, std::int64_t max_num_seqs) {
  const auto n = static_cast<std::int64_t>(sizes.size());
  if (mode != GraphMode::full_and_piecewise) return mode == GraphMode::none ? 0 : n;
  // Full graphs only for uniform decode batches: one token per sequence, up to max_num_seqs.
  const auto decode = std::count_if(sizes.begin(), sizes.end(), [&](std::int64_t x) { return x <= max_num_seqs; });
  return n + static_cast<std::int64_t>(decode);
}

Term cuda_graph_term(std::int64_t graphs, std::int64_t layers, bool moe, std::int64_t largest) {
  if (graphs == 0) return Term::given(Bytes{}).named("no CUDA graphs (enforce_eager)").cite(kGraphSource);
  // The shared pool holds the intermediate buffers of the largest capture; measured at 512 tokens.
  Factors pool{Factor::gib(0.39, "GiB shared graph pool at 512 tokens")};
  if (largest != 512) pool.push_back(Factor::real(static_cast<double>(largest) / 512.0, "(largest capture / 512)"));
  Term fixed = Term::product(std::move(pool), Rounding::nearest);
  Term per_graph = Term::product(
      {Factor::of(graphs, "graphs"), Factor::of(layers, "layers"), Factor::bytes(kPerGraphLayer, "per layer per graph")});
  const Bytes total = fixed.bytes + per_graph.bytes;
  return Term::sum(terms(std::move(fixed), std::move(per_graph)))
      .noted("captured after the KV cache, outside gpu_memory_utilization")
      .cite(kGraphSource)
      .within(moe ? ratio_range(total, 0.97, 2.01) : ratio_range(total, 0.74, 1.13));
}

}  // namespace vram::vllm
