// Decompressing a raw DEFLATE stream (RFC 1951), as the build writes the
// embedded catalog: the module carries 65 KB of compressed text instead of
// 307 KB of JSON.
//
// The decoder is bounded: it stops with an `InputError` (at `path`) on a
// stream that ends early, on a code or distance the format does not allow, on
// a back-reference before the start of the output, and on output that would
// exceed `max_size`. It never reads past `in` nor writes past `max_size` bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace vram::io {

/// The bytes a raw DEFLATE stream (no zlib or gzip header) decompresses to.
std::string inflate_raw(std::span<const std::uint8_t> in, std::size_t max_size, const std::string& path);

}  // namespace vram::io
