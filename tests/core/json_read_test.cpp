#include "vram/io/json_read.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "vram/error.hpp"

using namespace vram;
using nlohmann::json;

namespace {
struct Refusal {
  std::string path;
  std::string message;
};
Refusal refusal(const std::string& text, const io::ReadLimits& limits = io::kDefaultReadLimits) {
  try {
    (void)io::read_json(text, "the text", limits);
  } catch (const InputError& e) {
    return {e.path(), e.what()};
  }
  return {"(accepted)", ""};
}
}  // namespace

TEST_CASE("a well-formed document reads as nlohmann would read it", "[json_read]") {
  const std::string text = R"({"a": [1, 2.5, "x", {"b": null}], "c": true, "d": -3, "e": 18446744073709551615})";
  CHECK(io::read_json(text, "t") == json::parse(text));
}

TEST_CASE("numbers, strings and escapes read with nlohmann's value types", "[json_read]") {
  // The direct reader types numbers itself: what nlohmann calls unsigned,
  // signed or float must come out the same, and every escape must decode alike.
  const std::string text =
      R"({"u": 0, "i": -0, "n": -42, "big": 999999999999999999, "max": 18446744073709551615,)"
      R"( "over": 18446744073709551616, "neg": -9223372036854775808, "f": 1.5e3, "g": -0.0, "h": 2E-2,)"
      R"( "s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u20ac", "raw": "é€😀", "e": [], "o": {}, "t": [true, false, null]})";
  const json ours = io::read_json(text, "t");
  const json theirs = json::parse(text);
  CHECK(ours.dump() == theirs.dump());
  for (const auto& [key, value] : theirs.items()) {
    INFO(key);
    CHECK(ours.at(key).type() == value.type());
  }
  CHECK(ours.at("u").is_number_unsigned());
  CHECK(ours.at("n").is_number_integer());
  CHECK(ours.at("n").get<std::int64_t>() == -42);
  CHECK(ours.at("over").is_number_float());
  CHECK(ours.at("s").get<std::string>() == "a\"b\\c/d\b\f\n\r\t\u00e9\U0001F600\u20ac");
}

TEST_CASE("text the direct reader does not accept is refused as before", "[json_read]") {
  // Each of these leaves the direct path; the refusal must still name where.
  CHECK(refusal("[1e400]").path == "/0");
  CHECK(refusal("[1e400]").message.find("malformed JSON") != std::string::npos);
  for (const std::string bad : {R"({"a": 01})", R"({"a": "\ud800"})", R"({"a": "\x"})", "{\"a\": \"tab\there\"}", "[1, 2,]",
                                "[1] 2", "", "[-]", "[1.]", "[tru]"}) {
    INFO(bad);
    CHECK(refusal(bad).message.find("malformed JSON") != std::string::npos);
  }
  CHECK(refusal(R"({"a": 1, "b": {"c": 2, "c": 3}})").path == "/b/c");
  io::ReadLimits limits;
  limits.max_depth = 2;
  CHECK(refusal("[[[1]]]", limits).path == "/0/0");
  CHECK(refusal("[[1]]", limits).path == "(accepted)");
  // Deeper than the direct reader ever recurses, within a caller's larger
  // limit: read by the SAX path, which holds no recursion.
  limits.max_depth = 200;
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  CHECK(refusal(deep, limits).path == "(accepted)");
}

TEST_CASE("nesting is bounded, at the pointer of the value that goes too deep", "[json_read]") {
  io::ReadLimits limits;
  limits.max_depth = 3;
  CHECK_NOTHROW(io::read_json(R"({"a": [[1]]})", "t", limits));  // three levels
  const Refusal r = refusal(R"({"a": [[[1]]]})", limits);
  CHECK(r.path == "/a/0/0");
  CHECK(r.message.find("nested deeper than 3 levels") != std::string::npos);
  CHECK(refusal(R"({"a": {"b~c/d": [{}]}})", limits).path == "/a/b~0c~1d/0");
  // 300,000 levels: refused without exhausting any stack.
  const std::string deep = std::string(300'000, '[') + std::string(300'000, ']');
  CHECK(refusal(deep).message.find("nested deeper than 64") != std::string::npos);
}

TEST_CASE("duplicate keys are refused at their pointer", "[json_read]") {
  CHECK(refusal(R"({"model": "a", "model": {"params": 1}})").path == "/model");
  const Refusal r = refusal(R"({"inference": {"x": [0, {"context": 1, "context": 2}]}})");
  CHECK(r.path == "/inference/x/1/context");
  CHECK(r.message.find("duplicate key \"context\"") != std::string::npos);
  CHECK_NOTHROW(io::read_json(R"({"a": {"k": 1}, "b": {"k": 1}})", "t"));  // same key in two objects
}

TEST_CASE("text that is not UTF-8 is refused with its byte offset", "[json_read]") {
  CHECK_FALSE(io::first_invalid_utf8("plain ascii, é, 日本, 🙂"));
  CHECK(io::first_invalid_utf8("ab\x80") == 2u);                 // lone continuation byte
  CHECK(io::first_invalid_utf8("\xC0\xAF") == 0u);               // overlong '/'
  CHECK(io::first_invalid_utf8("x\xE0\x80\xAF") == 1u);          // overlong three-byte form
  CHECK(io::first_invalid_utf8("\xED\xA0\x80") == 0u);           // UTF-16 surrogate D800
  CHECK(io::first_invalid_utf8("\xF4\x90\x80\x80") == 0u);       // above U+10FFFF
  CHECK(io::first_invalid_utf8("abc\xE6\x97") == 3u);            // truncated at the end
  const Refusal r = refusal("{\"model\": \"a\xFF\"}");
  CHECK(r.message.find("not valid UTF-8: byte offset 12") != std::string::npos);
}

TEST_CASE("size is checked before anything is parsed", "[json_read]") {
  io::ReadLimits limits;
  limits.max_bytes = 16;
  CHECK_NOTHROW(io::read_json(R"({"a": "123456"})", "t", limits));  // 15 bytes
  const Refusal r = refusal(R"({"a": "12345678"})", limits);
  CHECK(r.path.empty());
  CHECK(r.message.find("17 bytes") != std::string::npos);
}

TEST_CASE("malformed JSON names its byte offset", "[json_read]") {
  const Refusal r = refusal(R"({"a": tru})");
  CHECK(r.path.empty());
  CHECK(r.message.find("malformed JSON at byte offset") != std::string::npos);
  CHECK(refusal("").message.find("malformed JSON") != std::string::npos);
  CHECK(refusal("{} {}").message.find("malformed JSON") != std::string::npos);
}

TEST_CASE("values are described briefly, never dumped whole", "[json_read]") {
  CHECK(io::describe_value(json::array({1, 2, 3})) == "an array of 3 values");
  CHECK(io::describe_value(json::object()) == "an object of 0 fields");
  CHECK(io::describe_value(json(std::string(100, 'x'))) == "the string \"" + std::string(40, 'x') + "…\"");
  CHECK(io::describe_value(json(12.5)) == "12.5");
  // A cut never splits a UTF-8 sequence: 39 ASCII bytes then "é" (2 bytes) cut at 40.
  CHECK(io::describe_value(json(std::string(39, 'a') + "é" + std::string(10, 'b'))) ==
        "the string \"" + std::string(39, 'a') + "…\"");
}

TEST_CASE("a config.json as Python writes it: Infinity and NaN outside strings read as null", "[json_read][config]") {
  // transformers' Mamba2Config keeps time_step_limit = (0.0, inf); json.dumps writes Infinity.
  const std::string text =
      R"({"time_step_limit": [0.0, Infinity], "a": -Infinity, "b":NaN, "name": "NaN Infinity", "c": [NaN,1]})";
  CHECK(refusal(text).message.find("malformed JSON") != std::string::npos);  // not JSON
  int n = -1;
  const json j = io::read_config_json(text, "config.json", n);
  CHECK(n == 4);
  CHECK(j["time_step_limit"] == json::array({0.0, nullptr}));
  CHECK(j["a"].is_null());
  CHECK(j["b"].is_null());
  CHECK(j["name"] == "NaN Infinity");  // inside a string: kept
  CHECK(j["c"] == json::array({nullptr, 1}));
  // A word that only begins like one stays what it is: an error, as in JSON.
  CHECK_THROWS_AS(io::read_config_json(R"({"x": Infinityx})", "config.json", n), InputError);
  CHECK_THROWS_AS(io::read_config_json(R"({"x": NaNa})", "config.json", n), InputError);
  // Plain JSON is read as is; an escaped quote does not end the string.
  CHECK(io::read_config_json(R"({"s": "a\" NaN"})", "config.json", n) == json{{"s", "a\" NaN"}});
  CHECK(n == 0);
  const json doc = io::config_document(text);
  CHECK(doc["ok"] == true);
  CHECK(doc["notes"] == json::array({"config.json: 4 values that Python's json writes as Infinity or NaN (JSON has "
                                     "neither) read as null"}));
  CHECK_THROWS_AS(io::config_document("[1, 2]"), InputError);  // a config is one object
}
