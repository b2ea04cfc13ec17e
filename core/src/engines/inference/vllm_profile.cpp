// vLLM's profiling run: the scheduler limits it runs at and the peak of its
// forward pass, sampler step and persistent workspaces, as terms.
#include <algorithm>
#include <cctype>

#include "vram/budget/activations.hpp"
#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kSamplerSource =
    "vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run; vllm/v1/sample/sampler.py; "
    "vllm/v1/sample/ops/topk_topp_triton.py (v0.19.0)";
constexpr std::string_view kForwardSource = "vllm/v1/worker/gpu_model_runner.py profile_run, _dummy_run (v0.19.0)";
constexpr std::string_view kV0Source = "vllm/worker/model_runner.py profile_run (v0.6.4)";
constexpr std::string_view kMoeSource =
    "vllm/model_executor/layers/fused_moe/fused_moe.py TritonExperts.workspace_shapes; vllm/v1/worker/workspace.py "
    "(v0.19.0)";
constexpr std::string_view kEarlySamplerSource =
    "vllm/v1/worker/gpu_model_runner.py profile_run (v0.8.5: _dummy_sampler_run on the hidden states of all "
    "max_num_batched_tokens tokens); vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p (v0.8.5: "
    "logits.sort, softmax of the sorted logits)";
constexpr std::string_view kSortSamplerSource =
    "vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p_pytorch (logits.sort, then top-k and top-p masks on "
    "the sorted copy; the Triton kernel replaces it from v0.17: llm-d-planner @ a95e9f62e5de "
    "accuracy/results/version-sweep, Qwen3-14B on an H100, activation 5.64 GiB on 0.15-0.16, 2.23 GiB on 0.17-0.18); "
    "pytorch aten/src/ATen/native/cuda/SortStable.cu segmented_sort_pairs (int64 source indices, cub radix sort with "
    "alternate key and value buffers)";
constexpr std::string_view kFlashInferSamplerSource =
    "vllm/v1/sample/ops/topk_topp_sampler.py TopKTopPSampler.forward_cuda, flashinfer_sample (v0.10.1.1: FlashInfer "
    "when installed unless VLLM_USE_FLASHINFER_SAMPLER=0, log line 'Using FlashInfer for top-p & top-k sampling'; off "
    "by default from v0.11.1, vllm-project/vllm#26859); flashinfer python/flashinfer/sampling.py "
    "top_k_top_p_sampling_from_logits (top_k_first: top_k_mask_logits, then softmax, then top_p_sampling_from_probs)";
constexpr std::string_view kV0SamplerSource =
    "vllm/worker/model_runner.py _dummy_run (v0.7.3: max_num_seqs prompts with SamplingParams(top_p=0.99, top_k="
    "vocab_size - 1)), vllm/model_executor/layers/logits_processor.py (logits gathered to the driver rank only), "
    "vllm/model_executor/layers/sampler.py Sampler.forward and _apply_top_k_top_p (logits.to(float), logits.sort, "
    "VLLM_USE_FLASHINFER_SAMPLER unset); torch.sort's temporaries as for the V1 sort sampler (pytorch "
    "aten/src/ATen/native/cuda/SortStable.cu)";
constexpr std::string_view kPipelineSource = "vllm/v1/worker/gpu_model_runner.py make_empty_intermediate_tensors (v0.19.0)";

/// `part` (lower case) anywhere in the name, in any case (no copy: this runs on every estimate).
bool names(std::string_view name, std::string_view part) {
  for (std::size_t i = 0; i + part.size() <= name.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < part.size() && match; ++k)
      match = std::tolower(static_cast<unsigned char>(name[i + k])) == part[k];
    if (match) return true;
  }
  return false;
}

}  // namespace

bool v0_chunks_long_context(const Architecture& a, const GpuChoice& gpu) {
  const bool sliding = std::any_of(a.layer_specs.begin(), a.layer_specs.end(),
                                   [](const LayerSpec& l) { return l.kind == LayerKind::sliding_attention; });
  return gpu.rocm_arch == RocmArch::none && a.kv_lora_rank == 0 && a.vision_params == 0 && !sliding;
}

std::optional<VllmEngine> default_engine(const Version& v, const GpuChoice& gpu, std::int64_t pp, Family family) {
  const bool before_0_9_2 = !v.at_least(0, 10) && (v.minor < 9 || v.patch < 2);
  const bool before_0_8_3 = v.minor < 8 || (v.minor == 8 && v.patch < 3);
  const bool before_0_10_1 = !v.at_least(0, 11) && (v.minor < 10 || v.patch < 1);
  if (v.minor < 8 || v.major > 0) return std::nullopt;
  if ((gpu.rocm_arch != RocmArch::none && before_0_9_2) || (pp > 1 && before_0_8_3)) return VllmEngine::v0;
  if (family == Family::minimax && before_0_10_1) return VllmEngine::v0;
  return std::nullopt;
}

SchedulerLimits scheduler_limits(const VllmSettings& s, const Version& v, const GpuChoice& gpu, std::int64_t context,
                                 bool v0_long_context_chunking) {
  SchedulerLimits l{};
  if (!v.v1_engine()) {
    // V0 schedules a whole prompt at once unless chunked prefill is on, which it
    // is by default only past 32,768 tokens (and only where it can chunk: CUDA, no
    // MLA, multimodal or sliding window): max_num_batched_tokens =
    // max(max_model_len, 2048), else 2048; max_num_seqs = 256 (vllm/engine/arg_utils.py, v0.6.4).
    const bool chunked = context > 32768 && v0_long_context_chunking;
    l.max_num_batched_tokens = chunked ? 2048 : std::max<std::int64_t>(context, 2048);
    l.max_num_seqs = 256;
    l.why = chunked ? "V0 defaults with chunked prefill past 32k: 2048 tokens, 256 sequences"
                    : "V0 defaults: max(max_model_len, 2048) tokens, 256 sequences";
  } else if (v.at_least(0, 9)) {
    // Since v0.9 the defaults depend on the device's memory: GPUs with at least 70 GiB,
    // A100s excepted, get 8192 batched tokens and 1024 sequences for `vllm serve`
    // (vllm/engine/arg_utils.py EngineArgs.get_batch_defaults, v0.19.0).
    const bool large = gpu.memory >= Bytes::from(70, kGiB) && !names(gpu.name, "a100");
    l.max_num_batched_tokens = large ? 8192 : 2048;
    l.max_num_seqs = large ? 1024 : 256;
    l.why = large ? "vllm serve defaults for GPUs with ≥ 70 GiB: 8192 tokens, 1024 sequences"
                  : "vllm serve defaults for GPUs under 70 GiB or A100s: 2048 tokens, 256 sequences";
  } else {
    // v0.8 chose by the device's name: 8192 batched tokens for `vllm serve` on
    // an H100 or H200, 2048 elsewhere, and 1024 sequences on every GPU
    // (vllm/engine/arg_utils.py _set_default_args_v1, v0.8.0).
    const bool hopper_name = names(gpu.name, "h100") || names(gpu.name, "h200");
    l.max_num_batched_tokens = hopper_name ? 8192 : 2048;
    l.max_num_seqs = 1024;
    l.why = hopper_name ? "V1 vllm serve defaults (v0.8) on an H100 or H200: 8192 tokens, 1024 sequences"
                        : "V1 vllm serve defaults (v0.8) on other GPUs: 2048 tokens, 1024 sequences";
  }
  if (s.max_num_batched_tokens) {
    l.max_num_batched_tokens = *s.max_num_batched_tokens;
    l.why = "as set";
  }
  if (s.max_num_seqs) l.max_num_seqs = *s.max_num_seqs;
  return l;
}

std::int64_t sampler_scratch_rows(std::int64_t sms, std::int64_t rows) {
  std::int64_t pow2 = 1;
  while (pow2 < std::min(sms, rows)) pow2 *= 2;
  return std::min(pow2, sms);
}

Term profile_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                          std::int64_t b, std::int64_t sms, bool sms_assumed) {
  const Factor seqs = Factor::of(rows, "seqs");
  const Factor v = Factor::of(vocab, "vocab");
  const std::int64_t scratch_rows = sampler_scratch_rows(sms, rows);
  auto part = [](Factors f) { return Term::product(std::move(f)); };
  return sum_nonzero(terms(
                         part({seqs, v, Factor::of(b, "B logits")}),                               // lm_head output
                         part({seqs, v, Factor::of(b == 4 ? 0 : 4, "B fp32 copy")}),               // logits.to(float32)
                         part({Factor::of(scratch_rows, sms_assumed ? "scratch rows (one per SM, 132 assumed)"
                                                                    : "scratch rows (one per SM)"),
                               v, Factor::of(4, "B top-k/top-p scratch")}),
                         part({Factor::of(2, "(probabilities + exponential draw)"), seqs, v, Factor::bytes(4)}),
                         part({Factor::of(checked::add(tokens, checked::mul(2, rows)), "rows (tokens + 2 × seqs)"),
                               Factor::of(hidden, "hidden"), Factor::bytes(b)})))  // hidden, last rows, rand_like
      .named("sampler step")
      .cite(kSamplerSource);
}

Bytes profile_sampler_bytes(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                            std::int64_t b, std::int64_t sms) {
  return profile_sampler_term(rows, tokens, vocab, hidden, b, sms).bytes;
}

Term early_v1_sampler_term(std::int64_t tokens, std::int64_t vocab, std::int64_t hidden, std::int64_t b) {
  const Factor rows = Factor::of(tokens, "rows (every scheduled token)");
  const Factor v = Factor::of(vocab, "vocab");
  auto part = [](Factors f) { return Term::product(std::move(f)); };
  return sum_nonzero(terms(part({rows, v, Factor::of(b, "B logits")}),
                           part({rows, v, Factor::of(b == 4 ? 0 : 4, "B fp32 copy")}),
                           part({rows, v, Factor::of(4 + 8, "B (sorted logits + int64 sort indices)")}),
                           part({rows, v, Factor::of(4, "B softmax of the sorted logits")}),
                           part({rows, Factor::of(hidden, "hidden"), Factor::bytes(b)})))
      .named("V1 sampler step before v0.9")
      .cite(kEarlySamplerSource);
}

namespace {
/// A V1 sampler step over `rows` sequences: their logits and fp32 copy, the
/// buffers of the top-k/top-p method (bytes per logit each), the hidden rows
/// the profiling run keeps (tokens + 2 × seqs).
Term sampler_rows_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                       std::int64_t b, std::initializer_list<Factor> per_logit) {
  const Factor seqs = Factor::of(rows, "seqs");
  const Factor v = Factor::of(vocab, "vocab");
  Terms parts;
  parts.push_back(Term::product({seqs, v, Factor::of(b, "B logits")}));
  parts.push_back(Term::product({seqs, v, Factor::of(b == 4 ? 0 : 4, "B fp32 copy")}));
  for (const Factor& f : per_logit) parts.push_back(Term::product({seqs, v, f}));
  parts.push_back(Term::product({Factor::of(checked::add(tokens, checked::mul(2, rows)), "rows (tokens + 2 × seqs)"),
                                 Factor::of(hidden, "hidden"), Factor::bytes(b)}));
  return sum_nonzero(std::move(parts));
}
}  // namespace

Term sort_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                       std::int64_t b) {
  return sampler_rows_term(rows, tokens, vocab, hidden, b,
                           {Factor::of(4 + 8, "B (sorted values + int64 indices)"),
                            Factor::of(8, "B int64 source indices"),
                            Factor::of(4 + 8, "B radix-sort alternate keys and values")})
      .named("sampler step, sort-based top-k/top-p (v0.9-0.16)")
      .cite(kSortSamplerSource);
}

Term v0_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden, std::int64_t b) {
  const Factor seqs = Factor::of(rows, "seqs");
  const Factor v = Factor::of(vocab, "vocab");
  return sum_nonzero(terms(Term::product({seqs, v, Factor::of(b, "B logits (gathered on the driver rank)")}),
                           Term::product({seqs, v, Factor::of(b == 4 ? 0 : 4, "B fp32 copy")}),
                           Term::product({seqs, v, Factor::of(4 + 8, "B (sorted values + int64 indices)")}),
                           Term::product({seqs, v, Factor::of(8, "B int64 source indices")}),
                           Term::product({seqs, v, Factor::of(4 + 8, "B radix-sort alternate keys and values")}),
                           Term::product({Factor::of(checked::add(tokens, rows), "rows (tokens + seqs)"),
                                          Factor::of(hidden, "hidden"), Factor::bytes(b)})))
      .named("V0 sampler step on the driver rank, sort-based top-k/top-p")
      .noted("the other tensor-parallel ranks sample nothing")
      .cite(kV0SamplerSource);
}

Term flashinfer_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                             std::int64_t b) {
  return sampler_rows_term(rows, tokens, vocab, hidden, b,
                           {Factor::of(4, "B top-k masked logits"), Factor::of(4, "B probabilities")})
      .named("sampler step, FlashInfer top-k/top-p (no sort)")
      .cite(kFlashInferSamplerSource);
}

bool flashinfer_sampler_by_default(const Version& v) {
  return v.v1_engine() && v.at_least(0, 9) && (!v.at_least(0, 11) || (v.minor == 11 && v.major == 0 && v.patch == 0));
}

Term profile_forward_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  // gate_up output (2I) and silu_and_mul output (I) alive together, plus four T × H
  // tensors (residual, normed input, attention input and output).
  const std::int64_t width = (a.block.dense_intermediate > 0 ? a.block.dense_intermediate : a.intermediate) / tp;
  const Factor t = Factor::of(tokens, "tokens");
  return Term::sum(terms(Term::product({t, Factor::of(3, "(gate_up 2 + silu_and_mul 1)"), Factor::of(width, "MLP width"),
                                        Factor::bytes(b)}),
                         Term::product({t, Factor::of(4, "(residual, normed input, attention input and output)"),
                                        Factor::of(a.hidden, "hidden"), Factor::bytes(b)})))
      .named("profiling forward pass")
      .cite(kForwardSource);
}

Bytes profile_forward_bytes(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  return profile_forward_term(a, tokens, tp, b).bytes;
}

namespace {
constexpr std::string_view kMamba2ProfileSource =
    "vllm/model_executor/layers/mamba/mamba_mixer2.py MambaMixer2.forward and conv_ssm_forward, the V1 profile run "
    "(attn_metadata None: hidden_states_B_C.transpose(0, 1).clone().transpose(0, 1).contiguous(), no scan; "
    "vllm-project/vllm#19327, v0.10.0); the SSM output preallocated beside in_proj's output from "
    "vllm-project/vllm#28587 (v0.12.0)";
}  // namespace

Term mamba2_profile_block_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b,
                               bool ssm_output_preallocated) {
  const std::int64_t groups = mamba2_groups_per_shard_set(a.ssm_groups, tp);
  const std::int64_t inner = a.ssm_inner / tp;
  const std::int64_t xbc = checked::add(a.ssm_inner, checked::product(2, groups, a.ssm_state)) / tp;
  const std::int64_t projected = checked::add(checked::add(inner, xbc), a.ssm_heads / tp);
  const Factor t = Factor::of(tokens, "tokens");
  Terms parts = terms(Term::product({t, Factor::of(projected, "in_proj output (z, x, B, C, dt)"), Factor::bytes(b)}),
                      Term::product({t, Factor::of(2, "copies (clone, contiguous)"), Factor::of(xbc, "x, B, C width"),
                                     Factor::bytes(b)}),
                      Term::product({t, Factor::of(2, "(residual, normed input)"), Factor::of(a.hidden, "hidden"),
                                     Factor::bytes(b)}));
  if (ssm_output_preallocated)
    parts.push_back(Term::product({t, Factor::of(inner, "SSM output width"), Factor::bytes(b)}));
  return Term::sum(std::move(parts)).named("Mamba-2 block in the profiling run").cite(kMamba2ProfileSource);
}

namespace {
constexpr std::string_view kMmProfileSource =
    "vllm/v1/worker/gpu_model_runner.py profile_run (batched_dummy_mm_inputs and encoder_cache kept through "
    "_dummy_run and _dummy_sampler_run), vllm/multimodal/encoder_budget.py _get_max_items and "
    "compute_mm_encoder_budget (budget = max(max_num_batched_tokens, tokens per item)) @ 28be48fa944d";
}  // namespace

Term mm_profile_inputs_term(const Architecture& a, std::int64_t budget, std::int64_t max_num_seqs,
                            std::int64_t max_model_len, std::int64_t b) {
  const Architecture::ImageProfile& img = a.image_profile;
  if (img.tokens == 0) return Term::given(Bytes{}).named("no image size in the config");
  const std::int64_t per_prompt = std::max<std::int64_t>(1, std::min<std::int64_t>(999, max_model_len / img.tokens));
  const std::int64_t items =
      std::max<std::int64_t>(1, std::min(std::max(budget, img.tokens) / img.tokens, checked::mul(max_num_seqs, per_prompt)));
  const Factor n = Factor::of(items, "images (the encoder budget / tokens per image)");
  Factors pixels{n, Factor::of(img.channels, "channels"), Factor::of(img.height, "rows"), Factor::of(img.width, "columns")};
  if (img.frames > 1) pixels.push_back(Factor::of(img.frames, "frames (the temporal patch)"));
  pixels.push_back(Factor::bytes(b));
  return Term::sum(terms(Term::product(std::move(pixels)).named("dummy pixels"),
                         Term::product({n, Factor::of(img.embeddings, "embeddings per image"),
                                        Factor::of(a.hidden, "hidden"), Factor::bytes(b)})
                             .named("encoder outputs")))
      .named("multimodal profiling inputs")
      .cite(kMmProfileSource);
}

Term v0_forward_term(const Architecture& a, std::int64_t tokens, std::int64_t b, std::int64_t tp) {
  // V0 eager forward: MLP temporaries 3·I/tp plus three T × H tensors per token.
  const Factor t = Factor::of(tokens, "tokens");
  return Term::sum(terms(Term::product({t, Factor::of(3, "(gate_up 2 + silu_and_mul 1)"),
                                        Factor::of(a.intermediate / tp, "MLP width"), Factor::bytes(b)}),
                         Term::product({t, Factor::of(3, "(residual, normed input, attention output)"),
                                        Factor::of(a.hidden, "hidden"), Factor::bytes(b)})))
      .named("V0 eager forward pass")
      .cite(kV0Source);
}

Bytes v0_forward_bytes(const Architecture& a, std::int64_t tokens, std::int64_t b, std::int64_t tp) {
  return v0_forward_term(a, tokens, b, tp).bytes;
}

namespace {
constexpr std::string_view kTransientMoeSource =
    "vllm/model_executor/layers/fused_moe/fused_moe.py fused_experts_impl (v0.8.0 to v0.13.0: intermediate_cache1 "
    "and intermediate_cache3 views of one buffer of M' × top-k × max(N, K), intermediate_cache2 of M' × top-k × N/2, "
    "N = 2·I/tp, K = H, allocated per call and freed after the layer; M' = min(tokens, VLLM_FUSED_MOE_CHUNK_SIZE), "
    "vllm/envs.py: 32768, 16384 from vllm-project/vllm#27426); the modular kernel with a persistent workspace is the "
    "default path from v0.14 (vllm-project/vllm#31052). moe_align_block_size's int32 sorted ids and the router's "
    "T × E logits (under 0.1 % of these buffers) are not counted";
}  // namespace

std::int64_t fused_moe_chunk(const Version& v) {
  if (v.at_least(0, 18)) return 0;
  return v.at_least(0, 12) ? 16384 : 32768;
}

namespace {

/// One fused-MoE buffer: a call's tokens × top-k slots × `width` elements of b bytes;
/// a call works on all the tokens, or on one chunk of them.
Term moe_slots(const Architecture& a, std::int64_t tokens, std::int64_t chunk, std::int64_t width,
               std::string_view what, std::int64_t b) {
  const Factor m = chunk > 0 && tokens > chunk ? Factor::of(chunk, "tokens (one chunk)") : Factor::of(tokens, "tokens");
  return Term::product({m, Factor::of(a.experts_per_token, "experts per token"), Factor::of(width, what), Factor::bytes(b)});
}

/// The w13 output width N of one rank's experts: 2·I/tp gated (gate and up),
/// I/tp for non-gated experts (FusedMoE is_act_and_mul=False).
std::int64_t w13_width(const Architecture& a, std::int64_t tp) {
  const std::int64_t i = a.expert_intermediate / tp;
  return a.block.gated_mlp ? checked::mul(2, i) : i;
}

/// How the wider fused-MoE buffer is labelled: max(N, H) for gated or non-gated experts.
std::string_view w13_label(const Architecture& a) {
  return a.block.gated_mlp ? "(max of 2·I/tp and H)" : "(max of I/tp and H; non-gated experts)";
}

}  // namespace

Term transient_moe_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b,
                        std::int64_t chunk) {
  if (a.experts == 0) return Term::given(Bytes{}).named("no experts");
  const std::int64_t i = a.expert_intermediate / tp;
  return Term::sum(terms(moe_slots(a, tokens, chunk, std::max(w13_width(a, tp), a.hidden), w13_label(a), b),
                         moe_slots(a, tokens, chunk, i, "I/tp", b)))
      .named("fused-MoE intermediate caches (per call)")
      .cite(kTransientMoeSource);
}

Term moe_layer_forward_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b,
                            std::int64_t chunk) {
  Term streams = Term::product({Factor::of(tokens, "tokens"),
                                Factor::of(4, "(residual, normed input, attention input and output)"),
                                Factor::of(a.hidden, "hidden"), Factor::bytes(b)});
  return Term::sum(terms(std::move(streams), transient_moe_term(a, tokens, tp, b, chunk)))
      .named("forward pass in an MoE layer")
      .cite(kForwardSource);
}

Term moe_workspace_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b,
                        std::int64_t chunk) {
  if (a.experts == 0) return Term::given(Bytes{}).named("no experts");
  // TritonExperts workspace_shapes: (M, topk, max(N/2, K)) + (M, topk, max(N, K)) with
  // N = 2·I/tp, K = H, M = one call's tokens; persistent.
  // Non-gated experts (is_act_and_mul=False): N = I/tp and the activation keeps N.
  const std::int64_t i = a.expert_intermediate / tp;
  Terms parts = terms(moe_slots(a, tokens, chunk, std::max(i, a.hidden), "(max of I/tp and H)", b),
                      moe_slots(a, tokens, chunk, std::max(w13_width(a, tp), a.hidden), w13_label(a), b));
  if (chunk > 0 && tokens > chunk) {
    parts.push_back(Term::product({Factor::of(tokens, "tokens"), Factor::of(a.hidden, "hidden (output of every chunk)"),
                                   Factor::bytes(b)}));
  }
  return Term::sum(std::move(parts)).named("fused-MoE workspace").cite(kMoeSource);
}

Bytes moe_workspace_bytes(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b) {
  return moe_workspace_term(a, tokens, tp, b).bytes;
}

namespace {
constexpr std::string_view kDeepGemmSource =
    "vllm/model_executor/layers/fused_moe/deep_gemm_moe.py DeepGemmExperts.workspace_shapes and "
    "deep_gemm_utils.py compute_aligned_M (M_sum = round_up(M × topk + E × (128 − 1), 128)); "
    "triton_deep_gemm_moe.py TritonOrDeepGemmExperts (DeepGEMM shapes whenever M >= 128); "
    "modular_kernel.py _allocate_buffers through v1/worker/workspace.py WorkspaceManager (persistent), v0.19.0";
}  // namespace

Term deep_gemm_workspace_term(const Architecture& a, std::int64_t tokens, std::int64_t tp, std::int64_t b,
                              std::int64_t local_experts) {
  if (a.experts == 0) return Term::given(Bytes{}).named("no experts");
  const std::int64_t experts = local_experts > 0 ? local_experts : a.experts;
  // Rows: every token's top-k slots, each expert's group padded to DeepGEMM's 128-row blocks.
  const std::int64_t i = a.expert_intermediate / tp;
  const std::int64_t rows = checked::ceil_div(checked::add(checked::mul(tokens, a.experts_per_token),
                                                           checked::mul(experts, 127)),
                                              128) *
                            128;
  const Factor m = Factor::of(rows, "rows (tokens × top-k + experts × 127, to a multiple of 128)");
  return Term::sum(terms(Term::product({m, Factor::of(std::max(i, a.hidden), "(max of I/tp and H)"), Factor::bytes(b)}),
                         Term::product({m, Factor::of(std::max(checked::mul(2, i), a.hidden), "(max of 2·I/tp and H)"),
                                        Factor::bytes(b)})))
      .named("fused-MoE workspace (DeepGEMM)")
      .cite(kDeepGemmSource);
}

Term pipeline_buffers_term(std::int64_t tokens, std::int64_t hidden, std::int64_t b) {
  return Term::product({Factor::of(2, "(hidden states + residual)"), Factor::of(tokens, "tokens"),
                        Factor::of(hidden, "hidden"), Factor::bytes(b)})
      .named("pipeline intermediate tensors")
      .cite(kPipelineSource);
}

}  // namespace vram::vllm
