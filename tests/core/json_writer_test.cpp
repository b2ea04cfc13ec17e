#include "vram/io/json_writer.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

using namespace vram::io;

TEST_CASE("strings are escaped so any text round-trips", "[json]") {
  std::string out;
  append_json_string(out, "a\"b\\c\nd\te\x01 ≈ GiB");
  CHECK(out == "\"a\\\"b\\\\c\\nd\\te\\u0001 \\u2248 GiB\"");
  CHECK(nlohmann::json::parse(out) == "a\"b\\c\nd\te\x01 ≈ GiB");
}

TEST_CASE("the writer places commas and keys", "[json]") {
  JsonWriter w;
  w.begin_object().key("a").value(std::int64_t{1}).key("b").begin_array().value(true).value(0.5).null().end_array();
  w.key("c").value("x").key("d").raw("{\"e\":2}").end_object();
  const std::string out = w.take();
  CHECK(w.view().empty());
  CHECK(out == R"({"a":1,"b":[true,0.5,null],"c":"x","d":{"e":2}})");
}

TEST_CASE("doubles print in a form that reads back exactly, short where the value is short", "[json]") {
  JsonWriter w;
  w.begin_array()
      .value(0.1)
      .value(58.11)
      .value(1.0 / 3.0)
      .value(std::nan(""))
      .value(-2.5)
      .value(1e-7)
      .value(3.0)
      .end_array();
  const std::string out = w.take();
  const auto j = nlohmann::json::parse(out);
  CHECK(j[0].get<double>() == 0.1);
  CHECK(j[1].get<double>() == 58.11);
  CHECK(j[2].get<double>() == 1.0 / 3.0);
  CHECK(j[3].is_null());
  CHECK(j[4].get<double>() == -2.5);
  CHECK(j[5].get<double>() == 1e-7);
  CHECK(out.substr(0, 10) == "[0.1,58.11");
  CHECK(out.find(",-2.5,") != std::string::npos);
  CHECK(out.substr(out.size() - 3) == ",3]");
}

TEST_CASE("the text buffer grows past its capacity and keeps its text across a move", "[json]") {
  TextBuffer b(8);
  std::string expected;
  for (int i = 0; i < 500; ++i) {
    const std::string piece = std::to_string(i) + (i % 7 == 0 ? std::string(150, 'x') : ",");
    if (i % 3 == 0) {
      for (char c : piece) b.put(c);
    } else {
      b.put(piece);
    }
    expected += piece;
  }
  CHECK(b.size() == expected.size());
  TextBuffer moved(std::move(b));
  CHECK(b.size() == 0);  // NOLINT(bugprone-use-after-move): the source is left empty
  CHECK(moved.view() == expected);
  char* p = moved.room(3);
  p[0] = 'e';
  p[1] = 'n';
  p[2] = 'd';
  moved.commit(p + 3);
  CHECK(moved.take() == expected + "end");
  CHECK(moved.size() == 0);
  moved.put("again");
  CHECK(moved.take() == "again");
}

TEST_CASE("a text buffer on the caller's storage moves to the heap only when it is full", "[json]") {
  char store[16];
  std::memset(store, '#', sizeof store);
  TextBuffer b(store, sizeof store);
  b.put("0123456789");
  CHECK(b.view().data() == store);  // still in the caller's bytes
  CHECK(std::string_view(store, 10) == "0123456789");
  b.put("abcdefghij");  // 20 bytes: past the 16 given
  CHECK(b.view().data() != store);
  CHECK(b.view() == "0123456789abcdefghij");
  CHECK(std::string_view(store, 10) == "0123456789");  // the caller's bytes are left as they were
  CHECK(b.take() == "0123456789abcdefghij");
  b.put("after");  // a taken buffer starts again on the heap
  CHECK(b.take() == "after");

  char small[8];
  TextBuffer c(small, sizeof small);
  c.put("abc");
  TextBuffer moved(std::move(c));  // storage that belongs to the caller is copied, not taken
  CHECK(moved.view().data() != small);
  CHECK(c.size() == 0);  // NOLINT(bugprone-use-after-move): the source is left empty
  moved.put("defghijkl");
  CHECK(moved.take() == "abcdefghijkl");
}

TEST_CASE("ObjectText builds one object", "[json]") {
  ObjectText o;
  o.set("engine", "vllm").set("blocks", std::int64_t{29754}).set("eager", false);
  CHECK(o.str() == R"({"engine":"vllm","blocks":29754,"eager":false})");
}

TEST_CASE("escapes are found at every offset of long strings", "[json]") {
  for (std::size_t pos = 0; pos < 40; ++pos) {
    for (char special : {'"', '\\', '\n', '\x1f'}) {
      std::string text(40, 'a');
      text[pos] = special;
      text += " ≈ 24.21 GiB";
      std::string out;
      append_json_string(out, text);
      CAPTURE(pos, static_cast<int>(special));
      CHECK(nlohmann::json::parse(out).get<std::string>() == text);
    }
  }
}

TEST_CASE("two escapes in one eight-byte word are both found, whatever sits between them", "[json]") {
  // The word scan jumps to its lowest marked byte; a borrow from a byte below
  // 0x20 can mark bytes above it, which must never hide or invent an escape.
  const char kinds[] = {'"', '\\', '\x01', '\x1f', '\x20', '\x7f', '\x21', '\x5b', '\x5d'};
  for (std::size_t p = 0; p < 12; ++p) {
    for (std::size_t q = p + 1; q < 12; ++q) {
      for (char a : kinds) {
        for (char b : kinds) {
          std::string text(12, 'x');
          text[p] = a;
          text[q] = b;
          std::string out;
          append_json_string(out, text);
          CAPTURE(p, q, static_cast<int>(a), static_cast<int>(b));
          REQUIRE(nlohmann::json::parse(out).get<std::string>() == text);
          REQUIRE(out == nlohmann::json(text).dump());  // the same escapes as nlohmann's writer
        }
      }
    }
  }
}

TEST_CASE("short strings and the last bytes of long ones are scanned as exactly as whole words", "[json]") {
  // Fewer than eight bytes are read into a word padded with spaces: the padding
  // must never mark an escape, and every real byte must be seen.
  const std::string kinds[] = {"\"", "\\", "\x01", "\x1f", "\x7f", "\xC3\x97"};
  for (std::size_t len = 1; len <= 17; ++len) {
    for (std::size_t pos = 0; pos < len; ++pos) {
      for (const std::string& k : kinds) {
        std::string text(len, 'y');
        text.replace(pos, 1, k);
        std::string out;
        append_json_string(out, text);
        CAPTURE(len, pos, k);
        REQUIRE(nlohmann::json::parse(out).get<std::string>() == text);
      }
    }
  }
  std::string empty;
  append_json_string(empty, "");
  CHECK(empty == "\"\"");
}

TEST_CASE("the text is ASCII: non-ASCII characters become \\u escapes", "[json]") {
  std::string out;
  append_json_string(out, "8 × 2 B, layers 0–31, é, \xF0\x9F\x98\x80");  // U+1F600 needs a surrogate pair
  CHECK(out == "\"8 \\u00d7 2 B, layers 0\\u201331, \\u00e9, \\ud83d\\ude00\"");
  CHECK(nlohmann::json::parse(out) == "8 × 2 B, layers 0–31, é, \xF0\x9F\x98\x80");
  for (unsigned char c : out) CHECK(c < 0x80);
}

TEST_CASE("malformed UTF-8 becomes U+FFFD, one byte at a time", "[json]") {
  const std::pair<std::string, std::string> cases[] = {
      {"a\xFF" "b", "\"a\\ufffdb\""},                 // never valid
      {"\xC0\xAF", "\"\\ufffd\\ufffd\""},       // overlong '/'
      {"\xED\xA0\x80", "\"\\ufffd\\ufffd\\ufffd\""},  // a UTF-16 surrogate
      {"x\xE2\x88", "\"x\\ufffd\\ufffd\""},     // truncated at the end
      {"\xF4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},  // beyond U+10FFFF
  };
  for (const auto& [in, want] : cases) {
    std::string out;
    append_json_string(out, in);
    CAPTURE(in);
    CHECK(out == want);
    CHECK_NOTHROW(nlohmann::json::parse(out));
  }
}

TEST_CASE("random texts are written as nlohmann's ASCII dump writes them, into a buffer that already holds text", "[json]") {
  // Pieces of every kind (plain runs, escapes, two- to four-byte UTF-8) at
  // every alignment; 0x7f is left out (nlohmann escapes it, JSON need not).
  const std::vector<std::string> pieces = {"a",  "plain text ", "\"", "\\",  "\n", "\x01", "\x1f", "×",
                                           "≈", "\xF0\x9F\x98\x80", "0123456789abcdef", " ", "é"};
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  for (int round = 0; round < 500; ++round) {
    std::string text;
    const int n = static_cast<int>(next() % 24);
    for (int k = 0; k < n; ++k) text += pieces[next() % pieces.size()];
    TextBuffer out(static_cast<std::size_t>(1 + next() % 16));
    out.put(std::string(next() % 9, '.'));  // the writer appends at any offset
    const std::size_t before = out.size();
    append_json_string(out, text);
    CAPTURE(round, text);
    CHECK(std::string(out.view().substr(before)) == nlohmann::json(text).dump(-1, ' ', true));
  }
}

TEST_CASE("the last bytes after an escape are read again as one word only where they were copied as they are", "[json]") {
  // A run of plain bytes after an escape, then 1 to 7 more: the last word
  // re-reads bytes of the same run, never the escape written before it.
  const std::string kinds[] = {"\"", "\\", "\n", "\x01", "×", "≈", "é", "\xF0\x9F\x98\x80"};
  for (std::size_t head = 0; head <= 9; ++head) {
    for (std::size_t tail = 0; tail <= 17; ++tail) {
      for (const std::string& a : kinds) {
        for (const std::string& b : kinds) {
          const std::string text = std::string(head, 'h') + a + std::string(tail, 't') + b + std::string(tail % 8, 'z');
          std::string out;
          append_json_string(out, text);
          CAPTURE(head, tail, a, b);
          REQUIRE(out == nlohmann::json(text).dump(-1, ' ', true));
        }
      }
    }
  }
}
