#include "vram/io/json_fields.hpp"

#include <cmath>

#include "vram/error.hpp"
#include "vram/io/json_read.hpp"

namespace vram::io {

std::string join_path(const std::string& parent, std::string_view key) {
  std::string escaped;
  for (char c : key) {
    if (c == '~')
      escaped += "~0";
    else if (c == '/')
      escaped += "~1";
    else
      escaped += c;
  }
  return parent + "/" + escaped;
}

namespace {

template <typename Names>
std::string joined(const Names& names) {
  std::string list;
  for (const auto& n : names) (list += list.empty() ? "" : ", ") += n;
  return list;
}

std::string describe_range(IntRange r) {
  return "an integer from " + std::to_string(r.min) + " to " + std::to_string(r.max);
}

// `path` and `key` are joined only when there is an error to report.
std::int64_t read_int(const json& v, const std::string& parent, std::string_view key, IntRange range) {
  auto path = [&] { return join_path(parent, key); };
  std::int64_t n = 0;
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      throw InputError(path(), "must be " + describe_range(range) + "; got a number too large to hold");
    }
    n = v.get<std::int64_t>();
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15) {
      throw InputError(path(), "must be " + describe_range(range) + "; got " + describe_value(v));
    }
    n = static_cast<std::int64_t>(d);
  } else {
    throw InputError(path(), "must be " + describe_range(range) + "; got " + describe_value(v));
  }
  if (n < range.min || n > range.max) {
    throw InputError(path(), "must be " + describe_range(range) + "; got " + std::to_string(n));
  }
  return n;
}

}  // namespace

const json& require_object(const json& value, const std::string& path, const std::string& what) {
  if (!value.is_object()) {
    throw InputError(path, what + " must be a JSON object; got " + std::string(value.type_name()));
  }
  return value;
}

std::optional<std::int64_t> optional_int(const json& obj, std::string_view key, const std::string& path,
                                         IntRange range) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  return read_int(*it, path, key, range);
}

std::int64_t require_int(const json& obj, std::string_view key, const std::string& path, IntRange range) {
  auto v = optional_int(obj, key, path, range);
  if (!v) throw InputError(join_path(path, key), "is required: " + describe_range(range));
  return *v;
}

std::optional<std::int64_t> optional_int_any(const json& obj, std::initializer_list<std::string_view> keys,
                                             const std::string& path, IntRange range) {
  for (const auto& k : keys) {
    if (auto v = optional_int(obj, k, path, range)) return v;
  }
  return std::nullopt;
}

std::int64_t require_int_any(const json& obj, std::initializer_list<std::string_view> keys, const std::string& path,
                             IntRange range) {
  if (auto v = optional_int_any(obj, keys, path, range)) return *v;
  std::string names;
  for (const auto& k : keys) (names += names.empty() ? "" : " or ") += k;
  throw InputError(join_path(path, *keys.begin()), "is required (" + names + "): " + describe_range(range));
}

std::optional<double> optional_number(const json& obj, std::string_view key, const std::string& path, double min,
                                      double max) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  const double d = it->is_number() ? it->get<double>() : 0;
  if (!it->is_number() || !std::isfinite(d) || d < min || d > max) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "must be a number from %g to %g; got ", min, max);
    throw InputError(join_path(path, key),
                     buf + (it->is_number() ? describe_value(*it) : std::string(it->type_name())));
  }
  return d;
}

double require_number(const json& obj, std::string_view key, const std::string& path, double min, double max) {
  auto v = optional_number(obj, key, path, min, max);
  if (!v) {
    char buf[120];
    std::snprintf(buf, sizeof buf, "is required: a number from %g to %g", min, max);
    throw InputError(join_path(path, key), buf);
  }
  return *v;
}

std::optional<bool> optional_bool(const json& obj, std::string_view key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) {
    throw InputError(join_path(path, key), "must be true or false; got " + describe_value(*it));
  }
  return it->get<bool>();
}

std::optional<std::string> optional_string(const json& obj, std::string_view key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    throw InputError(join_path(path, key), "must be a string; got " + describe_value(*it));
  }
  return it->get<std::string>();
}

std::optional<std::string> optional_choice(const json& obj, std::string_view key, const std::string& path,
                                           std::initializer_list<std::string_view> allowed) {
  auto v = optional_string(obj, key, path);
  if (!v) return v;
  for (const auto& a : allowed) {
    if (*v == a) return v;
  }
  throw InputError(join_path(path, key), unknown_value_message(*v, std::vector<std::string_view>(allowed)));
}

std::string fold_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::string unknown_value_message(std::string_view given, const std::vector<std::string_view>& allowed) {
  const std::string f = fold_name(given);
  std::string_view match;
  int matches = 0;
  for (std::string_view a : allowed) {
    if (fold_name(a) == f) {
      match = a;
      ++matches;
    }
  }
  std::string text = "unknown value \"" + std::string(given) + "\"";
  if (matches == 1) text += " (did you mean \"" + std::string(match) + "\"?)";
  return text + "; allowed: " + joined(allowed);
}

namespace {

/// Calls `on_unknown(key)` for each key of `obj` outside `known` and "extra".
template <typename Names, typename F>
void for_unknown_keys(const json& obj, const Names& known, F&& on_unknown) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it.key() == "extra") continue;
    bool found = false;
    for (const auto& k : known) found = found || k == it.key();
    if (!found) on_unknown(it.key());
  }
}

}  // namespace

void warn_unknown_keys(const json& obj, const std::string& path, std::initializer_list<std::string_view> known,
                       std::vector<std::string>& warnings) {
  warn_unknown_keys(obj, path, std::span<const std::string_view>(known.begin(), known.size()), warnings);
}

void warn_unknown_keys(const json& obj, const std::string& path, std::span<const std::string_view> known,
                       std::vector<std::string>& warnings) {
  for_unknown_keys(obj, known, [&](const std::string& key) {
    warnings.push_back(join_path(path, key) + ": unknown field, ignored; allowed here: " + joined(known) +
                       " (and \"extra\" for settings the estimator does not model)");
  });
}

void reject_unknown_keys(const json& obj, const std::string& path, std::initializer_list<std::string_view> known) {
  for_unknown_keys(obj, known, [&](const std::string& key) {
    throw InputError(join_path(path, key), "unknown field; allowed here: " + joined(known) + ", extra");
  });
}

void reject_unknown_keys(const json& obj, const std::string& path, std::span<const std::string_view> known) {
  for_unknown_keys(obj, known, [&](const std::string& key) {
    throw InputError(join_path(path, key), "unknown field; allowed here: " + joined(known) + ", extra");
  });
}

}  // namespace vram::io
