#include "vram/text_buffer.hpp"

#include <algorithm>

namespace vram {

void TextBuffer::grow(std::size_t n) {
  const std::size_t used = size();
  const std::size_t capacity = static_cast<std::size_t>(end_ - cur_) + used;
  const std::size_t want = std::max({used + n, 2 * capacity, std::size_t{64}});
  std::unique_ptr<char[]> bigger(new char[want]);  // default-initialised: not cleared
  if (used > 0) std::memcpy(bigger.get(), store_.get(), used);
  store_ = std::move(bigger);
  cur_ = store_.get() + used;
  end_ = store_.get() + want;
}

std::string TextBuffer::take() {
  std::string text(view());
  store_.reset();
  cur_ = end_ = nullptr;
  return text;
}

}  // namespace vram
