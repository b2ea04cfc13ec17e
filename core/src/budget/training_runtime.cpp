#include "vram/budget/training_runtime.hpp"

namespace vram {

namespace {
constexpr std::string_view kUnitSource =
    "pytorch v2.8 torch/distributed/fsdp/_fully_shard (all-gather per unit, forward/backward prefetch of the next, "
    "reduce-scatter of the unit's gradient)";
constexpr std::string_view kDoraNormSource =
    "huggingface/peft @0a6cd5a src/peft/tuners/lora/dora.py DoraLinearLayer.forward (x_eye = torch.eye(in); "
    "lora_weight = lora_B(lora_A(x_eye)).T; get_weight_norm: weight + scaling * lora_weight)";
constexpr std::string_view kDequantSource =
    "bitsandbytes v0.45 bitsandbytes/autograd/_functions.py MatMul4Bit "
    "(dequantize_4bit to the compute dtype per matmul); QLoRA (Dettmers et al. "
    "2023) §3";
constexpr std::string_view kAllocatorSource =
    "pytorch.org/docs/2.8/notes/cuda.html (caching allocator: 512 B rounding, 2 MiB / 20 MiB segments, freed blocks "
    "stay reserved); calibrated fraction of the transient working set";
}  // namespace

Term sharded_unit_term(std::int64_t unit_params, double param_bytes, std::int64_t grad_bytes) {
  const Factor n = Factor::of(unit_params, "params of one unit (decoder layer or embedding)");
  return sum_nonzero(terms(Term::product({n, Factor::of(2, "(gathered + prefetched)"),
                                          Factor::real(param_bytes, "B/param stored")},
                                         Rounding::ceil),
                           Term::product({n, Factor::bytes(grad_bytes, "unsharded gradient")})))
      .named("gathered shard unit")
      .cite(kUnitSource);
}

Term dora_norm_term(std::int64_t in, std::int64_t out, std::int64_t b) {
  Term eye = Term::product({Factor::of(in, "in"), Factor::of(in, "in"), Factor::bytes(b)}).named("identity");
  Term mats = Term::product({Factor::of(3, "(B A, its scaled copy, base + scaled)"), Factor::of(out, "out"),
                             Factor::of(in, "in"), Factor::bytes(b)})
                  .named("weight-sized copies");
  return Term::sum(terms(std::move(eye), std::move(mats))).named("DoRA weight norm").cite(kDoraNormSource);
}

Term dequantized_weight_term(std::int64_t elements, std::int64_t b) {
  return Term::product({Factor::of(elements, "elements of the largest base weight"), Factor::bytes(b, "dequantized")})
      .named("dequantized base weight")
      .cite(kDequantSource);
}

Term allocator_reserve_term(Bytes transient) {
  Term t = Term::product(terms(Term::given(transient).named("transient working set")),
                         {Factor::real(kAllocatorReserve, "reserved over allocated")}, Rounding::nearest);
  const ByteRange r{scale_floor(transient, kAllocatorReserveLow), scale_floor(transient, kAllocatorReserveHigh)};
  return std::move(t).named("caching allocator reserve").cite(kAllocatorSource).within(r);
}

}  // namespace vram
