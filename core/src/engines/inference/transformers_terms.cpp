// The memory mechanisms of transformers generate() beyond DynamicCache: the
// other cache classes, eager attention, and the behaviours of older versions.
#include <algorithm>

#include "vram/budget/kv_cache.hpp"
#include "vram/engines/transformers.hpp"

namespace vram::transformers_engine {

namespace {

constexpr std::string_view kStaticSource =
    "transformers v4.56.0 cache_utils.py StaticLayer / StaticSlidingWindowLayer (torch.zeros of "
    "(batch, kv_heads, max_cache_len, head_dim)); StaticCache from v4.38.0";
constexpr std::string_view kQuantizedSource =
    "transformers v4.56.0 cache_utils.py QuantizedLayer.update (prompt quantized at once; residual re-quantized "
    "when it reaches residual_length); optimum-quanto WeightQBitsTensor (PackedTensor codes, scale and shift per "
    "group); hqq Quantizer (BitPack codes, scale and zero per group, cast to the compute dtype)";
constexpr std::string_view kQuantizeWorkSource =
    "optimum-quanto quantize_affine (round((x + shift) / scale), clamp, uint8 codes before packing); hqq "
    "Quantizer.quantize (tensor.float(), round(W × scale + zero).clamp): read, not measured";
constexpr std::string_view kOffloadSource =
    "transformers v4.44.0 OffloadedCache (prefetch layer k+1, evict layer k−1); v4.56.0 cache_utils.py "
    "Cache(offloading=True, offload_only_non_sliding=True)";
constexpr std::string_view kEagerSource =
    "transformers v4.56.0 models/llama/modeling_llama.py eager_attention_forward (repeat_kv; matmul(q, kᵀ) × scaling "
    "+ causal_mask; softmax(dtype=float32).to(query.dtype)); masking_utils eager_mask (4D, model dtype)";
constexpr std::string_view kFullLogitsSource =
    "transformers v4.44.2 models/llama/modeling_llama.py LlamaForCausalLM.forward (logits = lm_head(hidden_states); "
    "logits = logits.float()); num_logits_to_keep from v4.45.0 (PR #31292)";
constexpr std::string_view kLegacySource =
    "transformers PR #30536 (v4.42.0): before it the peak of generate() was at the second step, "
    "2 × past KV + the first step's logits (legacy tuple cache re-built each step, outputs.logits leaked)";

/// K and V values per token in one attention layer on one rank (an MLA layer: its latent).
struct LayerValues {
  std::int64_t k = 0;
  std::int64_t v = 0;  ///< 0 for an MLA latent (one tensor)
};
LayerValues layer_values(const Architecture& a, bool mla, std::int64_t tp) {
  if (mla) return {checked::add(a.kv_lora_rank, a.qk_rope_head_dim), 0};
  const std::int64_t heads = kv_heads_per_rank(a, tp);
  return {checked::mul(heads, a.head_dim), checked::mul(heads, a.v_head_dim)};
}

/// Attention layers (MLA apart) that hold a per-token cache.
struct CachedLayers {
  std::int64_t attention = 0;
  std::int64_t mla = 0;
  std::int64_t windowed = 0;  ///< sliding or chunked, among `attention`
};
CachedLayers cached_layers(const Architecture& a) {
  CachedLayers n;
  for (const LayerSpec& l : a.layer_specs) {
    if (l.kind == LayerKind::mla) ++n.mla;
    if (l.kind == LayerKind::full_attention || l.kind == LayerKind::sliding_attention ||
        l.kind == LayerKind::chunked_attention || l.kind == LayerKind::attention_mamba2)
      ++n.attention;
    if (l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention) ++n.windowed;
  }
  return n;
}

/// `layers` layers of `tokens` per sequence in the model dtype, K and V (or one latent).
Term layers_kv_term(const Architecture& a, bool mla, std::int64_t tp, std::int64_t sequences, std::int64_t tokens,
                    std::int64_t layers, std::string_view layer_unit, std::int64_t b) {
  const LayerValues lv = layer_values(a, mla, tp);
  Factors f{Factor::of(sequences, "sequences"), Factor::of(tokens, "tokens"), Factor::of(layers, layer_unit)};
  if (mla) {
    f.push_back(Factor::of(lv.k, "dims (latent + rope)"));
  } else if (lv.k == lv.v) {
    f.push_back(Factor::of(2, "(K,V)"));
    f.push_back(Factor::of(lv.k, "values (KV heads × head_dim)"));
  } else {
    f.push_back(Factor::of(checked::add(lv.k, lv.v), "values (K + V)"));
  }
  f.push_back(Factor::bytes(b, "model dtype"));
  return Term::product(std::move(f));
}

/// Packed code bytes of one group of `g` values at `nbits` (HQQ packs 3 bits as 10 per int32).
std::int64_t packed_group_bytes(const TransformersSettings& ts) {
  if (ts.backend == HfQuantBackend::hqq && ts.nbits == 3)
    return checked::mul(checked::ceil_div(ts.q_group_size, 10), 4);
  return checked::ceil_div(checked::mul(ts.q_group_size, ts.nbits), 8);
}

/// The quantized part of one tensor kind (K or V, or the MLA latent) over `layers`.
Terms quantized_part(const TransformersSettings& ts, std::int64_t sequences, std::int64_t layers,
                     std::int64_t values_per_token, std::int64_t tensors, std::int64_t tokens, std::int64_t b) {
  const std::int64_t groups = checked::ceil_div(checked::mul(tokens, values_per_token), ts.q_group_size);
  const Factor seqs = Factor::of(sequences, "sequences");
  const Factor lay = Factor::of(layers, "layers");
  const Factor tens = Factor::of(tensors, tensors == 2 ? "(K,V)" : "tensor");
  const Factor grp = Factor::of(groups, "groups of {} values").with(ts.q_group_size);
  return terms(
      Term::product({seqs, lay, tens, grp, Factor::of(packed_group_bytes(ts), "B of {}-bit codes").with(ts.nbits)})
          .named("packed codes"),
      Term::product({seqs, lay, tens, grp, Factor::of(2, "(scale, zero point)"), Factor::bytes(b, "model dtype")})
          .named("scales and zero points"));
}

}  // namespace

Architecture without_windows(const Architecture& a) {
  Architecture out = a;
  for (LayerSpec& l : out.layer_specs) {
    if (l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention) {
      l.kind = LayerKind::full_attention;
      l.window = 0;
    }
  }
  return out;
}

Term static_cache_term(const Architecture& a, const KvDtype& kv, std::int64_t tp, std::int64_t sequences,
                       std::int64_t max_cache_len, const HfVersion& v) {
  const bool capped = v.at_least(kLayeredCacheSince);
  Term t = capped ? kv_sequences_term(a, kv, tp, sequences, max_cache_len, 1)
                  : kv_sequences_term(without_windows(a), kv, tp, sequences, max_cache_len, 1);
  return std::move(t).named("StaticCache").cite(kStaticSource);
}

Term quantized_cache_term(const Architecture& a, const TransformersSettings& ts, std::int64_t tp,
                          std::int64_t sequences, std::int64_t context, std::int64_t b) {
  // QuantizedLayer.update folds the residual in once it holds residual_length − 1 tokens.
  const std::int64_t residual = std::clamp<std::int64_t>(ts.residual_length - 1, 0, context);
  const std::int64_t quantized = context - residual;
  const CachedLayers n = cached_layers(a);
  Terms parts;
  for (const bool mla : {false, true}) {
    const std::int64_t layers = mla ? n.mla : n.attention;
    if (layers == 0) continue;
    const LayerValues lv = layer_values(a, mla, tp);
    const bool same = mla || lv.k == lv.v;
    for (Term& t : quantized_part(ts, sequences, layers, lv.k, mla ? 1 : (same ? 2 : 1), quantized, b))
      parts.push_back(std::move(t));
    if (!same)
      for (Term& t : quantized_part(ts, sequences, layers, lv.v, 1, quantized, b)) parts.push_back(std::move(t));
    if (residual > 0)
      parts.push_back(
          layers_kv_term(a, mla, tp, sequences, residual, layers, "layers", b).named("residual (model dtype)"));
  }
  if (parts.empty()) parts.push_back(Term::given(Bytes{}).named("no attention layers"));
  return sum_nonzero(std::move(parts)).named("QuantizedCache").cite(kQuantizedSource);
}

Term requantize_working_term(const Architecture& a, const TransformersSettings& ts, std::int64_t tp,
                             std::int64_t sequences, std::int64_t tokens, std::int64_t b) {
  const CachedLayers n = cached_layers(a);
  const LayerValues lv = layer_values(a, n.attention == 0 && n.mla > 0, tp);
  const std::int64_t values = std::max(lv.k, lv.v);
  const bool hqq = ts.backend == HfQuantBackend::hqq;
  // quanto: two model-dtype temporaries and the uint8 codes; HQQ: the fp32 copy and two fp32 temporaries.
  const std::int64_t per_value = hqq ? 12 : checked::add(checked::mul(2, b), 1);
  const Bytes value = Bytes::product(sequences, tokens, values, per_value);
  const double low = hqq ? 8.0 / 12.0 : static_cast<double>(b + 1) / static_cast<double>(per_value);
  const double high = hqq ? 16.0 / 12.0 : static_cast<double>(3 * b + 1) / static_cast<double>(per_value);
  return Term::product(
             {Factor::of(sequences, "sequences"), Factor::of(tokens, "tokens"),
              Factor::of(values, "values (one tensor of one layer)"),
              Factor::bytes(per_value, hqq ? "fp32 copy + 2 fp32 temporaries" : "2 temporaries + uint8 code")})
      .named("quantizer working set")
      .within(ratio_range(value, low, high))
      .cite(kQuantizeWorkSource);
}

Term quantized_step_term(const Architecture& a, const TransformersSettings& ts, std::int64_t tp, std::int64_t sequences,
                         std::int64_t context, std::int64_t b) {
  const CachedLayers n = cached_layers(a);
  const bool mla = n.attention == 0 && n.mla > 0;
  Term copies = Term::product(terms(layers_kv_term(a, mla, tp, sequences, context, 1, "layer", b)),
                              {Factor::of(2, "(dequantized + concatenated)")})
                    .named("dequantized and returned K,V");
  return Term::sum(terms(std::move(copies), requantize_working_term(a, ts, tp, sequences, context, b)))
      .named("QuantizedCache decode step")
      .cite(kQuantizedSource);
}

Term offloaded_cache_term(const Architecture& a, const KvDtype& kv, std::int64_t tp, std::int64_t sequences,
                          std::int64_t context, const HfVersion& v) {
  const CachedLayers n = cached_layers(a);
  const bool keep_sliding = v.at_least(kLayeredCacheSince) && n.windowed > 0;
  const std::int64_t offloadable = keep_sliding ? n.attention - n.windowed : n.attention + n.mla;
  const std::int64_t on_gpu = std::min<std::int64_t>(2, offloadable);
  const bool mla = n.attention == 0 && n.mla > 0;
  const std::int64_t b = kv.block_bytes;  // the offloaded layers are plain floats (DynamicLayer)
  Terms parts = terms(layers_kv_term(a, mla, tp, sequences, context, on_gpu, "layers (current + prefetched next)", b)
                          .named("layers on the GPU"));
  if (keep_sliding) {
    Architecture sliding = a;
    std::erase_if(sliding.layer_specs, [](const LayerSpec& l) {
      return l.kind != LayerKind::sliding_attention && l.kind != LayerKind::chunked_attention;
    });
    parts.push_back(
        std::move(kv_sequences_term(sliding, kv, tp, sequences, context, 1)).named("sliding layers (kept)"));
  }
  return sum_nonzero(std::move(parts)).named("OffloadedCache (GPU part)").cite(kOffloadSource);
}

Term eager_scores_term(const Architecture& a, std::int64_t sequences, std::int64_t q_len, std::int64_t kv_len,
                       std::int64_t tp, std::int64_t b) {
  const Factor seqs = Factor::of(sequences, "sequences");
  const Factor heads = Factor::of(std::max<std::int64_t>(1, a.heads / tp), "heads");
  const Factor q = Factor::of(q_len, "query tokens");
  const Factor k = Factor::of(kv_len, "key tokens");
  Terms parts = terms(Term::product({seqs, heads, q, k, Factor::bytes(b, "model dtype")}).named("scores"),
                      Term::product({seqs, heads, q, k, Factor::bytes(4, "fp32")}).named("softmax (float32)"),
                      Term::product({seqs, heads, q, k, Factor::bytes(b, "model dtype")}).named("cast back"),
                      Term::product({seqs, q, k, Factor::bytes(b, "model dtype")}).named("4D causal mask"));
  if (a.kv_heads > 0 && a.kv_heads < a.heads) {
    parts.push_back(Term::product({Factor::of(2, "(K,V)"), seqs, heads, k, Factor::of(a.head_dim, "dims"),
                                   Factor::bytes(b, "model dtype")})
                        .named("repeat_kv copies"));
  }
  return Term::sum(std::move(parts)).named("eager attention (one layer)").cite(kEagerSource);
}

Term full_logits_term(std::int64_t sequences, std::int64_t prompt, std::int64_t vocab, std::int64_t b) {
  const Factor seqs = Factor::of(sequences, "seqs");
  const Factor pos = Factor::of(prompt, "prompt positions");
  const Factor v = Factor::of(vocab, "vocab");
  return Term::sum(terms(Term::product({seqs, pos, v, Factor::bytes(b, "model dtype")}).named("lm_head output"),
                         Term::product({seqs, pos, v, Factor::bytes(4, "fp32")}).named("logits.float()"),
                         Term::product({seqs, v, Factor::bytes(4, "fp32")}).named("next-token scores")))
      .named("logits of every prompt position")
      .cite(kFullLogitsSource);
}

Term legacy_step_term(const Term& cache, std::int64_t sequences, std::int64_t prompt, std::int64_t vocab) {
  return Term::sum(terms(Term::given(cache.bytes).named("previous step's cache (still referenced)"),
                         Term::product({Factor::of(sequences, "seqs"), Factor::of(prompt, "prompt positions"),
                                        Factor::of(vocab, "vocab"), Factor::bytes(4, "fp32")})
                             .named("first step's logits (leaked)")))
      .named("second decode step")
      .cite(kLegacySource);
}

}  // namespace vram::transformers_engine
