#include "vram/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <type_traits>

#include "vram/text_buffer.hpp"

namespace vram {

namespace checked {
void overflow(const char* what) {
  throw ArithmeticOverflow(std::string("a ") + what + " of byte or element counts exceeds 2^63");
}
}  // namespace checked

namespace {
// Doubles at or beyond 2^63 do not convert to int64 (undefined behaviour).
std::int64_t to_int64_checked(double v) {
  if (!(std::fabs(v) < 9.2e18)) checked::overflow("scaled figure");
  return static_cast<std::int64_t>(v);
}
}  // namespace

Bytes Bytes::from_fraction(double amount, Unit unit) {
  return Bytes::of(to_int64_checked(std::round(amount * static_cast<double>(unit.divisor))));
}

Bytes scale_floor(Bytes b, double factor) {
  return Bytes::of(to_int64_checked(std::floor(static_cast<double>(b.in_bytes()) * factor)));
}

namespace {
/// Where a short text of at most N bytes goes: straight into a text buffer's
/// room, or into `buf` for a string (which takes a copy at text_end).
template <class Out, std::size_t N>
char* text_start(Out& out, char (&buf)[N]) {
  if constexpr (std::is_same_v<Out, TextBuffer>) {
    return out.room(N);
  } else {
    return buf;
  }
}
/// Ends the text text_start began, at `end`.
template <class Out, std::size_t N>
void text_end(Out& out, char (&buf)[N], char* end) {
  if constexpr (std::is_same_v<Out, TextBuffer>) {
    out.commit(end);
  } else {
    put_text(out, std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
}
}  // namespace

namespace {
/// "000" to "999": a three-digit group is one table copy, not three divisions.
constexpr std::array<char, 3000> kTriples = [] {
  std::array<char, 3000> t{};
  for (int i = 0; i < 1000; ++i) {
    t[3 * i] = static_cast<char>('0' + i / 100);
    t[3 * i + 1] = static_cast<char>('0' + i / 10 % 10);
    t[3 * i + 2] = static_cast<char>('0' + i % 10);
  }
  return t;
}();

/// v / 10^9 and v % 10^9 from a floating-point quotient, corrected by one step
/// (its error is far below one): 64-bit multiplies are single WebAssembly
/// instructions, 64-bit divisions by a constant are library calls.
void split_billion(std::uint64_t v, std::uint64_t& high, std::uint32_t& low) {
  constexpr std::uint64_t kBillion = 1'000'000'000;
  std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(v) * 1e-9);
  std::uint64_t whole = q * kBillion;
  if (whole > v) {
    --q;
    whole -= kBillion;
  } else if (v - whole >= kBillion) {
    ++q;
    whole += kBillion;
  }
  high = q;
  low = static_cast<std::uint32_t>(v - whole);
}

/// Nine digits of n < 10^9, leading zeros kept.
char* write_nine(char* p, std::uint32_t n) {
  std::memcpy(p, &kTriples[3 * (n / 1'000'000)], 3);
  std::memcpy(p + 3, &kTriples[3 * (n / 1000 % 1000)], 3);
  std::memcpy(p + 6, &kTriples[3 * (n % 1000)], 3);
  return p + 9;
}
}  // namespace

char* write_decimal(char* out, std::uint64_t v) {
  if (v <= 0xFFFFFFFFu) return std::to_chars(out, out + 10, static_cast<std::uint32_t>(v)).ptr;
  std::uint64_t high = 0;
  std::uint32_t low = 0;
  split_billion(v, high, low);
  return write_nine(write_decimal(out, high), low);
}

char* write_decimal(char* out, std::int64_t v) {
  if (v >= 0) return write_decimal(out, static_cast<std::uint64_t>(v));
  *out++ = '-';
  return write_decimal(out, std::uint64_t{0} - static_cast<std::uint64_t>(v));
}

char* write_fixed(char* out, std::int64_t scaled, std::int64_t scale, bool trim) {
  const std::uint64_t mag = scaled < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(scaled)
                                       : static_cast<std::uint64_t>(scaled);
  const auto s = static_cast<std::uint64_t>(scale);
  if (scaled < 0) *out++ = '-';
  out = write_decimal(out, mag / s);
  std::uint64_t frac = mag % s;
  if (s == 1 || (trim && frac == 0)) return out;
  *out++ = '.';
  for (std::uint64_t unit = s / 10; unit > 0 && !(trim && frac == 0); unit /= 10) {
    *out++ = static_cast<char>('0' + frac / unit);
    frac %= unit;
  }
  return out;
}

template <class Out>
void append_format(Out& out, Bytes b, Unit unit, int decimals) {
  // Fixed-point text of b / divisor, rounded half away from zero at `decimals` places.
  static constexpr std::int64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
  decimals = decimals < 0 ? 0 : (decimals > 6 ? 6 : decimals);
  const std::int64_t scale = kPow10[decimals];
  const double want = std::round(b.in(unit) * static_cast<double>(scale));
  // Beyond 2^62 the fixed-point text cannot be formed; such figures are refused
  // before they are printed, so this only keeps the function total.
  const std::int64_t scaled = std::fabs(want) < 4.6e18 ? static_cast<std::int64_t>(want) : 0;
  char buf[48];
  char* const first = text_start(out, buf);
  char* p = write_fixed(first, scaled, scale, false);
  *p++ = ' ';
  for (char c : unit.label) *p++ = c;
  text_end(out, buf, p);
}
template void append_format(std::string&, Bytes, Unit, int);
template void append_format(TextBuffer&, Bytes, Unit, int);

std::string format(Bytes b, Unit unit, int decimals) {
  std::string out;
  append_format(out, b, unit, decimals);
  return out;
}

std::string format_decimal(double value, int max_decimals) {
  static constexpr std::int64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
  max_decimals = max_decimals < 0 ? 0 : (max_decimals > 6 ? 6 : max_decimals);
  const std::int64_t scale = kPow10[max_decimals];
  const double want = std::round(value * static_cast<double>(scale));
  if (!std::isfinite(want)) return std::isnan(want) ? "NaN" : (want < 0 ? "-inf" : "inf");
  if (std::fabs(want) >= 4.6e18) {
    char big[32];
    std::snprintf(big, sizeof big, "%.6g", value);
    return big;
  }
  char buf[32];
  const char* end = write_fixed(buf, static_cast<std::int64_t>(want), scale, true);
  return std::string(buf, static_cast<std::size_t>(end - buf));
}

std::string format_iec(Bytes b) {
  return format(b, kGiB);
}
std::string format_si(Bytes b) {
  return format(b, kGB);
}

template <class Out>
void append_grouped(Out& out, std::int64_t n) {
  // The magnitude as unsigned: −INT64_MIN does not exist in int64.
  std::uint64_t mag = n < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
  // Three-digit groups, lowest first: nine digits at a time are split off
  // (split_billion) and the groups inside them in 32-bit arithmetic.
  std::uint32_t groups[7];
  int g = 0;
  while (mag >= 1'000'000'000) {
    std::uint32_t low = 0;
    split_billion(mag, mag, low);
    groups[g++] = low % 1000;
    groups[g++] = low / 1000 % 1000;
    groups[g++] = low / 1'000'000;
  }
  auto top = static_cast<std::uint32_t>(mag);
  while (top >= 1000) {
    groups[g++] = top % 1000;
    top /= 1000;
  }
  char buf[32];  // a sign, 19 digits and 6 commas at most
  char* p = text_start(out, buf);
  if (n < 0) *p++ = '-';
  const int skip = top >= 100 ? 0 : (top >= 10 ? 1 : 2);  // no leading zeros
  for (int k = skip; k < 3; ++k) *p++ = kTriples[3 * top + static_cast<std::uint32_t>(k)];
  while (g > 0) {
    *p++ = ',';
    std::memcpy(p, &kTriples[3 * groups[--g]], 3);
    p += 3;
  }
  text_end(out, buf, p);
}
template void append_grouped(std::string&, std::int64_t);
template void append_grouped(TextBuffer&, std::int64_t);

std::string group_thousands(std::int64_t n) {
  std::string out;
  append_grouped(out, n);
  return out;
}

template <class Out>
void append_exact(Out& out, Bytes b) {
  append_grouped(out, b.in_bytes());
  put_text(out, " B");
}
template void append_exact(std::string&, Bytes);
template void append_exact(TextBuffer&, Bytes);

std::string format_exact(Bytes b) {
  std::string out;
  append_exact(out, b);
  return out;
}

std::ostream& operator<<(std::ostream& os, Bytes b) {
  return os << format_exact(b) << " (" << format_iec(b) << ", " << format_si(b) << ")";
}

}  // namespace vram
