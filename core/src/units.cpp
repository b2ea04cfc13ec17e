#include "vram/units.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace vram {

Bytes Bytes::from_fraction(double amount, Unit unit) {
  return Bytes::of(std::llround(amount * static_cast<double>(unit.divisor)));
}

Bytes scale_floor(Bytes b, double factor) {
  return Bytes::of(static_cast<std::int64_t>(std::floor(static_cast<double>(b.in_bytes()) * factor)));
}

std::string format(Bytes b, Unit unit, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f ", decimals, b.in(unit));
  return std::string(buf) + std::string(unit.label);
}

std::string format_iec(Bytes b) { return format(b, kGiB); }
std::string format_si(Bytes b) { return format(b, kGB); }

std::string group_thousands(std::int64_t n) {
  const bool negative = n < 0;
  std::string digits = std::to_string(negative ? -n : n);
  std::string out;
  const int lead = static_cast<int>(digits.size() % 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (static_cast<int>(i) - lead) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string format_exact(Bytes b) { return group_thousands(b.in_bytes()) + " B"; }

std::ostream& operator<<(std::ostream& os, Bytes b) {
  return os << format_exact(b) << " (" << format_iec(b) << ", " << format_si(b) << ")";
}

}  // namespace vram
