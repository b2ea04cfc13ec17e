// Reading typed fields from JSON with errors that name the field.
//
// Every reader takes the JSON pointer of the object it reads from, so a
// failure says exactly which field was wrong and what is allowed.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vram/error.hpp"
#include "vram/workloads.hpp"

namespace vram::io {

using nlohmann::json;

/// "/a/b" + "c" -> "/a/b/c" (JSON pointer escaping of '~' and '/').
std::string join_path(const std::string& parent, std::string_view key);

/// Range allowed for an integer field.
struct IntRange {
  std::int64_t min;
  std::int64_t max;
};

/// The largest count any field may hold: 10^15 (beyond any model or GPU).
inline constexpr std::int64_t kAbsurd = 1'000'000'000'000'000;

/// Integer field (a JSON number with no fraction). Throws `InputError` when it
/// is missing, not an integer, or outside `range`.
std::int64_t require_int(const json& obj, std::string_view key, const std::string& path, IntRange range = {1, kAbsurd});
/// Same, but `nullopt` when the key is absent or null.
std::optional<std::int64_t> optional_int(const json& obj, std::string_view key, const std::string& path,
                                         IntRange range = {1, kAbsurd});
/// First key of `keys` that is present (aliases such as n_embd / hidden_size).
std::optional<std::int64_t> optional_int_any(const json& obj, std::initializer_list<std::string_view> keys,
                                             const std::string& path, IntRange range = {1, kAbsurd});
std::int64_t require_int_any(const json& obj, std::initializer_list<std::string_view> keys, const std::string& path,
                             IntRange range = {1, kAbsurd});

/// Finite number in [min, max].
double require_number(const json& obj, std::string_view key, const std::string& path, double min, double max);
std::optional<double> optional_number(const json& obj, std::string_view key, const std::string& path, double min,
                                      double max);

std::optional<bool> optional_bool(const json& obj, std::string_view key, const std::string& path);
std::optional<std::string> optional_string(const json& obj, std::string_view key, const std::string& path);
/// String field that must be one of `allowed`.
std::optional<std::string> optional_choice(const json& obj, std::string_view key, const std::string& path,
                                           std::initializer_list<std::string_view> allowed);

/// A name as a reader may type it: ASCII letters in lower case, without
/// spaces, '-' and '_' ("adamw_8bit" and "AdamW-8bit" both fold to "adamw8bit").
std::string fold_name(std::string_view name);

/// `unknown value "adamw_8bit" (did you mean "adamw-8bit"?); allowed: ...`: the
/// suggestion is the one allowed name that folds to the same text, if any.
std::string unknown_value_message(std::string_view given, const std::vector<std::string_view>& allowed);

/// String field that must name one entry of `table` (a `Choice<E>` table from
/// workloads.hpp); the error lists the table's names.
template <typename E, std::size_t N>
std::optional<E> optional_enum(const json& obj, std::string_view key, const std::string& path,
                               const std::array<Choice<E>, N>& table) {
  const auto v = optional_string(obj, key, path);
  if (!v) return std::nullopt;
  std::vector<std::string_view> names;
  for (const auto& c : table) {
    if (c.name == *v) return c.value;
    names.push_back(c.name);
  }
  throw InputError(join_path(path, key), unknown_value_message(*v, names));
}

/// Adds a warning for each key of `obj` not in `known` (a typo such as "contxt",
/// or a field of a newer contract version): named, listed with what is allowed,
/// never silently dropped. The key "extra" is always allowed.
void warn_unknown_keys(const json& obj, const std::string& path, std::initializer_list<std::string_view> known,
                       std::vector<std::string>& warnings);
/// The same over a table of field names (one table the parser and the page both read).
void warn_unknown_keys(const json& obj, const std::string& path, std::span<const std::string_view> known,
                       std::vector<std::string>& warnings);

/// Throws if `obj` has a key not in `known` (catches typos such as "contxt").
/// The key "extra" is always allowed.
void reject_unknown_keys(const json& obj, const std::string& path, std::initializer_list<std::string_view> known);
void reject_unknown_keys(const json& obj, const std::string& path, std::span<const std::string_view> known);

/// Throws unless `value` is a JSON object.
const json& require_object(const json& value, const std::string& path, const std::string& what);

}  // namespace vram::io
