// Budget category: Allegro's VAE decode. AutoencoderKLAllegro decodes only in
// overlapping 3D tiles, one tile per decoder call, and keeps every decoded tile
// until the blend.
#include <string_view>

#include "vram/budget/generation.hpp"

namespace vram::generation {

using checked::Count;

namespace {

constexpr std::string_view kAllegroDecoderSource =
    "diffusers @58eb52c autoencoder_kl_allegro.py tiled_decode (one tile per decoder call: local_batch_size 1; "
    "decoded_videos holds every tile, allocated before the first; the blended video and its contiguous copy after "
    "the last), AllegroDecoder3D and AllegroTemporalConvLayer (each Conv3d stage after a first-and-last-frame "
    "torch.cat padding, GroupNorm and SiLU; the upsampling one repeat_interleave's its identity and reorders its "
    "doubled output), resnet.py ResnetBlock2D and Upsample2D";

/// One stage of the decoder over one tile: `c` channels of `frames` × `pixels`.
Term al_stage(const DecodeShape& s, Count c, Count frames, Count pixels, Count copies, std::string_view what,
           std::string_view label) {
  return Term::product({Factor::of(c, "channels"), Factor::of(pixels, "pixels per frame"), Factor::of(frames, "frames"),
                        Factor::of(copies, what), Factor::bytes(s.elem)})
      .named(label);
}

/// A plain temporal conv layer: the input (the caller's, also the identity), then the padded
/// copy (two frames more), GroupNorm and SiLU outputs live at once.
Term al_temporal_conv(const DecodeShape& s, Count c, Count f, Count px) {
  return Term::product({Factor::of(c, "channels"), Factor::of(px, "pixels per frame"),
                        Factor::of(Count(4) * f + 6, "frames (input; padded copy, GroupNorm, SiLU: 2 more each)"),
                        Factor::bytes(s.elem)})
      .named("temporal conv");
}

/// The upsampling temporal conv: the caller's input (f frames), the repeat_interleave'd identity
/// (2f) and, at its later stages, the padded copy, GroupNorm and SiLU over 2f + 2 frames each.
Term al_temporal_upsample(const DecodeShape& s, Count c, Count f, Count px) {
  return Term::product({Factor::of(c, "channels"), Factor::of(px, "pixels per frame"),
                        Factor::of(Count(9) * f + 6, "frames (input f, identity 2f; padded, GroupNorm, SiLU 2f + 2 each)"),
                        Factor::bytes(s.elem)})
      .named("temporal upsample");
}

/// Upsample2D over the frames of a tile: the caller's input, the nearest-interpolated copy and the
/// conv's output (interpolated in the tensor's dtype, as in the 2D decoder).
Term al_spatial_upsample(const DecodeShape& s, Count c, Count f, Count px_out) {
  return Term::product({Factor::of(c, "channels"), Factor::of(px_out, "output pixels per frame"), Factor::of(f, "frames"),
                        Factor::real(upsample2d_bytes_per_output(s), "B/output element (quarter-size input, "
                                                                     "interpolation, conv output)")},
                       Rounding::ceil)
      .named("spatial upsample");
}

/// `copies` decoded videos: every latent frame's 4 frames (trimmed to the requested count later) at full size.
Term al_output_video(const Component& vae, const DecodeShape& s, Count copies, std::string_view label) {
  const std::int64_t sp = vae.config.spatial;
  return Term::product({Factor::of(copies, "videos"), Factor::of(3, "RGB"),
                        Factor::of(Count(s.latent.latent_frames) * vae.config.temporal, "frames"),
                        Factor::of(Count(s.latent.latent_height) * sp * s.latent.latent_width * sp, "pixels"),
                        Factor::bytes(s.elem)})
      .named(label);
}

}  // namespace

Terms allegro_decode_levels(const Component& vae, const DecodeShape& s) {
  const ComponentConfig& c = vae.config;
  const LatentTiles t = allegro_latent_tiles(c);
  const std::vector<std::int64_t> ch(c.block_channels.rbegin(), c.block_channels.rend());
  const std::size_t n = ch.size();
  Count f = t.frames, px = Count(t.height) * t.width, out = ch[0];
  Terms st;
  st.push_back(al_stage(s, out, f, px, 3, "copies (input, GroupNorm, SiLU)", "mid-block resnet"));
  st.push_back(al_temporal_conv(s, out, f, px));
  for (std::size_t i = 0; i < n; ++i) {
    const Count in = out;
    out = ch[i];
    st.push_back(al_stage(s, in, f, px, 3, "copies (input, GroupNorm, SiLU)", "resnet entry"));
    st.push_back(al_temporal_conv(s, out, f, px));
    if (c.temporal_upsample[i]) {
      st.push_back(al_temporal_upsample(s, out, f, px));
      f = f * 2;
    }
    if (i + 1 < n) {
      px = px * 4;
      st.push_back(al_spatial_upsample(s, out, f, px));
    }
  }
  st.push_back(al_stage(s, out, f, px, 4, "copies (GroupNorm, SiLU, temporal conv out, residual sum)", "output convs"));
  return st;
}

Term allegro_decode_peak(const Component& vae, const DecodeShape& s) {
  const LatentTiles t = allegro_latent_tiles(vae.config);
  const std::int64_t sp = vae.config.spatial;
  Term tiles = Term::product({Factor::of(t.count(s.latent), "tiles"), Factor::of(3, "RGB"),
                              Factor::of(Count(t.frames) * vae.config.temporal, "frames per tile"),
                              Factor::of(Count(t.height) * sp * t.width * sp, "pixels per tile"), Factor::bytes(s.elem)})
                   .named("decoded tiles");
  Term video = al_output_video(vae, s, 2, "blended video and its .contiguous() copy");
  Terms during = terms(Term::max_of(allegro_decode_levels(vae, s)).named("largest decoder stage (one tile)"), Term(tiles));
  Terms after = terms(std::move(tiles), std::move(video));
  Terms cases;
  if (s.samples > 1) {
    // vae_slicing: one video per tiled_decode, the earlier ones held, then joined by torch.cat.
    Term one = al_output_video(vae, s, s.samples - 1, "earlier videos (vae_slicing)");
    during.push_back(one);
    after.push_back(std::move(one));
    cases.push_back(al_output_video(vae, s, 2 * s.samples, "videos joined (torch.cat: slices and result)"));
  }
  cases.push_back(Term::sum(std::move(during)).named("decoding a tile"));
  cases.push_back(Term::sum(std::move(after)).named("blending"));
  return Term::max_of(std::move(cases)).cite(kAllegroDecoderSource);
}

}  // namespace vram::generation
