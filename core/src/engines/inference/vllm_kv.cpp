// vLLM's KV cache: layer groups of equal page size, the pool of blocks an
// available budget buys, and the cache a workload needs.
#include <algorithm>
#include <climits>

#include "vram/budget/kv_cache.hpp"
#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {

constexpr std::string_view kPageSource = "vllm/v1/kv_cache_interface.py AttentionSpec.page_size_bytes (v0.19.0)";
constexpr std::string_view kHybridSource =
    "vllm/model_executor/models/config.py HybridAttentionMambaModelConfig.verify_and_update_config (v0.10.2+; startup "
    "log 'Setting attention block size to N tokens to ensure that attention page size is >= mamba page size', "
    "'Padding mamba page size by X%'); vllm/v1/kv_cache_interface.py MambaSpec (one page per sequence)";

using TypeCount = KvLayout::Type;

/// Layers per attention type (kind and window) in [first, end); Mamba layers hold no pages.
std::vector<TypeCount> attention_types(const Architecture& a, std::int32_t first, std::int32_t end) {
  std::vector<TypeCount> types;
  const auto n = static_cast<std::int32_t>(a.layer_specs.size());
  for (std::int32_t i = std::max(0, first); i < std::min(end, n); ++i) {
    const auto& l = a.layer_specs[i];
    if (!caches_tokens(l.kind)) continue;
    const bool windowed = l.kind == LayerKind::sliding_attention || l.kind == LayerKind::chunked_attention;
    const std::int64_t window = windowed ? l.window : 0;
    auto it = std::find_if(types.begin(), types.end(),
                           [&](const TypeCount& t) { return t.kind == l.kind && t.window == window; });
    if (it == types.end())
      types.push_back({l.kind, window, 1});
    else
      it->layers += 1;
  }
  return types;
}

/// The largest per-token bytes of one attention layer of any type in the model.
Bytes attention_token_bytes(const Architecture& a, const KvDtype& d, std::int64_t tp) {
  Bytes most;
  for (const auto& t : attention_types(a, 0, INT32_MAX))
    most = std::max(most, kv_bytes_per_token_layer(a, LayerSpec{t.kind, t.window, false}, d, tp));
  return most;
}

std::int64_t mamba_layers(const Architecture& a, std::int32_t first, std::int32_t end) {
  const auto n = static_cast<std::int32_t>(a.layer_specs.size());
  std::int64_t count = 0;
  for (std::int32_t i = std::max(0, first); i < std::min(end, n); ++i)
    count += holds_recurrent_state(a.layer_specs[i].kind);
  return count;
}

/// What the model's recurrent layers are called in a formula.
std::string_view state_layers_label(const Architecture& a) {
  const bool deltanet = std::any_of(a.layer_specs.begin(), a.layer_specs.end(),
                                    [](const LayerSpec& l) { return l.kind == LayerKind::linear_attention; });
  if (a.family == Family::falcon_h1) return "Mamba-2 mixers (one per layer)";
  if (a.family == Family::minimax) return "lightning attention layers";
  return deltanet ? "Gated DeltaNet layers" : "Mamba layers";
}

/// Groups of equal size over the types: one type, one group of all layers;
/// several: groups of min_n layers, or of max_n when max_n < 1.5 × min_n
/// (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size).
void group_types(KvLayout& k) {
  std::int64_t min_n = INT64_MAX, max_n = 0;
  for (const auto& t : k.types) {
    min_n = std::min(min_n, t.layers);
    max_n = std::max(max_n, t.layers);
  }
  k.group_size = k.types.size() == 1 ? max_n : (2 * max_n < 3 * min_n ? max_n : min_n);
  for (const auto& t : k.types) k.groups += (t.layers + k.group_size - 1) / k.group_size;
}

}  // namespace

HybridPages hybrid_pages(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t block_size,
                         StateBits state_bits) {
  HybridPages h;
  const Bytes token = attention_token_bytes(a, d, tp);
  const std::int64_t layers = mamba_layers(a, 0, INT32_MAX);
  h.mamba_state = layers > 0 ? Bytes::of(mamba_state_bytes_per_sequence(a, state_bits, tp).in_bytes() / layers) : Bytes{};
  constexpr std::int64_t kAlignment = 16;  // FlashAttention's kernel block alignment
  const std::int64_t aligned =
      token > Bytes{} ? kAlignment * checked::ceil_div(h.mamba_state.in_bytes(), kAlignment * token.in_bytes()) : 0;
  h.block_size = std::max(block_size, aligned);
  h.page = token * h.block_size;
  return h;
}

KvLayout hybrid_kv_layout(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t block_size,
                          StateBits state_bits, std::int32_t first, std::int32_t end) {
  KvLayout k;
  const HybridPages h = hybrid_pages(a, d, tp, block_size, state_bits);
  k.types = attention_types(a, first, end);
  if (const std::int64_t m = mamba_layers(a, first, end); m > 0) k.types.push_back({LayerKind::mamba, 0, m});
  if (k.types.empty()) return k;
  k.page_bytes = h.page;
  k.block_size = h.block_size;
  group_types(k);
  return k;
}

Term hybrid_kv_needed_term(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t block_size,
                           StateBits state_bits, std::int64_t context, std::int64_t concurrency, std::int32_t first,
                           std::int32_t end) {
  const HybridPages h = hybrid_pages(a, d, tp, block_size, state_bits);
  Term attention = kv_sequences_term(a, d, tp, concurrency, checked::ceil_div(context, h.block_size), h.block_size,
                                     first, end);
  attention.note = {};
  Term state = Term::product({Factor::of(concurrency, "sequences"),
                              Factor::of(mamba_layers(a, first, end), state_layers_label(a)),
                              Factor::of(h.page.in_bytes(), "B page (state padded to the attention page)")})
                   .noted("{} B of state per layer before padding: conv state in {}-bit, SSM state in {}-bit elements",
                          {h.mamba_state.in_bytes(), state_bits.conv, state_bits.ssm});
  return sum_nonzero(terms(std::move(attention), std::move(state))).cite(kHybridSource);
}

KvLayout kv_layout(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t block_size,
                   std::int32_t first, std::int32_t end) {
  KvLayout k;
  k.types = attention_types(a, first, end);
  const auto& types = k.types;
  Bytes page;
  for (const auto& t : types)
    page = std::max(page, kv_bytes_per_token_layer(a, LayerSpec{t.kind, t.window, false}, d, tp) * block_size);
  if (types.empty()) return k;
  k.page_bytes = page;
  group_types(k);
  return k;
}

KvPool kv_pool(const KvLayout& k, Bytes available, std::int64_t block_size, std::int64_t context,
               std::int64_t max_batched) {
  KvPool p;
  if (k.groups == 0 || available <= Bytes{}) return p;
  const Bytes block_all_groups = k.page_bytes * k.group_size;  // one block id spans group_size layer tensors
  const std::int64_t bs = k.block_size > 0 ? k.block_size : block_size;
  p.blocks = available.in_bytes() / block_all_groups.in_bytes();
  p.tokens = p.blocks / k.groups * bs;
  // Pages one request of `context` tokens needs in each group: full layers cdiv(context, block);
  // sliding layers cdiv(min(window − 1 + max_num_batched_tokens, context), block) + 1
  // (kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes).
  std::int64_t pages = 0;
  for (const auto& t : k.types) {
    const std::int64_t groups = (t.layers + k.group_size - 1) / k.group_size;
    std::int64_t per_group = (context + bs - 1) / bs;
    if (t.kind == LayerKind::sliding_attention) {
      per_group = (std::min(t.window - 1 + max_batched, context) + bs - 1) / bs + 1;
    } else if (t.kind == LayerKind::chunked_attention) {
      // ChunkedLocalAttentionSpec.max_memory_usage_bytes: cdiv(min(chunk + batched, max_model_len), block).
      per_group = (std::min(t.window + max_batched, context) + bs - 1) / bs;
    } else if (t.kind == LayerKind::mamba) {
      per_group = 1;  // MambaSpec.max_memory_usage_bytes: one page per sequence
    }
    pages += per_group * groups;
  }
  p.max_concurrency = pages > 0 ? static_cast<double>(p.blocks) / static_cast<double>(pages) : 0;
  return p;
}

Term kv_needed_term(const Architecture& a, const KvDtype& d, std::int64_t tp, std::int64_t block_size,
                    std::int64_t context, std::int64_t concurrency, std::int32_t first, std::int32_t end,
                    StateBits state_bits) {
  const std::int64_t blocks = checked::ceil_div(context, block_size);
  Term attention = kv_sequences_term(a, d, tp, concurrency, blocks, block_size, first, end);
  Term state = mamba_state_term(a, state_bits, tp, concurrency, first, end);
  // The recurrent state is counted here, so the attention term's remark that
  // Mamba layers hold a state instead does not apply.
  if (state.bytes != Bytes{}) attention.note = {};
  return sum_nonzero(terms(std::move(attention), std::move(state))).cite(kPageSource);
}

namespace {

/// A MambaDType's element width; 0 for "auto".
std::int64_t mamba_dtype_bits(MambaDtype d) {
  switch (d) {
    case MambaDtype::float32: return 32;
    case MambaDtype::float16:
    case MambaDtype::bfloat16: return 16;
    case MambaDtype::auto_dtype: return 0;
  }
  return 0;
}

std::string_view mamba_dtype_name(MambaDtype d) {
  switch (d) {
    case MambaDtype::float32: return "float32";
    case MambaDtype::float16: return "float16";
    case MambaDtype::bfloat16: return "bfloat16";
    case MambaDtype::auto_dtype: return "model dtype";
  }
  return "model dtype";
}

}  // namespace

StateBits mamba_state_bits(const VllmSettings& s, const Architecture& a, const Version& v, std::int64_t model_bits) {
  const std::int64_t conv_bits =
      s.mamba_cache_dtype == MambaDtype::auto_dtype ? model_bits : mamba_dtype_bits(s.mamba_cache_dtype);
  const std::string_view conv_name = mamba_dtype_name(s.mamba_cache_dtype);
  if (s.mamba_ssm_cache_dtype != MambaDtype::auto_dtype)
    return {conv_bits, mamba_dtype_bits(s.mamba_ssm_cache_dtype), conv_name, mamba_dtype_name(s.mamba_ssm_cache_dtype)};
  // NemotronHForCausalLMConfig.update_mamba_ssm_cache_dtype: "auto" becomes the config's value, else float32.
  if (a.family == Family::nemotron_h && v.at_least(0, 13)) {
    const std::int64_t bits = a.config_ssm_cache_bits > 0 ? a.config_ssm_cache_bits : 32;
    return {conv_bits, bits, conv_name, bits == 32 ? "float32, Nemotron-H default" : "the config's dtype"};
  }
  // Qwen3_5ForConditionalGenerationConfig.verify_and_update_config (vllm/model_executor/models/config.py,
  // vllm-project/vllm#34489, v0.16): "auto" becomes the config's mamba_ssm_dtype.
  if (a.family == Family::qwen3_next && a.config_ssm_cache_bits > 0 && v.at_least(0, 16))
    return {conv_bits, a.config_ssm_cache_bits, conv_name, "the config's mamba_ssm_dtype"};
  return {conv_bits, conv_bits, conv_name, conv_name};
}

}  // namespace vram::vllm
