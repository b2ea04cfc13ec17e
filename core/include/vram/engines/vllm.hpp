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
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vram/budget/term.hpp"
#include "vram/budget/weights.hpp"
#include "vram/model.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"
#include "vram/units.hpp"

namespace vram::vllm {

/// A parsed vLLM version ("0.19.0" -> {0, 19, 0}); empty means the current one.
struct Version {
  int major = 0;
  int minor = 19;
  int patch = 0;
  bool v1_engine() const { return major > 0 || minor >= 8; }  ///< V1 default from 0.8.0
  bool at_least(int ma, int mi) const { return major > ma || (major == ma && minor >= mi); }
};
Version parse_version(const std::string& text);

/// Scheduler defaults vLLM applies when the user sets none
/// (vllm/engine/arg_utils.py EngineArgs._set_default_args, per version).
struct SchedulerLimits {
  std::int64_t max_num_batched_tokens;
  std::int64_t max_num_seqs;
  std::string_view why;  ///< which default rule applied (a literal)
};
SchedulerLimits scheduler_limits(const VllmSettings& s, const Version& v, const GpuChoice& gpu, std::int64_t context);

/// vLLM pipeline stages: layers per stage, remainder to the stages before the
/// last (vllm/distributed/utils.py get_pp_indices).
std::vector<std::int64_t> pipeline_partition(std::int64_t layers, std::int64_t stages);

/// Rotary cos/sin cache held with the weights: max_position × rotary_dim in the
/// model dtype (vllm/model_executor/layers/rotary_embedding/base.py _compute_cos_sin_cache).
Term rotary_cache_term(const Architecture& arch, std::int64_t elem_bytes);
Bytes rotary_cache_bytes(const Architecture& arch, std::int64_t elem_bytes);

/// Peak of the profiling run's sampler step on the last pipeline stage, for
/// `rows` = min(max_num_seqs, max_num_batched_tokens) sequences
/// (vllm/v1/worker/gpu_model_runner.py _dummy_sampler_run; vllm/v1/sample/sampler.py, v0.19.0):
/// logits rows × V × b, their fp32 copy, the top-k/top-p scratch (one fp32 row
/// of V per streaming multiprocessor, `sms`; vllm/v1/sample/ops/topk_topp_triton.py),
/// softmax probabilities and the exponential draw (2 × rows × V fp32), the hidden
/// states ((T + 2·rows) × H × b) and the cuBLAS workspace (32 MiB).
/// Llama-3.1-8B on an H100: (14·1024 + 528)·128,256 + 10,240·4,096·2 + 32 MiB = 2,023,837,696 B.
/// `sms_assumed`: the GPU's count is unknown and `sms` is the H100's (said in the formula).
Term profile_sampler_term(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                          std::int64_t elem_bytes, std::int64_t sms, bool sms_assumed = false);
Bytes profile_sampler_bytes(std::int64_t rows, std::int64_t tokens, std::int64_t vocab, std::int64_t hidden,
                            std::int64_t elem_bytes, std::int64_t sms);

/// Rows of the top-k/top-p scratch: min(next power of two of min(SMs, rows), SMs).
std::int64_t sampler_scratch_rows(std::int64_t sms, std::int64_t rows);

/// Peak of the profiling forward pass over T tokens on one rank (v1 engine):
/// T × b × (3·I/tp + 4·H) + the cuBLAS workspace.
Term profile_forward_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                          std::int64_t elem_bytes);
Bytes profile_forward_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                            std::int64_t elem_bytes);

/// The V0 engine's eager forward peak: T × b × 3 × (I + H).
Term v0_forward_term(const Architecture& arch, std::int64_t tokens, std::int64_t elem_bytes);
Bytes v0_forward_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t elem_bytes);

/// Fused-MoE workspace, persistent from the profiling run on: b × T × top_k ×
/// (max(I/tp, H) + max(2·I/tp, H)) (fused_moe.py TritonExperts.workspace_shapes).
Term moe_workspace_term(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                        std::int64_t elem_bytes);
Bytes moe_workspace_bytes(const Architecture& arch, std::int64_t tokens, std::int64_t tensor_parallel,
                          std::int64_t elem_bytes);

/// With pipeline parallelism every stage holds one batch of intermediate
/// tensors, hidden states and residual of T × H each: 2 × T × H × b (the first
/// stage the ones it sends, the others the buffers they receive into;
/// gpu_model_runner.py make_empty_intermediate_tensors, v0.19.0).
Term pipeline_buffers_term(std::int64_t tokens, std::int64_t hidden, std::int64_t elem_bytes);

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
};
KvLayout kv_layout(const Architecture& arch, const KvDtype& dtype, std::int64_t tensor_parallel,
                   std::int64_t block_size, std::int32_t first_layer, std::int32_t end_layer);

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
                    std::int32_t end_layer, std::int64_t state_bits);

/// What vLLM claims for itself: ceil(total × gpu_memory_utilization)
/// (vllm/v1/worker/utils.py request_memory, v0.19.0).
Term requested_memory_term(Bytes total, double gpu_memory_utilization);

/// Non-torch memory that appears during the profiling forward pass: cuBLAS and
/// attention workspaces on one GPU, plus NCCL and FlashInfer all-reduce buffers
/// with tensor parallelism. Measured per engine version ("non-torch forward
/// increase memory" in the vLLM 0.19.0 H100 sweep, llm-d-planner @ d3121e059da8:
/// 0.24–0.26 GiB on most single-GPU runs and 0.46 GiB on the granite ones,
/// 2.07–2.21 GiB at TP 2/4, 0.07 GiB at PP 2/4).
/// Calibrated: the term's range is the spread of the sweep's runs of that layout.
Term non_torch_term(std::int64_t tensor_parallel, std::int64_t pipeline_parallel);
Bytes non_torch_increase(std::int64_t tensor_parallel, std::int64_t pipeline_parallel);

/// CUDA graph pools, captured after the KV cache outside gpu_memory_utilization.
/// Each of the 51 default capture sizes records a piecewise graph per layer and a
/// full graph, so the pool grows with the layers on the GPU: 0.39 GiB + 0.016 GiB
/// per layer ("Graph capturing finished ... took X GiB" across the same sweep's
/// dense runs with 8 to 80 layers per GPU); none with enforce_eager.
/// Calibrated: the range spans measured / estimated over the sweep's dense
/// runs, or over its MoE runs when `moe` (whose pools run up to twice the fit).
Term cuda_graph_term(bool enforce_eager, std::int64_t layers_on_gpu, bool moe);
Bytes cuda_graph_bytes(bool enforce_eager, std::int64_t layers_on_gpu);

/// Fills `report` for a vLLM scenario.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr);

}  // namespace vram::vllm
