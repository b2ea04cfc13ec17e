// The training plan: settings checked, dtypes chosen, trainable set, and the
// model-state terms (weights, master weights, gradients, optimizer state).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "training_plan.hpp"
#include "vram/budget/gradients.hpp"
#include "vram/budget/optimizer_state.hpp"
#include "vram/engines/training_parts.hpp"
#include "vram/error.hpp"

namespace vram::training {

namespace {

/// A bitsandbytes 4-bit layout: flat blocks of about four bits per value.
bool bnb_4bit(const WeightFormat& f) {
  return f.linear.kind == Codec::Kind::blocks && f.linear.flat && f.linear.group > 0 &&
         f.linear.block_bits < 5 * f.linear.group;
}

WeightFormat qlora_base(const Scenario& s, const FrameworkProfile& p) {
  if (s.weights.quantized() && !bnb_4bit(s.weights)) {
    throw InputError("/weights", "QLoRA trains adapters over a 4-bit NF4 base; \"" + s.weights.name +
                                     "\" is not one: use \"nf4\", or method \"lora\" over this format");
  }
  const bool dq = p.nf4_double_quant || (bnb_4bit(s.weights) && s.weights.linear.group > 64);
  const std::string native = s.model->arch.native_dtype.empty() ? "bf16" : s.model->arch.native_dtype;
  return parse_weight_format(nlohmann::json{{"format", "nf4"}, {"double_quant", dq}}, "/weights", native);
}

void check_parallel(const Architecture& a, const TrainingSettings& t) {
  if (a.family == Family::bare) return;
  if (t.tensor_parallel > 1 && (a.heads % t.tensor_parallel != 0)) {
    std::string valid;
    for (std::int64_t k = 1; k <= a.heads; ++k)
      if (a.heads % k == 0) valid += (valid.empty() ? "" : ", ") + std::to_string(k);
    throw InputError("/training/tensor_parallel", "must divide the number of attention heads (" +
                                                      std::to_string(a.heads) + "); got " +
                                                      std::to_string(t.tensor_parallel) + ". Valid sizes: " + valid);
  }
  if (t.seq_len % t.context_parallel != 0) {
    throw InputError("/training/context_parallel", "must divide seq_len (" + std::to_string(t.seq_len) + "); got " +
                                                       std::to_string(t.context_parallel));
  }
}

/// Muon where the framework ships it, in the setting it runs in.
void check_muon(const Scenario& s, const TrainingSettings& t) {
  if (t.optimizer != Optimizer::muon) return;
  const std::string fw(name_of(kFrameworks, t.framework));
  if (!profile_of(t.framework).muon)
    throw InputError("/training/optimizer", "\"muon\" is not an optimizer " + fw +
                                                " offers; deepspeed (v0.19.6, ZeRO stages 1 to 3) and torchtitan "
                                                "(DistMuon, sharding fsdp) do: choose one of them, or another optimizer");
  if (s.model->arch.family == Family::bare)
    throw InputError("/training/optimizer", "\"muon\" updates the hidden layers' weight matrices, and a bare "
                                            "parameter count has none: give the model's config");
  if (t.offload != TrainOffload::none)
    throw InputError("/training/offload", "Muon's state is not estimated on the host: " + fw +
                                              " does not offload it (DeepSpeed v0.19.6 lists CPU offload for Muon "
                                              "as in progress); use offload \"none\"");
  const bool zero = t.sharding == Sharding::zero1 || t.sharding == Sharding::zero2 || t.sharding == Sharding::zero3;
  if (t.framework == Framework::deepspeed && !zero)
    throw InputError("/training/sharding", "DeepSpeed applies Muon inside its ZeRO optimizer (runtime/zero/"
                                           "stage_1_and_2.py, stage3.py): use zero1, zero2 or zero3");
  if (t.framework == Framework::torchtitan && t.sharding != Sharding::fsdp)
    throw InputError("/training/sharding", "torchtitan's DistMuon needs sharded (DTensor) parameters: use fsdp");
}

void check_settings(const Scenario& s, const TrainingSettings& t, Report& r) {
  const std::int64_t layers = s.model->arch.layers;
  if (t.method == TrainMethod::freeze && s.model->arch.family != Family::bare && t.trainable_layers > layers) {
    throw InputError("/training/trainable_layers", "is " + std::to_string(t.trainable_layers) + " but the model has " +
                                                       std::to_string(layers) + " layers: at most " +
                                                       std::to_string(layers) + " (that is full fine-tuning)");
  }
  if (t.method == TrainMethod::freeze && s.model->arch.family == Family::bare)
    throw InputError("/training/method", "\"freeze\" trains the last layers, and a bare parameter count has none: "
                                         "give the model's config, or use \"full\", \"lora\" or \"qlora\"");
  const bool updates_weights = t.method == TrainMethod::full || t.method == TrainMethod::freeze;
  if (updates_weights && s.weights.quantized()) {
    throw InputError("/weights", std::string(t.method == TrainMethod::full ? "full fine-tuning updates every weight"
                                                                           : "freeze fine-tuning updates the last layers") +
                                     ", so they cannot stay in \"" + s.weights.name +
                                     "\"; use method \"lora\" or \"qlora\", or a 16/32-bit format");
  }
  if (t.optimizer_in_backward && t.grad_accum > 1) {
    throw InputError("/training/optimizer_in_backward",
                     "steps each parameter during backward and frees its gradient, so it cannot accumulate "
                     "gradients: grad_accum must be 1 (got " +
                         std::to_string(t.grad_accum) + ")");
  }
  check_parallel(s.model->arch, t);
  check_muon(s, t);
  if (!r.explain) return;
  if (t.sharding != Sharding::none && t.sharding != Sharding::ddp && s.parallel.shard_group <= 1)
    r.warnings.push_back(std::string("training.sharding = ") + std::string(name_of(kShardings, t.sharding)) +
                         " over one data-parallel GPU shards nothing: every state stays whole on it");
  if (s.model->arch.family == Family::bare)
    r.warnings.push_back("a bare parameter count has no architecture: saved activations and logits are not counted");
  if (t.fp8) r.warnings.push_back("training.fp8: fp8 matmuls are not modelled; activations are counted in 16-bit");
}


}  // namespace

/// Dtypes of the trainable parameters, their gradients and optimizer states.
static void choose_dtypes(Plan& c) {
  const Precision pr = c.t.precision;
  c.mixed = pr == Precision::bf16_mixed || pr == Precision::fp16_mixed;
  c.b = pr == Precision::fp32 ? 4 : 2;
  c.param_b = c.b;
  if (c.adapters && c.mixed && c.p.fp32_adapters) c.param_b = 4;
  c.master = c.mixed && c.param_b == 2;
  c.grad_b = c.master ? c.p.mixed_grad_bytes : c.param_b;
  c.state_b = c.master ? 4 : c.param_b;
}

std::int64_t layers_keeping_activations(const Plan& c) {
  if (c.t.method != TrainMethod::freeze) return c.stage_layers;
  const std::int64_t first_trained = std::max<std::int64_t>(0, c.m.arch.layers - c.t.trainable_layers);
  const std::int64_t begin = std::max<std::int64_t>(c.place.first_layer, first_trained);
  return std::max<std::int64_t>(0, std::int64_t{c.place.end_layer} - begin);
}

Plan make_plan(const Scenario& s, const TrainingSettings& t, Report& r, WeightsMemo* memo) {
  check_settings(s, t, r);
  Plan c{s, *s.model, t, profile_of(t.framework), {}, s.weights, false, false, 2, 2, 2, false, 2, 0, 0, 0, {}, 0, {}, true, {}};
  const Architecture& a = c.m.arch;
  c.adapters = t.method == TrainMethod::lora || t.method == TrainMethod::qlora;
  choose_dtypes(c);
  const std::int64_t pp = s.parallel.pipeline;
  c.stage_layers = checked::ceil_div(std::max<std::int64_t>(1, a.layers), pp);
  c.place.tensor_parallel = s.parallel.tensor;
  c.place.end_layer = static_cast<std::int32_t>(std::min<std::int64_t>(c.stage_layers, INT32_MAX));
  c.place.head = pp == 1;  // the first stage: embeddings and the most micro-batches in flight
  c.place.mtp = false;
  if (t.method == TrainMethod::qlora) {
    c.base = qlora_base(s, c.p);
    if (r.explain)
      r.defaults_used.push_back("QLoRA base = " + c.base.summary + " (" +
                                std::string(name_of(kFrameworks, t.framework)) + "'s loader)");
  }
  note_optimizer_implementation(t, default_adamw_impl(t.framework), c.p.adamw_impl_source, r);
  // Full fine-tuning holds the parameters in the compute dtype; an fp32 run loads
  // an unquantized LoRA base in fp32 too (torch_dtype float32).
  const bool fp32_base = t.method == TrainMethod::lora && c.b == 4 && !s.weights.quantized();
  const WeightFormat* plain = nullptr;  // a shared value: the memo holds for it across estimates
  if (t.method == TrainMethod::full || t.method == TrainMethod::freeze || fp32_base) {
    plain = &plain_format(c.b == 4 ? 4 : 2, t.precision == Precision::fp16_mixed);
    c.base = *plain;
  }
  c.trainable = c.adapters                         ? lora_trainable(c.m, c.place, t)
                : t.method == TrainMethod::freeze ? freeze_trainable(c.m, c.place, t.trainable_layers)
                                                   : full_trainable(c.m, c.place);
  c.trainable_params = c.trainable.params();
  c.grad_layers = layers_keeping_activations(c);
  c.explain = r.explain;
  if (c.adapters) c.dora = dora_shape(c.m, c.place, t);
  c.tokens = checked::mul(t.micro_batch, t.seq_len) / s.parallel.context;
  // The memo keys on the format's address: the scenario's own format and the shared plain ones
  // are stable across estimates; a QLoRA base is derived per estimate.
  const WeightFormat* stable = t.method == TrainMethod::lora && !fp32_base ? &s.weights : plain;
  if (t.offload != TrainOffload::optimizer_params)
    c.base_weights = stable ? weights_for(c.m, *stable, c.place, memo) : weights_for(c.m, c.base, c.place, nullptr);
  return c;
}

Term weights_of(const Plan& c) {
  const Share share = c.s.parallel.state_share(StateKind::parameters);
  if (c.t.offload == TrainOffload::optimizer_params)
    return Term::given(Bytes{}).named("parameters on the host (offload), gathered per unit").cite(c.p.source);
  Term base = weights_term(c.base_weights).named(c.adapters ? "frozen base" : "parameters").cite(c.base.source);
  Terms parts = terms(std::move(base));
  if (c.adapters)
    parts.push_back(Term::product({Factor::of(c.trainable_params, c.t.use_dora ? "adapter params (LoRA A and B, DoRA magnitudes)"
                                                                                  : "adapter params (LoRA A and B)"),
                                   Factor::bytes(c.param_b, c.param_b == 4 ? "fp32" : "16-bit")})
                        .named("LoRA adapters"));
  Term all = sum_nonzero(std::move(parts));
  if (share.num == share.den) return std::move(all).named("weights").cite(c.p.source);
  return Term::product(terms(std::move(all)), share_factors(share), Rounding::ceil).named("weights").cite(c.p.source);
}

Term gradients_of(const Plan& c) {
  if (c.t.offload == TrainOffload::optimizer_params)
    return Term::given(Bytes{}).named("gradients on the host (offload)").cite(c.p.source);
  if (c.t.optimizer_in_backward) return gradients_in_backward_term(c.trainable.largest_tensor(), c.grad_b);
  return gradients_term(c.trainable_params, c.grad_b, c.s.parallel.state_share(StateKind::gradients));
}

Term buckets_of(const Plan& c) {
  if (c.t.sharding == Sharding::ddp && c.s.parallel.data > 1) return ddp_buckets_term(c.trainable_params, c.grad_b);
  return Term::given(Bytes{}).named("no all-reduce buckets");
}

bool gradients_freed_each_step(const Plan& c) {
  return c.t.grad_accum == 1 && !c.t.optimizer_in_backward && c.t.offload != TrainOffload::optimizer_params;
}

Term optimizer_of(const Plan& c) {
  if (c.t.offload != TrainOffload::none)
    return Term::given(Bytes{}).named("optimizer state on the host (offload)").cite(c.p.source);
  const Share share = c.s.parallel.state_share(StateKind::optimizer_state);
  if (c.t.optimizer == Optimizer::muon) {
    // The momentum's dtype: DeepSpeed ZeRO-1/2 builds it in the gradient accumulation dtype (the model's, by
    // default: runtime/engine.py get_data_types), ZeRO-3 as an fp32 partition (stage3.py
    // _create_momentum_buffer); torchtitan's DistMuon beside its fp32 sharded parameters.
    const bool ds = c.t.framework == Framework::deepspeed;
    const std::int64_t momentum = ds ? (c.t.sharding == Sharding::zero3 ? 4 : c.grad_b) : c.state_b;
    return muon_state_term(c.trainable, momentum, c.state_b, share);
  }
  return optimizer_state_term(c.trainable, c.t.optimizer, c.state_b, share);
}

Term muon_step_of(const Plan& c, bool freed) {
  const ParamBlock m = c.trainable.largest_hidden_matrix();
  Term ns = newton_schulz_term(m.rows, m.cols, c.grad_b, c.p.muon.value_or(NewtonSchulz::quintic));
  if (!freed) return ns;
  return Term::sum(terms(gradients_of(c), std::move(ns))).named("optimizer step: every gradient and Newton–Schulz");
}

/// AdamW's step kernels: the framework's default noted; a setting another optimizer does not read, warned about.
void note_optimizer_implementation(const TrainingSettings& t, OptimizerImpl fallback, std::string_view why, Report& r) {
  if (t.optimizer != Optimizer::adamw) {
    if (t.optimizer_implementation)
      r.warnings.push_back("training.optimizer_implementation applies to adamw (torch.optim.AdamW's fused, foreach or "
                           "for-loop step); " + std::string(name_of(kOptimizers, t.optimizer)) +
                           " runs its own: the setting is ignored");
    return;
  }
  if (!t.optimizer_implementation && r.explain)
    r.defaults_used.push_back("training.optimizer_implementation = " + std::string(name_of(kOptimizerImpls, fallback)) +
                              " (" + std::string(why) + ")");
}

OptimizerImpl adamw_impl_of(const Plan& c) {
  return c.t.optimizer_implementation.value_or(default_adamw_impl(c.t.framework));
}

std::optional<Term> optimizer_step_of(const Plan& c, bool freed) {
  if (c.t.optimizer == Optimizer::muon) return muon_step_of(c, freed);
  const bool on_gpu = c.t.offload == TrainOffload::none && !c.t.optimizer_in_backward;
  if (c.t.optimizer != Optimizer::adamw || !on_gpu || adamw_impl_of(c) == OptimizerImpl::fused) return std::nullopt;
  Term tmp = adamw_step_term(c.trainable, adamw_impl_of(c), c.state_b, c.s.parallel.state_share(StateKind::optimizer_state));
  if (!freed) return tmp;
  return Term::sum(terms(gradients_of(c), std::move(tmp))).named("optimizer step: every gradient and AdamW's temporaries");
}

Term master_of(const Plan& c) {
  if (!c.master || c.t.offload != TrainOffload::none) return Term::given(Bytes{}).named("no master copy");
  return master_weights_term(c.trainable_params, c.s.parallel.state_share(StateKind::optimizer_state));
}

}  // namespace vram::training
