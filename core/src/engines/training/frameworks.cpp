// Which profile a scenario's training.framework selects.
#include "vram/engines/training.hpp"

namespace vram::training {

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
