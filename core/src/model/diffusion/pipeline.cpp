// Reading models/pipelines/*.json into Pipeline values.
#include <nlohmann/json.hpp>

#include "hf_config.hpp"
#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_writer.hpp"

namespace vram::generation {

using nlohmann::json;

Role role_of(ComponentKind k) {
  switch (k) {
    case ComponentKind::clip_text:
    case ComponentKind::t5_encoder:
    case ComponentKind::llama_text: return Role::text_encoder;
    case ComponentKind::clip_vision: return Role::image_encoder;
    case ComponentKind::flux:
    case ComponentKind::mmdit:
    case ComponentKind::unet:
    case ComponentKind::wan_dit:
    case ComponentKind::pixart_dit:
    case ComponentKind::cogvideox:
    case ComponentKind::ltx_video:
    case ComponentKind::hunyuan_video:
    case ComponentKind::mochi_dit:
    case ComponentKind::qwen_image:
    case ComponentKind::sana:
    case ComponentKind::allegro:
    case ComponentKind::cogview4:
    case ComponentKind::hidream:
    case ComponentKind::hunyuan_video15:
    case ComponentKind::stepvideo_dit: return Role::denoiser;
    case ComponentKind::vae_2d:
    case ComponentKind::vae_3d:
    case ComponentKind::vae_cogvideox:
    case ComponentKind::vae_ltx:
    case ComponentKind::vae_hunyuan:
    case ComponentKind::vae_mochi:
    case ComponentKind::vae_dc:
    case ComponentKind::vae_allegro:
    case ComponentKind::vae_hunyuan15:
    case ComponentKind::vae_stepvideo: return Role::vae;
  }
  return Role::denoiser;
}

std::int64_t dtype_bytes(StoredDtype d) { return d == StoredDtype::fp32 ? 4 : 2; }

// diffusers @58eb52c pipeline_hunyuan_video_image2video.py _get_llama_prompt_embeds: the <image> token becomes
// image_emb_len positions; the states kept are those past crop_start (shifted by the image) without the 4
// assistant-header ones, and image_embeds[:, ::image_embed_interleave].
std::int64_t encoder_positions(const ComponentConfig& c) {
  return c.image_tokens > 0 ? checked::add(c.tokens, c.image_tokens - 1) : c.tokens;
}

std::int64_t handed_tokens(const ComponentConfig& c) {
  const std::int64_t prompt = c.tokens - c.template_tokens - c.assistant_tokens;
  return c.image_tokens > 0 ? prompt + checked::ceil_div(c.image_tokens, c.image_interleave) : prompt;
}

const Component* Pipeline::find(std::string_view name) const {
  for (const auto& c : components)
    if (c.name == name) return &c;
  return nullptr;
}

const Component* Pipeline::first(Role r) const {
  for (const auto& c : components)
    if (role_of(c.kind) == r) return &c;
  return nullptr;
}

std::vector<const Component*> Pipeline::all(Role r) const {
  std::vector<const Component*> out;
  for (const auto& c : components)
    if (role_of(c.kind) == r) out.push_back(&c);
  return out;
}

namespace {

std::vector<std::int64_t> int_list(const json& j, std::string_view key, const std::string& path) {
  std::vector<std::int64_t> out;
  const auto it = j.find(key);
  if (it == j.end()) return out;
  const std::string p = io::join_path(path, key);
  if (!it->is_array()) throw InputError(p, "must be a list of integers");
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0)
      throw InputError(p + "/" + std::to_string(i), "must be a non-negative integer");
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

std::int64_t field(const json& j, std::string_view key, const std::string& path) {
  return io::optional_int(j, key, path, {0, io::kAbsurd}).value_or(0);
}

void read_transformer_fields(const json& j, const std::string& p, ComponentConfig& c) {
  c.hidden = field(j, "hidden", p);
  c.ffn = field(j, "ffn", p);
  c.layers = field(j, "layers", p);
  c.heads = field(j, "heads", p);
  c.head_dim = field(j, "head_dim", p);
  c.vocab = field(j, "vocab", p);
  c.positions = field(j, "positions", p);
  c.projection = field(j, "projection", p);
  c.per_layer_bias = io::optional_bool(j, "per_layer_bias", p).value_or(false);
  c.single_layers = field(j, "single_layers", p);
  c.in_channels = field(j, "in_channels", p);
  c.out_channels = field(j, "out_channels", p);
  c.text_dim = field(j, "text_dim", p);
  c.pooled_dim = field(j, "pooled_dim", p);
  c.freq_dim = field(j, "freq_dim", p);
  c.guidance_embed = io::optional_bool(j, "guidance_embed", p).value_or(false);
  c.image_cond = io::optional_bool(j, "image_cond", p).value_or(false);
  c.per_token_time = io::optional_bool(j, "per_token_time", p).value_or(false);
  c.reference_per_token_time = io::optional_bool(j, "reference_per_token_time", p).value_or(false);
  c.image_embed_dim = field(j, "image_embed_dim", p);
  c.tokens = field(j, "tokens", p);
  c.template_tokens = field(j, "template_tokens", p);
  c.conditional_generation = io::optional_bool(j, "conditional_generation", p).value_or(false);
  c.output_hidden_states = io::optional_bool(j, "output_hidden_states", p).value_or(true);
  if (c.template_tokens >= c.tokens && c.template_tokens > 0)
    throw InputError(p + "/template_tokens", "must be below tokens (the prompt template is cropped from them)");
  c.image_tokens = field(j, "image_tokens", p);
  c.image_interleave = io::optional_int(j, "image_interleave", p, {1, 1024}).value_or(1);
  c.assistant_tokens = field(j, "assistant_tokens", p);
  if (c.assistant_tokens > 0 && c.template_tokens + c.assistant_tokens >= c.tokens)
    throw InputError(p + "/assistant_tokens", "with template_tokens must stay below tokens (both are cropped from them)");
  c.cross_dim = field(j, "cross_dim", p);
  c.qk_norm = io::optional_enum(j, "qk_norm", p, kQkNorms).value_or(QkNorm::none);
  c.dual_attention_layers = int_list(j, "dual_attention_layers", p);
  c.pos_embed_max_size = io::optional_int(j, "pos_embed_max_size", p, {0, 4096}).value_or(0);
  c.sample_size = io::optional_int(j, "sample_size", p, {0, 4096}).value_or(0);
  c.use_additional_conditions = io::optional_bool(j, "use_additional_conditions", p).value_or(false);
  const auto patch = int_list(j, "patch", p);
  if (!patch.empty()) {
    if (patch.size() != 3) throw InputError(p + "/patch", "must be [t, h, w]");
    c.patch = {patch[0], patch[1], patch[2]};
  }
}

void read_vae_fields(const json& j, const std::string& p, ComponentConfig& c) {
  c.block_channels = int_list(j, "block_channels", p);
  c.attention_layers = int_list(j, "attention_layers", p);
  c.latent_channels = field(j, "latent_channels", p);
  c.spatial = field(j, "spatial", p);
  c.temporal = field(j, "temporal", p);
  c.layers_per_block = field(j, "layers_per_block", p);
  c.force_upcast = io::optional_bool(j, "force_upcast", p).value_or(false);
  c.tile_sample_size = field(j, "tile_sample_size", p);
  c.base_dim = field(j, "base_dim", p);
  c.dim_mult = int_list(j, "dim_mult", p);
  if (const auto it = j.find("temporal_upsample"); it != j.end() && it->is_array())
    for (const auto& v : *it) c.temporal_upsample.push_back(v.is_boolean() && v.get<bool>());
  c.halve_after_upsample = io::optional_bool(j, "halve_after_upsample", p).value_or(false);
  c.out_patch = io::optional_int(j, "out_patch", p, {1, 8}).value_or(1);
}

/// MMDiT-X: each listed block exists (an index below `layers`) and is listed once.
void check_dual_layers(const ComponentConfig& k, const std::string& cp) {
  const std::string p = cp + "/dual_attention_layers";
  for (std::size_t i = 0; i < k.dual_attention_layers.size(); ++i) {
    const std::int64_t b = k.dual_attention_layers[i];
    if (b >= k.layers)
      throw InputError(p + "/" + std::to_string(i), "block " + std::to_string(b) + " is beyond the " +
                                                        std::to_string(k.layers) + " layers; allowed: 0 to " +
                                                        std::to_string(k.layers - 1));
    for (std::size_t j = 0; j < i; ++j)
      if (k.dual_attention_layers[j] == b)
        throw InputError(p + "/" + std::to_string(i), "block " + std::to_string(b) + " is listed twice");
  }
}

/// Bounds every field the budget terms divide by or shift with, so a pasted
/// pipeline cannot reach a division by zero or an oversized shift.
void check_component(const Component& c, const std::string& p) {
  const ComponentConfig& k = c.config;
  const std::string cp = p + "/config";
  auto need = [&](bool ok, const char* field, const char* what) {
    if (!ok) throw InputError(cp + "/" + field, std::string("is required for a ") + std::string(name_of(kComponentKinds, c.kind)) +
                                                    " component: " + what);
  };
  for (auto v : k.patch) need(v >= 1 && v <= 16, "patch", "[t, h, w], each 1 to 16");
  switch (c.kind) {
    case ComponentKind::unet:
      need(!k.block_channels.empty() && k.block_channels.size() <= 8, "block_channels", "1 to 8 levels");
      need(k.heads > 0 || k.head_dim > 0, "head_dim", "heads or head_dim");
      need(k.layers_per_block >= 1, "layers_per_block", "at least 1");
      break;
    case ComponentKind::vae_ltx:
      need(k.spatial >= 1 && k.spatial <= 64 && k.temporal >= 1, "spatial", "the spatial compression, 1 to 64");
      need(!k.decoder_channels.empty() && k.decoder_layers.size() == k.decoder_channels.size() + 1, "decoder_layers",
           "one resnet count per decoder level and one for the mid block");
      break;
    case ComponentKind::vae_2d:
    case ComponentKind::vae_3d:
    case ComponentKind::vae_cogvideox:
    case ComponentKind::vae_hunyuan:
    case ComponentKind::vae_mochi:
    case ComponentKind::vae_dc:
    case ComponentKind::vae_allegro:
    case ComponentKind::vae_hunyuan15:
    case ComponentKind::vae_stepvideo:
      need(k.spatial >= 1 && k.spatial <= 64, "spatial", "the spatial compression, 1 to 64");
      need(k.latent_channels >= 1, "latent_channels", "at least 1");
      need(k.layers_per_block >= 1, "layers_per_block", "at least 1");
      if (c.kind != ComponentKind::vae_3d)
        need(!k.block_channels.empty() && k.block_channels.size() <= 8, "block_channels", "1 to 8 levels");
      else
        need(k.base_dim >= 1 && !k.dim_mult.empty() && k.dim_mult.size() <= 8 && k.temporal >= 1, "dim_mult",
             "base_dim, 1 to 8 dim_mult levels and temporal");
      break;
    case ComponentKind::mmdit:
      need(k.layers >= 1, "layers", "at least 1 joint block");
      check_dual_layers(k, cp);
      break;
    case ComponentKind::pixart_dit:
      need(k.sample_size >= k.patch[1] && k.sample_size % k.patch[1] == 0, "sample_size",
           "the latent side the positional table is built for, a multiple of the patch");
      need(k.hidden % 3 == 0 || !k.use_additional_conditions, "hidden",
           "a multiple of 3 with use_additional_conditions (size embedders of hidden / 3)");
      break;
    default: break;
  }
  if (c.kind == ComponentKind::mmdit) return;
  if (!k.dual_attention_layers.empty())
    throw InputError(cp + "/dual_attention_layers", "is read for mmdit components only (SD3.5 MMDiT-X)");
  if (k.qk_norm != QkNorm::none) throw InputError(cp + "/qk_norm", "is read for mmdit components only (SD3.5)");
}

Component read_component(const json& j, const std::string& p) {
  io::require_object(j, p, "a pipeline component");
  Component c;
  c.name = io::optional_string(j, "name", p).value_or("");
  if (c.name.empty()) throw InputError(p + "/name", "is required: the pipeline's component name");
  const auto kind = io::optional_enum(j, "kind", p, kComponentKinds);
  if (!kind) throw InputError(p + "/kind", "is required");
  c.kind = *kind;
  c.dtype = io::optional_enum(j, "dtype", p, kStoredDtypes).value_or(StoredDtype::bf16);
  c.dtype_given = j.contains("dtype");
  c.params = io::require_int(j, "params", p);
  c.source = io::optional_string(j, "source", p).value_or("");
  if (c.source.empty()) throw InputError(p + "/source", "is required: where the config and count come from");
  const json cfg = j.value("config", json::object());
  read_transformer_fields(cfg, p + "/config", c.config);
  read_vae_fields(cfg, p + "/config", c.config);
  // Components of these kinds are read from their repository's config.json, verbatim.
  const bool verbatim_only = c.kind == ComponentKind::cogvideox || c.kind == ComponentKind::vae_cogvideox ||
                             c.kind == ComponentKind::ltx_video || c.kind == ComponentKind::vae_ltx ||
                             c.kind == ComponentKind::hunyuan_video || c.kind == ComponentKind::vae_hunyuan ||
                             c.kind == ComponentKind::llama_text || c.kind == ComponentKind::mochi_dit ||
                             c.kind == ComponentKind::vae_mochi || c.kind == ComponentKind::sana ||
                             c.kind == ComponentKind::vae_dc || c.kind == ComponentKind::allegro ||
                             c.kind == ComponentKind::vae_allegro || c.kind == ComponentKind::cogview4 ||
                             c.kind == ComponentKind::hidream || c.kind == ComponentKind::hunyuan_video15 ||
                             c.kind == ComponentKind::vae_hunyuan15 || c.kind == ComponentKind::stepvideo_dit ||
                             c.kind == ComponentKind::vae_stepvideo;
  if (const auto hf = j.find("hf_config"); hf != j.end())
    hf::read_config(c.kind, *hf, p + "/hf_config", c.config);
  else if (verbatim_only)
    throw InputError(p + "/hf_config", "is required for a " + std::string(name_of(kComponentKinds, c.kind)) +
                                           " component: the repository's config.json, verbatim");
  check_component(c, p);
  c.inventory = inventory_of(c, p);
  return c;
}

void read_geometry(const json& j, const std::string& path, Pipeline& p) {
  const json n = j.value("native", json::object());
  const std::string np = path + "/native";
  p.width = io::require_int(n, "width", np, {8, 16384});
  p.height = io::require_int(n, "height", np, {8, 16384});
  if (p.modality == Modality::video) {
    p.frames = io::require_int(n, "frames", np, {1, 10000});
    p.max_frames = io::require_int(n, "max_frames", np, {1, 10000});
  }
}

}  // namespace

Pipeline parse_pipeline_header(const json& j, const std::string& path) {
  io::require_object(j, path, "a pipeline");
  Pipeline p;
  p.id = io::optional_string(j, "id", path).value_or("");
  if (p.id.empty()) throw InputError(path + "/id", "is required: the Hugging Face repository id");
  if (const auto a = j.find("aliases"); a != j.end() && a->is_array())
    for (const auto& v : *a)
      if (v.is_string()) p.aliases.push_back(v.get<std::string>());
  p.revision = io::optional_string(j, "revision", path).value_or("");
  p.source = io::optional_string(j, "source", path).value_or("");
  p.modality = io::optional_enum(j, "modality", path, kModalities).value_or(Modality::image);
  p.runtime = io::optional_enum(j, "runtime", path, kRuntimes).value_or(Runtime::diffusers);
  p.cfg = io::optional_enum(j, "cfg", path, kCfgModes).value_or(CfgMode::none);
  p.dtype = io::optional_enum(j, "dtype", path, kStoredDtypes).value_or(StoredDtype::bf16);
  read_geometry(j, path, p);
  p.reference_images = io::optional_int(j, "reference_images", path, {0, 4}).value_or(0);
  p.max_area = io::optional_int(j, "max_area", path, {0, 16384LL * 16384}).value_or(0);
  p.init_on_cpu = io::optional_bool(j, "init_on_cpu", path).value_or(false);
  return p;
}

void read_pipeline_components(const json& j, const std::string& path, Pipeline& p) {
  const auto list = j.find("components");
  if (list == j.end() || !list->is_array() || list->empty())
    throw InputError(path + "/components", "is required: a list of components");
  for (std::size_t i = 0; i < list->size(); ++i)
    p.components.push_back(read_component((*list)[i], path + "/components/" + std::to_string(i)));
  if (!p.first(Role::denoiser)) throw InputError(path + "/components", "needs a denoiser");
  if (!p.first(Role::vae)) throw InputError(path + "/components", "needs a VAE");
}

Pipeline parse_pipeline(const json& j, const std::string& path) {
  Pipeline p = parse_pipeline_header(j, path);
  read_pipeline_components(j, path, p);
  return p;
}

void write_pipelines_summary(io::JsonWriter& w, const Catalog& catalog, bool with_components) {
  const auto header = [&w](const Pipeline& p) {
    w.begin_object().key("id").value(p.id).key("aliases").begin_array();
    for (const auto& a : p.aliases) w.value(a);
    w.end_array()
        .key("modality").value(name_of(kModalities, p.modality))
        .key("runtime").value(name_of(kRuntimes, p.runtime))
        .key("width").value(p.width)
        .key("height").value(p.height)
        .key("frames").value(p.frames);
  };
  w.begin_array();
  if (!with_components) {
    for (const Pipeline* p : catalog.pipeline_headers()) {
      header(*p);
      w.end_object();
    }
    w.end_array();
    return;
  }
  for (const auto& p : catalog.pipelines()) {
    header(*p);
    w.key("components").begin_array();
    for (const auto& c : p->components) {
      w.begin_object()
          .key("name").value(c.name)
          .key("kind").value(name_of(kComponentKinds, c.kind))
          .key("params").value(c.params)
          .end_object();
    }
    w.end_array().end_object();
  }
  w.end_array();
}

}  // namespace vram::generation
