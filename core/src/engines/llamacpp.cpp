#include "vram/engines/llamacpp.hpp"

#include <algorithm>

#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/io/json_writer.hpp"

namespace vram::llamacpp {

namespace {
constexpr const char* kSource = "ggml-org/llama.cpp src/llama-model.cpp, src/llama-kv-cache.cpp, src/llama-context.cpp";
std::int64_t pad(std::int64_t n, std::int64_t to) {
  return (n + to - 1) / to * to;
}
}  // namespace

std::int64_t kv_cells(std::int64_t context, std::int64_t n_seq_max) {
  return pad(context * n_seq_max, 256);
}

Bytes compute_buffer_bytes(const Architecture& a, std::int64_t n_kv, std::int64_t n_ubatch, bool flash_attn,
                           bool holds_output) {
  const std::int64_t f32 = 4;
  // The KQ mask (f32, n_kv × n_ubatch) is a graph input living in the compute buffer.
  const Bytes mask = Bytes::of(n_kv * pad(n_ubatch, 64) * f32);
  // Residual input, normed input, Q and the attention output: four n_ubatch × n_embd f32 rows.
  const Bytes rows = Bytes::of(4 * n_ubatch * a.hidden * f32);
  // Without flash attention the f32 KQ scores are materialised (softmax runs in place).
  Bytes peak = flash_attn ? mask + rows : Bytes::of(n_kv * n_ubatch * a.heads * f32) + mask + rows;
  // The output device ends with the logits of the micro-batch.
  if (holds_output) peak = std::max(peak, Bytes::of(n_ubatch * (a.vocab + a.hidden) * f32));
  return peak;
}

void account(const Scenario& s, Report& r, WeightsMemo* memo) {
  const Model& m = *s.model;
  const Architecture& a = m.arch;
  const InferenceSettings& inf = s.inference;
  const LlamaCppSettings& lc = inf.llama_cpp;
  const std::int64_t n_layer = std::max<std::int64_t>(a.layers, 1);
  const std::int64_t ngl = lc.n_gpu_layers < 0 ? n_layer + 1 : std::min(lc.n_gpu_layers, n_layer + 1);
  // llama-model.cpp load_tensors: i_gpu_start = max(n_layer − n_gpu_layers, 0).
  const std::int64_t first_gpu_layer = std::max<std::int64_t>(0, n_layer - ngl);
  const bool output_on_gpu = ngl > n_layer;
  // Layer split over devices (--split-mode layer): equal shares, the output on the last device.
  const std::int64_t devices = std::max<std::int64_t>(1, inf.pipeline_parallel);
  const std::int64_t gpu_layers = n_layer - first_gpu_layer;
  const std::int64_t per_device = (gpu_layers + devices - 1) / devices;

  WeightPlacement place;
  place.first_layer = static_cast<std::int32_t>(first_gpu_layer);
  place.end_layer = static_cast<std::int32_t>(std::min(n_layer, first_gpu_layer + per_device));
  place.embedding = false;  // token_embd is always kept in host memory
  place.head = output_on_gpu && devices == 1;
  place.vision = false;
  const WeightsEstimate w = weights_for(m, s.weights, a.family == "bare" ? WeightPlacement{} : place, memo);

  const std::int64_t cells = kv_cells(inf.context, lc.n_seq_max);
  const std::int32_t kv_first = place.first_layer;
  const std::int32_t kv_end = place.end_layer;
  Bytes kv_device;
  for (std::int32_t i = kv_first; i < kv_end && i < static_cast<std::int32_t>(a.layer_specs.size()); ++i) {
    const auto& l = a.layer_specs[i];
    // SWA layers keep n_swa × n_seq_max + n_ubatch cells (llama-kv-cache-iswa.cpp), padded to 256.
    // SWA and chunked (Llama 4) layers share the iSWA cache of n_swa × n_seq_max + n_ubatch cells.
    const bool windowed = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    const std::int64_t held = windowed ? std::min(cells, pad(l.window * lc.n_seq_max + lc.n_ubatch, 256)) : cells;
    kv_device += kv_bytes_per_token_layer(a, l, inf.kv, 1) * held;
  }
  // Recurrent layers keep an f32 state per sequence (llama-memory-recurrent.cpp: r_l, s_l as F32).
  const Bytes recurrent = mamba_state_bytes_per_sequence(a, 32, 1, kv_first, kv_end) * lc.n_seq_max;
  kv_device += recurrent;
  const Bytes compute = a.family == "bare"
                            ? Bytes{}
                            : compute_buffer_bytes(a, cells, lc.n_ubatch, lc.flash_attn, output_on_gpu && devices == 1);

  const std::string layers_note =
      !r.explain ? std::string()
                 : " (layers " + std::to_string(place.first_layer) + "–" + std::to_string(place.end_layer - 1) +
                       (place.head ? " + output" : "") + " on this GPU; token_embd in host memory)";
  r.add({"weights", "Model weights (CUDA0 model buffer)", w.bytes,
         explained(r, [&] { return weights_formula(w) + layers_note; }),
         explained(r, [&] { return std::string(s.weights.source); })});
  if (a.family != "bare") {
    r.add({"kv_cache", "KV cache", kv_device,
           explained(r,
                     [&] {
                       return group_thousands(cells) + " cells (" + std::to_string(inf.context) + " × " +
                              std::to_string(lc.n_seq_max) + " sequences, padded to 256) × " +
                              kv_per_token_formula(a, inf.kv, 1) +
                              (recurrent > Bytes{} ? " + recurrent f32 states " + format_exact(recurrent)
                                                   : std::string()) +
                              " = " + format_exact(kv_device) + " ≈ " + format(kv_device, kMiB);
                     }),
           explained(r, [&] {
             return std::string("llama.cpp src/llama-kv-cache.cpp (K and V: n_embd_k_gqa × kv_size per layer)");
           })});
    r.add({"activations", "Compute buffer", compute,
           explained(r,
                     [&] {
                       return std::string(
                                  lc.flash_attn
                                      ? "flash attention (no score matrix): max(KQ mask + 4 × n_ubatch × n_embd × 4 B, "
                                        "output logits n_ubatch × (n_vocab + n_embd) × 4 B)"
                                      : "KQ scores " + group_thousands(cells) + " × " + std::to_string(lc.n_ubatch) +
                                            " × " + std::to_string(a.heads) +
                                            " heads × 4 B + KQ mask + 4 × n_ubatch × n_embd × 4 B") +
                              " = " + format_exact(compute) + " ≈ " + format(compute, kMiB);
                     }),
           explained(r, [&] {
             return std::string("llama.cpp src/llama-graph.cpp build_attn_mha; ggml-alloc graph allocator");
           })});
  }
  r.add(cuda_context_component(false, r.explain));

  r.metric("weights_bytes", static_cast<double>(w.bytes.in_bytes()));
  if (a.family != "bare") {
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(a, inf.kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(kv_device.in_bytes()));
    r.metric("kv_capacity_tokens", static_cast<double>(cells));
    r.metric("activation_bytes", static_cast<double>(compute.in_bytes()));
  }
  if (!r.explain) return;
  io::ObjectText e;
  e.set("engine", "llama.cpp");
  e.set("n_gpu_layers", ngl);
  e.set("n_ctx", cells);
  e.set("n_ubatch", lc.n_ubatch);
  e.set("flash_attn", lc.flash_attn);
  e.set("source", kSource);
  r.detail("engine", e.str());
  if (first_gpu_layer > 0) {
    r.warnings.push_back(std::to_string(first_gpu_layer) + " layers stay on the CPU (n_gpu_layers " +
                         std::to_string(lc.n_gpu_layers) + "): they need host memory and run far slower");
  }
}

}  // namespace vram::llamacpp
