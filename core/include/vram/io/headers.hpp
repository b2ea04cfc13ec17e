// Model files read from their headers only: safetensors (one file or shards
// with their model.safetensors.index.json) and GGUF v2/v3.
//
// A reader never touches tensor data. It is handed the first bytes of a file
// of known size and either answers or asks for a longer prefix, so the same
// code serves the CLI (reading from disk) and the page (File.slice()):
//
//   safetensors  asks for 8 bytes (the little-endian header length N), then for
//                8 + N: it reads exactly the header and the 8 bytes before it.
//   GGUF         asks for 64 KiB, then doubles the prefix until the metadata and
//                tensor infos are inside it: at most twice the header.
//
// Nothing larger than kMaxHeaderBytes is ever asked for.
//
// Sources: huggingface/safetensors README "Format" (v0.4: 8-byte LE u64 header
// size, JSON header {name: {dtype, shape, data_offsets}}, optional
// "__metadata__" string map, offsets relative to the byte buffer after the
// header); ggml-org/ggml docs/gguf.md and ggml-org/llama.cpp @ 00342301d01a
// ggml/src/gguf.cpp (magic "GGUF", version, u64 tensor and key/value counts,
// typed values, tensor infos, general.alignment, default 32).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "vram/units.hpp"

namespace vram::io {

/// The largest prefix a reader asks for: 64 MiB (a safetensors header of a
/// large MoE shard is well under 1 MiB; GGUF tokenizer arrays a few MiB).
inline constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t{64} << 20;

/// "Give me the first `bytes` bytes of the file" (never more than its size).
struct PrefixRequest {
  std::uint64_t bytes = 0;
};

enum class FileFormat : std::uint8_t { safetensors, gguf };

/// One tensor as the header describes it.
struct TensorHeader {
  std::string name;
  std::string dtype;               ///< safetensors dtype ("BF16") or GGML type ("Q4_K")
  std::vector<std::int64_t> shape;  ///< as stored (GGUF: ne[0] first)
  std::uint64_t offset = 0;         ///< from the start of the data section
  Bytes bytes;
};

/// What a file's header says.
struct FileHeader {
  FileFormat format = FileFormat::safetensors;
  std::string name;
  std::uint64_t file_size = 0;
  std::uint64_t bytes_read = 0;  ///< the prefix the reader needed
  std::uint64_t data_offset = 0;  ///< where tensor data begins
  std::vector<TensorHeader> tensors;
  /// safetensors "__metadata__" (strings), or GGUF key/values (arrays longer
  /// than 16 entries are summarised as {"type", "count"}).
  nlohmann::json metadata = nlohmann::json::object();
  std::int64_t gguf_version = 0;
};

using HeaderStep = std::variant<FileHeader, PrefixRequest>;

/// Reads the header of `name` from `prefix`, the first bytes of a file of
/// `file_size` bytes. Start with an empty prefix. Throws InputError naming
/// the file and the field (or byte offset) for a file that is not valid.
HeaderStep read_header(std::string_view name, std::string_view prefix, std::uint64_t file_size);

/// A `model.safetensors.index.json`: which shard holds each tensor.
struct SafetensorsIndex {
  std::string name;
  std::optional<std::int64_t> total_size;  ///< metadata.total_size
  std::vector<std::pair<std::string, std::string>> weight_map;  ///< tensor → shard file name
};

/// Parses an index file (JSON text, at most kMaxHeaderBytes).
SafetensorsIndex read_safetensors_index(std::string_view name, std::string_view text);

/// Whether `name` looks like an index file (ends in ".index.json").
bool is_index_name(std::string_view name);

}  // namespace vram::io
