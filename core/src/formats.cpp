// Sources for the layouts:
//   GGML block types: ggml/src/ggml-common.h (block_q4_0 ... block_iq4_xs, block_mxfp4),
//     ggml-org/llama.cpp @ b6000; type traits in ggml/src/ggml.c (type_traits[].blck_size).
//   GGUF mixtures (Q4_K_M, ...): src/llama-quant.cpp llama_tensor_get_type(), same commit.
//   GPTQ: AutoGPTQ/GPTQModel QuantLinear buffers qweight [in/8, out] int32, qzeros
//     [in/g, out/8] int32, scales [in/g, out] fp16, g_idx [in] int32.
//   AWQ: AutoAWQ WQLinear_GEMM qweight [in, out/8], qzeros [in/g, out/8], scales [in/g, out] fp16.
//   compressed-tensors pack-quantized (w4a16): weight_packed [out, in/8] int32,
//     weight_scale [out, in/g] bf16, weight_shape [2] int64 (neuralmagic/compressed-tensors v0.10).
//   compressed-tensors FP8/INT8 channel-wise (fp8, w8a8): weight [out, in] 8-bit,
//     weight_scale [out, 1] fp32.
//   DeepSeek-V3 fp8: weight_scale_inv fp32 per 128x128 block (DeepSeek-V3 README_WEIGHTS.md).
//   MXFP4: 32 e2m1 values + one e8m0 scale = 17 bytes (OCP Microscaling spec v1.0, §5).
//   NVFP4: 16 e2m1 values + one e4m3 scale = 9 bytes, plus an fp32 global scale per
//     tensor (NVIDIA TensorRT Model Optimizer docs, "NVFP4").
//   bitsandbytes NF4: 4-bit codes + fp32 absmax per 64 values; with double quantization
//     the absmax is 8-bit with an fp32 scale per 256 blocks (Dettmers et al., QLoRA, 2023, §3).
#include "vram/formats.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "quant_checkpoint.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_read.hpp"

namespace vram {

using nlohmann::json;

Bytes stored_bytes(const Codec& c, std::int64_t rows, std::int64_t cols, std::int64_t count) {
  const std::int64_t elems = rows * cols;
  std::int64_t bits = 0;
  switch (c.kind) {
    case Codec::Kind::plain: bits = elems * c.elem_bits; break;
    case Codec::Kind::per_row: bits = elems * c.elem_bits + rows * c.scale_bits; break;
    case Codec::Kind::block2d: {
      const std::int64_t tiles =
          ((rows + c.block_rows - 1) / c.block_rows) * ((cols + c.block_cols - 1) / c.block_cols);
      bits = elems * c.elem_bits + tiles * c.scale_bits;
      break;
    }
    case Codec::Kind::group: {
      const std::int64_t groups_per_row = (cols + c.group - 1) / c.group;
      bits = elems * c.elem_bits + rows * groups_per_row * (c.scale_bits + c.zero_bits) + cols * c.index_bits_per_col;
      break;
    }
    case Codec::Kind::blocks: {
      if (c.flat) {
        bits = (elems + c.group - 1) / c.group * c.block_bits;
      } else {
        const std::int64_t blocks_per_row = (cols + c.group - 1) / c.group;
        bits = rows * blocks_per_row * c.block_bits;
      }
      break;
    }
  }
  bits += c.tensor_bits;
  return bytes_for_bits(bits) * count;
}

Codec plain_codec(const std::string& name, std::int64_t bits) {
  Codec c;
  c.kind = Codec::Kind::plain;
  c.elem_bits = bits;
  c.name = name;
  return c;
}

Codec group_codec(const std::string& name, std::int64_t bits, std::int64_t group, std::int64_t scale_bits,
                  std::int64_t zero_bits, std::int64_t index_bits, std::int64_t tensor_bits) {
  Codec c;
  c.kind = Codec::Kind::group;
  c.elem_bits = bits;
  c.group = group;
  c.scale_bits = scale_bits;
  c.zero_bits = zero_bits;
  c.index_bits_per_col = index_bits;
  c.tensor_bits = tensor_bits;
  c.name = name;
  return c;
}

namespace {

// ggml's tensor types: elements per block, bytes per block and the type id a
// GGUF file stores (ggml-org/llama.cpp @ 00342301d01a ggml/include/ggml.h enum
// ggml_type, ggml/src/ggml.c type_traits; ids 4, 5 and 31–33, 36–38 are retired).
constexpr std::array<GgmlType, 32> kGgmlTypes{{
    {"F32", 1, 4, 0},        {"F16", 1, 2, 1},        {"BF16", 1, 2, 30},     {"Q4_0", 32, 18, 2},
    {"Q4_1", 32, 20, 3},     {"Q5_0", 32, 22, 6},     {"Q5_1", 32, 24, 7},    {"Q8_0", 32, 34, 8},
    {"Q8_1", 32, 36, 9},     {"Q2_K", 256, 84, 10},   {"Q3_K", 256, 110, 11}, {"Q4_K", 256, 144, 12},
    {"Q5_K", 256, 176, 13},  {"Q6_K", 256, 210, 14},  {"Q8_K", 256, 292, 15}, {"IQ2_XXS", 256, 66, 16},
    {"IQ2_XS", 256, 74, 17}, {"IQ2_S", 256, 82, 22},  {"IQ3_XXS", 256, 98, 18}, {"IQ3_S", 256, 110, 21},
    {"IQ1_S", 256, 50, 19},  {"IQ1_M", 256, 56, 29},  {"IQ4_NL", 32, 18, 20}, {"IQ4_XS", 256, 136, 23},
    {"TQ1_0", 256, 54, 34},  {"TQ2_0", 256, 66, 35},  {"MXFP4", 32, 17, 39},  {"I8", 1, 1, 24},
    {"I16", 1, 2, 25},       {"I32", 1, 4, 26},       {"I64", 1, 8, 27},      {"F64", 1, 8, 28},
}};

// llama.cpp file types (LLAMA_FTYPE_MOSTLY_*): the default GGML type of their
// 2D weights. The mixtures then raise chosen tensors (see gguf_codec).
// The id is what general.file_type stores (include/llama.h enum llama_ftype, same commit).
struct GgufFileType {
  const char* name;
  const char* base;
  int id;
};
constexpr std::array<GgufFileType, 27> kGgufFileTypes{{
    {"F32", "F32", 0},          {"F16", "F16", 1},          {"BF16", "BF16", 32},     {"Q8_0", "Q8_0", 7},
    {"Q4_0", "Q4_0", 2},        {"Q4_1", "Q4_1", 3},        {"Q5_0", "Q5_0", 8},      {"Q5_1", "Q5_1", 9},
    {"Q2_K", "Q2_K", 10},       {"Q2_K_S", "Q2_K", 21},     {"Q3_K_S", "Q3_K", 11},   {"Q3_K_M", "Q3_K", 12},
    {"Q3_K_L", "Q3_K", 13},     {"Q4_K_S", "Q4_K", 14},     {"Q4_K_M", "Q4_K", 15},   {"Q5_K_S", "Q5_K", 16},
    {"Q5_K_M", "Q5_K", 17},     {"Q6_K", "Q6_K", 18},       {"IQ2_XXS", "IQ2_XXS", 19}, {"IQ2_XS", "IQ2_XS", 20},
    {"IQ2_S", "IQ2_S", 28},     {"IQ3_XXS", "IQ3_XXS", 23}, {"IQ3_S", "IQ3_S", 26},   {"IQ1_S", "IQ1_S", 24},
    {"IQ1_M", "IQ1_M", 31},     {"IQ4_NL", "IQ4_NL", 25},   {"IQ4_XS", "IQ4_XS", 30},
}};

Codec ggml_codec(const GgmlType& t) {
  Codec c;
  c.kind = Codec::Kind::blocks;
  c.group = t.block_elems;
  c.block_bits = t.block_bytes * 8;
  c.elem_bits = 0;
  c.name = t.name;
  return c;
}

/// The row of kGgmlTypes named `name`. Every caller passes a constant of this
/// file and reads it at compile time, so an unknown name fails the build.
constexpr const GgmlType& ggml_named(std::string_view name) {
  for (const auto& t : kGgmlTypes)
    if (name == t.name) return t;
  throw std::logic_error("no GGML type of that name");
}

/// The types the llama.cpp mixtures raise chosen tensors to (see gguf_codec),
/// found once, when compiled.
constexpr std::array<const GgmlType*, 5> kMixTypes{&ggml_named("Q8_0"), &ggml_named("Q6_K"), &ggml_named("Q5_K"),
                                                   &ggml_named("Q4_K"), &ggml_named("Q3_K")};

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  return s;
}


Codec per_row_codec(const std::string& name, std::int64_t bits, std::int64_t scale_bits) {
  Codec c;
  c.kind = Codec::Kind::per_row;
  c.elem_bits = bits;
  c.scale_bits = scale_bits;
  c.name = name;
  return c;
}

Codec blocks_codec(const std::string& name, std::int64_t block, std::int64_t block_bits, std::int64_t tensor_bits) {
  Codec c;
  c.kind = Codec::Kind::blocks;
  c.group = block;
  c.block_bits = block_bits;
  c.tensor_bits = tensor_bits;
  c.name = name;
  return c;
}

// A quantized checkpoint stores its unquantized tensors in 16 bits even when the
// base model's config says float32.
Codec unquantized_codec(const std::string& native) {
  return native == "fp32" ? plain_codec("bf16", 16) : plain_codec(native, 16);
}

WeightFormat make(std::string name, std::string summary, std::string source, Codec linear, Codec other) {
  WeightFormat f;
  f.name = std::move(name);
  f.summary = std::move(summary);
  f.source = std::move(source);
  f.linear = std::move(linear);
  f.other = std::move(other);
  return f;
}

namespace {
/// bitsandbytes NF4: 64-value blocks with an fp32 absmax, or with double
/// quantization an 8-bit absmax per block plus an fp32 constant per 256 blocks.
WeightFormat nf4_format(bool double_quant, const Codec& rest) {
  Codec c = double_quant ? blocks_codec("nf4 (double quant)", 64 * 256, 64 * 256 * 4 + 256 * 8 + 32, 0)
                         : blocks_codec("nf4", 64, 64 * 4 + 32, 0);
  c.flat = true;  // bitsandbytes quantizes the flattened weight
  return make("nf4",
              double_quant ? "linear weights NF4 with double-quantized absmax (4.127 bits)"
                           : "linear weights NF4 + fp32 absmax per 64 values (4.5 bits)",
              "bitsandbytes Linear4bit (QLoRA §3)", c, rest);
}

/// The group- and block-quantized named formats (GPTQ, AWQ, NF4, MXFP4, NVFP4).
WeightFormat quantized_format(FormatKind kind, const std::string& name, std::int64_t group, bool double_quant,
                              const Codec& rest) {
  const std::string g = std::to_string(group);
  switch (kind) {
    case FormatKind::gptq_int4:
    case FormatKind::gptq_int8: {
      const std::int64_t bits = kind == FormatKind::gptq_int4 ? 4 : 8;
      return make(name,
                  "linear weights int" + std::to_string(bits) + " + fp16 scale and packed zero per " + g +
                      " inputs + int32 g_idx per input column",
                  "GPTQ QuantLinear: qweight, qzeros, scales fp16, g_idx int32",
                  group_codec("int" + std::to_string(bits) + " g" + g, bits, group, 16, bits, 32, 0), rest);
    }
    case FormatKind::awq_int4:
      return make(name, "linear weights int4 + fp16 scale and 4-bit zero per " + g + " inputs",
                  "AutoAWQ WQLinear_GEMM: qweight, qzeros, scales fp16",
                  group_codec("int4 g" + g, 4, group, 16, 4, 0, 0), rest);
    case FormatKind::nf4: return nf4_format(double_quant, rest);
    case FormatKind::mxfp4:
      return make(name, "linear weights MXFP4: 32 fp4 values + one e8m0 scale = 17 B per 32 (4.25 bits)",
                  "OCP Microscaling Formats v1.0", blocks_codec("mxfp4", 32, 32 * 4 + 8, 0), rest);
    case FormatKind::nvfp4:
      return make(name,
                  "linear weights NVFP4: 16 fp4 values + one fp8 scale = 9 B per 16 (4.5 bits) + fp32 global scales",
                  "NVIDIA Model Optimizer NVFP4", blocks_codec("nvfp4", 16, 16 * 4 + 8, 64), rest);
    default: return make(name, "", "", rest, rest);  // the plain kinds are handled by named_format
  }
}
}  // namespace

}  // namespace

WeightFormat named_format(FormatKind kind, std::int64_t group, bool double_quant, const std::string& native) {
  const Codec rest = unquantized_codec(native);
  const std::string g = std::to_string(group);
  const std::string name(name_of(kNamedFormats, kind));
  WeightFormat f;
  switch (kind) {
    case FormatKind::fp32:
      f = make(name, "every tensor in fp32 (4 B)", "IEEE 754 binary32", plain_codec("fp32", 32), plain_codec("fp32", 32));
      break;
    case FormatKind::fp16:
      f = make(name, "every tensor in fp16 (2 B)", "IEEE 754 binary16", plain_codec("fp16", 16), plain_codec("fp16", 16));
      break;
    case FormatKind::bf16:
      f = make(name, "every tensor in bf16 (2 B)", "bfloat16", plain_codec("bf16", 16), plain_codec("bf16", 16));
      break;
    case FormatKind::fp8:
      f = make(name,
               "linear weights fp8 e4m3 (1 B) + one fp32 scale per output channel; embeddings, norms, lm_head 16-bit",
               "compressed-tensors FP8 channel-wise (weight_scale [out,1] fp32)", per_row_codec("fp8", 8, 32), rest);
      break;
    case FormatKind::int8:
    case FormatKind::w8a8:
      f = make(name,
               "linear weights int8 (1 B) + one fp32 scale per output channel; embeddings, norms, lm_head 16-bit",
               "compressed-tensors W8A8 channel-wise (weight_scale [out,1] fp32)", per_row_codec("int8", 8, 32), rest);
      break;
    case FormatKind::int4:
      f = make(name, "linear weights at exactly 4 bits, no scales (a lower bound; real formats add scales)",
               "4 bits per element", plain_codec("int4", 4), rest);
      break;
    case FormatKind::w4a16:
      f = make(
          name, "linear weights int4 + one bf16 scale per " + g + " inputs (symmetric, no zero point)",
          "compressed-tensors pack-quantized: weight_packed int32, weight_scale bf16 [out, in/g], weight_shape int64[2]",
          group_codec("int4 g" + g, 4, group, 16, 0, 0, 128), rest);
      break;
    default: f = quantized_format(kind, name, group, double_quant, rest); break;
  }
  f.kind = kind;
  return f;
}

namespace {

WeightFormat named_format(const std::string& name, std::int64_t group, bool double_quant, const std::string& native,
                          const std::string& path) {
  const FormatKind* kind = find_choice(kNamedFormats, name);
  if (kind == nullptr) {
    // A GGUF file type given without its prefix ("Q4_K_M") is named as it is written.
    const std::string up = upper(name);
    const bool gguf_type = std::any_of(kGgufFileTypes.begin(), kGgufFileTypes.end(),
                                       [&](const auto& ft) { return up == ft.name; });
    throw InputError(path, "unknown weight format \"" + name + "\"" +
                               (gguf_type ? "; a GGUF file type is written with its prefix: \"gguf:" + up + "\"" : "") +
                               "; allowed: " + choice_list(kNamedFormats) + ", gguf:<TYPE> (e.g. gguf:Q4_K_M)");
  }
  return named_format(*kind, group, double_quant, native);
}

WeightFormat gguf_format(const std::string& type_in, const std::string& path) {
  const std::string type = upper(type_in);
  for (const auto& ft : kGgufFileTypes) {
    if (type == ft.name) {
      WeightFormat f;
      f.name = "gguf:" + type;
      f.kind = FormatKind::gguf;
      f.gguf_ftype = ft.id;
      f.linear = ggml_codec(ggml_named(ft.base));
      f.other = plain_codec("F32", 32);
      f.mix = {plain_codec("F32", 32), ggml_codec(*kMixTypes[0]), ggml_codec(*kMixTypes[1]),
               ggml_codec(*kMixTypes[2]), ggml_codec(*kMixTypes[3]), ggml_codec(*kMixTypes[4])};
      f.summary = "llama.cpp " + type + ": 2D weights " + std::string(ft.base) +
                  " (mixtures raise attn_v / ffn_down / output), norms F32";
      f.source = "llama.cpp src/llama-quant.cpp llama_tensor_get_type; ggml-common.h block layouts";
      return f;
    }
  }
  std::string list;
  for (const auto& ft : kGgufFileTypes) list += (list.empty() ? "" : ", ") + std::string(ft.name);
  throw InputError(path, "unknown GGUF type \"" + type_in + "\"; allowed: " + list);
}

}  // namespace

const GgmlType* ggml_type_by_id(std::int64_t id) {
  for (const auto& t : kGgmlTypes)
    if (t.id == id) return &t;
  return nullptr;
}

const char* gguf_file_type_name(std::int64_t id) {
  for (const auto& f : kGgufFileTypes)
    if (f.id == id) return f.name;
  return nullptr;
}

GgmlType ggml_type(const std::string& name, const std::string& path) {
  const std::string u = upper(name);
  for (const auto& t : kGgmlTypes) {
    if (u == t.name) return t;
  }
  throw InputError(path, "unknown GGML type \"" + name + "\"");
}

namespace {
// safetensors dtypes and their bits per element (huggingface/safetensors
// safetensors/src/tensor.rs Dtype, v0.6: F4 and F6 pack below a byte).
struct SafetensorsDtype {
  const char* name;
  std::int64_t bits;
};
constexpr std::array<SafetensorsDtype, 19> kSafetensorsDtypes{{
    {"F64", 64},    {"F32", 32},     {"F16", 16},     {"BF16", 16},    {"F8_E4M3", 8}, {"F8_E5M2", 8}, {"F8_E8M0", 8},
    {"F6_E2M3", 6}, {"F6_E3M2", 6},  {"F4", 4},       {"I64", 64},     {"I32", 32},    {"I16", 16},    {"I8", 8},
    {"U64", 64},    {"U32", 32},     {"U16", 16},     {"U8", 8},       {"BOOL", 8},
}};
}  // namespace

std::int64_t safetensors_dtype_bits(const std::string& dtype, const std::string& path) {
  for (const auto& d : kSafetensorsDtypes)
    if (dtype == d.name) return d.bits;
  std::string list;
  for (const auto& d : kSafetensorsDtypes) list += (list.empty() ? "" : ", ") + std::string(d.name);
  throw InputError(path, "unknown safetensors dtype \"" + dtype + "\"; allowed: " + list);
}

std::int64_t safetensors_dtype_bytes(const std::string& dtype, const std::string& path) {
  const std::int64_t bits = safetensors_dtype_bits(dtype, path);
  if (bits % 8 != 0) {
    throw InputError(path, "\"" + dtype + "\" packs " + std::to_string(bits) +
                               " bits per element: give weights_bytes (the exact size) instead of an element count");
  }
  return bits / 8;
}

std::vector<std::string> weight_format_names() {
  std::vector<std::string> names;
  for (const auto& c : kNamedFormats) names.emplace_back(c.name);
  return names;
}

WeightFormat native_format(const std::string& native) {
  return named_format(native, 128, false, native, "/weights");
}

const WeightFormat& plain_format(int bytes, bool fp16) {
  static const WeightFormat fp32 = native_format("fp32");  // immutable, built on first use
  static const WeightFormat half = native_format("fp16");
  static const WeightFormat brain = native_format("bf16");
  if (bytes == 4) return fp32;
  return fp16 ? half : brain;
}

WeightFormat parse_weight_format(const json& value, const std::string& path, const std::string& native) {
  std::string name;
  std::int64_t group = 128;
  bool double_quant = false;
  std::string name_path = path;
  if (value.is_string()) {
    name = value.get<std::string>();
  } else if (value.is_object()) {
    io::reject_unknown_keys(value, path, {"format", "group_size", "double_quant"});
    auto f = io::optional_string(value, "format", path);
    if (!f) throw InputError(io::join_path(path, "format"), "is required: a weight format name such as \"gptq-int4\"");
    name = *f;
    name_path = io::join_path(path, "format");
    group = io::optional_int(value, "group_size", path, {1, 1'000'000}).value_or(128);
    double_quant = io::optional_bool(value, "double_quant", path).value_or(false);
  } else {
    throw InputError(
        path, "must be a format name (e.g. \"bf16\", \"gptq-int4\", \"gguf:Q4_K_M\") or {\"format\", \"group_size\"}");
  }
  if (name.rfind("gguf:", 0) == 0) return gguf_format(name.substr(5), name_path);
  WeightFormat f = named_format(name, group, double_quant, native, name_path);
  f.group_path = value.is_object() && value.contains("group_size") ? io::join_path(path, "group_size") : path;
  return f;
}

namespace {

// The decoder layer an ignore-list entry names ("model.layers.31.mlp" → 31), or -1
// when it names none or is a pattern ("re:.*layers.*", "model.layers.*.mlp").
std::int32_t layer_of_entry(const std::string& entry) {
  if (entry.rfind("re:", 0) == 0) return -1;
  const std::size_t at = entry.find("layers.");
  if (at == std::string::npos || (at > 0 && entry[at - 1] != '.')) return -1;
  std::size_t i = at + 7;
  std::int64_t layer = 0;
  const std::size_t first = i;
  while (i < entry.size() && std::isdigit(static_cast<unsigned char>(entry[i])) && layer < 1'000'000) {
    layer = layer * 10 + (entry[i++] - '0');
  }
  if (i == first || (i < entry.size() && entry[i] != '.')) return -1;
  return static_cast<std::int32_t>(layer);
}

// The tensor roles an ignore-list entry (module names or "re:" patterns) names.
std::vector<TensorRole> roles_of_entry(const std::string& entry) {
  std::vector<TensorRole> roles;
  // A norm ("model.layers.3.post_attention_layernorm", Qwen3 MoE FP8 lists) is
  // never quantized: it keeps nothing else unquantized, whatever its name holds.
  const std::string_view leaf = std::string_view(entry).substr(entry.rfind('.') == std::string::npos ? 0 : entry.rfind('.') + 1);
  if (leaf.find("norm") != std::string_view::npos) return roles;
  auto has = [&](const char* s) { return entry.find(s) != std::string::npos; };
  if (has("lm_head")) roles.push_back(TensorRole::lm_head);
  if (has("embed")) roles.push_back(TensorRole::embedding);
  if (has("router") || has("mlp.gate$") || has("mlp.gate\"") || entry.ends_with("mlp.gate") ||
      has("block_sparse_moe.gate"))
    roles.push_back(TensorRole::router);
  // Nemotron-H names every block's token mixer "mixer": its attention blocks' projections
  // (mixer.q_proj, ...) and its Mamba-2 blocks' in_proj and out_proj.
  const bool mixer_attention = has(".mixer.") && (has("q_proj") || has("k_proj") || has("v_proj") || has("o_proj"));
  if (has(".mixer.in_proj")) roles.push_back(TensorRole::ssm_in);
  if (has(".mixer.out_proj")) roles.push_back(TensorRole::ssm_out);
  const bool attention = has("self_attn") || has(".attn") || has("attention") || mixer_attention;
  auto named = [&](const char* proj) { return !entry.ends_with("attn") && !entry.ends_with("attention") && has(proj); };
  if (attention) {
    // "self_attn" keeps every projection; "self_attn.q_proj" only its own.
    // DeepSeek's multi-head latent attention names its low-rank projections q_a, q_b, kv_a (with MQA) and kv_b.
    const std::pair<const char*, TensorRole> projections[] = {
        {"q_proj", TensorRole::attn_q},       {"k_proj", TensorRole::attn_k},       {"v_proj", TensorRole::attn_v},
        {"o_proj", TensorRole::attn_o},       {"qkv_proj", TensorRole::attn_qkv},   {"q_a_proj", TensorRole::mla_q_a},
        {"q_b_proj", TensorRole::mla_q_b},    {"kv_a_proj", TensorRole::mla_kv_a}, {"kv_b_proj", TensorRole::mla_kv_b}};
    bool one = false;
    for (const auto& [proj, role] : projections) {
      if (named(proj) && !(role != TensorRole::attn_qkv && named("qkv_proj"))) {
        roles.push_back(role);
        one = true;
      }
    }
    if (!one) {
      for (auto r :
           {TensorRole::attn_q, TensorRole::attn_k, TensorRole::attn_v, TensorRole::attn_qkv, TensorRole::attn_o,
            TensorRole::mla_q_a, TensorRole::mla_q_b, TensorRole::mla_kv_a, TensorRole::mla_kv_b})
        roles.push_back(r);
    }
  }
  return roles;
}

/// The parts of an MLP an entry names: the whole MLP (".mlp", ".experts",
/// ".shared_expert", a trailing "*") or the projections it spells out.
std::vector<TensorRole> mlp_parts(const std::string& entry, TensorRole gate, TensorRole up, TensorRole down) {
  auto has = [&](const char* s) { return entry.find(s) != std::string::npos; };
  const bool named = has("gate_proj") || has("up_proj") || has("down_proj");
  std::vector<TensorRole> out;
  if (!named || has("gate_proj")) out.push_back(gate);
  if (!named || has("up_proj")) out.push_back(up);
  if (!named || has("down_proj")) out.push_back(down);
  return out;
}

// The modules (tensor roles, on the named decoder layer or on every layer) one
// quantization-config entry names: an ignore list's module or pattern, or a
// MIXED_PRECISION quantized_layers key.
std::vector<KeptModule> modules_of_entry(const std::string& entry) {
  auto has = [&](const char* s) { return entry.find(s) != std::string::npos; };
  // A vision-tower module ("vision_tower.vision_model.encoder.layers.3.self_attn.q_proj")
  // names the tower, not that projection of decoder layer 3.
  if (has("vision") || has("visual") || has("multi_modal_projector")) return {KeptModule{TensorRole::vision, -1}};
  // The multi-token-prediction layers' entries ("mtp.layers.0.mlp.experts") name those layers,
  // not decoder layer 0: they stay as the format stores them (the MTP stage is loaded only to draft).
  if (entry.rfind("mtp", 0) == 0 || has(".mtp.")) return {};
  const std::int32_t layer = layer_of_entry(entry);
  std::vector<TensorRole> roles = roles_of_entry(entry);
  const std::string_view leaf = std::string_view(entry).substr(entry.rfind('.') == std::string::npos ? 0 : entry.rfind('.') + 1);
  const bool norm = leaf.find("norm") != std::string_view::npos;
  const auto add = [&](std::vector<TensorRole> more) { roles.insert(roles.end(), more.begin(), more.end()); };
  if (has("shared_expert_gate")) {
    roles.push_back(TensorRole::router);
  } else if (has("shared_expert")) {
    // Qwen MoE's shared expert is the layer's dense MLP beside the experts.
    add(mlp_parts(entry, TensorRole::mlp_gate, TensorRole::mlp_up, TensorRole::mlp_down));
  } else if (has(".experts")) {
    add(mlp_parts(entry, TensorRole::expert_gate, TensorRole::expert_up, TensorRole::expert_down));
  } else if (layer >= 0 && (entry.ends_with(".mlp") || has("mlp.gate_proj") || has("mlp.up_proj") || has("mlp.down_proj"))) {
    // A whole MLP of one decoder layer ("layers.31.mlp", AutoAWQ modules_to_not_convert).
    add(mlp_parts(entry, TensorRole::mlp_gate, TensorRole::mlp_up, TensorRole::mlp_down));
  } else if (entry.rfind("re:", 0) == 0 && has("mlp\\.") && has("_proj")) {
    // A pattern over every dense MLP ("re:.*mlp\\.(gate|up|gate_up|down)_proj.*", Kimi K2.5).
    add(mlp_parts(entry, TensorRole::mlp_gate, TensorRole::mlp_up, TensorRole::mlp_down));
  }
  // Gated DeltaNet ("linear_attn"): in_proj_qkv, in_proj_z (and in_proj_b, in_proj_a) and out_proj.
  if (has("linear_attn") && !norm) {
    const bool whole = !has("in_proj") && !has("out_proj");
    if (whole || has("in_proj")) roles.push_back(TensorRole::ssm_in);
    if (whole || has("out_proj")) roles.push_back(TensorRole::ssm_out);
  }
  std::vector<KeptModule> out;
  for (auto r : roles) {
    const KeptModule k{r, r == TensorRole::lm_head || r == TensorRole::embedding ? -1 : layer};
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  }
  return out;
}

// Adds the modules an ignore list keeps in 16 bits, each once, in the list's order
// (a set of those seen: n log n for a list of any length).
void add_ignored_modules(const std::vector<std::string>& entries, std::vector<KeptModule>& kept) {
  std::set<std::pair<TensorRole, std::int32_t>> seen;
  for (const auto& k : kept) seen.insert({k.role, k.layer});
  for (const auto& entry : entries)
    for (const auto& k : modules_of_entry(entry))
      if (seen.insert({k.role, k.layer}).second) kept.push_back(k);
}

}  // namespace

namespace {

/// `obj[key]` when it is an object, nullptr when absent or null; any other
/// type is an error at its pointer.
const json* optional_object(const json& obj, std::string_view key, const std::string& path) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  if (!it->is_object())
    throw InputError(io::join_path(path, key), "must be an object; got " + io::describe_value(*it));
  return &*it;
}

/// A list of module names (ignore lists); absent or null is empty.
std::vector<std::string> string_list(const json& obj, std::string_view key, const std::string& path) {
  std::vector<std::string> out;
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return out;
  const std::string p = io::join_path(path, key);
  if (!it->is_array()) throw InputError(p, "must be a list of module names; got " + io::describe_value(*it));
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_string())
      throw InputError(io::join_path(p, std::to_string(i)), "must be a module name (a string); got " + io::describe_value(v));
    out.push_back(v.get<std::string>());
  }
  return out;
}

/// fp8 `weight_block_size`: two whole numbers from 1 to 4096, or nothing.
std::optional<std::pair<std::int64_t, std::int64_t>> block_size_pair(const json& q, const std::string& qpath) {
  const auto it = q.find("weight_block_size");
  if (it == q.end() || it->is_null()) return std::nullopt;
  const std::string p = io::join_path(qpath, "weight_block_size");
  if (!it->is_array() || it->size() != 2)
    throw InputError(p, "must be [rows, columns] of a scale block, e.g. [128, 128]; got " + io::describe_value(*it));
  const json pair = {{"0", (*it)[0]}, {"1", (*it)[1]}};  // read as fields so errors name /0 and /1
  return std::make_pair(io::require_int(pair, "0", p, {1, 4096}), io::require_int(pair, "1", p, {1, 4096}));
}

/// quant_method "fp8": per-tensor scales, or fp32 scales per block (weight_block_size).
WeightFormat fp8_format(const json& q, const std::string& qpath, const std::string& native) {
  WeightFormat f = named_format(FormatKind::fp8, 128, false, native);
  if (const auto block = block_size_pair(q, qpath)) {
    f.linear.kind = Codec::Kind::block2d;
    f.linear.block_rows = block->first;
    f.linear.block_cols = block->second;
    f.linear.name = "fp8 block " + std::to_string(f.linear.block_rows) + "x" + std::to_string(f.linear.block_cols);
    f.summary = "linear weights fp8 e4m3 + fp32 scale per " + std::to_string(f.linear.block_rows) + "x" +
                std::to_string(f.linear.block_cols) + " block";
    f.source = "DeepSeek-V3 README_WEIGHTS.md (weight_scale_inv per 128x128 block)";
  } else {
    f.linear.kind = Codec::Kind::plain;
    f.linear.tensor_bits = 32;
    f.summary = "linear weights fp8 e4m3 + one fp32 scale per tensor";
  }
  return f;
}

/// ModelOpt FP8: weight float8_e4m3fn [out, in] with one fp32 weight_scale per tensor
/// (vllm/model_executor/layers/quantization/modelopt.py ModelOptFp8LinearMethod, per-tensor).
WeightFormat modelopt_fp8_format(const std::string& qpath, const std::string& native) {
  WeightFormat f = fp8_format(json::object(), qpath, native);
  f.source = "vllm/model_executor/layers/quantization/modelopt.py ModelOptFp8Config (quant_algo FP8: per-tensor "
             "weight_scale and input_scale, fp32)";
  return f;
}

/// The codec a MIXED_PRECISION entry's quant_algo stores (FP8 per tensor, NVFP4).
Codec mixed_entry_codec(const json& spec, const std::string& path, const std::string& native) {
  if (!spec.is_object())
    throw InputError(path, "must be an object such as {\"quant_algo\": \"NVFP4\", \"group_size\": 16}; got " +
                               io::describe_value(spec));
  const auto algo = io::optional_string(spec, "quant_algo", path);
  if (!algo) throw InputError(io::join_path(path, "quant_algo"), "is required: FP8, NVFP4 or W4A16_NVFP4");
  std::string up = *algo;
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (up == "FP8") return modelopt_fp8_format(path, native).linear;
  if (up != "NVFP4" && up != "W4A16_NVFP4")
    throw InputError(io::join_path(path, "quant_algo"),
                     "\"" + *algo + "\" is not a modelled per-module algorithm; allowed: FP8, NVFP4, W4A16_NVFP4");
  const auto group = io::optional_int(spec, "group_size", path, {1, 1'000'000});
  if (group && *group != 16)
    throw InputError(io::join_path(path, "group_size"),
                     "NVFP4 stores one fp8 scale per 16 values; 16 is the only group size, got " + std::to_string(*group));
  Codec c = named_format(FormatKind::nvfp4, 16, false, native).linear;
  if (up == "W4A16_NVFP4") c.tensor_bits = 32;  // weight_scale_2 only: 16-bit activations keep no input_scale
  return c;
}

/// ModelOpt MIXED_PRECISION: `quantized_layers` names every quantized module with its
/// algorithm; a module it does not name stays in the checkpoint's 16-bit dtype
/// (vllm modelopt.py ModelOptMixedPrecisionConfig.get_quant_method: "Layer not in
/// quantized_layers — leave unquantized").
WeightFormat modelopt_mixed_format(const json& q, const std::string& qpath, const std::string& native) {
  const std::string lpath = io::join_path(qpath, "quantized_layers");
  const json* layers = optional_object(q, "quantized_layers", qpath);
  if (layers == nullptr || layers->empty())
    throw InputError(lpath, "is required with quant_algo MIXED_PRECISION: each quantized module's name and its "
                            "{\"quant_algo\": FP8, NVFP4 or W4A16_NVFP4}");
  WeightFormat f = native_format(native);
  // (role, codec, layer) of every named module, sorted, then consecutive layers of one role and
  // codec merged into ranges: n log n whatever order or number of entries the map holds.
  std::vector<Codec> codecs;
  std::vector<std::tuple<TensorRole, std::size_t, std::int32_t>> named;
  for (const auto& [name, spec] : layers->items()) {
    const Codec c = mixed_entry_codec(spec, io::join_path(lpath, name), native);
    const auto same = [&](const Codec& x) { return x.name == c.name && x.tensor_bits == c.tensor_bits; };
    const auto k = static_cast<std::size_t>(std::find_if(codecs.begin(), codecs.end(), same) - codecs.begin());
    if (k == codecs.size()) codecs.push_back(c);
    for (const auto& m : modules_of_entry(name)) named.emplace_back(m.role, k, m.layer);
  }
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  std::size_t last_codec = codecs.size();
  for (const auto& [role, k, layer] : named) {
    RoleCodec* r = f.by_role.empty() ? nullptr : &f.by_role.back();
    if (r != nullptr && r->role == role && last_codec == k && r->first >= 0 && layer == r->last + 1) {
      r->last = layer;
      continue;
    }
    f.by_role.push_back({role, layer, layer, codecs[k]});
    last_codec = k;
  }
  f.kind = FormatKind::nvfp4;
  f.name = "modelopt-mixed";
  f.summary = "per module as quantized_layers names it: NVFP4 (16 fp4 values + one fp8 scale = 9 B per 16) or fp8 "
              "with an fp32 scale per tensor; the modules it does not name in " + native;
  f.source = "vllm/model_executor/layers/quantization/modelopt.py ModelOptMixedPrecisionConfig (MIXED_PRECISION, "
             "quantized_layers)";
  return f;
}

/// The KV-cache dtype a ModelOpt quantization_config declares: a static 8-bit float
/// kv_cache_scheme, or kv_cache_quant_algo "FP8"; empty when it declares none or
/// another (vllm/utils/torch_utils.py get_kv_cache_quant_algo_string).
std::string modelopt_kv(const json& q, const std::string& qpath) {
  if (const json* scheme = optional_object(q, "kv_cache_scheme", qpath)) {
    const std::string sp = io::join_path(qpath, "kv_cache_scheme");
    const bool fp8 = io::optional_int(*scheme, "num_bits", sp, {1, 64}) == 8 &&
                     io::optional_string(*scheme, "type", sp) == std::optional<std::string>("float") &&
                     io::optional_bool(*scheme, "dynamic", sp) == std::optional<bool>(false);
    return fp8 ? "fp8" : "";
  }
  std::string algo = io::optional_string(q, "kv_cache_quant_algo", qpath).value_or("");
  for (char& c : algo) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return algo == "fp8" ? "fp8" : "";
}

/// The stored format one quant_method describes.
WeightFormat method_format(QuantMethod method, const json& q, const std::string& qpath, const std::string& native) {
  switch (method) {
    case QuantMethod::fp8: return fp8_format(q, qpath, native);
    case QuantMethod::gptq: return quant::gptq(q, qpath, native);
    case QuantMethod::awq: return quant::awq(q, qpath, native);
    case QuantMethod::compressed_tensors: return quant::compressed_tensors(q, qpath, native);
    case QuantMethod::fbgemm_fp8: return quant::fbgemm_fp8(q, qpath, native);
    case QuantMethod::bitsandbytes: {
      const bool four = io::optional_bool(q, "load_in_4bit", qpath).value_or(false);
      const bool dq = io::optional_bool(q, "bnb_4bit_use_double_quant", qpath).value_or(false);
      return four ? named_format(FormatKind::nf4, 64, dq, native) : named_format(FormatKind::int8, 128, false, native);
    }
    case QuantMethod::mxfp4: return named_format(FormatKind::mxfp4, 32, false, native);
    case QuantMethod::modelopt: {
      const std::string algo = io::optional_string(q, "quant_algo", qpath).value_or("FP8");
      if (algo == "MIXED_PRECISION") return modelopt_mixed_format(q, qpath, native);
      if (algo.find("FP4") != std::string::npos) return named_format(FormatKind::nvfp4, 16, false, native);
      return modelopt_fp8_format(qpath, native);
    }
  }
  return native_format(native);
}

}  // namespace

WeightFormat format_from_quantization_config(const json& config, const std::string& path, const std::string& native,
                                             bool& found) {
  found = false;
  const json* q = nullptr;
  std::string qpath = io::join_path(path, "quantization_config");
  q = optional_object(config, "quantization_config", path);
  if (q == nullptr) {
    if (auto tc = config.find("text_config"); tc != config.end() && tc->is_object()) {
      q = optional_object(*tc, "quantization_config", io::join_path(path, "text_config"));
      if (q != nullptr) qpath = io::join_path(io::join_path(path, "text_config"), "quantization_config");
    }
  }
  if (q == nullptr) return native_format(native);
  found = true;
  const auto method = io::optional_enum(*q, "quant_method", qpath, kQuantMethods);
  if (!method) {
    throw InputError(io::join_path(qpath, "quant_method"),
                     "is required: the quantizer that wrote the checkpoint; allowed: " + choice_list(kQuantMethods));
  }
  std::vector<std::string> ignore;
  for (const char* key : {"ignore", "modules_to_not_convert", "ignored_layers", "exclude_modules"}) {
    for (auto& name : string_list(*q, key, qpath)) ignore.push_back(std::move(name));
  }
  WeightFormat f = method_format(*method, *q, qpath, native);
  if (*method == QuantMethod::modelopt) f.checkpoint_kv = modelopt_kv(*q, qpath);
  add_ignored_modules(ignore, f.keep_unquantized);
  return f;
}

bool WeightFormat::keeps_per_layer() const {
  for (const auto& k : keep_unquantized)
    if (k.layer >= 0) return true;
  for (const auto& r : by_role)
    if (r.first >= 0) return true;
  return false;
}

void check_group_alignment(const WeightFormat& format, const Model& model) {
  const Codec& c = format.linear;
  if (c.kind != Codec::Kind::group || format.group_path.empty() || model.arch.family == Family::bare) return;
  for (const Tensor& t : model.tensors) {
    if (t.rows <= 1 || t.cols % c.group == 0 || c.group >= 1'000'000'000) continue;
    bool quantized = false;
    for (std::int32_t i = t.layer; i < t.layer + std::max<std::int32_t>(1, t.layers) && !quantized; ++i)
      quantized = &codec_for(format, t, model.arch, i) == &c;
    if (!quantized) continue;
    throw InputError(format.group_path,
                     "must divide the input width of every quantized linear layer: the " +
                         std::string(to_string(t.role)) +
                         (t.layer >= 0 ? " of layer " + std::to_string(t.layer) : std::string()) + " has " +
                         std::to_string(t.cols) + " inputs, not a multiple of " + std::to_string(c.group) +
                         " (AutoAWQ asserts it; vLLM's AWQ, GPTQ and compressed-tensors loaders refuse it)");
  }
}

namespace {

// llama.cpp use_more_bits(i, n): the first and last eighth of the layers and every
// third layer in between get the larger type (src/llama-quant.cpp).
bool use_more_bits(std::int64_t i, std::int64_t n) {
  if (i < n / 8 || i >= 7 * n / 8) return true;
  // 0 <= i - n/8 < n here: a 32-bit remainder (a 64-bit one by a constant is a
  // call to a 128-bit multiply in WebAssembly, and this runs for every layer).
  return static_cast<std::uint32_t>(i - n / 8) % 3 == 2;
}

// llama_ftype ids (llama.h) of the file types whose mixture rules differ.
enum : std::int64_t {
  kFtypeF32 = 0, kFtypeF16 = 1, kFtypeQ8_0 = 7, kFtypeQ2_K = 10, kFtypeQ3_K_M = 12, kFtypeQ3_K_L = 13,
  kFtypeQ4_K_S = 14, kFtypeQ4_K_M = 15, kFtypeQ5_K_M = 17, kFtypeQ2_K_S = 21, kFtypeBF16 = 32,
};

/// The GGUF mixture's codec for a tensor whatever its layer, or nullptr where
/// the layer decides (gguf_layer_rule).
const Codec* gguf_whole_codec(const WeightFormat& f, const Tensor& t, const Architecture& a) {
  // A bare parameter count has no tensor shapes for the mixture: every weight takes the base type.
  if (a.family == Family::bare) return &f.linear;
  if (!t.quantizable && t.role != TensorRole::embedding && t.role != TensorRole::lm_head) {
    return &f.mix.f32;  // norms, biases, routers' small tensors stay F32
  }
  if (t.rows == 1) return &f.mix.f32;
  if (t.role == TensorRole::lm_head) {
    const std::int64_t ft = f.gguf_ftype;
    if (ft == kFtypeQ8_0 || ft == kFtypeF16 || ft == kFtypeBF16 || ft == kFtypeF32) return &f.linear;
    return &f.mix.q6_k;
  }
  if (t.role == TensorRole::embedding) return &f.linear;
  if (t.role == TensorRole::router) return &f.mix.f32;
  return nullptr;
}

/// The mixture's choice for the layers of a tensor gguf_whole_codec leaves to
/// the layer: the attention V, attention output and FFN down tensors are raised
/// on some layers (src/llama-quant.cpp llama_tensor_get_type); the others take
/// the file's base type, or Q8_0 where a row is not a whole number of blocks.
GgufLayerRule gguf_layer_rule(const WeightFormat& f, const Tensor& t, const Architecture& a) {
  const Codec& base = f.linear.group > 1 && t.cols % f.linear.group != 0 ? f.mix.q8_0 : f.linear;
  const std::int64_t n = a.layers;
  const bool v = t.role == TensorRole::attn_v;
  const bool down = t.role == TensorRole::mlp_down || t.role == TensorRole::expert_down;
  const bool out = t.role == TensorRole::attn_o;
  GgufLayerRule r{0, nullptr, nullptr, &base};
  switch (f.gguf_ftype) {
    case kFtypeQ4_K_M:
    case kFtypeQ5_K_M:
      if (v || down) r.more_bits = &f.mix.q6_k;
      break;
    case kFtypeQ4_K_S:
      if (v) r = {4, &f.mix.q5_k, nullptr, &base};
      if (down) r = {n / 8, &f.mix.q5_k, nullptr, &base};
      break;
    case kFtypeQ3_K_M:
      if (v) r = {2, &f.mix.q5_k, nullptr, &f.mix.q4_k};
      if (down) r = {n / 16, &f.mix.q5_k, &f.mix.q4_k, &f.mix.q3_k};
      if (out) r.rest = &f.mix.q4_k;
      break;
    case kFtypeQ3_K_L:
      if (v || down || out) r.rest = &f.mix.q5_k;
      break;
    case kFtypeQ2_K:
    case kFtypeQ2_K_S:
      if (v) r.rest = a.heads / std::max<std::int64_t>(1, a.kv_heads) >= 4 ? &f.mix.q4_k : &f.mix.q3_k;
      if (down) r.rest = &f.mix.q3_k;
      break;
    default: break;
  }
  return r;
}

const Codec& gguf_codec(const WeightFormat& f, const Tensor& t, const Architecture& a, std::int64_t layer) {
  if (const Codec* whole = gguf_whole_codec(f, t, a)) return *whole;
  return gguf_layer_rule(f, t, a).at(layer, a.layers);
}

}  // namespace

const Codec& codec_for(const WeightFormat& f, const Tensor& t, const Architecture& a) {
  return codec_for(f, t, a, t.layer);
}

const Codec& codec_for(const WeightFormat& f, const Tensor& t, const Architecture& a, std::int64_t layer) {
  if (f.gguf()) return gguf_codec(f, t, a, layer);
  if (t.role == TensorRole::router && a.block.router_fp32) return f.fp32;
  for (const auto& k : f.keep_unquantized) {
    if (k.role == t.role && (k.layer < 0 || k.layer == layer)) return f.other;
  }
  for (const auto& r : f.by_role) {
    if (r.role == t.role && (r.first < 0 || (layer >= r.first && layer <= r.last))) return r.codec;
  }
  if (!t.quantizable) return f.other;
  return f.linear;
}

const Codec& GgufLayerRule::at(std::int64_t i, std::int64_t n) const {
  if (i < first_layers) return *first;
  return more_bits != nullptr && use_more_bits(i, n) ? *more_bits : *rest;
}

LayerCodecs::LayerCodecs(const WeightFormat& format, const Tensor& tensor, const Architecture& arch)
    : format_(format), tensor_(tensor), arch_(arch) {
  if (!format.gguf()) return;  // keep lists and per-role rules: codec_for per layer
  fixed_ = gguf_whole_codec(format, tensor, arch);
  if (fixed_ != nullptr) return;
  rule_ = gguf_layer_rule(format, tensor, arch);
  if (rule_.first_layers <= 0 && rule_.more_bits == nullptr) fixed_ = rule_.rest;
}

const Codec& LayerCodecs::at(std::int64_t layer) const {
  if (fixed_ != nullptr) return *fixed_;
  if (rule_.rest == nullptr) return codec_for(format_, tensor_, arch_, layer);
  return rule_.at(layer, arch_.layers);
}

std::int64_t activation_elem_bytes(const WeightFormat& weights) {
  const bool plain_fp32 = !weights.quantized() && weights.linear.kind == Codec::Kind::plain && weights.linear.elem_bits == 32;
  return plain_fp32 ? 4 : 2;
}

}  // namespace vram
