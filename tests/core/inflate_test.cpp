// Raw DEFLATE decoding (core/src/io/inflate.cpp): one stream of each block
// type, the embedded catalog, and streams that must be refused.
#include "vram/io/inflate.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/error.hpp"

using vram::InputError;
using vram::io::inflate_raw;

namespace {

std::string inflated(const std::vector<std::uint8_t>& in, std::size_t max = 1 << 20) {
  return inflate_raw(in, max, "/test");
}

std::string refusal(const std::vector<std::uint8_t>& in, std::size_t max = 1 << 20) {
  try {
    inflated(in, max);
  } catch (const InputError& e) {
    CHECK(e.path() == "/test");
    return e.what();
  }
  FAIL("the stream was accepted");
  return {};
}

}  // namespace

TEST_CASE("inflate: a stored block is copied as it stands", "[inflate]") {
  // BFINAL 1, BTYPE 00, aligned; LEN 5 = 0x0005, NLEN = 0xfffa (RFC 1951 section 3.2.4).
  CHECK(inflated({0x01, 0x05, 0x00, 0xfa, 0xff, 'h', 'e', 'l', 'l', 'o'}) == "hello");
  CHECK_THAT(refusal({0x01, 0x05, 0x00, 0xfb, 0xff, 'h', 'e', 'l', 'l', 'o'}),
             Catch::Contains("length and its complement disagree"));
  CHECK_THAT(refusal({0x01, 0x05, 0x00, 0xfa, 0xff, 'h', 'e'}), Catch::Contains("runs past the end"));
}

TEST_CASE("inflate: a fixed-Huffman block with an overlapping back-reference", "[inflate]") {
  // Worked by hand from section 3.2.6: header bits 1,1,0; literal 'a' = 0x30 + 97 in
  // 8 bits; length code 257 (3) in 7 bits; distance code 0 (1) in 5 bits; end of
  // block 256 in 7 bits; packed least significant bit first: 4b 04 02 00.
  CHECK(inflated({0x4b, 0x04, 0x02, 0x00}) == "aaaa");
  // zlib's Z_FIXED output for "abcabcabcabcabcabc".
  CHECK(inflated({75, 76, 74, 78, 68, 69, 0}) == "abcabcabcabcabcabc");
}

TEST_CASE("inflate: blocks follow each other until the final one", "[inflate]") {
  // A stored block without BFINAL ("hi"), then zlib's output for "there, there".
  CHECK(inflated({0, 2, 0, 253, 255, 104, 105, 43, 201, 72, 45, 74, 213, 81, 40, 1, 81, 0}) == "hithere, there");
  CHECK_THAT(refusal({0, 2, 0, 253, 255, 104, 105}), Catch::Contains("ends early"));
}

TEST_CASE("inflate: a dynamic-Huffman block (zlib level 9)", "[inflate]") {
  const std::vector<std::uint8_t> d{
      117, 143, 193, 10,  131, 48,  16,  68,  255, 101, 206, 57,  196, 214, 218, 186, 191, 82,  138, 4,
      178, 208, 165, 155, 40,  53,  23,  21,  255, 189, 32,  216, 83,  246, 250, 222, 204, 192, 108, 72,
      99,  100, 29,  202, 50,  49,  8,   170, 33,  5,   56,  188, 37,  70,  206, 195, 44,  43,  131, 90,
      223, 119, 14,  26,  22,  254, 206, 160, 231, 6,   1,   121, 135, 143, 228, 8,   66,  210, 9,   187,
      59,  96,  243, 135, 161, 20,  206, 69,  198, 124, 170, 139, 173, 174, 181, 169, 214, 206, 223, 108,
      213, 213, 166, 238, 118, 254, 97,  171, 190, 122, 208, 219, 133, 166, 250, 254, 181, 255, 0};
  const std::string text = inflated(d);
  REQUIRE(text.size() == 354);
  const auto j = nlohmann::json::parse(text);
  CHECK(j["hidden_size"] == 4096);
  CHECK(j["layers"].size() == 12);
  CHECK(j["layers"][11]["kind"] == "attention");
  // Every proper prefix of the stream ends early; none is read past its end.
  for (std::size_t n = 0; n + 1 < d.size(); ++n) {
    CHECK_THROWS_AS(inflated(std::vector<std::uint8_t>(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n))),
                    InputError);
  }
  CHECK_THAT(refusal(d, 353), Catch::Contains("more output than the stated size"));
}

TEST_CASE("inflate: streams the format does not allow are refused", "[inflate]") {
  CHECK_THAT(refusal({}), Catch::Contains("ends early"));
  CHECK_THAT(refusal({0x07}), Catch::Contains("block type 3"));
  // Fixed block: length code 257, distance 1, with nothing written yet.
  CHECK_THAT(refusal({0x03, 0x02}), Catch::Contains("before the start of the output"));
  // Dynamic block whose code-length code gives every symbol length 1: over-subscribed.
  CHECK_THAT(refusal({0x05, 0xe0, 0x93, 0x24, 0x49, 0x92, 0x24, 0x49, 0x92, 0x00}),
             Catch::Contains("more codes of one length"));
}

TEST_CASE("inflate: the embedded catalog inflates to the models/ files", "[inflate][catalog]") {
  const auto files = vram::embedded_catalog_files();
  REQUIRE(files.size() > 100);
  std::size_t pipelines = 0;
  for (const auto& f : files) {
    INFO(f.name);
    CHECK(f.name.ends_with(".json"));
    CHECK(nlohmann::json::accept(f.text));
    pipelines += f.name.starts_with("pipelines/") ? 1 : 0;
  }
  CHECK(pipelines > 10);
  CHECK(std::find_if(files.begin(), files.end(), [](const auto& f) { return f.name == "gpus.json"; }) != files.end());
}
