// The torchtitan profile (FSDP2 with a mixed-precision policy).
#include "vram/engines/training.hpp"

namespace vram::training {

FrameworkProfile torchtitan_profile() {
  // torchtitan v0.1: FSDP2 with MixedPrecisionPolicy(param_dtype bf16, reduce_dtype fp32):
  // fp32 sharded parameters (the master copy), bf16 gathered units, fp32 gradients.
  FrameworkProfile p;
  p.framework = Framework::torchtitan;
  p.mixed_grad_bytes = 4;
  p.keep_logits = false;
  // selective_ac_option "op" in the llama3 configs: the op-level policy.
  p.selective = SelectiveKind::every_other_matmul;
  // apply_tp: SequenceParallel on the norms, the blocks' inputs and outputs Shard(1) (the sequence).
  p.tp_sequence_parallel = true;
  // @b5bcd76: optimizer "DistMuon" on the matrices (torch.optim.Muon's update, whole matrices), AdamW beside it.
  p.muon = NewtonSchulz::quintic;
  p.adamw_impl_source = "torchtitan @b5bcd76 config/job_config.py Optimizer.implementation = \"fused\"";
  p.source =
      "torchtitan v0.1 torchtitan/models/llama3/infra/parallelize.py apply_fsdp (MixedPrecisionPolicy); "
      "torchtitan @e7c0cae torchtitan/models/llama3/train_configs/*.toml (activation_checkpoint mode selective, "
      "selective_ac_option op), models/llama3/parallelize_llama.py apply_tp (SequenceParallel, Shard(1))";
  return p;
}

}  // namespace vram::training
