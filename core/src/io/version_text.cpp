// Version texts as release tags and pip spell them: "0.10.1", "v4.36",
// "0.15.2rc1", "4.57.0.dev0", "0.19.0+cu128".
#include "vram/io/version_text.hpp"

#include <cctype>

namespace vram::io {

namespace {

/// Reads the digits at `i` into `out`; false when there are none (or too many).
bool read_number(std::string_view t, std::size_t& i, int& out) {
  const std::size_t start = i;
  long v = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) != 0 && i - start < 6) {
    v = v * 10 + (t[i] - '0');
    ++i;
  }
  if (i == start || (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) != 0)) return false;
  out = static_cast<int>(v);
  return true;
}

/// A pre-release or local suffix: ".dev0", "rc1", "+cu121", "-post1".
bool plausible_suffix(std::string_view s) {
  if (s.empty()) return true;
  const char first = s.front();
  if (first != '.' && first != '-' && first != '+' && std::isalpha(static_cast<unsigned char>(first)) == 0)
    return false;
  for (const char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '.' && c != '-' && c != '+' && c != '_') return false;
  }
  return true;
}

}  // namespace

std::optional<VersionText> read_version(std::string_view text) {
  std::size_t i = (!text.empty() && (text[0] == 'v' || text[0] == 'V')) ? 1 : 0;
  VersionText v;
  if (!read_number(text, i, v.major) || i >= text.size() || text[i] != '.') return std::nullopt;
  ++i;
  if (!read_number(text, i, v.minor)) return std::nullopt;
  v.patch = 0;
  if (i + 1 < text.size() && text[i] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0) {
    ++i;
    if (!read_number(text, i, v.patch)) return std::nullopt;
  }
  if (!plausible_suffix(text.substr(i))) return std::nullopt;
  return v;
}

}  // namespace vram::io
