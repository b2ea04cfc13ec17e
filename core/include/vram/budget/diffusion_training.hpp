// Budget categories of fine-tuning a diffusion model (diffusers' training
// scripts): what autograd keeps for the backward pass of the denoiser and of a
// trained text encoder, the backward working set, and the LoRA adapters'
// shapes on the modules a target name selects.
//
// What autograd saves follows each op's backward formula (PyTorch v2.5
// tools/autograd/derivatives.yaml, saved only when the input it serves needs a
// gradient): a norm, SiLU or GELU keeps its input, SDPA its q, k, v and
// output, a linear or conv layer its input only when its own weight trains.
// So a frozen layer under LoRA keeps nothing for itself, and the
// denoiser's saved set depends on which modules train.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "vram/budget/term.hpp"
#include "vram/budget/trainable.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/workloads.hpp"

namespace vram::generation {

/// Which modules of one component train: all of them, or the LoRA targets (PEFT
/// names, matched as PEFT does: the module's name or a dotted suffix of it).
struct TrainedModules {
  bool full = false;
  std::vector<std::string> targets;
  /// Whether the module named `module` (its path inside a block, "attn1.to_q") trains.
  bool trains(std::string_view module) const;
};

/// One kind of adaptable module of a component: `count` layers of in → out
/// (a conv: `kernel` × `kernel` taps; a linear: 1), named by its path in a block.
struct AdaptableModule {
  std::string_view name;
  std::int64_t in = 0;
  std::int64_t out = 0;
  std::int64_t count = 0;
  std::int64_t kernel = 1;
};

/// The modules a LoRA target may name in `c` (UNet, FLUX, SD3, CLIP text),
/// with their shapes; empty for a kind whose modules are not listed.
std::vector<AdaptableModule> adaptable_modules(const Component& c);

/// LoRA's A and B per adapted module (PEFT LoraLayer: A is rank × in·k², B out × rank).
TrainableSet lora_adapters(const std::vector<AdaptableModule>& modules, const TrainedModules& trained, std::int64_t rank);

/// One training forward of the denoiser.
struct TrainShape {
  LatentGeometry latent;
  std::int64_t batch = 1;          ///< samples per micro-batch
  std::int64_t elem = 2;           ///< bytes of the activations (the autocast or the model dtype)
  std::int64_t text_tokens = 0;    ///< joint-attention text tokens (FLUX, SD3)
  std::int64_t cross_tokens = 0;   ///< cross-attention text tokens (UNet)
  GenAttention attention = GenAttention::efficient;
  bool checkpointed = false;       ///< enable_gradient_checkpointing(): blocks keep their inputs only
};

/// What autograd keeps from the denoiser's forward until its backward:
/// everything the ops save, or (checkpointing) each block's input.
Term denoiser_saved_activations(const Component& d, const TrainShape& s, const TrainedModules& trained);

/// The backward's working set beyond the saved tensors: with checkpointing the
/// largest block recomputed, and the gradients of the largest activation in and out.
Term denoiser_backward_working(const Component& d, const TrainShape& s, const TrainedModules& trained);

/// A trained CLIP text encoder's saved activations over `prompts` sequences.
Term text_encoder_saved_activations(const Component& c, std::int64_t prompts, std::int64_t elem,
                                    const TrainedModules& trained);

/// Whether the training estimator lists this denoiser's blocks.
bool trains_denoiser(ComponentKind k);

}  // namespace vram::generation
