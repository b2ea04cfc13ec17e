// Invariants that every answer of the core keeps, whatever the input. The fuzz
// targets call these on each result; a violation prints what broke and traps,
// so libFuzzer saves the input as a finding.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace vram::fuzz {

using nlohmann::json;

[[noreturn]] inline void violated(std::string_view where, const std::string& what) {
  std::fprintf(stderr, "==vram-fuzz== invariant violated in %.*s: %s\n", static_cast<int>(where.size()), where.data(),
               what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

inline void require(bool ok, std::string_view where, const std::string& what) {
  if (!ok) violated(where, what);
}

/// Errors without a field (an exception that escaped as "internal error", or a
/// JSON type error) break the rule that bad input names the field. Set
/// VRAM_FUZZ_ALLOW_UNNAMED=1 to let them pass while exploring past them.
inline bool unnamed_errors_allowed() {
  static const bool allowed = [] {
    const char* v = std::getenv("VRAM_FUZZ_ALLOW_UNNAMED");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return allowed;
}

/// `obj[key]`, which must be present.
inline const json& field(const json& obj, const char* key, std::string_view where) {
  const auto it = obj.find(key);
  require(it != obj.end(), where, std::string("missing \"") + key + "\"");
  return *it;
}

/// Runs one call of the core; an exception escaping it (the faces promise never
/// to throw) is a violation with its message, not a bare abort.
template <typename F>
auto no_throw(std::string_view where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    violated(where, std::string("an exception escaped: ") + e.what());
  } catch (...) {
    violated(where, "a non-standard exception escaped");
  }
}

/// `obj[key]` as a signed 64-bit integer; anything else is a violation.
inline std::int64_t int_field(const json& obj, const char* key, std::string_view where) {
  const json* it = &field(obj, key, where);
  require(it->is_number_integer(), where, std::string("\"") + key + "\" is not an integer: " + it->dump());
  if (it->is_number_unsigned()) {
    require(it->get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX), where,
            std::string("\"") + key + "\" exceeds int64: " + it->dump());
  }
  return it->get<std::int64_t>();
}

inline std::int64_t nonnegative(const json& obj, const char* key, std::string_view where) {
  const std::int64_t v = int_field(obj, key, where);
  require(v >= 0, where, std::string("negative byte figure \"") + key + "\" = " + std::to_string(v));
  return v;
}

inline bool bool_field(const json& obj, const char* key, std::string_view where) {
  const auto it = obj.find(key);
  require(it != obj.end() && it->is_boolean(), where, std::string("\"") + key + "\" is not true/false");
  return it->get<bool>();
}

/// Every answer is an object with a boolean `ok`; an error names its field as a
/// JSON pointer ("" for the whole document) and says what is wrong. Returns `ok`.
inline bool check_envelope(const json& j, std::string_view where) {
  require(j.is_object(), where, "the answer is not a JSON object");
  const bool ok = bool_field(j, "ok", where);
  if (ok) return true;
  const auto e = j.find("error");
  require(e != j.end() && e->is_object(), where, "ok: false without an error object");
  const auto path = e->find("path");
  const auto message = e->find("message");
  require(path != e->end() && path->is_string(), where, "error.path is not a string");
  require(message != e->end() && message->is_string(), where, "error.message is not a string");
  const std::string& p = path->get_ref<const std::string&>();
  const std::string& m = message->get_ref<const std::string&>();
  require(p.empty() || p.front() == '/', where, "error.path is not a JSON pointer: \"" + p + "\"");
  require(!m.empty(), where, "error.message is empty");
  if (!unnamed_errors_allowed()) {
    require(m.rfind("internal error", 0) != 0, where, "an exception escaped as an unnamed error: " + m);
    require(m.rfind("invalid JSON value", 0) != 0, where, "a JSON type error escaped as an unnamed error: " + m);
  }
  return false;
}

/// JSON text that the core produced: it parses, and the envelope holds.
inline json parse_answer(const std::string& text, std::string_view where) {
  json j = json::parse(text, nullptr, false);
  require(!j.is_discarded(), where, "the answer is not valid JSON (" + std::to_string(text.size()) + " bytes)");
  check_envelope(j, where);
  return j;
}

/// A report object (CONTRACT section 2) that says ok: true.
inline void check_report(const json& r, std::string_view where) {
  const auto comps = r.find("components");
  require(comps != r.end() && comps->is_array(), where, "components is not an array");
  std::int64_t sum = 0;
  for (const auto& c : *comps) {
    require(c.is_object(), where, "a component is not an object");
    const auto id = c.find("id");
    require(id != c.end() && id->is_string() && !id->get_ref<const std::string&>().empty(), where,
            "a component has no id");
    const std::int64_t b = nonnegative(c, "bytes", where);
    require(!__builtin_add_overflow(sum, b, &sum), where, "the component bytes overflow int64 when summed");
  }
  const std::int64_t total = nonnegative(r, "total_bytes", where);
  require(total == sum, where,
          "total_bytes " + std::to_string(total) + " is not the sum of the components " + std::to_string(sum));
  const std::int64_t capacity = int_field(r, "capacity_bytes", where);
  const std::int64_t usable = nonnegative(r, "usable_bytes", where);
  require(capacity > 0, where, "capacity_bytes is not positive: " + std::to_string(capacity));
  require(usable <= capacity, where, "usable_bytes exceeds capacity_bytes");
  const std::int64_t free = int_field(r, "free_bytes", where);
  require(free == usable - total, where, "free_bytes is not usable_bytes − total_bytes");
  if (bool_field(r, "fits", where)) {
    require(total <= usable, where,
            "fits: true but total_bytes " + std::to_string(total) + " > usable_bytes " + std::to_string(usable));
  }
  const auto metrics = r.find("metrics");
  require(metrics != r.end() && metrics->is_object(), where, "metrics is not an object");
  for (auto m = metrics->begin(); m != metrics->end(); ++m) {
    const std::string& name = m.key();
    require(m->is_number() || m->is_null(), where, "metric " + name + " is not a number");
    if (!m->is_number()) continue;
    const double v = m->get<double>();
    const bool counted = name.ends_with("_bytes") || name == "kv_capacity_tokens" || name == "max_concurrency";
    if (counted) require(v >= 0, where, "negative metric " + name + " = " + m->dump());
    if (name.ends_with("_bytes")) require(m->is_number_integer(), where, "byte metric " + name + " is not an integer");
  }
  for (const char* list : {"defaults_used", "warnings"}) {
    const auto l = r.find(list);
    require(l != r.end() && l->is_array(), where, std::string(list) + " is not an array");
    for (const auto& s : *l) require(s.is_string(), where, std::string("an entry of ") + list + " is not a string");
  }
}

/// A JSON value the core built: it must serialise (the faces dump it), and the
/// text must read back as the same value.
inline std::string serialise(const json& j, std::string_view where) {
  std::string text;
  try {
    text = j.dump();
  } catch (const json::exception& e) {
    violated(where, std::string("the answer cannot be serialised: ") + e.what());
  }
  const json back = json::parse(text, nullptr, false);
  require(!back.is_discarded(), where, "the serialised answer does not parse");
  return text;
}

}  // namespace vram::fuzz
