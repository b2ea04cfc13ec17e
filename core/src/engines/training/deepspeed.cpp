// The DeepSpeed profile (ZeRO stages over the data-parallel group).
#include "vram/engines/training.hpp"

namespace vram::training {

FrameworkProfile deepspeed_profile() {
  // DeepSpeed v0.16: 16-bit parameters and gradients, fp32 master weights and
  // Adam states in the ZeRO optimizer, a gradient reduction bucket.
  FrameworkProfile p;
  p.framework = Framework::deepspeed;
  p.mixed_grad_bytes = 2;
  p.zero_buckets = true;
  // v0.19.6: optimizer type "Muon" (MuonWithAuxAdam) inside the ZeRO optimizer, ns_method "gram" by default.
  p.muon = NewtonSchulz::gram;
  p.adamw_impl_source = "deepspeed v0.16 ops/adam/fused_adam.py FusedAdam for optimizer type Adam/AdamW (torch_adam: false)";
  p.source = "deepspeed v0.16 deepspeed/runtime/zero/stage_1_and_2.py, stage3.py, runtime/bf16_optimizer.py";
  return p;
}

}  // namespace vram::training
