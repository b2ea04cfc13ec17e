// vLLM's account: one set of terms per pipeline stage, the stage that needs
// the most shown as the budget, metrics as rank 0 logs them. The terms
// themselves are in engines/inference/vllm_{kv,profile,runtime}.cpp.
#include "vram/engines/vllm.hpp"

#include <algorithm>
#include <any>
#include <cmath>
#include <cstdio>

#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/estimate.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/version_text.hpp"
#include "vram/io/render.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kWorkerSource =
    "vllm/v1/worker/gpu_worker.py determine_available_memory, vllm/utils/mem_utils.py memory_profiling (v0.19.0)";
constexpr std::string_view kKvSource =
    "vllm/v1/core/kv_cache_utils.py get_kv_cache_config_from_groups, get_max_concurrency_for_kv_cache_config (v0.19.0)";
constexpr std::string_view kProfileSource =
    "vllm/v1/worker/gpu_model_runner.py profile_run, _dummy_run, _dummy_sampler_run (v0.19.0)";
constexpr std::string_view kV0ProfileSource =
    "vllm/worker/worker.py determine_num_available_blocks, vllm/worker/model_runner.py profile_run, _dummy_run "
    "(v0.7.3)";
constexpr std::string_view kLoadNote = "vLLM loads the checkpoint as stored (Model loading took X GiB)";

std::string fmt(double v) {
  return format_decimal(v, 2);
}

/// What every stage of one scenario shares.
struct Setting {
  const Scenario& s;
  const Architecture& a;
  const InferenceSettings& inf;
  Version ver;
  std::int64_t tp;
  std::int64_t pp;
  std::int64_t b;  ///< activation bytes: fp32 only when the weights are plain fp32
  SchedulerLimits lim;
  std::int64_t sms;  ///< streaming multiprocessors, for the sampler's scratch
  Term requested;
  CommLayout comm;
  WeightsMemo* memo;
};

Setting setting(const Scenario& s, WeightsMemo* memo) {
  const InferenceSettings& inf = s.inference();
  Version ver = parse_version(inf.vllm.version, inf.vllm.engine);
  if (!ver.engine) ver.engine = default_engine(ver, s.gpu, s.parallel.pipeline, s.model->arch.family);
  // An H100's 132 SMs when the GPU's count is unknown.
  const std::int64_t sms = s.gpu.sm_count > 0 ? s.gpu.sm_count : 132;
  return Setting{s,
                 s.model->arch,
                 inf,
                 ver,
                 s.parallel.tensor,
                 s.parallel.pipeline,
                 activation_elem_bytes(s.weights),
                 scheduler_limits(inf.vllm, ver, s.gpu, inf.context, v0_chunks_long_context(s.model->arch, s.gpu)),
                 sms,
                 requested_memory_term(s.gpu.memory, inf.vllm.gpu_memory_utilization),
                 CommLayout{s.parallel.tensor, s.parallel.pipeline, s.gpu.interconnect, s.gpu.compute_capability, ver,
                            s.model->arch.experts > 0},
                 memo};
}

/// Everything one pipeline stage (one GPU of it) spends.
struct StageAccount {
  std::int32_t first_layer = 0;
  std::int32_t end_layer = 0;
  Term weights;
  Term rotary;
  Term activation;
  Term non_torch;
  Term graphs;  ///< captured after the KV cache (inside the reservation from v0.21)
  Bytes kv_available;
  KvLayout layout;
  KvPool pool;
  /// What the stage needs with `kv_needed`, the KV cache of the scenario's sequences (its only
  /// concurrency-dependent term, built apart so a sweep reuses the rest).
  Bytes need(const Term& kv_needed) const {
    return weights.bytes + rotary.bytes + activation.bytes + non_torch.bytes + kv_needed.bytes;
  }
};

/// Elements as stored (padding included), over every part.
std::int64_t stored_elements(const WeightsEstimate& w) {
  std::int64_t n = 0;
  for (const auto& part : w.parts) n = checked::add(n, part.params);
  return n;
}

/// --enable-expert-parallel: expert-parallel size = TP × DP (vllm/config/parallel.py); DP is one here.
std::int64_t expert_parallel_size(const Setting& c) {
  return c.inf.vllm.enable_expert_parallel ? c.tp : 1;
}

/// The routed experts one rank holds: whole ones over the expert-parallel ranks
/// (vLLM's determine_expert_map gives rank 0 ceil(E / EP)), else every one, sliced by TP.
std::int64_t experts_on_rank(const Setting& c) {
  return checked::ceil_div(c.a.experts, expert_parallel_size(c));
}

/// Layers [first, end) of this placement that hold routed experts.
std::int64_t expert_layers(const Model& m, const WeightPlacement& p) {
  std::int64_t n = 0;
  for (const Tensor& t : m.tensors) {
    if (t.role != TensorRole::expert_down || t.stage != TensorStage::text) continue;
    n += std::max(0, std::min(t.layer + t.layers, p.end_layer) - std::max(t.layer, p.first_layer));
  }
  return n;
}

/// The experts one rank holds, as the triton_kernels layout sees them.
Mxfp4TritonShape triton_shape(const Setting& c, const WeightPlacement& place) {
  Mxfp4TritonShape s;
  s.layers = expert_layers(*c.s.model, place);
  s.experts = experts_on_rank(c);
  s.hidden = c.a.hidden;
  s.inter = checked::ceil_div(c.a.expert_intermediate, c.tp / expert_parallel_size(c));
  s.inter_padded = checked::ceil_div(s.inter, place.expert_intermediate_multiple) * place.expert_intermediate_multiple;
  s.biases = c.a.block.expert_bias;
  s.value_padding = c.ver.at_least(0, 16);  // triton_kernels v3.6.0 (vLLM f97ca6717, 2026-02-08)
  return s;
}

/// MXFP4 experts as the MoE kernel lays them out: the stored weights plus the
/// padding its backend needs (mxfp4_moe_layout), when there is any.
Term with_mxfp4_padding(const Setting& c, Term w, WeightPlacement place) {
  const Mxfp4MoeLayout layout = mxfp4_moe_layout(c.s.gpu.compute_capability, c.s.gpu.rocm_arch);
  if (c.s.weights.kind != FormatKind::mxfp4 || c.a.experts == 0 || layout.backend == Mxfp4MoeBackend::none) return w;
  const WeightsEstimate& stored = c.memo->get(*c.s.model, c.s.weights, place);
  const std::int64_t stored_n = stored_elements(stored);
  const Bytes stored_bytes = stored.bytes;
  place.expert_intermediate_multiple = layout.intermediate_multiple;
  place.expert_hidden_multiple = layout.hidden_multiple;
  const WeightsEstimate& padded = c.memo->get(*c.s.model, c.s.weights, place);
  Terms parts = terms(std::move(w));
  if (padded.bytes != stored_bytes) {
    parts.push_back(mxfp4_moe_padding_term(layout, padded.bytes, stored_bytes, stored_elements(padded) - stored_n));
  }
  if (layout.backend == Mxfp4MoeBackend::triton) parts.push_back(mxfp4_triton_layout_term(triton_shape(c, place)));
  return sum_nonzero(std::move(parts));
}

/// The weights one stage holds, the checkpoint's exact size spread over ranks
/// in the inventory's proportions when it is given.
Term stage_weights(const Setting& c, std::int64_t stage, const StageAccount& sa) {
  WeightPlacement place;
  place.tensor_parallel = c.tp;
  place.first_layer = sa.first_layer;
  place.end_layer = c.pp == 1 ? INT32_MAX : sa.end_layer;
  place.embedding = stage == 0;
  // From v0.15 a text-only model (every modality limit 0) does not build its tower (vllm-project/vllm#32605).
  place.vision = stage == 0 && !(c.inf.vllm.language_model_only && c.ver.at_least(0, 15));
  place.head = stage == c.pp - 1;
  // VocabParallelEmbedding pads the vocabulary to 64 (vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE).
  place.vocab_multiple = 64;
  place.expert_parallel = expert_parallel_size(c);
  const Model& m = *c.s.model;
  Term w = weights_term(c.memo->get(m, c.s.weights, place));
  if (c.s.weights_bytes_given && w.bytes > Bytes{}) {
    WeightPlacement whole;
    whole.vocab_multiple = 1;
    const Bytes full = c.memo->get(m, c.s.weights, whole).bytes;
    const Bytes given = *c.s.weights_bytes_given;
    const Factor share = Factor::real(given.ratio(full), "(checkpoint {} B / inventory {} B)")
                             .with(given.in_bytes(), full.in_bytes());
    w = Term::product(terms(std::move(w)), {share}, Rounding::nearest);
  }
  w = with_mxfp4_padding(c, std::move(w), place);
  const std::int32_t last = sa.end_layer - 1;
  if (place.expert_parallel > 1) {
    w.note = "split over {} tensor-parallel ranks, the {} routed experts whole over {} expert-parallel ranks "
             "(rank 0 holds {})";
    w.note_args = {c.tp, c.a.experts, place.expert_parallel, experts_on_rank(c)};
  } else if (c.tp > 1 && c.pp > 1) {
    w.note = "split over {} tensor-parallel ranks (pipeline stage {}: layers {}–{})";
    w.note_args = {c.tp, stage, sa.first_layer, last};
  } else if (c.tp > 1) {
    w.note = "split over {} tensor-parallel ranks";
    w.note_args = {c.tp};
  } else if (c.pp > 1) {
    w.note = "pipeline stage {}: layers {}–{}";
    w.note_args = {stage, sa.first_layer, last};
  }
  return std::move(w).cite(c.s.weights.source);
}

/// The profiling run's sampler step as the version ran it: V0's on the driver
/// rank, every scheduled token before v0.9, a sort-based top-k/top-p until
/// v0.17 (FlashInfer's where it runs), the Triton kernel since.
Term sampler_step(const Setting& c, std::int64_t T, std::int64_t R) {
  if (!c.ver.v1_engine()) return v0_sampler_term(R, T, c.a.vocab, c.a.hidden, c.b);
  if (!c.ver.at_least(0, 9)) return early_v1_sampler_term(T, c.a.vocab, c.a.hidden, c.b);
  if (c.inf.vllm.flashinfer_sampler.value_or(flashinfer_sampler_by_default(c.ver))) {
    return flashinfer_sampler_term(R, T, c.a.vocab, c.a.hidden, c.b);
  }
  if (!c.ver.at_least(0, 17)) return sort_sampler_term(R, T, c.a.vocab, c.a.hidden, c.b);
  return profile_sampler_term(R, T, c.a.vocab, c.a.hidden, c.b, c.sms, c.s.gpu.sm_count <= 0);
}

/// DeepGEMM asked for, and experts it runs: fp8 in 128 × 128 blocks.
bool deep_gemm_runs(const Setting& c) {
  return c.inf.vllm.moe_backend == MoeBackend::deep_gemm && c.s.weights.kind == FormatKind::fp8 &&
         c.s.weights.linear.kind == Codec::Kind::block2d;
}

/// Before v0.14 the default Triton fused-MoE path allocates its buffers per
/// call (inside the forward pass); from v0.14 the modular kernel keeps them.
bool transient_moe(const Setting& c) {
  return c.a.experts > 0 && !c.ver.at_least(0, 14) && c.s.weights.kind != FormatKind::mxfp4 && !deep_gemm_runs(c);
}

/// The fused-MoE workspace of V1's profiling run, persistent from then on:
/// the Triton experts' shapes, or DeepGEMM's where it runs block-fp8 experts.
Term moe_workspace(const Setting& c, std::int64_t T) {
  if (!c.ver.v1_engine() || c.s.weights.kind == FormatKind::mxfp4 || transient_moe(c)) return Term::given(Bytes{});
  // Under expert parallelism each rank holds whole experts: nothing is sliced by TP.
  const std::int64_t split = c.tp / expert_parallel_size(c);
  if (deep_gemm_runs(c)) return deep_gemm_workspace_term(c.a, T, split, c.b, experts_on_rank(c));
  return moe_workspace_term(c.a, T, split, c.b, fused_moe_chunk(c.ver));
}

/// True when some layer runs vLLM's MambaMixer2 (Mamba-2, or Falcon-H1's
/// attention and Mamba-2 side by side).
bool has_mamba2_blocks(const Architecture& a) {
  return std::any_of(a.layer_specs.begin(), a.layer_specs.end(), [](const LayerSpec& l) {
    return l.kind == LayerKind::mamba2 || l.kind == LayerKind::attention_mamba2;
  });
}

/// The forward pass's peak: the dense layers', an MoE layer's live set while
/// the fused-MoE buffers are per call, or a Mamba-2 block's, whichever is larger.
Term forward_peak(const Setting& c, std::int64_t T) {
  Terms layers = terms(c.ver.v1_engine() ? profile_forward_term(c.a, T, c.tp, c.b) : v0_forward_term(c.a, T, c.b, c.tp));
  if (transient_moe(c)) {
    const std::int64_t split = c.tp / expert_parallel_size(c);
    layers.push_back(moe_layer_forward_term(c.a, T, split, c.b, fused_moe_chunk(c.ver)));
  }
  if (c.ver.v1_engine() && has_mamba2_blocks(c.a))
    layers.push_back(mamba2_profile_block_term(c.a, T, c.tp, c.b, c.ver.at_least(0, 12)));
  if (layers.size() == 1) return std::move(layers.front());
  return Term::max_of(std::move(layers));
}

/// The profiling run's peak on one stage: the larger of the forward pass and
/// (on the last stage) the sampler step, plus persistent workspaces.
Term stage_activation(const Setting& c, bool head, bool first) {
  if (c.a.family == Family::bare) return Term::given(Bytes{}).named("no architecture");
  const std::int64_t T = c.lim.max_num_batched_tokens;
  const std::int64_t R = std::min(c.lim.max_num_seqs, T);
  Term forward = forward_peak(c, T);
  Term sampler = sampler_step(c, T, R);
  Term peak = head ? Term::max_of(terms(std::move(sampler), std::move(forward))) : std::move(forward);
  Term moe = moe_workspace(c, T);
  Term buffers = c.pp > 1 ? pipeline_buffers_term(T, c.a.hidden, c.b) : Term::given(Bytes{});
  // The BLAS workspace is taken at the profile's first matrix multiply and kept (V1's measure sees it).
  Term blas = c.ver.v1_engine() ? blas_workspace_term(c.s.gpu.compute_capability, c.s.gpu.rocm_arch) : Term::given(Bytes{});
  // The stage with the vision tower profiles its encoder first and keeps the dummy images and their embeddings.
  Term mm = c.ver.v1_engine() && first && !c.inf.vllm.language_model_only
                ? mm_profile_inputs_term(c.a, T, c.lim.max_num_seqs, c.inf.context, c.b)
                : Term::given(Bytes{});
  return sum_nonzero(terms(std::move(peak), std::move(blas), std::move(moe), std::move(buffers), std::move(mm)))
      .noted(c.lim.why)
      .cite(c.ver.v1_engine() ? kProfileSource : kV0ProfileSource);
}

/// The KV cache a stage needs and the pool its remaining budget buys.
/// Attention and recurrent (Mamba, Gated DeltaNet) layers together under V1's
/// page alignment: from v0.10.2, whose startup log already prints "Setting
/// attention block size to N tokens" (vllm/model_executor/models/config.py
/// HybridAttentionMambaModelConfig, logged at config.py:390 in v0.10.2).
bool aligned_hybrid(const Setting& c) {
  const bool aligned_version = c.ver.at_least(0, 11) || (c.ver.minor == 10 && c.ver.patch >= 2);
  if (!has_recurrent_state(c.a) || !c.ver.v1_engine() || !aligned_version) return false;
  return std::any_of(c.a.layer_specs.begin(), c.a.layer_specs.end(),
                     [](const LayerSpec& l) { return caches_tokens(l.kind); });
}

void stage_hybrid_kv(const Setting& c, StageAccount& sa) {
  const InferenceSettings& inf = c.inf;
  const StateBits state_bits = mamba_state_bits(inf.vllm, c.a, c.ver, 8 * c.b);
  sa.layout = hybrid_kv_layout(c.a, inf.kv, c.tp, inf.vllm.block_size, state_bits, sa.first_layer, sa.end_layer);
  sa.pool = kv_pool(sa.layout, sa.kv_available, inf.vllm.block_size, inf.context, c.lim.max_num_batched_tokens);
}

void stage_kv(const Setting& c, StageAccount& sa) {
  if (aligned_hybrid(c)) {
    stage_hybrid_kv(c, sa);
    return;
  }
  const InferenceSettings& inf = c.inf;
  const std::int64_t bs = inf.vllm.block_size;
  sa.layout = kv_layout(c.a, inf.kv, c.tp, bs, sa.first_layer, sa.end_layer);
  sa.pool = kv_pool(sa.layout, sa.kv_available, bs, inf.context, c.lim.max_num_batched_tokens);
  // Mamba layers keep one recurrent state per sequence (vllm/v1/kv_cache_interface.py MambaSpec),
  // in the widths mamba_cache_dtype and mamba_ssm_cache_dtype give.
  const StateBits state_bits = mamba_state_bits(inf.vllm, c.a, c.ver, 8 * c.b);
  // Without a state width no Mamba layer holds a state (and the sum is 0).
  if (!has_recurrent_state(c.a)) return;
  const Bytes state = mamba_state_bytes_per_sequence(c.a, state_bits, c.tp, sa.first_layer, sa.end_layer);
  if (state == Bytes{}) return;
  const Bytes kv_per_seq = kv_bytes_for_sequence(c.a, inf.kv, c.tp, checked::ceil_div(inf.context, bs) * bs,
                                                 sa.first_layer, sa.end_layer);
  sa.pool.max_concurrency = sa.kv_available > Bytes{} ? sa.kv_available.ratio(kv_per_seq + state) : 0.0;
  if (sa.layout.groups == 0) {
    sa.pool.blocks = static_cast<std::int64_t>(sa.pool.max_concurrency);  // one state block per sequence
    sa.pool.tokens = checked::mul(sa.pool.blocks, inf.context);          // no per-token cache: bounded by sequences
  }
}

/// The CUDA graphs one stage captures: the version's sizes and mode, its layers.
/// The graph mode the engine runs: the version's default, except that V1 sets
/// FULL_AND_PIECEWISE for hybrid and Mamba models when none is given (vllm/
/// model_executor/models/config.py MambaModelConfig.verify_and_update_config;
/// logged as "Hybrid or mamba-based model detected: setting cudagraph mode to
/// FULL_AND_PIECEWISE" by v0.10.2, the default for every model from v0.11).
GraphMode engine_graph_mode(const Setting& c) {
  const GraphMode mode = graph_mode(c.inf.vllm, c.ver);
  if (c.inf.vllm.cudagraph_mode || mode != GraphMode::piecewise || !aligned_hybrid(c)) return mode;
  return GraphMode::full_and_piecewise;
}

Term stage_graphs(const Setting& c, std::int32_t first, std::int32_t end) {
  const std::int64_t layers = c.a.family == Family::bare ? 0 : end - first;
  const GraphMode mode = engine_graph_mode(c);
  const auto sizes = capture_sizes(c.inf.vllm, c.ver, c.lim.max_num_seqs, c.lim.max_num_batched_tokens);
  Term pools = cuda_graph_term(captured_graphs(mode, sizes, c.lim.max_num_seqs), layers, c.a.experts > 0,
                               sizes.empty() ? 0 : sizes.back(), c.b, c.s.gpu.rocm_arch);
  // FA3's preallocated split-KV buffers for full graphs arrived with v0.11 (V1 only).
  const bool full_decode = c.ver.v1_engine() && c.ver.at_least(0, 11) && mode != GraphMode::piecewise &&
                           mode != GraphMode::none;
  if (!full_decode || layers == 0) return pools;
  std::int64_t decode = 0;  // the largest full decode graph: sizes up to max_num_seqs
  for (std::int64_t x : sizes) decode = x <= c.lim.max_num_seqs ? x : decode;
  const std::string_view source = pools.source;
  Term fa3 = fa3_split_buffers_term(c.a, c.tp, decode, c.b, c.s.gpu.compute_capability, c.s.gpu.rocm_arch);
  return sum_nonzero(terms(std::move(pools), std::move(fa3))).cite(source);
}

StageAccount build_stage(const Setting& c, std::int64_t stage, std::int32_t first, std::int32_t end) {
  StageAccount sa;
  sa.first_layer = first;
  sa.end_layer = end;
  sa.weights = stage_weights(c, stage, sa);
  sa.rotary = rotary_cache_term(c.a, c.b, c.inf.context);
  sa.activation = stage_activation(c, stage == c.pp - 1, stage == 0);
  sa.non_torch = non_torch_term(c.comm);
  sa.graphs = stage_graphs(c, first, end);
  sa.kv_available = c.requested.bytes - sa.weights.bytes - sa.rotary.bytes - sa.activation.bytes - sa.non_torch.bytes;
  // From v0.21 vLLM profiles the CUDA graphs before sizing the KV cache and keeps them inside the reservation.
  if (graphs_profiled(c.ver, c.s.gpu.rocm_arch)) sa.kv_available = sa.kv_available - sa.graphs.bytes;
  if (c.a.family == Family::bare) return sa;
  stage_kv(c, sa);
  return sa;
}

/// The KV cache the scenario's `concurrency` sequences of `context` tokens need on one stage.
Term stage_kv_needed(const Setting& c, const StageAccount& sa) {
  if (c.a.family == Family::bare) return Term::given(Bytes{});
  const InferenceSettings& inf = c.inf;
  const StateBits state_bits = mamba_state_bits(inf.vllm, c.a, c.ver, 8 * c.b);
  if (aligned_hybrid(c)) {
    return hybrid_kv_needed_term(c.a, inf.kv, c.tp, inf.vllm.block_size, state_bits, inf.context, inf.concurrency,
                                 sa.first_layer, sa.end_layer);
  }
  return kv_needed_term(c.a, inf.kv, c.tp, inf.vllm.block_size, inf.context, inf.concurrency, sa.first_layer,
                        sa.end_layer, state_bits);
}

std::vector<StageAccount> build_stages(const Setting& c) {
  const auto parts = pipeline_partition(std::max<std::int64_t>(c.a.layers, 1), c.pp);
  std::vector<StageAccount> stages;
  stages.reserve(parts.size());
  std::int32_t first = 0;
  for (std::int64_t st = 0; st < c.pp; ++st) {
    const auto end = static_cast<std::int32_t>(first + parts[static_cast<std::size_t>(st)]);
    stages.push_back(build_stage(c, st, first, end));
    first = end;
  }
  return stages;
}

/// vLLM takes the smallest block count over all workers (kv_cache_utils.py unify over ranks).
std::size_t bottleneck_stage(const std::vector<StageAccount>& stages) {
  std::size_t b = 0;
  for (std::size_t i = 1; i < stages.size(); ++i) {
    if (stages[i].pool.tokens < stages[b].pool.tokens) b = i;
  }
  return b;
}

/// The budget shows the stage needing the most memory.
std::size_t heaviest_stage(const std::vector<StageAccount>& stages, const Terms& needed) {
  std::size_t h = 0;
  for (std::size_t i = 1; i < stages.size(); ++i) {
    if (stages[i].need(needed[i]) > stages[h].need(needed[h])) h = i;
  }
  return h;
}

void add_components(const Setting& c, const StageAccount& h, const Term& kv_needed, const Term& graphs, Report& r) {
  const bool x = r.explain;
  r.add(io::component("weights", "Model weights", h.weights, x, kLoadNote));
  if (h.rotary.bytes > Bytes{}) r.add(io::component("rotary_cache", "Rotary cos/sin cache", h.rotary, x));
  if (c.a.family != Family::bare) {
    r.add(io::component("kv_cache", "KV cache (needed)", kv_needed, x));
    r.add(io::component("activations", "Activation peak (profiling run)", h.activation, x));
  }
  Component nt = io::component("non_torch", "Non-torch workspaces", h.non_torch, x);
  nt.torch_allocator = false;
  r.add(std::move(nt));
  if (graphs.bytes > Bytes{}) {
    Component g = io::component("cuda_graphs", "CUDA graph pools", graphs, x);
    g.outside_reservation = !graphs_profiled(c.ver, c.s.gpu.rocm_arch);
    g.torch_allocator = false;  // vLLM measures the graph pools apart from its profiled peak
    r.add(std::move(g));
  }
  r.add(io::cuda_context_component(vllm_context_term(c.comm, c.s.gpu.sm_count, c.s.gpu.rocm_arch), x));
}

/// Metrics as rank 0 logs them, and the pool of the bottleneck stage.
void add_metrics(const Setting& c, const StageAccount& r0, const KvPool& pool, const Term& graphs, Report& r) {
  r.metric("weights_bytes", static_cast<double>((r0.weights.bytes + r0.rotary.bytes).in_bytes()));
  r.metric("activation_bytes", static_cast<double>(r0.activation.bytes.in_bytes()));
  r.metric("non_torch_bytes", static_cast<double>(r0.non_torch.bytes.in_bytes()));
  if (c.a.family != Family::bare) {
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(c.a, c.inf.kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(std::max(Bytes{}, r0.kv_available).in_bytes()));
    r.metric("kv_capacity_tokens", static_cast<double>(pool.tokens));
    // As vLLM prints it: f"{max_concurrency:.2f}x" (kv_cache_utils.py).
    r.metric("max_concurrency", std::round(pool.max_concurrency * 100.0) / 100.0);
  }
  r.metric("cuda_graph_bytes", static_cast<double>(graphs.bytes.in_bytes()));
  if (!r.explain) return;
  if (r0.non_torch.range) r.metric_range("non_torch_bytes", *r0.non_torch.range);
  if (graphs.range) r.metric_range("cuda_graph_bytes", *graphs.range);
}

/// The engine's own accounting, as vLLM computes it (presentation data).
void add_engine_detail(const Setting& c, const StageAccount& bn, const KvPool& pool, Report& r) {
  const InferenceSettings& inf = c.inf;
  io::ObjectText e;
  e.set("engine", "vllm");
  e.set("version", inf.vllm.version.empty() ? "0.19" : inf.vllm.version);
  e.set_text("modelled_as", [&](TextBuffer& t) {
    t.put("0.");
    append_grouped(t, c.ver.minor);
    t.put(c.ver.v1_engine() ? " (V1)" : " (V0)");
  });
  e.set("requested_bytes", c.requested.bytes.in_bytes());
  e.set_text("requested_formula", [&](TextBuffer& t) { io::render_into(t, c.requested); });
  e.set("max_num_batched_tokens", c.lim.max_num_batched_tokens);
  e.set("max_num_seqs", c.lim.max_num_seqs);
  e.set("scheduler_defaults", c.lim.why);
  // What the pool can have: nothing when the other terms exceed the reservation (the formula shows the deficit).
  e.set("kv_available_bytes", std::max(Bytes{}, bn.kv_available).in_bytes());
  Terms spent = terms(Term::given(c.requested.bytes).named("requested"),
                      Term::given(bn.weights.bytes + bn.rotary.bytes).named("weights"),
                      Term::given(bn.activation.bytes).named("activation peak"),
                      Term::given(bn.non_torch.bytes).named("non-torch"));
  if (graphs_profiled(c.ver, c.s.gpu.rocm_arch)) spent.push_back(Term::given(bn.graphs.bytes).named("CUDA graphs (profiled)"));
  const Term available = Term::difference(std::move(spent));
  e.set_text("kv_available_formula", [&](TextBuffer& t) { io::render_into(t, available); });
  e.set("kv_blocks", pool.blocks);
  e.set("kv_capacity_tokens", pool.tokens);
  e.set("kv_groups", bn.layout.groups);
  e.set("kv_group_size", bn.layout.group_size);
  e.set("kv_page_bytes", bn.layout.page_bytes.in_bytes());
  e.set("max_concurrency", std::round(pool.max_concurrency * 100.0) / 100.0);
  e.set_text("kv_pool_formula", [&](TextBuffer& t) {
    io::render_kv_pool(t, bn.kv_available, bn.layout.page_bytes, bn.layout.group_size, pool.blocks, bn.layout.groups,
                       bn.layout.block_size > 0 ? bn.layout.block_size : inf.vllm.block_size, pool.tokens);
  });
  e.set_text("source", [](TextBuffer& t) {
    t.put(kWorkerSource);
    t.put("; ");
    t.put(kKvSource);
  });
  r.detail("engine", e.str());
}

/// The first vLLM release that runs a family added after the oldest version modelled.
struct FamilySupport {
  int minor = 0;
  int patch = 0;
  std::string_view what;  ///< the architecture and where support was added
};
std::optional<FamilySupport> family_support(Family f) {
  switch (f) {
    case Family::qwen3_next:
      return FamilySupport{10, 2, "Qwen3NextForCausalLM (vllm/model_executor/models/qwen3_next.py)"};
    case Family::granite_hybrid:
      return FamilySupport{9, 0, "GraniteMoeHybridForCausalLM (vllm-project/vllm pull request #17497, May 2025)"};
    case Family::nemotron_h:
      return FamilySupport{9, 1, "NemotronHForCausalLM (vllm-project/vllm pull request #18863, May-June 2025)"};
    case Family::minimax:
      return FamilySupport{8, 3, "MiniMaxText01ForCausalLM (vllm-project/vllm pull request #13454, April 2025)"};
    default: return std::nullopt;
  }
}

/// A version older than the family's support: vLLM would refuse the architecture.
void add_family_support_warning(const Setting& c, Report& r) {
  const auto need = family_support(c.a.family);
  if (!need || c.inf.vllm.version.empty() || c.ver.fit == VersionFit::unreadable) return;
  const Version& v = c.ver;
  const bool older =
      v.fit == VersionFit::older || v.minor < need->minor || (v.minor == need->minor && v.patch < need->patch);
  if (!older) return;
  r.warnings.push_back("vLLM " + c.inf.vllm.version + " predates support for model_type \"" + c.a.model_type + "\" (" +
                       std::string(need->what) + ", first released in vLLM 0." + std::to_string(need->minor) + "." +
                       std::to_string(need->patch) +
                       "): that version refuses the architecture; estimated as if "
                       "it ran it");
}

/// What the estimate assumed about the version and the interconnect.
void add_assumption_warnings(const Setting& c, Report& r) {
  add_family_support_warning(c, r);
  const std::string& text = c.inf.vllm.version;
  const std::string known = "0." + std::to_string(c.ver.minor);
  if (c.ver.fit == VersionFit::unreadable) {
    r.warnings.push_back("vllm.version \"" + text + "\" is not a version such as 0.19.0: estimated as vLLM " + known);
  } else if (c.ver.fit != VersionFit::exact) {
    r.warnings.push_back("vLLM " + text + " is " + (c.ver.fit == VersionFit::newer ? "newer" : "older") +
                         " than the versions modelled (0." + std::to_string(kOldestMinor) + " to 0." +
                         std::to_string(kNewestMinor) + "): estimated as the nearest, vLLM " + known);
  }
  if (c.inf.vllm.language_model_only && c.a.vision_params > 0 && !c.ver.at_least(0, 15)) {
    r.warnings.push_back("vLLM " + known + " builds the vision tower even with every modality limit at 0 (only "
                         "some models' own code skipped it before 0.15, vllm-project/vllm#32605): its weights are "
                         "counted; the encoder is not profiled");
  }
  if (c.s.gpu.rocm_arch != RocmArch::none && !c.inf.vllm.enforce_eager) {
    r.warnings.push_back(
        "CUDA graph pools on ROCm: the per-graph cost is the H100 sweep's, never measured on an AMD GPU; its range "
        "is widened to 0.5x-2x");
  }
  if (!c.inf.vllm.engine && c.ver.engine == VllmEngine::v0) {
    r.warnings.push_back("vLLM " + known + " falls back to its V0 engine " +
                         (c.a.family == Family::minimax ? std::string("for MiniMax's lightning attention (V1 from 0.10.1)")
                          : c.s.gpu.rocm_arch != RocmArch::none ? std::string("on ROCm (V1 by default there from 0.9.2)")
                                                                : std::string("with pipeline parallelism (V1 from 0.8.3)")) +
                         ": estimated as V0; set inference.vllm.engine to v1 when VLLM_USE_V1=1 was set");
  }
  if (c.tp > 1 && c.s.gpu.interconnect == Interconnect::unknown) {
    r.warnings.push_back(
        "hardware.interconnect not given for this GPU: NVLink through NVSwitch assumed for the NCCL and all-reduce "
        "buffers; set it to pcie, pcie-p2p, nvlink-pairs, nvlink or xgmi");
  }
  if (!c.inf.vllm.flashinfer_sampler && flashinfer_sampler_by_default(c.ver)) {
    r.warnings.push_back(
        "vLLM " + known + " samples top-k/top-p through FlashInfer where it is installed (vLLM's images; pip: "
        "vllm[flashinfer]): assumed here; set inference.vllm.flashinfer_sampler to false when the log says "
        "\"FlashInfer is not available\"");
  }
  if (c.inf.vllm.moe_backend == MoeBackend::deep_gemm && !deep_gemm_runs(c)) {
    r.warnings.push_back(
        "vllm.moe_backend deep_gemm: DeepGEMM runs fp8 experts quantized in 128 × 128 blocks only; these weights are " +
        c.s.weights.name + ", so the Triton experts' workspace is counted");
  }
  if (c.s.weights.kind == FormatKind::mxfp4 && c.a.experts > 0 && c.s.gpu.rocm_arch != RocmArch::none) {
    r.warnings.push_back(
        "MXFP4 experts on ROCm: the MoE kernel's weight layout there is not modelled; the experts are counted as "
        "stored");
  } else if (c.s.weights.kind == FormatKind::mxfp4 && c.a.experts > 0 && c.s.gpu.compute_capability == 0) {
    r.warnings.push_back(
        "MXFP4 experts: the MoE kernel's layout depends on the CUDA compute capability, unknown for this GPU: "
        "sm90's (triton_kernels) assumed; set hardware.gpu.compute_capability (8.0 Marlin, 9.0 Triton, 10.0 "
        "FlashInfer)");
  }
}

void add_warnings(const Setting& c, const StageAccount& bn, const KvPool& pool, Report& r) {
  const InferenceSettings& inf = c.inf;
  add_assumption_warnings(c, r);
  if (c.a.family != Family::bare) {
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
  if (bn.kv_available <= Bytes{}) {
    r.warnings.push_back(
        "the weights and profiling peak exceed gpu_memory_utilization × memory: vLLM cannot allocate any KV cache");
  }
}

}  // namespace

Version parse_version(const std::string& text, std::optional<VllmEngine> engine) {
  Version v;
  v.engine = engine;
  if (text.empty()) return v;
  const auto read = io::read_version(text);  // "v0.10.1" as tags spell it, "0.15.2rc1" as pip does
  if (!read) {
    v.fit = VersionFit::unreadable;
    return v;
  }
  v.major = read->major;
  v.minor = read->minor;
  v.patch = read->patch;
  if (v.major > 0 || v.minor > kNewestMinor) {
    v = Version{0, kNewestMinor, 0, VersionFit::newer, engine};
  } else if (v.minor < kOldestMinor) {
    v = Version{0, kOldestMinor, 0, VersionFit::older, engine};
  }
  return v;
}

std::vector<std::int64_t> pipeline_partition(std::int64_t layers, std::int64_t stages) {
  std::vector<std::int64_t> parts(static_cast<std::size_t>(stages), layers / stages);
  const std::int64_t remaining = layers % stages;
  for (std::int64_t i = 2; i < remaining + 2; ++i) parts[static_cast<std::size_t>(stages - i)] += 1;
  return parts;
}

namespace {

/// The stages of one context, kept for the other points of a sweep.
struct SweptStages {
  std::int64_t context = 0;
  std::vector<StageAccount> stages;
};

/// The stages for `c`: built, or (in a sweep) those of the same context built before.
const std::vector<StageAccount>& stages_for(const Setting& c, SweepCache* sweep, std::vector<StageAccount>& own) {
  if (sweep == nullptr) return own = build_stages(c);
  if (auto* kept = std::any_cast<SweptStages>(&sweep->vllm); kept && kept->context == c.inf.context) return kept->stages;
  sweep->vllm = SweptStages{c.inf.context, build_stages(c)};
  return std::any_cast<SweptStages>(&sweep->vllm)->stages;
}

}  // namespace

void account(const Scenario& s, Report& r, WeightsMemo* memo_in, SweepCache* sweep) {
  WeightsMemo local;
  const Setting c = setting(s, memo_in ? memo_in : &local);
  std::vector<StageAccount> own;
  // Kept terms point into the memo's weight sums: a sweep cache needs the caller's memo.
  const std::vector<StageAccount>& stages = stages_for(c, r.explain || !memo_in ? nullptr : sweep, own);
  Terms needed;
  for (const StageAccount& st : stages) needed.push_back(stage_kv_needed(c, st));
  const StageAccount& bn = stages[bottleneck_stage(stages)];
  const std::size_t hi = heaviest_stage(stages, needed);
  const StageAccount& h = stages[hi];
  const StageAccount& r0 = stages[0];
  const KvPool pool = bn.pool;
  const Term& graphs = h.graphs;

  add_components(c, h, needed[hi], graphs, r);
  // vLLM budgets weights, activations, non-torch memory and the KV cache inside
  // gpu_memory_utilization × memory; that reservation is its headroom.
  r.reservation = c.requested.bytes;
  add_metrics(c, r0, pool, graphs, r);
  if (c.a.family != Family::bare) r.engine_admits = pool.max_concurrency + 1e-9 >= static_cast<double>(c.inf.concurrency);
  if (!r.explain) return;
  add_engine_detail(c, bn, pool, r);
  add_warnings(c, bn, pool, r);
}

}  // namespace vram::vllm
