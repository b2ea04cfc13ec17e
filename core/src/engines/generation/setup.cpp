// Resolving a generation scenario against its pipeline: geometry defaults,
// what each runtime can do, each component's stored format and placement.
#include "setup.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram::generation {

namespace {

void check_workload(const Scenario& s, const Pipeline& p) {
  const bool video = s.workload == Workload::video;
  if (video != (p.modality == Modality::video))
    throw InputError("/workload", p.id + " is " + (p.modality == Modality::video ? "a video" : "an image") +
                                      " pipeline; use workload \"" + std::string(name_of(kModalities, p.modality)) +
                                      "\"");
}

/// FLUX.1 Kontext (diffusers v0.35 pipeline_flux_kontext.py FluxKontextPipeline.__call__):
/// the size asked sets only the aspect ratio; the output has max_area pixels at
/// that ratio, each side rounded and floored to the VAE × patch multiple.
void rescale_to_area(const Pipeline& p, Setup& u, Report& r) {
  if (p.max_area <= 0) return;
  const std::int64_t m = p.first(Role::vae)->config.spatial * p.first(Role::denoiser)->config.patch[1];
  const double aspect = static_cast<double>(u.g.width) / static_cast<double>(u.g.height);
  const auto side = [m](double area) { return std::llround(std::sqrt(area)) / m * m; };
  const std::int64_t w = side(static_cast<double>(p.max_area) * aspect);
  const std::int64_t h = side(static_cast<double>(p.max_area) / aspect);
  if (w < m || h < m)
    throw InputError("/generation/width", p.id + " rescales the size to " + std::to_string(p.max_area) +
                                              " pixels at its aspect ratio; " + std::to_string(u.g.width) + " × " +
                                              std::to_string(u.g.height) + " leaves a side below " + std::to_string(m));
  if (w == u.g.width && h == u.g.height) return;
  if (r.explain)
    r.warnings.push_back(p.id + " generates " + std::to_string(w) + " × " + std::to_string(h) + " for " +
                         std::to_string(u.g.width) + " × " + std::to_string(u.g.height) + " (max_area " +
                         std::to_string(p.max_area) + " pixels at the same aspect ratio)");
  u.g.width = w;
  u.g.height = h;
}

void resolve_geometry(const Pipeline& p, Setup& u, Report& r) {
  auto fill = [&](std::int64_t& v, std::int64_t native, const char* name) {
    if (v > 0) return;
    v = native;
    if (r.explain)
      r.defaults_used.push_back(std::string("generation.") + name + " = " + std::to_string(native) + " (" + p.id +
                                " native)");
  };
  fill(u.g.width, p.width, "width");
  fill(u.g.height, p.height, "height");
  if (p.modality == Modality::video) fill(u.g.frames, p.frames, "frames");
  rescale_to_area(p, u, r);
  u.geo = latent_geometry(p, u.g, u.g.width, u.g.height, u.g.frames);
}

/// What each runtime offers; anything else is refused with what is allowed.
/// Step-Video-T2V's VAE decodes the batch together in 17-frame chunks and has no tiled decode.
void check_stepvideo_options(const Setup& u) {
  const std::string why = u.p->id + "'s Video-VAE (stepvideo/vae/vae.py AutoencoderKL.decode) splits a video only into "
                                    "17-frame chunks and decodes the batch together; allowed: false";
  if (u.g.vae_tiling) throw InputError("/generation/vae_tiling", "has no tiled decode: " + why);
  if (u.g.vae_slicing) throw InputError("/generation/vae_slicing", "has no sliced decode: " + why);
}

void check_runtime_options(const Setup& u) {
  const GenerationSettings& g = u.g;
  if (u.p->runtime == Runtime::wan) {
    if (g.offload == GenOffload::sequential || g.offload == GenOffload::group)
      throw InputError("/generation/offload", "the Wan reference scripts offload whole models only "
                                              "(--offload_model); allowed: none, model");
    if (g.vae_tiling) throw InputError("/generation/vae_tiling", "the Wan reference scripts do not tile the VAE decode");
    if (g.vae_slicing) throw InputError("/generation/vae_slicing", "the Wan reference scripts decode one video at a time already");
    return;
  }
  const ComponentKind vae = u.p->first(Role::vae)->kind;
  if (vae == ComponentKind::vae_allegro && g.batch > 1 && !g.vae_slicing)
    throw InputError("/generation/vae_slicing", "is needed for batch " + std::to_string(g.batch) + " with " + u.p->id +
                                                    ": AutoencoderKLAllegro's tiled_decode decodes one video per call "
                                                    "(local_batch_size 1) and fails on a batch; allowed: true");
  if (vae == ComponentKind::vae_stepvideo) check_stepvideo_options(u);
  if (g.sequence_parallel > 1)
    throw InputError("/generation/sequence_parallel", "sequence parallelism is modelled for the Wan reference scripts "
                                                      "(--ulysses_size); " + u.p->id + " runs on one GPU: allowed 1");
  if (g.fsdp) throw InputError("/generation/fsdp", "FSDP of the denoiser is modelled for the Wan reference scripts (--dit_fsdp)");
  if (g.text_encoder == TextEncoderPlace::sharded)
    throw InputError("/generation/text_encoder", "sharding the text encoder is modelled for the Wan reference scripts "
                                                 "(--t5_fsdp); allowed here: gpu, cpu");
}

std::string component_names(const Pipeline& p) {
  std::string names;
  for (const auto& c : p.components) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

StoredFormat default_format(const Scenario& s, const Pipeline& p, const Component& c) {
  StoredFormat f;
  if (p.runtime == Runtime::diffusers && !s.weights.name.empty()) {
    f.format = s.weights;
  } else {
    const StoredDtype d = (p.runtime == Runtime::wan || c.dtype_given) ? c.dtype : p.dtype;
    f.format = native_format(std::string(name_of(kStoredDtypes, d)));
  }
  f.quantized = f.format.quantized();
  if (f.quantized && c.inventory.linear.empty()) {
    // A counted component (UNet, VAE, CLIP vision) has no layer list to quantize: it stays 16-bit.
    f.format = native_format(std::string(name_of(kStoredDtypes, p.dtype)));
    f.quantized = false;
  }
  f.keep_fp32 = f.format.linear.flat;  // bitsandbytes
  return f;
}

/// Applies one component_weights entry to its component.
void apply_override(const Pipeline& p, const std::string& name, const std::string& value, std::vector<Placed>& parts) {
  const std::string path = "/generation/component_weights/" + name;
  Placed* part = nullptr;
  for (auto& x : parts)
    if (x.c->name == name) part = &x;
  if (!part) throw InputError(path, p.id + " has no component \"" + name + "\"; its components: " + component_names(p));
  if (value == "none") {
    if (role_of(part->c->kind) == Role::denoiser) throw InputError(path, "the denoiser cannot be left out");
    part->loaded = false;
    return;
  }
  part->format.format = parse_weight_format(nlohmann::json(value), path, std::string(name_of(kStoredDtypes, p.dtype)));
  part->format.quantized = part->format.format.quantized();
  part->format.keep_fp32 = part->format.format.linear.flat;
  if (part->format.quantized && part->c->inventory.linear.empty())
    throw InputError(path, "\"" + name + "\" is counted, not listed layer by layer, so it cannot be quantized here; "
                                         "allowed: fp32, fp16, bf16, none");
}

std::optional<StoredDtype> plain_dtype(const WeightFormat& f) {
  if (f.quantized()) return std::nullopt;
  for (const auto& c : kStoredDtypes)
    if (c.name == f.linear.name) return c.value;
  return std::nullopt;
}

void place(const Scenario& s, Setup& u) {
  const Pipeline& p = *u.p;
  for (const auto& c : p.components) {
    Placed x;
    x.c = &c;
    x.format = default_format(s, p, c);
    const Role role = role_of(c.kind);
    if (role == Role::text_encoder) {
      x.on_gpu = u.g.text_encoder != TextEncoderPlace::cpu;
      x.shards = u.g.text_encoder == TextEncoderPlace::sharded ? u.gpus : 1;
    }
    if (role == Role::vae) x.on_gpu = u.g.vae == VaePlace::gpu;
    if (role == Role::denoiser && u.g.fsdp) x.shards = u.gpus;
    u.parts.push_back(x);
  }
  for (const auto& [name, value] : u.g.component_weights) apply_override(p, name, value, u.parts);
  for (auto& x : u.parts) x.plain = plain_dtype(x.format.format);
}

}  // namespace

namespace {

/// Tokens a language-model text encoder hands on: its sequence with the prompt template cropped.
std::int64_t language_model_tokens(const Setup& u) {
  std::int64_t t = 0;
  for (const auto* c : u.p->all(Role::text_encoder))
    if (c->kind == ComponentKind::llama_text) t = std::max(t, handed_tokens(c->config));
  return t;
}

}  // namespace

/// Text tokens in the joint sequence: FLUX, CogVideoX and Mochi take the T5 tokens;
/// SD3 the CLIP tokens (both CLIPs side by side in channels) followed by the T5 tokens.
std::int64_t text_tokens(const Setup& u) {
  const ComponentKind k = u.p->first(Role::denoiser)->kind;
  // The language model's tokens after the prompt template is cropped; CLIP gives only its pooled vector.
  if (k == ComponentKind::hunyuan_video || k == ComponentKind::qwen_image || k == ComponentKind::cogview4)
    return language_model_tokens(u);
  // HunyuanVideo-1.5 joins, padded and masked, the 729 image tokens (zeros for text-to-video), the ByT5 glyph tokens
  // and the language model's (diffusers @58eb52c pipeline_hunyuan_video1_5.py vision_num_semantic_tokens 729,
  // tokenizer_2_max_length 256; transformer_hunyuan_video15.py forward: torch.cat of image, text_2, text).
  if (k == ComponentKind::hunyuan_video15) {
    std::int64_t t5 = 0;
    for (const auto* c : u.p->all(Role::text_encoder))
      if (c->kind == ComponentKind::t5_encoder) t5 = std::max(t5, c->config.tokens);
    constexpr std::int64_t kImageTokens = 729;
    return kImageTokens + t5 + language_model_tokens(u);
  }
  // HiDream: T5's tokens and the Llama's, then each block's own Llama layer projected beside them (diffusers @58eb52c
  // transformer_hidream_image.py forward: initial_encoder_hidden_states + cur_llama31_encoder_hidden_states).
  if (k == ComponentKind::hidream) {
    std::int64_t t5 = 0;
    for (const auto* c : u.p->all(Role::text_encoder))
      if (c->kind == ComponentKind::t5_encoder) t5 = std::max(t5, c->config.tokens);
    return t5 + 2 * language_model_tokens(u);
  }
  if (k != ComponentKind::flux && k != ComponentKind::mmdit && k != ComponentKind::cogvideox && k != ComponentKind::mochi_dit)
    return 0;
  std::int64_t t5 = 0, clip = 0;
  for (const auto* c : u.p->all(Role::text_encoder))
    (c->kind == ComponentKind::t5_encoder ? t5 : clip) = std::max(c->kind == ComponentKind::t5_encoder ? t5 : clip,
                                                                   c->config.tokens);
  return k == ComponentKind::mmdit ? t5 + clip : t5;
}

constexpr std::int64_t kStepClipTokens = 77, kStepLlmTokens = 320;

/// Text tokens a cross-attention denoiser attends to: a UNet's CLIP tokens; the
/// T5 / umT5 tokens of PixArt, Allegro, LTX-Video and Wan.
std::int64_t cross_tokens(const Setup& u) {
  const ComponentKind k = u.p->first(Role::denoiser)->kind;
  if (k == ComponentKind::sana) return language_model_tokens(u);  // Gemma-2's states of max_sequence_length tokens
  // Step-Video-T2V: Hunyuan-CLIP's 77 tokens joined before Step-LLM's 320, padded (github stepfun-ai/Step-Video-T2V
  // @675e08c api/call_remote_server.py: HunyuanClip max_length 77, STEP1TextEncoder max_length 320, y_mask padded
  // by the CLIP length; model.py prepare_attn_mask keeps up to the longest prompt's: the padded length at most).
  if (k == ComponentKind::stepvideo_dit) return kStepClipTokens + kStepLlmTokens;
  const bool unet = k == ComponentKind::unet;
  if (!unet && k != ComponentKind::pixart_dit && k != ComponentKind::allegro && k != ComponentKind::ltx_video &&
      k != ComponentKind::wan_dit)
    return 0;
  std::int64_t t = 0;
  for (const auto* c : u.p->all(Role::text_encoder))
    if (c->kind == (unet ? ComponentKind::clip_text : ComponentKind::t5_encoder)) t = std::max(t, c->config.tokens);
  return t;
}

Setup resolve(const Scenario& s, Report& r) {
  Setup u;
  u.p = s.pipeline.get();
  u.g = *s.generation();
  u.gpus = s.gpu_count;
  check_workload(s, *u.p);
  resolve_geometry(*u.p, u, r);
  check_runtime_options(u);
  place(s, u);
  if (r.explain && s.weights.quantized())
    for (const auto& x : u.parts)
      if (x.c->inventory.linear.empty() && x.on_gpu && x.loaded)
        r.warnings.push_back("weights = " + s.weights.name + " is not applied to " + x.c->name +
                             " (counted, not listed layer by layer): kept in " +
                             std::string(name_of(kStoredDtypes, u.p->dtype)));
  if (r.explain && !u.g.vae_tiling && u.p->first(Role::vae)->kind == ComponentKind::vae_allegro)
    r.warnings.push_back(u.p->id + "'s VAE decodes only in tiles (AutoencoderKLAllegro raises NotImplementedError "
                         "otherwise): estimated tiled, as the pipeline's example runs it (pipe.vae.enable_tiling())");
  if (r.explain && u.p->runtime == Runtime::wan && !s.weights.name.empty())
    r.warnings.push_back("weights = " + s.weights.name + " is the compute dtype (param_dtype) of the Wan scripts; "
                         "components keep their checkpoint dtype (set generation.component_weights to convert one)");
  // diffusers computes in torch_dtype; the Wan scripts under autocast(param_dtype = bf16).
  u.elem = (u.p->runtime == Runtime::diffusers && !s.weights.name.empty() && s.weights.linear.elem_bits == 32) ? 4 : 2;
  const bool cfg = u.g.cfg.value_or(u.p->cfg != CfgMode::none);
  u.cfg_batch = (cfg && u.p->cfg == CfgMode::batched) ? 2 : 1;
  return u;
}

}  // namespace vram::generation
