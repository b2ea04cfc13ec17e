// What a quantized checkpoint stores per quantized Linear of `out` x `in`
// weights, read from the quantizers' and loaders' own source (facts read, code
// not copied):
//
//   AWQ   casper-hansen/AutoAWQ v0.2.9, awq/modules/linear/gemm.py WQLinear_GEMM:
//         qweight int32 [in, out/8], qzeros int32 [in/g, out/8], scales fp16 [in/g, out],
//         bias fp16; w_bit must be 4; group_size -1 means in_features; in % g == 0 is
//         asserted. from_linear asserts zeros are given, and vLLM's AWQLinearMethod
//         (vllm/model_executor/layers/quantization/awq.py, v0.10.0) registers qzeros
//         whatever zero_point says, so qzeros are always stored.
//   GPTQ  AutoGPTQ/AutoGPTQ v0.7.1, auto_gptq/nn_modules/qlinear/qlinear_*.py QuantLinear:
//         qweight int32 [in/32·b, out], qzeros int32 [ceil(in/g), out/32·b],
//         scales fp16 [ceil(in/g), out], g_idx int32 [in] (registered whether or not
//         desc_act is set); bits in {2, 3, 4, 8} (auto_gptq/modeling/_base.py
//         BaseQuantizeConfig, and vLLM GPTQConfig).
//   compressed-tensors neuralmagic/compressed-tensors 0.12.2:
//         quantization/lifecycle/initialize.py: weight_scale in the module's weight
//         dtype, [out, 1] (channel), [out, ceil(in/g)] (group), [1] (tensor),
//         [ceil(out/bh), ceil(in/bw)] (block); weight_g_idx int32 [in] only for
//         actorder "group" (alias "dynamic"); a static input scale [1] per Linear.
//         compressors/quantized_compressors/pack_quantized.py: weight_packed int32
//         [out, ceil(in/(32/b))], weight_shape = torch.tensor(shape) (int64 [2]),
//         weight_zero_point packed int32 only when asymmetric. base.py: symmetric
//         zero points are not saved. vLLM's WNA16 scheme takes 4 or 8 bits.
//   fbgemm_fp8 huggingface/transformers @ b282e23b453c, src/transformers/integrations/
//         fbgemm_fp8.py FbgemmFp8Linear (built without weight_dtype, so float32):
//         weight float8_e4m3fn [out, in], weight_scale float32 [out, 1], bias in the same
//         dtype; input_scale_ub is a non-persistent buffer (not stored); lm_head is
//         always added to modules_to_not_convert.
#include "quant_checkpoint.hpp"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "vram/choice.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram::quant {

using nlohmann::json;

namespace {

/// group_size -1: one group spans a whole row (a scale per output channel).
constexpr std::int64_t kPerChannel = 1'000'000'000;

std::string list_of(std::initializer_list<std::int64_t> values) {
  std::string s;
  for (auto v : values) s += (s.empty() ? "" : ", ") + std::to_string(v);
  return s;
}

/// An integer field that must be one of `allowed` (bit widths); `fallback` when absent.
std::int64_t one_of(const json& q, std::string_view key, const std::string& path,
                    std::initializer_list<std::int64_t> allowed, std::int64_t fallback, const char* who) {
  const auto v = io::optional_int(q, key, path, {-io::kAbsurd, io::kAbsurd});
  if (!v) return fallback;
  for (auto a : allowed)
    if (*v == a) return *v;
  throw InputError(io::join_path(path, key),
                   "must be one of " + list_of(allowed) + " (" + who + "); got " + std::to_string(*v));
}

/// group_size: -1 (a scale per output row) or a positive count of input columns.
std::int64_t group_size(const json& q, std::string_view key, const std::string& path, std::int64_t fallback) {
  const auto v = io::optional_int(q, key, path, {-io::kAbsurd, io::kAbsurd});
  if (!v) return fallback;
  if (*v == -1) return kPerChannel;
  if (*v <= 0) {
    throw InputError(io::join_path(path, key),
                     "must be -1 (one group per output row) or a positive number of input columns such as 128; got " +
                         std::to_string(*v));
  }
  return *v;
}

std::string group_label(std::int64_t group) {
  if (group == kPerChannel) return "per-channel";
  std::string label = "g";
  label += std::to_string(group);
  return label;
}


enum class AwqVersion : std::uint8_t { gemm };
constexpr std::array<Choice<AwqVersion>, 2> kAwqVersions{{{AwqVersion::gemm, "gemm"}, {AwqVersion::gemm, "GEMM"}}};

enum class GptqLayout : std::uint8_t { gptq, gptq_v2 };
constexpr std::array<Choice<GptqLayout>, 2> kGptqLayouts{
    {{GptqLayout::gptq, "gptq"}, {GptqLayout::gptq_v2, "gptq_v2"}}};

}  // namespace

std::int64_t native_scale_bits(const std::string& native) {
  return native == "fp32" ? 32 : 16;
}

WeightFormat awq(const json& q, const std::string& qpath, const std::string& native) {
  (void)one_of(q, "bits", qpath, {4}, 4, "AutoAWQ WQLinear_GEMM and vLLM's AWQ loader store 4-bit weights only");
  const std::int64_t group = group_size(q, "group_size", qpath, 128);
  // GEMV, GEMV_fast and Marlin store other shapes (AutoAWQ gemv.py pads qzeros to 8 groups).
  (void)io::optional_enum(q, "version", qpath, kAwqVersions);
  (void)io::optional_bool(q, "zero_point", qpath);  // qzeros are stored either way
  WeightFormat f = named_format(FormatKind::awq_int4, group, false, native);
  f.linear.name = "int4 " + group_label(group);
  f.summary = "linear weights int4 (qweight int32 [in, out/8]) + fp16 scale and packed 4-bit zero per " +
              group_label(group) + " group (AutoAWQ GEMM)";
  f.source = "AutoAWQ v0.2.9 WQLinear_GEMM: qweight, qzeros int32 [in/g, out/8], scales fp16 [in/g, out]";
  f.group_path = io::join_path(qpath, "group_size");
  return f;
}

WeightFormat gptq(const json& q, const std::string& qpath, const std::string& native) {
  const std::int64_t bits =
      one_of(q, "bits", qpath, {2, 3, 4, 8}, 4, "AutoGPTQ BaseQuantizeConfig and vLLM GPTQConfig");
  const std::int64_t group = group_size(q, "group_size", qpath, 128);
  (void)io::optional_enum(q, "checkpoint_format", qpath, kGptqLayouts);
  if (io::optional_bool(q, "is_marlin_format", qpath).value_or(false)) {
    throw InputError(io::join_path(qpath, "is_marlin_format"),
                     "true (Marlin-repacked weights without qzeros and g_idx) is not modelled; allowed: false");
  }
  if (io::optional_bool(q, "lm_head", qpath).value_or(false)) {
    throw InputError(io::join_path(qpath, "lm_head"),
                     "true (a GPTQ-quantized lm_head) is not modelled; allowed: false");
  }
  (void)io::optional_bool(q, "desc_act", qpath);  // g_idx is stored either way
  WeightFormat f = named_format(bits == 8 ? FormatKind::gptq_int8 : FormatKind::gptq_int4, group, false, native);
  const std::string b = std::to_string(bits);
  f.name = "gptq-int" + b;
  f.linear = group_codec("int" + b + " " + group_label(group), bits, group, 16, bits, 32, 0);
  f.summary = "linear weights int" + b + " + fp16 scale and packed " + b + "-bit zero per " + group_label(group) +
              " group + int32 g_idx per input column";
  f.source = "AutoGPTQ v0.7.1 QuantLinear: qweight int32 [in/32*b, out], qzeros, scales fp16, g_idx int32 [in]";
  f.group_path = io::join_path(qpath, "group_size");
  return f;
}

WeightFormat fbgemm_fp8(const json& q, const std::string& qpath, const std::string& native) {
  (void)io::optional_number(q, "activation_scale_ub", qpath, 0, 1e30);  // a runtime bound, not stored
  WeightFormat f = named_format(FormatKind::fp8, 128, false, native);
  f.linear.name = "fp8 per-channel";
  f.summary = "linear weights fp8 e4m3 + one fp32 scale per output channel (fbgemm rowwise)";
  f.source = "transformers @ b282e23b FbgemmFp8Linear: weight float8_e4m3fn [out, in], weight_scale float32 [out, 1]";
  return f;
}

namespace {

// compressed-tensors' names (config/base.py CompressionFormat, quantization/quant_args.py).
enum class CtFormat : std::uint8_t { pack_quantized, int_quantized, naive_quantized, float_quantized, nvfp4, mixed };
constexpr std::array<Choice<CtFormat>, 6> kCtFormats{{{CtFormat::pack_quantized, "pack-quantized"},
                                                      {CtFormat::int_quantized, "int-quantized"},
                                                      {CtFormat::naive_quantized, "naive-quantized"},
                                                      {CtFormat::float_quantized, "float-quantized"},
                                                      {CtFormat::nvfp4, "nvfp4-pack-quantized"},
                                                      {CtFormat::mixed, "mixed-precision"}}};
enum class CtType : std::uint8_t { integer, floating };
constexpr std::array<Choice<CtType>, 2> kCtTypes{{{CtType::integer, "int"}, {CtType::floating, "float"}}};
enum class CtStrategy : std::uint8_t { tensor, channel, group, block, tensor_group };
constexpr std::array<Choice<CtStrategy>, 5> kCtStrategies{{{CtStrategy::tensor, "tensor"},
                                                           {CtStrategy::channel, "channel"},
                                                           {CtStrategy::group, "group"},
                                                           {CtStrategy::block, "block"},
                                                           {CtStrategy::tensor_group, "tensor_group"}}};
// ActivationOrdering: "dynamic" is an alias of "group", "static" of "weight".
enum class CtActOrder : std::uint8_t { group, weight };
constexpr std::array<Choice<CtActOrder>, 4> kCtActOrders{{{CtActOrder::group, "group"},
                                                          {CtActOrder::weight, "weight"},
                                                          {CtActOrder::group, "dynamic"},
                                                          {CtActOrder::weight, "static"}}};

/// One config group's weight scheme, and whether its input scale is stored.
struct CtScheme {
  CtFormat format = CtFormat::float_quantized;
  CtType type = CtType::integer;
  std::int64_t bits = 8;
  CtStrategy strategy = CtStrategy::tensor;
  std::int64_t group = kPerChannel;
  std::int64_t block_rows = 0, block_cols = 0;
  bool symmetric = true;
  bool g_idx = false;
  bool static_input = false;    ///< input_activations with dynamic false: an input_scale per Linear
  bool input_symmetric = true;  ///< else an input_zero_point beside it
  std::string weights_path;
};

/// QuantizationArgs without a strategy: group when group_size is set (-1: channel), else tensor.
CtStrategy ct_strategy(const json& w, const std::string& wpath) {
  if (const auto s = io::optional_enum(w, "strategy", wpath, kCtStrategies)) return *s;
  const auto g = w.find("group_size");
  if (g == w.end() || g->is_null()) return CtStrategy::tensor;
  return g->is_number_integer() && g->get<std::int64_t>() == -1 ? CtStrategy::channel : CtStrategy::group;
}

void read_ct_block(const json& w, const std::string& wpath, CtScheme& s) {
  const auto it = w.find("block_structure");
  const std::string p = io::join_path(wpath, "block_structure");
  if (it == w.end() || !it->is_array() || it->size() != 2) {
    throw InputError(p, "must be [rows, columns] of a scale block for strategy \"block\", e.g. [128, 128]");
  }
  const json pair = {{"0", (*it)[0]}, {"1", (*it)[1]}};
  s.block_rows = io::require_int(pair, "0", p, {1, 4096});
  s.block_cols = io::require_int(pair, "1", p, {1, 4096});
}

void read_ct_weights(const json& w, const std::string& wpath, CtScheme& s) {
  s.weights_path = wpath;
  s.type = io::optional_enum(w, "type", wpath, kCtTypes).value_or(CtType::integer);
  s.bits = io::optional_int(w, "num_bits", wpath, {1, 64}).value_or(8);
  s.strategy = ct_strategy(w, wpath);
  s.symmetric = io::optional_bool(w, "symmetric", wpath).value_or(true);
  if (s.strategy == CtStrategy::group) {
    s.group = group_size(w, "group_size", wpath, 0);
    if (s.group == 0 || s.group == kPerChannel) {
      throw InputError(io::join_path(wpath, "group_size"),
                       "must be a positive number of input columns (such as 128) for strategy \"group\"; use "
                       "strategy \"channel\" for one scale per output row");
    }
  }
  if (s.strategy == CtStrategy::block) read_ct_block(w, wpath, s);
  s.g_idx = io::optional_enum(w, "actorder", wpath, kCtActOrders) == CtActOrder::group;
}

void read_ct_inputs(const json& group, const std::string& gpath, CtScheme& s) {
  const auto it = group.find("input_activations");
  if (it == group.end() || it->is_null()) return;
  const std::string ipath = io::join_path(gpath, "input_activations");
  const json& in = io::require_object(*it, ipath, "input_activations");
  const auto dyn = in.find("dynamic");
  const bool dynamic = dyn != in.end() && (dyn->is_string() || (dyn->is_boolean() && dyn->get<bool>()));
  s.static_input = !dynamic;
  s.input_symmetric = io::optional_bool(in, "symmetric", ipath).value_or(true);
}

/// The format a scheme is stored in when the config names none (or "mixed-precision").
CtFormat inferred_format(const CtScheme& s) {
  if (s.type == CtType::floating) return s.bits == 4 ? CtFormat::nvfp4 : CtFormat::float_quantized;
  return s.bits == 8 ? CtFormat::int_quantized : CtFormat::pack_quantized;
}

/// The first config group's scheme; the format comes from the top level or the group.
CtScheme read_ct_scheme(const json& q, const std::string& qpath) {
  const auto groups = q.find("config_groups");
  const std::string cpath = io::join_path(qpath, "config_groups");
  if (groups == q.end() || !groups->is_object() || groups->empty()) {
    throw InputError(cpath, "is required: an object of quantization schemes (e.g. {\"group_0\": {\"weights\": ...}})");
  }
  const std::string gpath = io::join_path(cpath, groups->begin().key());
  const json& group = io::require_object(groups->begin().value(), gpath, "a config group");
  CtScheme s;
  const auto w = group.find("weights");
  if (w == group.end() || !w->is_object()) {
    throw InputError(io::join_path(gpath, "weights"), "is required: the weight quantization arguments");
  }
  read_ct_weights(*w, io::join_path(gpath, "weights"), s);
  read_ct_inputs(group, gpath, s);
  auto format = io::optional_enum(q, "format", qpath, kCtFormats);
  if (!format || *format == CtFormat::mixed) format = io::optional_enum(group, "format", gpath, kCtFormats);
  s.format = format && *format != CtFormat::mixed ? *format : inferred_format(s);
  return s;
}

/// Bit widths each stored format takes (vLLM compressed_tensors schemes: WNA16 4 or 8,
/// W8A8 int8, FP8, NVFP4).
void check_ct_bits(const CtScheme& s) {
  const bool packed = s.format == CtFormat::pack_quantized;
  const bool fp4 = s.format == CtFormat::nvfp4;
  const bool ok = packed ? (s.bits == 4 || s.bits == 8) && s.type == CtType::integer
                         : (fp4 ? s.bits == 4 && s.type == CtType::floating : s.bits == 8);
  if (ok) return;
  const char* allowed = packed ? "4 or 8 with type \"int\" (pack-quantized)"
                               : (fp4 ? "4 with type \"float\" (nvfp4)" : "8 (int8 or fp8 weights)");
  throw InputError(io::join_path(s.weights_path, "num_bits"),
                   std::string("must be ") + allowed + "; got " + std::to_string(s.bits));
}

/// The stored codec of one quantized Linear under scheme `s`, scales in `scale_bits`.
Codec ct_codec(const CtScheme& s, std::int64_t scale_bits) {
  const bool packed = s.format == CtFormat::pack_quantized;
  const std::int64_t elem = packed ? s.bits : 8;  // int-/float-/naive-quantized keep one byte per value
  const std::int64_t zero = s.symmetric ? 0 : (packed ? s.bits : 8);
  std::int64_t extras = packed ? 2 * 64 : 0;  // weight_shape int64 [2]
  if (s.static_input) extras += scale_bits + (s.input_symmetric ? 0 : 8);
  const std::string type = s.type == CtType::floating ? "fp" : "int";
  switch (s.strategy) {
    case CtStrategy::block: {
      Codec c = group_codec(
          type + std::to_string(s.bits) + " block " + std::to_string(s.block_rows) + "x" + std::to_string(s.block_cols),
          elem, 0, scale_bits, 0, 0, extras);
      c.kind = Codec::Kind::block2d;
      c.block_rows = s.block_rows;
      c.block_cols = s.block_cols;
      return c;
    }
    case CtStrategy::tensor:
      return group_codec(type + std::to_string(s.bits) + " per-tensor", elem, kPerChannel, 0, 0, 0,
                     extras + scale_bits + zero);
    default:
      return group_codec(
          type + std::to_string(s.bits) + " " + group_label(s.strategy == CtStrategy::group ? s.group : kPerChannel),
          elem, s.strategy == CtStrategy::group ? s.group : kPerChannel, scale_bits, zero, s.g_idx ? 32 : 0, extras);
  }
}

FormatKind ct_kind(const CtScheme& s) {
  if (s.format == CtFormat::pack_quantized) return FormatKind::w4a16;
  return s.type == CtType::floating ? FormatKind::fp8 : FormatKind::w8a8;
}

}  // namespace

WeightFormat compressed_tensors(const json& q, const std::string& qpath, const std::string& native) {
  const CtScheme s = read_ct_scheme(q, qpath);
  check_ct_bits(s);
  if (s.format == CtFormat::nvfp4) return named_format(FormatKind::nvfp4, 16, false, native);
  const std::int64_t scale_bits = native_scale_bits(native);
  WeightFormat f = named_format(ct_kind(s), s.group, false, native);
  f.linear = ct_codec(s, scale_bits);
  if (s.strategy == CtStrategy::tensor) f.linear.kind = Codec::Kind::plain;
  const std::string scale = scale_bits == 32 ? "fp32" : native;
  f.summary = "linear weights " + f.linear.name + " + " + scale + " weight_scale" +
              (s.symmetric ? "" : " + zero point") + (s.g_idx ? " + int32 g_idx per input column" : "") +
              (s.static_input ? " + a static input_scale" : "") + "; ignore list and embeddings 16-bit";
  f.source = "compressed-tensors 0.12.2: lifecycle/initialize.py (scale in the weight dtype), pack_quantized.py";
  if (s.strategy == CtStrategy::group) f.group_path = io::join_path(s.weights_path, "group_size");
  return f;
}

}  // namespace vram::quant
