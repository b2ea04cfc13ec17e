// What each training switch buys: the scenario re-estimated with one setting
// changed (checkpointing, activation offload, chunked loss, an 8-bit optimizer,
// LoRA / QLoRA, optimizer-in-backward, ZeRO-3), figures only.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "vram/scenario.hpp"

namespace vram {

class WeightsMemo;

/// One switch and what the step would need with it.
struct TrainingSwitch {
  std::string_view path;   ///< the setting, as a JSON pointer ("/training/checkpointing")
  std::string_view value;  ///< the value it takes ("full"); a literal
  Bytes peak_reserved;     ///< peak_reserved_bytes with it
  Bytes total;             ///< the budget per GPU with it
  bool fits = false;
};

/// The switches that apply to `s` (not already on), each estimated once.
std::vector<TrainingSwitch> training_switches(const Scenario& s, WeightsMemo* memo = nullptr);

}  // namespace vram
