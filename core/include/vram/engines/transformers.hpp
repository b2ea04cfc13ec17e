// Hugging Face transformers `generate()` accounting.
//
// Eager PyTorch inference: every weight on the GPU, a KV cache of the class
// `inference.transformers.cache_implementation` names (DynamicCache by
// default: it grows one token at a time without blocks, sliding layers hold at
// most `window` tokens), the prefill forward pass over the whole prompt of
// every sequence, and the logits of the last position only (`logits_to_keep=1`,
// upcast to fp32 by the sampler). Sources: transformers v4.56.0
// src/transformers/cache_utils.py (DynamicLayer, DynamicSlidingWindowLayer,
// StaticLayer, QuantizedLayer), generation/utils.py (_sample). Older versions
// run with the mechanisms of transformers_version.hpp.
#pragma once

#include <cstdint>

#include "vram/budget/term.hpp"
#include "vram/budget/weights.hpp"
#include "vram/engines/transformers_version.hpp"
#include "vram/model.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram::transformers_engine {

/// Fills `report` for a transformers scenario.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr);

/// The version of a scenario's settings on the ladder ("" = the current one).
HfVersion version_of(const TransformersSettings& ts);

/// The attention a run uses: the one given, else the version's default.
HfAttention attention_of(const TransformersSettings& ts);

// The terms below are per tensor-parallel rank `tp`; `b` is the model dtype's bytes.

/// `a` with its sliding and chunked layers made full-attention layers: the caches
/// before v4.56 kept every token in them (the mask, not the cache, applied the window).
Architecture without_windows(const Architecture& a);

/// StaticCache (v4.38+): every attention layer preallocated to `max_cache_len`
/// tokens per sequence (StaticLayer); from v4.56 a sliding layer holds
/// min(window, max_cache_len) (StaticSlidingWindowLayer).
Term static_cache_term(const Architecture& a, const KvDtype& kv, std::int64_t tp, std::int64_t sequences,
                       std::int64_t max_cache_len, const HfVersion& v);

/// QuantizedCache (v4.42+): per attention layer and sequence, the tokens past the
/// residual quantized (packed nbits codes plus a scale and a zero point per group
/// of q_group_size values, both in the model dtype) and up to residual_length − 1
/// tokens kept in the model dtype. Sliding layers are not capped.
Term quantized_cache_term(const Architecture& a, const TransformersSettings& ts, std::int64_t tp,
                          std::int64_t sequences, std::int64_t context, std::int64_t b);

/// One decode step of QuantizedCache in one layer: the dequantized K and V and the
/// concatenated K and V it returns (model dtype, `context` tokens), plus the
/// quantizer's working copy when the residual is folded in (a calibrated range).
Term quantized_step_term(const Architecture& a, const TransformersSettings& ts, std::int64_t tp, std::int64_t sequences,
                         std::int64_t context, std::int64_t b);

/// The quantizer's working set for one K (or V) tensor of `tokens` per sequence:
/// quanto's quantize_affine temporaries and uint8 codes, or HQQ's fp32 copy and
/// its two fp32 temporaries (a calibrated range).
Term requantize_working_term(const Architecture& a, const TransformersSettings& ts, std::int64_t tp,
                             std::int64_t sequences, std::int64_t tokens, std::int64_t b);

/// OffloadedCache (v4.44+): on the GPU only the layer being computed and the next,
/// prefetched one; from v4.56 the sliding layers are not offloaded (offload_only_non_sliding).
Term offloaded_cache_term(const Architecture& a, const KvDtype& kv, std::int64_t tp, std::int64_t sequences,
                          std::int64_t context, const HfVersion& v);

/// Eager attention in one layer at prefill: scores batch × heads × q_len × kv_len
/// in the model dtype, their fp32 softmax and the cast back, the 4D causal mask,
/// and repeat_kv's copies of K and V when KV heads are shared.
Term eager_scores_term(const Architecture& a, std::int64_t sequences, std::int64_t q_len, std::int64_t kv_len,
                       std::int64_t tp, std::int64_t b);

/// Before num_logits_to_keep (v4.45): lm_head over every prompt position in the model
/// dtype and the model's `logits.float()` copy of them all.
Term full_logits_term(std::int64_t sequences, std::int64_t prompt, std::int64_t vocab, std::int64_t b);

/// Before v4.42 (PR #30536), the second decode step: the previous step's cache still
/// referenced while the new one is built (a second copy of `cache`), and the first
/// step's fp32 logits over every prompt position leaked into it.
Term legacy_step_term(const Term& cache, std::int64_t sequences, std::int64_t prompt, std::int64_t vocab);

}  // namespace vram::transformers_engine
