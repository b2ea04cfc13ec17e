// Storage formats: how many bytes a tensor takes in a given weight format.
//
// Every format is described by its layout in bits (payload per element plus
// the scales, zero points and indexes the loader stores beside it), so 4-bit
// types never round to 0 bytes per element and overheads stay visible.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "vram/choice.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"

namespace vram {

/// The layout of one stored tensor of `rows` x `cols` elements.
struct Codec {
  enum class Kind : std::uint8_t {
    plain,    ///< elem_bits per element, nothing else
    per_row,  ///< + one scale per output row (per-channel)
    block2d,  ///< + one scale per block_rows x block_cols tile (DeepSeek fp8)
    group,    ///< + scale (and zero) per `group` input elements of each row (GPTQ/AWQ)
    blocks,   ///< whole blocks of `group` elements, `block_bits` each (GGUF, MXFP4, NVFP4, NF4)
  };
  Kind kind = Kind::plain;
  std::int64_t elem_bits = 16;
  std::int64_t scale_bits = 0;
  std::int64_t zero_bits = 0;
  std::int64_t group = 0;
  std::int64_t block_bits = 0;
  std::int64_t block_rows = 0;
  std::int64_t block_cols = 0;
  std::int64_t index_bits_per_col = 0;  ///< GPTQ g_idx: one int32 per input column
  std::int64_t tensor_bits = 0;         ///< per-tensor extras (global scales, shape)
  bool flat = false;                    ///< blocks run over the flattened tensor, not per row (bitsandbytes)
  std::string name;                     ///< "bf16", "Q4_K", "int4 g128"
};

/// Bytes of `count` tensors of rows x cols elements stored with `codec`.
Bytes stored_bytes(const Codec& codec, std::int64_t rows, std::int64_t cols, std::int64_t count = 1);

/// A plain element type (bf16, fp16, fp32, fp8, int8, int4).
Codec plain_codec(const std::string& name, std::int64_t bits);

/// A scale (and zero) per `group` input columns of each row, optional
/// per-column index and per-tensor extras: Codec::Kind::group.
Codec group_codec(const std::string& name, std::int64_t bits, std::int64_t group, std::int64_t scale_bits,
                  std::int64_t zero_bits, std::int64_t index_bits, std::int64_t tensor_bits);

/// The GGML types llama.cpp's mixtures assign beside the file type's base type.
struct GgufMixCodecs {
  Codec f32, q8_0, q6_k, q5_k, q4_k, q3_k;
};

/// The named weight formats a scenario may give, and GGUF files (gguf:<TYPE>).
enum class FormatKind : std::uint8_t {
  fp32, fp16, bf16, fp8, int8, w8a8, w4a16, gptq_int4, gptq_int8, awq_int4, nf4, int4, mxfp4, nvfp4, gguf
};
inline constexpr std::array<Choice<FormatKind>, 14> kNamedFormats{{{FormatKind::fp32, "fp32"},
                                                                  {FormatKind::fp16, "fp16"},
                                                                  {FormatKind::bf16, "bf16"},
                                                                  {FormatKind::fp8, "fp8"},
                                                                  {FormatKind::int8, "int8"},
                                                                  {FormatKind::w8a8, "w8a8"},
                                                                  {FormatKind::w4a16, "w4a16"},
                                                                  {FormatKind::gptq_int4, "gptq-int4"},
                                                                  {FormatKind::gptq_int8, "gptq-int8"},
                                                                  {FormatKind::awq_int4, "awq-int4"},
                                                                  {FormatKind::nf4, "nf4"},
                                                                  {FormatKind::int4, "int4"},
                                                                  {FormatKind::mxfp4, "mxfp4"},
                                                                  {FormatKind::nvfp4, "nvfp4"}}};

/// A module a checkpoint's ignore list keeps in 16 bits: every tensor of `role`,
/// on decoder layer `layer` only, or on every layer when `layer` is -1
/// ("model.layers.31.mlp.down_proj" → {mlp_down, 31}; "lm_head" → {lm_head, -1}).
struct KeptModule {
  TensorRole role;
  std::int32_t layer = -1;
  bool operator==(const KeptModule&) const = default;
};

/// The codec one quantization-config entry gives every tensor of `role` on the
/// decoder layers first..last (both -1: every layer): ModelOpt MIXED_PRECISION
/// names each quantized module with its algorithm ("model.layers.3.mlp.experts"
/// → NVFP4, "model.layers.3.self_attn.q_proj" → FP8).
struct RoleCodec {
  TensorRole role;
  std::int32_t first = -1;
  std::int32_t last = -1;
  Codec codec;
};

/// The `quant_method` of a checkpoint's quantization_config.
enum class QuantMethod : std::uint8_t { fp8, compressed_tensors, gptq, awq, bitsandbytes, mxfp4, modelopt, fbgemm_fp8 };
inline constexpr std::array<Choice<QuantMethod>, 8> kQuantMethods{
    {{QuantMethod::fp8, "fp8"},
     {QuantMethod::compressed_tensors, "compressed-tensors"},
     {QuantMethod::gptq, "gptq"},
     {QuantMethod::awq, "awq"},
     {QuantMethod::bitsandbytes, "bitsandbytes"},
     {QuantMethod::mxfp4, "mxfp4"},
     {QuantMethod::modelopt, "modelopt"},
     {QuantMethod::fbgemm_fp8, "fbgemm_fp8"}}};

/// The weight format of a scenario: which codec each tensor gets.
struct WeightFormat {
  FormatKind kind = FormatKind::bf16;
  std::string name;     ///< canonical name, e.g. "gptq-int4", "gguf:Q4_K_M"
  std::string summary;  ///< one line for reports: what is stored
  std::string source;   ///< where the layout is documented
  Codec linear;         ///< quantizable linear weights
  Codec other;          ///< everything else (embeddings, norms, routers, vision)
  Codec fp32 = plain_codec("fp32", 32);  ///< tensors a family keeps in fp32 whatever the format (MiniMax's routers)
  /// The GGUF file type as llama.cpp numbers it (enum llama_ftype: 15 = Q4_K_M);
  /// -1 for other formats. Its mixture rule picks the type of each tensor.
  std::int64_t gguf_ftype = -1;
  GgufMixCodecs mix;                         ///< the types a GGUF mixture raises tensors to
  std::vector<KeptModule> keep_unquantized;  ///< modules excluded by the checkpoint's ignore list
  /// Per-module codecs (MIXED_PRECISION): a tensor they name takes theirs; any
  /// other keeps `linear` (the 16-bit dtype there) or `other`.
  std::vector<RoleCodec> by_role;
  /// The KV-cache dtype a ModelOpt quantization_config declares ("fp8"), or empty.
  std::string checkpoint_kv;
  /// JSON path of the field that set `linear.group` ("/config/quantization_config/group_size"),
  /// named when a quantized layer's input width is not a multiple of it.
  std::string group_path;
  /// A GGUF file: a per-tensor recipe (llama.cpp mixtures), see codec_for.
  bool gguf() const { return kind == FormatKind::gguf; }
  bool quantized() const { return linear.name != other.name || gguf() || !by_role.empty(); }
  /// Some kept module names one decoder layer: the codec of a tensor entry
  /// spanning several layers is chosen layer by layer.
  bool keeps_per_layer() const;
};

/// Names accepted in the scenario's "weights" field.
std::vector<std::string> weight_format_names();

/// Parses the scenario "weights" value (a string or {"format", "group_size"}).
/// `native` is the model's own 16/32-bit dtype for the unquantized tensors.
WeightFormat parse_weight_format(const nlohmann::json& value, const std::string& path, const std::string& native);

/// The layout of a named format (group size for GPTQ/AWQ/w4a16, double quantization for NF4).
WeightFormat named_format(FormatKind kind, std::int64_t group, bool double_quant, const std::string& native);

/// The format a checkpoint's `quantization_config` describes (compressed-tensors,
/// fp8, gptq, awq, bitsandbytes, mxfp4, modelopt, fbgemm_fp8), with its ignore list.
/// An unknown quant_method, a bit width or group size its quantizer does not
/// write, or a layout that is not modelled is an InputError naming the field.
/// Returns false in `found` when the config has no quantization_config.
WeightFormat format_from_quantization_config(const nlohmann::json& config, const std::string& path,
                                             const std::string& native, bool& found);

/// Refuses a group-quantized format whose group does not divide the input width
/// of every linear layer it quantizes (AutoAWQ WQLinear_GEMM asserts it; vLLM's
/// GPTQ, AWQ and compressed-tensors WNA16 loaders raise "The input size is not
/// aligned with the quantized weight shape"). The error names `format.group_path`.
void check_group_alignment(const WeightFormat& format, const Model& model);

/// Plain 16/32-bit storage in the model's own dtype.
WeightFormat native_format(const std::string& native);

/// Plain bf16, fp16 or fp32 storage as one shared immutable value per name, so a
/// weights memo (keyed on the format's address) holds across a solver's probes.
/// `bytes` 4 is fp32; 2 is fp16 when `fp16`, else bf16.
const WeightFormat& plain_format(int bytes, bool fp16);

/// Bytes of one activation element: engines compute in the model's 16-bit
/// dtype, and in fp32 only when the weights are stored as plain fp32 (vLLM
/// ModelConfig dtype "auto"; transformers torch_dtype).
std::int64_t activation_elem_bytes(const WeightFormat& weights);

/// Codec of one tensor under `format` (GGUF mixtures choose per tensor and layer).
/// The reference points into `format`.
const Codec& codec_for(const WeightFormat& format, const Tensor& tensor, const Architecture& arch);
/// The same for layer `layer` of a tensor entry that spans several layers.
const Codec& codec_for(const WeightFormat& format, const Tensor& tensor, const Architecture& arch, std::int64_t layer);

/// How a GGUF mixture types layer i of n of one tensor entry: the first
/// `first_layers` take `first`, then the layers llama.cpp's use_more_bits picks
/// take `more_bits` (where set) and the others `rest`.
struct GgufLayerRule {
  std::int64_t first_layers = 0;
  const Codec* first = nullptr;
  const Codec* more_bits = nullptr;
  const Codec* rest = nullptr;
  const Codec& at(std::int64_t i, std::int64_t n) const;
};

/// The codecs of the layers of one tensor entry, with the work that does not
/// depend on the layer done once: `fixed()` is the codec every layer takes
/// (nullptr where the GGUF mixture or a per-layer rule can differ between
/// layers) and `at(i)` is codec_for(format, tensor, arch, i).
class LayerCodecs {
 public:
  LayerCodecs(const WeightFormat& format, const Tensor& tensor, const Architecture& arch);
  const Codec* fixed() const { return fixed_; }
  const Codec& at(std::int64_t layer) const;

 private:
  const WeightFormat& format_;
  const Tensor& tensor_;
  const Architecture& arch_;
  const Codec* fixed_ = nullptr;
  GgufLayerRule rule_;  ///< a GGUF mixture's rule where the layer decides (rest is set)
};

/// Bytes per element of a safetensors dtype ("BF16" → 2). Throws `InputError`
/// at `path` for an unknown name.
std::int64_t safetensors_dtype_bytes(const std::string& dtype, const std::string& path);
/// Bits per element of a safetensors dtype (F4: 4, F6_E2M3: 6, BF16: 16).
std::int64_t safetensors_dtype_bits(const std::string& dtype, const std::string& path);

/// GGML block types: elements per block and bytes per block.
struct GgmlType {
  const char* name;
  std::int64_t block_elems;
  std::int64_t block_bytes;
  std::int64_t id;  ///< enum ggml_type, as a GGUF tensor info stores it
};
/// The type a GGUF tensor info names by id, or nullptr.
const GgmlType* ggml_type_by_id(std::int64_t id);
/// The file type general.file_type names ("Q4_K_M"), or nullptr when the
/// project does not model that mixture.
const char* gguf_file_type_name(std::int64_t id);
/// Throws `InputError` at `path` for an unknown type.
GgmlType ggml_type(const std::string& name, const std::string& path);

}  // namespace vram
