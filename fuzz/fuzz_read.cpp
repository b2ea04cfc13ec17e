// Fuzz target: the bounded JSON reader (core/src/io/json_read.cpp) against
// nlohmann's own parser, on the same bytes. Whatever the reader accepts,
// nlohmann must parse to the same document, with the same value types (the
// reader's direct path types numbers itself); whatever it refuses as malformed,
// nlohmann must refuse too; and a document both accept is refused by the
// reader only for a reason it states (depth, duplicate key, UTF-8, NUL, size).
// The config.json reader (Python's Infinity and NaN as null) reads every valid
// JSON text exactly as the JSON reader does.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.hpp"
#include "json_mutator.hpp"
#include "vram/error.hpp"
#include "vram/io/json_read.hpp"

namespace {

using vram::fuzz::json;
using vram::fuzz::require;

constexpr const char* kWhere = "read_json";

bool states_a_bound(const std::string& message) {
  for (const char* reason : {"nested deeper than", "duplicate key", "not valid UTF-8", "NUL byte", "bytes; at most"})
    if (message.find(reason) != std::string::npos) return true;
  return false;
}

/// Equal values of equal types all the way down: nlohmann's == holds 1 equal
/// to 1.0 and to 1u, and -0.0 equal to 0.0. The reader bounds the depth, so
/// this recursion is bounded too.
bool identical(const json& a, const json& b) {
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_object()) {
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
      if (ia.key() != ib.key() || !identical(*ia, *ib)) return false;
    return true;
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!identical(a[i], b[i])) return false;
    return true;
  }
  if (a.is_number_float()) return a.dump() == b.dump();
  return a == b;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  vram::fuzz::load_dictionary_names(*argc, *argv);
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return vram::fuzz::mutate_json(data, size, max_size, seed, /*per_line=*/false);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  vram::io::ReadLimits limits;
  limits.max_depth = 16;  // small, so that the fuzzer reaches the bound often
  const json theirs = json::parse(text, nullptr, false);
  try {
    const json ours = vram::io::read_json(text, "the text", limits);
    require(!theirs.is_discarded(), kWhere, "accepted text that nlohmann refuses");
    require(identical(ours, theirs), kWhere, "read a document different from nlohmann's");
  } catch (const vram::InputError& e) {
    const std::string message = e.what();
    require(message.find("malformed") != std::string::npos || states_a_bound(message), kWhere,
            "refused without naming why: " + message);
    if (message.find("malformed") != std::string::npos) {
      require(theirs.is_discarded(), kWhere, "called malformed a text that nlohmann reads: " + message);
    }
  }
  // The config.json reader: what JSON accepts it reads identically, touching nothing; on anything
  // else it answers a document or an InputError, never anything worse.
  int replaced = 0;
  try {
    const json config = vram::io::read_config_json(text, "config.json", replaced, limits);
    if (!theirs.is_discarded()) {
      require(replaced == 0, kWhere, "read_config_json replaced a literal in valid JSON");
      require(identical(config, theirs), kWhere, "read_config_json read valid JSON differently");
    }
  } catch (const vram::InputError&) {
  }
  return 0;
}
