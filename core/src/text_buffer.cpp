#include "vram/text_buffer.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace vram {

void TextBuffer::grow(std::size_t n) {
  const std::size_t used = size();
  const std::size_t want = std::max({used + n, 2 * static_cast<std::size_t>(end_ - begin_), std::size_t{64}});
  char* p = nullptr;
  if (borrowed_) {  // the caller's storage is full: move to a heap block
    p = static_cast<char*>(std::malloc(want));
    if (p == nullptr) throw std::bad_alloc();
    if (used > 0) std::memcpy(p, begin_, used);
    borrowed_ = false;
  } else {
    p = static_cast<char*>(std::realloc(begin_, want));
    if (p == nullptr) throw std::bad_alloc();
  }
  begin_ = p;
  cur_ = p + used;
  end_ = p + want;
}

std::string TextBuffer::take() {
  std::string text(view());
  if (!borrowed_) std::free(begin_);
  begin_ = cur_ = end_ = nullptr;
  borrowed_ = false;
  return text;
}

}  // namespace vram
