// Fuzz target: the input bytes are scenario text, given to `estimate_json`
// alone — the path every other face starts with — so that it runs many times
// faster than fuzz_scenario and reaches deeper into the reader and the engines.
// Each answer keeps the invariants in checks.hpp.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checks.hpp"
#include "json_mutator.hpp"
#include "vram/catalog.hpp"
#include "vram/estimate.hpp"

namespace {

const vram::Catalog& catalog() {
  static const vram::Catalog c(vram::embedded_catalog_files());
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  vram::fuzz::load_dictionary_names(*argc, *argv);
  catalog();
  return 0;
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return vram::fuzz::mutate_json(data, size, max_size, seed, /*per_line=*/false);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* where = "estimate_json";
  const std::string text(reinterpret_cast<const char*>(data), size);
  const vram::fuzz::json r = vram::fuzz::parse_answer(
      vram::fuzz::no_throw(where, [&] { return vram::estimate_json(text, catalog()); }), where);
  if (r["ok"].get<bool>()) vram::fuzz::check_report(r, where);
  return 0;
}
