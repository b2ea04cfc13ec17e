// The stored layout of group- and channel-quantized checkpoints (AWQ, GPTQ,
// compressed-tensors, fbgemm_fp8) as their quantization_config describes it,
// and the checks that refuse a quantization_config their loaders refuse.
// Internal to the core; formats.cpp dispatches on quant_method to these.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "vram/formats.hpp"

namespace vram::quant {

/// quant_method "awq" (AutoAWQ GEMM layout).
WeightFormat awq(const nlohmann::json& q, const std::string& qpath, const std::string& native);
/// quant_method "gptq" (AutoGPTQ / GPTQModel QuantLinear layout).
WeightFormat gptq(const nlohmann::json& q, const std::string& qpath, const std::string& native);
/// quant_method "compressed-tensors" (llm-compressor checkpoints: pack-quantized,
/// int-quantized, float-quantized, naive-quantized, nvfp4-pack-quantized).
WeightFormat compressed_tensors(const nlohmann::json& q, const std::string& qpath, const std::string& native);
/// quant_method "fbgemm_fp8" (per-channel fp8 with an fp32 scale per output row).
WeightFormat fbgemm_fp8(const nlohmann::json& q, const std::string& qpath, const std::string& native);

/// Bits of one scale that takes the checkpoint's own dtype (compressed-tensors
/// stores weight_scale in the module's weight dtype): 32 for fp32, else 16.
std::int64_t native_scale_bits(const std::string& native);

}  // namespace vram::quant
