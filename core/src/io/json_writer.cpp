#include "vram/io/json_writer.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "vram/units.hpp"

namespace vram::io {

using namespace std::string_view_literals;

namespace {

constexpr char kHex[] = "0123456789abcdef";

/// Writes \uXXXX for a UTF-16 unit at e; answers the end.
char* write_u_escape(char* e, std::uint32_t unit) {
  e[0] = '\\';
  e[1] = 'u';
  e[2] = kHex[(unit >> 12) & 15];
  e[3] = kHex[(unit >> 8) & 15];
  e[4] = kHex[(unit >> 4) & 15];
  e[5] = kHex[unit & 15];
  return e + 6;
}

void append_u_escape(TextBuffer& out, std::uint32_t unit) {
  out.commit(write_u_escape(out.room(6), unit));
}

/// The UTF-8 sequence at s[i] as one code point, advancing i past it; a
/// malformed, overlong or surrogate sequence reads as U+FFFD (one byte).
std::uint32_t next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  const int len = b0 >= 0xF0 ? (b0 < 0xF5 ? 4 : 0) : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0;
  if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
    ++i;
    return 0xFFFD;
  }
  std::uint32_t cp = b0 & (0x7Fu >> len);
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (b & 0x3Fu);
  }
  const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return 0xFFFD;
  }
  i += static_cast<std::size_t>(len);
  return cp;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  TextBuffer b(s.size() + 2);
  append_json_string(b, s);
  out += b.view();
}

namespace {

/// One high bit per byte of `w` that a JSON string cannot hold as it is: a
/// control character (below 0x20), '"', '\\' or a non-ASCII byte (written as a
/// \u escape). Exact per byte: with the high bits cleared first, no sum below
/// carries into the next byte (SWAR, "SIMD within a register").
std::uint64_t escape_marks(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  const std::uint64_t x = w & kLow7;
  const std::uint64_t printable = x + kOnes * 0x60;           // high bit set where x >= 0x20
  const std::uint64_t not_quote = (x ^ (kOnes * '"')) + kLow7;  // high bit set where x != '"'
  const std::uint64_t not_slash = (x ^ (kOnes * '\\')) + kLow7;
  return (w | ~(printable & not_quote & not_slash)) & ~kLow7;
}

/// True for a byte a JSON string cannot hold as it is (see escape_marks).
bool needs_escape(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
}

/// Copies [p, end) to `o` up to the first byte that needs an escape and
/// returns that byte's position (or end); `o` advances by the bytes copied.
/// Eight bytes a step: each word is stored before it is tested, so the scan
/// and the copy are one pass, and a word with an escape in it is stored whole
/// but `o` advances only past its plain bytes (the caller's room covers the
/// whole source). The last few bytes are the last eight read again where
/// this call copied the ones before them (the same bytes are stored again),
/// else one at a time.
const char* copy_plain(const char* p, const char* end, char*& o) {
  const char* const start = p;
  for (; end - p >= 8; p += 8, o += 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    std::memcpy(o, &w, 8);
    if (const std::uint64_t m = escape_marks(w)) {
      const int k = __builtin_ctzll(m) / 8;
      o += k;
      return p + k;
    }
  }
  if (p < end && end - start >= 8) {
    const char* const q = end - 8;
    const auto skip = static_cast<int>(p - q);  // 1 to 7 bytes already copied
    std::uint64_t w;
    std::memcpy(&w, q, 8);
    std::memcpy(o - skip, &w, 8);
    const std::uint64_t m = escape_marks(w) & (~std::uint64_t{0} << (8 * skip));
    const int k = m != 0 ? __builtin_ctzll(m) / 8 : 8;
    o += k - skip;
    return q + k;
  }
  for (; p < end; ++p, ++o) {
    if (needs_escape(static_cast<unsigned char>(*p))) return p;
    *o = *p;
  }
  return end;
}

/// The escape for the byte (or UTF-8 sequence) at s[i]; answers the index after it.
std::size_t append_escape(TextBuffer& out, std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c >= 0x80) {
    // Non-ASCII as \u escapes: the text stays ASCII, which JavaScript's
    // TextDecoder turns into a string several times faster than UTF-8.
    const std::uint32_t cp = next_code_point(s, i);
    if (cp >= 0x10000) {
      append_u_escape(out, 0xD800 + ((cp - 0x10000) >> 10));
      append_u_escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      append_u_escape(out, cp);
    }
    return i;
  }
  switch (c) {
    case '"': out.put("\\\""sv); break;
    case '\\': out.put("\\\\"sv); break;
    case '\n': out.put("\\n"sv); break;
    case '\r': out.put("\\r"sv); break;
    case '\t': out.put("\\t"sv); break;
    case '\b': out.put("\\b"sv); break;
    case '\f': out.put("\\f"sv); break;
    default: append_u_escape(out, c);
  }
  return i + 1;
}

}  // namespace

namespace {

/// A well-formed two- or three-byte UTF-8 sequence at p (the ×, ≈ and − of
/// every formula) as its code point, with its length in `len`; 0 for anything
/// else, which append_escape then reads.
std::uint32_t short_code_point(const char* p, const char* end, int& len) {
  const auto b0 = static_cast<unsigned char>(p[0]);
  if (b0 >= 0xC2 && b0 <= 0xDF && end - p >= 2) {
    const auto b1 = static_cast<unsigned char>(p[1]);
    if ((b1 & 0xC0) != 0x80) return 0;
    len = 2;
    return ((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu);
  }
  if (b0 >= 0xE0 && b0 <= 0xEF && end - p >= 3) {
    const auto b1 = static_cast<unsigned char>(p[1]), b2 = static_cast<unsigned char>(p[2]);
    if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return 0;
    const std::uint32_t cp = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;  // overlong or a surrogate
    len = 3;
    return cp;
  }
  return 0;
}

}  // namespace

void append_json_string(TextBuffer& out, std::string_view s) {
  const char* const begin = s.data();
  const char* const end = begin + s.size();
  const char* p = begin;
  // Room for the opening quote, every remaining byte unescaped and the closing quote.
  char* o = out.room(s.size() + 2);
  *o++ = '"';
  for (;;) {
    p = copy_plain(p, end, o);
    if (p == end) break;
    int len = 0;
    if (const std::uint32_t cp = short_code_point(p, end, len)) {
      // In line: six bytes of \uXXXX for two or three, and the room the rest needs.
      out.commit(o);
      o = write_u_escape(out.room(static_cast<std::size_t>(end - p) + 6), cp);
      p += len;
      continue;
    }
    out.commit(o);
    p = begin + append_escape(out, s, static_cast<std::size_t>(p - begin));
    o = out.room(static_cast<std::size_t>(end - p) + 1);
  }
  out.commit(o);
  out.put('"');
}

JsonWriter& JsonWriter::key(std::string_view k) {
  char* p = out_.room(k.size() + 4);
  if (!first_) *p++ = ',';
  *p++ = '"';
  copy_text(p, k.data(), k.size());
  p += k.size();
  *p++ = '"';
  *p++ = ':';
  out_.commit(p);
  first_ = true;  // the value follows without a comma
  return *this;
}

JsonWriter& JsonWriter::open(char c) {
  char* p = out_.room(2);
  if (!first_) *p++ = ',';
  *p++ = c;
  out_.commit(p);
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::close(char c) {
  out_.put(c);
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  append_json_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t n) {
  // Straight into the buffer: a comma, a sign and 19 digits at most.
  char* p = out_.room(24);
  if (!first_) *p++ = ',';
  first_ = false;
  out_.commit(write_decimal(p, n));
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_.put("null"sv);
    return *this;
  }
  // A whole number below 2^53 (byte counts, tokens) prints as an integer.
  if (std::fabs(d) < 9007199254740992.0 && d == std::trunc(d)) {
    char buf[24];
    const char* end = write_decimal(buf, static_cast<std::int64_t>(d));
    out_.put(std::string_view(buf, static_cast<std::size_t>(end - buf)));
    return *this;
  }
  // Fast path: a value with at most six decimals that reads back exactly
  // (ratios such as 58.11 or 0.9), printed with integer arithmetic.
  if (std::fabs(d) < 1e12) {
    const std::int64_t micros = std::llround(d * 1e6);
    if (static_cast<double>(micros) / 1e6 == d) {
      char buf[32];
      const char* end = write_fixed(buf, micros, 1'000'000, true);
      out_.put(std::string_view(buf, static_cast<std::size_t>(end - buf)));
      return *this;
    }
  }
  // Otherwise 17 significant digits, which always read back to the same double
  // (IEEE 754 binary64). A search for the shortest form would parse the text
  // back, and this libc++ has no floating-point std::to_chars.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  out_.put(std::string_view(buf));
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  separate();
  out_.put(b ? "true"sv : "false"sv);
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_.put("null"sv);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_.put(json);
  return *this;
}

}  // namespace vram::io
