// Fuzz target: inspect_prefixes (core/src/io/inspect.cpp) on a set of files
// cut from the input, the way the page and the CLI hand them over. The input
// is split at each "\nFILE\n"; the pieces are named in turn config.json,
// model.safetensors.index.json, model_index.json, transformer/a.safetensors,
// vae/b.safetensors, c.gguf, text_encoder/config.json, ... so indexes, configs,
// pipeline folders and GGUF meet each other. Invariants: every request is for
// more of a file than was given and no more than it has; the loop ends; the
// answer is an inspection whose byte totals are the sum of its files'; anything
// else is an InputError.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "checks.hpp"
#include "vram/error.hpp"
#include "vram/io/inspect.hpp"

namespace {

using vram::fuzz::require;

constexpr const char* kWhere = "inspect_prefixes";
constexpr std::array<std::string_view, 8> kNames{
    "config.json",       "model.safetensors.index.json", "model_index.json",        "transformer/a.safetensors",
    "vae/b.safetensors", "c.gguf",                       "text_encoder/config.json", "model-00002-of-00002.safetensors"};

std::vector<std::string> split_files(std::string_view data) {
  std::vector<std::string> out;
  constexpr std::string_view kCut = "\nFILE\n";
  while (out.size() + 1 < kNames.size()) {
    const auto at = data.find(kCut);
    if (at == std::string_view::npos) break;
    out.emplace_back(data.substr(0, at));
    data.remove_prefix(at + kCut.size());
  }
  out.emplace_back(data);
  return out;
}

void check_answer(const nlohmann::json& r) {
  require(r.is_object() && r.value("ok", false), kWhere, "an answer that is not an inspection");
  std::int64_t sum = 0;
  for (const auto& f : r.at("files")) sum += f.at("tensor_bytes").get<std::int64_t>();
  require(sum == r.at("tensor_bytes").get<std::int64_t>(), kWhere, "tensor_bytes is not the sum of the files'");
  (void)r.dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> bytes = split_files(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<vram::io::FilePrefix> files;
  for (std::size_t i = 0; i < bytes.size(); ++i) files.push_back({std::string(kNames[i]), bytes[i].size(), {}});
  try {
    for (int round = 0; round < 64; ++round) {
      const nlohmann::json r = vram::io::inspect_prefixes(files);
      if (!r.contains("need")) return check_answer(r), 0;
      for (const auto& need : r.at("need")) {
        const auto want = need.at("bytes").get<std::uint64_t>();
        bool known = false;
        for (std::size_t i = 0; i < files.size(); ++i) {
          if (files[i].name != need.at("name").get<std::string>()) continue;
          known = true;
          require(want > files[i].prefix.size() && want <= files[i].size, kWhere, "a request for an impossible prefix");
          files[i].prefix = bytes[i].substr(0, static_cast<std::size_t>(want));
        }
        require(known, kWhere, "a request for a file that was not given");
      }
    }
    require(false, kWhere, "the reader never finished");
  } catch (const vram::InputError&) {
  }
  return 0;
}
