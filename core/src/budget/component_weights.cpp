// Budget category: the weights of one pipeline component in its stored format.
#include "vram/budget/generation.hpp"

namespace vram::generation {

namespace {

constexpr std::string_view kPlainSource =
    "diffusers v0.35 DiffusionPipeline.from_pretrained(torch_dtype=...) casts every component; Wan reference scripts "
    "keep the checkpoint dtype (Wan2.1 @9737cba9 wan/text2video.py)";
constexpr std::string_view kQuantSource =
    "diffusers v0.35 quantizers (bitsandbytes, torchao, quanto, GGUF) convert nn.Linear weights only; embeddings, "
    "norms, convolutions and biases stay in the compute dtype; transformers v4.56 T5 _keep_in_fp32_modules = [\"wo\"] "
    "(kept in fp32 by bitsandbytes)";

Bytes linear_bytes(const Inventory& inv, const Codec& codec) {
  Bytes b;
  for (const auto& g : inv.linear)
    if (!g.keep) b += stored_bytes(codec, g.out, g.in, g.count);
  return b;
}

/// Buffers the module holds beside its parameters (SD3's stored positional
/// table, in the component's dtype; PixArt's, built in fp32 at init and never cast).
Term buffer_bytes(const Inventory& inv, std::int64_t elem) {
  return Term::product({Factor::of(inv.buffers, "buffer elements (positional table)"),
                        Factor::bytes(inv.buffers_fp32 ? 4 : elem, inv.buffers_fp32 ? "fp32" : "")})
      .named("buffers");
}

Term plain_weights(const Component& c, const StoredFormat& f) {
  const std::int64_t bits = f.format.linear.elem_bits;
  Term params = Term::product({Factor::of(c.inventory.params(), "params"), Factor::bytes(bits / 8, f.format.linear.name)});
  if (c.inventory.buffers == 0) return std::move(params).named(c.name).cite(kPlainSource);
  return Term::sum(terms(std::move(params).named("parameters"), buffer_bytes(c.inventory, bits / 8)))
      .named(c.name)
      .cite(kPlainSource);
}

Term quantized_weights(const Component& c, const StoredFormat& f) {
  const Inventory& inv = c.inventory;
  const std::int64_t lin = inv.linear_weights();
  const Bytes lb = linear_bytes(inv, f.format.linear);
  Terms parts;
  parts.push_back(Term::shown_as(lb, {Factor::of(lin, "linear weights"),
                                      Factor::real(lin > 0 ? static_cast<double>(lb.in_bytes()) / static_cast<double>(lin) : 0,
                                                   "B", f.format.linear.name)})
                      .named("linear layers"));
  const std::int64_t kept = inv.kept_linear_weights();
  const std::int64_t rest_elem = f.format.other.elem_bits / 8;
  std::int64_t rest = inv.params() - lin;
  if (kept > 0 && f.keep_fp32) {
    rest -= kept;
    parts.push_back(Term::product({Factor::of(kept, "kept linear weights"), Factor::bytes(4, "fp32")})
                        .named("layers kept unquantized"));
  }
  parts.push_back(Term::product({Factor::of(rest, "other params"), Factor::bytes(rest_elem, f.format.other.name)})
                      .named("embeddings, norms, biases"));
  if (inv.buffers > 0) parts.push_back(buffer_bytes(inv, rest_elem));
  return Term::sum(std::move(parts)).named(c.name).cite(kQuantSource);
}

}  // namespace

Term component_weights(const Component& c, const StoredFormat& f, std::int64_t shards) {
  Term whole = f.quantized ? quantized_weights(c, f) : plain_weights(c, f);
  if (shards <= 1) return whole;
  const std::string_view name = whole.what;
  return Term::product(terms(std::move(whole)), {Factor::real(1.0 / static_cast<double>(shards), "share per GPU (FSDP)")},
                       Rounding::ceil)
      .named(name)
      .cite("PyTorch 2.5 FullyShardedDataParallel FULL_SHARD: each rank keeps 1/N of the flat parameters "
            "(Wan2.1 @9737cba9 wan/distributed/fsdp.py shard_model)");
}

}  // namespace vram::generation
