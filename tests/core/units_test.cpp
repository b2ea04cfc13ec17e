#include "vram/units.hpp"

#include <catch2/catch.hpp>

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
