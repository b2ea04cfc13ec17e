// An allowed value of a setting and the name it is spelled with: every kind
// the scenario names (frameworks, formats, cache dtypes, ...) is an enum with
// one such table, read by the parser, its error messages and the page alike.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace vram {

/// One allowed value of a setting and the name the scenario spells it with.
template <typename E>
struct Choice {
  E value;
  std::string_view name;
};

/// The name of `value` in `table` ("" when absent: a table is always complete).
template <typename E, std::size_t N>
constexpr std::string_view name_of(const std::array<Choice<E>, N>& table, E value) {
  for (const auto& c : table)
    if (c.value == value) return c.name;
  return "";
}

/// The value spelled `name` in `table`, or nullptr.
template <typename E, std::size_t N>
constexpr const E* find_choice(const std::array<Choice<E>, N>& table, std::string_view name) {
  for (const auto& c : table)
    if (c.name == name) return &c.value;
  return nullptr;
}

/// "a, b, c": the names of `table`, for error messages; a value spelled
/// several ways is listed by its first (canonical) name.
template <typename E, std::size_t N>
std::string choice_list(const std::array<Choice<E>, N>& table) {
  std::string list;
  for (const auto& c : table) {
    if (name_of(table, c.value) == c.name) list += (list.empty() ? "" : ", ") + std::string(c.name);
  }
  return list;
}

}  // namespace vram
