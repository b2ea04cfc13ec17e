// KV cache element types: the scenario's `inference.kv_cache_dtype` and the
// layout the KV cache terms size (core/budget/kv_cache.hpp) read from it.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "vram/choice.hpp"

namespace vram {

/// KV cache element types; the ggml block types are llama.cpp's only.
enum class KvKind : std::uint8_t { fp16, bf16, fp32, fp8, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 };
/// Every spelling of `inference.kv_cache_dtype` besides "auto"; the first of a
/// kind is its canonical name.
inline constexpr std::array<Choice<KvKind>, 14> kKvCacheDtypes{{{KvKind::fp16, "fp16"},
                                                               {KvKind::fp16, "f16"},
                                                               {KvKind::bf16, "bf16"},
                                                               {KvKind::fp32, "fp32"},
                                                               {KvKind::fp32, "f32"},
                                                               {KvKind::fp8, "fp8"},
                                                               {KvKind::fp8, "fp8_e4m3"},
                                                               {KvKind::fp8, "fp8_e5m2"},
                                                               {KvKind::q8_0, "q8_0"},
                                                               {KvKind::q4_0, "q4_0"},
                                                               {KvKind::q4_1, "q4_1"},
                                                               {KvKind::iq4_nl, "iq4_nl"},
                                                               {KvKind::q5_0, "q5_0"},
                                                               {KvKind::q5_1, "q5_1"}}};

/// KV cache element type (`auto` resolves to the model's activation dtype).
struct KvDtype {
  std::string name;  ///< "bf16", "fp8", "q8_0", ...
  std::int64_t block_elems = 1;
  std::int64_t block_bytes = 2;  ///< bytes per block of block_elems values
  KvKind kind = KvKind::bf16;
  /// A ggml block type, which only llama.cpp allocates.
  bool ggml() const { return kind >= KvKind::q8_0; }
};

/// The layout of a KV cache type: 16/32/8-bit floats, or ggml's blocks
/// (block_q8_0: 32 values in 34 B, ...; formats.cpp ggml_type).
KvDtype kv_dtype_of(KvKind kind);

}  // namespace vram
