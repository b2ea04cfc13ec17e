// Refusing configs that describe more parameters than any real model.
//
// Every config field is bounded by its own range, but products of fields in
// range can still be absurd (100,000 experts of width 14,336, or a Mamba state
// of 10^7 × 10^7 per layer). Before the inventory is built, the language model
// is estimated part by part in floating point (no product can wrap there), and
// a config above kMaxParams is refused at the field behind its largest part.
// After the inventory is built, the exact count of each stage (text, vision
// tower, multi-token-prediction layers) is checked against the same limit.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model_internal.hpp"
#include "vram/error.hpp"

namespace vram::model_detail {

using io::join_path;

namespace {

/// One part of a language model's parameters, the config field chiefly
/// responsible for it and its factors, for the message.
struct Part {
  double params = 0;
  std::string field;
  std::string what;
};

double d(std::int64_t v) {
  return static_cast<double>(v);
}
std::string n(std::int64_t v) {
  return group_thousands(v);
}

std::string hidden_key(const json& cfg) {
  return present_key(cfg, {"hidden_size", "n_embd", "n_embed", "d_model"});
}

Part embedding_part(const Architecture& a) {
  // MTP layers store an embedding and a head each.
  const std::int64_t copies = checked::add(a.tied_embeddings ? 1 : 2, checked::mul(2, a.block.mtp_layers));
  const std::int64_t rows = checked::add(a.vocab, a.block.extra_embedding_rows);
  return {d(rows) * d(a.hidden) * d(copies), "vocab_size",
          "the embeddings: " + std::to_string(copies) + " × vocab_size " + n(rows) + " × hidden " + n(a.hidden)};
}

Part attention_part(const Architecture& a, const json& cfg) {
  const double layers = a.family == Family::t5 ? d(a.encoder_layers) + 2 * d(a.layers)  // self + cross
                                               : d(a.layers) + d(a.block.mtp_layers);
  if (a.family == Family::deepseek) {
    const double qk = d(a.qk_nope_head_dim) + d(a.qk_rope_head_dim);
    const double q =
        a.q_lora_rank > 0 ? d(a.q_lora_rank) * (d(a.hidden) + d(a.heads) * qk) : d(a.hidden) * d(a.heads) * qk;
    const double kv = d(a.hidden) * (d(a.kv_lora_rank) + d(a.qk_rope_head_dim)) +
                      d(a.kv_lora_rank) * d(a.heads) * (d(a.qk_nope_head_dim) + d(a.v_head_dim));
    const double o = d(a.heads) * d(a.v_head_dim) * d(a.hidden);
    return {layers * (q + kv + o), present_key(cfg, {"num_attention_heads"}),
            "the latent attention: " + n(a.layers) + " layers of " + n(a.heads) + " heads at hidden " + n(a.hidden)};
  }
  const double per_layer = (2 * d(a.heads) + 2 * d(a.kv_heads)) * d(a.head_dim) * d(a.hidden);
  const std::string field = cfg.contains("head_dim") ? "head_dim" : hidden_key(cfg);
  return {layers * per_layer, field,
          "the attention: " + format_decimal(layers, 0) + " layers × (2 × " + n(a.heads) + " heads + 2 × " +
              n(a.kv_heads) + " KV heads) × head_dim " + n(a.head_dim) + " × hidden " + n(a.hidden)};
}

Part dense_mlp_part(const Architecture& a, const json& cfg) {
  if (a.family == Family::mamba) return {};  // its intermediate_size is the SSM width
  const std::int64_t layers = checked::Count(a.layers) + a.encoder_layers + a.block.mtp_layers;
  const std::int64_t width =
      checked::add(std::max(a.intermediate, a.block.dense_intermediate), a.shared_experts_intermediate);
  const int matrices = a.block.gated_mlp ? 3 : 2;
  const std::string field = a.family == Family::bloom
                                ? hidden_key(cfg)
                                : present_key(cfg, {"intermediate_size", "n_inner", "ffn_dim", "d_ff"});
  return {d(layers) * matrices * d(width) * d(a.hidden), field,
          "the MLPs: " + n(layers) + " layers × " + std::to_string(matrices) + " matrices of " + n(width) + " × " +
              n(a.hidden)};
}

Part expert_part(const Architecture& a, const json& cfg) {
  if (a.experts == 0) return {};
  const std::int64_t layers = checked::add(a.layers, a.block.mtp_layers);
  const double per_layer = d(a.experts) * (3 * d(a.expert_intermediate) + 1) * d(a.hidden);  // + router row
  return {d(layers) * per_layer, present_key(cfg, {"num_local_experts", "num_experts", "n_routed_experts"}),
          "the routed experts: " + n(layers) + " layers × " + n(a.experts) + " experts × 3 matrices of " +
              n(a.expert_intermediate) + " × " + n(a.hidden)};
}

// Mamba mixers: in/out projections, x_proj onto the state, dt projections, conv.
std::vector<Part> ssm_parts(const Architecture& a, const json& cfg) {
  if (a.ssm_inner == 0) return {};
  const bool jamba = a.family == Family::jamba;
  const double per = d(a.layers) * d(a.ssm_inner);
  const std::string at = " × ssm width " + n(a.ssm_inner) + " on " + n(a.layers) + " layers";
  const std::string width_key = jamba                               ? "mamba_expand"
                                : cfg.contains("intermediate_size") ? "intermediate_size"
                                                                    : "expand";
  return {
      {per * 3 * d(a.hidden), width_key, "the SSM projections: 3 × hidden " + n(a.hidden) + at},
      {per * 3 * d(a.ssm_state), jamba ? "mamba_d_state" : present_key(cfg, {"state_size", "d_state"}),
       "the SSM state: 3 × state size " + n(a.ssm_state) + at},
      {per * 2 * d(a.ssm_dt_rank), jamba ? "mamba_dt_rank" : "time_step_rank",
       "the SSM time-step projections: 2 × rank " + n(a.ssm_dt_rank) + at},
      {per * d(a.ssm_conv), jamba ? "mamba_d_conv" : present_key(cfg, {"conv_kernel", "d_conv"}),
       "the SSM convolution: kernel " + n(a.ssm_conv) + at},
  };
}

}  // namespace

void check_shape_plausible(const Architecture& a, const json& cfg, const std::string& path) {
  std::vector<Part> parts = ssm_parts(a, cfg);
  for (Part p : {embedding_part(a), attention_part(a, cfg), dense_mlp_part(a, cfg), expert_part(a, cfg)}) {
    parts.push_back(std::move(p));
  }
  double total = 0;
  const Part* largest = &parts.front();
  for (const Part& p : parts) {
    total += p.params;
    if (p.params > largest->params) largest = &p;
  }
  if (total <= d(kMaxParams)) return;
  throw InputError(join_path(path, largest->field),
                   "describes about " + group_thousands(std::llround(total / 1e12)) +
                       " trillion parameters, beyond any real model (the limit is 10^14, fifty times the largest "
                       "published model); the largest part is " +
                       largest->what);
}

/// Every stage of the inventory (text, vision tower, MTP layers) within 10^14
/// parameters, or an error at the config field of the stage that is too large.
void check_plausible_size(const Model& m, const std::string& path) {
  struct StageSize {
    TensorStage stage;
    std::string field;
    std::int64_t params = 0;
  };
  StageSize stages[] = {{TensorStage::text, path},
                        {TensorStage::vision, join_path(path, "vision_config")},
                        {TensorStage::mtp, join_path(path, "num_nextn_predict_layers")}};
  // Sums saturate just above the limit (each tensor's own count is already checked).
  auto add_capped = [](std::int64_t a, std::int64_t b) {
    return std::min(kMaxParams + 1, a + std::min(b, kMaxParams + 1));
  };
  std::int64_t total = 0;
  for (auto& st : stages) {
    for (const auto& t : m.tensors) {
      if (t.stage == st.stage) st.params = add_capped(st.params, t.elements());
    }
    total = add_capped(total, st.params);
  }
  if (total <= kMaxParams) return;
  const StageSize* worst = &stages[0];
  for (const auto& st : stages) worst = st.params > worst->params ? &st : worst;
  throw InputError(worst->field,
                   "describes " +
                       (worst->params > kMaxParams ? std::string("more than 10^14") : group_thousands(worst->params)) +
                       " parameters in all, beyond any real model (the limit is 10^14, fifty times the "
                       "largest published model)");
}

}  // namespace vram::model_detail
