// The tensors a checkpoint of an architecture stores, one entry per tensor
// kind per layer, then compacted so that identical tensors of consecutive
// layers share one entry. Widths that are products of config fields are
// computed with checked arithmetic.
#include <string>
#include <vector>

#include "vram/model.hpp"

namespace vram {

namespace {

using checked::mul;

struct LinearAdder {
  std::vector<Tensor>& out;
  // A linear weight [rows x cols] and, when `bias`, its bias vector.
  void linear(TensorRole role, std::int32_t layer, std::int64_t rows, std::int64_t cols, Shard shard, bool bias,
              std::int64_t count = 1, TensorStage stage = TensorStage::text) {
    out.push_back({role, layer, rows, cols, count, stage, shard, true});
    if (bias) {
      const Shard bias_shard = shard == Shard::cols ? Shard::replicated : shard;
      out.push_back({TensorRole::bias, layer, 1, rows, count, stage, bias_shard, false});
    }
  }
  void vector(TensorRole role, std::int32_t layer, std::int64_t n, Shard shard = Shard::replicated,
              std::int64_t count = 1, TensorStage stage = TensorStage::text) {
    out.push_back({role, layer, 1, n, count, stage, shard, false});
  }
  void matrix(TensorRole role, std::int32_t layer, std::int64_t rows, std::int64_t cols, Shard shard,
              TensorStage stage = TensorStage::text) {
    out.push_back({role, layer, rows, cols, 1, stage, shard, false});
  }
};

void add_norm(LinearAdder& add, const BlockLayout& s, std::int32_t layer, std::int64_t n,
              TensorStage stage = TensorStage::text) {
  add.vector(TensorRole::norm, layer, n, Shard::replicated, 1, stage);
  if (s.layernorm_bias) add.vector(TensorRole::norm, layer, n, Shard::replicated, 1, stage);
}

// DeepSeek multi-head latent attention: low-rank q and a shared compressed KV.
void add_mla_attention(LinearAdder& add, const Architecture& a, std::int32_t i, TensorStage stage) {
  const std::int64_t h = a.hidden;
  const std::int64_t qk = checked::add(a.qk_nope_head_dim, a.qk_rope_head_dim);
  if (a.q_lora_rank > 0) {
    add.linear(TensorRole::mla_q_a, i, a.q_lora_rank, h, Shard::replicated, false, 1, stage);
    add.vector(TensorRole::norm, i, a.q_lora_rank, Shard::replicated, 1, stage);
    add.linear(TensorRole::mla_q_b, i, mul(a.heads, qk), a.q_lora_rank, Shard::rows, false, 1, stage);
  } else {
    add.linear(TensorRole::attn_q, i, mul(a.heads, qk), h, Shard::rows, false, 1, stage);
  }
  add.linear(TensorRole::mla_kv_a, i, checked::add(a.kv_lora_rank, a.qk_rope_head_dim), h, Shard::replicated, false, 1,
             stage);
  add.vector(TensorRole::norm, i, a.kv_lora_rank, Shard::replicated, 1, stage);
  add.linear(TensorRole::mla_kv_b, i, mul(a.heads, checked::add(a.qk_nope_head_dim, a.v_head_dim)), a.kv_lora_rank,
             Shard::rows, false, 1, stage);
  add.linear(TensorRole::attn_o, i, h, mul(a.heads, a.v_head_dim), Shard::cols, false, 1, stage);
}

void add_attention(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, const LayerSpec& spec,
                   TensorStage stage) {
  const std::int64_t h = a.hidden;
  if (a.family == Family::deepseek) return add_mla_attention(add, a, i, stage);
  if (a.family == Family::bloom) {
    add.linear(TensorRole::attn_qkv, i, mul(3, h), h, Shard::rows, true, 1, stage);
    add.linear(TensorRole::attn_o, i, h, h, Shard::cols, true, 1, stage);
    return;
  }
  if (spec.kind == LayerKind::cross_attention) {
    // MllamaTextCrossAttention: per-head q/k RMSNorms and two tanh gates.
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, 1, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, 1, Shard::replicated, 1, stage);
  }
  const std::int64_t q = mul(a.heads, a.head_dim);
  const std::int64_t kv = mul(a.kv_heads, a.head_dim);
  // Qwen3-Next's gated attention: q_proj yields the query and a per-head output gate.
  const std::int64_t q_rows = s.attn_output_gate ? mul(2, q) : q;
  add.linear(TensorRole::attn_q, i, q_rows, h, Shard::rows, s.qkv_bias, 1, stage);
  add.linear(TensorRole::attn_k, i, kv, h, Shard::kv_rows, s.qkv_bias, 1, stage);
  add.linear(TensorRole::attn_v, i, kv, h, Shard::kv_rows, s.qkv_bias, 1, stage);
  add.linear(TensorRole::attn_o, i, h, q, Shard::cols, s.o_bias, 1, stage);
  if (s.qk_norm) {
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
    add.vector(TensorRole::norm, i, a.head_dim, Shard::replicated, 1, stage);
  }
  if (s.sinks) add.vector(TensorRole::attn_sinks, i, a.heads, Shard::rows, 1, stage);
}

void add_dense_mlp(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, std::int64_t width,
                   TensorStage stage) {
  if (s.gated_mlp) add.linear(TensorRole::mlp_gate, i, width, a.hidden, Shard::rows, s.mlp_bias, 1, stage);
  add.linear(TensorRole::mlp_up, i, width, a.hidden, Shard::rows, s.mlp_bias, 1, stage);
  add.linear(TensorRole::mlp_down, i, a.hidden, width, Shard::cols, s.mlp_bias, 1, stage);
}

void add_moe(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, TensorStage stage) {
  const std::int64_t h = a.hidden;
  const std::int64_t e = a.experts;
  add.matrix(TensorRole::router, i, e, h, Shard::replicated, stage);
  if (s.router_bias) add.vector(TensorRole::bias, i, e, Shard::replicated, 1, stage);
  if (s.score_correction_bias) add.vector(TensorRole::bias, i, e, Shard::replicated, 1, stage);
  // Non-gated experts (Nemotron-H's relu²) have no gate projection.
  if (s.gated_mlp) add.linear(TensorRole::expert_gate, i, a.expert_intermediate, h, Shard::rows, s.expert_bias, e, stage);
  add.linear(TensorRole::expert_up, i, a.expert_intermediate, h, Shard::rows, s.expert_bias, e, stage);
  add.linear(TensorRole::expert_down, i, h, a.expert_intermediate, Shard::cols, s.expert_bias, e, stage);
  if (a.shared_experts_intermediate > 0) {
    add_dense_mlp(add, a, s, i, a.shared_experts_intermediate, stage);
    if (s.shared_expert_gate) add.matrix(TensorRole::router, i, 1, h, Shard::replicated, stage);
  }
}

void add_mamba_mixer(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, bool jamba_norms) {
  const std::int64_t d = a.ssm_inner;
  add.linear(TensorRole::ssm_in, i, mul(2, d), a.hidden, Shard::rows, s.qkv_bias);
  add.matrix(TensorRole::ssm_conv, i, d, a.ssm_conv, Shard::rows);
  add.vector(TensorRole::bias, i, d, Shard::rows);  // conv1d bias
  add.linear(TensorRole::ssm_x, i, checked::add(a.ssm_dt_rank, mul(2, a.ssm_state)), d, Shard::cols, false);
  add.linear(TensorRole::ssm_dt, i, d, a.ssm_dt_rank, Shard::rows, true);
  add.matrix(TensorRole::ssm_state, i, d, a.ssm_state, Shard::rows);  // A_log
  add.vector(TensorRole::ssm_state, i, d, Shard::rows);               // D
  add.linear(TensorRole::ssm_out, i, a.hidden, d, Shard::cols, s.qkv_bias);
  if (jamba_norms) {
    add.vector(TensorRole::norm, i, a.ssm_dt_rank);
    add.vector(TensorRole::norm, i, a.ssm_state);
    add.vector(TensorRole::norm, i, a.ssm_state);
  }
}

// Mamba-2 mixer (Dao & Gu 2024; transformers Mamba2Mixer and its copies in
// granitemoehybrid, bamba, nemotron_h): in_proj to z, x, B, C and dt; a
// depthwise conv1d over x, B, C; per-head dt_bias, A_log and D; a gated
// RMSNorm over the width; out_proj.
void add_mamba2_mixer(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i) {
  const std::int64_t d = a.ssm_inner;
  const std::int64_t conv_dim = checked::add(d, checked::product(2, a.ssm_groups, a.ssm_state));
  add.linear(TensorRole::ssm_in, i, checked::add(checked::add(d, conv_dim), a.ssm_heads), a.hidden, Shard::rows,
             s.ssm_proj_bias);
  add.matrix(TensorRole::ssm_conv, i, conv_dim, a.ssm_conv, Shard::rows);
  if (s.ssm_conv_bias) add.vector(TensorRole::bias, i, conv_dim, Shard::rows);
  add.vector(TensorRole::ssm_dt, i, a.ssm_heads, Shard::rows);            // dt_bias
  add.vector(TensorRole::ssm_state, i, a.ssm_heads, Shard::rows);         // A_log
  add.vector(TensorRole::ssm_state, i, a.ssm_heads, Shard::rows);         // D
  if (s.ssm_gated_norm) add.vector(TensorRole::norm, i, d, Shard::rows);  // gated RMSNorm
  add.linear(TensorRole::ssm_out, i, a.hidden, d, Shard::cols, s.ssm_proj_bias);
}

// Gated DeltaNet (Yang et al. 2024, arXiv:2412.06464; transformers
// Qwen3NextGatedDeltaNet): in_proj_qkvz to q, k (key width each), v and the
// output gate z (value width each); in_proj_ba to the per-value-head beta and
// decay; a depthwise conv1d over q, k, v without bias; dt_bias and A_log per
// value head; a gated RMSNorm of one value head's width; out_proj.
void add_gated_deltanet(LinearAdder& add, const Architecture& a, std::int32_t i, TensorStage stage) {
  const std::int64_t key = mul(a.linear_k_heads, a.linear_k_dim);
  const std::int64_t value = mul(a.linear_v_heads, a.linear_v_dim);
  const std::int64_t conv_dim = checked::add(mul(2, key), value);
  add.linear(TensorRole::ssm_in, i, checked::add(mul(2, key), mul(2, value)), a.hidden, Shard::rows, false, 1, stage);
  add.linear(TensorRole::ssm_in, i, mul(2, a.linear_v_heads), a.hidden, Shard::rows, false, 1, stage);
  add.out.push_back({TensorRole::ssm_conv, i, conv_dim, a.linear_conv, 1, stage, Shard::rows, false});
  add.vector(TensorRole::ssm_dt, i, a.linear_v_heads, Shard::rows, 1, stage);     // dt_bias
  add.vector(TensorRole::ssm_state, i, a.linear_v_heads, Shard::rows, 1, stage);  // A_log
  add.vector(TensorRole::norm, i, a.linear_v_dim, Shard::replicated, 1, stage);
  add.linear(TensorRole::ssm_out, i, a.hidden, value, Shard::cols, false, 1, stage);
}

/// MiniMax lightning attention (vllm/model_executor/layers/mamba/linear_attn.py
/// MiniMaxText01LinearAttention): qkv_proj hidden → 3 × heads × head_dim and
/// output_gate hidden → heads × head_dim (column-parallel), out_proj back to
/// hidden (row-parallel), and the RMS norm over heads × head_dim, split by TP.
void add_lightning_attention(LinearAdder& add, const Architecture& a, std::int32_t i, TensorStage stage) {
  const std::int64_t inner = mul(a.heads, a.head_dim);
  add.linear(TensorRole::ssm_in, i, mul(3, inner), a.hidden, Shard::rows, false, 1, stage);
  add.linear(TensorRole::ssm_in, i, inner, a.hidden, Shard::rows, false, 1, stage);
  add.vector(TensorRole::norm, i, inner, Shard::rows, 1, stage);
  add.linear(TensorRole::ssm_out, i, a.hidden, inner, Shard::cols, false, 1, stage);
}

/// The token mixer of one layer; false when the layer has none.
bool add_mixer(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i, const LayerSpec& spec,
               TensorStage stage) {
  switch (spec.kind) {
    case LayerKind::mamba: add_mamba_mixer(add, a, s, i, a.family == Family::jamba); return true;
    case LayerKind::mamba2: add_mamba2_mixer(add, a, s, i); return true;
    case LayerKind::linear_attention: add_gated_deltanet(add, a, i, stage); return true;
    case LayerKind::lightning_attention: add_lightning_attention(add, a, i, stage); return true;
    case LayerKind::mlp_only: return false;
    case LayerKind::attention_mamba2:  // Falcon-H1: self_attn and mamba side by side
      add_attention(add, a, s, i, spec, stage);
      add_mamba2_mixer(add, a, s, i);
      return true;
    default: add_attention(add, a, s, i, spec, stage); return true;
  }
}

void add_decoder_layer(LinearAdder& add, const Architecture& a, const BlockLayout& s, std::int32_t i,
                       const LayerSpec& spec, TensorStage stage) {
  for (int n = 0; n < s.norms_per_layer; ++n) add_norm(add, s, i, a.hidden, stage);
  const bool mixer = add_mixer(add, a, s, i, spec, stage);
  if (a.family == Family::mamba) return;
  // Nemotron-H: a block is a mixer or an MLP, never both.
  if (a.family == Family::nemotron_h && mixer) return;
  if (spec.moe) {
    add_moe(add, a, s, i, stage);
  } else {
    add_dense_mlp(add, a, s, i, s.dense_intermediate > 0 ? s.dense_intermediate : a.intermediate, stage);
  }
}

std::vector<Tensor> t5_inventory(const Architecture& a, const BlockLayout& s) {
  std::vector<Tensor> t;
  LinearAdder add{t};
  const std::int64_t h = a.hidden;
  const std::int64_t inner = mul(a.heads, a.head_dim);
  add.matrix(TensorRole::embedding, -1, a.vocab, h, Shard::rows);
  auto attention = [&](std::int32_t i) {
    add.linear(TensorRole::attn_q, i, inner, h, Shard::rows, false);
    add.linear(TensorRole::attn_k, i, inner, h, Shard::kv_rows, false);
    add.linear(TensorRole::attn_v, i, inner, h, Shard::kv_rows, false);
    add.linear(TensorRole::attn_o, i, h, inner, Shard::cols, false);
    add.vector(TensorRole::norm, i, h);
  };
  auto feed_forward = [&](std::int32_t i) {
    add_dense_mlp(add, a, s, i, a.intermediate, TensorStage::text);
    add.vector(TensorRole::norm, i, h);
  };
  const std::int64_t buckets = 32;  // T5Config.relative_attention_num_buckets default
  for (std::int32_t i = 0; i < a.encoder_layers; ++i) {
    attention(i);
    if (i == 0) add.matrix(TensorRole::rel_position_bias, i, buckets, a.heads, Shard::rows);
    feed_forward(i);
  }
  add.vector(TensorRole::norm, -1, h);
  for (std::int32_t i = 0; i < a.layers; ++i) {
    const std::int32_t li = static_cast<std::int32_t>(a.encoder_layers) + i;
    attention(li);  // self-attention
    if (i == 0) add.matrix(TensorRole::rel_position_bias, li, buckets, a.heads, Shard::rows);
    attention(li);  // cross-attention
    feed_forward(li);
  }
  add.vector(TensorRole::norm, -1, h);
  if (!a.tied_embeddings) add.matrix(TensorRole::lm_head, -1, a.vocab, h, Shard::rows);
  return t;
}

// DeepSeek multi-token-prediction layers: a full MoE decoder layer plus its own
// embedding, head, two norms and a 2h -> h projection (DeepSeek-V3 README_WEIGHTS.md).
// Qwen3-Next multi-token-prediction layers: a gated-attention MoE decoder
// layer, the two pre-fc norms, the 2h -> h fc and a final norm; embedding and
// head shared with the model (its checkpoint's mtp.* tensors).
void add_qwen3_next_mtp(LinearAdder& add, const Architecture& a, const BlockLayout& s) {
  for (std::int64_t m = 0; m < s.mtp_layers; ++m) {
    const auto i = static_cast<std::int32_t>(a.layers + m);
    add.linear(TensorRole::mlp_down, i, a.hidden, mul(2, a.hidden), Shard::replicated, false, 1, TensorStage::mtp);
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);  // pre_fc_norm_embedding
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);  // pre_fc_norm_hidden
    add_decoder_layer(add, a, s, i, LayerSpec{LayerKind::full_attention, 0, a.experts > 0}, TensorStage::mtp);
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);
  }
}

void add_mtp_layers(LinearAdder& add, const Architecture& a, const BlockLayout& s) {
  if (a.family == Family::qwen3_next) return add_qwen3_next_mtp(add, a, s);
  for (std::int64_t m = 0; m < s.mtp_layers; ++m) {
    const auto i = static_cast<std::int32_t>(a.layers + m);
    LayerSpec spec{LayerKind::mla, 0, a.experts > 0};
    add_decoder_layer(add, a, s, i, spec, TensorStage::mtp);
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);  // enorm
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);  // hnorm
    add.linear(TensorRole::mlp_down, i, a.hidden, mul(2, a.hidden), Shard::replicated, false, 1, TensorStage::mtp);
    add.matrix(TensorRole::embedding, i, a.vocab, a.hidden, Shard::rows, TensorStage::mtp);
    add.vector(TensorRole::norm, i, a.hidden, Shard::replicated, 1, TensorStage::mtp);
    add.matrix(TensorRole::lm_head, i, a.vocab, a.hidden, Shard::rows, TensorStage::mtp);
  }
}

std::vector<Tensor> inventory(const Architecture& a, const BlockLayout& s) {
  if (a.family == Family::t5) return t5_inventory(a, s);
  std::vector<Tensor> t;
  t.reserve(static_cast<std::size_t>(checked::mul(a.layers, 24) + 8));
  LinearAdder add{t};
  add.matrix(TensorRole::embedding, -1, checked::add(a.vocab, s.extra_embedding_rows), a.hidden, Shard::rows);
  if (a.family == Family::bloom) {  // word_embeddings_layernorm (weight + bias)
    add.vector(TensorRole::embedding_norm, -1, a.hidden);
    add.vector(TensorRole::embedding_norm, -1, a.hidden);
  }
  for (std::int32_t i = 0; i < a.layers; ++i) {
    add_decoder_layer(add, a, s, i, a.layer_specs[static_cast<std::size_t>(i)], TensorStage::text);
  }
  add_norm(add, s, -1, a.hidden);
  if (!a.tied_embeddings) {
    add.matrix(TensorRole::lm_head, -1, a.vocab, a.hidden, Shard::rows);
    if (a.family == Family::phi) add.vector(TensorRole::bias, -1, a.vocab, Shard::rows);
  }
  add_mtp_layers(add, a, s);
  if (a.vision_params > 0) {
    // Engines shard vision towers over tensor-parallel ranks like the language model
    // (vLLM ColumnParallelLinear/RowParallelLinear in its vision encoders).
    add.matrix(TensorRole::vision, -1, 1, a.vision_params, Shard::rows, TensorStage::vision);
  }
  return t;
}

// Merges entries that differ only in their (consecutive) layer, keeping the
// order in which each kind first appears.
std::vector<Tensor> compact(const std::vector<Tensor>& in) {
  std::vector<Tensor> out;
  out.reserve(in.size() / 8 + 8);
  auto same_kind = [](const Tensor& a, const Tensor& b) {
    return a.role == b.role && a.rows == b.rows && a.cols == b.cols && a.count == b.count && a.stage == b.stage &&
           a.shard == b.shard && a.quantizable == b.quantizable;
  };
  std::vector<std::size_t> open;  // indexes in `out` of entries still growing
  for (const Tensor& t : in) {
    bool merged = false;
    if (t.layer >= 0) {
      for (std::size_t k : open) {
        Tensor& g = out[k];
        if (same_kind(g, t) && g.layer + g.layers == t.layer) {
          g.layers += t.layers;
          merged = true;
          break;
        }
      }
    }
    if (!merged) {
      out.push_back(t);
      if (t.layer >= 0) open.push_back(out.size() - 1);
    }
  }
  return out;
}

}  // namespace

std::vector<Tensor> tensor_inventory(const Architecture& arch) {
  return compact(inventory(arch, arch.block));
}

}  // namespace vram
