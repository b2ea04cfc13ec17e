// vram-budget inspect FILE... [--json]: model files read from their headers.
// Reads only the byte ranges the header readers ask for (io/headers.hpp).
#include "inspect.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "vram/error.hpp"
#include "vram/io/inspect.hpp"
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

std::uint64_t file_size(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw vram::InputError(path, "cannot be read");
  return static_cast<std::uint64_t>(f.tellg());
}

/// Answers the readers' prefix requests from disk until the inspection is complete.
nlohmann::json inspect_from_disk(const std::vector<std::string>& paths) {
  std::vector<vram::io::FilePrefix> files;
  for (const auto& p : paths) files.push_back({base_name(p), file_size(p), std::string()});
  for (;;) {
    nlohmann::json r = vram::io::inspect_prefixes(files);
    if (!r.contains("need")) return r;
    for (const auto& n : r["need"]) {
      for (std::size_t i = 0; i < files.size(); ++i) {
        const auto want = n["bytes"].get<std::uint64_t>();
        if (files[i].name != n["name"].get<std::string>()) continue;
        if (want <= files[i].prefix.size() || want > files[i].size)
          throw vram::InputError(paths[i], "the reader asked for an impossible range");
        std::ifstream f(paths[i], std::ios::binary);
        files[i].prefix = read_prefix(f, want);
        if (files[i].prefix.size() != want) throw vram::InputError(paths[i], "could not be read in full");
      }
    }
  }
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
    const nlohmann::json r = inspect_from_disk(files);
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
