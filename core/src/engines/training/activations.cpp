// The backward pass's peak working set and the transient buffers of a step.
#include <algorithm>

#include "training_plan.hpp"
#include "vram/budget/gradients.hpp"
#include "vram/budget/saved_activations.hpp"
#include "vram/budget/training_runtime.hpp"
#include "vram/engines/training_parts.hpp"

namespace vram::training {

namespace {

constexpr std::string_view kPipelineSource =
    "Narayanan et al. 2021 §2.2 (1F1B: the first stage holds min(stages, micro-batches) micro-batches)";
/// Calibrated slack around the two accountings: below the fused one, above the eager one.
constexpr double kFusedSlack = 0.9;
constexpr double kEagerSlack = 1.15;
constexpr std::string_view kReleaseSource =
    "pytorch v2.8 torch/csrc/autograd/engine.cpp evaluate_function: a node's saved tensors are released once it "
    "has run (keep_graph false), so the loss's saved logits are gone before the layers' backward";
constexpr std::string_view kOffloadSource =
    "torchtune v0.6.1 training/_activation_offloading.py OffloadActivations; unsloth 2024.12 "
    "Unsloth_Offloaded_Gradient_Checkpointer (the current and the next layer on the GPU)";

/// What one layer saves for its backward (selective recomputation drops the
/// attention scores, Korthikanti et al. 2022 §5), with DoRA's extra tensors.
Term saved_by_one_layer(const Plan& c, const LayerDims& d, LayerKernels kernels) {
  const TrainAttention attn = c.t.checkpointing == Checkpointing::selective ? TrainAttention::flash : c.t.attention;
  Term one = layer_saved_term(d, c.tokens, c.t.seq_len, c.b, attn, kernels);
  if (c.dora.layer_outputs > 0)
    one = sum_nonzero(terms(std::move(one), dora_saved_term(c.tokens, c.dora.layer_outputs, c.b)))
              .named("saved by one layer with DoRA");
  return one;
}

/// One layer's widths on a tensor-parallel rank, the hidden-sized tensors a sequence shard
/// where the framework's tensor parallelism is sequence-parallel.
LayerDims dims_of(const Plan& c) {
  LayerDims d = layer_dims(c.m.arch, c.s.parallel.tensor);
  if (c.p.tp_sequence_parallel) d.seq_shard = c.s.parallel.tensor;
  return d;
}

/// Selective checkpointing by an op-level policy (torchtitan): the rest of a layer is recomputed in its backward.
bool op_sac(const Plan& c) {
  return c.t.checkpointing == Checkpointing::selective && c.p.selective == SelectiveKind::every_other_matmul;
}

/// Layers whose kept activations stay on the GPU: all of the stage, or the
/// current and the prefetched one when they are offloaded to the host.
std::int64_t resident_layers(const Plan& c, bool offload) {
  return offload ? std::min<std::int64_t>(2, c.grad_layers) : c.grad_layers;
}

/// What the layers keep until their backward: every saved tensor, or only
/// their inputs under full recomputation.
Term kept_by_layers(const Plan& c, const LayerDims& d, bool offload, LayerKernels kernels) {
  const Checkpointing ck = c.t.checkpointing;
  const std::int64_t n = resident_layers(c, offload);
  if (ck == Checkpointing::full) {
    Term inputs = checkpoints_term(n, checked::ceil_div(c.tokens, d.seq_shard), d.hidden, c.b);
    if (offload) inputs.source = kOffloadSource;
    return inputs;
  }
  Term kept = Term::product(terms(op_sac(c) ? op_sac_saved_term(d, c.tokens, c.b) : saved_by_one_layer(c, d, kernels)),
                            {Factor::of(n, offload ? "layers on the GPU (offloaded)" : "layers")});
  return offload ? std::move(kept).cite(kOffloadSource) : kept;
}

}  // namespace

namespace {

/// The loss the profile computes for this micro-batch.
LossKind loss_of(const Plan& c) {
  const bool short_batch = c.p.loss_switch_tokens > 0 && c.tokens <= c.p.loss_switch_tokens;
  return short_batch ? c.p.short_loss : (c.t.chunked_loss ? c.p.chunked_loss : c.p.default_loss);
}

/// The last layer's backward: its recomputed activations under full
/// recomputation and its gradient buffers. The logits are gone by then: the
/// loss's saved tensors are released once its backward has run, and the model
/// output that held the 16-bit logits is dropped when the loss is returned
/// (transformers v4.56 Trainer.compute_loss returns the loss alone to training_step).
Term layer_phase(const Plan& c, const LayerDims& d, LayerKernels kernels) {
  Terms parts;
  if (c.t.checkpointing == Checkpointing::full || op_sac(c))
    parts.push_back(saved_by_one_layer(c, d, kernels).named("one layer recomputed"));
  parts.push_back(layer_backward_work_term(d, c.tokens, c.b));
  return sum_nonzero(std::move(parts)).named("through the layers");
}

/// The backward pass's peak with the given layer kernels and loss: what the
/// layers keep, plus the larger of the loss's backward (logits and their
/// gradient, released once it has run) and the last layer's backward.
Term activations_with(const Plan& c, LayerKernels kernels, LossKind loss) {
  const Architecture& a = c.m.arch;
  const LayerDims d = dims_of(c);
  const bool offload = c.t.activation_offload || (c.p.checkpoint_offload && c.t.checkpointing == Checkpointing::full);
  Term kept = kept_by_layers(c, d, offload, kernels);
  const std::int64_t in_flight = std::min(c.s.parallel.pipeline, c.t.grad_accum);
  if (in_flight > 1)
    kept = Term::product(terms(std::move(kept)), {Factor::of(in_flight, "micro-batches in flight (1F1B)")})
               .cite(kPipelineSource);
  Term layers = layer_phase(c, d, kernels);
  if (!c.place.head) return sum_nonzero(terms(std::move(kept), std::move(layers))).named("backward peak");
  const std::int64_t vocab = checked::ceil_div(a.vocab, c.s.parallel.tensor);
  const bool chunks = loss == LossKind::chunked || loss == LossKind::compiled_chunked;
  Term at_loss = logits_loss_term(c.tokens, vocab, c.b, loss, chunks ? c.p.loss_chunks : 1, c.p.keep_logits)
                     .named("at the loss");
  Term phase = Term::max_of(terms(std::move(at_loss), std::move(layers))).cite(kReleaseSource);
  return sum_nonzero(terms(std::move(kept), std::move(phase))).named("backward peak");
}

}  // namespace

Term activations_of(const Plan& c) {
  if (c.m.arch.family == Family::bare) return Term::given(Bytes{}).named("no architecture: not counted");
  LossKind loss = loss_of(c);
  // torch.compile: the compiled loss keeps the 16-bit logits and recomputes the fp32 log-softmax.
  // The layers keep what eager mode saves: the partitioner still saves the matmul inputs, which
  // are most of it (the fused low end of the range covers the rest).
  if (c.t.compile && (loss == LossKind::materialized || loss == LossKind::chunked)) {
    loss = loss == LossKind::chunked ? LossKind::compiled_chunked : LossKind::compiled;
  }
  Term all = activations_with(c, c.p.kernels, loss);
  if (!c.explain) return all;
  // What compiled or fused kernels would keep instead (torch.compile recomputes the
  // pointwise ops; a compiled cross-entropy keeps the 16-bit logits only): the low end.
  const LossKind fused_loss = loss == LossKind::cut ? LossKind::cut : LossKind::in_place;
  const Bytes fused = activations_with(c, LayerKernels::fused, fused_loss).bytes;
  const Bytes v = all.bytes;
  const ByteRange r{scale_floor(std::min(fused, v), kFusedSlack), ratio_range(v, 1.0, kEagerSlack).high};
  return std::move(all).within(r);
}

Term transient_of(const Plan& c) {
  Terms parts;
  const bool sharded_params =
      c.s.parallel.state_share(StateKind::parameters).den > 1 || c.t.offload == TrainOffload::optimizer_params;
  if (sharded_params && c.m.arch.family != Family::bare) {
    // Frozen bases are gathered as stored (NF4 stays NF4 under FSDP2); trained ones in the compute dtype.
    const WeightsEstimate& w = c.base_weights;
    const double stored = c.adapters && w.params > 0 ? w.bytes.ratio(Bytes::of(w.params)) : static_cast<double>(c.b);
    parts.push_back(
        sharded_unit_term(largest_unit_params(c.m, c.s.parallel.tensor), stored, c.adapters ? 0 : c.grad_b));
  }
  if (c.t.method == TrainMethod::qlora)
    parts.push_back(dequantized_weight_term(largest_linear(c.m, c.s.parallel.tensor), c.b));
  if (c.dora.largest_in > 0) parts.push_back(dora_norm_term(c.dora.largest_in, c.dora.largest_out, c.b));
  const bool zero12 = c.t.sharding == Sharding::zero1 || c.t.sharding == Sharding::zero2;
  if (c.p.zero_buckets && zero12 && c.s.parallel.data > 1)
    parts.push_back(zero_reduce_bucket_term(c.trainable_params, c.grad_b));
  if (parts.empty()) return Term::given(Bytes{}).named("none");
  return sum_nonzero(std::move(parts)).named("transient buffers");
}

}  // namespace vram::training

namespace vram::training {

namespace {
constexpr std::string_view kPhaseSource =
    "pytorch v2.8 torch/optim/optimizer.py zero_grad(set_to_none=True): gradients are allocated during backward as "
    "the saved activations of later layers are freed";

/// The output layer's gradient, the first one backward computes (full fine-tuning).
Term head_gradient_of(const Plan& c) {
  const Architecture& a = c.m.arch;
  if (c.t.method != TrainMethod::full || !c.place.head || a.family == Family::bare)
    return Term::given(Bytes{}).named("no head gradient");
  Factors f{Factor::of(checked::ceil_div(a.vocab, c.s.parallel.tensor), "vocab"), Factor::of(a.hidden, "hidden"),
            Factor::bytes(c.grad_b, "gradient")};
  const Share share = c.s.parallel.state_share(StateKind::gradients);
  for (const auto& x : share_factors(share)) f.push_back(x);
  return Term::product(std::move(f), share.num == share.den ? Rounding::exact : Rounding::ceil)
      .named("output layer's gradient");
}
}  // namespace

Term backward_peak_of(const Plan& c, Term activations, Term gradients) {
  const Bytes act = activations.bytes;
  const ByteRange ar = activations.range.value_or(ByteRange{act, act});
  Term start = sum_nonzero(terms(std::move(activations), head_gradient_of(c))).named("at the start of backward");
  const Bytes head = start.bytes - act;
  const Bytes grads = gradients.bytes;
  Terms end_parts = terms(std::move(gradients));
  ByteRange er;
  if (c.m.arch.family != Family::bare) {
    const LayerDims d = dims_of(c);
    end_parts.push_back(
        layer_saved_term(d, c.tokens, c.t.seq_len, c.b, c.t.attention, c.p.kernels).named("first layer"));
    end_parts.push_back(layer_backward_work_term(d, c.tokens, c.b));
    // The first layer's saved tensors carry the activations' kernel range (fused low, eager high).
    const Bytes layer = end_parts[1].bytes + end_parts[2].bytes;
    const Bytes fused = c.explain ? layer_saved_term(d, c.tokens, c.t.seq_len, c.b, c.t.attention, LayerKernels::fused)
                                            .bytes + end_parts[2].bytes
                                  : layer;
    er = {grads + scale_floor(std::min(fused, layer), kFusedSlack), grads + ratio_range(layer, 1.0, kEagerSlack).high};
  }
  Term end = sum_nonzero(std::move(end_parts)).named("at its end (every gradient)");
  const Bytes end_bytes = end.bytes;
  if (er.high < end_bytes) er = {end_bytes, end_bytes};
  const ByteRange r{std::max(ar.low + head, er.low), std::max(ar.high + head, er.high)};
  return Term::max_of(terms(std::move(start), std::move(end))).named("backward peak").cite(kPhaseSource).within(r);
}

}  // namespace vram::training
