// The scenario (CONTRACT v1 section 1) as value types, and its parser.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/formats.hpp"
#include "vram/kv_dtype.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"
#include "vram/parallel/parallelism.hpp"
#include "vram/workloads.hpp"

namespace vram {
namespace io {
class JsonWriter;
}  // namespace io

enum class Workload : std::uint8_t { inference, training, image, video };
inline constexpr std::array<Choice<Workload>, 4> kWorkloads{{{Workload::inference, "inference"},
                                                            {Workload::training, "training"},
                                                            {Workload::image, "image"},
                                                            {Workload::video, "video"}}};
enum class Engine : std::uint8_t { vllm, llama_cpp, transformers };

/// The fields of `inference.vllm` and `inference.llama_cpp`: read by the
/// parser, and exported (`scenario_defaults_json`) so the page shows each
/// engine's fields without a list of its own.
inline constexpr std::array<std::string_view, 16> kVllmFields{
    "gpu_memory_utilization", "max_num_batched_tokens", "max_num_seqs", "block_size", "enforce_eager", "version",
    "max_model_len", "engine", "cudagraph_capture_sizes", "cudagraph_mode", "enable_expert_parallel",
    "flashinfer_sampler", "mamba_cache_dtype", "mamba_ssm_cache_dtype", "moe_backend", "language_model_only"};

/// The fused-MoE experts of block-quantized fp8 checkpoints: Triton (vLLM's
/// default on sm90 for block fp8 without expert parallelism) or DeepGEMM
/// (--moe-backend deep_gemm, or VLLM_USE_DEEP_GEMM=1 / VLLM_MOE_USE_DEEP_GEMM=1).
enum class MoeBackend : std::uint8_t { triton, deep_gemm };
inline constexpr std::array<Choice<MoeBackend>, 2> kMoeBackends{
    {{MoeBackend::triton, "triton"}, {MoeBackend::deep_gemm, "deep_gemm"}}};
inline constexpr std::array<std::string_view, 11> kLlamaCppFields{
    "n_gpu_layers", "n_batch", "n_ubatch", "flash_attn", "n_seq_max", "kv_unified", "build", "n_ctx", "split_mode",
    "main_gpu", "tensor_split"};

/// vLLM engine arguments (defaults: vLLM's own, per version; see engines/vllm.hpp).
/// vLLM's engine core: V0 (up to 0.10) or V1 (from 0.7; the default from 0.8).
enum class VllmEngine : std::uint8_t { v0, v1 };
inline constexpr std::array<Choice<VllmEngine>, 2> kVllmEngines{{{VllmEngine::v0, "v0"}, {VllmEngine::v1, "v1"}}};

/// vLLM's compilation_config.cudagraph_mode (vllm/config/compilation.py CUDAGraphMode).
enum class CudaGraphMode : std::uint8_t { none, full, piecewise, full_and_piecewise, full_decode_only };
inline constexpr std::array<Choice<CudaGraphMode>, 5> kCudaGraphModes{{{CudaGraphMode::none, "NONE"},
                                                                       {CudaGraphMode::piecewise, "PIECEWISE"},
                                                                       {CudaGraphMode::full, "FULL"},
                                                                       {CudaGraphMode::full_decode_only, "FULL_DECODE_ONLY"},
                                                                       {CudaGraphMode::full_and_piecewise, "FULL_AND_PIECEWISE"}}};

/// vLLM's CacheConfig.mamba_cache_dtype / mamba_ssm_cache_dtype (vllm/config/cache.py MambaDType, vLLM main at
/// commit 002f10e): "auto" takes the model dtype (the SSM state: the conv state's, or a model's own override).
enum class MambaDtype : std::uint8_t { auto_dtype, float32, float16, bfloat16 };
inline constexpr std::array<Choice<MambaDtype>, 4> kMambaDtypes{{{MambaDtype::auto_dtype, "auto"},
                                                                 {MambaDtype::float32, "float32"},
                                                                 {MambaDtype::float16, "float16"},
                                                                 {MambaDtype::bfloat16, "bfloat16"}}};

struct VllmSettings {
  double gpu_memory_utilization = 0.9;
  std::optional<std::int64_t> max_num_batched_tokens;
  std::optional<std::int64_t> max_num_seqs;
  std::int64_t block_size = 16;
  bool enforce_eager = false;
  std::string version;  ///< "" = current (0.19 behaviour)
  std::optional<VllmEngine> engine;  ///< VLLM_USE_V1 (0.7-0.10); default: the version's
  std::vector<std::int64_t> cudagraph_capture_sizes;  ///< compilation_config; empty = the version's default
  std::optional<CudaGraphMode> cudagraph_mode;         ///< compilation_config; default: the version's
  /// --enable-expert-parallel: the routed experts divided whole over the
  /// tensor-parallel ranks (expert-parallel size = TP), not sliced by TP.
  bool enable_expert_parallel = false;
  /// VLLM_USE_FLASHINFER_SAMPLER: top-k/top-p through FlashInfer's kernel
  /// (true) or PyTorch's sort (false); unset: the version's default.
  std::optional<bool> flashinfer_sampler;
  /// --mamba-cache-dtype: the conv state of recurrent layers (and their SSM state when
  /// mamba_ssm_cache_dtype is "auto").
  MambaDtype mamba_cache_dtype = MambaDtype::auto_dtype;
  /// --mamba-ssm-cache-dtype: the SSM (temporal) state of recurrent layers only.
  MambaDtype mamba_ssm_cache_dtype = MambaDtype::auto_dtype;
  /// --moe-backend for block-quantized fp8 experts (their workspace shapes differ).
  MoeBackend moe_backend = MoeBackend::triton;
  /// --language-model-only (v0.16), or --limit-mm-per-prompt with every modality at 0:
  /// a multimodal model serves text only, its encoder is not profiled and, from
  /// v0.15, its vision tower is not loaded.
  bool language_model_only = false;
};

/// llama.cpp --split-mode: how several GPUs share one model.
enum class LlamaSplitMode : std::uint8_t {
  none,   ///< only main_gpu holds the model
  layer,  ///< whole layers per GPU, in proportion to tensor_split (the default)
  row,    ///< every 2D weight matrix cut into row slices across the GPUs
};

/// llama.cpp context parameters (defaults: llama.cpp's common_params).
struct LlamaCppSettings {
  std::int64_t n_gpu_layers = -1;  ///< -1 = all layers (and the output layer)
  std::int64_t n_batch = 2048;
  std::int64_t n_ubatch = 512;
  bool flash_attn = false;
  std::int64_t n_seq_max = 1;
  /// One KV stream shared by all sequences (every llama.cpp before b5913, --kv-unified,
  /// llama-server's automatic slots since b6925), or one per sequence (false: an explicit
  /// -np N without -kvu from b6071, when the split needed LLAMA_SET_ROWS no more).
  bool kv_unified = true;
  /// The build (bNNNN tag) whose graph layout applies; none: the newest the ladder knows.
  std::optional<std::int64_t> build;
  LlamaSplitMode split_mode = LlamaSplitMode::layer;
  std::int64_t main_gpu = 0;         ///< the GPU of split_mode none
  std::vector<double> tensor_split;  ///< one proportion per GPU; empty = by free memory (equal on identical GPUs)
};

/// The fields of `inference.transformers` (the parser's and the page's one list).
inline constexpr std::array<std::string_view, 8> kTransformersFields{
    "cache_implementation", "attn_implementation", "version", "backend", "nbits", "q_group_size", "residual_length",
    "max_new_tokens"};

/// generate(cache_implementation=...): the Cache class transformers builds.
enum class HfCache : std::uint8_t {
  dynamic,       ///< DynamicCache: grows one token at a time
  static_cache,  ///< "static": StaticCache, preallocated to max_cache_len for every layer
  quantized,     ///< QuantizedCache (quanto or HQQ): packed low-bit K/V plus a model-dtype residual
  offloaded,     ///< OffloadedCache: the current and the prefetched next layer on the GPU, the rest on the CPU
};
inline constexpr std::array<Choice<HfCache>, 4> kHfCaches{{{HfCache::dynamic, "dynamic"},
                                                          {HfCache::static_cache, "static"},
                                                          {HfCache::quantized, "quantized"},
                                                          {HfCache::offloaded, "offloaded"}}};
/// from_pretrained(attn_implementation=...).
enum class HfAttention : std::uint8_t { sdpa, eager, flash_attention_2 };
inline constexpr std::array<Choice<HfAttention>, 3> kHfAttentions{
    {{HfAttention::sdpa, "sdpa"}, {HfAttention::eager, "eager"}, {HfAttention::flash_attention_2, "flash_attention_2"}}};
/// The quantizer behind QuantizedCache (cache_config "backend").
enum class HfQuantBackend : std::uint8_t { quanto, hqq };
inline constexpr std::array<Choice<HfQuantBackend>, 2> kHfQuantBackends{
    {{HfQuantBackend::quanto, "quanto"}, {HfQuantBackend::hqq, "hqq"}}};

/// transformers generate() settings (defaults: transformers' own; the version's where they changed).
struct TransformersSettings {
  HfCache cache = HfCache::dynamic;
  std::optional<HfAttention> attention;  ///< unset: the version's default (sdpa from 4.36, eager before)
  std::string version;                   ///< as given; "" = the current behaviour (4.56)
  int major = 4, minor = 56, patch = 0;  ///< `version` read (checked by the parser)
  HfQuantBackend backend = HfQuantBackend::quanto;
  std::int64_t nbits = 4;
  std::int64_t q_group_size = 64;
  std::int64_t residual_length = 128;
  /// generate(max_new_tokens=...): the last tokens of `context` are generated one
  /// at a time, so the prefill runs over context - max_new_tokens prompt tokens;
  /// 0 = the whole context is the prompt (a bound on the prefill).
  std::int64_t max_new_tokens = 0;
};

struct InferenceSettings {
  Engine engine = Engine::vllm;
  std::int64_t context = 0;  ///< tokens per sequence
  std::int64_t concurrency = 1;
  KvDtype kv;  ///< tensor and pipeline sizes are in Scenario::parallel
  VllmSettings vllm;
  LlamaCppSettings llama_cpp;
  TransformersSettings transformers;
};

/// The GPU the scenario runs on.
struct GpuChoice {
  std::string id;  ///< catalog id, or "custom"
  std::string name;
  Bytes memory;  ///< what the framework sees per GPU
  std::optional<double> price_usd_per_hour;
  int compute_capability = 0;  ///< CUDA compute capability × 10 (80 = "8.0"); 0 when unknown or not CUDA
  int sm_count = 0;            ///< streaming multiprocessors; 0 when unknown
  /// The catalog's interconnect, or `hardware.interconnect` when given.
  Interconnect interconnect = Interconnect::unknown;
  RocmArch rocm_arch = RocmArch::none;  ///< an AMD GPU's LLVM target; none for NVIDIA and custom GPUs
};

/// A catalog GPU as a scenario's choice (its interconnect included).
GpuChoice gpu_choice(const Gpu& gpu);

/// Training a model, and for a diffusion model the sample geometry.
struct TrainingWorkload {
  TrainingSettings training;
  std::optional<GenerationSettings> generation;
};

/// One workload's settings: which alternative is held matches `Scenario::workload`.
using WorkloadSettings = std::variant<InferenceSettings, TrainingWorkload, GenerationSettings>;

/// The common part (model, hardware, headroom) plus one workload's settings.
struct Scenario {
  Workload workload = Workload::inference;
  /// Shared with the catalog; never null after parsing, except for image and
  /// video scenarios, whose pipelines are resolved by the generation engine.
  std::shared_ptr<const Model> model;
  /// The image or video pipeline (catalog or inline); null for other workloads.
  std::shared_ptr<const generation::Pipeline> pipeline;
  std::string model_ref;               ///< how the model was named (catalog id, "config.json", "13,000,000,000 params")
  WeightFormat weights;
  std::optional<Bytes> weights_bytes_given;  ///< model.weights_bytes: exact checkpoint size
  GpuChoice gpu;
  std::int64_t gpu_count = 1;
  /// How the GPUs divide the work (from the workload's parallel sizes).
  Parallelism parallel;
  double headroom = 0.10;
  WorkloadSettings settings;
  std::vector<std::string> defaults_used;
  std::vector<std::string> warnings;

  /// The inference settings (only for workload = inference).
  InferenceSettings& inference() { return std::get<InferenceSettings>(settings); }
  const InferenceSettings& inference() const { return std::get<InferenceSettings>(settings); }
  /// The training settings, or nullptr for other workloads.
  const TrainingWorkload* training() const { return std::get_if<TrainingWorkload>(&settings); }
  /// The generation settings of an image or video workload, or nullptr.
  const GenerationSettings* generation() const { return std::get_if<GenerationSettings>(&settings); }
};

/// Parses and validates a scenario. Errors are `InputError` with the JSON path.
Scenario parse_scenario(const nlohmann::json& scenario, const Catalog& catalog);

/// Parses scenario text (malformed JSON is an `InputError` at path "").
Scenario parse_scenario_text(const std::string& text, const Catalog& catalog);

/// The GPU a scenario gets when it names none: the most common serving GPU.
inline constexpr const char* kDefaultGpu = "H100-SXM-80GB";
/// The catalog model a face shows before one is chosen (a scenario always names
/// its model): the article's 8B example, the most measured model of the catalog.
inline constexpr const char* kShownModel = "meta-llama/Llama-3.1-8B";

/// Every default the core applies that a face shows (default GPU, the model
/// shown first, engine, headroom, each engine's fields and defaults, the allowed
/// values of the training and generation settings): one JSON object for `catalog()`.
void write_scenario_defaults(io::JsonWriter& w);

const char* to_string(Workload w);
const char* to_string(Engine e);

}  // namespace vram
