// Text under construction, shared by the JSON writer and the formula renderer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace vram {

/// Copies n bytes. In WebAssembly without bulk memory, memcpy is a library
/// loop that copies one byte at a time unless both ends are word-aligned, and
/// the text pieces here (ten to a few hundred bytes, at any offset) never are:
/// eight bytes per unaligned load and store is several times faster. With bulk
/// memory (memory.copy) it is as fast and 49 KB smaller in the module than
/// memcpy, which the compiler then inlines everywhere. A piece of 4 to 16 bytes
/// (most keys, separators and units) is two overlapping words, not a byte loop.
/// Natively, memcpy.
inline void copy_text(char* d, const char* s, std::size_t n) {
#ifdef __EMSCRIPTEN__
  if (n >= 8) {  // whole words, the last one ending at the last byte (it may overlap the one before)
    const char* const last = s + n - 8;
    char* const d_last = d + n - 8;
    std::uint64_t w;
    for (; s < last; s += 8, d += 8) {
      __builtin_memcpy(&w, s, 8);
      __builtin_memcpy(d, &w, 8);
    }
    __builtin_memcpy(&w, last, 8);
    __builtin_memcpy(d_last, &w, 8);
    return;
  }
  if (n >= 4) {  // the short pieces (keys, separators, units): two overlapping 4-byte words
    std::uint32_t a, b;
    __builtin_memcpy(&a, s, 4);
    __builtin_memcpy(&b, s + n - 4, 4);
    __builtin_memcpy(d, &a, 4);
    __builtin_memcpy(d + n - 4, &b, 4);
    return;
  }
  for (; n > 0; --n) *d++ = *s++;
#else
  std::memcpy(d, s, n);
#endif
}

/// Text under construction: appends are inline (one capacity check and one
/// copy per piece), which matters in WebAssembly, where each out-of-line string
/// append costs more than the bytes it copies. The storage is a malloc'd block
/// grown with realloc, never zero-filled (a std::string resized to its capacity
/// writes every byte it adds); take() copies the text into a std::string.
class TextBuffer {
 public:
  TextBuffer() = default;
  explicit TextBuffer(std::size_t capacity) { grow(capacity); }
  /// Writes into the caller's n bytes at `initial` (a stack array that
  /// outlives the buffer) until they are full, and only then into the heap:
  /// a short-lived text then costs no allocation but its take().
  TextBuffer(char* initial, std::size_t n) : begin_(initial), cur_(initial), end_(initial + n), borrowed_(true) {}
  ~TextBuffer() {
    if (!borrowed_) std::free(begin_);
  }
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;
  /// Only a heap buffer moves (borrowed storage stays with its owner).
  TextBuffer(TextBuffer&& o) : begin_(o.begin_), cur_(o.cur_), end_(o.end_) {
    o.begin_ = o.cur_ = o.end_ = nullptr;
    if (o.borrowed_) {
      o.borrowed_ = false;
      borrowed_ = true;
      grow(0);  // into a heap block of its own
    }
  }
  TextBuffer& operator=(TextBuffer&&) = delete;

  void put(char c) {
    if (cur_ == end_) grow(1);
    *cur_++ = c;
  }
  void put(std::string_view s) {
    if (static_cast<std::size_t>(end_ - cur_) < s.size()) grow(s.size());
    copy_text(cur_, s.data(), s.size());
    cur_ += s.size();
  }
  /// At least n writable bytes at the returned pointer; commit() the end written.
  char* room(std::size_t n) {
    if (static_cast<std::size_t>(end_ - cur_) < n) grow(n);
    return cur_;
  }
  void commit(char* end) { cur_ = end; }
  std::size_t size() const { return static_cast<std::size_t>(cur_ - begin_); }
  std::string_view view() const { return begin_ == nullptr ? std::string_view() : std::string_view(begin_, size()); }
  /// The text written; the buffer is empty afterwards.
  std::string take();

 private:
  void grow(std::size_t n);
  char* begin_ = nullptr;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  bool borrowed_ = false;  ///< [begin_, end_) is the caller's, not a heap block
};

/// The same appends for a std::string, so one text routine serves both.
inline void put_text(std::string& out, std::string_view s) { out.append(s); }
inline void put_text(TextBuffer& out, std::string_view s) { out.put(s); }

}  // namespace vram
