// llama.cpp's budget terms: the compute buffer, the KV cache of a layer range
// and where on the split a figure sits. llamacpp.cpp places the layers and
// composes these into the report.
#include <algorithm>
#include <array>

#include "vram/budget/kv_cache.hpp"
#include "vram/engines/llamacpp.hpp"

namespace vram::llamacpp {

namespace {

constexpr std::string_view kComputeSource =
    "llama.cpp src/llama-graph.cpp build_attn_mha and the KQ mask input (GGML_KQ_MASK_PAD 64 from b4617, 1 from "
    "b7256; the F16 cast for flash attention until b9410, an F16 mask from b9410, ggml-org/llama.cpp#23764); "
    "ggml-alloc graph allocator";
constexpr std::string_view kKvSource =
    "llama.cpp src/llama-kv-cache.cpp (K and V: n_embd_k_gqa × kv_size per layer, on the device of the layer), "
    "src/llama-kv-cache-iswa.cpp (windowed layers: n_swa × n_seq_max + n_ubatch cells), "
    "src/llama-memory-recurrent.cpp (recurrent states r_l, s_l in F32)";

/// The KQ mask (n_kv × the stream's ubatch rows padded to GGML_KQ_MASK_PAD, per stream), a
/// graph input living in the compute buffer (src/llama-graph.cpp: [n_kv, GGML_PAD(n_tokens /
/// n_stream, GGML_KQ_MASK_PAD), 1, n_stream]), and the F16 cast flash attention reads from it
/// in the builds that make one.
Term kq_mask_term(std::int64_t n_kv, std::int64_t n_ubatch, std::int64_t streams, const MaskLayout& m) {
  const std::int64_t rows = checked::round_up(checked::ceil_div(n_ubatch, streams), m.row_pad);
  Factors f;
  f.push_back(Factor::of(n_kv, streams > 1 ? "cells per stream" : "cells"));
  if (m.row_pad > 1) {
    f.push_back(Factor::of(rows, streams > 1 ? "ubatch rows per stream (padded to {})" : "ubatch rows (padded to {})")
                    .with(m.row_pad));
  } else {
    f.push_back(Factor::of(rows, streams > 1 ? "ubatch rows per stream" : "ubatch rows"));
  }
  if (streams > 1) f.push_back(Factor::of(streams, "streams"));
  Factors copy = f;
  f.push_back(Factor::bytes(m.bytes, m.bytes == 2 ? "f16" : "f32"));
  Term mask = Term::product(std::move(f)).named("KQ mask");
  if (m.f16_copy == 0) return mask;
  copy.push_back(Factor::bytes(m.f16_copy, "f16"));
  return Term::sum(terms(std::move(mask), Term::product(std::move(copy)).named("its F16 cast for flash attention")))
      .named("KQ mask");
}

/// Residual input, normed input, Q and the attention output: four n_ubatch × n_embd f32 rows.
Term hidden_rows_term(std::int64_t n_ubatch, std::int64_t hidden) {
  return Term::product({Factor::of(4, "rows (input, norm, Q, attention out)"), Factor::of(n_ubatch, "ubatch"),
                        Factor::of(hidden, "n_embd"), Factor::bytes(4, "f32")})
      .named("hidden rows");
}

/// Layers [first, end) grouped by how many cells each holds and what a cell costs there.
struct KvGroup {
  std::int64_t layers = 0;
  std::int64_t cells = 0;
  Bytes per_cell;
};

std::vector<KvGroup> kv_groups(const Architecture& a, const InferenceSettings& inf, const KvStreams& kv,
                               std::int64_t first, std::int64_t end) {
  const LlamaCppSettings& lc = inf.llama_cpp;
  std::vector<KvGroup> groups;
  const auto n_specs = static_cast<std::int64_t>(a.layer_specs.size());
  // A run of equal specs (most models: every layer) is sized once.
  for (std::int64_t i = std::max<std::int64_t>(first, 0); i < end && i < n_specs;) {
    const auto& l = a.layer_specs[static_cast<std::size_t>(i)];
    std::int64_t run = 1;
    while (i + run < end && i + run < n_specs && a.layer_specs[static_cast<std::size_t>(i + run)] == l) ++run;
    i += run;
    const Bytes per = kv_bytes_per_token_layer(a, l, inf.kv, 1);
    if (per == Bytes{}) continue;
    const bool windowed = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    // src/llama-kv-cache-iswa.cpp: the windowed cache holds n_swa × (unified ? n_seq_max : 1) + n_ubatch per stream.
    const std::int64_t window_seqs = kv.streams > 1 ? 1 : lc.n_seq_max;
    const std::int64_t per_stream =
        windowed ? std::min(kv.cells, checked::round_up(checked::add(checked::mul(l.window, window_seqs), lc.n_ubatch), 256)) : kv.cells;
    const std::int64_t held = checked::mul(per_stream, kv.streams);
    auto same = [&](const KvGroup& g) { return g.cells == held && g.per_cell == per; };
    if (auto it = std::find_if(groups.begin(), groups.end(), same); it != groups.end()) {
      it->layers += run;
    } else {
      groups.push_back({run, held, per});
    }
  }
  return groups;
}

}  // namespace

MaskLayout mask_layout(std::optional<std::int64_t> build, bool flash_attn) {
  const std::int64_t b = build.value_or(kNewestKnownBuild);
  MaskLayout m;
  m.row_pad = b >= 7256 ? 1 : (b >= 4617 ? 64 : 32);
  if (flash_attn && b >= 9410) {
    m.bytes = 2;  // #23764: the mask is created F16 when flash attention is on
  } else if (flash_attn) {
    m.f16_copy = 2;  // ggml_cast(self_kq_mask, GGML_TYPE_F16) beside the F32 mask
  }
  return m;
}

Term compute_buffer_term(const Architecture& a, std::int64_t n_kv, std::int64_t n_ubatch, bool flash_attn,
                         bool holds_output, std::int64_t streams, MaskLayout mask) {
  Terms parts;
  parts.reserve(3);  // scores, mask, rows: sized once (a sweep builds this at every point)
  if (!flash_attn) {
    // Without flash attention the f32 KQ scores are materialised (softmax runs in place);
    // each stream's rows attend to that stream's cells.
    parts.push_back(Term::product({Factor::of(n_kv, streams > 1 ? "cells per stream" : "cells"),
                                   Factor::of(n_ubatch, "ubatch"), Factor::of(a.heads, "heads"), Factor::bytes(4, "f32")})
                        .named("KQ scores"));
  }
  parts.push_back(kq_mask_term(n_kv, n_ubatch, streams, mask));
  parts.push_back(hidden_rows_term(n_ubatch, a.hidden));
  Term attention = Term::sum(std::move(parts)).named(flash_attn ? "flash attention (no score matrix)" : "attention");
  if (!holds_output) return std::move(attention).cite(kComputeSource);
  // The output device ends with the logits of the micro-batch.
  Term logits = Term::product({Factor::of(n_ubatch, "ubatch"), Factor::of(checked::add(a.vocab, a.hidden),
                                                                          "(n_vocab + n_embd)"),
                               Factor::bytes(4, "f32")})
                    .named("output logits");
  return Term::max_of(terms(std::move(attention), std::move(logits))).cite(kComputeSource);
}

Bytes compute_buffer_bytes(const Architecture& a, std::int64_t n_kv, std::int64_t n_ubatch, bool flash_attn,
                           bool holds_output, std::int64_t streams, MaskLayout mask) {
  return compute_buffer_term(a, n_kv, n_ubatch, flash_attn, holds_output, streams, mask).bytes;
}

namespace {
/// How a group's cells were counted, for its factor.
Factor held_cells(const KvGroup& g, const KvStreams& kv, const InferenceSettings& inf) {
  if (g.cells != kv.total()) {
    return Factor::of(g.cells, kv.streams > 1 ? "cells ({} streams × (window + n_ubatch), padded to 256)"
                                              : "cells (window × n_seq_max + n_ubatch, padded to 256)")
        .with(kv.streams);
  }
  if (kv.streams > 1) {
    return Factor::of(g.cells, "cells ({} streams × {}, one per sequence, padded to 256)").with(kv.streams, kv.cells);
  }
  return Factor::of(g.cells, "cells ({} context × {} seqs, padded to 256)").with(inf.context, inf.llama_cpp.n_seq_max);
}
}  // namespace

Term kv_range_term(const Architecture& a, const InferenceSettings& inf, const KvStreams& kv, std::int64_t first,
                   std::int64_t end) {
  const auto groups = kv_groups(a, inf, kv, first, end);
  Terms parts;
  parts.reserve(groups.size() + 1);  // and a recurrent state
  for (const KvGroup& g : groups) {
    const Factor held = held_cells(g, kv, inf);
    parts.push_back(
        Term::product({Factor::of(g.layers, "layers"), held, Factor::of(g.per_cell.in_bytes(), "B per cell (K,V)")}));
  }
  if (end > first && has_recurrent_state(a)) {
    // Recurrent layers keep an f32 state per sequence.
    Term rec = mamba_state_term(a, 32, 1, inf.llama_cpp.n_seq_max, static_cast<std::int32_t>(first),
                                static_cast<std::int32_t>(end));
    if (rec.bytes > Bytes{}) parts.push_back(std::move(rec).named("recurrent f32 states"));
  }
  if (parts.empty()) return Term::given(Bytes{}).named("no cache on these layers").cite(kKvSource);
  return sum_nonzero(std::move(parts)).cite(kKvSource);
}

Bytes kv_range_bytes(const Architecture& a, const InferenceSettings& inf, const KvStreams& kv, std::int64_t first,
                     std::int64_t end) {
  return kv_range_term(a, inf, kv, first, end).bytes;
}

Location location(const Placement& p, std::size_t gpu) {
  const GpuShare& g = p.gpus[gpu];
  const bool some = g.end_layer > g.first_layer;
  const int phrase = some ? (g.output ? 1 : 0) : (g.output ? 2 : 3);
  const bool multi = p.devices.size() > 1;
  const bool row = multi && p.mode == LlamaSplitMode::row;
  // [where][phrase]: where = one GPU, several GPUs, several GPUs split by rows.
  static constexpr std::array<std::array<std::string_view, 4>, 3> kWhere{{
      {"layers {}–{} on this GPU", "layers {}–{} + output on this GPU", "the output layer only on this GPU",
       "no layers on this GPU"},
      {"on GPU {} of {}, the fullest: layers {}–{}", "on GPU {} of {}, the fullest: layers {}–{} + output",
       "on GPU {} of {}, the fullest: the output layer only", "on GPU {} of {}, the fullest: no layers"},
      {"on GPU {} of {}, the fullest: row slices of every offloaded layer's 2D weights, layers {}–{}",
       "on GPU {} of {}, the fullest: row slices of every offloaded layer's 2D weights, layers {}–{} + output",
       "on GPU {} of {}, the fullest: row slices of every offloaded layer's 2D weights, the output layer",
       "on GPU {} of {}, the fullest: row slices of every offloaded layer's 2D weights"},
  }};
  Location loc;
  loc.note = kWhere[row ? 2 : (multi ? 1 : 0)][static_cast<std::size_t>(phrase)];
  if (multi) {
    loc.args = {static_cast<std::int64_t>(gpu), static_cast<std::int64_t>(p.devices.size()), g.first_layer,
                g.end_layer - 1};
  } else {
    loc.args = {g.first_layer, g.end_layer - 1, 0, 0};
  }
  return loc;
}

}  // namespace vram::llamacpp
