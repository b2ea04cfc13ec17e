#include "vram/budget/gradients.hpp"

#include <algorithm>

namespace vram {

using checked::Count;

namespace {
constexpr std::string_view kZeroSource = "ZeRO (Rajbhandari et al. 2020) §3.1, §5.2 (gradient partitioning)";
constexpr std::string_view kDdpSource =
    "pytorch.org/docs/2.8/generated/torch.nn.parallel.DistributedDataParallel.html (gradient_as_bucket_view = False)";
constexpr std::string_view kInBackwardSource =
    "torchtune v0.6.1 recipes/full_finetune_single_device.py (optimizer_in_bwd: per-parameter step in "
    "register_post_accumulate_grad_hook, gradient freed)";
constexpr std::string_view kBucketSource = "deepspeed v0.16 deepspeed/runtime/zero/config.py reduce_bucket_size = 5e8";
constexpr std::int64_t kZeroReduceBucket = 500'000'000;
}  // namespace

std::int64_t TrainableSet::params() const {
  Count n = 0;
  for (const auto& b : blocks) n += b.elements();
  return n;
}

std::int64_t TrainableSet::largest_tensor() const {
  std::int64_t m = 0;
  for (const auto& b : blocks) m = std::max(m, b.tensor_elements());
  return m;
}

ParamBlock TrainableSet::largest_hidden_matrix() const {
  ParamBlock out{1, 1, 0, false};
  for (const auto& b : blocks)
    if (b.hidden_matrix && b.count > 0 && (out.count == 0 || b.tensor_elements() > out.tensor_elements())) out = b;
  return out;
}

Factors share_factors(Share share) {
  if (share.num == share.den) return {};
  return {Factor::real(static_cast<double>(share.num) / static_cast<double>(share.den), "share (1/{} shard group)")
              .with(share.den / std::max<std::int64_t>(1, share.num))};
}

namespace {
/// params × bytes, then the GPU's share rounded up to whole bytes.
Term shared_product(Factors f, Share share) {
  for (const auto& s : share_factors(share)) f.push_back(s);
  return Term::product(std::move(f), share.num == share.den ? Rounding::exact : Rounding::ceil);
}
}  // namespace

Term gradients_term(std::int64_t params, std::int64_t grad_bytes, Share share) {
  return shared_product({Factor::of(params, "trainable params"), Factor::bytes(grad_bytes, "gradient")}, share)
      .named("gradients")
      .cite(kZeroSource);
}

Term gradients_in_backward_term(std::int64_t largest_tensor, std::int64_t grad_bytes) {
  return Term::product({Factor::of(largest_tensor, "params of the largest trainable tensor"),
                        Factor::bytes(grad_bytes, "gradient")})
      .named("gradient of one parameter at a time")
      .cite(kInBackwardSource);
}

Term ddp_buckets_term(std::int64_t params, std::int64_t grad_bytes) {
  return Term::product({Factor::of(params, "trainable params"), Factor::bytes(grad_bytes, "bucket copy")})
      .named("DDP all-reduce buckets")
      .cite(kDdpSource);
}

Term zero_reduce_bucket_term(std::int64_t params, std::int64_t grad_bytes) {
  return Term::product({Factor::of(std::min(params, kZeroReduceBucket), "elements (reduce_bucket_size, at most)"),
                        Factor::bytes(grad_bytes, "gradient")})
      .named("ZeRO reduction bucket")
      .cite(kBucketSource);
}

}  // namespace vram
