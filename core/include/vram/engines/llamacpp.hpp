// llama.cpp's memory accounting.
//
// llama.cpp allocates exactly what it is told: the offloaded layers' weights
// ("CUDA0 model buffer size"), a KV cache of n_ctx cells for every layer
// ("KV self size" / "llama_kv_cache: size"), and one compute buffer sized by
// the graph allocator for the largest micro-batch ("CUDA0 compute buffer size").
// Sources: ggml-org/llama.cpp src/llama-model.cpp (layer offload: layers with
// il >= n_layer − n_gpu_layers; the output layer when n_gpu_layers > n_layer;
// token_embd stays on the CPU), src/llama-kv-cache.cpp (K and V tensors of
// n_embd_k_gqa × kv_size per layer, on the device of their layer),
// src/llama-context.cpp (graph reserve at n_ubatch tokens against a full cache).
//
// Several GPUs (hardware.count) share the model as --split-mode says
// (parallel/layer_split.hpp): each GPU gets its own weights, KV cache, compute
// buffer and CUDA context. The report's components are those of the fullest
// GPU, which decides the fit; the engine detail "split" lists every GPU.
#pragma once

#include <array>

#include <cstdint>
#include <optional>
#include <vector>

#include "vram/budget/weights.hpp"
#include "vram/model.hpp"
#include "vram/parallel/layer_split.hpp"
#include "vram/budget/term.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"
#include "vram/units.hpp"

namespace vram::llamacpp {

/// KV cells allocated: n_ctx = context × n_seq_max (all sequences share one
/// unified cache), padded up to a multiple of 256 (llama-context.cpp:
/// GGML_PAD(n_ctx, 256)).
std::int64_t kv_cells(std::int64_t context, std::int64_t n_seq_max);

/// llama.cpp's KV cache as streams (src/llama-kv-cache.cpp: n_stream =
/// kv_unified ? 1 : n_seq_max; K and V [n_embd_gqa, kv_size, n_stream]):
/// one stream shared by every sequence (before b5913 the only cache; since,
/// --kv-unified and llama-server's automatic slots), else one per sequence
/// (llama_context_default_params kv_unified = false since b5913: an explicit
/// -np N without -kvu). n_ctx = context × n_seq_max padded
/// to 256; each of the n_seq_max streams holds n_ctx / n_seq_max cells padded
/// to 256 (src/llama-context.cpp, n_ctx_seq, b6975 and later).
struct KvStreams {
  std::int64_t cells = 0;  ///< per stream: what the attention of one micro-batch sees (n_kv at graph reserve)
  std::int64_t streams = 1;
  std::int64_t total() const { return checked::mul(cells, streams); }
};
KvStreams kv_streams(std::int64_t context, std::int64_t n_seq_max, bool unified);

/// The KQ mask as a llama.cpp build lays it out in the compute buffer
/// (src/llama-graph.cpp): its rows padded to GGML_KQ_MASK_PAD (32 from b2771,
/// 64 from b4617, 1 from b7256); F32, and with flash attention an F16 cast
/// beside it (ggml_cast) until b9410, from which the mask is F16 itself.
struct MaskLayout {
  std::int64_t row_pad = 64;
  std::int64_t bytes = 4;     ///< per element of the mask
  std::int64_t f16_copy = 0;  ///< bytes per element of the F16 cast (2) or none
};
/// By build number (llama.cpp's bNNNN tag); none given: the newest known build's.
MaskLayout mask_layout(std::optional<std::int64_t> build, bool flash_attn);
/// The newest build whose behaviour the ladder above knows.
inline constexpr std::int64_t kNewestKnownBuild = 10309;

/// Compute buffer of one device: the graph allocator's peak for a micro-batch
/// of n_ubatch tokens attending to `n_kv` cells of each of `streams` streams
/// (the micro-batch's rows split over the streams).
///  - without flash attention the score matrix KQ is materialised in f32,
///    n_kv × n_ubatch × n_head × 4 B (softmax runs in place), beside the f32 KQ
///    mask n_kv × pad(n_ubatch / streams, 64) × streams × 4 B and four
///    n_ubatch × n_embd f32 rows;
///  - with flash attention no score matrix exists;
///  - the output device ends with n_ubatch × (n_vocab + n_embd) × 4 B of logits.
/// Llama-3.1-8B, n_ctx 8192, n_ubatch 512, no flash attention: 512 + 16 + 32 = 560 MiB.
Bytes compute_buffer_bytes(const Architecture& arch, std::int64_t n_kv, std::int64_t n_ubatch, bool flash_attn,
                           bool holds_output, std::int64_t streams = 1, MaskLayout mask = {});
/// `mask` defaults to the layout of b4617–b7255 (rows padded to 64, F32);
/// the engine passes mask_layout(build, flash_attn).
/// The same as a term: max(attention parts, output logits).
Term compute_buffer_term(const Architecture& arch, std::int64_t n_kv, std::int64_t n_ubatch, bool flash_attn,
                         bool holds_output, std::int64_t streams = 1, MaskLayout mask = {});

/// KV of layers [first, end): every stream's cells per layer (windowed layers
/// hold n_swa × n_seq_max + n_ubatch in a unified cache, n_swa + n_ubatch per
/// stream otherwise, padded to 256, when fewer), plus the f32 recurrent states
/// of n_seq_max sequences in Mamba layers. One product per group of layers
/// that hold as many cells at the same cost.
Term kv_range_term(const Architecture& arch, const InferenceSettings& inf, const KvStreams& kv, std::int64_t first,
                   std::int64_t end);
Bytes kv_range_bytes(const Architecture& arch, const InferenceSettings& inf, const KvStreams& kv, std::int64_t first,
                     std::int64_t end);

/// What ggml's scheduler adds to each GPU's compute buffer when it pipelines
/// micro-batches over several GPUs: GGML_SCHED_MAX_COPIES = 4 copies of every
/// input a GPU receives instead of one, i.e. 3 more of the KQ mask
/// (n_kv × n_ubatch padded to 64 × 4 B) and of the incoming hidden state
/// (n_ubatch × n_embd × 4 B). Llama-3.1-8B, 8,192 cells, n_ubatch 512:
/// 3 × (16 MiB + 8 MiB) = 72 MiB.
Bytes pipeline_copies_bytes(const Architecture& arch, std::int64_t n_kv, std::int64_t n_ubatch);

/// One GPU's share of a llama.cpp model.
struct GpuShare {
  bool used = false;             ///< in llama.cpp's device list (split_mode none: main_gpu only)
  std::int64_t first_layer = 0;  ///< repeating layers [first_layer, end_layer) are assigned to this GPU
  std::int64_t end_layer = 0;
  bool output = false;  ///< the output layer (final norm, lm_head and the logits) is on this GPU
  WeightsEstimate weights;
  Bytes kv;
  Bytes compute;
  Bytes context;
  Bytes total() const { return weights.bytes + kv + compute + context; }
};

/// Where a llama.cpp model sits: every GPU, and what stays in host memory.
struct Placement {
  LlamaSplitMode mode = LlamaSplitMode::layer;
  std::vector<int> devices;         ///< llama.cpp's device list (hardware GPU indices)
  std::vector<double> proportions;  ///< tensor_split of those devices, as applied
  parallel::LayerMap map;           ///< layer → hardware GPU index (parallel::kHost for the CPU)
  std::vector<GpuShare> gpus;       ///< one per hardware GPU
  std::size_t heaviest = 0;         ///< the GPU with the largest total: it decides the fit
  std::int64_t n_layer = 0;
  std::int64_t n_gpu_layers = 0;  ///< as llama.cpp counts it: 0 .. n_layer + 1 (the output layer)
  std::int64_t cells = 0;  ///< n_ctx: every stream's cells
  KvStreams kv;
  MaskLayout mask;
  Bytes host_weights;     ///< token_embd, the CPU layers, and the output layer when it is not offloaded
  Bytes host_kv;          ///< KV of the CPU layers (llama.cpp keeps it beside them)
  bool pipeline = false;  ///< ggml's scheduler pipelines micro-batches over the GPUs
  Term context;           ///< the driver context each GPU holds (one GPU model for all of them)
  Bytes host_total() const { return host_weights + host_kv; }
};

/// Where on the split a GPU's figure sits, as a note for its terms: a literal
/// with "{}" for its layer range (and, on several GPUs, its index and count).
struct Location {
  std::string_view note;
  std::array<std::int64_t, 4> args{};
};
Location location(const Placement& p, std::size_t gpu);


/// The placement of a llama.cpp scenario (figures only, no text).
Placement place(const Scenario& s, WeightsMemo* memo = nullptr);

/// Fills `report` for a llama.cpp scenario.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr);

}  // namespace vram::llamacpp
