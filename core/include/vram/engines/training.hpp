// Training and fine-tuning of language models, per GPU (CONTRACT `training`).
//
// One accounting shared by every framework — weights (trainable and frozen in
// their stored formats, LoRA adapters), master weights, gradients, optimizer
// state, saved activations, logits and loss, sharded units, the caching
// allocator, the CUDA context — and a profile per framework that says what it
// does by default (engines/training/*.cpp, each cited to its code at a version).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "vram/budget/optimizer_state.hpp"
#include "vram/budget/saved_activations.hpp"
#include "vram/budget/weights.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram::training {

/// What a framework does where the scenario does not say.
/// What a framework's selective activation checkpointing keeps.
enum class SelectiveKind : std::uint8_t {
  attention_scores,    ///< everything but the attention scores (flash attention keeps none anyway)
  every_other_matmul,  ///< torchtitan's op-level policy: block input, every other matmul, attention output
};

struct FrameworkProfile {
  Framework framework = Framework::transformers;
  // Under mixed precision the trainable parameters are counted as a 16-bit
  // compute copy plus an fp32 master: torch.autocast's fp32 parameters with
  // their cached 16-bit casts, and ZeRO / FSDP policies' 16-bit parameters
  // with fp32 masters, hold the same bytes.
  /// Gradient dtype under mixed precision (fp32 reduce dtype, or the 16-bit one).
  std::int64_t mixed_grad_bytes = 4;
  /// LoRA adapters in fp32 under mixed precision (PEFT's autocast_adapter_dtype).
  bool fp32_adapters = false;
  /// QLoRA's NF4 base double-quantizes its absmax.
  bool nf4_double_quant = true;
  /// The 16-bit logits stay referenced through backward (a model output).
  bool keep_logits = true;
  LossKind chunked_loss = LossKind::chunked;  ///< what chunked_loss = true means
  LossKind default_loss = LossKind::materialized;
  std::int64_t loss_chunks = 8;
  /// The default loss applies above this many tokens per micro-batch; at or
  /// below it, `short_loss` (0 = always the default).
  std::int64_t loss_switch_tokens = 0;
  LossKind short_loss = LossKind::materialized;
  LayerKernels kernels = LayerKernels::eager;
  /// Full checkpointing offloads the kept layer inputs to the host by default.
  bool checkpoint_offload = false;
  /// DeepSpeed ZeRO's reduction bucket.
  bool zero_buckets = false;
  /// What `checkpointing: selective` keeps: the layer's tensors without the attention
  /// scores (Korthikanti et al. 2022 §5), or op-level policies' every other matmul output.
  SelectiveKind selective = SelectiveKind::attention_scores;
  /// Tensor parallelism shards the hidden-sized tensors along the sequence (sequence parallelism).
  bool tp_sequence_parallel = false;
  std::string_view source;  ///< the framework's code at a pinned version
  /// Muon where the framework ships it (its Newton–Schulz kernel); none elsewhere.
  std::optional<NewtonSchulz> muon;
  /// Where the framework chooses AdamW's step kernels (default_adamw_impl).
  std::string_view adamw_impl_source;
};

/// AdamW's step kernels: `fallback` (and why) noted as the default where the scenario names none; a setting an
/// optimizer other than AdamW does not read, warned about.
void note_optimizer_implementation(const TrainingSettings& t, OptimizerImpl fallback, std::string_view why, Report& r);

FrameworkProfile torchtune_profile();
FrameworkProfile unsloth_profile();
FrameworkProfile transformers_profile();
FrameworkProfile torchtitan_profile();
FrameworkProfile deepspeed_profile();
FrameworkProfile profile_of(Framework f);

/// Fills `report` for an LLM training scenario.
void account(const Scenario& s, Report& report, WeightsMemo* memo = nullptr);

/// Fills `report` for fine-tuning an image pipeline's denoiser with diffusers'
/// training scripts (framework diffusers, the sample size from `generation`):
/// full or LoRA / QLoRA, the CLIP text encoders trained or frozen, latents and
/// prompt embeddings precomputed (vae / text_encoder "cpu") or not.
void diffusion_account(const Scenario& s, Report& report);

}  // namespace vram::training
