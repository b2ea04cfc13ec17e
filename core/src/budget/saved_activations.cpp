#include "vram/budget/saved_activations.hpp"

#include <algorithm>

namespace vram {

namespace {
constexpr std::string_view kLayerSource =
    "transformers v4.56 models/llama/modeling_llama.py (LlamaDecoderLayer, LlamaMLP, eager_attention_forward); "
    "Korthikanti et al. 2022 §4.1";
constexpr std::string_view kDoraSource =
    "Liu et al. 2024 (DoRA) §4.3; huggingface/peft @0a6cd5a src/peft/tuners/lora/dora.py DoraLinearLayer.forward "
    "(result = (m / ||W + s B A|| − 1) · x W + m / ||W + s B A|| · s B A x; the norm detached)";
constexpr std::string_view kCheckpointSource =
    "Korthikanti et al. 2022 §5 (full recomputation keeps each layer's input); torch.utils.checkpoint (pytorch v2.8)";
constexpr std::string_view kOpSacSource =
    "torchtitan @e7c0cae torchtitan/models/llama3/parallelize_llama.py _apply_ac_to_transformer_block (op SAC: "
    "_save_list = aten.mm, flash and efficient SDPA, reduce_scatter, max; every second aten.mm recomputed; "
    "ptd_checkpoint_wrapper keeps the block's input), models/llama3/model/model.py (wq, wk, wv, wo; w2(silu(w1 x) "
    "* w3 x)); pytorch v2.8 torch/utils/checkpoint.py create_selective_checkpoint_contexts";
constexpr std::string_view kWorkSource = "pytorch v2.8 autograd: gradients of a layer's outputs and MLP intermediates";
constexpr std::string_view kLossSource =
    "pytorch v2.8 F.cross_entropy = log_softmax + nll_loss (log_softmax saves its output); torchtune v0.6.1 "
    "modules/loss/ce_chunked_output_loss.py (8 chunks); Wijmans et al. 2024, Cut Your Losses in Large-Vocabulary "
    "Language Models (Cut Cross-Entropy)";
constexpr std::string_view kCompiledLossSource =
    "pytorch v2.8 torch/_functorch/partitioners.py min_cut_rematerialization_partition (saves graph inputs and "
    "reductions, recomputes pointwise ops such as exp/log-softmax in backward); torchtune v0.6.1 "
    "training/_compile.py compile_loss";
}  // namespace

LayerDims layer_dims(const Architecture& a, std::int64_t tp) {
  LayerDims d;
  d.hidden = a.hidden;
  d.heads = std::max<std::int64_t>(1, a.heads / tp);
  d.q_dim = checked::mul(d.heads, a.head_dim);
  const std::int64_t v_dim = a.v_head_dim > 0 ? a.v_head_dim : a.head_dim;
  d.kv_dim = checked::mul(std::max<std::int64_t>(1, a.kv_heads / tp), a.head_dim + v_dim) / 2;
  const std::int64_t dense = a.block.dense_intermediate > 0 ? a.block.dense_intermediate : a.intermediate;
  const std::int64_t routed = a.experts > 0 ? checked::add(checked::mul(a.experts_per_token, a.expert_intermediate),
                                                           a.shared_experts_intermediate)
                                            : 0;
  d.mlp_width = std::max(dense, routed) / tp;
  d.gated = a.block.gated_mlp;
  d.rotary = a.rotary_dim > 0;
  return d;
}

namespace {
/// Tokens of a hidden-sized tensor on one rank: all of them, or a sequence shard.
Factor hidden_tokens(const LayerDims& d, std::int64_t tokens) {
  return d.seq_shard > 1 ? Factor::of(checked::ceil_div(tokens, d.seq_shard), "tokens of a sequence shard")
                         : Factor::of(tokens, "tokens");
}
}  // namespace

Term layer_saved_term(const LayerDims& d, std::int64_t tokens, std::int64_t seq_len, std::int64_t b,
                      TrainAttention attention, LayerKernels kernels) {
  const bool eager = kernels == LayerKernels::eager;
  const Factor t = Factor::of(tokens, "tokens");
  const Factor th = hidden_tokens(d, tokens);
  const Factor eb = Factor::bytes(b);
  const Factor two_norms = Factor::of(2, "norms");
  const std::int64_t mlp_tensors = eager ? (d.gated ? 4 : 2) : 2;
  Terms parts = terms(
      eager ? Term::product({th, two_norms, Factor::of(d.hidden, "hidden"),
                             Factor::bytes(checked::add(4, checked::mul(2, b)), "fp32 input + normalised + output")})
            : Term::product(
                  {th, two_norms, Factor::of(d.hidden, "hidden"), Factor::bytes(checked::mul(2, b), "input + output")}),
      Term::product(
          {t,
           Factor::of(checked::add(checked::mul(2, d.q_dim), checked::mul(2, d.kv_dim)), "(q, k, v, attention output)"),
           eb}),
      Term::product({t, Factor::of(d.heads, "heads"), Factor::bytes(4, "fp32 log-sum-exp")}),
      Term::product({t, Factor::of(mlp_tensors, eager ? "(gate, up, SiLU, product)" : "(gate, up; fused SwiGLU)"),
                     Factor::of(d.mlp_width, "MLP width"), eb}));
  if (eager && d.rotary) {
    parts.push_back(Term::product({t, Factor::of(2, "(before rotation, rotate_half)"),
                                   Factor::of(checked::add(d.q_dim, d.kv_dim), "q + k width"), eb}));
  }
  if (attention == TrainAttention::eager) {
    // Softmax in fp32 (saved) and its cast to the compute dtype (saved by the matmul with V).
    parts.push_back(Term::product({t, Factor::of(d.heads, "heads"), Factor::of(seq_len, "keys"),
                                   Factor::bytes(checked::add(4, b), "fp32 probabilities + cast")}));
  }
  return sum_nonzero(std::move(parts)).named("saved by one layer").cite(kLayerSource);
}

Term op_sac_saved_term(const LayerDims& d, std::int64_t tokens, std::int64_t b) {
  const Factor t = Factor::of(tokens, "tokens");
  const Factor th = hidden_tokens(d, tokens);
  // Matmuls in call order: q, k, v, o, then gate (w1), up (w3), down (w2); gated MLPs have
  // seven, so the odd ones are q, v, gate and down; ungated ones six: q, v and the first.
  const std::int64_t saved_mm = checked::add(checked::add(d.q_dim, d.kv_dim), d.gated ? checked::add(d.mlp_width, d.hidden)
                                                                                       : d.mlp_width);
  Terms parts = terms(Term::product({th, Factor::of(d.hidden, "hidden (block input)"), Factor::bytes(b)}),
                      Term::product({t, Factor::of(saved_mm, d.gated ? "(q, v, gate, down: every other matmul)"
                                                                    : "(q, v, first MLP: every other matmul)"),
                                     Factor::bytes(b)}),
                      Term::product({t, Factor::of(d.q_dim, "attention output"), Factor::bytes(b)}),
                      Term::product({t, Factor::of(d.heads, "heads"), Factor::bytes(4, "fp32 log-sum-exp")}));
  if (d.seq_shard > 1)  // the reduce-scatters after o and down (torch.ops._c10d_functional in the save list)
    parts.push_back(Term::product({th, Factor::of(2, "reduce-scatter outputs (o, down)"), Factor::of(d.hidden, "hidden"),
                                   Factor::bytes(b)}));
  return sum_nonzero(std::move(parts)).named("saved by one layer (op-level selective checkpointing)").cite(kOpSacSource);
}

Term layer_backward_work_term(const LayerDims& d, std::int64_t tokens, std::int64_t b) {
  const Term t = d.seq_shard > 1
                     ? Term::sum(terms(Term::product({hidden_tokens(d, tokens), Factor::of(2, "(residual gradients in, out)"),
                                                      Factor::of(d.hidden, "hidden"), Factor::bytes(b)}),
                                       Term::product({Factor::of(tokens, "tokens"), Factor::of(2, "(MLP gradients)"),
                                                      Factor::of(d.mlp_width, "MLP width"), Factor::bytes(b)})))
                     : Term::product({Factor::of(tokens, "tokens"),
                                      Factor::of(checked::add(checked::mul(2, d.hidden), checked::mul(2, d.mlp_width)),
                                                 "(2 × hidden + 2 × MLP width) gradients"),
                                      Factor::bytes(b)});
  const Bytes v = t.bytes;
  return Term(t).named("one layer's backward").cite(kWorkSource).within(ratio_range(v, 0.5, 1.5));
}

Term dora_saved_term(std::int64_t tokens, std::int64_t layer_outputs, std::int64_t b) {
  return Term::product({Factor::of(2, "(plain output, adapter output)"), Factor::of(tokens, "tokens"),
                        Factor::of(layer_outputs, "adapted output width"), Factor::bytes(b)})
      .named("DoRA's kept outputs")
      .cite(kDoraSource);
}

Term checkpoints_term(std::int64_t layers, std::int64_t tokens, std::int64_t hidden, std::int64_t b) {
  return Term::product({Factor::of(layers, "layer inputs"), Factor::of(tokens, "tokens"), Factor::of(hidden, "hidden"),
                        Factor::bytes(b)})
      .named("checkpointed layer inputs")
      .cite(kCheckpointSource);
}

Term logits_loss_term(std::int64_t tokens, std::int64_t vocab, std::int64_t b, LossKind kind, std::int64_t chunks,
                      bool keep_logits) {
  const Factor t = Factor::of(tokens, "tokens");
  const Factor v = Factor::of(vocab, "vocab");
  if (kind == LossKind::cut) {
    return Term::product({t, Factor::bytes(4, "fp32 log-sum-exp")}).named("cut cross-entropy").cite(kLossSource);
  }
  if (kind == LossKind::in_place) {
    return Term::sum(terms(Term::product({t, v, Factor::bytes(b, "logits, gradient in place")}),
                           Term::product({t, Factor::bytes(4, "fp32 log-sum-exp")})))
        .named("fused cross-entropy")
        .cite(kLossSource);
  }
  if (kind == LossKind::compiled || kind == LossKind::compiled_chunked) {
    const std::int64_t chunk = checked::ceil_div(tokens, std::max<std::int64_t>(1, chunks));
    return Term::sum(terms(Term::product({t, v, Factor::bytes(b, "logits saved")}),
                           Term::product({t, Factor::bytes(4, "fp32 log-sum-exp")}),
                           Term::product({Factor::of(chunk, "tokens of one chunk"), v, Factor::bytes(b, "gradient (fused: no fp32 copy)")})))
        .named("compiled cross-entropy")
        .cite(kCompiledLossSource);
  }
  Terms parts;
  if (keep_logits || kind == LossKind::chunked) parts.push_back(Term::product({t, v, Factor::bytes(b, "logits")}));
  if (kind == LossKind::materialized) {
    parts.push_back(Term::product(
        {t, v, Factor::of(3, "(fp32 log-softmax kept, its gradient, the input gradient)"), Factor::bytes(4)}));
  } else {
    parts.push_back(Term::product({t, v, Factor::bytes(4, "fp32 log-softmax kept per chunk")}));
    parts.push_back(
        Term::product({Factor::of(checked::ceil_div(tokens, std::max<std::int64_t>(1, chunks)), "tokens of one chunk"),
                       v, Factor::of(2, "(gradients)"), Factor::bytes(4)}));
  }
  return sum_nonzero(std::move(parts)).named("logits and cross-entropy").cite(kLossSource);
}

}  // namespace vram
