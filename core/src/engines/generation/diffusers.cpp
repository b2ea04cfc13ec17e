// The generation engine: what is resident on the busiest GPU in each phase
// (encode prompt → denoise → decode), the working set of that phase, and the
// phase that peaks. Metrics follow torch (peak allocated, peak reserved) and
// the driver (peak device = reserved + CUDA context).
#include <algorithm>
#include <optional>

#include "setup.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/engines/generation.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/render.hpp"

namespace vram::generation {

namespace {

enum class Phase : std::uint8_t { encode, denoise, decode };
constexpr std::array<Choice<Phase>, 3> kPhases{
    {{Phase::encode, "encode"}, {Phase::denoise, "denoise"}, {Phase::decode, "decode"}}};

struct Resident {
  const Placed* part;
  Term weights;
};

struct PhaseBudget {
  Phase phase = Phase::denoise;
  const Placed* running = nullptr;
  std::vector<Resident> resident;
  struct Line {
    std::string_view id, label;
    Term term;
  };
  std::vector<Line> working;
  std::optional<Term> cache;
  std::vector<StoredFormat> upcast;  ///< formats the phase's terms point into (kept alive with them)

  Bytes weights() const {
    Bytes b;
    for (const auto& r : resident) b += r.weights.bytes;
    return b;
  }
  Bytes transient() const {
    Bytes b;
    for (const auto& w : working) b += w.term.bytes;
    return b;
  }
  Bytes allocated() const { return weights() + transient(); }
  Bytes reserved() const { return allocated() + (cache ? cache->bytes : Bytes{}); }
};

constexpr std::string_view kGroupSource =
    "diffusers v0.35 hooks/group_offloading.py apply_group_offloading(offload_type=\"block_level\", "
    "num_blocks_per_group=1, use_stream=True): the running block and the one prefetched";
constexpr std::string_view kSequentialSource =
    "accelerate v1.10 cpu_offload (diffusers enable_sequential_cpu_offload): each leaf module's weights are moved "
    "in for its forward and out after it";

/// The weights of `x` on the GPU while `running` runs, under the offload mode.
std::optional<Term> resident_weights(const Setup& u, const Placed& x, const Placed* running, Phase phase) {
  if (!x.loaded || !x.on_gpu) return std::nullopt;
  const Role role = role_of(x.c->kind);
  const bool runs = &x == running;
  switch (u.g.offload) {
    case GenOffload::none: return component_weights(*x.c, x.format, x.shards);
    case GenOffload::model:
      if (u.p->runtime == Runtime::wan) {
        // --offload_model: T5 and CLIP go back to the CPU after encoding, the DiT before the decode; the VAE
        // stays. Of two experts (Wan 2.2 A14B) only the one denoising is on the GPU, and Wan 2.2 keeps the DiT
        // on the CPU until its first step (init_on_cpu; not under sequence parallelism or FSDP).
        const bool encoding = phase == Phase::encode;
        const bool dit_at_init = !u.p->init_on_cpu || u.g.sequence_parallel > 1 || u.g.fsdp;
        const bool kept = role == Role::vae ||
                          (role == Role::denoiser && encoding && dit_at_init && x.c == u.p->first(Role::denoiser));
        if (!kept && !runs) return std::nullopt;
      } else if (!runs) {
        return std::nullopt;
      }
      return component_weights(*x.c, x.format, x.shards);
    case GenOffload::group: {
      if (!runs) return std::nullopt;
      Term whole = component_weights(*x.c, x.format, x.shards);
      const std::int64_t blocks = x.c->config.layers + x.c->config.single_layers;
      if (blocks < 2) return whole;
      return Term::product(terms(std::move(whole)),
                           {Factor::real(2.0 / static_cast<double>(blocks), "of the blocks (2 resident)")},
                           Rounding::ceil)
          .named(x.c->name)
          .cite(kGroupSource);
    }
    case GenOffload::sequential: break;
  }
  if (!runs) return std::nullopt;
  std::int64_t largest = 0;
  for (const auto& g : x.c->inventory.linear) largest = std::max(largest, checked::mul(g.in, g.out));
  return Term::product({Factor::of(largest, "params of the largest leaf module"),
                        Factor::bytes(std::max<std::int64_t>(1, x.format.format.linear.elem_bits / 8))})
      .named(x.c->name)
      .cite(kSequentialSource);
}

void add_residents(const Setup& u, PhaseBudget& b) {
  for (const auto& x : u.parts)
    if (auto w = resident_weights(u, x, b.running, b.phase)) b.resident.push_back({&x, std::move(*w)});
}

PhaseBudget denoise_phase(const Setup& u, const Placed& den) {
  PhaseBudget b;
  b.phase = Phase::denoise;
  b.running = &den;
  add_residents(u, b);
  DenoiseShape s;
  s.full_tokens = checked::add(u.geo.tokens, u.geo.reference_tokens);
  s.tokens = checked::ceil_div(s.full_tokens, u.g.sequence_parallel);
  s.text_tokens = text_tokens(u);
  s.cross_tokens = cross_tokens(u);
  s.batch = u.g.batch * u.cfg_batch;
  s.elem = u.elem;
  s.sequence_parallel = u.g.sequence_parallel;
  s.attention = u.g.attention;
  s.latent = u.geo;
  b.working.push_back({"activations", "Denoiser working set", denoiser_working_set(*den.c, s)});
  b.working.push_back({"latents", "Latents and noise prediction", latent_tensors(u.geo, s.batch, 4)});
  if (u.p->reference_images > 0)
    b.working.push_back({"reference_latents", "Reference image latents",
                         reference_latents(u.geo, u.p->reference_images, s.batch, u.elem)});
  if (den.shards > 1)
    b.working.push_back({"fsdp_buffers", "FSDP unsharded blocks", fsdp_unsharded_blocks(*den.c, u.elem)});
  return b;
}

PhaseBudget encode_phase(const Setup& u, const Placed& enc) {
  PhaseBudget b;
  b.phase = Phase::encode;
  b.running = &enc;
  add_residents(u, b);
  if (role_of(enc.c->kind) == Role::text_encoder)
    b.working.push_back({"activations", "Text encoder forward", text_encoder_forward(*enc.c, u.g.batch, u.elem)});
  return b;
}

/// The sample geometry a VAE encodes or decodes, in its element size (16-bit at least).
DecodeShape sample_shape(const Setup& u, const Placed& vae) {
  DecodeShape s;
  s.latent = u.geo;
  s.width = u.g.width;
  s.height = u.g.height;
  s.frames = std::max<std::int64_t>(1, u.g.frames);
  s.elem = std::max<std::int64_t>(2, vae.format.format.linear.elem_bits / 8);
  return s;
}

/// Wan I2V encodes the conditioning video (the image, then zeros) with the VAE
/// before denoising, while the DiT is already on the GPU: Wan 2.1 with its
/// image cross-attention, Wan 2.2 A14B by the latent channels its patch
/// embedding takes beyond those it predicts (noise + mask + conditioning latents).
std::optional<PhaseBudget> conditioning_encode_phase(const Setup& u, const Placed& vae) {
  const Component* den = u.p->first(Role::denoiser);
  const bool conditioned = den->config.image_cond || den->config.in_channels > den->config.out_channels;
  if (u.p->runtime != Runtime::wan || !conditioned || vae.c->kind != ComponentKind::vae_3d) return std::nullopt;
  PhaseBudget b;
  b.phase = Phase::encode;
  b.running = &vae;
  add_residents(u, b);
  const DecodeShape s = sample_shape(u, vae);
  b.working.push_back({"vae_encode", "VAE encode (conditioning video)", vae_encode_peak(*vae.c, s)});
  return b;
}

PhaseBudget decode_phase(const Setup& u, const Placed& vae) {
  PhaseBudget b;
  b.phase = Phase::decode;
  b.running = &vae;
  add_residents(u, b);
  DecodeShape s = sample_shape(u, vae);
  s.samples = u.g.batch;
  s.samples_at_once = (u.g.vae_slicing || u.p->runtime == Runtime::wan) ? 1 : u.g.batch;
  s.tiling = u.g.vae_tiling;
  s.attention = u.g.attention;
  if (vae.c->config.force_upcast && vae.plain == StoredDtype::fp16) {
    // diffusers SDXL: upcast_vae() decodes in fp32 when the VAE is fp16 and force_upcast is set.
    s.elem = 4;
    b.upcast.push_back({native_format("fp32"), false, false});
    for (auto& r : b.resident)
      if (r.part == &vae) r.weights = component_weights(*vae.c, b.upcast.back(), 1);
  }
  DecodeTerms d = vae_decode(*vae.c, s);
  b.working.push_back({"vae_decode", "VAE decode peak", std::move(d.peak)});
  b.cache = std::move(d.cache);
  return b;
}

std::vector<PhaseBudget> phases(const Setup& u) {
  std::vector<PhaseBudget> out;
  out.reserve(u.parts.size() + 1);
  for (const auto& x : u.parts) {
    if (!x.loaded || !x.on_gpu) continue;
    switch (role_of(x.c->kind)) {
      case Role::text_encoder:
      case Role::image_encoder: out.push_back(encode_phase(u, x)); break;
      case Role::denoiser: out.push_back(denoise_phase(u, x)); break;
      case Role::vae:
        if (auto e = conditioning_encode_phase(u, x)) out.push_back(std::move(*e));
        out.push_back(decode_phase(u, x));
        break;
    }
  }
  return out;
}

}  // namespace
}  // namespace vram::generation

namespace vram::generation {

namespace {

std::string_view weights_id(const Setup& u, const Placed& x) {
  static constexpr std::array<std::string_view, 3> kText{"text_encoder_weights", "text_encoder_2_weights",
                                                         "text_encoder_3_weights"};
  switch (role_of(x.c->kind)) {
    case Role::text_encoder: {
      std::size_t i = 0;
      for (const auto& y : u.parts) {
        if (&y == &x) break;
        if (role_of(y.c->kind) == Role::text_encoder) ++i;
      }
      return kText[std::min<std::size_t>(i, kText.size() - 1)];
    }
    case Role::image_encoder: return "image_encoder_weights";
    case Role::denoiser: return "weights";
    case Role::vae: return "vae_weights";
  }
  return "weights";
}

constexpr std::array<Choice<ComponentKind>, 30> kWeightLabels{{{ComponentKind::clip_text, "Weights: CLIP text encoder"},
                                                             {ComponentKind::t5_encoder, "Weights: T5 encoder"},
                                                             {ComponentKind::clip_vision, "Weights: CLIP image encoder"},
                                                             {ComponentKind::flux, "Weights: FLUX transformer"},
                                                             {ComponentKind::mmdit, "Weights: SD3 transformer"},
                                                             {ComponentKind::unet, "Weights: UNet"},
                                                             {ComponentKind::wan_dit, "Weights: Wan DiT"},
                                                             {ComponentKind::pixart_dit, "Weights: PixArt transformer"},
                                                             {ComponentKind::vae_2d, "Weights: VAE"},
                                                             {ComponentKind::vae_3d, "Weights: video VAE"},
                                                             {ComponentKind::cogvideox, "Weights: CogVideoX transformer"},
                                                             {ComponentKind::vae_cogvideox, "Weights: CogVideoX VAE"},
                                                             {ComponentKind::ltx_video, "Weights: LTX-Video transformer"},
                                                             {ComponentKind::vae_ltx, "Weights: LTX-Video VAE"},
                                                             {ComponentKind::hunyuan_video, "Weights: HunyuanVideo transformer"},
                                                             {ComponentKind::vae_hunyuan, "Weights: HunyuanVideo VAE"},
                                                             {ComponentKind::llama_text, "Weights: language-model text encoder"},
                                                             {ComponentKind::mochi_dit, "Weights: Mochi transformer"},
                                                             {ComponentKind::vae_mochi, "Weights: Mochi VAE"},
                                                             {ComponentKind::qwen_image, "Weights: Qwen-Image transformer"},
                                                             {ComponentKind::sana, "Weights: Sana transformer"},
                                                             {ComponentKind::vae_dc, "Weights: DC-AE"},
                                                             {ComponentKind::allegro, "Weights: Allegro transformer"},
                                                             {ComponentKind::vae_allegro, "Weights: Allegro VAE"},
                                                             {ComponentKind::cogview4, "Weights: CogView4 transformer"},
                                                             {ComponentKind::hidream, "Weights: HiDream transformer"},
                                                             {ComponentKind::hunyuan_video15, "Weights: HunyuanVideo-1.5 transformer"},
                                                             {ComponentKind::vae_hunyuan15, "Weights: HunyuanVideo-1.5 VAE"},
                                                             {ComponentKind::stepvideo_dit, "Weights: Step-Video transformer"},
                                                             {ComponentKind::vae_stepvideo, "Weights: Step-Video VAE"}}};

void write_components(const Setup& u, const PhaseBudget& b, const Term& context, Report& r) {
  for (const auto& res : b.resident)
    r.add(io::component(weights_id(u, *res.part), name_of(kWeightLabels, res.part->c->kind), res.weights, r.explain));
  for (const auto& w : b.working) r.add(io::component(w.id, w.label, w.term, r.explain));
  if (b.cache) r.add(io::component("allocator_cache", "Allocator cache (decode)", *b.cache, r.explain));
  r.add(io::cuda_context_component(context, r.explain));
}

void write_metrics(const PhaseBudget& b, const Term& ctx, Report& r) {
  const Bytes alloc = b.allocated(), reserved = b.reserved();
  r.metric("weights_bytes", static_cast<double>(b.weights().in_bytes()));
  r.metric("activation_bytes", static_cast<double>(b.transient().in_bytes()));
  r.metric("peak_allocated_bytes", static_cast<double>(alloc.in_bytes()));
  r.metric("peak_reserved_bytes", static_cast<double>(reserved.in_bytes()));
  r.metric("peak_device_bytes", static_cast<double>((reserved + ctx.bytes).in_bytes()));
  if (!b.cache || !b.cache->range) return;
  const ByteRange rr{alloc + b.cache->range->low, alloc + b.cache->range->high};
  r.metric_range("peak_reserved_bytes", rr);
  r.metric_range("peak_device_bytes", {rr.low + ctx.range->low, rr.high + ctx.range->high});
}

void write_details(const Setup& u, const std::vector<PhaseBudget>& all, const PhaseBudget& peak, Report& r) {
  io::JsonWriter w;
  w.begin_array();
  for (const auto& b : all) {
    w.begin_object().key("phase").value(name_of(kPhases, b.phase)).key("component").value(std::string_view(b.running->c->name));
    w.key("weights_bytes").value(b.weights().in_bytes()).key("working_bytes").value(b.transient().in_bytes());
    w.key("reserved_bytes").value(b.reserved().in_bytes()).end_object();
  }
  w.end_array();
  r.detail("phases", w.take());
  io::ObjectText e;
  e.set("engine", name_of(kRuntimes, u.p->runtime)).set("pipeline", u.p->id).set("peak_phase", name_of(kPhases, peak.phase));
  e.set("width", u.g.width).set("height", u.g.height).set("frames", u.g.frames).set("tokens", u.geo.tokens);
  if (u.geo.reference_tokens > 0) e.set("reference_tokens", u.geo.reference_tokens);
  e.set("latent_frames", u.geo.latent_frames).set("latent_height", u.geo.latent_height).set("latent_width", u.geo.latent_width);
  r.detail("engine", e.str());
}

}  // namespace

/// The caching allocator releases unused cached blocks and retries when a
/// request does not fit, so the cache never takes the card beyond its memory.
void cap_cache(PhaseBudget& b, Bytes room) {
  if (!b.cache || b.cache->bytes <= room) return;
  const Bytes kept = std::max(Bytes{}, room);
  b.cache = Term::given(kept)
                .named("cached blocks the card still holds")
                .noted("the rest is released when a request does not fit")
                .cite("PyTorch 2.5 CUDACachingAllocator: on a failed cudaMalloc, unused cached blocks are freed and "
                      "the allocation retried (c10/cuda/CUDACachingAllocator.cpp release_cached_blocks)")
                .within({Bytes{}, kept});
}

void account(const Scenario& s, Report& r) {
  const Setup u = resolve(s, r);
  std::vector<PhaseBudget> all = phases(u);
  std::stable_sort(all.begin(), all.end(), [](const PhaseBudget& a, const PhaseBudget& b) { return a.phase < b.phase; });
  // Sequence-parallel and FSDP runs talk through torch.distributed: one NCCL communicator.
  const Term context = engine_context_term(s.gpu.compute_capability, s.gpu.sm_count, s.gpu.rocm_arch, u.gpus > 1);
  for (auto& b : all) cap_cache(b, s.gpu.memory - context.bytes - b.allocated());
  const auto peak = std::max_element(all.begin(), all.end(),
                                     [](const PhaseBudget& a, const PhaseBudget& b) { return a.reserved() < b.reserved(); });
  write_components(u, *peak, context, r);
  write_metrics(*peak, context, r);
  if (r.explain) write_details(u, all, *peak, r);
}

}  // namespace vram::generation
