// A structure-aware mutator for JSON inputs (libFuzzer's LLVMFuzzerCustomMutator).
//
// Byte mutations of a scenario mostly yield malformed JSON, which the core
// refuses at once. Half of the time this mutator instead parses the input (for
// .jsonl, one of its lines), changes one value, key or container, and writes it
// back: a field of the wrong type, an edge-case number, an unknown or missing
// key, an enum value from elsewhere, a container nested deeper. The other half,
// and whenever the input does not parse, libFuzzer's own byte mutations run.
// Names for keys and string values come from the dictionary given with -dict=.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace vram::fuzz {

/// Quoted words of the dictionary ("\"context\"" → context).
inline std::vector<std::string>& dictionary_names() {
  static std::vector<std::string> names;
  return names;
}

/// Reads the names from the -dict=FILE argument, if any (LLVMFuzzerInitialize).
inline void load_dictionary_names(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (!a.starts_with("-dict=")) continue;
    std::ifstream in(std::string(a.substr(6)));
    std::string line;
    while (std::getline(in, line)) {
      const auto first = line.find('"');
      const auto last = line.rfind('"');
      if (line.starts_with("#") || first == std::string::npos || last <= first) continue;
      // A JSON string token is written "\"word\"": keep the word when it has no other escapes.
      const std::string token = line.substr(first + 1, last - first - 1);
      if (token.size() > 4 && token.starts_with("\\\"") && token.ends_with("\\\"")) {
        const std::string word = token.substr(2, token.size() - 4);
        if (word.find('\\') == std::string::npos) dictionary_names().push_back(word);
      }
    }
  }
}

namespace detail {

using nlohmann::json;
using Rng = std::minstd_rand;

inline std::size_t below(Rng& rng, std::size_t n) {
  return n == 0 ? 0 : static_cast<std::size_t>(rng() % n);
}

inline std::string a_name(Rng& rng) {
  const auto& names = dictionary_names();
  if (names.empty() || below(rng, 8) == 0) return "x" + std::to_string(below(rng, 100));
  return names[below(rng, names.size())];
}

inline json a_number(Rng& rng, const json& old) {
  // Edges of int64 and double, and the bounds the scenario reader states
  // (counts 1024 / 4096 / 100,000, widths 10^7, contexts 10^8, positions 10^9, ...).
  static const json edges[] = {0,
                               1,
                               -1,
                               2,
                               3,
                               7,
                               64,
                               1000,
                               1024,
                               4096,
                               100'000,
                               1'000'000,
                               10'000'000,
                               100'000'000,
                               1'000'000'000,
                               1 << 20,
                               std::int64_t{1} << 31,
                               std::int64_t{1} << 32,
                               std::int64_t{1} << 46,
                               std::int64_t{1} << 53,
                               (std::int64_t{1} << 53) + 1,
                               std::int64_t{100'000'000'000'000},
                               std::int64_t{1'000'000'000'000'000},
                               std::numeric_limits<std::int64_t>::max(),
                               std::numeric_limits<std::int64_t>::min(),
                               std::numeric_limits<std::uint64_t>::max(),
                               0.01,
                               0.5,
                               0.9,
                               0.999999,
                               1.5,
                               -0.0,
                               1e-300,
                               1e15,
                               9.3e18,
                               1e308,
                               -1e308};
  if (old.is_number() && below(rng, 2) == 0) {
    const double v = old.get<double>();
    switch (below(rng, 6)) {
      case 0: return v * 2;
      case 1: return v * 1000;
      case 2: return -v;
      case 3: return v + 1;
      case 4: return v - 1;
      default:  // an integer as a fraction, a fraction as an integer
        if (old.is_number_integer() || !(v > -9e18 && v < 9e18)) return v / 3;
        return static_cast<std::int64_t>(v);
    }
  }
  return edges[below(rng, std::size(edges))];
}

inline json a_value(Rng& rng, const json& old) {
  switch (below(rng, 9)) {
    case 0: return nullptr;
    case 1: return below(rng, 2) == 0;
    case 2:
    case 3: return a_number(rng, old);
    case 4:
    case 5: return a_name(rng);
    case 6: return below(rng, 2) ? json::array({old}) : json::object({{a_name(rng), old}});
    case 7: return below(rng, 2) ? json::array() : json::object();
    default: return std::string(below(rng, 3) * 40, 'a');
  }
}

/// Containers deeper than this are left to byte mutations: writing the document
/// back (`dump`) recurses once per level.
inline constexpr std::size_t kMaxDepth = 200;

/// Every value of the document, without recursion (inputs may nest deeply);
/// empty when the document is deeper than kMaxDepth (or too large to tell).
inline std::vector<json*> values_of(json& root) {
  std::vector<json*> out;
  std::vector<std::pair<json*, std::size_t>> todo{{&root, 1}};
  while (!todo.empty() && out.size() < 20000) {
    const auto [v, depth] = todo.back();
    todo.pop_back();
    if (depth > kMaxDepth) return {};
    out.push_back(v);
    if (v->is_structured()) {
      for (auto& child : *v) todo.emplace_back(&child, depth + 1);
    }
  }
  if (!todo.empty()) return {};  // too large to walk whole: its depth is unknown
  return out;
}

/// One change somewhere in `doc`; false when the document is too deep to write back.
inline bool mutate_document(json& doc, Rng& rng) {
  const auto all = values_of(doc);
  if (all.empty()) return false;
  json& v = *all[below(rng, all.size())];
  if (v.is_object() && !v.empty() && below(rng, 2) == 0) {
    auto it = v.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(below(rng, v.size())));
    switch (below(rng, 3)) {
      case 0: v.erase(it); return true;  // a field missing
      case 1: {                          // a field renamed
        json moved = *it;
        v.erase(it);
        v[a_name(rng)] = std::move(moved);
        return true;
      }
      default: v[a_name(rng)] = a_value(rng, *it); return true;  // a field added
    }
  }
  if (v.is_array() && !v.empty() && below(rng, 2) == 0) {
    const std::size_t i = below(rng, v.size());
    switch (below(rng, 3)) {
      case 0: v.erase(i); return true;
      case 1: v.push_back(v[i]); return true;
      default: v[i] = a_value(rng, v[i]); return true;
    }
  }
  v = a_value(rng, v);
  return true;
}

}  // namespace detail

/// The custom mutator: `per_line` for .jsonl inputs (one line changes).
inline std::size_t mutate_json(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed,
                               bool per_line) {
  detail::Rng rng(seed);
  if (detail::below(rng, 2) == 0) return LLVMFuzzerMutate(data, size, max_size);
  std::string text(reinterpret_cast<const char*>(data), size);
  std::size_t begin = 0, end = text.size();
  if (per_line) {
    std::vector<std::pair<std::size_t, std::size_t>> lines;
    for (std::size_t b = 0; b <= text.size();) {
      std::size_t e = text.find('\n', b);
      if (e == std::string::npos) e = text.size();
      if (e > b) lines.emplace_back(b, e);
      b = e + 1;
    }
    if (lines.empty()) return LLVMFuzzerMutate(data, size, max_size);
    std::tie(begin, end) = lines[detail::below(rng, lines.size())];
  }
  nlohmann::json doc = nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(begin),
                                             text.begin() + static_cast<std::ptrdiff_t>(end), nullptr, false);
  if (doc.is_discarded() || !detail::mutate_document(doc, rng)) return LLVMFuzzerMutate(data, size, max_size);
  std::string out;
  try {
    out = text.substr(0, begin) + doc.dump() + text.substr(end);
  } catch (const nlohmann::json::exception&) {  // a string that is not UTF-8: leave it to byte mutations
    return LLVMFuzzerMutate(data, size, max_size);
  }
  if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace vram::fuzz
