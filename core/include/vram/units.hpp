// Byte quantities and the two unit systems they are printed in.
//
// A `Bytes` is an integer count of bytes. It is created only through named
// makers (`Bytes::of`, `Bytes::from_gib`, ...) and read only through named
// accessors (`in_bytes`, `in(kGiB)`), so that a bare number never silently
// changes meaning. GiB = 2^30 bytes (IEC 80000-13), GB = 10^9 bytes (SI); every
// printed figure takes its label from the same `Unit` value as its divisor.
#pragma once

#include <bit>
#include <concepts>
#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vram {

/// A byte or element count that would not fit in 63 bits. Thrown by the
/// checked arithmetic below instead of wrapping; the estimator turns it into an
/// `InputError` that names the input behind the figure.
class ArithmeticOverflow : public std::overflow_error {
 public:
  using std::overflow_error::overflow_error;
};

namespace checked {

[[noreturn]] void overflow(const char* what);

/// a + b, or `ArithmeticOverflow`.
constexpr std::int64_t add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) overflow("sum");
  return r;
}
/// a − b, or `ArithmeticOverflow`.
constexpr std::int64_t sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) overflow("difference");
  return r;
}
/// a × b, or `ArithmeticOverflow`.
constexpr std::int64_t mul(std::int64_t a, std::int64_t b) {
  // Magnitudes of at most 63 significant bits together cannot overflow
  // (|a × b| < 2^63): the common case, without the 128-bit multiply that
  // WebAssembly's overflow check calls.
  const std::uint64_t ua = a < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(a) : static_cast<std::uint64_t>(a);
  const std::uint64_t ub = b < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(b) : static_cast<std::uint64_t>(b);
  if (std::bit_width(ua) + std::bit_width(ub) <= 63) return a * b;
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) overflow("product");
  return r;
}
/// The product of all factors, each step checked.
template <typename... T>
constexpr std::int64_t product(std::int64_t first, T... rest) {
  std::int64_t r = first;
  ((r = mul(r, static_cast<std::int64_t>(rest))), ...);
  return r;
}
/// An element count whose +, − and × are checked: formulas over config fields
/// (`4 * h * h + layers * block`) read as written and never wrap.
class Count {
 public:
  constexpr Count(std::int64_t v = 0) : v_(v) {}  // NOLINT: implicit by design
  constexpr operator std::int64_t() const { return v_; }  // NOLINT
  friend constexpr Count operator+(Count a, Count b) { return add(a.v_, b.v_); }
  friend constexpr Count operator-(Count a, Count b) { return sub(a.v_, b.v_); }
  friend constexpr Count operator*(Count a, Count b) { return mul(a.v_, b.v_); }
  friend constexpr Count operator/(Count a, Count b) { return a.v_ / b.v_; }
  // Mixed with any integer type by exact match, so no built-in operator competes.
  template <std::integral T>
  friend constexpr Count operator+(Count a, T b) { return add(a.v_, static_cast<std::int64_t>(b)); }
  template <std::integral T>
  friend constexpr Count operator+(T a, Count b) { return add(static_cast<std::int64_t>(a), b.v_); }
  template <std::integral T>
  friend constexpr Count operator-(Count a, T b) { return sub(a.v_, static_cast<std::int64_t>(b)); }
  template <std::integral T>
  friend constexpr Count operator-(T a, Count b) { return sub(static_cast<std::int64_t>(a), b.v_); }
  template <std::integral T>
  friend constexpr Count operator*(Count a, T b) { return mul(a.v_, static_cast<std::int64_t>(b)); }
  template <std::integral T>
  friend constexpr Count operator*(T a, Count b) { return mul(static_cast<std::int64_t>(a), b.v_); }
  template <std::integral T>
  friend constexpr Count operator/(Count a, T b) { return a.v_ / static_cast<std::int64_t>(b); }
  constexpr Count& operator+=(Count b) { return *this = *this + b; }

 private:
  std::int64_t v_;
};

/// ceil(a / b) for a >= 0, b > 0 (block and page counts).
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return a / b + (a % b != 0 ? 1 : 0);
}

/// a rounded up to a multiple of b, for a >= 0, b > 0 (padded rows and buffers).
constexpr std::int64_t round_up(std::int64_t a, std::int64_t b) {
  return mul(ceil_div(a, b), b);
}

}  // namespace checked

/// A divisor and the label that must accompany it.
struct Unit {
  std::int64_t divisor;
  std::string_view label;
};

/// 1 KiB = 2^10 bytes (IEC binary prefix).
inline constexpr Unit kKiB{std::int64_t{1} << 10, "KiB"};
/// 1 MiB = 2^20 bytes (IEC binary prefix).
inline constexpr Unit kMiB{std::int64_t{1} << 20, "MiB"};
/// 1 GiB = 2^30 bytes (IEC binary prefix).
inline constexpr Unit kGiB{std::int64_t{1} << 30, "GiB"};
/// 1 TiB = 2^40 bytes (IEC binary prefix).
inline constexpr Unit kTiB{std::int64_t{1} << 40, "TiB"};
/// 1 KB = 10^3 bytes (SI decimal prefix).
inline constexpr Unit kKB{1'000, "KB"};
/// 1 MB = 10^6 bytes (SI decimal prefix).
inline constexpr Unit kMB{1'000'000, "MB"};
/// 1 GB = 10^9 bytes (SI decimal prefix).
inline constexpr Unit kGB{1'000'000'000, "GB"};

/// An integer number of bytes. Signed, so that a deficit (capacity minus need)
/// can be expressed; 63 bits hold 8 EiB, far beyond any GPU set.
class Bytes {
 public:
  constexpr Bytes() = default;

  static constexpr Bytes of(std::int64_t bytes) { return Bytes(bytes); }
  /// `n` whole units, e.g. `Bytes::from(80, kGB)` = 80,000,000,000 B.
  static constexpr Bytes from(std::int64_t n, Unit unit) { return Bytes(checked::mul(n, unit.divisor)); }
  /// The product of counts and a per-element size, each step checked:
  /// `Bytes::product(2, tokens, hidden, elem_bytes)`.
  template <typename... T>
  static constexpr Bytes product(std::int64_t first, T... rest) {
    return Bytes(checked::product(first, rest...));
  }
  /// A fractional amount of a unit, rounded to the nearest byte
  /// (e.g. a log line's "79.19 GiB").
  static Bytes from_fraction(double amount, Unit unit);

  constexpr std::int64_t in_bytes() const { return bytes_; }
  /// The value in `unit`, as a floating-point number for display or ratios.
  constexpr double in(Unit unit) const { return static_cast<double>(bytes_) / static_cast<double>(unit.divisor); }

  // Sums, differences and products are checked: a figure past 63 bits throws
  // `ArithmeticOverflow` rather than wrapping to a plausible-looking number.
  constexpr Bytes operator+(Bytes o) const { return Bytes(checked::add(bytes_, o.bytes_)); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(checked::sub(bytes_, o.bytes_)); }
  constexpr Bytes& operator+=(Bytes o) {
    bytes_ = checked::add(bytes_, o.bytes_);
    return *this;
  }
  constexpr Bytes& operator-=(Bytes o) {
    bytes_ = checked::sub(bytes_, o.bytes_);
    return *this;
  }
  constexpr Bytes operator*(std::int64_t k) const { return Bytes(checked::mul(bytes_, k)); }
  /// Whole-number division (floor for non-negative values).
  constexpr Bytes operator/(std::int64_t k) const { return Bytes(bytes_ / k); }
  /// How many times `o` fits, as a real ratio.
  constexpr double ratio(Bytes o) const { return static_cast<double>(bytes_) / static_cast<double>(o.bytes_); }
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  constexpr explicit Bytes(std::int64_t bytes) : bytes_(bytes) {}
  std::int64_t bytes_ = 0;
};

/// `b` scaled by a real factor (e.g. a utilisation fraction), rounded down to
/// a whole byte as the engines do (`int(total * fraction)`).
Bytes scale_floor(Bytes b, double factor);

/// Bytes needed for `bits` bits, rounded up to whole bytes.
constexpr Bytes bytes_for_bits(std::int64_t bits) {
  return Bytes::of(checked::ceil_div(bits, 8));
}

/// The largest figure any report may carry: 2^53 B (8 PiB), the largest
/// integer every JSON reader holds exactly (an IEEE double; RFC 8259 section 6),
/// fifty thousand times the memory of the largest GPU. Above it an input is absurd.
inline constexpr Bytes kMaxPlausibleBytes = Bytes::of(std::int64_t{1} << 53);

/// "24.21 GiB": value in `unit` with `decimals` places and the unit's own label.
std::string format(Bytes b, Unit unit, int decimals = 2);
/// `format` appended to `out`, a std::string or a TextBuffer (the renderers
/// build one text without temporaries).
template <class Out>
void append_format(Out& out, Bytes b, Unit unit, int decimals = 2);
/// Binary form, "24.21 GiB".
std::string format_iec(Bytes b);
/// Decimal form, "26.00 GB".
std::string format_si(Bytes b);
/// Exact form with thousands separators, "26,000,000,000 B".
std::string format_exact(Bytes b);
template <class Out>
void append_exact(Out& out, Bytes b);
/// An integer with thousands separators, "13,000,000,000".
std::string group_thousands(std::int64_t n);
template <class Out>
void append_grouped(Out& out, std::int64_t n);

/// The decimal digits of `v` written at `out` (20 bytes at most, a sign
/// included), answering the end. A 64-bit value is split into 32-bit pieces
/// with one multiply: in WebAssembly a 64-bit division by a constant is a call
/// to a 128-bit multiply, and std::to_chars makes several per number.
char* write_decimal(char* out, std::uint64_t v);
char* write_decimal(char* out, std::int64_t v);
/// `scaled` / `scale` in fixed point at `out` (scale a power of ten up to 10^6):
/// a sign, the whole part and every decimal the scale holds, or with `trim`
/// the decimals up to the last nonzero one ("0.9", "2"). 28 bytes at most.
char* write_fixed(char* out, std::int64_t scaled, std::int64_t scale, bool trim);

/// A plain number with at most `max_decimals` decimals, trailing zeros dropped
/// ("1.0005", "2", "0.95"), rounded half away from zero.
std::string format_decimal(double value, int max_decimals);

/// Prints exact bytes plus both systems, so test failures are readable.
std::ostream& operator<<(std::ostream& os, Bytes b);

}  // namespace vram
