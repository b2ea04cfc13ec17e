// Budget categories of image and video generation: each component's weights in
// its stored format, the denoiser's working set, the text encoders' forward,
// the VAE decode peak, FSDP's unsharded blocks and the allocator's cache.
//
// Every function returns a Term with its factors and a cited source; inputs
// are value types (a pipeline component, the latent geometry, a few counts).
#pragma once

#include <cstdint>
#include <utility>

#include "vram/budget/term.hpp"
#include "vram/formats.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/workloads.hpp"

namespace vram::generation {

/// How one component is stored: a plain dtype or a quantized format.
struct StoredFormat {
  WeightFormat format;
  bool quantized = false;
  /// bitsandbytes keeps `_keep_in_fp32_modules` (T5 `wo`) in fp32; other
  /// backends leave them in the compute dtype.
  bool keep_fp32 = false;
};

/// Bytes of a component's weights: linear layers in the format's codec, the
/// rest (and kept layers) in 16 bits, divided over `shards` GPUs (FSDP).
Term component_weights(const Component& c, const StoredFormat& f, std::int64_t shards = 1);

/// What one denoiser forward holds at its peak on one GPU.
struct DenoiseShape {
  std::int64_t tokens = 0;       ///< image tokens per sample on this GPU (sequence parallel divides them)
  std::int64_t full_tokens = 0;  ///< image tokens per sample before the split
  std::int64_t text_tokens = 0;  ///< joint-attention text tokens (FLUX)
  std::int64_t cross_tokens = 0; ///< cross-attention text tokens (PixArt: the T5 tokens)
  std::int64_t batch = 1;        ///< samples per forward (CFG batched doubles it)
  std::int64_t elem = 2;         ///< bytes of the compute dtype
  std::int64_t sequence_parallel = 1;
  GenAttention attention = GenAttention::efficient;
  LatentGeometry latent;
};

/// The denoiser's working set per forward (no autograd: only live tensors).
Term denoiser_working_set(const Component& d, const DenoiseShape& s);

/// FSDP (FULL_SHARD, per-block wrapping, bf16 MixedPrecision): the unsharded
/// parameters of the block running and the one being gathered next.
Term fsdp_unsharded_blocks(const Component& d, std::int64_t elem);

/// A text encoder's forward over `prompts` sequences of its padded length.
Term text_encoder_forward(const Component& c, std::int64_t prompts, std::int64_t elem);

/// The VAE decode: what it decodes at once and in which dtype.
struct DecodeShape {
  LatentGeometry latent;
  std::int64_t width = 0, height = 0, frames = 1;
  std::int64_t samples_at_once = 1;  ///< batch, or 1 with slicing
  std::int64_t samples = 1;          ///< outputs held when the decode ends
  std::int64_t elem = 2;
  bool tiling = false;
  GenAttention attention = GenAttention::efficient;
};

/// Peak of live tensors while decoding (the largest decoder level, causal
/// caches and the output being assembled).
Term vae_decode_peak(const Component& vae, const DecodeShape& s);

/// Peak of live tensors while the causal 3D VAE encodes a video of s.frames
/// frames (Wan I2V's conditioning video): the input, the largest encoder
/// level's frame copies and the causal caches.
Term vae_encode_peak(const Component& vae, const DecodeShape& s);

/// Blocks the caching allocator holds beside the decode peak: the working set
/// of the largest decoder level that runs before the peak one, freed in blocks
/// too small for the peak level's requests. Calibrated: carries a range.
Term vae_decode_cache(const Component& vae, const DecodeShape& s);

/// The decode peak and the allocator's cache beside it, from one pass over the decoder's levels.
/// `elems` elements of each of the samples one decoder call takes, in the decode's element size: a moment of a
/// decoder stage, named `label` (`what` says which tensors the elements are).
Term decode_elements(const DecodeShape& s, checked::Count elems, std::string_view what, std::string_view label);

struct DecodeTerms {
  Term peak;
  Term cache;
};
DecodeTerms vae_decode(const Component& vae, const DecodeShape& s);

/// LTX-Video (ltx_generation.cpp): the denoiser's working set over its video
/// tokens, and the VAE decode of the whole latent at once (or per spatial tile).
Term ltx_working_set(const Component& d, const DenoiseShape& s);
/// The latent area one decoder call covers: the whole latent, or with tiling
/// one tile of at most `tile_h` × `tile_w` latents.
std::pair<checked::Count, checked::Count> decode_call_area(const DecodeShape& s, checked::Count tile_h,
                                                           checked::Count tile_w);
/// Latents covered together by tiles set every `stride` latents over `size`,
/// each up to `tile` long (overlaps counted each time).
checked::Count tiled_extent(checked::Count size, checked::Count tile, checked::Count stride);
/// A tiled_decode keeps every decoded tile (overlaps included, `frames` each) until the rows are
/// blended and joined: the latent covered by tiles of `tile` latents (rows, columns) starting every
/// `stride`, in pixels, RGB, for `samples`.
Term held_tiles(const Component& vae, const DecodeShape& s, std::int64_t samples, checked::Count frames,
                std::pair<checked::Count, checked::Count> tile, std::pair<checked::Count, checked::Count> stride);

Term ltx_decode_peak(const Component& vae, const DecodeShape& s);
/// Per-level peaks of the LTX decoder, for the allocator cache.
Terms ltx_decode_levels(const Component& vae, const DecodeShape& s);

/// HunyuanVideo (hunyuan_generation.cpp): the transformer's working set, the
/// language-model text encoder's forward (every hidden state kept), and the VAE
/// decode in chunks of 5 latent frames (or per 256-pixel tile).
Term hunyuan_working_set(const Component& d, const DenoiseShape& s);
Term llm_text_encoder_forward(const Component& c, std::int64_t prompts, std::int64_t elem);
Term hunyuan_decode_peak(const Component& vae, const DecodeShape& s);
Terms hunyuan_decode_levels(const Component& vae, const DecodeShape& s);

/// HunyuanVideo-1.5 (hunyuan15_generation.cpp): the dual-stream blocks' working set
/// with the bool attention mask over the joint sequence, and the VAE decode of
/// every latent frame in one call (or per 256-pixel tile).
Term hunyuan15_working_set(const Component& d, const DenoiseShape& s);
Term hunyuan15_decode_peak(const Component& vae, const DecodeShape& s);
Terms hunyuan15_decode_levels(const Component& vae, const DecodeShape& s);

/// Step-Video-T2V (stepvideo_generation.cpp): what the transformer's forward holds, each block phase's
/// working set (self-attention, the cross-attention with its per-head mask copies, the feed-forward), and
/// the Video-VAE decode of one 3-latent-frame chunk per call with the decoded chunks held.
Term stepvideo_held(const Component& d, const DenoiseShape& s);
Term stepvideo_self_attention(const Component& d, const DenoiseShape& s);
Term stepvideo_cross_attention(const Component& d, const DenoiseShape& s);
Term stepvideo_ffn(const Component& d, const DenoiseShape& s);
Term stepvideo_working_set(const Component& d, const DenoiseShape& s);
Term stepvideo_decode_peak(const Component& vae, const DecodeShape& s);
Terms stepvideo_decode_levels(const Component& vae, const DecodeShape& s);

/// Mochi (mochi_generation.cpp): the asymmetric block's working set over the
/// video tokens, and the VAE decode of the whole latent (or per 256-pixel tile).
Term mochi_working_set(const Component& d, const DenoiseShape& s);
Term mochi_decode_peak(const Component& vae, const DecodeShape& s);
Terms mochi_decode_levels(const Component& vae, const DecodeShape& s);

/// Allegro (allegro_generation.cpp): the VAE decode, tile by tile (every decoded
/// tile held until the blend), and the decoder's stages over one tile.
Term allegro_decode_peak(const Component& vae, const DecodeShape& s);
Terms allegro_decode_levels(const Component& vae, const DecodeShape& s);
/// Bytes per output element of diffusers' Upsample2D: the quarter-size input, the nearest
/// interpolation (in the tensor's dtype, diffusers v0.31 on PyTorch 2.1 or later) and the conv's output.
double upsample2d_bytes_per_output(const DecodeShape& s);

/// The latents, noise prediction and conditioning tensors of the denoise loop.
Term latent_tensors(const LatentGeometry& g, std::int64_t batch, std::int64_t elem);

/// FLUX.1 Kontext: the reference images' packed latents held through the loop
/// and the concatenated transformer input (latents + reference latents).
Term reference_latents(const LatentGeometry& g, std::int64_t references, std::int64_t batch, std::int64_t elem);

}  // namespace vram::generation
