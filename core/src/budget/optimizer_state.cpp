#include "vram/budget/optimizer_state.hpp"

#include "vram/budget/gradients.hpp"

namespace vram {

using checked::Count;

namespace {
constexpr std::string_view kTorchSource =
    "pytorch v2.8 torch/optim/adamw.py, sgd.py _init_group (states are zeros_like(param)); ZeRO (Rajbhandari et "
    "al. 2020) §3.1";
constexpr std::string_view kBnbSource =
    "bitsandbytes v0.45 bitsandbytes/optim/optimizer.py Optimizer2State.init_state (uint8 states, fp32 absmax per 256, "
    "min_8bit_size 4096)";
constexpr std::string_view kAdafactorSource =
    "Shazeer & Stern 2018 §3; transformers v4.56 optimization.py Adafactor (beta1 None: no first moment)";
constexpr std::string_view kMasterSource =
    "ZeRO (Rajbhandari et al. 2020) §3.1 (fp32 parameter copy of mixed precision)";

Term with_share(Factors f, Share share) {
  for (const auto& s : share_factors(share)) f.push_back(s);
  return Term::product(std::move(f), share.num == share.den ? Rounding::exact : Rounding::ceil);
}

/// A sum scaled to one GPU's share.
Term shared_sum(Terms parts, Share share) {
  Term total = sum_nonzero(std::move(parts));
  if (share.num == share.den) return total;
  return Term::product(terms(std::move(total)), share_factors(share), Rounding::ceil);
}
}  // namespace

std::int64_t full_precision_moments(Optimizer opt) {
  switch (opt) {
    case Optimizer::adamw: return 2;
    case Optimizer::sgd_momentum:
    case Optimizer::lion: return 1;
    case Optimizer::sgd:
    case Optimizer::adamw_8bit:
    case Optimizer::paged_adamw_8bit:
    case Optimizer::adafactor: return 0;
  }
  return 0;
}

Term adam8bit_state_term(const TrainableSet& set, Share share) {
  Count quantized = 0, blocks = 0, small = 0;
  for (const auto& b : set.blocks) {
    if (b.tensor_elements() >= kBnbMin8bitSize) {
      quantized += b.elements();
      blocks += checked::mul(checked::ceil_div(b.tensor_elements(), kBnbStateBlock), b.count);
    } else {
      small += b.elements();
    }
  }
  const Factor two = Factor::of(2, "states");
  return shared_sum(
             terms(Term::product({Factor::of(quantized, "params"), two, Factor::bytes(1, "uint8")}),
                   Term::product({Factor::of(blocks, "blocks of 256"), two, Factor::bytes(4, "fp32 absmax")}),
                   Term::product({Factor::of(small, "params of tensors under 4,096"), two, Factor::bytes(4, "fp32")})),
             share)
      .named("8-bit AdamW states")
      .cite(kBnbSource);
}

Term adafactor_state_term(const TrainableSet& set, Share share) {
  Count factored = 0, vectors = 0;
  for (const auto& b : set.blocks) {
    if (b.rows > 1 && b.cols > 1)
      factored += checked::mul(b.rows + Count(b.cols), b.count);
    else
      vectors += b.elements();
  }
  return shared_sum(terms(Term::product({Factor::of(factored, "row + column factors"), Factor::bytes(4, "fp32")}),
                          Term::product({Factor::of(vectors, "params of 1-D tensors"), Factor::bytes(4, "fp32")})),
                    share)
      .named("Adafactor factored second moment")
      .cite(kAdafactorSource);
}

Term optimizer_state_term(const TrainableSet& set, Optimizer opt, std::int64_t state_bytes, Share share) {
  switch (opt) {
    case Optimizer::adamw_8bit:
    case Optimizer::paged_adamw_8bit: return adam8bit_state_term(set, share);
    case Optimizer::adafactor: return adafactor_state_term(set, share);
    case Optimizer::sgd: return Term::given(Bytes{}).named("plain SGD keeps no state").cite(kTorchSource);
    case Optimizer::adamw:
    case Optimizer::sgd_momentum:
    case Optimizer::lion: break;
  }
  const std::int64_t moments = full_precision_moments(opt);
  return with_share({Factor::of(set.params(), "trainable params"),
                     Factor::of(moments, moments == 2 ? "moments (exp_avg, exp_avg_sq)" : "moment (momentum)"),
                     Factor::bytes(state_bytes, state_bytes == 4 ? "fp32" : "param dtype")},
                    share)
      .named("optimizer state")
      .cite(kTorchSource);
}

Term master_weights_term(std::int64_t params, Share share) {
  return with_share({Factor::of(params, "trainable params"), Factor::bytes(4, "fp32 master copy")}, share)
      .named("master weights")
      .cite(kMasterSource);
}

}  // namespace vram
