// The Unsloth profile: its kernels, offloaded checkpointing and loss.
#include "vram/engines/training.hpp"

namespace vram::training {

FrameworkProfile unsloth_profile() {
  // Unsloth 2024.12 (commit c83f542): QLoRA loads bitsandbytes NF4 with
  // bnb_4bit_use_double_quant; use_gradient_checkpointing="unsloth" offloads each
  // layer's input to the host (Unsloth_Offloaded_Gradient_Checkpointer); fused
  // SwiGLU / LoRA-MLP kernels keep the gate and up outputs only; fast_rms_layernorm
  // keeps the norm input, fast RoPE rotates in place; above 1,024 tokens the loss is
  // fused_linear_cross_entropy (Cut Cross-Entropy: logits never materialised), at or
  // below it fast_cross_entropy_loss on 16-bit logits; prepare_model_for_kbit_training
  // casts the LoRA adapters to float32.
  FrameworkProfile p;
  p.framework = Framework::unsloth;
  p.fp32_adapters = true;
  p.nf4_double_quant = true;
  p.keep_logits = false;
  p.default_loss = LossKind::cut;
  p.chunked_loss = LossKind::cut;
  p.loss_switch_tokens = 1024;
  p.short_loss = LossKind::in_place;
  p.kernels = LayerKernels::fused;
  p.checkpoint_offload = true;
  p.adamw_impl_source = "the transformers Trainer's default: adamw_torch_fused with PyTorch 2.8 or later";
  p.source =
      "unsloth c83f542 (2024-12) unsloth/models/llama.py (Unsloth_Offloaded_Gradient_Checkpointer, "
      "fused_linear_cross_entropy above 1,024 tokens), unsloth/models/_utils.py prepare_model_for_kbit_training (LoRA "
      "in "
      "float32), unsloth/kernels/fast_lora.py LoRA_MLP; unsloth.ai/blog/llama3-3 (Cut Cross-Entropy)";
  return p;
}

}  // namespace vram::training
