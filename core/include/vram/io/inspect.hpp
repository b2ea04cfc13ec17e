// What a set of model files says, from their headers (io/headers.hpp): the
// format, tensors and bytes by dtype, the architecture the tensor names and
// metadata show, and a `model` reference a scenario can use as is (CONTRACT 5).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vram/io/headers.hpp"

namespace vram::io {

struct InspectInput {
  std::vector<FileHeader> files;          ///< safetensors shards or one GGUF file
  std::vector<SafetensorsIndex> indexes;  ///< model.safetensors.index.json (at most one)
  std::optional<nlohmann::json> config;   ///< a config.json given beside the shards
};

/// The inspection report: {"ok": true, "v": 1, "format", "files", "tensors",
/// "tensor_bytes", "by_dtype", "architecture", "model", "weights"?, "notes"}.
/// Throws InputError when the files contradict each other (an index naming a
/// shard that was not given, or a tensor its shard does not hold).
nlohmann::json inspect(const InspectInput& in);

/// One file as far as it has been read: its name, size and first bytes.
struct FilePrefix {
  std::string name;
  std::uint64_t size = 0;
  std::string prefix;
};

/// The inspection of `files` (shards, an index, a config.json or a GGUF file)
/// when every prefix is long enough; otherwise {"ok": true, "need": [{"name",
/// "bytes"}]}: read those prefixes and call again. Index and config files are
/// read whole (at most kMaxHeaderBytes).
nlohmann::json inspect_prefixes(const std::vector<FilePrefix>& files);

/// A Hugging Face-style config.json from a GGUF file's metadata, for the
/// architectures whose keys map one to one; nullopt for the others.
std::optional<nlohmann::json> config_from_gguf(const FileHeader& gguf);

}  // namespace vram::io
