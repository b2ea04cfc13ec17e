// Fuzz target: the input bytes are a raw DEFLATE stream for `inflate_raw`, the
// decoder the embedded catalog goes through. Each input either inflates to at
// most the stated size or is refused with an `InputError` at the given path;
// nothing else may escape, and no sanitizer may report.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "vram/error.hpp"
#include "vram/io/inflate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kMax = std::size_t{1} << 20;
  const std::string path = "/fuzz";
  try {
    const std::string out = vram::io::inflate_raw(std::span<const std::uint8_t>(data, size), kMax, path);
    if (out.size() > kMax) std::abort();
  } catch (const vram::InputError& e) {
    if (e.path() != path) std::abort();
  }
  return 0;
}
