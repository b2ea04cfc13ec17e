// A small streaming JSON writer for the report: the estimator answers every
// slider move, and building a DOM to print it would cost more than the estimate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "vram/text_buffer.hpp"

namespace vram::io {

using vram::TextBuffer;

/// Writes JSON text. The caller pairs begin/end calls; commas are inserted
/// automatically; take() hands over the text.
class JsonWriter {
 public:
  JsonWriter() = default;
  explicit JsonWriter(std::size_t capacity) : out_(capacity) {}
  /// Writes into the caller's n bytes at `initial` first (see TextBuffer).
  JsonWriter(char* initial, std::size_t n) : out_(initial, n) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
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

  std::string_view view() const { return out_.view(); }
  /// The text written; the writer is empty afterwards.
  std::string take() {
    first_ = true;
    return out_.take();
  }

 private:
  void separate() {
    if (!first_) out_.put(',');
    first_ = false;
  }
  JsonWriter& open(char c);
  JsonWriter& close(char c);
  TextBuffer out_;
  bool first_ = true;
};

class ObjectText {
 public:
  ObjectText() { w_.begin_object(); }
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
  /// A string value that `write(TextBuffer&)` appends (a formula, a joined
  /// text), built on the stack rather than as a string of its own.
  template <typename F>
  ObjectText& set_text(std::string_view k, F&& write) {
    char store[768];
    TextBuffer t(store, sizeof store);
    write(t);
    w_.key(k).value(t.view());
    return *this;
  }
  /// Closes the object and hands over its text.
  std::string str() {
    w_.end_object();
    return w_.take();
  }

 private:
  char store_[1024];  // most detail objects fit: no allocation but the text handed over
  JsonWriter w_{store_, sizeof store_};
};

/// `s` as a JSON string literal, quotes included, in ASCII: every non-ASCII
/// character as a \u escape (a surrogate pair beyond U+FFFF), a malformed
/// UTF-8 byte as \ufffd.
void append_json_string(TextBuffer& out, std::string_view s);
void append_json_string(std::string& out, std::string_view s);

}  // namespace vram::io
