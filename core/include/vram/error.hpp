// The one error type the core throws for bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace vram {

/// Bad input: names the offending field as a JSON pointer (`/inference/context`)
/// and says what is allowed. Faces turn it into exit status 2 (CLI) or
/// `{"ok": false, "error": {"path", "message"}}` (wasm).
class InputError : public std::invalid_argument {
 public:
  InputError(std::string path, const std::string& message) : std::invalid_argument(message), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace vram
