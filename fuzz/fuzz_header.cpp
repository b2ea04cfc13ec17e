// Fuzz target: the safetensors and GGUF header readers (core/src/io/
// safetensors.cpp, gguf.cpp) on arbitrary bytes, driven the way the CLI and
// the page drive them. Invariants: every request asks for more than was given
// and no more than the file has; a header that is accepted lies inside the
// file (tensors within the data section, what was read within the size);
// anything else is an InputError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.hpp"
#include "vram/error.hpp"
#include "vram/io/headers.hpp"
#include "vram/io/inspect.hpp"

namespace {

using vram::fuzz::require;

constexpr const char* kWhere = "read_header";

void check_header(const vram::io::FileHeader& h, std::uint64_t size, std::uint64_t given) {
  require(h.bytes_read <= given && h.data_offset <= size, kWhere, "the header claims bytes beyond what it was given");
  for (const auto& t : h.tensors) {
    const auto bytes = static_cast<std::uint64_t>(t.bytes.in_bytes());
    require(t.bytes.in_bytes() >= 0 && t.offset <= size - h.data_offset && bytes <= size - h.data_offset - t.offset,
            kWhere, "an accepted tensor lies outside the file");
  }
  (void)vram::io::inspect({{h}, {}, std::nullopt}).dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string file(reinterpret_cast<const char*>(data), size);
  const std::string name = "model.bin";  // the readers go by the bytes (the GGUF magic), not the name
  std::string prefix;
  try {
    for (int step = 0; step < 64; ++step) {
      vram::io::HeaderStep s = vram::io::read_header(name, prefix, size);
      if (auto* h = std::get_if<vram::io::FileHeader>(&s)) {
        check_header(*h, size, prefix.size());
        return 0;
      }
      const std::uint64_t want = std::get<vram::io::PrefixRequest>(s).bytes;
      require(want > prefix.size() && want <= size, kWhere, "a request for an impossible prefix");
      prefix = file.substr(0, static_cast<std::size_t>(want));
    }
    require(false, kWhere, "the reader never finished");
  } catch (const vram::InputError&) {
  }
  return 0;
}
