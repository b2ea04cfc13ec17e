// The fit verdict: one rule, shared by the report, the solvers, the chart and
// the hints.
//
// Where the engine reserves a fraction of the card itself (vLLM's
// gpu_memory_utilization), that reservation is the headroom: the terms the
// engine budgets inside it must fit in it, and the terms it allocates outside
// it (the CUDA context before, CUDA graphs after) must fit in the rest of the
// card. Elsewhere the scenario's headroom applies: usable = capacity × (1 −
// headroom). Either way the engine's own admission check must pass too (vLLM:
// the KV pool holds the requested sequences).
#pragma once

#include "vram/report.hpp"
#include "vram/units.hpp"

namespace vram {

struct FitVerdict {
  Bytes usable;   ///< what the budget may use on one GPU
  Bytes outside;  ///< of which allocated outside the engine's reservation (0 without one)
  Bytes free;     ///< usable − total (negative when it does not fit)
  bool fits = false;
};

/// The verdict for a report's components against one GPU of `capacity`.
FitVerdict fit_verdict(const Report& report, Bytes capacity, double headroom);

/// Sets the report's usable, free and fits from `fit_verdict`.
void apply_fit(Report& report, Bytes capacity, double headroom);

}  // namespace vram
