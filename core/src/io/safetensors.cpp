// safetensors headers and model.safetensors.index.json files (io/headers.hpp).
#include <algorithm>
#include <cstring>

#include "vram/error.hpp"
#include "vram/formats.hpp"
#include "vram/io/headers.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_read.hpp"

namespace vram::io {

namespace {

using nlohmann::json;

std::uint64_t le64(std::string_view b) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(i)]);
  return v;
}

/// "file:/pointer", or the file alone for the whole header.
std::string where(std::string_view file, const std::string& pointer) {
  return pointer.empty() ? std::string(file) : std::string(file) + ":" + pointer;
}

/// shape: an array of at most 8 non-negative integers.
std::vector<std::int64_t> read_shape(const json& t, const std::string& path) {
  const auto it = t.find("shape");
  if (it == t.end() || !it->is_array() || it->size() > 8) {
    throw InputError(path + "/shape", "must be an array of at most 8 dimensions");
  }
  std::vector<std::int64_t> shape;
  for (const json& d : *it) {
    if (!d.is_number_unsigned() || d.get<std::uint64_t>() > (std::uint64_t{1} << 53)) {
      throw InputError(path + "/shape", "dimensions must be integers from 0 to 2^53; got " + describe_value(d));
    }
    shape.push_back(d.get<std::int64_t>());
  }
  return shape;
}

/// data_offsets [begin, end]: begin ≤ end ≤ the byte buffer after the header.
std::pair<std::uint64_t, std::uint64_t> read_offsets(const json& t, const std::string& path, std::uint64_t data) {
  const auto it = t.find("data_offsets");
  if (it == t.end() || !it->is_array() || it->size() != 2 || !(*it)[0].is_number_unsigned() ||
      !(*it)[1].is_number_unsigned()) {
    throw InputError(path + "/data_offsets", "must be [begin, end], two non-negative integers");
  }
  const auto b = (*it)[0].get<std::uint64_t>(), e = (*it)[1].get<std::uint64_t>();
  if (b > e || e > data) {
    throw InputError(path + "/data_offsets", "[" + std::to_string(b) + ", " + std::to_string(e) +
                                                 "] must satisfy begin ≤ end ≤ " + std::to_string(data) +
                                                 " (the bytes after the header)");
  }
  return {b, e};
}

TensorHeader read_tensor(const std::string& key, const json& t, const std::string& path, std::uint64_t data) {
  if (!t.is_object()) throw InputError(path, "must be an object {dtype, shape, data_offsets}");
  TensorHeader th;
  th.name = key;
  const auto dt = t.find("dtype");
  if (dt == t.end() || !dt->is_string()) throw InputError(path + "/dtype", "must be a dtype name such as \"BF16\"");
  th.dtype = dt->get<std::string>();
  const std::int64_t bits = safetensors_dtype_bits(th.dtype, path + "/dtype");
  th.shape = read_shape(t, path);
  const auto [b, e] = read_offsets(t, path, data);
  th.offset = b;
  try {
    std::int64_t elems = 1;
    for (std::int64_t d : th.shape) elems = checked::mul(elems, d);
    const std::int64_t total_bits = checked::mul(elems, bits);
    th.bytes = Bytes::of(checked::ceil_div(total_bits, 8));
  } catch (const ArithmeticOverflow&) {
    throw InputError(path + "/shape", "the element count overflows 64 bits");
  }
  if (static_cast<std::uint64_t>(th.bytes.in_bytes()) != e - b) {
    throw InputError(path, "shape × dtype is " + std::to_string(th.bytes.in_bytes()) + " B but data_offsets span " +
                               std::to_string(e - b) + " B");
  }
  return th;
}

/// The byte buffer must be covered exactly: no gap, no overlap (the format's rule).
void check_coverage(std::vector<TensorHeader>& ts, std::uint64_t data, std::string_view file) {
  std::sort(ts.begin(), ts.end(), [](const auto& a, const auto& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.bytes < b.bytes;
  });
  std::uint64_t at = 0;
  for (const auto& t : ts) {
    if (t.offset != at) {
      throw InputError(where(file, "/" + t.name + "/data_offsets"),
                       t.offset < at ? "overlaps the tensor before it (begins at " + std::to_string(t.offset) +
                                           ", the previous one ends at " + std::to_string(at) + ")"
                                     : "leaves a gap: bytes " + std::to_string(at) + " to " +
                                           std::to_string(t.offset) + " belong to no tensor");
    }
    at += static_cast<std::uint64_t>(t.bytes.in_bytes());
  }
  if (at != data) {
    throw InputError(where(file, ""), "the tensors cover " + std::to_string(at) + " B of the " +
                                          std::to_string(data) + " B after the header");
  }
}

void read_metadata(const json& m, const std::string& path, FileHeader& h) {
  if (!m.is_object()) throw InputError(path, "must be an object of strings");
  for (const auto& [k, v] : m.items()) {
    if (!v.is_string()) throw InputError(join_path(path, k), "must be a string; got " + describe_value(v));
  }
  h.metadata = m;
}

FileHeader parse_header(std::string_view name, std::string_view text, std::uint64_t file_size) {
  FileHeader h;
  h.format = FileFormat::safetensors;
  h.name = std::string(name);
  h.file_size = file_size;
  h.bytes_read = 8 + text.size();
  h.data_offset = 8 + text.size();
  ReadLimits limits;
  limits.max_bytes = text.size();
  limits.max_depth = 8;
  json doc;
  try {
    doc = read_json(text, "the header", limits);
  } catch (const InputError& e) {
    throw InputError(where(name, e.path()), e.what());
  }
  if (!doc.is_object()) throw InputError(where(name, ""), "the header must be a JSON object");
  const std::uint64_t data = file_size - h.data_offset;
  for (const auto& [key, t] : doc.items()) {
    const std::string path = where(name, join_path("", key));
    if (key == "__metadata__") {
      read_metadata(t, path, h);
    } else {
      h.tensors.push_back(read_tensor(key, t, path, data));
    }
  }
  check_coverage(h.tensors, data, name);
  return h;
}

}  // namespace

HeaderStep read_safetensors_header(std::string_view name, std::string_view prefix, std::uint64_t file_size) {
  if (file_size < 8) {
    throw InputError(where(name, ""), "is " + std::to_string(file_size) +
                                          " bytes; a safetensors file starts with an 8-byte header length");
  }
  if (prefix.size() < 8) return PrefixRequest{8};
  const std::uint64_t n = le64(prefix);
  if (n < 2 || n > kMaxHeaderBytes) {
    throw InputError(where(name, ""), "header length " + std::to_string(n) + " is outside 2 to " +
                                          std::to_string(kMaxHeaderBytes) + " bytes");
  }
  if (n > file_size - 8) {
    throw InputError(where(name, ""), "header length " + std::to_string(n) + " runs past the end of the file (" +
                                          std::to_string(file_size) + " bytes)");
  }
  if (prefix.size() < 8 + n) return PrefixRequest{8 + n};
  std::string_view text = prefix.substr(8, n);
  // The format allows trailing spaces to align the data.
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return parse_header(name, text, file_size);
}

bool is_index_name(std::string_view name) {
  constexpr std::string_view tail = ".index.json";
  return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
}

SafetensorsIndex read_safetensors_index(std::string_view name, std::string_view text) {
  ReadLimits limits;
  limits.max_bytes = kMaxHeaderBytes;
  limits.max_depth = 8;
  const json doc = read_json(text, std::string(name), limits);
  if (!doc.is_object()) throw InputError(where(name, ""), "must be a JSON object with weight_map");
  SafetensorsIndex idx;
  idx.name = std::string(name);
  if (const auto m = doc.find("metadata"); m != doc.end() && m->is_object()) {
    idx.total_size = optional_int(*m, "total_size", where(name, "/metadata"), {0, std::int64_t{1} << 53});
  }
  const auto wm = doc.find("weight_map");
  if (wm == doc.end() || !wm->is_object() || wm->empty()) {
    throw InputError(where(name, "/weight_map"), "must be an object of tensor name → shard file name");
  }
  for (const auto& [tensor, shard] : wm->items()) {
    if (!shard.is_string() || shard.get<std::string>().empty()) {
      throw InputError(where(name, join_path("/weight_map", tensor)), "must be a shard file name");
    }
    idx.weight_map.emplace_back(tensor, shard.get<std::string>());
  }
  return idx;
}

}  // namespace vram::io
