// vLLM's MoE kernels: how MXFP4 experts are laid out in memory.
//
// Sources: vllm/model_executor/layers/quantization/mxfp4.py (main at 007d5005,
// after v0.12; the same rules since gpt-oss support in v0.10.1):
//   get_mxfp4_backend: sm100 family with FlashInfer; sm90..sm10x with
//   triton_kernels (torch >= 2.8); Marlin otherwise (sm80, sm86, sm89, sm120).
//   Mxfp4MoEMethod.create_weights: Marlin rounds the intermediate size per
//   partition up to 128 and the hidden size to 256 ("n % 256 == 0 and
//   k % 128 == 0"); FlashInfer on sm100 both to 256; the Triton path the
//   intermediate size to 64.
#include "vram/engines/vllm.hpp"

namespace vram::vllm {

namespace {
constexpr std::string_view kMxfp4Source =
    "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend, Mxfp4MoEMethod.create_weights "
    "(main at 007d5005; the same rules since v0.10.1)";
}  // namespace

Mxfp4MoeLayout mxfp4_moe_layout(int cc, RocmArch rocm) {
  if (rocm != RocmArch::none) return {};
  if (cc <= 0) return {Mxfp4MoeBackend::triton, 64, 1, true};
  if (cc >= 100 && cc < 110) return {Mxfp4MoeBackend::flashinfer, 256, 256};
  if (cc >= 90 && cc < 100) return {Mxfp4MoeBackend::triton, 64, 1};
  return {Mxfp4MoeBackend::marlin, 128, 256};
}

Term mxfp4_moe_padding_term(const Mxfp4MoeLayout& layout, Bytes padded, Bytes stored, std::int64_t extra_elements) {
  std::string_view rule = "padding values";
  switch (layout.backend) {
    case Mxfp4MoeBackend::marlin:
      rule = "padding values (Marlin MoE: intermediate per rank to a multiple of {}, hidden to {})";
      break;
    case Mxfp4MoeBackend::triton:
      rule = layout.assumed ? "padding values (Triton MoE, sm90 assumed: intermediate per rank to a multiple of {})"
                            : "padding values (Triton MoE: intermediate per rank to a multiple of {})";
      break;
    case Mxfp4MoeBackend::flashinfer:
      rule = "padding values (FlashInfer MoE: intermediate per rank to a multiple of {}, hidden to {})";
      break;
    case Mxfp4MoeBackend::none: break;
  }
  return Term::shown_as(padded - stored,
                        {Factor::of(extra_elements, rule).with(layout.intermediate_multiple, layout.hidden_multiple),
                         Factor::real(17.0 / 32.0, "B (mxfp4: 17 B per 32 values)")})
      .named("MXFP4 expert padding")
      .cite(kMxfp4Source);
}

namespace {
constexpr std::string_view kTritonLayoutSource =
    "vllm/model_executor/layers/fused_moe/oracle/mxfp4.py convert_to_mxfp4_moe_kernel_format (TRITON: biases "
    "to float32, _swizzle_mxfp4, del w13_weight / w2_weight only) and quantization/mxfp4.py "
    "Mxfp4MoEMethod._setup_kernel (the swizzled scales kept beside the original parameters), v0.19.0; "
    "triton v3.6.0 python/triton_kernels/triton_kernels/tensor_details/layout_details/hopper_value.py "
    "HopperMXValueLayout.swizzle_data (both byte dimensions to multiples of 64, triton 4327b5b62) and "
    "hopper_scale.py HopperMXScaleLayout.swizzle_data (rows to 2 × num_warps × 2 × 8 = 256 with num_warps 8, "
    "columns to 2); vLLM bundles triton_kernels v3.6.0 from f97ca6717 (2026-02-08)";

/// Rows of one expert's w13 (gate and up): 2 · I_p.
std::int64_t w13_rows(const Mxfp4TritonShape& s) {
  return checked::mul(2, s.inter_padded);
}

/// Bytes of one expert's swizzled values beyond the checkpoint layout:
/// w13 [2·I_p, H/2] and w2 [H, I_p/2] with both dimensions to multiples of 64.
std::int64_t value_padding_per_expert(const Mxfp4TritonShape& s) {
  const std::int64_t w13 = checked::mul(checked::round_up(w13_rows(s), 64), checked::round_up(s.hidden / 2, 64)) -
                           checked::mul(w13_rows(s), s.hidden / 2);
  const std::int64_t w2 = checked::mul(checked::round_up(s.hidden, 64), checked::round_up(s.inter_padded / 2, 64)) -
                          checked::mul(s.hidden, s.inter_padded / 2);
  return checked::add(w13, w2);
}

/// One expert's scales in the checkpoint layout: w13 [2·I_p, H/32], w2 [H, I_p/32], 1 B each.
std::int64_t scales_per_expert(const Mxfp4TritonShape& s) {
  return checked::add(checked::mul(w13_rows(s), s.hidden / 32), checked::mul(s.hidden, s.inter_padded / 32));
}

/// Bytes of one expert's swizzled scales beyond the checkpoint layout: rows to 256, columns to 2.
std::int64_t scale_padding_per_expert(const Mxfp4TritonShape& s) {
  const std::int64_t swizzled = checked::add(checked::mul(checked::round_up(w13_rows(s), 256), checked::round_up(s.hidden / 32, 2)),
                                             checked::mul(checked::round_up(s.hidden, 256), checked::round_up(s.inter_padded / 32, 2)));
  return swizzled - scales_per_expert(s);
}

Term per_expert_part(const Mxfp4TritonShape& s, std::int64_t bytes_per_expert, std::string_view unit,
                     std::string_view what) {
  return Term::product({Factor::of(s.layers, "layers"), Factor::of(s.experts, "experts"),
                        Factor::of(bytes_per_expert, unit)})
      .named(what);
}
}  // namespace

Term mxfp4_triton_layout_term(const Mxfp4TritonShape& s) {
  Terms parts;
  if (s.value_padding) {
    parts.push_back(per_expert_part(s, value_padding_per_expert(s), "B per expert (to multiples of 64)",
                                    "value swizzle padding"));
  }
  parts.push_back(per_expert_part(s, scale_padding_per_expert(s), "B per expert (rows to 256, columns to 2)",
                                  "scale swizzle padding"));
  parts.push_back(per_expert_part(s, scales_per_expert(s), "B per expert (2·I_p × H/32 + H × I_p/32)",
                                  "checkpoint scales kept beside the swizzled ones"));
  if (s.biases) {
    // fp32 biases [2·I_p] and [H] in place of the checkpoint's bf16 [2·I] and [H].
    const std::int64_t extra = checked::mul(4, checked::add(w13_rows(s), s.hidden)) -
                               checked::mul(2, checked::add(checked::mul(2, s.inter), s.hidden));
    parts.push_back(per_expert_part(s, extra, "B per expert (4 × (2·I_p + H) − 2 × (2·I + H))", "biases in fp32"));
  }
  return sum_nonzero(std::move(parts)).named("triton_kernels layout").shown_in(kMiB).cite(kTritonLayoutSource);
}

}  // namespace vram::vllm
