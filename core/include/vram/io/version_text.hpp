// Reading a version text: major.minor[.patch] and a pre-release or local
// suffix, shared by the engine ladders (vLLM, transformers).
#pragma once

#include <optional>
#include <string_view>

namespace vram::io {

struct VersionText {
  int major = 0, minor = 0, patch = 0;
};
/// "4.46.3", "v4.36", "0.15.2rc1", "4.57.0.dev0"; nullopt when it is not a version
/// ("latest", "4", "4.x", "4.40 beta").
std::optional<VersionText> read_version(std::string_view text);

}  // namespace vram::io
