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

Mxfp4MoeLayout mxfp4_moe_layout(int cc) {
  if (cc <= 0) return {};
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
    case Mxfp4MoeBackend::triton: rule = "padding values (Triton MoE: intermediate per rank to a multiple of {})"; break;
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

}  // namespace vram::vllm
