#include "vram/plan/training_switches.hpp"

#include <functional>

#include "vram/error.hpp"
#include "vram/estimate.hpp"

namespace vram {

namespace {

struct Candidate {
  std::string_view path;
  std::string_view value;
  std::function<bool(const TrainingSettings&, const Scenario&)> applies;
  std::function<void(TrainingSettings&)> apply;
};

std::vector<Candidate> candidates() {
  using T = TrainingSettings;
  const auto adapters = [](const T& t) { return t.method == TrainMethod::lora || t.method == TrainMethod::qlora; };
  return {
      {"/training/checkpointing", "full",
       [](const T& t, const Scenario&) { return t.checkpointing != Checkpointing::full; },
       [](T& t) { t.checkpointing = Checkpointing::full; }},
      {"/training/activation_offload", "true", [](const T& t, const Scenario&) { return !t.activation_offload; },
       [](T& t) { t.activation_offload = true; }},
      {"/training/chunked_loss", "true", [](const T& t, const Scenario&) { return !t.chunked_loss; },
       [](T& t) { t.chunked_loss = true; }},
      // Offered where the scenario names a foreach or for-loop step, or its framework runs one (diffusers' scripts).
      {"/training/optimizer_implementation", "fused",
       [](const T& t, const Scenario&) {
         return t.optimizer == Optimizer::adamw && t.optimizer_implementation != OptimizerImpl::fused;
       },
       [](T& t) { t.optimizer_implementation = OptimizerImpl::fused; }},
      {"/training/optimizer", "adamw-8bit", [](const T& t, const Scenario&) { return t.optimizer == Optimizer::adamw; },
       [](T& t) { t.optimizer = Optimizer::adamw_8bit; }},
      // Where the framework runs Muon (the estimate refuses it elsewhere, and the switch is not offered).
      {"/training/optimizer", "muon", [](const T& t, const Scenario&) { return t.optimizer == Optimizer::adamw; },
       [](T& t) { t.optimizer = Optimizer::muon; }},
      {"/training/method", "lora", [](const T& t, const Scenario&) { return t.method == TrainMethod::full; },
       [](T& t) { t.method = TrainMethod::lora; }},
      {"/training/method", "qlora", [](const T& t, const Scenario&) { return t.method == TrainMethod::lora; },
       [](T& t) { t.method = TrainMethod::qlora; }},
      {"/training/optimizer_in_backward", "true",
       [adapters](const T& t, const Scenario&) {
         return !t.optimizer_in_backward && t.grad_accum == 1 && !adapters(t);
       },
       [](T& t) { t.optimizer_in_backward = true; }},
      {"/training/sharding", "zero3",
       [](const T& t, const Scenario& s) {
         return s.parallel.data > 1 && t.sharding != Sharding::zero3 && t.sharding != Sharding::fsdp;
       },
       [](T& t) { t.sharding = Sharding::zero3; }},
  };
}

}  // namespace

std::vector<TrainingSwitch> training_switches(const Scenario& s, WeightsMemo* memo) {
  std::vector<TrainingSwitch> out;
  if (s.training() == nullptr) return out;
  // A switch is offered for what it buys: one that leaves the per-GPU total as it is,
  // or raises it (Unsloth's loss is already fused, so chunked_loss changes nothing), is not.
  const Bytes now = estimate(s, {false, memo}).total;
  for (const Candidate& c : candidates()) {
    if (!c.applies(s.training()->training, s)) continue;
    Scenario t = s;
    TrainingSettings& ts = std::get<TrainingWorkload>(t.settings).training;
    c.apply(ts);
    t.parallel.sharding = ts.sharding;
    try {
      const Report r = estimate(t, {false, memo});
      if (r.total >= now) continue;
      const Metric* reserved = r.find_metric("peak_reserved_bytes");
      out.push_back(
          {c.path, c.value, Bytes::of(reserved ? static_cast<std::int64_t>(reserved->value) : 0), r.total, r.fits});
    } catch (const InputError&) {
      // The switch does not apply to this model or format (a QLoRA over a non-4-bit checkpoint).
    }
  }
  return out;
}

}  // namespace vram
