#include "vram/engines/vllm.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "vram/budget/activations.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/io/json_writer.hpp"

namespace vram::vllm {

namespace {

constexpr const char* kWorkerSource =
    "vllm/v1/worker/gpu_worker.py determine_available_memory, vllm/utils/mem_utils.py memory_profiling (v0.19.0)";
constexpr const char* kKvSource =
    "vllm/v1/core/kv_cache_utils.py get_kv_cache_config_from_groups, get_max_concurrency_for_kv_cache_config (v0.19.0)";
constexpr const char* kSweepSource =
    "vLLM 0.19.0 startup logs, H100 sweep (llm-d-incubation/llm-d-planner @ d3121e059da8, "
    "accuracy/results/v0.19.0/logs)";

std::string fmt(double v) {
  return format_decimal(v, 2);
}

}  // namespace

Version parse_version(const std::string& text) {
  Version v;
  if (text.empty()) return v;
  int ma = 0, mi = 0, pa = 0;
  const int n = std::sscanf(text.c_str(), "%d.%d.%d", &ma, &mi, &pa);
  if (n >= 2) {
    v.major = ma;
    v.minor = mi;
    v.patch = n >= 3 ? pa : 0;
  }
  return v;
}

SchedulerLimits scheduler_limits(const VllmSettings& s, const Version& v, const GpuChoice& gpu, std::int64_t context) {
  SchedulerLimits l{};
  if (!v.v1_engine()) {
    // V0 schedules a whole prompt at once unless chunked prefill is on, which it
    // is by default only past 32,768 tokens: max_num_batched_tokens =
    // max(max_model_len, 2048), else 2048; max_num_seqs = 256 (vllm/engine/arg_utils.py, v0.6.4).
    l.max_num_batched_tokens = context > 32768 ? 2048 : std::max<std::int64_t>(context, 2048);
    l.max_num_seqs = 256;
    l.why = context > 32768 ? "V0 defaults (v<0.8) with chunked prefill past 32k: 2048 tokens, 256 sequences"
                            : "V0 defaults (v<0.8): max(max_model_len, 2048) tokens, 256 sequences";
  } else if (v.at_least(0, 10)) {
    // Since v0.10 the defaults depend on the device: GPUs with at least 70 GiB,
    // A100s excepted, get 8192 batched tokens and 1024 sequences for `vllm serve`
    // (vllm/engine/arg_utils.py EngineArgs.get_batch_defaults, v0.19.0).
    std::string name = gpu.name;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool large = gpu.memory >= Bytes::from(70, kGiB) && name.find("a100") == std::string::npos;
    l.max_num_batched_tokens = large ? 8192 : 2048;
    l.max_num_seqs = large ? 1024 : 256;
    l.why = large ? "vllm serve defaults for GPUs with ≥ 70 GiB: 8192 tokens, 1024 sequences"
                  : "vllm serve defaults for GPUs under 70 GiB or A100s: 2048 tokens, 256 sequences";
  } else {
    l.max_num_batched_tokens = 2048;
    l.max_num_seqs = 256;
    l.why = "V1 vllm serve defaults (v0.8–0.9): 2048 tokens, 256 sequences";
  }
  if (s.max_num_batched_tokens) {
    l.max_num_batched_tokens = *s.max_num_batched_tokens;
    l.why = "as set";
  }
  if (s.max_num_seqs) l.max_num_seqs = *s.max_num_seqs;
  return l;
}

std::vector<std::int64_t> pipeline_partition(std::int64_t layers, std::int64_t stages) {
  std::vector<std::int64_t> parts(static_cast<std::size_t>(stages), layers / stages);
  const std::int64_t remaining = layers % stages;
  for (std::int64_t i = 2; i < remaining + 2; ++i) parts[static_cast<std::size_t>(stages - i)] += 1;
  return parts;
}

Bytes rotary_cache_bytes(const Architecture& a, std::int64_t elem_bytes) {
  if (a.rotary_dim == 0 || a.max_positions == 0) return Bytes{};
  return Bytes::of(a.max_positions * a.rotary_dim * elem_bytes);
}

namespace {

using TypeCount = KvLayout::Type;

/// Layers per attention type (kind and window) in [first, end); Mamba layers hold no pages.
std::vector<TypeCount> attention_types(const Architecture& a, std::int32_t first, std::int32_t end) {
  std::vector<TypeCount> types;
  const auto n = static_cast<std::int32_t>(a.layer_specs.size());
  for (std::int32_t i = std::max(0, first); i < std::min(end, n); ++i) {
    const auto& l = a.layer_specs[i];
    if (l.kind == LayerKind::mamba || l.kind == LayerKind::cross_attention) continue;
    const bool windowed = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    const std::int64_t window = windowed ? l.window : 0;
    auto it = std::find_if(types.begin(), types.end(),
                           [&](const TypeCount& t) { return t.kind == l.kind && t.window == window; });
    if (it == types.end())
      types.push_back({l.kind, window, 1});
    else
      it->layers += 1;
  }
  return types;
}

}  // namespace

KvLayout kv_layout(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t block_size,
                   std::int32_t first, std::int32_t end) {
  KvLayout k;
  k.types = attention_types(a, first, end);
  const auto& types = k.types;
  Bytes page;
  for (const auto& t : types)
    page = std::max(page, kv_bytes_per_token_layer(a, LayerSpec{t.kind, t.window, false}, d, tp) * block_size);
  if (types.empty()) return k;
  std::int64_t min_n = INT64_MAX, max_n = 0;
  for (const auto& t : types) {
    min_n = std::min(min_n, t.layers);
    max_n = std::max(max_n, t.layers);
  }
  // One type: one group of all layers. Several: groups of min_n layers, or of max_n
  // when max_n < 1.5 × min_n (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size).
  k.group_size = types.size() == 1 ? max_n : (2 * max_n < 3 * min_n ? max_n : min_n);
  for (const auto& t : types) k.groups += (t.layers + k.group_size - 1) / k.group_size;
  k.page_bytes = page;
  return k;
}

KvPool kv_pool(const KvLayout& k, Bytes available, std::int64_t block_size, std::int64_t context,
               std::int64_t max_batched) {
  KvPool p;
  if (k.groups == 0 || available <= Bytes{}) return p;
  const Bytes block_all_groups = k.page_bytes * k.group_size;  // one block id spans group_size layer tensors
  p.blocks = available.in_bytes() / block_all_groups.in_bytes();
  p.tokens = p.blocks / k.groups * block_size;
  // Pages one request of `context` tokens needs in each group: full layers cdiv(context, block);
  // sliding layers cdiv(min(window − 1 + max_num_batched_tokens, context), block) + 1
  // (kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes).
  std::int64_t pages = 0;
  for (const auto& t : k.types) {
    const std::int64_t groups = (t.layers + k.group_size - 1) / k.group_size;
    std::int64_t per_group = (context + block_size - 1) / block_size;
    if (t.kind == LayerKind::sliding_attention) {
      per_group = (std::min(t.window - 1 + max_batched, context) + block_size - 1) / block_size + 1;
    } else if (t.kind == LayerKind::chunked_attention) {
      // ChunkedLocalAttentionSpec.max_memory_usage_bytes: cdiv(min(chunk + batched, max_model_len), block).
      per_group = (std::min(t.window + max_batched, context) + block_size - 1) / block_size;
    }
    pages += per_group * groups;
  }
  p.max_concurrency = pages > 0 ? static_cast<double>(p.blocks) / static_cast<double>(pages) : 0;
  return p;
}

namespace {

/// Everything one pipeline stage (one GPU of it) spends.
struct StageAccount {
  std::int32_t first_layer = 0;
  std::int32_t end_layer = 0;
  const WeightsEstimate* weights_detail = nullptr;  ///< per-codec breakdown (owned by the memo)
  Bytes weights;
  Bytes rotary;
  Bytes forward_peak;
  Bytes sampler;
  Bytes moe_workspace;
  Bytes pp_buffers;
  Bytes activation;
  Bytes non_torch;
  Bytes kv_available;
  KvLayout layout;
  KvPool pool;
  Bytes kv_needed;
  Bytes mamba_state;  ///< recurrent state of one sequence on this GPU
};

/// cuBLAS workspace, allocated through the caching allocator on first use:
/// 4096 × 8 KiB = 32 MiB on sm90 (pytorch aten/src/ATen/cuda/CublasHandlePool.cpp, v2.8).
constexpr Bytes kCublasWorkspace = Bytes::of(32LL << 20);

}  // namespace

std::int64_t sampler_scratch_rows(std::int64_t sms, std::int64_t rows) {
  std::int64_t pow2 = 1;
  while (pow2 < std::min(sms, rows)) pow2 *= 2;
  return std::min(pow2, sms);
}

Bytes profile_sampler_bytes(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                            std::int64_t b, std::int64_t sms) {
  const Bytes logits = logits_bytes(rows, vocab, b);                              // lm_head output in the model dtype
  const Bytes fp32_copy = b == 4 ? Bytes{} : logits_bytes(rows, vocab, 4);        // logits.to(float32)
  const Bytes scratch = logits_bytes(sampler_scratch_rows(sms, rows), vocab, 4);  // top-k/top-p kernel
  const Bytes probs = logits_bytes(rows, vocab, 4) * 2;                           // softmax probs + exponential q
  const Bytes hidden_states = Bytes::of((tokens + 2 * rows) * hidden * b);        // hidden, last rows, rand_like
  return logits + fp32_copy + scratch + probs + hidden_states + kCublasWorkspace;
}

Bytes profile_forward_bytes(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  // gate_up output (2I) and silu_and_mul output (I) alive together, plus four T × H
  // tensors (residual, normed input, attention input and output).
  const std::int64_t width = (a.block.dense_intermediate > 0 ? a.block.dense_intermediate : a.intermediate) / tp;
  return Bytes::of(tokens * b * (3 * width + 4 * a.hidden)) + kCublasWorkspace;
}

Bytes v0_forward_bytes(const Architecture& a, std::int64_t tokens, std::int64_t b) {
  // V0 eager forward: MLP temporaries 3·I plus three T × H tensors per token
  // (vllm/worker/model_runner.py profile_run, v0.6.4).
  return Bytes::of(tokens * b * 3 * (a.intermediate + a.hidden));
}

Bytes moe_workspace_bytes(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  if (a.experts == 0) return Bytes{};
  // TritonExperts workspace_shapes: (M, topk, max(N/2, K)) + (M, topk, max(N, K)) with
  // N = 2·I/tp, K = H, M = T; persistent (vllm/v1/worker/workspace.py).
  const std::int64_t i = a.expert_intermediate / tp;
  return Bytes::of(b * tokens * a.experts_per_token * (std::max(i, a.hidden) + std::max(2 * i, a.hidden)));
}

Bytes non_torch_increase(std::int64_t tp, std::int64_t pp) {
  if (tp > 1) return Bytes::from_fraction(2.1, kGiB);
  if (pp > 1) return Bytes::from_fraction(0.07, kGiB);
  return Bytes::from_fraction(0.25, kGiB);
}

Bytes cuda_graph_bytes(bool eager, std::int64_t layers_on_gpu) {
  if (eager) return Bytes{};
  return Bytes::from_fraction(0.39 + 0.016 * static_cast<double>(layers_on_gpu), kGiB);
}

void account(const Scenario& s, Report& r, WeightsMemo* memo_in) {
  WeightsMemo local;
  WeightsMemo* memo = memo_in ? memo_in : &local;
  const Model& m = *s.model;
  const Architecture& a = m.arch;
  const InferenceSettings& inf = s.inference;
  const Version ver = parse_version(inf.vllm.version);
  const std::int64_t tp = inf.tensor_parallel;
  const std::int64_t pp = inf.pipeline_parallel;
  // Activations run in the model dtype: fp32 only when the weights are plain fp32.
  const std::int64_t b = s.weights.name == "fp32" ? 4 : 2;
  const SchedulerLimits lim = scheduler_limits(inf.vllm, ver, s.gpu, inf.context);
  // Streaming multiprocessors of the GPU, for the sampler's scratch; an H100's 132 when unknown.
  const std::int64_t sms = s.gpu.sm_count > 0 ? s.gpu.sm_count : 132;
  // vllm/v1/worker/utils.py request_memory: ceil(total × gpu_memory_utilization).
  const Bytes requested = Bytes::of(static_cast<std::int64_t>(
      std::ceil(static_cast<double>(s.gpu.memory.in_bytes()) * inf.vllm.gpu_memory_utilization)));

  const auto parts = pipeline_partition(std::max<std::int64_t>(a.layers, 1), pp);
  std::vector<StageAccount> stages;
  std::int32_t first = 0;
  for (std::int64_t st = 0; st < pp; ++st) {
    StageAccount sa;
    sa.first_layer = first;
    sa.end_layer = static_cast<std::int32_t>(first + parts[static_cast<std::size_t>(st)]);
    first = sa.end_layer;
    WeightPlacement place;
    place.tensor_parallel = tp;
    place.first_layer = sa.first_layer;
    place.end_layer = pp == 1 ? INT32_MAX : sa.end_layer;
    place.embedding = st == 0;
    place.vision = st == 0;
    place.head = st == pp - 1;
    // VocabParallelEmbedding pads the vocabulary to 64 (vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE).
    place.vocab_multiple = 64;
    sa.weights_detail = &memo->get(m, s.weights, place);
    sa.weights = sa.weights_detail->bytes;
    if (s.weights_bytes_given && sa.weights > Bytes{}) {
      // Spread the exact checkpoint size over ranks in the inventory's proportions.
      WeightPlacement whole;
      whole.vocab_multiple = 1;
      const Bytes full = memo->get(m, s.weights, whole).bytes;
      sa.weights =
          Bytes::of(std::llround(static_cast<double>(sa.weights.in_bytes()) * s.weights_bytes_given->ratio(full)));
    }
    sa.rotary = rotary_cache_bytes(a, b);
    if (a.family != "bare") {
      const std::int64_t T = lim.max_num_batched_tokens;
      const std::int64_t R = std::min(lim.max_num_seqs, T);
      sa.forward_peak = ver.v1_engine() ? profile_forward_bytes(a, T, tp, b) : v0_forward_bytes(a, T, b);
      if (place.head) sa.sampler = profile_sampler_bytes(R, T, a.vocab, a.hidden, b, sms);
      sa.moe_workspace = ver.v1_engine() && s.weights.name != "mxfp4" ? moe_workspace_bytes(a, T, tp, b) : Bytes{};
      // With pipeline parallelism every stage holds one batch of intermediate
      // tensors (hidden states + residual, T × H each): the first stage the ones it
      // sends, the others the buffers they receive into
      // (gpu_model_runner.py make_empty_intermediate_tensors, v0.19.0).
      sa.pp_buffers = pp > 1 ? Bytes::of(2 * T * a.hidden * b) : Bytes{};
    }
    sa.activation = std::max(sa.forward_peak, sa.sampler) + sa.moe_workspace + sa.pp_buffers;
    sa.non_torch = non_torch_increase(tp, pp);
    sa.kv_available = requested - sa.weights - sa.rotary - sa.activation - sa.non_torch;
    if (a.family != "bare") {
      sa.layout = kv_layout(a, inf.kv, tp, inf.vllm.block_size, sa.first_layer, sa.end_layer);
      sa.pool = kv_pool(sa.layout, sa.kv_available, inf.vllm.block_size, inf.context, lim.max_num_batched_tokens);
      const std::int64_t blocks_per_seq = (inf.context + inf.vllm.block_size - 1) / inf.vllm.block_size;
      const Bytes kv_per_seq =
          kv_bytes_for_sequence(a, inf.kv, tp, blocks_per_seq * inf.vllm.block_size, sa.first_layer, sa.end_layer);
      sa.kv_needed = kv_per_seq * inf.concurrency;
      // Mamba layers keep one recurrent state per sequence, in the model dtype
      // (vllm/v1/kv_cache_interface.py MambaSpec; mamba_ssm_cache_dtype "auto").
      sa.mamba_state = mamba_state_bytes_per_sequence(a, 8 * b, tp, sa.first_layer, sa.end_layer);
      if (sa.mamba_state > Bytes{}) {
        sa.kv_needed += sa.mamba_state * inf.concurrency;
        sa.pool.max_concurrency = sa.kv_available > Bytes{} ? sa.kv_available.ratio(kv_per_seq + sa.mamba_state) : 0.0;
        if (sa.layout.groups == 0) {
          sa.pool.blocks = static_cast<std::int64_t>(sa.pool.max_concurrency);  // one state block per sequence
          sa.pool.tokens = sa.pool.blocks * inf.context;  // no per-token cache: bounded by sequences
        }
      }
    }
    stages.push_back(sa);
  }
  // vLLM takes the smallest block count over all workers (kv_cache_utils.py unify over ranks).
  std::size_t bottleneck = 0;
  for (std::size_t i = 1; i < stages.size(); ++i) {
    if (stages[i].pool.tokens < stages[bottleneck].pool.tokens) bottleneck = i;
  }
  // The budget shows the stage needing the most memory; metrics follow rank 0, as vLLM's log does.
  std::size_t heaviest = 0;
  auto need = [](const StageAccount& x) { return x.weights + x.rotary + x.activation + x.non_torch + x.kv_needed; };
  for (std::size_t i = 1; i < stages.size(); ++i) {
    if (need(stages[i]) > need(stages[heaviest])) heaviest = i;
  }
  const StageAccount& h = stages[heaviest];
  const StageAccount& r0 = stages[0];
  const KvPool pool = stages[bottleneck].pool;

  const std::string where = pp > 1 ? " (pipeline stage " + std::to_string(heaviest) + ": layers " +
                                         std::to_string(h.first_layer) + "–" + std::to_string(h.end_layer - 1) + ")"
                                   : "";
  const std::string tp_note = tp > 1 ? ", split over " + std::to_string(tp) + " tensor-parallel ranks" : "";
  r.add({"weights", "Model weights", h.weights,
         explained(r, [&] { return weights_formula(*h.weights_detail) + tp_note + where; }), explained(r, [&] {
           return std::string(s.weights.source + "; vLLM loads the checkpoint as stored (Model loading took X GiB)");
         })});
  if (h.rotary > Bytes{}) {
    r.add({"rotary_cache", "Rotary cos/sin cache", h.rotary,
           explained(r,
                     [&] {
                       return group_thousands(a.max_positions) + " positions × " + std::to_string(a.rotary_dim) +
                              " rotary dims × " + std::to_string(b) + " B = " + format_exact(h.rotary) + " ≈ " +
                              format(h.rotary, kMiB);
                     }),
           explained(r, [&] {
             return std::string("vllm/model_executor/layers/rotary_embedding/base.py _compute_cos_sin_cache (v0.19.0)");
           })});
  }
  if (a.family != "bare") {
    const std::int64_t blocks_per_seq = (inf.context + inf.vllm.block_size - 1) / inf.vllm.block_size;
    r.add({"kv_cache", "KV cache (needed)", h.kv_needed,
           explained(r,
                     [&] {
                       return std::to_string(inf.concurrency) + " sequences × " +
                              group_thousands(blocks_per_seq * inf.vllm.block_size) + " tokens (whole " +
                              std::to_string(inf.vllm.block_size) + "-token blocks) × " +
                              kv_per_token_formula(a, inf.kv, tp) +
                              (h.mamba_state > Bytes{}
                                   ? " + " + std::to_string(inf.concurrency) + " × Mamba state " +
                                         format_exact(h.mamba_state) +
                                         " (conv (d_conv − 1) × d_inner + SSM d_state × d_inner per layer)"
                                   : std::string()) +
                              " = " + format_exact(h.kv_needed) + " ≈ " + format_iec(h.kv_needed);
                     }),
           explained(r, [&] {
             return std::string("vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes (v0.19.0)");
           })});
    const std::int64_t T = lim.max_num_batched_tokens;
    const std::int64_t R = std::min(lim.max_num_seqs, T);
    std::string act_formula =
        !r.explain ? std::string()
        : h.sampler >= h.forward_peak
            ? "sampler step: " + group_thousands(R) + " seqs × " + group_thousands(a.vocab) + " vocab × (" +
                  std::to_string(b) + " B logits + 4 B fp32 copy + 2 × 4 B probabilities) + " +
                  std::to_string(sampler_scratch_rows(sms, R)) + " × vocab × 4 B top-k scratch (one row per SM" +
                  (s.gpu.sm_count > 0 ? "" : ", 132 assumed") + ") + " + group_thousands(T + 2 * R) + " × " +
                  std::to_string(a.hidden) + " hidden × " + std::to_string(b) +
                  " B + 32 MiB cuBLAS = " + format_exact(h.sampler) + " (forward pass " + format_iec(h.forward_peak) +
                  " is lower)"
            : (ver.v1_engine()
                   ? "profiling forward pass: " + group_thousands(T) + " tokens × " + std::to_string(b) + " B × (3 × " +
                         std::to_string((a.block.dense_intermediate > 0 ? a.block.dense_intermediate : a.intermediate) /
                                        tp) +
                         " MLP + 4 × " + std::to_string(a.hidden) + " hidden) + 32 MiB cuBLAS = "
                   : "V0 eager forward pass: " + group_thousands(T) + " tokens × " + std::to_string(b) + " B × 3 × (" +
                         std::to_string(a.intermediate) + " MLP + " + std::to_string(a.hidden) + " hidden) = ") +
                  format_exact(h.forward_peak) +
                  (h.sampler > Bytes{} ? " (sampler step " + format_iec(h.sampler) + " is lower)" : "");
    if (r.explain && h.moe_workspace > Bytes{})
      act_formula += " + fused-MoE workspace " + format_exact(h.moe_workspace);
    if (r.explain && h.pp_buffers > Bytes{})
      act_formula += " + pipeline intermediate tensors 2 × T × H × b = " + format_exact(h.pp_buffers);
    r.add({"activations", "Activation peak (profiling run)", h.activation,
           explained(r, [&] { return act_formula + " ≈ " + format_iec(h.activation) + "; " + lim.why; }),
           explained(r, [&] {
             return std::string(
                 "vllm/v1/worker/gpu_model_runner.py profile_run, _dummy_run, _dummy_sampler_run (v0.19.0)");
           })});
  }
  r.add({"non_torch", "Non-torch workspaces", h.non_torch,
         explained(
             r,
             [&] {
               return std::string(
                          tp > 1 ? "cuBLAS/attention workspaces + NCCL and custom all-reduce buffers (tensor parallel)"
                                 : "cuBLAS/attention workspaces") +
                      " = " + format_iec(h.non_torch) + " (measured per engine version)";
             }),
         explained(r, [&] { return std::string(kSweepSource); })});
  const std::int64_t graph_layers = a.family == "bare" ? 0 : h.end_layer - h.first_layer;
  const Bytes graphs = cuda_graph_bytes(inf.vllm.enforce_eager, graph_layers);
  if (graphs > Bytes{}) {
    r.add({"cuda_graphs", "CUDA graph pools", graphs,
           explained(r,
                     [&] {
                       return "0.39 GiB + 0.016 GiB × " + std::to_string(graph_layers) +
                              " layers, captured after the KV cache outside gpu_memory_utilization = " +
                              format_iec(graphs) + " (0 with enforce_eager)";
                     }),
           explained(r, [&] { return std::string(kSweepSource); })});
  }
  r.add(cuda_context_component(tp * pp > 1, r.explain));

  // Metrics (rank 0, as vLLM logs them) and the engine's own accounting.
  r.metric("weights_bytes", static_cast<double>((r0.weights + r0.rotary).in_bytes()));
  r.metric("activation_bytes", static_cast<double>(r0.activation.in_bytes()));
  r.metric("non_torch_bytes", static_cast<double>(r0.non_torch.in_bytes()));
  if (a.family != "bare") {
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(a, inf.kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(std::max(Bytes{}, r0.kv_available).in_bytes()));
    r.metric("kv_capacity_tokens", static_cast<double>(pool.tokens));
    // As vLLM prints it: f"{max_concurrency:.2f}x" (kv_cache_utils.py).
    r.metric("max_concurrency", std::round(pool.max_concurrency * 100.0) / 100.0);
  }
  r.metric("cuda_graph_bytes", static_cast<double>(graphs.in_bytes()));

  if (r.explain) {
    io::ObjectText e;
    e.set("engine", "vllm");
    e.set("version", inf.vllm.version.empty() ? "0.19" : inf.vllm.version);
    e.set("requested_bytes", requested.in_bytes());
    e.set("requested_formula", format_iec(s.gpu.memory) + " × gpu_memory_utilization " +
                                   fmt(inf.vllm.gpu_memory_utilization) + " = " + format_iec(requested));
    e.set("max_num_batched_tokens", lim.max_num_batched_tokens);
    e.set("max_num_seqs", lim.max_num_seqs);
    e.set("scheduler_defaults", lim.why);
    e.set("kv_available_bytes", stages[bottleneck].kv_available.in_bytes());
    e.set("kv_available_formula", "requested " + format_iec(requested) + " − weights " +
                                      format_iec(stages[bottleneck].weights + stages[bottleneck].rotary) +
                                      " − activation peak " + format_iec(stages[bottleneck].activation) +
                                      " − non-torch " + format_iec(stages[bottleneck].non_torch) + " = " +
                                      format_iec(stages[bottleneck].kv_available));
    e.set("kv_blocks", pool.blocks);
    e.set("kv_capacity_tokens", pool.tokens);
    e.set("kv_groups", stages[bottleneck].layout.groups);
    e.set("kv_group_size", stages[bottleneck].layout.group_size);
    e.set("kv_page_bytes", stages[bottleneck].layout.page_bytes.in_bytes());
    e.set("max_concurrency", std::round(pool.max_concurrency * 100.0) / 100.0);
    e.set("kv_pool_formula",
          format_iec(stages[bottleneck].kv_available) + " / (" + format_exact(stages[bottleneck].layout.page_bytes) +
              " per layer-block × " + std::to_string(stages[bottleneck].layout.group_size) +
              " layers) = " + group_thousands(pool.blocks) + " blocks; " + group_thousands(pool.blocks) + " / " +
              std::to_string(std::max<std::int64_t>(1, stages[bottleneck].layout.groups)) + " groups × " +
              std::to_string(inf.vllm.block_size) + " tokens = " + group_thousands(pool.tokens) + " tokens");
    e.set("source", std::string(kWorkerSource) + "; " + kKvSource);
    r.detail("engine", e.str());
  }

  if (a.family != "bare") r.engine_admits = pool.max_concurrency + 1e-9 >= static_cast<double>(inf.concurrency);
  if (r.explain && a.family != "bare") {
    if (pool.tokens < inf.context) {
      r.warnings.push_back(
          "vLLM will refuse to start: one " + group_thousands(inf.context) +
          "-token sequence needs more KV cache than the " + group_thousands(pool.tokens) +
          " tokens available; lower context (max_model_len), raise gpu_memory_utilization, use fp8 KV or more GPUs");
    } else if (pool.max_concurrency + 1e-9 < static_cast<double>(inf.concurrency)) {
      r.warnings.push_back("the KV pool holds " + fmt(pool.max_concurrency) + " sequences of " +
                           group_thousands(inf.context) + " tokens, fewer than the " + std::to_string(inf.concurrency) +
                           " requested: vLLM will queue the rest");
    }
  }
  if (r.explain && stages[bottleneck].kv_available <= Bytes{}) {
    r.warnings.push_back(
        "the weights and profiling peak exceed gpu_memory_utilization × memory: vLLM cannot allocate any KV cache");
  }
}

}  // namespace vram::vllm
