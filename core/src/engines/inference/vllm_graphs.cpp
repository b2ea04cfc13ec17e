// vLLM's CUDA graphs: which batch sizes it captures (per version, cut by the
// scheduler limits or given as cudagraph_capture_sizes), in which mode, and
// the pool those graphs hold after the KV cache is allocated.
#include <algorithm>

#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kGraphSource =
    "capture sizes: vllm/config/vllm.py _set_cudagraph_sizes (v0.11.1+: [1, 2, 4] + range(8, 256, 8) + range(256, "
    "max + 1, 16), max = min(2 × max_num_seqs, 512, max_num_batched_tokens), vllm-project/vllm#26016; v0.10.0-0.11.0: "
    "[1, 2, 4] + range(8, max + 1, 8) with the same max (vllm/config.py cuda_graph_sizes default [min(max_num_seqs * "
    "2, 512)]); v0.7-0.9 V1: [1, 2, 4] + range(8, 513, 8) up to max_num_batched_tokens, piecewise; V0: [1, 2, 4] + "
    "range(8, 257, 8) up to max_num_seqs, full graphs); "
    "mode: vllm/config/compilation.py CUDAGraphMode (FULL_AND_PIECEWISE default from v0.11). Per-graph cost: vLLM "
    "0.19.0 startup logs, H100 sweep (llm-d-incubation/llm-d-planner @ d3121e059da8): 0.39 GiB + 0.016 GiB per layer "
    "over its 102 graphs (51 sizes, piecewise and full); range: measured / estimated over the sweep, 0.74-1.13 on "
    "31 dense runs, 0.97-2.01 on 4 MoE runs; the pool scaled by the largest capture size (small capture sets: "
    "'Estimated CUDA graph memory: 0.09 GiB' for 5 graphs up to 16 tokens, noonghunna/club-3090#434). From v0.21 the graphs are profiled and taken out of the KV budget "
    "(startup log: 'CUDA graph memory profiling is enabled (default since v0.21.0)', gpustack/runner#251, "
    "noonghunna/club-3090#434); not on ROCm, where vllm/v1/worker/gpu_worker.py profiles graphs only when "
    "current_platform.is_cuda() (vllm-project/vllm#36720)";

constexpr std::string_view kSplitSource =
    "vllm/v1/attention/backends/flash_attn.py FlashAttentionMetadataBuilder (FA3, full CUDA graphs: split-KV "
    "accumulators preallocated as [splits, tokens, heads, head dim] in fp32), vllm/envs.py "
    "VLLM_FLASH_ATTN_MAX_NUM_SPLITS_FOR_CUDA_GRAPH = 32 (v0.11+, PR #25274); vLLM 0.19 H100 logs: 'Estimated FULL "
    "CUDA graph memory: 260.00 MiB first-capture' for 32 heads × 128, 228 MiB for 28 heads, 328 MiB for 40, 132 and "
    "70 MiB at TP 2 and 4 (llm-d-planner @ d3121e059da8)";

/// Bytes one captured graph holds per decoder layer (0.016 GiB over 102 graphs).
constexpr std::int64_t kPerGraphLayer = 168'430;

void keep_up_to(std::vector<std::int64_t>& sizes, std::int64_t limit) {
  std::erase_if(sizes, [&](std::int64_t x) { return x > limit; });
}

std::vector<std::int64_t> default_sizes(const Version& v, std::int64_t max_seqs, std::int64_t max_tokens) {
  std::vector<std::int64_t> sizes;
  sizes.reserve(3 + 64);  // every list below: [1, 2, 4] and at most 64 more
  sizes.assign({1, 2, 4});
  if (!v.v1_engine()) {
    for (std::int64_t x = 8; x <= 256; x += 8) sizes.push_back(x);
    keep_up_to(sizes, (max_seqs + 7) / 8 * 8);  // V0 pads the batch to a multiple of 8
    return sizes;
  }
  if (!v.at_least(0, 10)) {
    for (std::int64_t x = 8; x <= 512; x += 8) sizes.push_back(x);
    keep_up_to(sizes, max_tokens);
    return sizes;
  }
  if (!v.at_least(0, 12) && !(v.minor == 11 && v.patch >= 1)) {  // v0.10.0 to v0.11.0: steps of 8
    const std::int64_t top = std::min({checked::mul(2, max_seqs), std::int64_t{512}, max_tokens});
    for (std::int64_t x = 8; x <= top; x += 8) sizes.push_back(x);
    keep_up_to(sizes, top);
    return sizes;
  }
  const std::int64_t top = std::min({checked::mul(2, max_seqs), std::int64_t{512}, max_tokens});
  for (std::int64_t x = 8; x < std::min<std::int64_t>(top + 1, 256); x += 8) sizes.push_back(x);
  for (std::int64_t x = 256; x <= top; x += 16) sizes.push_back(x);
  keep_up_to(sizes, top);
  return sizes;
}

}  // namespace

bool graphs_profiled(const Version& v, RocmArch rocm) {
  return v.v1_engine() && v.at_least(0, 21) && rocm == RocmArch::none;
}

GraphMode graph_mode(const VllmSettings& s, const Version& v) {
  if (s.enforce_eager) return GraphMode::none;
  if (s.cudagraph_mode) return *s.cudagraph_mode;
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
  // Full decode graphs only for uniform decode batches: one token per sequence, up to max_num_seqs.
  const auto decode = static_cast<std::int64_t>(
      std::count_if(sizes.begin(), sizes.end(), [&](std::int64_t x) { return x <= max_num_seqs; }));
  switch (mode) {
    case GraphMode::none: return 0;
    case GraphMode::full:
    case GraphMode::piecewise: return n;
    case GraphMode::full_decode_only: return decode;
    case GraphMode::full_and_piecewise: return n + decode;
  }
  return n;
}

Term cuda_graph_term(std::int64_t graphs, std::int64_t layers, bool moe, std::int64_t largest, std::int64_t b,
                     RocmArch rocm) {
  if (graphs == 0) return Term::given(Bytes{}).named("no CUDA graphs (enforce_eager)").cite(kGraphSource);
  // The shared pool holds the intermediate buffers of the largest capture, in the activation dtype;
  // measured at 512 tokens in bf16 (0.39 GiB on Llama-3.1-8B less its 270,532,608 B of FA3 split-KV
  // accumulators; the fp32 run's pool is about twice the bf16 one in the same sweep).
  Factors pool{Factor::gib(0.138, "GiB shared graph pool at 512 tokens in 16-bit")};
  const double scale = static_cast<double>(largest) / 512.0 * static_cast<double>(b) / 2.0;
  if (scale != 1.0) pool.push_back(Factor::real(scale, "(largest capture / 512 × activation bytes / 2)"));
  Term fixed = Term::product(std::move(pool), Rounding::nearest);
  Term per_graph = Term::product(
      {Factor::of(graphs, "graphs"), Factor::of(layers, "layers"), Factor::bytes(kPerGraphLayer, "per layer per graph")});
  const Bytes total = fixed.bytes + per_graph.bytes;
  return Term::sum(terms(std::move(fixed), std::move(per_graph)))
      .noted("captured after the KV cache, outside gpu_memory_utilization")
      .cite(kGraphSource)
      .within(rocm != RocmArch::none ? ratio_range(total, 0.5, 2.0)
              : moe                   ? ratio_range(total, 0.97, 2.01)
                                      : ratio_range(total, 0.74, 1.13));
}

Term fa3_split_buffers_term(const Architecture& a, std::int64_t tp, std::int64_t largest_decode, std::int64_t b,
                            int compute_capability, RocmArch rocm) {
  const bool hopper = rocm == RocmArch::none && (compute_capability == 0 || compute_capability == 90);
  if (!hopper || b == 4 || largest_decode == 0 || a.heads == 0)
    return Term::given(Bytes{}).named("no FA3 split-KV accumulators");
  const std::int64_t dim = a.kv_lora_rank > 0 ? a.kv_lora_rank : (a.v_head_dim > 0 ? a.v_head_dim : a.head_dim);
  const Factor splits = Factor::of(32, "splits");
  const Factor tokens = Factor::of(largest_decode, "tokens (largest full graph)");
  const Factor heads = Factor::of(std::max<std::int64_t>(1, a.heads / tp), "heads");
  return Term::sum(terms(Term::product({splits, tokens, heads, Factor::of(dim, "dims"), Factor::bytes(4, "fp32 out")}),
                         Term::product({splits, tokens, heads, Factor::bytes(4, "fp32 log-sum-exp")})))
      .named("FA3 split-KV accumulators of the full decode graphs")
      .cite(kSplitSource)
      .shown_in(kMiB);
}

}  // namespace vram::vllm
