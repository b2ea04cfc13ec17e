#include "vram/text_buffer.hpp"

#include <algorithm>
#include <new>

namespace vram {

void TextBuffer::grow(std::size_t n) {
  const std::size_t used = size();
  const std::size_t want = std::max({used + n, 2 * static_cast<std::size_t>(end_ - begin_), std::size_t{64}});
  char* p = static_cast<char*>(std::realloc(begin_, want));
  if (p == nullptr) throw std::bad_alloc();
  begin_ = p;
  cur_ = p + used;
  end_ = p + want;
}

std::string TextBuffer::take() {
  std::string text(view());
  std::free(begin_);
  begin_ = cur_ = end_ = nullptr;
  return text;
}

}  // namespace vram
