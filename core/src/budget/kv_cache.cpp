#include "vram/budget/kv_cache.hpp"

#include <algorithm>

#include "vram/io/render.hpp"

namespace vram {

Bytes kv_row_bytes(std::int64_t elems, const KvDtype& d) {
  return Bytes::product(checked::ceil_div(elems, d.block_elems), d.block_bytes);
}

std::int64_t kv_heads_per_rank(const Architecture& a, std::int64_t tp) {
  return std::max<std::int64_t>(1, a.kv_heads / tp);
}

Bytes kv_bytes_per_token_layer(const Architecture& a, const LayerSpec& layer, const KvDtype& d, std::int64_t tp) {
  switch (layer.kind) {
    case LayerKind::mamba:
    case LayerKind::mamba2:
    case LayerKind::linear_attention:
    case LayerKind::lightning_attention:
    case LayerKind::mlp_only:
    case LayerKind::cross_attention: return Bytes{};
    case LayerKind::mla:
      // One latent per token, replicated on every tensor-parallel rank.
      return kv_row_bytes(checked::add(a.kv_lora_rank, a.qk_rope_head_dim), d);
    case LayerKind::full_attention:
    case LayerKind::sliding_attention:
    case LayerKind::chunked_attention:
    case LayerKind::attention_mamba2: break;  // Falcon-H1: the attention branch caches K and V
  }
  const std::int64_t heads = kv_heads_per_rank(a, tp);
  return kv_row_bytes(checked::mul(heads, a.head_dim), d) + kv_row_bytes(checked::mul(heads, a.v_head_dim), d);
}

namespace {
template <typename F>
Bytes sum_layers(const Architecture& a, std::int32_t first, std::int32_t end, F&& per_layer) {
  Bytes total;
  const auto n = static_cast<std::int32_t>(a.layer_specs.size());
  // `per_layer` depends on the spec alone: a run of equal specs (most models)
  // is computed once and counted once, as its bytes times its length.
  const std::int32_t stop = std::min(end, n);
  for (std::int32_t i = std::max(0, first); i < stop;) {
    const LayerSpec& l = a.layer_specs[static_cast<std::size_t>(i)];
    std::int32_t j = i + 1;
    while (j < stop && a.layer_specs[static_cast<std::size_t>(j)] == l) ++j;
    total += per_layer(l) * static_cast<std::int64_t>(j - i);
    i = j;
  }
  // Encoder-decoder: cross-attention caches the encoder output once per decoder layer.
  return total;
}
}  // namespace

Bytes kv_bytes_per_token(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int32_t first,
                         std::int32_t end) {
  Bytes b = sum_layers(a, first, end, [&](const LayerSpec& l) { return kv_bytes_per_token_layer(a, l, d, tp); });
  if (a.family == Family::t5) b = b * 2;  // self-attention + cross-attention (input taken as long as the context)
  return b;
}

Bytes kv_bytes_for_sequence(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t tokens,
                            std::int32_t first, std::int32_t end) {
  Bytes b = sum_layers(a, first, end, [&](const LayerSpec& l) {
    // A sliding window keeps the last `window` tokens; a chunked layer at most one chunk.
    const bool capped = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    const std::int64_t held = capped ? std::min(tokens, l.window) : tokens;
    return kv_bytes_per_token_layer(a, l, d, tp) * held;
  });
  if (a.family == Family::t5) b = b * 2;
  return b;
}

std::int64_t mamba2_groups_per_shard_set(std::int64_t groups, std::int64_t tp) {
  // MambaStateShapeCalculator.extra_groups_for_head_shards: groups that do not
  // divide over the ranks are replicated up to tp groups.
  return groups % tp == 0 ? groups : checked::add(groups, tp - groups);
}

namespace {
/// Channels of a Mamba-2 layer's conv state, before the TP split: d_inner + 2 × groups × d_state.
std::int64_t mamba2_conv_channels(const Architecture& a, std::int64_t tp) {
  return checked::add(a.ssm_inner, checked::product(2, mamba2_groups_per_shard_set(a.ssm_groups, tp), a.ssm_state));
}
/// Channels of a Gated DeltaNet layer's conv state, before the TP split: 2 × key + value width.
std::int64_t deltanet_conv_channels(const Architecture& a) {
  return checked::add(checked::product(2, a.linear_k_heads, a.linear_k_dim),
                      checked::mul(a.linear_v_heads, a.linear_v_dim));
}
}  // namespace

StateElems recurrent_state_elems(const Architecture& a, LayerKind kind, std::int64_t tp) {
  switch (kind) {
    case LayerKind::mamba: {
      const std::int64_t inner = a.ssm_inner / tp;
      return {checked::mul(inner, a.ssm_conv - 1), checked::mul(inner, a.ssm_state)};
    }
    case LayerKind::mamba2:
    case LayerKind::attention_mamba2:
      return {checked::mul(mamba2_conv_channels(a, tp) / tp, a.ssm_conv - 1),
              checked::product(a.ssm_heads / tp, a.ssm_head_dim, a.ssm_state)};
    case LayerKind::linear_attention:
      return {checked::mul(deltanet_conv_channels(a) / tp, a.linear_conv - 1),
              checked::product(a.linear_v_heads / tp, a.linear_v_dim, a.linear_k_dim)};
    case LayerKind::lightning_attention:  // no conv state; kept in mamba_cache_dtype (the conv width)
      return {checked::product(a.heads / tp, a.head_dim, a.head_dim), 0};
    default: return {};
  }
}

Bytes mamba_state_bytes_per_sequence(const Architecture& a, StateBits bits, std::int64_t tp, std::int32_t first,
                                     std::int32_t end) {
  return sum_layers(a, first, end, [&](const LayerSpec& l) {
    if (!holds_recurrent_state(l.kind)) return Bytes{};
    const StateElems e = recurrent_state_elems(a, l.kind, tp);
    return bytes_for_bits(checked::mul(e.conv, bits.conv)) + bytes_for_bits(checked::mul(e.ssm, bits.ssm));
  });
}

namespace {

constexpr std::string_view kKvSource =
    "K and V per layer and token: Vaswani et al. 2017 (arXiv:1706.03762) §3.2; grouped KV heads: Ainslie et al. "
    "2023 (arXiv:2305.13245); MLA latent: DeepSeek-V2 (arXiv:2405.04434) §2.1.2";
constexpr std::string_view kMambaSource = "Gu & Dao 2023 (arXiv:2312.00752) §3.4: a constant state per sequence";
constexpr std::string_view kStateShapeSource =
    "vllm/model_executor/layers/mamba/mamba_utils.py MambaStateShapeCalculator.mamba2_state_shape, "
    "gated_delta_net_state_shape, linear_attention_state_shape, extra_groups_for_head_shards, and the element widths of "
    "MambaStateDtypeCalculator._mamba_state_dtype (vLLM main at commit 02d7108); Mamba-2: Dao & Gu 2024 "
    "(arXiv:2405.21060); Gated DeltaNet: Yang et al. 2024 (arXiv:2412.06464)";

/// Layers of each kind in [first, end).
struct LayerCounts {
  std::int64_t attention = 0;  ///< full, sliding and chunked
  std::int64_t mla = 0;
  std::int64_t mamba = 0;   ///< Mamba-1 and Mamba-2
  std::int64_t linear = 0;  ///< Gated DeltaNet
  std::int64_t lightning = 0;  ///< MiniMax lightning attention
  std::int64_t cross = 0;
  std::int64_t parallel = 0;  ///< attention + Mamba-2 side by side (among `attention`)
};

/// Counts `kind` into `n`: true for a layer that caches tokens.
bool count_kind(LayerCounts& n, LayerKind kind) {
  switch (kind) {
    case LayerKind::full_attention:
    case LayerKind::sliding_attention:
    case LayerKind::chunked_attention: ++n.attention; return true;
    case LayerKind::mla: ++n.mla; return true;
    case LayerKind::mamba:
    case LayerKind::mamba2: ++n.mamba; return false;
    case LayerKind::linear_attention: ++n.linear; return false;
    case LayerKind::lightning_attention: ++n.lightning; return false;
    case LayerKind::cross_attention: ++n.cross; return false;
    case LayerKind::mlp_only: return false;
    case LayerKind::attention_mamba2:  // both: K/V per token and a Mamba-2 state
      ++n.attention;
      ++n.parallel;
      return true;
  }
  return false;
}

/// Calls `f` on each layer of [first, end).
template <typename F>
void for_layers(const Architecture& a, std::int32_t first, std::int32_t end, F&& f) {
  const auto n = static_cast<std::int32_t>(a.layer_specs.size());
  for (std::int32_t i = std::max(0, first); i < std::min(end, n); ++i) f(a.layer_specs[i]);
}

LayerCounts count_layers(const Architecture& a, std::int32_t first, std::int32_t end) {
  LayerCounts n;
  for_layers(a, first, end, [&](const LayerSpec& l) { count_kind(n, l.kind); });
  return n;
}

/// One token's K and V rows in one layer: heads × dims × element bytes, or whole
/// blocks of a block-quantized type (kv_bytes_per_token_layer).
void append_row_factors(Factors& f, const Architecture& a, bool mla, const KvDtype& d, std::int64_t tp) {
  const std::int64_t be = d.block_elems;
  if (mla) {
    const std::int64_t elems = checked::add(a.kv_lora_rank, a.qk_rope_head_dim);
    f.push_back(be == 1 ? Factor::of(elems, "dims (latent + rope)")
                        : Factor::of(checked::ceil_div(elems, be), "blocks of {} values (latent + rope)").with(be));
  } else if (a.head_dim == a.v_head_dim) {
    const std::int64_t heads = kv_heads_per_rank(a, tp);
    f.push_back(Factor::of(2, "(K,V)"));
    if (be == 1) {
      f.push_back(Factor::of(heads, "KV heads"));
      f.push_back(Factor::of(a.head_dim, "dims"));
    } else {
      f.push_back(Factor::of(checked::ceil_div(checked::mul(heads, a.head_dim), be), "blocks of {} values").with(be));
    }
  } else {
    const std::int64_t heads = kv_heads_per_rank(a, tp);
    if (be == 1) {
      f.push_back(Factor::of(heads, "KV heads"));
      f.push_back(Factor::of(checked::add(a.head_dim, a.v_head_dim), "dims (K + V)"));
    } else {
      const std::int64_t blocks = checked::add(checked::ceil_div(checked::mul(heads, a.head_dim), be),
                                               checked::ceil_div(checked::mul(heads, a.v_head_dim), be));
      f.push_back(Factor::of(blocks, "blocks of {} values (K + V)").with(be));
    }
  }
  f.push_back(Factor::bytes(d.block_bytes, d.name));
}

/// What the layers without a per-token cache do instead.
Term&& with_layer_note(Term&& t, const LayerCounts& n) {
  if (n.parallel > 0)
    return std::move(t).noted("the Mamba-2 branch of each of the {} layers holds a constant state besides",
                              {n.parallel});
  if (n.linear > 0 && n.mamba > 0)
    return std::move(t).noted("{} Mamba and {} Gated DeltaNet layers hold a constant state instead",
                              {n.mamba, n.linear});
  if (n.linear > 0) return std::move(t).noted("{} Gated DeltaNet layers hold a constant state instead", {n.linear});
  if (n.lightning > 0)
    return std::move(t).noted("{} lightning attention layers hold a constant state instead", {n.lightning});
  if (n.cross > 0 && n.mamba > 0)
    return std::move(t).noted("{} cross-attention layers cache image tokens only; {} Mamba layers hold a constant "
                              "state instead",
                              {n.cross, n.mamba});
  if (n.cross > 0) return std::move(t).noted("{} cross-attention layers cache image tokens only", {n.cross});
  if (n.mamba > 0 && n.attention + n.mla > 0)
    return std::move(t).noted("{} Mamba layers hold a constant state instead", {n.mamba});
  if (n.mamba > 0) return std::move(t).noted("{} Mamba layers hold a constant state per sequence instead", {n.mamba});
  return std::move(t);
}

std::string_view layers_label(LayerKind kind) {
  switch (kind) {
    case LayerKind::sliding_attention: return "sliding layers";
    case LayerKind::chunked_attention: return "chunked layers";
    case LayerKind::mla: return "MLA layers";
    default: return "layers";
  }
}

/// Layers per attention type (kind and window) in [first, end), in order of
/// first appearance, and the layers of each kind, in one pass.
struct AttentionType {
  LayerKind kind;
  std::int64_t window;
  std::int64_t layers;
};
struct LayerCensus {
  std::vector<AttentionType> types;
  LayerCounts counts;
};
LayerCensus census(const Architecture& a, std::int32_t first, std::int32_t end) {
  LayerCensus c;
  for_layers(a, first, end, [&](const LayerSpec& l) {
    if (!count_kind(c.counts, l.kind)) return;
    const bool capped = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    const std::int64_t window = capped ? l.window : 0;
    auto it = std::find_if(c.types.begin(), c.types.end(),
                           [&](const AttentionType& t) { return t.kind == l.kind && t.window == window; });
    if (it == c.types.end())
      c.types.push_back({l.kind, window, 1});
    else
      it->layers += 1;
  });
  return c;
}

/// The tokens one layer of type `t` holds: whole blocks, or its window when shorter.
void append_token_factors(Factors& f, const AttentionType& t, std::int64_t blocks, std::int64_t block_size) {
  const std::int64_t tokens = checked::mul(blocks, block_size);
  if (t.window > 0 && t.window < tokens) {
    f.push_back(Factor::of(t.window, t.kind == LayerKind::sliding_attention ? "tokens (sliding window)"
                                                                            : "tokens (attention chunk)"));
  } else if (block_size > 1) {
    f.push_back(Factor::of(blocks, "blocks"));
    f.push_back(Factor::of(block_size, "tokens"));
  } else {
    f.push_back(Factor::of(tokens, "tokens"));
  }
}

}  // namespace

Term kv_per_token_term(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int32_t first,
                       std::int32_t end) {
  const LayerCounts n = count_layers(a, first, end);
  Terms parts;
  for (const bool mla : {false, true}) {
    const std::int64_t layers = mla ? n.mla : n.attention;
    if (layers == 0) continue;
    Factors f;
    f.reserve(7);
    f.push_back(Factor::of(layers, mla ? "MLA layers" : "layers"));
    append_row_factors(f, a, mla, d, tp);
    if (a.family == Family::t5) f.push_back(Factor::of(2, "(self + cross attention)"));
    parts.push_back(Term::product(std::move(f)));
  }
  if (parts.empty()) parts.push_back(Term::product({Factor::of(0, "attention layers")}));
  return with_layer_note(sum_nonzero(std::move(parts)).per_unit("token").cite(kKvSource), n);
}

Term kv_sequences_term(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t sequences,
                       std::int64_t blocks, std::int64_t block_size, std::int32_t first, std::int32_t end) {
  const LayerCensus layers = census(a, first, end);
  Terms parts;
  parts.reserve(layers.types.size());
  for (const AttentionType& t : layers.types) {
    Factors f;
    f.reserve(9);
    f.push_back(Factor::of(sequences, "sequences"));
    append_token_factors(f, t, blocks, block_size);
    f.push_back(Factor::of(t.layers, layers_label(t.kind)));
    append_row_factors(f, a, t.kind == LayerKind::mla, d, tp);
    if (a.family == Family::t5) f.push_back(Factor::of(2, "(self + cross attention)"));
    parts.push_back(Term::product(std::move(f)));
  }
  if (parts.empty()) parts.push_back(Term::product({Factor::of(0, "attention layers")}));
  return with_layer_note(sum_nonzero(std::move(parts)).cite(kKvSource), layers.counts);
}

namespace {

/// Mamba-2 states of `layers` layers: conv (d_conv − 1) × (d_inner + 2 × groups ×
/// d_state) / tp and SSM heads / tp × head_dim × d_state, each in `bytes`.
Term mamba2_state_term(const Architecture& a, StateBits bits, std::int64_t tp, std::int64_t sequences,
                       std::int64_t layers) {
  const std::int64_t groups = mamba2_groups_per_shard_set(a.ssm_groups, tp);
  const std::int64_t conv_dim = mamba2_conv_channels(a, tp);
  const Factor seqs = Factor::of(sequences, "sequences");
  const Factor n = Factor::of(layers, "Mamba-2 layers");
  Term conv =
      Term::product({seqs, n, Factor::of(a.ssm_conv - 1, "conv positions (d_conv − 1)"),
                     Factor::of(conv_dim / tp, "channels (d_inner + 2 × {} groups × d_state) / TP").with(groups),
                     Factor::bytes(bits.conv / 8, bits.conv_name)});
  Term ssm =
      Term::product({seqs, n, Factor::of(a.ssm_heads / tp, "heads / TP"), Factor::of(a.ssm_head_dim, "head dims"),
                     Factor::of(a.ssm_state, "SSM states (d_state)"), Factor::bytes(bits.ssm / 8, bits.ssm_name)});
  return Term::sum(terms(std::move(conv), std::move(ssm)));
}

/// Gated DeltaNet states of `layers` layers: conv (kernel − 1) × (2 × key + value
/// width) / tp and recurrent value heads / tp × head_v_dim × head_k_dim.
Term deltanet_state_term(const Architecture& a, StateBits bits, std::int64_t tp, std::int64_t sequences,
                         std::int64_t layers) {
  const std::int64_t conv_dim = deltanet_conv_channels(a);
  const Factor seqs = Factor::of(sequences, "sequences");
  const Factor n = Factor::of(layers, "Gated DeltaNet layers");
  Term conv = Term::product({seqs, n, Factor::of(a.linear_conv - 1, "conv positions (kernel − 1)"),
                             Factor::of(conv_dim / tp, "channels (2 × key + value) / TP"),
                             Factor::bytes(bits.conv / 8, bits.conv_name)});
  Term rec = Term::product({seqs, n, Factor::of(a.linear_v_heads / tp, "value heads / TP"),
                            Factor::of(a.linear_v_dim, "value dims"), Factor::of(a.linear_k_dim, "key dims"),
                            Factor::bytes(bits.ssm / 8, bits.ssm_name)});
  return Term::sum(terms(std::move(conv), std::move(rec)));
}

/// MiniMax lightning attention states of `layers` layers: heads / tp × head_dim ×
/// head_dim per sequence, in mamba_cache_dtype (MambaStateShapeCalculator.
/// linear_attention_state_shape, MambaStateDtypeCalculator.linear_attention_state_dtype).
Term lightning_state_term(const Architecture& a, StateBits bits, std::int64_t tp, std::int64_t sequences,
                          std::int64_t layers) {
  return Term::product({Factor::of(sequences, "sequences"), Factor::of(layers, "lightning attention layers"),
                        Factor::of(a.heads / tp, "heads / TP"), Factor::of(a.head_dim, "dims"),
                        Factor::of(a.head_dim, "dims"), Factor::bytes(bits.conv / 8, bits.conv_name)});
}

/// Layers of one recurrent kind in [first, end).
std::int64_t layers_of(const Architecture& a, LayerKind kind, std::int32_t first, std::int32_t end) {
  std::int64_t n = 0;
  for_layers(a, first, end, [&](const LayerSpec& l) { n += l.kind == kind; });
  return n;
}

/// Layers of [first, end) with a Mamba-2 mixer: Mamba-2 layers, and the parallel
/// attention + Mamba-2 layers of Falcon-H1.
std::int64_t mamba2_mixers(const Architecture& a, std::int32_t first, std::int32_t end) {
  return layers_of(a, LayerKind::mamba2, first, end) + layers_of(a, LayerKind::attention_mamba2, first, end);
}

/// Mamba-2 and Gated DeltaNet states, whole-byte dtypes.
Term multihead_state_term(const Architecture& a, StateBits bits, std::int64_t tp, std::int64_t sequences,
                          std::int32_t first, std::int32_t end) {
  Terms parts;
  if (const std::int64_t n = mamba2_mixers(a, first, end); n > 0)
    parts.push_back(mamba2_state_term(a, bits, tp, sequences, n));
  if (const std::int64_t n = layers_of(a, LayerKind::linear_attention, first, end); n > 0)
    parts.push_back(deltanet_state_term(a, bits, tp, sequences, n));
  if (const std::int64_t n = layers_of(a, LayerKind::lightning_attention, first, end); n > 0)
    parts.push_back(lightning_state_term(a, bits, tp, sequences, n));
  return sum_nonzero(std::move(parts)).cite(kStateShapeSource);
}

}  // namespace

Term mamba_state_term(const Architecture& a, StateBits bits, std::int64_t tp, std::int64_t sequences,
                      std::int32_t first, std::int32_t end) {
  const LayerCounts counts = count_layers(a, first, end);
  const std::int64_t multihead = mamba2_mixers(a, first, end) + counts.linear + counts.lightning;
  if (multihead > 0 && bits.whole_bytes() && layers_of(a, LayerKind::mamba, first, end) == 0)
    return multihead_state_term(a, bits, tp, sequences, first, end);
  if (multihead > 0) {
    const Bytes one = mamba_state_bytes_per_sequence(a, bits, tp, first, end);
    return Term::product(
               {Factor::of(sequences, "sequences"), Factor::of(one.in_bytes(), "B recurrent state per sequence")})
        .cite(kStateShapeSource);
  }
  // Without a state width no layer holds a state (the figure is 0 either way).
  const std::int64_t layers = a.ssm_inner == 0 ? 0 : counts.mamba;
  if (layers == 0) return Term::given(Bytes{}).named("no Mamba layers");
  if (!bits.whole_bytes()) {
    const Bytes one = mamba_state_bytes_per_sequence(a, bits, tp, first, end);
    return Term::product({Factor::of(sequences, "sequences"), Factor::of(one.in_bytes(), "B Mamba state per sequence")})
        .cite(kMambaSource);
  }
  const std::int64_t inner = a.ssm_inner / tp;
  auto state = [&](std::int64_t n, std::string_view what, std::int64_t b, std::string_view tag) {
    return Term::product({Factor::of(sequences, "sequences"), Factor::of(layers, "Mamba layers"),
                          Factor::of(inner, "d_inner"), Factor::of(n, what), Factor::bytes(b / 8, tag)});
  };
  return Term::sum(terms(state(a.ssm_conv - 1, "conv positions (d_conv − 1)", bits.conv, bits.conv_name),
                         state(a.ssm_state, "SSM states (d_state)", bits.ssm, bits.ssm_name)))
      .cite(kMambaSource);
}

std::string kv_per_token_formula(const Architecture& a, const KvDtype& d, std::int64_t tp) {
  return io::render(kv_per_token_term(a, d, tp));
}

}  // namespace vram
