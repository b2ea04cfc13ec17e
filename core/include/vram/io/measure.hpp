// How to measure a scenario, as the article asks: the exact `vllm serve` or
// `llama-server` command line for its settings, or a short PyTorch script that
// runs one representative step (transformers inference, a training step, a
// diffusers pipeline call) and prints peak allocated and reserved memory; with
// the output lines that correspond to the report's metrics (CONTRACT section 3).
#pragma once

#include <string>

#include "vram/scenario.hpp"

namespace vram::io {

/// {"kind": "command" | "script", "text", "look_for": [{"metric", "line"}], "note"} as JSON text.
std::string measure_json(const Scenario& s);

}  // namespace vram::io
