// Byte quantities and the two unit systems they are printed in.
//
// A `Bytes` is an integer count of bytes. It is created only through named
// makers (`Bytes::of`, `Bytes::from_gib`, ...) and read only through named
// accessors (`in_bytes`, `in(kGiB)`), so that a bare number never silently
// changes meaning. GiB = 2^30 bytes (IEC 80000-13), GB = 10^9 bytes (SI); every
// printed figure takes its label from the same `Unit` value as its divisor.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace vram {

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
  static constexpr Bytes from(std::int64_t n, Unit unit) { return Bytes(n * unit.divisor); }
  /// A fractional amount of a unit, rounded to the nearest byte
  /// (e.g. a log line's "79.19 GiB").
  static Bytes from_fraction(double amount, Unit unit);

  constexpr std::int64_t in_bytes() const { return bytes_; }
  /// The value in `unit`, as a floating-point number for display or ratios.
  constexpr double in(Unit unit) const { return static_cast<double>(bytes_) / static_cast<double>(unit.divisor); }

  constexpr Bytes operator+(Bytes o) const { return Bytes(bytes_ + o.bytes_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(bytes_ - o.bytes_); }
  constexpr Bytes& operator+=(Bytes o) {
    bytes_ += o.bytes_;
    return *this;
  }
  constexpr Bytes& operator-=(Bytes o) {
    bytes_ -= o.bytes_;
    return *this;
  }
  constexpr Bytes operator*(std::int64_t k) const { return Bytes(bytes_ * k); }
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
  return Bytes::of((bits + 7) / 8);
}

/// "24.21 GiB": value in `unit` with `decimals` places and the unit's own label.
std::string format(Bytes b, Unit unit, int decimals = 2);
/// Binary form, "24.21 GiB".
std::string format_iec(Bytes b);
/// Decimal form, "26.00 GB".
std::string format_si(Bytes b);
/// Exact form with thousands separators, "26,000,000,000 B".
std::string format_exact(Bytes b);
/// An integer with thousands separators, "13,000,000,000".
std::string group_thousands(std::int64_t n);

/// A plain number with at most `max_decimals` decimals, trailing zeros dropped
/// ("1.0005", "2", "0.95"), rounded half away from zero.
std::string format_decimal(double value, int max_decimals);

/// Prints exact bytes plus both systems, so test failures are readable.
std::ostream& operator<<(std::ostream& os, Bytes b);

}  // namespace vram
