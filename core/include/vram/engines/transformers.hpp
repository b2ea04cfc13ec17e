// Hugging Face transformers `generate()` accounting.
//
// Eager PyTorch inference: every weight on the GPU, a DynamicCache that grows
// one token at a time without blocks (sliding layers hold at most `window`
// tokens), the prefill forward pass over the whole prompt of every sequence,
// and logits for the last position only (`logits_to_keep=1`, upcast to fp32
// by the sampler). Sources: transformers v4.56.0 src/transformers/cache_utils.py
// (DynamicLayer, DynamicSlidingWindowLayer), generation/utils.py (_sample).
#pragma once

#include "vram/budget/weights.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram::transformers_engine {

/// Fills `report` for a transformers scenario.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr);

}  // namespace vram::transformers_engine
