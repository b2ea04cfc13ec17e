// The Hugging Face profile (Trainer, TRL, PEFT, accelerate).
#include "vram/engines/training.hpp"

namespace vram::training {

FrameworkProfile transformers_profile() {
  // transformers v4.56 Trainer: bf16/fp16 = torch.autocast over fp32 parameters
  // (fp32 gradients and optimizer states); the loss upcasts logits to fp32
  // (loss/loss_utils.py ForCausalLMLoss) while the model output keeps them;
  // PEFT v0.17 casts adapters to fp32 (autocast_adapter_dtype=True); QLoRA via
  // BitsAndBytesConfig, whose bnb_4bit_use_double_quant defaults to False;
  // chunked_loss = Liger's fused linear cross-entropy (use_liger_kernel), which
  // computes logits and their gradient chunk by chunk inside the forward and
  // never keeps the full logits (liger-kernel v0.5 ops/fused_linear_cross_entropy.py).
  FrameworkProfile p;
  p.framework = Framework::transformers;
  p.fp32_adapters = true;
  p.nf4_double_quant = false;
  p.keep_logits = true;
  p.chunked_loss = LossKind::cut;
  p.adamw_impl_source = "transformers v4.56 training_args.py: optim defaults to adamw_torch_fused with PyTorch 2.8 or later (adamw_torch, foreach, before it)";
  p.source =
      "transformers v4.56 trainer.py, loss/loss_utils.py ForCausalLMLoss, utils/quantization_config.py; peft v0.17 "
      "tuners/tuners_utils.py (autocast_adapter_dtype); liger-kernel v0.5 fused_linear_cross_entropy";
  return p;
}

}  // namespace vram::training
