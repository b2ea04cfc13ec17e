// Image and video generation: the pipeline's components placed per phase
// (encode prompt → denoise → decode), the phase that peaks, and the metrics
// torch and the driver would show (peak allocated, reserved, device).
//
// Two runtimes: diffusers pipelines (torch_dtype, quantization backends,
// accelerate / group offload, VAE slicing and tiling) and the Wan reference
// scripts (checkpoint dtypes under bf16 autocast, --offload_model, --t5_cpu,
// --dit_fsdp / --t5_fsdp, Ulysses sequence parallel, decode on rank 0).
#pragma once

#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram::generation {

/// Fills `r` with the budget of the phase that peaks on the busiest GPU.
void account(const Scenario& s, Report& r);

}  // namespace vram::generation
