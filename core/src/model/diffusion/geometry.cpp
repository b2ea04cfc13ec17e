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

void check_frame_limit(std::int64_t frames, const Pipeline& p) {
  if (frames > 4 * p.max_frames)
    throw InputError("/generation/frames", std::to_string(frames) + " frames is beyond any use of " + p.id +
                                               " (documented up to " + std::to_string(p.max_frames) +
                                               "; at most 4 × that is estimated)");
}

/// Step-Video-T2V: whole 17-frame chunks, each 3 latent frames (stepvideo/vae/vae.py AutoencoderKL frame_len and
/// latent_len; video_pipeline.py prepare_latents: num_frames // 17 * 3 latent frames).
void check_chunk_frames(std::int64_t frames, const Pipeline& p, const Component& vae) {
  const std::int64_t k = vae.config.chunk_frames;
  if (frames % k != 0) {
    const std::int64_t lo = frames / k * k, hi = lo + k;
    throw InputError("/generation/frames", p.id + " needs a multiple of " + std::to_string(k) + " frames (its VAE "
                                           "decodes " + std::to_string(k) + "-frame chunks of " +
                                           std::to_string(vae.config.chunk_latents) + " latent frames); got " +
                                           std::to_string(frames) + ". Nearest valid: " +
                                           (lo > 0 ? std::to_string(lo) + ", " : std::string()) + std::to_string(hi));
  }
  check_frame_limit(frames, p);
}

void check_frames(std::int64_t frames, const Pipeline& p, const Component& vae) {
  if (vae.config.chunk_frames > 0) return check_chunk_frames(frames, p, vae);
  const std::int64_t t = vae.config.temporal;
  if (t > 1 && (frames - 1) % t != 0) {
    const std::int64_t lo = (frames - 1) / t * t + 1, hi = lo + t;
    throw InputError("/generation/frames",
                     p.id + " needs " + std::to_string(t) + "k+1 frames (VAE temporal compression " + std::to_string(t) +
                         " after a causal first frame); got " + std::to_string(frames) + ". Nearest valid: " +
                         std::to_string(lo) + ", " + std::to_string(hi));
  }
  check_frame_limit(frames, p);
}

/// AllegroPipeline.prepare_latents: ceil(frames / t) latent frames for an even count,
/// ceil((frames - 1) / t) + 1 for an odd one.
std::int64_t allegro_latent_frames(std::int64_t frames, std::int64_t t) {
  return frames % 2 == 0 ? (frames + t - 1) / t : (frames - 1 + t - 1) / t + 1;
}

/// Whether `latent` is one tile plus whole strides: AutoencoderKLAllegro decodes only in
/// overlapping tiles, and tiled_decode leaves whatever its tiles do not reach black.
bool covered(std::int64_t latent, std::int64_t tile, std::int64_t stride) {
  return latent >= tile && (latent - tile) % stride == 0;
}

/// The nearest values below and above `v` (in steps of `step`, within the checked range) that `valid` accepts.
template <typename Valid>
std::string nearest_valid(std::int64_t v, std::int64_t step, Valid valid) {
  std::string out;
  for (std::int64_t x = v / step * step; x >= step && x > v - 4096; x -= step)
    if (x < v && valid(x)) {
      out = std::to_string(x) + ", ";
      break;
    }
  for (std::int64_t x = (v / step + 1) * step; x < v + 4096; x += step)
    if (valid(x)) return out + std::to_string(x);
  return out.empty() ? std::string("none near") : out.substr(0, out.size() - 2);
}

void check_allegro_size(std::int64_t v, std::int64_t m, std::int64_t tile, std::int64_t stride, std::int64_t sp,
                        const std::string& field, const Pipeline& p) {
  const auto valid = [&](std::int64_t x) { return x % m == 0 && covered(x / sp, tile, stride); };
  if (valid(v)) return;
  throw InputError("/generation/" + field,
                   p.id + "'s VAE decodes only in tiles of " + std::to_string(tile * sp) + " pixels every " +
                       std::to_string(stride * sp) + " (diffusers tiled_decode; past the last whole tile the output stays "
                       "black), and the transformer needs a multiple of " + std::to_string(m) + ": " + field + " must be " +
                       std::to_string(tile * sp) + " + a multiple of " + std::to_string(stride * sp) + " and of " +
                       std::to_string(m) + "; got " + std::to_string(v) + ". Nearest valid: " + nearest_valid(v, m, valid));
}

void check_allegro_frames(std::int64_t frames, const LatentTiles& t, std::int64_t tf, const Pipeline& p) {
  const auto valid = [&](std::int64_t f) { return covered(allegro_latent_frames(f, tf), t.frames, t.stride_frames); };
  if (valid(frames)) return;
  throw InputError("/generation/frames",
                   p.id + "'s VAE decodes only in tiles of " + std::to_string(t.frames) + " latent frames every " +
                       std::to_string(t.stride_frames) + " (diffusers tiled_decode): the frames must give " +
                       std::to_string(t.frames) + " + a multiple of " + std::to_string(t.stride_frames) +
                       " latent frames (ceil(frames / " + std::to_string(tf) + "), or ceil((frames - 1) / " +
                       std::to_string(tf) + ") + 1 for an odd count; " + std::to_string(t.frames * tf) + ", " +
                       std::to_string((t.frames + t.stride_frames) * tf) + ", " +
                       std::to_string((t.frames + 2 * t.stride_frames) * tf) + ", ... give whole tiles); got " +
                       std::to_string(frames) + ". Nearest valid: " + nearest_valid(frames, 1, valid));
}

}  // namespace

LatentGeometry latent_geometry(const Pipeline& p, const GenerationSettings& g, std::int64_t width,
                               std::int64_t height, std::int64_t frames) {
  (void)g;
  const Component& vae = *p.first(Role::vae);
  const Component& den = *p.first(Role::denoiser);
  const std::int64_t m = size_multiple(vae, den);
  const bool allegro = vae.kind == ComponentKind::vae_allegro;
  if (allegro) {
    const LatentTiles t = allegro_latent_tiles(vae.config);
    check_allegro_size(width, m, t.width, t.stride_width, vae.config.spatial, "width", p);
    check_allegro_size(height, m, t.height, t.stride_height, vae.config.spatial, "height", p);
    check_frame_limit(frames, p);
    check_allegro_frames(frames, t, vae.config.temporal, p);
  } else {
    check_multiple(width, m, "width", p, vae, den);
    check_multiple(height, m, "height", p, vae, den);
  }
  LatentGeometry out;
  out.latent_channels = vae.config.latent_channels;
  out.latent_height = height / vae.config.spatial;
  out.latent_width = width / vae.config.spatial;
  if (allegro) {
    out.latent_frames = allegro_latent_frames(frames, vae.config.temporal);
  } else if (p.modality == Modality::video) {
    check_frames(frames, p, vae);
    out.latent_frames = vae.config.chunk_frames > 0 ? frames / vae.config.chunk_frames * vae.config.chunk_latents
                        : vae.config.temporal > 1 ? (frames - 1) / vae.config.temporal + 1
                                                  : frames;
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
