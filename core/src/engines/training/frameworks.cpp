// Profiles of the training frameworks: what each does by default.
#include "vram/engines/training.hpp"

namespace vram::training {

FrameworkProfile torchtune_profile() {
  // torchtune v0.6.1: recipes train in the config's dtype (bf16, no autocast:
  // training.get_dtype), LoRA adapters in that dtype, fused AdamW in the configs;
  // QLoRA bases are torchao NF4Tensor (block 64, double-quantized scalers, block 256);
  // recipes `del logits` before backward; CEWithChunkedOutputLoss uses 8 chunks;
  // enable_activation_offloading moves saved tensors to the host (OffloadActivations).
  FrameworkProfile p;
  p.framework = Framework::torchtune;
  p.autocast_params = false;
  p.mixed_grad_bytes = 4;  // FSDP2 MixedPrecisionPolicy reduce_dtype fp32
  p.fp32_adapters = false;
  p.nf4_double_quant = true;
  p.keep_logits = false;
  p.chunked_loss = LossKind::chunked;
  p.loss_chunks = 8;
  p.source =
      "torchtune v0.6.1 recipes/{full_finetune,lora_finetune}_{single_device,distributed}.py, "
      "modules/loss/ce_chunked_output_loss.py, modules/peft/lora.py, training/_activation_offloading.py";
  return p;
}

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
  p.autocast_params = true;
  p.fp32_adapters = true;
  p.nf4_double_quant = true;
  p.keep_logits = false;
  p.default_loss = LossKind::cut;
  p.chunked_loss = LossKind::cut;
  p.loss_switch_tokens = 1024;
  p.short_loss = LossKind::in_place;
  p.kernels = LayerKernels::fused;
  p.checkpoint_offload = true;
  p.source =
      "unsloth c83f542 (2024-12) unsloth/models/llama.py (Unsloth_Offloaded_Gradient_Checkpointer, "
      "fused_linear_cross_entropy above 1,024 tokens), unsloth/models/_utils.py prepare_model_for_kbit_training (LoRA in "
      "float32), unsloth/kernels/fast_lora.py LoRA_MLP; unsloth.ai/blog/llama3-3 (Cut Cross-Entropy)";
  return p;
}

FrameworkProfile transformers_profile() {
  // transformers v4.56 Trainer: bf16/fp16 = torch.autocast over fp32 parameters
  // (fp32 gradients and optimizer states); the loss upcasts logits to fp32
  // (loss/loss_utils.py ForCausalLMLoss) while the model output keeps them;
  // PEFT v0.17 casts adapters to fp32 (autocast_adapter_dtype=True); QLoRA via
  // BitsAndBytesConfig, whose bnb_4bit_use_double_quant defaults to False;
  // chunked_loss = Liger's fused linear cross-entropy.
  FrameworkProfile p;
  p.framework = Framework::transformers;
  p.autocast_params = true;
  p.fp32_adapters = true;
  p.nf4_double_quant = false;
  p.keep_logits = true;
  p.source =
      "transformers v4.56 trainer.py, loss/loss_utils.py ForCausalLMLoss, utils/quantization_config.py; peft v0.17 "
      "tuners/tuners_utils.py (autocast_adapter_dtype)";
  return p;
}

FrameworkProfile torchtitan_profile() {
  // torchtitan v0.1: FSDP2 with MixedPrecisionPolicy(param_dtype bf16, reduce_dtype fp32):
  // fp32 sharded parameters (the master copy), bf16 gathered units, fp32 gradients.
  FrameworkProfile p;
  p.framework = Framework::torchtitan;
  p.autocast_params = false;
  p.mixed_grad_bytes = 4;
  p.keep_logits = false;
  p.source = "torchtitan v0.1 torchtitan/models/llama3/infra/parallelize.py apply_fsdp (MixedPrecisionPolicy)";
  return p;
}

FrameworkProfile deepspeed_profile() {
  // DeepSpeed v0.16: 16-bit parameters and gradients, fp32 master weights and
  // Adam states in the ZeRO optimizer, a gradient reduction bucket.
  FrameworkProfile p;
  p.framework = Framework::deepspeed;
  p.autocast_params = false;
  p.mixed_grad_bytes = 2;
  p.zero_buckets = true;
  p.source = "deepspeed v0.16 deepspeed/runtime/zero/stage_1_and_2.py, stage3.py, runtime/bf16_optimizer.py";
  return p;
}

FrameworkProfile profile_of(Framework f) {
  switch (f) {
    case Framework::torchtune: return torchtune_profile();
    case Framework::unsloth: return unsloth_profile();
    case Framework::torchtitan: return torchtitan_profile();
    case Framework::deepspeed: return deepspeed_profile();
    case Framework::transformers:
    case Framework::diffusers: return transformers_profile();
  }
  return transformers_profile();
}

}  // namespace vram::training
