// The training accounting composed into a report: components per GPU, the
// peaks PyTorch reports (allocated, reserved) and the one the driver sees.
#include "training_plan.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/training_runtime.hpp"
#include "vram/engines/training.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/render.hpp"

namespace vram::training {

namespace {

constexpr std::string_view kPagedNote =
    "paged: CUDA unified memory outside the PyTorch allocator, evicted to the host under pressure (counted as "
    "resident)";

/// Sums a metric's range over components (their range, else their value).
ByteRange range_over(const Report& r, std::size_t first, std::size_t end) {
  ByteRange out{};
  for (std::size_t i = first; i < end && i < r.components.size(); ++i) {
    const Component& c = r.components[i];
    out.low += c.range ? c.range->low : c.bytes;
    out.high += c.range ? c.range->high : c.bytes;
  }
  return out;
}

void add_details(const Plan& c, Report& r) {
  if (!r.explain) return;
  io::ObjectText e;
  e.set("engine", std::string(name_of(kFrameworks, c.t.framework)));
  e.set("source", std::string(c.p.source));
  e.set("trainable_params", c.trainable_params);
  e.set("tokens_per_micro_batch", c.tokens);
  e.set("base_format", c.base.name);
  r.detail("engine", e.str());
}

}  // namespace

void account(const Scenario& s, Report& r, WeightsMemo* memo) {
  const Plan c = make_plan(s, s.training()->training, r, memo);
  const bool x = r.explain;
  const bool paged = c.t.optimizer == Optimizer::paged_adamw_8bit && c.t.offload == TrainOffload::none;
  const Term weights = weights_of(c);
  const Term optimizer = optimizer_of(c);
  const bool freed = gradients_freed_each_step(c);
  Term grads = freed ? buckets_of(c) : sum_nonzero(terms(gradients_of(c), buckets_of(c)));
  if (freed && grads.bytes == Bytes{})
    grads = Term::given(Bytes{}).named("freed after each step: in the backward peak");
  Term acts = freed ? backward_peak_of(c, activations_of(c), gradients_of(c)) : activations_of(c);
  const Bytes activation_bytes = acts.bytes;  // the metric: the backward pass's, whichever phase peaks
  const bool muon = c.t.optimizer == Optimizer::muon;
  std::optional<Term> step = optimizer_step_of(c, freed);
  const bool stepped = step.has_value();
  if (step) acts = Term::max_of(terms(std::move(acts), std::move(*step))).named("backward or optimizer step");
  const Term trans = transient_of(c);
  r.add(io::component("weights", "Model weights", weights, x));
  r.add(io::component("master_weights", "Master weights (fp32)", master_of(c), x));
  r.add(io::component("gradients", freed ? "Gradient buckets" : "Gradients", grads, x));
  r.add(io::component("optimizer_state", "Optimizer state", optimizer, x, paged ? kPagedNote : std::string_view{}));
  const std::string_view acts_label =
      muon      ? (freed ? "Backward peak, or the optimizer step (every gradient and Newton–Schulz)"
                         : "Saved activations, logits and loss, or the optimizer step's Newton–Schulz")
      : stepped ? (freed ? "Backward peak, or the optimizer step (every gradient and AdamW's temporaries)"
                         : "Saved activations, logits and loss, or the optimizer step's AdamW temporaries")
      : freed   ? "Backward peak: activations and logits, or every gradient"
                : "Saved activations, logits and loss";
  r.add(io::component("activations", acts_label, acts, x));
  r.add(io::component("workspace", "Gathered units and transient buffers", trans, x));
  Bytes allocated;
  for (const auto& comp : r.components) allocated += comp.bytes;
  if (paged) allocated -= optimizer.bytes;
  const ByteRange alloc_range = range_over(r, 0, r.components.size());
  const Term reserve = allocator_reserve_term(acts.bytes + trans.bytes);
  r.add(io::component("allocator_cache", "Caching allocator reserve", reserve, x));
  r.add(io::cuda_context_component(
      engine_context_term(s.gpu.compute_capability, s.gpu.sm_count, s.gpu.rocm_arch, s.gpu_count > 1), x));
  const Bytes reserved = allocated + reserve.bytes;
  const Bytes device = reserved + r.components.back().bytes + (paged ? optimizer.bytes : Bytes{});
  r.metric("weights_bytes", static_cast<double>(weights.bytes.in_bytes()));
  r.metric("peak_allocated_bytes", static_cast<double>(allocated.in_bytes()));
  r.metric("peak_reserved_bytes", static_cast<double>(reserved.in_bytes()));
  r.metric("peak_device_bytes", static_cast<double>(device.in_bytes()));
  r.metric("activation_bytes", static_cast<double>(activation_bytes.in_bytes()));
  const Bytes paged_bytes = paged ? optimizer.bytes : Bytes{};
  const ByteRange a{alloc_range.low - paged_bytes, alloc_range.high - paged_bytes};
  r.metric_range("peak_allocated_bytes", a);
  r.metric_range("peak_reserved_bytes", {a.low + reserve.range->low, a.high + reserve.range->high});
  add_details(c, r);
}

}  // namespace vram::training
