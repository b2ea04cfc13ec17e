// llama.cpp's memory accounting.
//
// llama.cpp allocates exactly what it is told: the offloaded layers' weights
// ("CUDA0 model buffer size"), a KV cache of n_ctx cells for every layer
// ("KV self size" / "llama_kv_cache: size"), and one compute buffer sized by
// the graph allocator for the largest micro-batch ("CUDA0 compute buffer size").
// Sources: ggml-org/llama.cpp src/llama-model.cpp (layer offload: layers with
// il >= n_layer − n_gpu_layers; the output layer when n_gpu_layers > n_layer;
// token_embd stays on the CPU), src/llama-kv-cache.cpp (K and V tensors of
// n_embd_k_gqa × kv_size per layer), src/llama-context.cpp (graph reserve at
// n_ubatch tokens against a full cache).
#pragma once

#include <cstdint>

#include "vram/budget/weights.hpp"
#include "vram/model.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"
#include "vram/units.hpp"

namespace vram::llamacpp {

/// KV cells allocated: n_ctx = context × n_seq_max (all sequences share one
/// unified cache), padded up to a multiple of 256 (llama-context.cpp:
/// GGML_PAD(n_ctx, 256)).
std::int64_t kv_cells(std::int64_t context, std::int64_t n_seq_max);

/// Compute buffer of one device: the graph allocator's peak for a micro-batch
/// of n_ubatch tokens attending to `n_kv` cells.
///  - without flash attention the score matrix KQ is materialised in f32,
///    n_kv × n_ubatch × n_head × 4 B (softmax runs in place), beside the f32 KQ
///    mask n_kv × n_ubatch × 4 B and four n_ubatch × n_embd f32 rows;
///  - with flash attention no score matrix exists;
///  - the output device ends with n_ubatch × (n_vocab + n_embd) × 4 B of logits.
/// Llama-3.1-8B, n_ctx 8192, n_ubatch 512, no flash attention: 512 + 16 + 32 = 560 MiB.
Bytes compute_buffer_bytes(const Architecture& arch, std::int64_t n_kv, std::int64_t n_ubatch, bool flash_attn,
                           bool holds_output);

/// Fills `report` for a llama.cpp scenario.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr);

}  // namespace vram::llamacpp
