#include "vram/text_buffer.hpp"

#include <algorithm>

namespace vram {

void TextBuffer::grow(std::size_t n) {
  const std::size_t used = size();
  const std::size_t want = std::max({used + n, 2 * store_.size(), std::size_t{64}});
  store_.resize(want);
  cur_ = store_.data() + used;
  end_ = store_.data() + store_.size();
}

std::string TextBuffer::take() {
  store_.resize(size());
  std::string text = std::move(store_);
  store_ = std::string();
  cur_ = end_ = nullptr;
  return text;
}

}  // namespace vram
