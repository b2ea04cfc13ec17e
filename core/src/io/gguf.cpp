// GGUF v2/v3 headers (io/headers.hpp): magic, version, key/values of every
// value type, tensor infos, alignment. Every length read from the file is
// checked against the bytes the file has left before anything is allocated.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <set>

#include "vram/error.hpp"
#include "vram/formats.hpp"
#include "vram/io/headers.hpp"
#include "vram/io/json_read.hpp"

namespace vram::io {

namespace {

using nlohmann::json;

/// The prefix ran out before the header did: ask for more.
struct NeedMore {};

enum class ValueType : std::uint32_t {
  u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7, string = 8, array = 9, u64 = 10,
  i64 = 11, f64 = 12
};
constexpr std::uint32_t kLastType = 12;
constexpr std::array<std::uint64_t, 13> kScalarBytes{1, 1, 2, 2, 4, 4, 4, 1, 8, 12, 8, 8, 8};  // string/array: minimum
constexpr std::array<std::string_view, 13> kTypeNames{"uint8",  "int8",  "uint16", "int16", "uint32",
                                                      "int32",  "float32", "bool", "string", "array",
                                                      "uint64", "int64", "float64"};
constexpr int kMaxArrayDepth = 3;
constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS

/// Reads little-endian fields from the prefix of a file of `file_size` bytes.
struct Cursor {
  std::string_view buf;
  std::uint64_t file_size;
  std::string_view file;
  std::uint64_t pos = 0;

  /// `n` more bytes are needed for `what`: in the prefix, or ask for more.
  void need(std::uint64_t n, std::string_view what) const {
    if (n > file_size - pos) {
      throw InputError(std::string(file) + ":@" + std::to_string(pos),
                       "the file ends inside " + std::string(what) + " (" + std::to_string(n) + " bytes needed, " +
                           std::to_string(file_size - pos) + " left)");
    }
    if (pos + n > buf.size()) throw NeedMore{};
  }
  std::uint64_t uint(int bytes, std::string_view what) {
    need(static_cast<std::uint64_t>(bytes), what);
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(buf[pos + static_cast<std::uint64_t>(i)]);
    pos += static_cast<std::uint64_t>(bytes);
    return v;
  }
  std::string_view string(std::string_view what) {
    const std::uint64_t n = uint(8, what);
    need(n, what);
    const std::string_view s = buf.substr(pos, n);
    pos += n;
    return s;
  }
  std::string error_at() const { return std::string(file) + ":@" + std::to_string(pos); }
};

json scalar(Cursor& c, ValueType t) {
  switch (t) {
    case ValueType::u8: return c.uint(1, "a uint8");
    case ValueType::i8: return static_cast<std::int8_t>(c.uint(1, "an int8"));
    case ValueType::u16: return c.uint(2, "a uint16");
    case ValueType::i16: return static_cast<std::int16_t>(c.uint(2, "an int16"));
    case ValueType::u32: return c.uint(4, "a uint32");
    case ValueType::i32: return static_cast<std::int32_t>(c.uint(4, "an int32"));
    case ValueType::u64: return c.uint(8, "a uint64");
    case ValueType::i64: return static_cast<std::int64_t>(c.uint(8, "an int64"));
    case ValueType::boolean: return c.uint(1, "a bool") != 0;
    case ValueType::f32: {
      const auto bits = static_cast<std::uint32_t>(c.uint(4, "a float32"));
      float f;
      std::memcpy(&f, &bits, 4);
      return std::isfinite(f) ? json(f) : json(nullptr);
    }
    case ValueType::f64: {
      const std::uint64_t bits = c.uint(8, "a float64");
      double d;
      std::memcpy(&d, &bits, 8);
      return std::isfinite(d) ? json(d) : json(nullptr);
    }
    default: return nullptr;
  }
}

ValueType value_type(Cursor& c, std::string_view what) {
  const std::uint64_t t = c.uint(4, what);
  if (t > kLastType) {
    throw InputError(c.error_at(), "unknown GGUF value type " + std::to_string(t) + " in " + std::string(what) +
                                       "; allowed: 0 to 12 (uint8 … float64)");
  }
  return static_cast<ValueType>(t);
}

json value(Cursor& c, ValueType t, int depth);

/// An array: short ones are kept, long ones summarised (type, count).
json array(Cursor& c, int depth) {
  if (depth >= kMaxArrayDepth) {
    throw InputError(c.error_at(), "arrays nested deeper than " + std::to_string(kMaxArrayDepth) + " levels");
  }
  const ValueType et = value_type(c, "an array's element type");
  const std::uint64_t n = c.uint(8, "an array's length");
  const std::uint64_t min = kScalarBytes[static_cast<std::size_t>(et)];
  if (n > (c.file_size - c.pos) / min) {
    throw InputError(c.error_at(), "an array of " + std::to_string(n) + " " +
                                       std::string(kTypeNames[static_cast<std::size_t>(et)]) +
                                       " values cannot fit in the bytes the file has left");
  }
  const bool keep = n <= 16;
  json out = json::array();
  for (std::uint64_t i = 0; i < n; ++i) {
    json v = value(c, et, depth + 1);
    if (keep) out.push_back(std::move(v));
  }
  if (keep) return out;
  return json{{"type", kTypeNames[static_cast<std::size_t>(et)]}, {"count", n}};
}

json value(Cursor& c, ValueType t, int depth) {
  if (t == ValueType::array) return array(c, depth);
  if (t != ValueType::string) return scalar(c, t);
  const std::string_view s = c.string("a string value");
  if (s.size() > 1024 || first_invalid_utf8(s)) return json{{"type", "string"}, {"bytes", s.size()}};
  return std::string(s);
}

void read_kv(Cursor& c, std::uint64_t count, FileHeader& h) {
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string_view key = c.string("a key");
    if (key.empty() || first_invalid_utf8(key)) throw InputError(c.error_at(), "a key must be non-empty UTF-8");
    const std::string k(key);
    if (h.metadata.contains(k)) throw InputError(std::string(c.file) + ":" + k, "the key appears twice");
    h.metadata[k] = value(c, value_type(c, "the type of " + k), 0);
  }
}

TensorHeader read_tensor_info(Cursor& c) {
  TensorHeader t;
  const std::string_view name = c.string("a tensor name");
  if (name.empty() || name.size() >= 64 || first_invalid_utf8(name)) {
    throw InputError(c.error_at(), "a tensor name must be 1 to 63 bytes of UTF-8 (GGML_MAX_NAME 64)");
  }
  t.name = std::string(name);
  const std::string at = std::string(c.file) + ":" + t.name;
  const std::uint64_t dims = c.uint(4, "a tensor's dimension count");
  if (dims == 0 || dims > kMaxDims) throw InputError(at, "has " + std::to_string(dims) + " dimensions; allowed: 1 to 4");
  for (std::uint64_t d = 0; d < dims; ++d) {
    const std::uint64_t ne = c.uint(8, "a tensor dimension");
    if (ne > (std::uint64_t{1} << 53)) throw InputError(at, "dimension " + std::to_string(ne) + " exceeds 2^53");
    t.shape.push_back(static_cast<std::int64_t>(ne));
  }
  const std::uint64_t type = c.uint(4, "a tensor type");
  const GgmlType* g = ggml_type_by_id(static_cast<std::int64_t>(type));
  if (g == nullptr) throw InputError(at, "unknown GGML type id " + std::to_string(type));
  t.dtype = g->name;
  t.offset = c.uint(8, "a tensor offset");
  if (t.shape[0] % g->block_elems != 0) {
    throw InputError(at, "ne[0] = " + std::to_string(t.shape[0]) + " is not a multiple of " + g->name +
                             "'s block of " + std::to_string(g->block_elems));
  }
  try {
    std::int64_t rows = 1;
    for (std::size_t d = 1; d < t.shape.size(); ++d) rows = checked::mul(rows, t.shape[d]);
    t.bytes = Bytes::of(checked::mul(checked::mul(t.shape[0] / g->block_elems, g->block_bytes), rows));
  } catch (const ArithmeticOverflow&) {
    throw InputError(at, "the tensor's size overflows 64 bits");
  }
  return t;
}

/// Offsets aligned, inside the data section, not overlapping.
void check_layout(FileHeader& h, std::uint64_t align) {
  const std::uint64_t data = h.file_size - h.data_offset;
  std::vector<const TensorHeader*> by_offset;
  for (const auto& t : h.tensors) by_offset.push_back(&t);
  std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
  std::uint64_t end = 0;
  for (const TensorHeader* t : by_offset) {
    const std::string at = h.name + ":" + t->name;
    const auto bytes = static_cast<std::uint64_t>(t->bytes.in_bytes());
    if (t->offset % align != 0) throw InputError(at, "offset " + std::to_string(t->offset) + " is not aligned to " + std::to_string(align));
    if (t->offset < end) throw InputError(at, "overlaps the tensor before it");
    if (t->offset > data || bytes > data - t->offset) {
      throw InputError(at, "runs past the end of the file (offset " + std::to_string(t->offset) + " + " +
                               std::to_string(bytes) + " B > " + std::to_string(data) + " B of data)");
    }
    end = t->offset + bytes;
  }
}

std::uint64_t alignment(const FileHeader& h) {
  const auto it = h.metadata.find("general.alignment");
  if (it == h.metadata.end()) return 32;  // GGUF_DEFAULT_ALIGNMENT
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() == 0 || it->get<std::uint64_t>() > (1u << 20) ||
      (it->get<std::uint64_t>() & (it->get<std::uint64_t>() - 1)) != 0) {
    throw InputError(h.name + ":general.alignment", "must be a power of two from 1 to 2^20");
  }
  return it->get<std::uint64_t>();
}

FileHeader parse(Cursor& c) {
  FileHeader h;
  h.format = FileFormat::gguf;
  h.name = std::string(c.file);
  h.file_size = c.file_size;
  c.need(4, "the magic");
  if (c.buf.substr(0, 4) != "GGUF") throw InputError(c.error_at(), "does not start with the GGUF magic");
  c.pos = 4;
  h.gguf_version = static_cast<std::int64_t>(c.uint(4, "the version"));
  if (h.gguf_version != 2 && h.gguf_version != 3) {
    throw InputError(h.name + ":version", "GGUF version " + std::to_string(h.gguf_version) + "; supported: 2 and 3");
  }
  const std::uint64_t tensors = c.uint(8, "the tensor count");
  const std::uint64_t kvs = c.uint(8, "the key/value count");
  // Each key/value takes at least 8 + 1 + 4 + 1 bytes, each tensor info 8 + 1 + 4 + 8 + 4 + 8.
  if (kvs > c.file_size / 14 || tensors > c.file_size / 33) {
    throw InputError(h.name, std::to_string(tensors) + " tensors and " + std::to_string(kvs) +
                                 " key/values cannot fit in a file of " + std::to_string(c.file_size) + " bytes");
  }
  read_kv(c, kvs, h);
  std::set<std::string> names;
  for (std::uint64_t i = 0; i < tensors; ++i) {
    h.tensors.push_back(read_tensor_info(c));
    if (!names.insert(h.tensors.back().name).second) throw InputError(h.name + ":" + h.tensors.back().name, "the tensor appears twice");
  }
  const std::uint64_t align = alignment(h);
  h.data_offset = (c.pos + align - 1) / align * align;
  h.bytes_read = c.buf.size();
  if (h.data_offset > h.file_size) throw InputError(h.name, "the data section begins past the end of the file");
  check_layout(h, align);
  return h;
}

}  // namespace

HeaderStep read_gguf_header(std::string_view name, std::string_view prefix, std::uint64_t file_size) {
  const std::uint64_t want = std::min<std::uint64_t>(file_size, kMaxHeaderBytes);
  const std::uint64_t first = std::min<std::uint64_t>(want, 64 * 1024);
  if (prefix.size() < first) return PrefixRequest{first};
  Cursor c{prefix, file_size, name};
  try {
    return parse(c);
  } catch (const NeedMore&) {
    if (prefix.size() >= want) {
      throw InputError(std::string(name), "the header is larger than " + std::to_string(kMaxHeaderBytes) + " bytes");
    }
    return PrefixRequest{std::min<std::uint64_t>(want, std::max<std::uint64_t>(prefix.size() * 2, 64 * 1024))};
  }
}

HeaderStep read_safetensors_header(std::string_view name, std::string_view prefix, std::uint64_t file_size);

HeaderStep read_header(std::string_view name, std::string_view prefix, std::uint64_t file_size) {
  // A GGUF file is told by its magic; anything else is read as safetensors.
  if (prefix.size() < std::min<std::uint64_t>(file_size, 8)) return PrefixRequest{std::min<std::uint64_t>(file_size, 8)};
  if (prefix.substr(0, 4) == "GGUF") return read_gguf_header(name, prefix, file_size);
  return read_safetensors_header(name, prefix, file_size);
}

}  // namespace vram::io
