// vram-budget inspect FILE... [--json]: model files read from their headers.
// Reads only the byte ranges the header readers ask for (io/headers.hpp).
#include "inspect.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "vram/error.hpp"
#include "vram/io/inspect.hpp"
#include "vram/io/json_read.hpp"
#include "vram/units.hpp"

namespace {

std::string base_name(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

/// The first `n` bytes of an open file.
std::string read_prefix(std::ifstream& f, std::uint64_t n) {
  std::string buf(static_cast<std::size_t>(n), '\0');
  f.seekg(0);
  f.read(buf.data(), static_cast<std::streamsize>(n));
  buf.resize(static_cast<std::size_t>(f.gcount()));
  return buf;
}

/// Reads a header by answering the reader's prefix requests from disk.
vram::io::FileHeader read_file_header(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw vram::InputError(path, "cannot be read");
  const auto size = static_cast<std::uint64_t>(f.tellg());
  std::string prefix;
  for (;;) {
    vram::io::HeaderStep step = vram::io::read_header(base_name(path), prefix, size);
    if (auto* h = std::get_if<vram::io::FileHeader>(&step)) return std::move(*h);
    const std::uint64_t want = std::get<vram::io::PrefixRequest>(step).bytes;
    if (want <= prefix.size() || want > size) throw vram::InputError(path, "the reader asked for an impossible range");
    prefix = read_prefix(f, want);
    if (prefix.size() != want) throw vram::InputError(path, "could not read " + std::to_string(want) + " bytes");
  }
}

std::string whole_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw vram::InputError(path, "cannot be read");
  const auto size = static_cast<std::uint64_t>(f.tellg());
  if (size > vram::io::kMaxHeaderBytes) throw vram::InputError(path, "is larger than 64 MiB: not an index or config file");
  return read_prefix(f, size);
}

void print_text(const nlohmann::json& r) {
  std::cout << "Format: " << r["format"].get<std::string>() << "\n";
  for (const auto& f : r["files"]) {
    std::cout << "  " << f["name"].get<std::string>() << ": " << f["tensors"] << " tensors, "
              << vram::group_thousands(f["tensor_bytes"].get<std::int64_t>()) << " B of tensors; read "
              << vram::group_thousands(f["bytes_read"].get<std::int64_t>()) << " of "
              << vram::group_thousands(f["file_size"].get<std::int64_t>()) << " B\n";
  }
  std::cout << "Tensors: " << r["tensors"] << ", " << vram::group_thousands(r["tensor_bytes"].get<std::int64_t>())
            << " B\n";
  for (const auto& [dtype, bytes] : r["by_dtype"].items())
    std::cout << "  " << dtype << ": " << vram::group_thousands(bytes.get<std::int64_t>()) << " B\n";
  std::cout << "Architecture: " << r["architecture"].dump() << "\n";
  if (r.contains("weights")) std::cout << "Weights: " << r["weights"].get<std::string>() << "\n";
  std::cout << "Model reference: " << r["model"].dump() << "\n";
  for (const auto& n : r["notes"]) std::cout << "note: " << n.get<std::string>() << "\n";
}

}  // namespace

int cmd_inspect(const std::vector<std::string>& files, bool as_json) {
  try {
    vram::io::InspectInput in;
    for (const auto& path : files) {
      const std::string name = base_name(path);
      if (vram::io::is_index_name(name)) {
        in.indexes.push_back(vram::io::read_safetensors_index(name, whole_file(path)));
      } else if (name == "config.json") {
        in.config = vram::io::read_json(whole_file(path), "config.json");
      } else {
        in.files.push_back(read_file_header(path));
      }
    }
    const nlohmann::json r = vram::io::inspect(in);
    if (as_json)
      std::cout << r.dump() << "\n";
    else
      print_text(r);
    return 0;
  } catch (const vram::InputError& e) {
    std::cerr << "vram-budget: " << e.path() << ": " << e.what() << "\n";
    return 2;
  }
}
