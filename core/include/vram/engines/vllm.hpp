// vLLM's memory accounting (v1 engine; V0 differences noted per term).
//
// vLLM claims `gpu_memory_utilization × total` for itself, loads the weights,
// runs a profiling forward pass at `max_num_batched_tokens`, and gives every
// byte left to the KV cache:
//
//   available_kv = total × gpu_memory_utilization
//                − (weights + torch activation peak + non-torch increase)
//
// (vllm/v1/worker/gpu_worker.py determine_available_memory and
// vllm/utils/mem_utils.py memory_profiling, v0.19.0). The KV pool is cut into
// blocks of `block_size` tokens (vllm/v1/core/kv_cache_utils.py
// get_kv_cache_config_from_groups), which fixes "GPU KV cache size: N tokens"
// and "Maximum concurrency for C tokens per request: X".
//
// Worked example (the public H100 sweep, vllm-llmd-18): Llama-3.1-8B-Instruct
// bf16 on an H100 80GB (79.19 GiB seen), utilisation 0.95, 8,192-token context:
// requested 75.23 GiB − weights 14.99 GiB − activation peak 1.89 GiB − non-torch
// 0.25 GiB = 58.11 GiB of KV; at 131,072 B/token that is 29,751 blocks of 16
// tokens = 476,016 tokens, 58.11× concurrency at 8,192 tokens.
//
// What changes with the setting, each a term of its own below:
// - the interconnect (GPU catalog, or hardware.interconnect): NCCL's transport
//   and channels, NVLink SHARP, vLLM's custom all-reduce and torch symmetric
//   memory (engines/inference/vllm_comm.cpp);
// - the version (a ladder from 0.4 to 0.21, V0/V1 chosen by vllm.engine in
//   0.7-0.10): scheduler defaults, the profiling run's sampler (every token
//   before 0.9, a sort until 0.17, Triton since), the capture sizes and graph
//   mode, and from 0.21 the CUDA graphs inside the reservation
//   (vllm_profile.cpp, vllm_graphs.cpp);
// - hybrid attention + Mamba models: aligned pages and layer groups (vllm_kv.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vram/budget/kv_cache.hpp"
#include "vram/budget/term.hpp"
#include "vram/budget/weights.hpp"
#include "vram/model.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"
#include "vram/units.hpp"

namespace vram {
struct SweepCache;  // estimate.hpp
}

namespace vram::vllm {

/// How a version text sits on the ladder of behaviours the estimator knows (0.4 to 0.21).
enum class VersionFit : std::uint8_t { exact, newer, older, unreadable };

/// The oldest and newest vLLM versions whose behaviour is modelled.
inline constexpr int kOldestMinor = 4;
inline constexpr int kNewestMinor = 21;

/// A parsed vLLM version ("0.19.0" -> {0, 19, 0}); empty means the current one.
/// A version off the ladder runs as the nearest known one, and `fit` says so.
struct Version {
  int major = 0;
  int minor = 19;
  int patch = 0;
  VersionFit fit = VersionFit::exact;
  /// `vllm.engine` when given (VLLM_USE_V1 in 0.7-0.10); else V1 from 0.8.0.
  std::optional<VllmEngine> engine;
  bool v1_engine() const {
    if (engine) return *engine == VllmEngine::v1;
    return major > 0 || minor >= 8;
  }
  bool at_least(int ma, int mi) const { return major > ma || (major == ma && minor >= mi); }
};
Version parse_version(const std::string& text, std::optional<VllmEngine> engine = std::nullopt);

/// Scheduler defaults vLLM applies when the user sets none
/// (vllm/engine/arg_utils.py EngineArgs._set_default_args, per version).
struct SchedulerLimits {
  std::int64_t max_num_batched_tokens;
  std::int64_t max_num_seqs;
  std::string_view why;  ///< which default rule applied (a literal)
};
/// `v0_long_context_chunking`: whether V0 turns chunked prefill on by itself past
/// 32,768 tokens, which it does only on CUDA and not for MLA, multimodal or
/// sliding-window models (v0_chunks_long_context).
SchedulerLimits scheduler_limits(const VllmSettings& s, const Version& v, const GpuChoice& gpu, std::int64_t context,
                                 bool v0_long_context_chunking = true);

/// V0's rule for turning chunked prefill on past 32,768 tokens
/// (vllm/engine/arg_utils.py _set_default_args_v0, v0.8.0: current_platform.is_cuda(),
/// no sliding window, not multimodal, not MLA).
bool v0_chunks_long_context(const Architecture& arch, const GpuChoice& gpu);

/// The engine a version runs when `vllm.engine` is not given: V1 from v0.8,
/// except on ROCm until v0.9.1 (V1 by default there from vllm-project/vllm#19440,
/// merged 2025-06-10) and with pipeline parallelism until v0.8.2
/// (vllm-project/vllm#15556), and for MiniMax's lightning attention until v0.10.1
/// (V1 support: vllm-project/vllm#22151); vllm/engine/arg_utils.py _is_v1_supported_oracle.
std::optional<VllmEngine> default_engine(const Version& v, const GpuChoice& gpu, std::int64_t pipeline_parallel,
                                         Family family = Family::decoder);

/// vLLM pipeline stages: layers per stage, remainder to the stages before the
/// last (vllm/distributed/utils.py get_pp_indices).
std::vector<std::int64_t> pipeline_partition(std::int64_t layers, std::int64_t stages);

/// Rotary cos/sin cache held with the weights: max_position × rotary_dim in the
/// model dtype (vllm/model_executor/layers/rotary_embedding/base.py _compute_cos_sin_cache).
/// MiniMax models size it by max_model_len when that is shorter.
Term rotary_cache_term(const Architecture& arch, std::int64_t elem_bytes, std::int64_t max_model_len = 0);
Bytes rotary_cache_bytes(const Architecture& arch, std::int64_t elem_bytes);

/// Peak of the profiling run's sampler step on the last pipeline stage, for
/// `rows` = min(max_num_seqs, max_num_batched_tokens) sequences
/// (vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run; vllm/v1/sample/sampler.py, v0.19.0):
/// logits rows × V × b, their fp32 copy, the top-k/top-p scratch (one fp32 row
/// of V per streaming multiprocessor, `sms`; vllm/v1/sample/ops/topk_topp_triton.py),
/// softmax probabilities and the exponential draw (2 × rows × V fp32), the hidden
/// states ((T + 2·rows) × H × b). The BLAS workspace beside it is blas_workspace_term (budget/runtime).
/// Llama-3.1-8B on an H100: (14·1024 + 528)·128,256 + 10,240·4,096·2 = 1,990,283,264 B.
/// `sms_assumed`: the GPU's count is unknown and `sms` is the H100's (said in the formula).
Term profile_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                          std::int64_t elem_bytes, std::int64_t sms, bool sms_assumed = false);
Bytes profile_sampler_bytes(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                            std::int64_t elem_bytes, std::int64_t sms);

/// The V1 sampler step of v0.7-0.8: the profiling run samples every one of the
/// T scheduled tokens and top-k/top-p sorts the fp32 logits in full:
/// T × V × (b + 4 fp32 + 4 sorted + 8 indices + 4 softmax) + T × H × b + 32 MiB.
/// Llama-3.1-8B, T = 2048: 2048 × 128,256 × 22 + 2048 × 4,096 × 2 + 32 MiB = 5,829,033,984 B.
Term early_v1_sampler_term(std::int64_t tokens, std::int64_t vocab, std::int64_t hidden, std::int64_t elem_bytes);

/// The V1 sampler step of v0.9-0.16: the profiling run samples `rows` =
/// min(max_num_seqs, T) sequences and top-k/top-p sorts their fp32 logits with
/// torch.sort, whose CUDA kernel holds, besides its outputs (4 B values + 8 B
/// indices), int64 source indices and the radix sort's alternate key and value
/// buffers: rows × V × (b + 4 + 12 + 8 + 12) + (T + 2·rows) × H × b + 32 MiB.
/// Qwen3-14B, 1024 rows: 1024 × 151,936 × 38 + 10,240 × 5,120 × 2 + 32 MiB = 6,050,545,664 B.
Term sort_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                       std::int64_t elem_bytes);

/// The V0 engine's sampler step, on the driver rank only (the logits are
/// gathered there; the other tensor-parallel ranks sample nothing): `rows`
/// prompts' logits sorted by torch.sort in fp32 for top-k/top-p, at its peak
/// rows × V × (b + 4 + 12 + 8 + 12) + (T + rows) × H × b.
/// Qwen2.5-14B, 256 rows, T = 2048: 256 × 152,064 × 38 + 2,304 × 5,120 × 2 = 1,502,871,552 B.
Term v0_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                     std::int64_t elem_bytes);

/// The V1 sampler step through FlashInfer's top-k/top-p kernel (V1's default
/// up to v0.11.0 where FlashInfer is installed): the logits, their fp32 copy,
/// the top-k-masked logits and their softmax, no sort:
/// rows × V × (b + 4 + 4 + 4) + (T + 2·rows) × H × b + 32 MiB.
/// Qwen2.5-7B, 256 rows, T = 2048: 256 × 152,064 × 14 + 2,560 × 3,584 × 2 + 32 MiB = 596,901,888 B.
Term flashinfer_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                             std::int64_t elem_bytes);
/// Whether the version samples through FlashInfer when the scenario does not
/// say (VLLM_USE_FLASHINFER_SAMPLER unset): V1 from v0.9 up to v0.11.0.
bool flashinfer_sampler_by_default(const Version& v);

/// Rows of the top-k/top-p scratch: min(next power of two of min(SMs, rows), SMs).
std::int64_t sampler_scratch_rows(std::int64_t sms, std::int64_t rows);

/// Peak of the profiling forward pass over T tokens on one rank (v1 engine):
/// T × b × (3·I/tp + 4·H); the BLAS workspace beside it is blas_workspace_term (budget/runtime).
Term profile_forward_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                          std::int64_t elem_bytes);
Bytes profile_forward_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                            std::int64_t elem_bytes);

/// A Mamba-2 block in V1's profiling run (MambaMixer2 with no attention
/// metadata runs no SSM scan): in_proj's output z, x, B, C, dt of
/// (2·inner + 2·G·N + heads)/tp per token, the x, B, C block copied twice
/// (transpose().clone(), then contiguous()), from v0.12 the preallocated SSM
/// output of inner/tp, beside the residual and the normed input (2·H). G: the
/// groups after vLLM extends them to a multiple of TP. Nemotron-3 Nano 30B at
/// TP 1, T = 8,192, bf16: 8,192 × (10,304 + 4,096 + 2 × 6,144 + 2 × 2,688) × 2 B
/// = 525,336,576 B.
Term mamba2_profile_block_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                               std::int64_t elem_bytes, bool ssm_output_preallocated);

/// V1's profiling run of a multimodal model: the dummy batch of the largest
/// images and the encoder's outputs for them stay alive through the language
/// model's dummy forward and sampler runs (gpu_model_runner.py profile_run
/// keeps batched_dummy_mm_inputs and encoder_cache until both have run).
/// Items: max(budget, tokens per image) / tokens per image, at least 1, at most
/// max_num_seqs × min(999, max_model_len / tokens per image) (encoder_budget.py
/// _get_max_items); pixels in the model dtype, outputs of the text width.
/// Gemma 3 4B at 8,192 tokens: 32 × 3 × 896² × 2 B + 32 × 256 × 2,560 × 2 B = 196,083,712 B.
/// Qwen3.5-35B-A3B: one 4,096² image of 16,384 tokens, its pixels over 2 frames: 201,326,592 B + 67,108,864 B.
Term mm_profile_inputs_term(const Architecture& arch, std::int64_t budget_tokens, std::int64_t max_num_seqs,
                            std::int64_t max_model_len, std::int64_t elem_bytes);

/// The V0 engine's eager forward peak: T × b × 3 × (I/tp + H); the MLP is
/// column-parallel, so each rank holds I/tp of its width.
Term v0_forward_term(const Architecture& arch, std::int64_t tokens, std::int64_t elem_bytes,
                     std::int64_t tensor_parallel = 1);
Bytes v0_forward_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t elem_bytes,
                       std::int64_t tensor_parallel = 1);

/// Fused-MoE workspace of the modular kernel (v0.14 on), persistent from the
/// profiling run on: b × M' × top_k × (max(I/tp, H) + max(2·I/tp, H))
/// (fused_moe.py TritonExperts.workspace_shapes), M' = min(T, chunk); a call
/// of more than one chunk also writes its T × H output apart (`chunk` 0: none).
Term moe_workspace_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                        std::int64_t elem_bytes, std::int64_t chunk = 0);
Bytes moe_workspace_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                          std::int64_t elem_bytes);
/// The Triton fused-MoE path's tokens per call: VLLM_FUSED_MOE_CHUNK_SIZE,
/// 32,768 until v0.11 and 16,384 from v0.12 (vllm-project/vllm#27426); from
/// v0.18 the modular kernel no longer chunks (vllm-project/vllm#34086): 0.
std::int64_t fused_moe_chunk(const Version& v);

/// Before v0.14 the default Triton path (fused_experts_impl) allocates its
/// buffers per call and frees them after the layer: intermediate_cache1 and
/// intermediate_cache3 share one buffer of M' × top_k × max(2·I/tp, H),
/// intermediate_cache2 is M' × top_k × I/tp, M' = min(T, chunk); all × b.
/// Mixtral-8x7B at TP 2, T = 8,192, bf16: 8,192 × 2 × (14,336 + 7,168) × 2 B = 704,643,072 B.
Term transient_moe_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                        std::int64_t elem_bytes, std::int64_t chunk);
/// The forward pass's live set inside an MoE layer before v0.14: the four
/// T × H tensors of profile_forward_term beside the transient fused-MoE buffers.
Term moe_layer_forward_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                            std::int64_t elem_bytes, std::int64_t chunk);

/// The same workspace when DeepGEMM runs block-fp8 experts (vllm.moe_backend
/// deep_gemm): rows M_sum = round_up(T × top_k + E × 127, 128), the
/// token slots grouped per expert in 128-row blocks, × (max(I/tp, H) +
/// max(2·I/tp, H)) × b. DeepSeek-V3 at TP 8, T = 8,192: M_sum = 98,048,
/// (7,168 + 7,168) × 2 B each: 2,811,232,256 B.
/// `local_experts`: the experts on this rank (expert parallelism), 0 for all of them.
Term deep_gemm_workspace_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                              std::int64_t elem_bytes, std::int64_t local_experts = 0);

/// With pipeline parallelism every stage holds one batch of intermediate
/// tensors, hidden states and residual of T × H each: 2 × T × H × b (the first
/// stage the ones it sends, the others the buffers they receive into;
/// gpu_model_runner.py make_empty_intermediate_tensors, v0.19.0).
Term pipeline_buffers_term(std::int64_t tokens, std::int64_t hidden, std::int64_t elem_bytes);

/// The MoE kernel vLLM runs MXFP4 experts with, and the padding its weight
/// layout needs (vllm/model_executor/layers/quantization/mxfp4.py
/// get_mxfp4_backend, Mxfp4MoEMethod.create_weights).
enum class Mxfp4MoeBackend : std::uint8_t {
  none,        ///< ROCm (its layout is not modelled): stored as in the checkpoint
  marlin,      ///< sm80/86/89/120: intermediate to 128, hidden to 256
  triton,      ///< sm90 (triton_kernels): intermediate to 64
  flashinfer,  ///< sm100 family (FlashInfer): intermediate and hidden to 256
};
struct Mxfp4MoeLayout {
  Mxfp4MoeBackend backend = Mxfp4MoeBackend::none;
  std::int64_t intermediate_multiple = 1;
  std::int64_t hidden_multiple = 1;
  bool assumed = false;  ///< the compute capability is unknown: sm90's layout, said in the formula
};
/// By CUDA compute capability × 10; unknown (0) on a CUDA GPU: sm90's; ROCm: none.
Mxfp4MoeLayout mxfp4_moe_layout(int compute_capability, RocmArch rocm = RocmArch::none);
/// Bytes the padded layout adds over the stored experts: `extra_elements`
/// more fp4 values (and their scales) at 17 B per 32.
Term mxfp4_moe_padding_term(const Mxfp4MoeLayout& layout, Bytes padded, Bytes stored, std::int64_t extra_elements);

/// The MXFP4 experts of one rank as the triton_kernels backend (sm90) keeps
/// them after loading, beyond the checkpoint's tensors padded to the backend's
/// intermediate multiple:
///  - value swizzle padding: HopperMXValueLayout pads both byte dimensions of
///    w13 [2·I_p, H/2] and w2 [H, I_p/2] to multiples of 64 (triton v3.6.0,
///    bundled from vLLM 0.16; none before, `value_padding` false);
///  - scale swizzle padding: HopperMXScaleLayout pads the scale rows to 256
///    and the scale columns to 2;
///  - the checkpoint's scales stay allocated beside the swizzled copies (the
///    triton path deletes the values only);
///  - expert biases converted to fp32 (bf16 in the checkpoint).
/// `experts` on this rank, `inter` the unpadded intermediate per rank, `inter_padded` I_p.
struct Mxfp4TritonShape {
  std::int64_t layers = 0;
  std::int64_t experts = 0;
  std::int64_t hidden = 0;
  std::int64_t inter = 0;
  std::int64_t inter_padded = 0;
  bool biases = false;
  bool value_padding = true;
};
Term mxfp4_triton_layout_term(const Mxfp4TritonShape& s);

/// KV cache layout after vLLM's grouping of layers with the same attention
/// type into groups of equal size (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size).
struct KvLayout {
  /// Layers per attention type (kind and window) on this GPU.
  struct Type {
    LayerKind kind;
    std::int64_t window;
    std::int64_t layers;
  };
  std::vector<Type> types;
  std::int64_t group_size = 0;  ///< layers per group
  std::int64_t groups = 0;      ///< number of groups
  Bytes page_bytes;             ///< one block of one layer
  std::int64_t block_size = 0;  ///< tokens per block when vLLM raised it (hybrid models); 0: the setting's
};
KvLayout kv_layout(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                   std::int64_t block_size, std::int32_t first_layer, std::int32_t end_layer);

/// vLLM's page alignment for models mixing attention and recurrent layers
/// (Mamba-1, Mamba-2, Gated DeltaNet; V1, v0.10.2+): the attention block grows
/// to 16 × cdiv(state page, 16 × attention bytes per token), and the state page
/// is padded to the attention page, so every layer's page is the same size
/// (vllm/model_executor/models/config.py HybridAttentionMambaModelConfig.
/// verify_and_update_config, the path without prefix caching). Jamba at TP 1:
/// 311,296 B state per layer, 4,096 B per token → 80-token blocks, 327,680 B pages.
/// Qwen3-Next-80B at TP 2: 548,864 B per Gated DeltaNet layer, 1,024 B per token
/// → 544-token blocks, padded by 1.49 % (both as its v0.10.2 startup log prints).
struct HybridPages {
  std::int64_t block_size = 0;  ///< tokens per attention block
  Bytes page;                   ///< one block of one layer, attention or Mamba
  Bytes mamba_state;            ///< one sequence's state in one recurrent layer, before padding
};
HybridPages hybrid_pages(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                         std::int64_t block_size, StateBits state_bits);

/// The layout of a hybrid model under that alignment: Mamba layers are one
/// more type of layer in the groups, each holding one page per sequence.
KvLayout hybrid_kv_layout(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                          std::int64_t block_size, StateBits state_bits, std::int32_t first_layer,
                          std::int32_t end_layer);

/// The cache `concurrency` sequences need under that alignment: whole
/// attention blocks of the raised size, and one padded page per Mamba layer.
Term hybrid_kv_needed_term(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                           std::int64_t block_size, StateBits state_bits, std::int64_t context,
                           std::int64_t concurrency, std::int32_t first_layer, std::int32_t end_layer);

/// Blocks, tokens and concurrency vLLM derives from an available KV budget.
struct KvPool {
  std::int64_t blocks = 0;
  std::int64_t tokens = 0;
  double max_concurrency = 0;
};
KvPool kv_pool(const KvLayout& layout, Bytes available, std::int64_t block_size, std::int64_t context,
               std::int64_t max_num_batched_tokens);

/// The KV cache `concurrency` sequences of `context` tokens need on layers
/// [first, end), in whole blocks, sliding layers capped at their window, plus
/// one recurrent state of `state_bits` bits per sequence in the Mamba layers
/// (vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes, MambaSpec; v0.19.0).
Term kv_needed_term(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                    std::int64_t block_size, std::int64_t context, std::int64_t concurrency, std::int32_t first_layer,
                    std::int32_t end_layer, StateBits state_bits);

/// The element widths vLLM gives recurrent states (MambaStateDtypeCalculator._mamba_state_dtype,
/// vllm/model_executor/layers/mamba/mamba_utils.py, vLLM main at commit 02d7108): the conv state in
/// mamba_cache_dtype ("auto": the model dtype, `model_bits`); the SSM state in mamba_ssm_cache_dtype, or
/// when that is "auto" the conv state's, except for Nemotron-H from v0.13, whose "auto" becomes the
/// config's own mamba_ssm_cache_dtype or float32 (vllm/model_executor/models/config.py
/// NemotronHForCausalLMConfig; pull requests #29978, December 2025, and #39032, April 2026).
/// Nemotron-H with an SSM "auto" and mamba_cache_dtype float16 at 16 bits: conv 16, SSM 32.
StateBits mamba_state_bits(const VllmSettings& settings, const Architecture& arch, const Version& version,
                           std::int64_t model_bits);

/// What vLLM claims for itself: ceil(total × gpu_memory_utilization)
/// (vllm/v1/worker/utils.py request_memory, v0.19.0).
Term requested_memory_term(Bytes total, double gpu_memory_utilization);

/// How one layout's collectives run: what decides which communication
/// buffers exist outside the torch allocator.
struct CommLayout {
  std::int64_t tensor_parallel = 1;
  std::int64_t pipeline_parallel = 1;
  Interconnect link = Interconnect::unknown;  ///< as given, or the catalog GPU's
  int compute_capability = 0;                 ///< × 10; 0 when unknown (the tables are read at sm90)
  Version version;
  bool experts = false;  ///< a MoE model (vLLM's expert group gets a communicator of its own)
};

/// The interconnect the terms assume: NVLink through NVSwitch when unknown
/// (the H100 SXM boards the runtime terms were measured on).
Interconnect effective_link(Interconnect link);

/// vLLM enables its custom all-reduce for 2, 4, 6 or 8 GPUs; beyond 2 only when
/// all are connected (NVLink / xGMI); 2 GPUs need P2P (custom_all_reduce.py).
bool custom_allreduce_enabled(const CommLayout& c);

/// Kernel images and cuBLAS/attention workspaces created by the first forward
/// pass. Calibrated on sm90 (0.25 GiB; 0.07 GiB on a pipeline stage), with range.
Term library_workspaces_term(const CommLayout& c);

/// NCCL buffers the tensor-parallel communicator connects for the profiling
/// run's large all-reduce (its tree; the ring was connected by the warm-up at
/// start): channels × 1 connection × the protocol buffers (LL 512 KiB, LL128
/// 4,915,200 B on NVLink, Simple 4 MiB). None over PCIe without P2P, where
/// NCCL's SHM transport uses host memory. NVSwitch: 24 × 9,633,792 B = 231,211,008 B.
Term nccl_buffers_term(const CommLayout& c);

/// NVLink SHARP buffers, with more than 2 GPUs on an NVSwitch fabric of sm90+:
/// 16 channels × 2 × 1 MiB × GPUs (4 GPUs: 134,217,728 B).
Term nvls_buffers_term(const CommLayout& c);

/// vLLM's custom all-reduce IPC buffers where it is enabled: 2 × 8 MiB.
Term custom_allreduce_term(const CommLayout& c);

/// torch symmetric-memory all-reduce buffer (v0.11+, NVLink, sm90/sm100):
/// 64 MiB at 2 GPUs on sm90, 32 MiB at 4.
Term symm_mem_term(const CommLayout& c);

/// What the sweep's tensor-parallel runs hold beyond the modelled terms:
/// 1.54 GiB, calibrated (range), measured on NVLink H100 only.
/// vLLM's torch symmetric-memory all-reduce is on: v0.11+, NVLink fabric, sm90/sm100, TP 2/4/6/8.
bool symm_mem_on(const CommLayout& c);
Term tp_unattributed_term(const CommLayout& c);

/// Non-torch memory that appears during the profiling forward pass: the sum of
/// the terms above ("non-torch forward increase memory" in vLLM's log).
Term non_torch_term(const CommLayout& c);
Bytes non_torch_increase(const CommLayout& c);

/// NCCL communicators of more than one rank vLLM creates at start, each warmed
/// up with an all-reduce (pynccl.py PyNcclCommunicator): the world group, the
/// tensor-parallel and pipeline-parallel groups, and the expert group of a MoE model.
std::int64_t nccl_communicators(const CommLayout& c);

/// Their memory at start, outside the allocator and before vLLM's baseline:
/// communicators × (channels × 1 ring connection × protocol buffers + 0.28 GiB
/// of other device state, calibrated with range on the v0.19 H100 sweep).
/// TP 2 over NVSwitch: 2 × (231,211,008 + 300,647,711) = 1,063,717,438 B.
Term nccl_init_term(const CommLayout& c);

/// vLLM's CUDA context line: the driver context plus the communicators at start.
Term vllm_context_term(const CommLayout& c, int sm_count, RocmArch rocm = RocmArch::none);

/// From v0.21 vLLM estimates the CUDA graph memory during profiling and takes it
/// out of the KV budget (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, default since
/// v0.21.0 as its startup log says; opt-in before): the graphs then sit inside
/// gpu_memory_utilization. Only on CUDA: on ROCm the estimate is skipped
/// (vllm/v1/worker/gpu_worker.py determine_available_memory checks
/// current_platform.is_cuda(), vllm-project/vllm#36720, before v0.21), so the
/// graphs stay outside the reservation there.
bool graphs_profiled(const Version& v, RocmArch rocm = RocmArch::none);

/// How vLLM captures CUDA graphs (vllm/config/compilation.py CUDAGraphMode).
using GraphMode = CudaGraphMode;

/// `cudagraph_mode` when given; none with enforce_eager; full graphs under V0;
/// piecewise on V1 before 0.11; FULL_AND_PIECEWISE from 0.11.
GraphMode graph_mode(const VllmSettings& s, const Version& v);

/// The batch sizes vLLM captures: `cudagraph_capture_sizes` when given (up to
/// max_num_batched_tokens), else the version's default list cut by the
/// scheduler limits. v0.19 with 1024 sequences and 8192 tokens: 51 sizes, 1 to 512.
std::vector<std::int64_t> capture_sizes(const VllmSettings& s, const Version& v, std::int64_t max_num_seqs,
                                        std::int64_t max_num_batched_tokens);

/// Graphs captured: one per size (piecewise or full), a full decode graph for
/// each size up to max_num_seqs (FULL_DECODE_ONLY), or both (FULL_AND_PIECEWISE).
std::int64_t captured_graphs(GraphMode mode, const std::vector<std::int64_t>& sizes, std::int64_t max_num_seqs);

/// CUDA graph pools, captured after the KV cache outside gpu_memory_utilization:
/// a shared pool sized by the largest capture and the activation dtype (0.138 GiB
/// at 512 tokens in 16-bit, in proportion otherwise) + graphs × layers × 168,430 B, calibrated on the v0.19
/// H100 sweep (0.016 GiB per layer over its 102 graphs); range from the same
/// sweep (dense, or MoE when `moe`). Llama-3.1-8B: 0.138 GiB + 102 × 32 × 168,430 B.
/// On ROCm (`rocm` set) the per-graph cost was never measured: the range is 0.5x to 2x.
Term cuda_graph_term(std::int64_t graphs, std::int64_t layers_on_gpu, bool moe, std::int64_t largest_capture = 512,
                     std::int64_t elem_bytes = 2, RocmArch rocm = RocmArch::none);

/// FlashAttention 3 (Hopper, fp16/bf16) preallocates split-KV accumulators for
/// the full decode graphs: 32 splits × the largest full graph's tokens × heads/tp
/// × (head dim, the latent for MLA) × 4 B, plus 32 × tokens × heads × 4 B of
/// log-sum-exp. Llama-3.1-8B at 512: 268,435,456 + 2,097,152 = 270,532,608 B.
/// None on ROCm, whose attention backends (Triton, ROCm attention) keep no
/// split-KV accumulators of this size.
Term fa3_split_buffers_term(const Architecture& arch, std::int64_t tensor_parallel, std::int64_t largest_decode,
                            std::int64_t elem_bytes, int compute_capability, RocmArch rocm = RocmArch::none);

/// Fills `report` for a vLLM scenario. With `sweep` (figures only), the stages
/// built for the scenario's context are kept and reused at every concurrency.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr, vram::SweepCache* sweep = nullptr);

}  // namespace vram::vllm
