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

std::string dir_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

/// The names the readers see: the file names, with their folder
/// ("transformer/diffusion_pytorch_model.safetensors") when the files come
/// from several folders (a diffusers pipeline's components).
std::vector<std::string> reader_names(const std::vector<std::string>& paths) {
  bool one_dir = true;
  for (const auto& p : paths) one_dir = one_dir && dir_name(p) == dir_name(paths.front());
  std::vector<std::string> names;
  for (const auto& p : paths) {
    const std::string dir = dir_name(p);
    names.push_back(one_dir || dir.empty() ? base_name(p) : base_name(dir) + "/" + base_name(p));
  }
  return names;
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
  const std::vector<std::string> names = reader_names(paths);
  for (std::size_t i = 0; i < paths.size(); ++i) files.push_back({names[i], file_size(paths[i]), std::string()});
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
