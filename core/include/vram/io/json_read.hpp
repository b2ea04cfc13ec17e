// Reading untrusted JSON text into a document, within stated bounds.
//
// Every document that enters from outside (a scenario, a pasted config.json,
// an accuracy line) is read here and nowhere else. The reader refuses, with an
// `InputError` that names where and why:
//  - text longer than `max_bytes` (checked before anything is parsed);
//  - bytes that are not UTF-8 (RFC 3629: no overlong forms, no surrogates,
//    nothing above U+10FFFF), with the byte offset of the first bad byte;
//  - nesting deeper than `max_depth` arrays and objects, at the JSON pointer
//    of the value that went too deep;
//  - a key that appears twice in one object, at its JSON pointer;
//  - malformed JSON, with the byte offset.
// Well-formed text is read by a direct reader whose recursion never goes past
// 64 levels; anything it does not accept outright is re-read by nlohmann's SAX
// parser with a builder of our own, iterative, which names the problem. So no
// input can exhaust the stack; every later walk over the document (copies,
// dumps, field readers) is bounded by the same depth.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace vram::io {

struct ReadLimits {
  /// 4 MiB: a Hugging Face config.json is a few kilobytes; the largest
  /// catalog scenario is under 20 KB.
  std::size_t max_bytes = std::size_t{4} << 20;
  /// Levels of arrays and objects; config.json files use five or fewer.
  int max_depth = 64;
};

inline constexpr ReadLimits kDefaultReadLimits{};

/// Byte offset of the first byte that breaks UTF-8, or nullopt when `text` is
/// valid UTF-8.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

/// Parses `text` as one JSON document within `limits`. `what` names the
/// document in messages ("scenario", "accuracy line"). Throws `InputError`.
nlohmann::json read_json(std::string_view text, std::string_view what, const ReadLimits& limits = kDefaultReadLimits);

/// A config.json as Python's json module writes it: float('inf') and float('nan')
/// come out as Infinity, -Infinity and NaN, which JSON does not have
/// (transformers' Mamba2Config keeps time_step_limit = (0.0, inf)). Those tokens,
/// outside strings and standing alone, are read as null and counted in
/// `python_literals`; everything else as read_json.
nlohmann::json read_config_json(std::string_view text, std::string_view what, int& python_literals,
                                const ReadLimits& limits = kDefaultReadLimits);

/// What reading `name` changed: `count` values Python writes as Infinity or NaN, read as null.
std::string python_literals_note(std::string_view name, int count);

/// A pasted config.json read as read_config_json does:
/// {"ok": true, "config": {...}, "notes": [...]}. Throws `InputError`.
nlohmann::json config_document(std::string_view text);

/// A short, bounded description of a JSON value for error messages: scalars as
/// written (strings cut at 40 characters), containers by type and size. Never
/// walks a container, so it is safe on any input.
std::string describe_value(const nlohmann::json& value);

}  // namespace vram::io
