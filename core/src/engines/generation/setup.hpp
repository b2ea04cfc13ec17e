// A generation scenario resolved against its pipeline: geometry, each
// component's stored format and placement. Internal to the generation engine.
#pragma once

#include <optional>
#include <vector>

#include "vram/budget/generation.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram::generation {

struct Placed {
  const Component* c = nullptr;
  StoredFormat format;
  bool loaded = true;  ///< false: component_weights "none"
  bool on_gpu = true;  ///< false: kept on the CPU (text_encoder / vae "cpu")
  std::int64_t shards = 1;
  /// The format as a plain dtype, when it is one (none for quantized formats).
  std::optional<StoredDtype> plain;
};

struct Setup {
  const Pipeline* p = nullptr;
  GenerationSettings g;  ///< geometry resolved to the pipeline's native where unset
  LatentGeometry geo;
  std::int64_t elem = 2;      ///< compute dtype bytes
  std::int64_t cfg_batch = 1; ///< denoiser batch multiplier (CFG batched)
  std::int64_t gpus = 1;
  std::vector<Placed> parts;
};

/// Text tokens in the denoiser's joint sequence (FLUX, SD3, CogVideoX, Mochi, HunyuanVideo); 0 for the others.
std::int64_t text_tokens(const Setup& u);
/// Text tokens a cross-attention denoiser (UNet, PixArt, LTX-Video, Wan) attends to; 0 for joint attention.
std::int64_t cross_tokens(const Setup& u);

/// Resolves and validates; defaults it applies go to `r.defaults_used`.
Setup resolve(const Scenario& s, Report& r);

}  // namespace vram::generation
