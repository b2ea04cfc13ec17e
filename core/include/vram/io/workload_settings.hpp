// Reading the `training` and `generation` blocks of a scenario (CONTRACT 1.1
// section 1). Every field is checked for type and range; unknown fields are
// named in the warnings; defaults taken are listed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "vram/workloads.hpp"

namespace vram::io {

/// Notes a parse adds to the scenario's report.
struct ParseNotes {
  std::vector<std::string>& defaults_used;
  std::vector<std::string>& warnings;
};

/// The `training` block (absent = every default). `gpus` is hardware.count,
/// which the parallel sizes must divide.
/// `sample`: the model is a diffusion pipeline, whose step is sized by its samples, not seq_len.
TrainingSettings parse_training(const nlohmann::json& scenario, std::int64_t gpus, ParseNotes notes, bool sample = false);

/// The `generation` block; `video` allows (and defaults) frames.
GenerationSettings parse_generation(const nlohmann::json& scenario, bool video, std::int64_t gpus, ParseNotes notes);

}  // namespace vram::io
