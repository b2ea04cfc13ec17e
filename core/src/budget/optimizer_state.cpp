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
constexpr std::string_view kMuonSource =
    "pytorch v2.9 torch/optim/_muon.py Muon._init_group (momentum_buffer = zeros_like(grad), 2-D parameters only); "
    "deepspeed v0.19.6 runtime/engine.py (MuonWithAuxAdam: use_muon parameters, AdamW exp_avg and exp_avg_sq for the "
    "rest); torchtitan @b5bcd76 distributed/flex_shard/README.md (DistMuon on the matrices, AdamW for the rest)";
constexpr std::string_view kQuinticSource =
    "pytorch v2.9 torch/optim/_muon.py _single_tensor_muon (update = grad.lerp(buf, momentum)) and "
    "_zeropower_via_newtonschulz (ortho_grad = grad.bfloat16(); gram_matrix = X Xᵀ; gram_update = b·G + (c·G) G; "
    "X = a·X + gram_update X)";
constexpr std::string_view kGramSource =
    "deepspeed v0.19.6 runtime/zero/muon/original_muon.py muon_update (grad.lerp_ in place) and "
    "zeropower_via_gram_newtonschulz (X = G.to(fp16); R = X Xᵀ; Z = b·R + c·R R; Q; RZ = a·R + Z R; R = a·RZ + Z RZ; "
    "restart X = Q X)";
constexpr std::string_view kForeachSource =
    "pytorch v2.5 torch/optim/adamw.py _multi_tensor_adamw (exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs) "
    "per device and dtype group, then _foreach_div_, _foreach_add_ and _foreach_addcdiv_ into the parameters) and "
    "optimizer.py _default_to_fused_or_foreach (foreach when every parameter is a CUDA tensor and fused is not asked)";
constexpr std::string_view kForLoopSource =
    "pytorch v2.5 torch/optim/adamw.py _single_tensor_adamw (denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt)"
    ".add_(eps), one parameter at a time)";
constexpr std::string_view kFusedSource =
    "pytorch v2.5 torch/optim/adamw.py _fused_adamw (torch._fused_adamw_ updates parameters, exp_avg and exp_avg_sq in "
    "place)";
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
    case Optimizer::muon:
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
    case Optimizer::muon: return muon_state_term(set, state_bytes, state_bytes, share);
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

Term muon_state_term(const TrainableSet& set, std::int64_t momentum_bytes, std::int64_t adam_bytes, Share share) {
  Count hidden = 0, other = 0;
  for (const auto& b : set.blocks) (b.hidden_matrix ? hidden : other) += b.elements();
  return shared_sum(terms(Term::product({Factor::of(hidden, "params of hidden-layer matrices (Muon)"),
                                         Factor::of(1, "moment (momentum)"),
                                         Factor::bytes(momentum_bytes, momentum_bytes == 4 ? "fp32" : "16-bit")}),
                          Term::product({Factor::of(other, "other params (AdamW: embeddings, output layer, norms)"),
                                         Factor::of(2, "moments (exp_avg, exp_avg_sq)"),
                                         Factor::bytes(adam_bytes, adam_bytes == 4 ? "fp32" : "16-bit")})),
                    share)
      .named("Muon and AdamW states")
      .cite(kMuonSource);
}

namespace {
/// One line of the iteration: `mats` m × n matrices and `grams` k × k ones live at once, in 16 bits.
Term ns_line(std::int64_t rows, std::int64_t cols, std::int64_t mats, std::int64_t grams) {
  const std::int64_t k = std::min(rows, cols);
  return Term::sum(terms(Term::product({Factor::of(mats, "m × n matrices"), Factor::of(rows, "m"), Factor::of(cols, "n"),
                                        Factor::bytes(2, "16-bit")}),
                         Term::product({Factor::of(grams, "k × k matrices"), Factor::of(k, "k = min(m, n)"),
                                        Factor::of(k, "k"), Factor::bytes(2, "16-bit")})));
}
}  // namespace

Term newton_schulz_term(std::int64_t rows, std::int64_t cols, std::int64_t grad_bytes, NewtonSchulz kernel) {
  const bool gram = kernel == NewtonSchulz::gram;
  // The widest lines of each iteration (see NewtonSchulz): every operand and temporary alive at once.
  Term widest = gram ? Term::max_of(terms(ns_line(rows, cols, 2, 4).named("restart X = Q X"),
                                          ns_line(rows, cols, 1, 7).named("R = a·RZ + Z RZ")))
                     : Term::max_of(terms(ns_line(rows, cols, 1, 5).named("gram_update = b·G + (c·G) G"),
                                          ns_line(rows, cols, 4, 2).named("X = a·X + gram_update X")));
  Terms parts = terms(std::move(widest));
  // torch.optim.Muon's nesterov update is a new tensor; its bf16 copy is X unless the gradient is bf16 already.
  if (!gram && grad_bytes != 2)
    parts.push_back(Term::product({Factor::of(rows, "m"), Factor::of(cols, "n"), Factor::bytes(grad_bytes, "update")})
                        .named("nesterov update"));
  return sum_nonzero(std::move(parts))
      .named("Newton–Schulz on the largest hidden matrix")
      .cite(gram ? kGramSource : kQuinticSource);
}

Term adamw_step_term(const TrainableSet& set, OptimizerImpl impl, std::int64_t state_bytes, Share share) {
  const std::string_view dtype = state_bytes == 4 ? "fp32" : "param dtype";
  switch (impl) {
    case OptimizerImpl::fused: return Term::given(Bytes{}).named("fused AdamW: no temporaries").cite(kFusedSource);
    case OptimizerImpl::foreach:
      return with_share({Factor::of(set.params(), "trainable params (sqrt(exp_avg_sq) of each)"), Factor::bytes(state_bytes, dtype)},
                        share)
          .named("foreach AdamW step temporaries")
          .cite(kForeachSource);
    case OptimizerImpl::for_loop: break;
  }
  return with_share({Factor::of(2, "tensors (sqrt(exp_avg_sq), divided by the bias correction)"),
                     Factor::of(set.largest_tensor(), "elements of the largest parameter"), Factor::bytes(state_bytes, dtype)},
                    share)
      .named("for-loop AdamW step temporaries")
      .cite(kForLoopSource);
}

Term master_weights_term(std::int64_t params, Share share) {
  return with_share({Factor::of(params, "trainable params"), Factor::bytes(4, "fp32 master copy")}, share)
      .named("master weights")
      .cite(kMasterSource);
}

}  // namespace vram
