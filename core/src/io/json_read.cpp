#include "vram/io/json_read.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/units.hpp"

namespace vram::io {

using nlohmann::json;

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    if (n - i >= 8) {  // eight ASCII bytes at a time: JSON text is mostly ASCII
      std::uint64_t w;
      std::memcpy(&w, s + i, 8);
      if ((w & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    // Lead byte → sequence length and the allowed range of the second byte
    // (RFC 3629 section 4: excludes overlong forms, surrogates, > U+10FFFF).
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k) {
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    }
    i += len;
  }
  return std::nullopt;
}

std::string describe_value(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "an object of " + std::to_string(v.size()) + " fields";
    case json::value_t::array: return "an array of " + std::to_string(v.size()) + " values";
    case json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      std::string cut = s.size() > 40 ? s.substr(0, 40) : s;
      // Never end inside a UTF-8 sequence.
      while (!cut.empty() && first_invalid_utf8(cut)) cut.pop_back();
      return "the string \"" + cut + (s.size() > 40 ? "…\"" : "\"");
    }
    case json::value_t::discarded: return "nothing";
    default: return v.dump();  // null, booleans and numbers: short by nature
  }
}

namespace {

/// Builds the document from nlohmann's SAX events, refusing duplicate keys and
/// nesting beyond the limit. `stack` holds the open containers; `keys` the key
/// being filled in each open object.
class BoundedBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  BoundedBuilder(json& root, int max_depth) : root_(root), max_depth_(max_depth) {}

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(number_integer_t v) { return put(v); }
  bool number_unsigned(number_unsigned_t v) { return put(v); }
  bool number_float(number_float_t v, const string_t&) { return put(v); }
  bool string(string_t& v) { return put(std::move(v)); }
  bool binary(binary_t& v) { return put(json::binary(std::move(v))); }

  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool start_array(std::size_t) { return open(json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(string_t& k) {
    json& obj = *stack_.back();
    if (obj.contains(k)) {
      fail(join_path(path_of_open(), k), "duplicate key \"" + k + "\": each field may appear once in an object");
      return false;
    }
    keys_.back() = k;
    slot_ = &obj[k];
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    if (!error_) {
      std::string what = ex.what();
      // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." → after the ": ".
      const auto colon = what.find(": ");
      if (colon != std::string::npos) what = what.substr(colon + 2);
      if (first_invalid_utf8(what)) what = "syntax error";
      // A number the parser cannot hold (1e999) is named by its field's
      // pointer; other syntax errors by their offset alone.
      const bool number = ex.id == 406;  // nlohmann out_of_range.406: "number overflow parsing ..."
      fail(number ? path_of_next() : std::string(), "malformed JSON at byte offset " + std::to_string(position > 0 ? position - 1 : 0) + ": " +
                               what);
    }
    return false;
  }

  const std::optional<InputError>& error() const { return error_; }

 private:
  /// Where the next value goes: the root, the end of the open array, or the
  /// slot of the last key of the open object.
  json* place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    *slot_ = std::move(v);
    return slot_;
  }

  bool put(json&& v) {
    place(std::move(v));
    return true;
  }

  bool open(json::value_t type) {
    if (static_cast<int>(stack_.size()) >= max_depth_) {
      fail(path_of_next(), "values nested deeper than " + std::to_string(max_depth_) +
                               " levels of arrays and objects; at most " + std::to_string(max_depth_) +
                               " levels are allowed");
      return false;
    }
    stack_.push_back(place(json(type)));
    keys_.emplace_back();
    return true;
  }

  bool close() {
    stack_.pop_back();
    keys_.pop_back();
    return true;
  }

  /// JSON pointer of the innermost open container.
  std::string path_of_open() const {
    std::string path;
    for (std::size_t i = 1; i < stack_.size(); ++i) path = join_path(path, segment(i - 1, false));
    return path;
  }
  /// JSON pointer of the value about to be placed in the innermost container.
  std::string path_of_next() const {
    if (stack_.empty()) return "";
    return join_path(path_of_open(), segment(stack_.size() - 1, true));
  }
  /// The member name or index, inside open container `i`, of its child: the
  /// last one placed (`next` false) or the one about to be placed.
  std::string segment(std::size_t i, bool next) const {
    const json& c = *stack_[i];
    if (c.is_object()) return keys_[i];
    return std::to_string(next ? c.size() : c.size() - 1);
  }

  void fail(std::string path, std::string message) {
    if (!error_) error_.emplace(std::move(path), message);
  }

  json& root_;
  int max_depth_;
  std::vector<json*> stack_;
  std::vector<std::string> keys_;
  json* slot_ = nullptr;
  std::optional<InputError> error_;
};


/// The common case read directly: a recursive reader over well-formed text
/// that builds the same document the SAX builder would (same value types: an
/// integer without '-' is unsigned, with '-' signed, a number with a fraction
/// or exponent a double read by strtod). It is a fast path only: on anything
/// it does not accept outright (a syntax error, a duplicate key, nesting past
/// the limit, a number out of range, a control character in a string) it
/// answers false, and the SAX builder re-reads the text to name the problem.
/// Its recursion is bounded by `max_depth` and never deeper than
/// `kMaxRecursion`, whatever the limits say (deeper text goes to the SAX path,
/// which holds no recursion).
class FastReader {
 public:
  static constexpr int kMaxRecursion = 64;

  FastReader(std::string_view text, int max_depth)
      : p_(text.data()), end_(text.data() + text.size()), max_depth_(std::min(max_depth, kMaxRecursion)) {}

  bool read(json& out) {
    if (!value(out, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  void skip_space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  bool value(json& out, int depth) {
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{': return object(out, depth);
      case '[': return array(out, depth);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't': out = true; return literal("true");
      case 'f': out = false; return literal("false");
      case 'n': out = nullptr; return literal("null");
      default: return number(out);
    }
  }

  /// Just past '{' or '[': true, and past `close`, when the container is empty.
  bool closes_empty(char close) {
    skip_space();
    if (p_ == end_ || *p_ != close) return false;
    ++p_;
    return true;
  }

  /// After a member or an element: ',' (`more` true) or `close` (`more` false);
  /// false for anything else.
  bool separator(char close, bool& more) {
    skip_space();
    if (p_ == end_) return false;
    const char c = *p_++;
    more = c == ',';
    return more || c == close;
  }

  bool object(json& out, int depth) {
    if (depth >= max_depth_) return false;
    ++p_;  // '{'
    out = json::object();
    auto& members = out.get_ref<json::object_t&>();
    for (bool more = !closes_empty('}'); more;) {
      skip_space();
      std::string key;
      if (p_ == end_ || *p_ != '"' || !string(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      auto [it, fresh] = members.emplace(std::move(key), json());
      if (!fresh || !value(it->second, depth + 1) || !separator('}', more)) return false;
    }
    return true;
  }

  bool array(json& out, int depth) {
    if (depth >= max_depth_) return false;
    ++p_;  // '['
    out = json::array();
    auto& items = out.get_ref<json::array_t&>();
    for (bool more = !closes_empty(']'); more;) {
      items.emplace_back();
      if (!value(items.back(), depth + 1) || !separator(']', more)) return false;
    }
    return true;
  }

  static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool hex4(unsigned& code) {
    if (end_ - p_ < 4) return false;
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const int d = hex_digit(*p_++);
      if (d < 0) return false;
      code = code * 16 + static_cast<unsigned>(d);
    }
    return true;
  }

  static void append_utf8(std::string& s, unsigned cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  /// `\uXXXX`, with a surrogate pair read as one code point; a lone
  /// surrogate is refused (as nlohmann's lexer does).
  bool unicode_escape(std::string& s) {
    unsigned cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      unsigned low = 0;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
      p_ += 2;
      if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(s, cp);
    return true;
  }

  bool escape(std::string& s) {
    if (p_ == end_) return false;
    switch (*p_++) {
      case '"': s += '"'; return true;
      case '\\': s += '\\'; return true;
      case '/': s += '/'; return true;
      case 'b': s += '\b'; return true;
      case 'f': s += '\f'; return true;
      case 'n': s += '\n'; return true;
      case 'r': s += '\r'; return true;
      case 't': s += '\t'; return true;
      case 'u': return unicode_escape(s);
      default: return false;
    }
  }

  /// A string at `p_` (which holds '"'); the text is already valid UTF-8.
  bool string(std::string& s) {
    ++p_;
    while (true) {
      const char* run = p_;
      while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
      s.append(run, p_);
      if (p_ == end_ || static_cast<unsigned char>(*p_) < 0x20) return false;
      if (*p_++ == '"') return true;
      if (!escape(s)) return false;
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  /// A number in RFC 8259's grammar, typed as nlohmann types it.
  bool number(json& out) {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    bool integer = true;
    if (p_ < end_ && *p_ == '.') {
      integer = false;
      ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      integer = false;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      while (p_ < end_ && digit(*p_)) ++p_;
    }
    const std::string token(start, p_);
    if (integer && token.size() <= 18) {  // at most 18 digits: fits both types
      std::int64_t v = 0;
      for (std::size_t i = negative ? 1 : 0; i < token.size(); ++i) v = v * 10 + (token[i] - '0');
      if (negative) {
        out = -v;
      } else {
        out = static_cast<std::uint64_t>(v);
      }
      return true;
    }
    // Longer integers and every fraction or exponent: nlohmann's own reading
    // decides (out-of-range integers become doubles there), via the SAX path.
    if (integer) return false;
    char* stop = nullptr;
    const double v = std::strtod(token.c_str(), &stop);
    if (stop != token.c_str() + token.size() || !std::isfinite(v)) return false;
    out = v;
    return true;
  }

  const char* p_;
  const char* end_;
  int max_depth_;
};

}  // namespace

json read_json(std::string_view text, std::string_view what, const ReadLimits& limits) {
  if (text.size() > limits.max_bytes) {
    throw InputError("", std::string(what) + " is " + group_thousands(static_cast<std::int64_t>(text.size())) +
                             " bytes; at most " + format(Bytes::of(static_cast<std::int64_t>(limits.max_bytes)), kMiB, 0) +
                             " (" + group_thousands(static_cast<std::int64_t>(limits.max_bytes)) +
                             " bytes) is read");
  }
  // nlohmann's reader takes a NUL byte for the end of the text: refuse it
  // rather than read half a document (JSON allows it only escaped, \u0000).
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    throw InputError("", std::string(what) + " holds a NUL byte at byte offset " + std::to_string(nul) +
                             "; JSON text allows it only escaped, as \\u0000");
  }
  if (const auto bad = first_invalid_utf8(text)) {
    throw InputError("", std::string(what) + " is not valid UTF-8: byte offset " + std::to_string(*bad) +
                             " begins an ill-formed sequence (JSON text must be UTF-8, RFC 8259 section 8.1)");
  }
  json root;
  if (FastReader(text, limits.max_depth).read(root)) return root;
  root = json();
  BoundedBuilder builder(root, limits.max_depth);
  const bool ok = json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json, true, false);
  if (builder.error()) throw *builder.error();
  if (!ok) throw InputError("", std::string("malformed ") + std::string(what));
  return root;
}

}  // namespace vram::io

namespace vram::io {

namespace {

/// Whether `c` may stand beside a JSON value: a structural character or white space.
bool delimits(char c) {
  return c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' || c == ' ' || c == '\n' ||
         c == '\r' || c == '\t';
}

/// `text` with Python's Infinity, -Infinity and NaN outside strings written as null.
std::string python_literals_as_null(std::string_view text, int& replaced) {
  static constexpr std::string_view kTokens[] = {"-Infinity", "Infinity", "NaN"};
  std::string out;
  bool in_string = false;
  std::size_t copied = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c != '-' && c != 'I' && c != 'N') continue;
    if (i > 0 && !delimits(text[i - 1])) continue;
    for (const std::string_view t : kTokens) {
      if (text.substr(i, t.size()) != t) continue;
      const std::size_t end = i + t.size();
      if (end < text.size() && !delimits(text[end])) break;
      out.append(text.substr(copied, i - copied)).append("null");
      copied = end;
      ++replaced;
      i = end - 1;
      break;
    }
  }
  if (copied == 0) return std::string(text);
  out.append(text.substr(copied));
  return out;
}

}  // namespace

std::string python_literals_note(std::string_view name, int count) {
  return std::string(name) + ": " + std::to_string(count) + (count == 1 ? " value" : " values") +
         " that Python's json writes as Infinity or NaN (JSON has neither) read as null";
}

json config_document(std::string_view text) {
  int n = 0;
  json out{{"ok", true}, {"config", read_config_json(text, "config.json", n)}, {"notes", json::array()}};
  if (!out["config"].is_object()) throw InputError("", "config.json must be one JSON object; got " + describe_value(out["config"]));
  if (n > 0) out["notes"].push_back(python_literals_note("config.json", n));
  return out;
}

json read_config_json(std::string_view text, std::string_view what, int& python_literals, const ReadLimits& limits) {
  python_literals = 0;
  if (text.size() > limits.max_bytes || text.find_first_of("IN") == std::string_view::npos)
    return read_json(text, what, limits);
  const std::string plain = python_literals_as_null(text, python_literals);
  return read_json(plain, what, limits);
}

}  // namespace vram::io
