#include "vram/io/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace vram::io {

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the pending run of characters that need no escape
  for (std::size_t i = 0; i < s.size(); ++i) {
    // Skip eight plain bytes at a time: none below 0x20, none '"' or '\\'
    // (the SWAR "has zero byte" tests from Anderson's Bit Twiddling Hacks).
    while (i + 8 <= s.size()) {
      std::uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
      const std::uint64_t quote = w ^ (kOnes * '"'), slash = w ^ (kOnes * '\\');
      const std::uint64_t special = ((w - kOnes * 0x20) & ~w) | ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash);
      if (special & kHigh) break;
      i += 8;
    }
    if (i >= s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

void JsonWriter::separate() {
  if (!first_) out_ += ',';
  first_ = false;
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ += '{';
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ += '[';
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  first_ = false;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  out_ += '"';
  out_ += k;  // keys are identifiers from the code, never user text
  out_ += "\":";
  first_ = true;  // the value follows without a comma
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  append_json_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t n) {
  separate();
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out_.append(buf, r.ptr);
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return *this;
  }
  // Fast path: a value with at most six decimals that reads back exactly
  // (ratios such as 58.11 or 0.9), printed with integer arithmetic.
  if (std::fabs(d) < 1e12) {
    const std::int64_t micros = std::llround(d * 1e6);
    if (static_cast<double>(micros) / 1e6 == d) {
      const std::int64_t mag = micros < 0 ? -micros : micros;
      char buf[40];
      char* p = buf;
      if (micros < 0) *p++ = '-';
      p = std::to_chars(p, buf + sizeof buf, mag / 1'000'000).ptr;
      std::int64_t frac = mag % 1'000'000;
      if (frac != 0) {
        *p++ = '.';
        for (std::int64_t unit = 100'000; unit > 0 && frac != 0; unit /= 10) {
          *p++ = static_cast<char>('0' + frac / unit);
          frac %= unit;
        }
      }
      out_.append(buf, p);
      return *this;
    }
  }
  // Otherwise the shortest of %.15g / %.16g / %.17g that reads back to the same
  // double (this libc++ has no floating-point std::to_chars).
  char buf[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  separate();
  out_ += json;
  return *this;
}

}  // namespace vram::io
