// The settings of the workloads beyond inference (CONTRACT v1.1 section 1):
// training / fine-tuning, and image or video generation. Each allowed value is
// an enum with one table of names, read by the parser, its error messages and
// the `defaults()` export alike.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vram/choice.hpp"

namespace vram {

enum class Framework : std::uint8_t { transformers, torchtune, torchtitan, unsloth, deepspeed, diffusers };
enum class TrainMethod : std::uint8_t { full, lora, qlora, freeze };
enum class Precision : std::uint8_t { bf16_mixed, fp16_mixed, bf16, fp32 };
enum class Optimizer : std::uint8_t { adamw, adamw_8bit, paged_adamw_8bit, adafactor, sgd, sgd_momentum, lion, muon };
/// How torch.optim.AdamW runs its step (its `fused` / `foreach` arguments; torchtitan's
/// optimizer.implementation names them "fused", "foreach" and "for-loop").
enum class OptimizerImpl : std::uint8_t { fused, foreach, for_loop };
enum class Checkpointing : std::uint8_t { none, selective, full };
enum class TrainAttention : std::uint8_t { flash, sdpa, eager };
enum class Sharding : std::uint8_t { none, ddp, zero1, zero2, zero3, fsdp };
enum class TrainOffload : std::uint8_t { none, optimizer, optimizer_params };

inline constexpr std::array<Choice<Framework>, 6> kFrameworks{{{Framework::transformers, "transformers"},
                                                              {Framework::torchtune, "torchtune"},
                                                              {Framework::torchtitan, "torchtitan"},
                                                              {Framework::unsloth, "unsloth"},
                                                              {Framework::deepspeed, "deepspeed"},
                                                              {Framework::diffusers, "diffusers"}}};
inline constexpr std::array<Choice<TrainMethod>, 4> kTrainMethods{
    {{TrainMethod::full, "full"}, {TrainMethod::lora, "lora"}, {TrainMethod::qlora, "qlora"}, {TrainMethod::freeze, "freeze"}}};
inline constexpr std::array<Choice<Precision>, 4> kPrecisions{{{Precision::bf16_mixed, "bf16-mixed"},
                                                              {Precision::fp16_mixed, "fp16-mixed"},
                                                              {Precision::bf16, "bf16"},
                                                              {Precision::fp32, "fp32"}}};
inline constexpr std::array<Choice<Optimizer>, 8> kOptimizers{{{Optimizer::adamw, "adamw"},
                                                              {Optimizer::adamw_8bit, "adamw-8bit"},
                                                              {Optimizer::paged_adamw_8bit, "paged-adamw-8bit"},
                                                              {Optimizer::adafactor, "adafactor"},
                                                              {Optimizer::sgd, "sgd"},
                                                              {Optimizer::sgd_momentum, "sgd-momentum"},
                                                              {Optimizer::lion, "lion"},
                                                              {Optimizer::muon, "muon"}}};
inline constexpr std::array<Choice<OptimizerImpl>, 3> kOptimizerImpls{
    {{OptimizerImpl::fused, "fused"}, {OptimizerImpl::foreach, "foreach"}, {OptimizerImpl::for_loop, "for-loop"}}};
/// AdamW's step kernels a framework runs when the scenario names none: diffusers' scripts build
/// torch.optim.AdamW without `fused` (its foreach step); the others fuse (each engine profile cites why).
constexpr OptimizerImpl default_adamw_impl(Framework f) {
  return f == Framework::diffusers ? OptimizerImpl::foreach : OptimizerImpl::fused;
}
inline constexpr std::array<Choice<Checkpointing>, 3> kCheckpointing{
    {{Checkpointing::none, "none"}, {Checkpointing::selective, "selective"}, {Checkpointing::full, "full"}}};
inline constexpr std::array<Choice<TrainAttention>, 3> kTrainAttention{
    {{TrainAttention::flash, "flash"}, {TrainAttention::sdpa, "sdpa"}, {TrainAttention::eager, "eager"}}};
inline constexpr std::array<Choice<Sharding>, 6> kShardings{{{Sharding::none, "none"},
                                                            {Sharding::ddp, "ddp"},
                                                            {Sharding::zero1, "zero1"},
                                                            {Sharding::zero2, "zero2"},
                                                            {Sharding::zero3, "zero3"},
                                                            {Sharding::fsdp, "fsdp"}}};
inline constexpr std::array<Choice<TrainOffload>, 3> kTrainOffloads{{{TrainOffload::none, "none"},
                                                                    {TrainOffload::optimizer, "optimizer"},
                                                                    {TrainOffload::optimizer_params, "optimizer+params"}}};

/// The flags under `training.extra` that the estimator reads; the others are
/// framework settings it does not model (the accuracy report names them).
inline constexpr std::array<std::string_view, 1> kTrainingExtraFlags{"compile"};

/// `training` (CONTRACT 1.1): defaults are the contract's.
/// What fine-tuning a diffusion model (framework diffusers) reads: of the
/// training block, and of the generation block (the sample geometry and
/// where the VAE and text encoders run). Exported so a face shows these only.
inline constexpr std::array<std::string_view, 12> kDiffusionTrainingFields{
    "framework", "method", "lora_rank", "lora_targets", "precision", "optimizer", "optimizer_implementation",
    "micro_batch", "grad_accum", "checkpointing", "sharding", "train_text_encoder"};
inline constexpr std::array<std::string_view, 7> kDiffusionGenerationFields{
    "width", "height", "frames", "text_encoder", "vae", "attention", "component_weights"};

struct TrainingSettings {
  Framework framework = Framework::transformers;
  TrainMethod method = TrainMethod::full;
  std::int64_t lora_rank = 16;
  std::vector<std::string> lora_targets;  ///< empty = all-linear
  /// method "freeze": the last N decoder layers are trained, the rest (and the
  /// embeddings and output layer) stay frozen. LLaMA-Factory's default is 2
  /// (hparams/finetuning_args.py FreezeArguments.freeze_trainable_layers).
  std::int64_t trainable_layers = 2;
  /// DoRA (Liu et al. 2024; PEFT LoraConfig use_dora): a magnitude vector per
  /// adapted module, and a forward that rebuilds each adapted weight's norm.
  bool use_dora = false;
  Precision precision = Precision::bf16_mixed;
  Optimizer optimizer = Optimizer::adamw;
  /// AdamW's step kernels; unset: the framework's default (its profile).
  std::optional<OptimizerImpl> optimizer_implementation;
  std::int64_t micro_batch = 1;
  std::int64_t seq_len = 2048;
  std::int64_t grad_accum = 1;
  Checkpointing checkpointing = Checkpointing::none;
  TrainAttention attention = TrainAttention::flash;
  Sharding sharding = Sharding::none;
  TrainOffload offload = TrainOffload::none;
  std::int64_t tensor_parallel = 1;
  std::int64_t pipeline_parallel = 1;
  std::int64_t context_parallel = 1;
  std::int64_t shard_group_size = 0;  ///< 0 = all GPUs (hardware.count)
  bool optimizer_in_backward = false;
  bool chunked_loss = false;
  bool activation_offload = false;
  bool fp8 = false;
  /// torch.compile on the model and the loss (also read from `extra.compile`).
  bool compile = false;
  bool train_text_encoder = false;
};

enum class GenOffload : std::uint8_t { none, model, sequential, group };
enum class TextEncoderPlace : std::uint8_t { gpu, cpu, sharded };
enum class VaePlace : std::uint8_t { gpu, cpu };
enum class GenAttention : std::uint8_t { efficient, naive };

inline constexpr std::array<Choice<GenOffload>, 4> kGenOffloads{
    {{GenOffload::none, "none"}, {GenOffload::model, "model"}, {GenOffload::sequential, "sequential"}, {GenOffload::group, "group"}}};
inline constexpr std::array<Choice<TextEncoderPlace>, 3> kTextEncoderPlaces{
    {{TextEncoderPlace::gpu, "gpu"}, {TextEncoderPlace::cpu, "cpu"}, {TextEncoderPlace::sharded, "sharded"}}};
inline constexpr std::array<Choice<VaePlace>, 2> kVaePlaces{{{VaePlace::gpu, "gpu"}, {VaePlace::cpu, "cpu"}}};
inline constexpr std::array<Choice<GenAttention>, 2> kGenAttention{
    {{GenAttention::efficient, "efficient"}, {GenAttention::naive, "naive"}}};

/// `generation` (CONTRACT 1.1), for image and video workloads and for training
/// a diffusion model. Geometry left unset (0) takes the pipeline's native one.
struct GenerationSettings {
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::int64_t frames = 0;  ///< video only
  std::int64_t batch = 1;
  std::int64_t steps = 0;     ///< denoising steps (time, not memory); 0 = the pipeline's
  std::optional<bool> cfg;    ///< classifier-free guidance; unset = the model's usual
  GenOffload offload = GenOffload::none;
  TextEncoderPlace text_encoder = TextEncoderPlace::gpu;
  VaePlace vae = VaePlace::gpu;
  GenAttention attention = GenAttention::efficient;
  bool vae_tiling = false;
  bool vae_slicing = false;
  std::int64_t sequence_parallel = 1;
  bool fsdp = false;
  /// Per-component storage format ("transformer" → "nf4"); "none" = not loaded.
  std::vector<std::pair<std::string, std::string>> component_weights;
};

}  // namespace vram
