// The torchtune profile: what its recipes do by default.
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
  p.mixed_grad_bytes = 4;  // FSDP2 MixedPrecisionPolicy reduce_dtype fp32
  p.fp32_adapters = false;
  p.nf4_double_quant = true;
  p.keep_logits = false;
  p.chunked_loss = LossKind::chunked;
  p.loss_chunks = 8;
  p.adamw_impl_source = "torchtune's recipe configs: torch.optim.AdamW with fused: True";
  p.source =
      "torchtune v0.6.1 recipes/{full_finetune,lora_finetune}_{single_device,distributed}.py, "
      "modules/loss/ce_chunked_output_loss.py, modules/peft/lora.py, training/_activation_offloading.py";
  return p;
}

}  // namespace vram::training
