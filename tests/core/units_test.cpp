#include "vram/units.hpp"

#include <catch2/catch.hpp>
#include <charconv>
#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace vram;

TEST_CASE("GiB is 2^30 bytes and GB is 10^9 bytes", "[units]") {
  REQUIRE(kGiB.divisor == 1073741824);
  REQUIRE(kGB.divisor == 1000000000);
  REQUIRE(kMiB.divisor == 1048576);
  REQUIRE(Bytes::from(80, kGB).in_bytes() == 80'000'000'000);
  REQUIRE(Bytes::from(1, kGiB).in_bytes() == 1'073'741'824);
}

TEST_CASE("the article's 13B example formats as 24.21 GiB and 26.00 GB", "[units][article]") {
  const Bytes b = Bytes::of(13'000'000'000LL * 2);
  REQUIRE(b.in_bytes() == 26'000'000'000);
  REQUIRE(format_iec(b) == "24.21 GiB");
  REQUIRE(format_si(b) == "26.00 GB");
  REQUIRE(format_exact(b) == "26,000,000,000 B");
}

TEST_CASE("labels come from the same unit as the divisor", "[units]") {
  const Bytes b = Bytes::of(3 * 1048576);
  REQUIRE(format(b, kMiB, 1) == "3.0 MiB");
  REQUIRE(format(b, kMB, 3) == "3.146 MB");
}

TEST_CASE("fractions of a unit round to the nearest byte", "[units]") {
  REQUIRE(Bytes::from_fraction(0.5, kKiB).in_bytes() == 512);
  REQUIRE(Bytes::from_fraction(79.19, kGiB).in_bytes() == 85029615043);
}

TEST_CASE("bits round up to whole bytes", "[units]") {
  REQUIRE(bytes_for_bits(9).in_bytes() == 2);
  REQUIRE(bytes_for_bits(8).in_bytes() == 1);
  REQUIRE(bytes_for_bits(0).in_bytes() == 0);
}

TEST_CASE("thousands separators, negative values included", "[units]") {
  REQUIRE(group_thousands(0) == "0");
  REQUIRE(group_thousands(999) == "999");
  REQUIRE(group_thousands(1000) == "1,000");
  REQUIRE(group_thousands(-1234567) == "-1,234,567");
  // Nine digits at a time: zeros inside a group beyond 10^9 are kept.
  REQUIRE(group_thousands(999'999'999) == "999,999,999");
  REQUIRE(group_thousands(1'000'000'000) == "1,000,000,000");
  REQUIRE(group_thousands(16'000'000'007) == "16,000,000,007");
  REQUIRE(group_thousands(1'000'000'000'000'000'000) == "1,000,000,000,000,000,000");
  std::string out = "x ";
  append_grouped(out, -42'000);
  REQUIRE(out == "x -42,000");
}

TEST_CASE("scale_floor rounds a fraction of memory down, as engines do", "[units]") {
  REQUIRE(scale_floor(Bytes::of(1000), 0.95).in_bytes() == 950);
  REQUIRE(scale_floor(Bytes::of(999), 0.5).in_bytes() == 499);
}

TEST_CASE("plain decimals drop trailing zeros", "[units]") {
  CHECK(format_decimal(1.0005, 4) == "1.0005");
  CHECK(format_decimal(2.0, 4) == "2");
  CHECK(format_decimal(0.95, 2) == "0.95");
  CHECK(format_decimal(0.125, 2) == "0.13");
  CHECK(format_decimal(-1.5, 1) == "-1.5");
  CHECK(format_decimal(4.2656, 4) == "4.2656");
}

TEST_CASE("byte and count arithmetic is checked: past 2^63 it throws, it never wraps", "[units][overflow]") {
  const Bytes big = Bytes::of(INT64_MAX / 2 + 1);
  CHECK_THROWS_AS(big + big, ArithmeticOverflow);
  CHECK_THROWS_AS(Bytes::of(INT64_MIN) - Bytes::of(1), ArithmeticOverflow);
  CHECK_THROWS_AS(big * 2, ArithmeticOverflow);
  CHECK_THROWS_AS(Bytes::product(1LL << 31, 1LL << 31, 4), ArithmeticOverflow);
  CHECK(Bytes::product(1LL << 30, 1LL << 30, 4).in_bytes() == 1LL << 62);
  CHECK_THROWS_AS(Bytes::from(10'000'000'000, kGB), ArithmeticOverflow);
  Bytes acc = Bytes::of(INT64_MAX);
  CHECK_THROWS_AS(acc += Bytes::of(1), ArithmeticOverflow);
  CHECK_THROWS_AS(Bytes::from_fraction(1e300, kGiB), ArithmeticOverflow);
  CHECK_THROWS_AS(scale_floor(Bytes::of(INT64_MAX), 2.0), ArithmeticOverflow);
  CHECK(scale_floor(Bytes::of(1000), 0.9).in_bytes() == 900);
}

TEST_CASE("checked products at the edge of 2^63, either sign", "[units][overflow]") {
  // 63 significant bits in all: taken without the overflow check, exact.
  CHECK(checked::mul((1LL << 31) - 1, (1LL << 32) - 1) == ((1LL << 31) - 1) * ((1LL << 32) - 1));
  CHECK(checked::mul(-(1LL << 40), (1LL << 22) - 1) == -(1LL << 40) * ((1LL << 22) - 1));
  // 64 bits in all: checked; fits or throws.
  CHECK(checked::mul(1LL << 31, (1LL << 32) - 1) == (1LL << 31) * ((1LL << 32) - 1));
  CHECK(checked::mul(-(1LL << 31), 1LL << 32) == INT64_MIN);
  CHECK_THROWS_AS(checked::mul(1LL << 31, 1LL << 32), ArithmeticOverflow);
  CHECK_THROWS_AS(checked::mul(INT64_MIN, -1), ArithmeticOverflow);
  CHECK_THROWS_AS(checked::mul(-3'037'000'500, 3'037'000'500), ArithmeticOverflow);
  CHECK(checked::mul(3'037'000'499, -3'037'000'499) == -9'223'372'030'926'249'001);
  CHECK(checked::mul(0, INT64_MIN) == 0);
  CHECK(checked::mul(INT64_MAX, 1) == INT64_MAX);
}

TEST_CASE("checked counts read like the formulas they compute", "[units][overflow]") {
  using checked::Count;
  const Count h = 4096;
  CHECK(static_cast<std::int64_t>(4 * h * h + 2 * h) == 67'117'056);  // 4·4096² + 2·4096
  const Count wide = 1LL << 32;
  CHECK_THROWS_AS(wide * wide, ArithmeticOverflow);
  CHECK_THROWS_AS(3 * wide * wide, ArithmeticOverflow);
  CHECK(checked::ceil_div(17, 8) == 3);
  CHECK(checked::ceil_div(16, 8) == 2);
  // llama.cpp's GGML_PAD: 8,193 cells padded to 256 are 8,448; a multiple stays as it is.
  CHECK(checked::round_up(8193, 256) == 8448);
  CHECK(checked::round_up(8192, 256) == 8192);
  CHECK(checked::round_up(0, 64) == 0);
  CHECK_THROWS_AS(checked::round_up(INT64_MAX - 10, 256), ArithmeticOverflow);
  CHECK(bytes_for_bits(9).in_bytes() == 2);
}

TEST_CASE("the most negative integer prints without undefined behaviour", "[units][overflow]") {
  CHECK(group_thousands(INT64_MIN) == "-9,223,372,036,854,775,808");
  CHECK(group_thousands(INT64_MAX) == "9,223,372,036,854,775,807");
  CHECK(group_thousands(-1234) == "-1,234");
  CHECK(format_decimal(1e300, 2) == "1e+300");
  CHECK(format_decimal(std::numeric_limits<double>::quiet_NaN(), 2) == "NaN");
}

TEST_CASE("write_decimal prints what std::to_chars prints, at every magnitude and both edges", "[units]") {
  const auto ours = [](auto v) {
    char buf[24];
    return std::string(buf, write_decimal(buf, v));
  };
  const auto theirs = [](auto v) {
    char buf[24];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  };
  std::vector<std::uint64_t> values = {0, 1, 9, 10, 999'999'999, 1'000'000'000, 1'000'000'001, 0xFFFFFFFFu,
                                       0x100000000u, 999'999'999'999'999'999u, 1'000'000'000'000'000'000u,
                                       (std::uint64_t{1} << 53) - 1, std::uint64_t{1} << 53, (std::uint64_t{1} << 53) + 1,
                                       0x7FFFFFFFFFFFFFFFu, 0x8000000000000000u, 0xFFFFFFFFFFFFFFFFu};
  // Every power of ten and its neighbours, where a floating-point quotient is nearest to being wrong.
  for (std::uint64_t p = 10; p <= 1'000'000'000'000'000'000u; p *= 10) {
    for (std::uint64_t d : {p - 1, p, p + 1}) values.push_back(d);
    for (std::uint64_t k = 1; k < 10; ++k) values.push_back(k * p - 1);
  }
  std::uint64_t x = 0x9E3779B97F4A7C15u;  // a fixed xorshift sequence over all bit widths
  for (int i = 0; i < 20000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    values.push_back(x >> (i % 64));
  }
  // Thousands grouped from the plain digits, for the grouped writer that splits the same way.
  const auto grouped = [&](std::int64_t v) {
    const std::string digits = theirs(v);
    const std::size_t sign = v < 0 ? 1 : 0;
    std::string out = digits.substr(0, sign);
    for (std::size_t i = sign; i < digits.size(); ++i) {
      if (i > sign && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  };
  for (const std::uint64_t v : values) {
    CHECK(ours(v) == theirs(v));
    CHECK(ours(static_cast<std::int64_t>(v)) == theirs(static_cast<std::int64_t>(v)));
    CHECK(group_thousands(static_cast<std::int64_t>(v)) == grouped(static_cast<std::int64_t>(v)));
  }
  CHECK(ours(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775808");
}

TEST_CASE("write_fixed prints a scaled integer in fixed point, whole or trimmed", "[units]") {
  const auto fixed = [](std::int64_t scaled, std::int64_t scale, bool trim) {
    char buf[32];
    return std::string(buf, write_fixed(buf, scaled, scale, trim));
  };
  CHECK(fixed(123'456, 1000, false) == "123.456");
  CHECK(fixed(-5, 100, false) == "-0.05");
  CHECK(fixed(2400, 100, false) == "24.00");
  CHECK(fixed(7, 1, false) == "7");
  CHECK(fixed(900'000, 1'000'000, true) == "0.9");
  CHECK(fixed(2'000'000, 1'000'000, true) == "2");
  CHECK(fixed(-1'000'500, 1'000'000, true) == "-1.0005");
  CHECK(fixed(std::numeric_limits<std::int64_t>::min(), 1'000'000, true) == "-9223372036854.775808");
}
