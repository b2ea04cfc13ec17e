// A small streaming JSON writer for the report: the estimator answers every
// slider move, and building a DOM to print it would cost more than the estimate.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vram::io {

/// Appends JSON text to a string. The caller pairs begin/end calls; commas are
/// inserted automatically.
class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  /// An object key: an identifier from the code (written as is, not escaped).
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(std::int64_t n);
  JsonWriter& value(int n) { return value(static_cast<std::int64_t>(n)); }
  JsonWriter& value(double d);  ///< shortest text that reads back to the same double; null if not finite
  JsonWriter& value(bool b);
  JsonWriter& null();
  /// Inserts already-serialised JSON as one value.
  JsonWriter& raw(std::string_view json);

 private:
  void separate();
  std::string& out_;
  bool first_ = true;
};

/// Builds one JSON object as text, key by key.
class ObjectText {
 public:
  ObjectText() {
    out_.reserve(256);  // most detail objects fit without growing
    w_.begin_object();
  }
  ObjectText(const ObjectText&) = delete;
  ObjectText& operator=(const ObjectText&) = delete;
  ObjectText& set(std::string_view k, std::string_view v) {
    w_.key(k).value(v);
    return *this;
  }
  ObjectText& set(std::string_view k, const std::string& v) {
    w_.key(k).value(std::string_view(v));
    return *this;
  }
  ObjectText& set(std::string_view k, const char* v) {
    w_.key(k).value(std::string_view(v));
    return *this;
  }
  ObjectText& set(std::string_view k, std::int64_t v) {
    w_.key(k).value(v);
    return *this;
  }
  ObjectText& set(std::string_view k, int v) {
    w_.key(k).value(static_cast<std::int64_t>(v));
    return *this;
  }
  ObjectText& set(std::string_view k, double v) {
    w_.key(k).value(v);
    return *this;
  }
  ObjectText& set(std::string_view k, bool v) {
    w_.key(k).value(v);
    return *this;
  }
  ObjectText& set_raw(std::string_view k, std::string_view json) {
    w_.key(k).raw(json);
    return *this;
  }
  /// Closes the object and hands over its text.
  std::string str() {
    w_.end_object();
    return std::move(out_);
  }

 private:
  std::string out_;
  JsonWriter w_{out_};
};

/// `s` as a JSON string literal, quotes included, in ASCII: every non-ASCII
/// character as a \u escape (a surrogate pair beyond U+FFFF), a malformed
/// UTF-8 byte as \ufffd.
void append_json_string(std::string& out, std::string_view s);

}  // namespace vram::io
