// Image and video pipelines as lists of components (models/pipelines/*.json):
// text encoders, an optional image encoder, the denoiser and the VAE, each with
// the configuration facts its memory depends on and a cited source.
//
// Kinds are enums read through Choice tables; the inventory of each kind (its
// linear layers and the rest) is computed from the configuration, so the
// parameter count a pipeline file states is checked against its config.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vram/workloads.hpp"

namespace vram {
struct Architecture;
}

namespace vram::generation {

enum class ComponentKind : std::uint8_t {
  clip_text,    ///< CLIP / OpenCLIP text transformer (CLIPTextModel[WithProjection])
  t5_encoder,   ///< T5 v1.1 / umT5 encoder stack (T5EncoderModel)
  clip_vision,  ///< CLIP vision tower (image conditioning); counted, not inventoried
  flux,         ///< FLUX.1 MMDiT: double-stream and single-stream blocks
  mmdit,        ///< SD3 / SD3.5 MMDiT (SD3Transformer2DModel): joint blocks, the last context-pre-only
  unet,         ///< UNet2DConditionModel (SD, SDXL); counted, not inventoried
  wan_dit,      ///< Wan 2.x DiT (WanModel)
  pixart_dit,   ///< PixArtTransformer2DModel: adaLN-single blocks, self-attention and cross-attention to T5 tokens
  vae_2d,       ///< AutoencoderKL (2D)
  vae_3d,       ///< causal 3D video VAE (Wan VAE)
  cogvideox,      ///< CogVideoX DiT (CogVideoXTransformer3DModel): expert AdaLN over joint text + video tokens
  vae_cogvideox,  ///< CogVideoX causal 3D VAE (AutoencoderKLCogVideoX)
  ltx_video,      ///< LTX-Video DiT (LTXVideoTransformer3DModel): self-attention with RoPE, cross-attention to T5
  vae_ltx,        ///< LTX-Video VAE (AutoencoderKLLTXVideo): patchified input, 32× spatial, 8× temporal
  hunyuan_video,  ///< HunyuanVideoTransformer3DModel: token refiner, dual-stream then single-stream blocks
  vae_hunyuan,    ///< AutoencoderKLHunyuanVideo: causal 3D VAE, mid-block attention, decoded in frame chunks
  llama_text,     ///< a decoder-only language model used as a text encoder (AutoModel: no lm_head)
  mochi_dit,      ///< MochiTransformer3DModel: asymmetric joint attention (video 3072 wide, text 1536), SwiGLU
  vae_mochi,      ///< AutoencoderKLMochi: causal 3D VAE, 8× spatial, 6× temporal, linear upsampling blocks
  qwen_image,     ///< QwenImageTransformer2DModel: double-stream MMDiT blocks only, RMSNorm on the text input
  sana,           ///< SanaTransformer2DModel: linear self-attention, cross-attention to the text, GLUMBConv feed-forward
  vae_dc,         ///< AutoencoderDC (deep compression, 32×): ResBlock and EfficientViT levels, no temporal axis
  allegro,        ///< AllegroTransformer3DModel: PixArt-style blocks over all video tokens, 3D RoPE, cross-attention to T5
  vae_allegro,    ///< AutoencoderKLAllegro: 2D resnets with temporal convs, decoded only in overlapping 3D tiles
  cogview4,       ///< CogView4Transformer2DModel: joint attention over text + image tokens, 2D RoPE on the image part
  hidream,        ///< HiDreamImageTransformer2DModel: double- and single-stream blocks, MoE feed-forward, per-block Llama tokens
  hunyuan_video15,  ///< HunyuanVideo15Transformer3DModel: token refiner, ByT5 and image projections, dual-stream blocks only
  vae_hunyuan15,    ///< AutoencoderKLHunyuanVideo15: causal 3D VAE, 16× spatial, 4× temporal, decoded whole (or in tiles)
  stepvideo_dit,    ///< Step-Video-T2V StepVideoModel: adaLN-single blocks, 3D-RoPE self-attention, cross-attention to the captions
  vae_stepvideo,    ///< Step-Video-T2V Video-VAE (AutoencoderKL version 2): 16× spatial, 8× temporal, decoded in 17-frame chunks
};
inline constexpr std::array<Choice<ComponentKind>, 30> kComponentKinds{{{ComponentKind::clip_text, "clip_text"},
                                                                      {ComponentKind::t5_encoder, "t5_encoder"},
                                                                      {ComponentKind::clip_vision, "clip_vision"},
                                                                      {ComponentKind::flux, "flux"},
                                                                      {ComponentKind::mmdit, "mmdit"},
                                                                      {ComponentKind::unet, "unet"},
                                                                      {ComponentKind::wan_dit, "wan_dit"},
                                                                      {ComponentKind::pixart_dit, "pixart_dit"},
                                                                      {ComponentKind::vae_2d, "vae_2d"},
                                                                      {ComponentKind::vae_3d, "vae_3d"},
                                                                      {ComponentKind::cogvideox, "cogvideox"},
                                                                      {ComponentKind::vae_cogvideox, "vae_cogvideox"},
                                                                      {ComponentKind::ltx_video, "ltx_video"},
                                                                      {ComponentKind::vae_ltx, "vae_ltx"},
                                                                      {ComponentKind::hunyuan_video, "hunyuan_video"},
                                                                      {ComponentKind::vae_hunyuan, "vae_hunyuan"},
                                                                      {ComponentKind::llama_text, "llama_text"},
                                                                      {ComponentKind::mochi_dit, "mochi_dit"},
                                                                      {ComponentKind::vae_mochi, "vae_mochi"},
                                                                      {ComponentKind::qwen_image, "qwen_image"},
                                                                      {ComponentKind::sana, "sana"},
                                                                      {ComponentKind::vae_dc, "vae_dc"},
                                                                      {ComponentKind::allegro, "allegro"},
                                                                      {ComponentKind::vae_allegro, "vae_allegro"},
                                                                      {ComponentKind::cogview4, "cogview4"},
                                                                      {ComponentKind::hidream, "hidream"},
                                                                      {ComponentKind::hunyuan_video15, "hunyuan_video15"},
                                                                      {ComponentKind::vae_hunyuan15, "vae_hunyuan15"},
                                                                      {ComponentKind::stepvideo_dit, "stepvideo_dit"},
                                                                      {ComponentKind::vae_stepvideo, "vae_stepvideo"}}};

enum class Role : std::uint8_t { text_encoder, image_encoder, denoiser, vae };
Role role_of(ComponentKind k);

/// Which code runs the pipeline: diffusers' pipelines (torch_dtype casts every
/// component, accelerate hooks offload), or a model's reference scripts (Wan's
/// generate.py: components keep their checkpoint dtype and compute under autocast).
enum class Runtime : std::uint8_t { diffusers, wan };
inline constexpr std::array<Choice<Runtime>, 2> kRuntimes{{{Runtime::diffusers, "diffusers"}, {Runtime::wan, "wan"}}};

/// How classifier-free guidance runs the denoiser: not at all (guidance
/// distilled), as a doubled batch (diffusers' SD/SDXL), or as two passes (Wan).
enum class CfgMode : std::uint8_t { none, batched, separate };
inline constexpr std::array<Choice<CfgMode>, 3> kCfgModes{
    {{CfgMode::none, "none"}, {CfgMode::batched, "batched"}, {CfgMode::separate, "separate"}}};

enum class Modality : std::uint8_t { image, video };
inline constexpr std::array<Choice<Modality>, 2> kModalities{{{Modality::image, "image"}, {Modality::video, "video"}}};

/// Plain element types a component may be stored in by default.
enum class StoredDtype : std::uint8_t { fp32, bf16, fp16 };
inline constexpr std::array<Choice<StoredDtype>, 3> kStoredDtypes{
    {{StoredDtype::fp32, "fp32"}, {StoredDtype::bf16, "bf16"}, {StoredDtype::fp16, "fp16"}}};
std::int64_t dtype_bytes(StoredDtype d);

/// Normalisation of queries and keys inside attention (diffusers Attention `qk_norm`).
enum class QkNorm : std::uint8_t { none, rms_norm };
inline constexpr std::array<Choice<QkNorm>, 2> kQkNorms{{{QkNorm::none, "none"}, {QkNorm::rms_norm, "rms_norm"}}};

/// One group of identical nn.Linear layers: `count` × [out × in] (+ bias).
struct LinearGroup {
  std::int64_t in = 0;
  std::int64_t out = 0;
  std::int64_t count = 0;
  bool bias = true;
  /// Never quantized: transformers' T5 `_keep_in_fp32_modules = ["wo"]`.
  bool keep = false;
};

/// A component's parameters: its linear layers (what quantizers convert) and
/// everything else (embeddings, norms, convolutions, biases, modulation tables).
struct Inventory {
  std::vector<LinearGroup> linear;
  std::int64_t other = 0;  ///< non-linear parameters, biases included
  std::int64_t buffers = 0;   ///< non-parameter tensors the module holds on the GPU (positional tables)
  bool buffers_fp32 = false;  ///< a non-persistent buffer: built in fp32, never cast by from_pretrained(torch_dtype)
  std::int64_t params() const;
  std::int64_t linear_weights() const;      ///< quantizable linear weights (keep excluded)
  std::int64_t kept_linear_weights() const; ///< linear weights of `keep` groups
};

/// Configuration facts of one component; a field not used by its kind is 0.
struct ComponentConfig {
  // transformers (text encoders, DiTs)
  std::int64_t hidden = 0, ffn = 0, layers = 0, heads = 0, head_dim = 0, vocab = 0, positions = 0;
  std::int64_t projection = 0;       ///< CLIP text_projection width (0: none)
  bool per_layer_bias = false;       ///< umT5: a relative-position bias in every layer
  std::int64_t single_layers = 0;    ///< FLUX single-stream blocks (layers = double-stream)
  std::int64_t in_channels = 0, out_channels = 0;
  std::int64_t text_dim = 0, pooled_dim = 0, freq_dim = 0;
  bool guidance_embed = false;       ///< FLUX.1-dev guidance embedder
  bool image_cond = false;           ///< Wan I2V: image cross-attention (k_img, v_img, img_emb)
  bool per_token_time = false;       ///< Wan 2.2 TI2V: a timestep per token (modulation per token)
  /// Wan 2.2's reference WanModel.forward expands a one-value timestep to every token (the A14B
  /// experts there); diffusers' WanTransformer3DModel keeps it one per sample.
  bool reference_per_token_time = false;
  std::int64_t image_embed_dim = 0;  ///< Wan I2V img_emb input width (CLIP ViT-H: 1280); HunyuanVideo-1.5 image_embed_dim
  std::int64_t glyph_dim = 0;        ///< HunyuanVideo-1.5: the ByT5 glyph encoder's width (text_embed_2_dim)
  std::array<std::int64_t, 3> patch{1, 1, 1};  ///< t, h, w
  QkNorm qk_norm = QkNorm::none;     ///< SD3.5: RMSNorm on q and k of every attention
  std::vector<std::int64_t> dual_attention_layers;  ///< SD3.5 MMDiT-X: blocks with a second image self-attention
  std::int64_t pos_embed_max_size = 0;  ///< SD3: side of the stored square positional table (in patches)
  std::int64_t sample_size = 0;         ///< PixArt: latent side its positional table is built for
  bool use_additional_conditions = false;  ///< PixArt-alpha: resolution and aspect-ratio embedders
  std::int64_t tokens = 0;           ///< text encoder: sequence length the pipeline pads to
  // UNet
  std::vector<std::int64_t> block_channels;  ///< UNet block_out_channels / 2D VAE block_out_channels
  std::vector<std::int64_t> attention_layers;///< UNet transformer_layers_per_block (0: no attention at that level)
  std::int64_t cross_dim = 0;
  // VAE
  std::int64_t latent_channels = 0, spatial = 0, temporal = 0, layers_per_block = 0;
  bool force_upcast = false;         ///< the pipeline decodes in fp32 when the VAE is fp16
  std::int64_t tile_sample_size = 0; ///< diffusers tiling: tile edge in pixels
  std::int64_t base_dim = 0;         ///< 3D VAE decoder base width
  std::vector<std::int64_t> dim_mult;
  std::vector<bool> temporal_upsample;  ///< per decoder level, from low to high resolution
  bool halve_after_upsample = false;    ///< Wan 2.1 Resample halves channels after upsampling
  std::int64_t out_patch = 1;           ///< Wan 2.2 VAE: output unpatchified by this factor
  // CogVideoX (read from the repository's own config.json: `hf_config`)
  std::int64_t time_embed_dim = 0, ofs_embed_dim = 0;
  bool rotary = false;             ///< use_rotary_positional_embeddings (else a sin-cos position table)
  bool learned_positions = false;  ///< use_learned_positional_embeddings: the position table is stored
  bool patch_bias = true, attention_bias = true, norm_affine = true;
  /// Transformer: the latent sample its position table is built for; VAE: the pixel sample (tiles are half of it).
  std::int64_t sample_frames = 0, sample_height = 0, sample_width = 0;
  // LTX-Video VAE (hf_config): the decoder's own widths, resnets per level (mid block first) and scalings.
  std::vector<std::int64_t> decoder_channels, encoder_layers, decoder_layers;
  std::vector<bool> encoder_scaling, decoder_scaling;
  std::int64_t vae_patch = 1;  ///< pixels per side folded into channels before the encoder (LTX: 4)
  // HunyuanVideo (hf_config)
  std::int64_t refiner_layers = 0;   ///< token refiner blocks over the text tokens
  std::int64_t template_tokens = 0;  ///< text encoder: prompt-template tokens cropped after encoding
  /// llama_text of an image-to-video pipeline (HunyuanVideo-I2V's LLaVA): the positions the prompt's one image
  /// placeholder expands to, every how-many-th of their states is handed on, and the assistant-header states
  /// cropped after the prompt.
  std::int64_t image_tokens = 0, image_interleave = 1, assistant_tokens = 0;
  bool mid_attention = false;        ///< VAE: self-attention in the mid block
  /// llama_text: the language model read by the core's config.json reader.
  std::shared_ptr<const Architecture> language_model;
  /// llama_text: the whole *ForConditionalGeneration model is loaded with its lm_head (Qwen-Image's
  /// Qwen2_5_VLForConditionalGeneration), not the bare AutoModel; a vision tower is counted either way.
  bool conditional_generation = false;
  /// llama_text: the pipeline asks for every layer's hidden state (output_hidden_states=True), or reads
  /// only the last one (Sana's Gemma-2).
  bool output_hidden_states = true;
  // Mochi VAE (hf_config): per level (low resolution last) its time and space factors; attention per encoder level.
  std::vector<std::int64_t> time_factors, space_factors;
  std::vector<bool> attention_levels;
  // Sana (hf_config): cross-attention heads and width; AutoencoderDC: EfficientViT levels (else ResBlock), the
  // multiscale kernels of their attention, interpolating upsamples and strided-conv downsamples.
  std::int64_t cross_heads = 0, cross_head_dim = 0;
  // HiDream-I1 (hf_config): routed experts of the image feed-forward, how many each token takes, the shared expert's width.
  std::int64_t experts = 0, active_experts = 0, shared_ffn = 0;
  std::vector<bool> encoder_vit, decoder_vit;
  // Step-Video-T2V (hf_config): the caption projection's two input widths (Step-LLM, Hunyuan-CLIP); the VAE's
  // per-encoder-level temporal downsampling, its encoder's first width, and the pixel and latent frames one
  // decoder call takes.
  std::int64_t clip_dim = 0, encoder_ch = 0;
  std::vector<bool> temporal_downsample;
  std::int64_t chunk_frames = 0, chunk_latents = 0;
  std::int64_t multiscales = 0;
  bool interpolate_up = false, conv_down = false;
};

struct Component {
  std::string name;  ///< the pipeline's folder / attribute name ("transformer", "text_encoder_2")
  ComponentKind kind = ComponentKind::flux;
  ComponentConfig config;
  StoredDtype dtype = StoredDtype::bf16;  ///< storage under the wan runtime (checkpoint dtype)
  /// The pipeline file gives `dtype`: under diffusers, the dtype the reference usage loads this component in
  /// apart from torch_dtype (Allegro's VAE in fp32), kept unless the scenario sets `weights`.
  bool dtype_given = false;
  std::int64_t params = 0;                ///< published count (checked against the inventory)
  std::string source;                     ///< where the config and count come from
  Inventory inventory;                    ///< computed from the config (counted kinds: `other` = params)
};

struct Pipeline {
  std::string id;
  std::vector<std::string> aliases;
  std::string revision;
  std::string source;
  Modality modality = Modality::image;
  Runtime runtime = Runtime::diffusers;
  CfgMode cfg = CfgMode::none;
  StoredDtype dtype = StoredDtype::bf16;  ///< the usual torch_dtype (diffusers) / param_dtype (wan)
  std::int64_t width = 0, height = 0, frames = 0;
  std::int64_t max_frames = 0;  ///< the longest video the model is documented for (0: images)
  /// Reference images whose latent tokens join the denoiser's sequence (FLUX.1 Kontext: one, at the output's size).
  std::int64_t reference_images = 0;
  /// Output pixels the pipeline generates whatever size is asked (0: the size asked): the size gives the aspect ratio.
  std::int64_t max_area = 0;
  /// Wan reference scripts: the DiT stays on the CPU until its first denoising step (Wan 2.2's init_on_cpu,
  /// without sequence parallelism or FSDP); Wan 2.1 moves it to the GPU when the pipeline is built.
  bool init_on_cpu = false;
  std::vector<Component> components;

  const Component* find(std::string_view name) const;
  const Component* first(Role r) const;
  std::vector<const Component*> all(Role r) const;
};

/// Parses one pipeline file; `path` names the file in errors.
Pipeline parse_pipeline(const nlohmann::json& j, const std::string& path);
/// The same file's top-level fields only (id, aliases, modality, runtime,
/// dtype, native geometry): what a list of pipelines shows, without reading
/// each component's configuration and inventory.
Pipeline parse_pipeline_header(const nlohmann::json& j, const std::string& path);
/// Reads the file's components into `p` (a header read from the same file).
void read_pipeline_components(const nlohmann::json& j, const std::string& path, Pipeline& p);

/// The parameters of a component computed from its configuration.
Inventory inventory_of(const Component& c, const std::string& path);

/// Latent geometry of one sample: the VAE's compression and the denoiser's patch.
struct LatentGeometry {
  std::int64_t latent_frames = 1;
  std::int64_t latent_height = 0;
  std::int64_t latent_width = 0;
  std::int64_t latent_channels = 0;
  std::int64_t tokens = 0;  ///< image tokens of one sample (latent / patch)
  std::int64_t reference_tokens = 0;  ///< tokens of the reference images' latents concatenated to them (Kontext)
};

/// A llama_text encoder's forward positions (its tokenized prompt with the image placeholder expanded)
/// and the states it hands the denoiser (past the template and the assistant header, and the kept
/// image states).
std::int64_t encoder_positions(const ComponentConfig& c);
std::int64_t handed_tokens(const ComponentConfig& c);

/// The overlapping tiles AutoencoderKLAllegro decodes one at a time, in latent units: a tile of
/// `frames` × `height` × `width` every `stride_*` (diffusers @58eb52c autoencoder_kl_allegro.py __init__:
/// 24 frames × sample_size² pixels overlapping by 8 frames, 120 rows and 80 columns).
struct LatentTiles {
  std::int64_t frames = 0, height = 0, width = 0;
  std::int64_t stride_frames = 0, stride_height = 0, stride_width = 0;
  std::int64_t count(const LatentGeometry& g) const;  ///< tiles over g (a covering geometry)
};
LatentTiles allegro_latent_tiles(const ComponentConfig& vae);

/// Validated geometry for `g` (InputError at /generation/... naming the valid sizes).
LatentGeometry latent_geometry(const Pipeline& p, const GenerationSettings& g, std::int64_t width,
                               std::int64_t height, std::int64_t frames);

}  // namespace vram::generation
