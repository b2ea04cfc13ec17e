// Latent geometry: pixels → latent frames × height × width → denoiser tokens.
#include <string>

#include "vram/error.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/units.hpp"

namespace vram::generation {

namespace {

/// The pixel multiple a size must be: the VAE's spatial compression × the
/// denoiser's patch (FLUX 8 × 2, Wan 2.1 8 × 2, Wan 2.2 TI2V 16 × 2, SDXL 8).
std::int64_t size_multiple(const Component& vae, const Component& den) {
  return vae.config.spatial * den.config.patch[1];
}

void check_multiple(std::int64_t v, std::int64_t m, const std::string& field, const Pipeline& p,
                    const Component& vae, const Component& den) {
  if (v % m == 0) return;
  const std::int64_t lo = v / m * m, hi = lo + m;
  throw InputError("/generation/" + field,
                   "must be a multiple of " + std::to_string(m) + " for " + p.id + " (VAE " +
                       std::to_string(vae.config.spatial) + "× × patch " + std::to_string(den.config.patch[1]) +
                       "); got " + std::to_string(v) + ". Nearest valid: " +
                       (lo > 0 ? std::to_string(lo) + ", " : std::string()) + std::to_string(hi));
}

void check_frames(std::int64_t frames, const Pipeline& p, const Component& vae) {
  const std::int64_t t = vae.config.temporal;
  if (t > 1 && (frames - 1) % t != 0) {
    const std::int64_t lo = (frames - 1) / t * t + 1, hi = lo + t;
    throw InputError("/generation/frames",
                     p.id + " needs " + std::to_string(t) + "k+1 frames (VAE temporal compression " + std::to_string(t) +
                         " after a causal first frame); got " + std::to_string(frames) + ". Nearest valid: " +
                         std::to_string(lo) + ", " + std::to_string(hi));
  }
  if (frames > 4 * p.max_frames)
    throw InputError("/generation/frames", std::to_string(frames) + " frames is beyond any use of " + p.id +
                                               " (documented up to " + std::to_string(p.max_frames) +
                                               "; at most 4 × that is estimated)");
}

}  // namespace

LatentGeometry latent_geometry(const Pipeline& p, const GenerationSettings& g, std::int64_t width,
                               std::int64_t height, std::int64_t frames) {
  (void)g;
  const Component& vae = *p.first(Role::vae);
  const Component& den = *p.first(Role::denoiser);
  const std::int64_t m = size_multiple(vae, den);
  check_multiple(width, m, "width", p, vae, den);
  check_multiple(height, m, "height", p, vae, den);
  LatentGeometry out;
  out.latent_channels = vae.config.latent_channels;
  out.latent_height = height / vae.config.spatial;
  out.latent_width = width / vae.config.spatial;
  if (p.modality == Modality::video) {
    check_frames(frames, p, vae);
    out.latent_frames = vae.config.temporal > 1 ? (frames - 1) / vae.config.temporal + 1 : frames;
  }
  const auto& patch = den.config.patch;
  // A temporal patch (CogVideoX 1.5) pads the latent frames up to its multiple
  // (diffusers v0.35 CogVideoXPipeline.__call__: additional_frames).
  out.tokens = checked::product(checked::ceil_div(out.latent_frames, patch[0]), out.latent_height / patch[1],
                                out.latent_width / patch[2]);
  // FLUX.1 Kontext: each reference image is encoded at the output's size and
  // its packed latents join the sequence (diffusers v0.35 pipeline_flux_kontext.py
  // __call__: torch.cat([latents, image_latents], dim=1)).
  out.reference_tokens = checked::mul(out.tokens, p.reference_images);
  return out;
}

}  // namespace vram::generation
