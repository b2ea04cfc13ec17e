#include "vram/engines/transformers.hpp"

#include <algorithm>

#include "vram/budget/activations.hpp"
#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/render.hpp"

namespace vram::transformers_engine {

namespace {

constexpr std::string_view kCacheSource =
    "transformers v4.56.0 cache_utils.py DynamicLayer / DynamicSlidingWindowLayer";
constexpr std::string_view kOldCacheSource =
    "transformers v4.36.0–v4.55 cache_utils.py DynamicCache (torch.cat per layer, no window); before v4.36 tuples "
    "of (K, V) grown with torch.cat in each attention layer";
constexpr std::string_view kHeldSource =
    "transformers v4.46.0 models/qwen2/modeling_qwen2.py Qwen2Model.forward (inputs_embeds in scope while the decoder "
    "layers run; each layer's input referenced by the loop until it returns), the same in modeling_llama.py";
constexpr std::string_view kGenerateSource =
    "transformers v4.56.0 generation/utils.py _sample (logits_to_keep=1, logits.float())";

/// One estimate's settings: the scenario's and the version's.
struct Setting {
  const Architecture& a;
  const InferenceSettings& inf;
  const TransformersSettings& ts;
  HfVersion v;
  HfAttention attention;
  std::int64_t tp;
  std::int64_t b;
  /// Prompt tokens per sequence: what the prefill runs over (context - max_new_tokens, at least 1).
  std::int64_t prompt;
};

/// DynamicCache for every sequence at full context: K and V per attention
/// layer (sliding layers capped at their window from v4.56) plus the Mamba
/// layers' conv and SSM states in the model dtype (MambaCache).
Term dynamic_cache_term(const Setting& c) {
  const Architecture& a = c.a;
  const bool capped = c.v.at_least(kLayeredCacheSince);
  Term kv = capped ? kv_sequences_term(a, c.inf.kv, c.tp, c.inf.concurrency, c.inf.context, 1)
                   : kv_sequences_term(without_windows(a), c.inf.kv, c.tp, c.inf.concurrency, c.inf.context, 1);
  Term t = sum_nonzero(terms(std::move(kv), mamba_state_term(a, 8 * c.b, c.tp, c.inf.concurrency)))
               .named("DynamicCache")
               .cite(capped ? kCacheSource : kOldCacheSource);
  const bool windowed =
      std::any_of(a.layer_specs.begin(), a.layer_specs.end(), [](const LayerSpec& l) { return l.window > 0; });
  if (windowed)
    t.note = capped ? "sliding and chunked layers hold at most their window"
                    : "before v4.56 the cache keeps every token of the sliding layers too";
  return t;
}

/// The cache of the class the settings name, Mamba states added.
Term cache_term(const Setting& c) {
  const InferenceSettings& inf = c.inf;
  Term kv;
  switch (c.ts.cache) {
    case HfCache::dynamic: return dynamic_cache_term(c);
    case HfCache::static_cache: kv = static_cache_term(c.a, inf.kv, c.tp, inf.concurrency, inf.context, c.v); break;
    case HfCache::quantized: kv = quantized_cache_term(c.a, c.ts, c.tp, inf.concurrency, inf.context, c.b); break;
    case HfCache::offloaded: kv = offloaded_cache_term(c.a, inf.kv, c.tp, inf.concurrency, inf.context, c.v); break;
  }
  Term mamba = mamba_state_term(c.a, 8 * c.b, c.tp, inf.concurrency);
  if (mamba.bytes == Bytes{}) return kv;
  const std::string_view what = kv.what;
  return Term::sum(terms(std::move(kv), std::move(mamba))).named(what);
}

/// The last position's logits per sequence: in the model dtype from lm_head,
/// then two fp32 copies (the float() upcast and the processed scores).
Term last_logits_term(std::int64_t sequences, std::int64_t vocab, std::int64_t b) {
  const Factor seqs = Factor::of(sequences, "seqs");
  const Factor v = Factor::of(vocab, "vocab");
  return Term::sum(terms(Term::product({seqs, v, Factor::bytes(b, "model dtype")}).named("lm_head output"),
                         Term::product({Factor::of(2, "fp32 copies"), seqs, v, Factor::bytes(4)}).named("upcast")))
      .named("last-position logits");
}

/// What the modeling code keeps referenced through a decoder layer besides the
/// layer's own residual stream: the embeddings output (`inputs_embeds` stays in
/// the model forward's scope) and the layer's input (the loop's `hidden_states`
/// until the layer returns). No autograd: nothing else is kept.
Term held_inputs_term(std::int64_t tokens, std::int64_t hidden, std::int64_t b) {
  return Term::product({Factor::of(2, "(inputs_embeds + layer input)"), Factor::of(tokens, "tokens"),
                        Factor::of(hidden, "hidden"), Factor::bytes(b)})
      .named("held by the model's forward")
      .cite(kHeldSource);
}

/// The prefill forward pass over every prompt at once. SDPA and flash attention
/// hold no score matrix; eager attention holds one layer's scores at a time.
Term prefill_forward_term(const Setting& c, std::int64_t prompt_tokens) {
  const Architecture& a = c.a;
  Term plain = Term::sum(terms(forward_peak_term(a, prompt_tokens, c.tp, c.b),
                               held_inputs_term(prompt_tokens, a.hidden, c.b)))
                   .named("prefill forward");
  if (c.attention != HfAttention::eager || a.layers == 0) return plain;
  const std::int64_t q_dim = checked::mul(a.heads, a.head_dim) / c.tp;
  const std::int64_t kv_dim = kv_heads_per_rank(a, c.tp) * a.head_dim;
  Term eager = Term::sum(terms(residual_stream_term(prompt_tokens, a.hidden, c.b),
                               held_inputs_term(prompt_tokens, a.hidden, c.b),
                               attention_transient_term(prompt_tokens, q_dim, kv_dim, c.b),
                               eager_scores_term(a, c.inf.concurrency, c.prompt, c.prompt, c.tp, c.b)))
                   .named("attention with eager scores");
  return Term::max_of(terms(std::move(plain), std::move(eager))).named("prefill forward (eager attention)");
}

/// The prefill: its forward pass, or the logits after it, whichever holds more.
/// The layers' temporaries are freed before lm_head runs; the final hidden
/// states (which the last-position slice still views) stay beside the logits.
Term prefill_term(const Setting& c) {
  const InferenceSettings& inf = c.inf;
  const std::int64_t prompt_tokens = checked::mul(c.prompt, inf.concurrency);
  Term logits = c.v.at_least(kLogitsToKeepSince) ? last_logits_term(inf.concurrency, c.a.vocab, c.b)
                                                 : full_logits_term(inf.concurrency, c.prompt, c.a.vocab, c.b);
  Term hidden = Term::product({Factor::of(prompt_tokens, "prompt tokens"), Factor::of(c.a.hidden, "hidden"),
                               Factor::bytes(c.b)})
                    .named("final hidden states");
  Term head = Term::sum(terms(std::move(hidden), std::move(logits))).named("lm_head");
  return Term::max_of(terms(prefill_forward_term(c, prompt_tokens), std::move(head)))
      .named("prefill")
      .cite(kGenerateSource);
}

/// Working memory: the prefill, or a decode step where that step holds more
/// (the legacy cache round trip before v4.42, QuantizedCache's dequantized copies).
Term activations_term(const Setting& c, const Term& cache) {
  const InferenceSettings& inf = c.inf;
  if (!c.v.at_least(kCacheInPlaceSince)) {
    return Term::max_of(terms(prefill_term(c), legacy_step_term(cache, inf.concurrency, c.prompt, c.a.vocab)))
        .named("prefill, or the second decode step");
  }
  if (c.ts.cache != HfCache::quantized) return prefill_term(c);
  Term prefill =
      Term::sum(terms(prefill_term(c), requantize_working_term(c.a, c.ts, c.tp, inf.concurrency, c.prompt, c.b)))
          .named("prefill (prompt quantized per layer)");
  return Term::max_of(
             terms(std::move(prefill), quantized_step_term(c.a, c.ts, c.tp, inf.concurrency, inf.context, c.b)))
      .named("prefill, or a decode step");
}

std::string_view cache_label(HfCache k) {
  switch (k) {
    case HfCache::static_cache: return "KV cache (StaticCache)";
    case HfCache::quantized: return "KV cache (QuantizedCache)";
    case HfCache::offloaded: return "KV cache on the GPU (OffloadedCache)";
    case HfCache::dynamic: break;
  }
  return "KV cache (DynamicCache)";
}

/// What the estimate assumed about the version and the settings.
void add_warnings(const Setting& c, Report& r) {
  const std::string known = "4." + std::to_string(c.v.minor);
  if (c.v.fit != HfVersionFit::exact) {
    r.warnings.push_back("transformers " + c.ts.version + " is " +
                         (c.v.fit == HfVersionFit::newer ? "newer" : "older") + " than the versions modelled (4." +
                         std::to_string(kHfOldestMinor) + " to 4." + std::to_string(kHfNewestMinor) +
                         "): estimated as the nearest, transformers " + known);
  }
  if (c.ts.cache == HfCache::offloaded) {
    r.warnings.push_back(
        "OffloadedCache keeps the other layers' K and V in CPU memory (pinned); that host memory is "
        "not in this per-GPU figure");
  }
}

}  // namespace

HfVersion version_of(const TransformersSettings& ts) {
  return ts.version.empty() ? HfVersion{} : on_ladder(ts.major, ts.minor);
}

HfAttention attention_of(const TransformersSettings& ts) {
  if (ts.attention) return *ts.attention;
  return version_of(ts).at_least(kSdpaSince) ? HfAttention::sdpa : HfAttention::eager;
}

void account(const Scenario& s, Report& r, WeightsMemo* memo) {
  const Model& m = *s.model;
  const InferenceSettings& inf = s.inference();
  const Setting c{m.arch,
                  inf,
                  inf.transformers,
                  version_of(inf.transformers),
                  attention_of(inf.transformers),
                  s.parallel.tensor,
                  activation_elem_bytes(s.weights),
                  std::max<std::int64_t>(1, inf.context - inf.transformers.max_new_tokens)};
  WeightPlacement place;
  place.tensor_parallel = c.tp;
  const WeightsEstimate w = weights_for(m, s.weights, place, memo);
  r.add(io::component("weights", "Model weights", std::move(weights_term(w)).cite(s.weights.source), r.explain));
  Bytes allocated = w.bytes;
  if (c.a.family != Family::bare) {
    const Term kv = cache_term(c);
    const Term act = activations_term(c, kv);
    r.add(io::component("kv_cache", cache_label(c.ts.cache), kv, r.explain));  // a literal: the label is kept as a view
    r.add(io::component("activations", "Prefill activations + logits", act, r.explain));
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(c.a, inf.kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(kv.bytes.in_bytes()));
    r.metric("activation_bytes", static_cast<double>(act.bytes.in_bytes()));
    allocated = allocated + kv.bytes + act.bytes;
  }
  r.add(io::cuda_context_component(
      engine_context_term(s.gpu.compute_capability, s.gpu.sm_count, s.gpu.rocm_arch, c.tp > 1), r.explain));
  r.metric("weights_bytes", static_cast<double>(w.bytes.in_bytes()));
  r.metric("peak_allocated_bytes", static_cast<double>(allocated.in_bytes()));
  if (!r.explain) return;
  add_warnings(c, r);
  io::ObjectText e;
  e.set("engine", "transformers");
  e.set("cache_implementation", std::string(name_of(kHfCaches, c.ts.cache)));
  e.set("attn_implementation", std::string(name_of(kHfAttentions, c.attention)));
  e.set("version", "4." + std::to_string(c.v.minor));
  e.set("source", c.ts.version.empty()
                      ? std::string("transformers v4.56.0 generate()")
                      : "transformers " + c.ts.version + " generate(), as v4." + std::to_string(c.v.minor));
  r.detail("engine", e.str());
}

}  // namespace vram::transformers_engine
