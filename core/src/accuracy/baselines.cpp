// The rules people use today to size GPU memory, each a small formula with its
// source, so that `vram-budget accuracy` can score them on the same measured
// cases as the estimator (ACCURACY.md puts them side by side).
//
// Each rule sees what its authors' tools see: a parameter count, a dtype, the
// config's layer, hidden, head and KV-head sizes. Per GPU, a rule's figure for
// the whole model is divided by the GPUs the model is cut over (tensor ×
// pipeline parallel), the most a rule of thumb can know about placement.
#include <algorithm>
#include <array>
#include <cmath>

#include "vram/accuracy.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram {

double nominal_bytes_per_param(const WeightFormat& format) {
  const Codec& c = format.linear;
  // Blocked types (GGUF, MXFP4, NF4) state bits per block: Q4_K is 144 B per 256 values, 4.5 bits.
  if (c.elem_bits > 0) return static_cast<double>(c.elem_bits) / 8.0;
  if (c.group > 0) return static_cast<double>(c.block_bits) / static_cast<double>(c.group) / 8.0;
  return 2.0;
}

double label_bytes_plus_20(std::int64_t params, double bytes_per_param) {
  // EleutherAI, "Transformer Math 101" (blog.eleuther.ai/transformer-math, 2023): "Total Inference
  // Memory ≈ 1.2 × Model Memory"; repeated by accelerate v1.14.0 docs/source/usage_guides/model_size_estimator.md.
  return static_cast<double>(params) * bytes_per_param * 1.2;
}

double accelerate_total_size(std::int64_t params, AccelerateDtype dtype) {
  // accelerate v1.14.0 src/accelerate/commands/estimate.py gather_data: the model is built on the meta
  // device in fp32 (4 B per parameter), then "Total Size" is divided by 2 (float16), 4 (int8), 8 (int4).
  static constexpr std::array<double, 4> kDivisor{1, 2, 4, 8};
  return static_cast<double>(params) * 4.0 / kDivisor[static_cast<std::size_t>(dtype)];
}

std::optional<double> accelerate_adam_peak(std::int64_t params, AccelerateDtype dtype) {
  // accelerate v1.14.0 estimate.py estimate_training_usage, with fp32_size = 4 B × parameters:
  //   float32: model 1×, gradients 1×, optimizer 2×, step 4× fp32_size
  //   float16 / bfloat16: model 1×, gradients 1.5×, optimizer 2×, step 2× fp32_size
  //   int8, int4: -1 ("N/A"); estimate_command prints max(stages).
  const double fp32_size = static_cast<double>(params) * 4.0;
  switch (dtype) {
    case AccelerateDtype::float32: return std::max({fp32_size, fp32_size, 2 * fp32_size, 4 * fp32_size});
    case AccelerateDtype::float16: return std::max({fp32_size, 1.5 * fp32_size, 2 * fp32_size, 2 * fp32_size});
    case AccelerateDtype::int8:
    case AccelerateDtype::int4: return std::nullopt;
  }
  return std::nullopt;
}

double kv_per_token_from_hidden(std::int64_t layers, std::int64_t hidden, double elem_bytes) {
  // gpu_poor (github.com/RahulSChand/gpu_poor @ad2fc0e src/App.js, the ggml inference branch):
  // contextLen × 2 × 2 × hiddenDim × num_layers bytes, i.e. K and V of the full hidden width in fp16.
  return 2.0 * static_cast<double>(layers) * static_cast<double>(hidden) * elem_bytes;
}

double kv_per_token_gqa(std::int64_t layers, std::int64_t kv_heads, std::int64_t head_dim, double elem_bytes) {
  // K and V per layer of num_key_value_heads × head_dim (Ainslie et al. 2023, GQA), nothing else:
  // no block rounding, no sliding-window caps, no latent (MLA) layout, no engine pool.
  return 2.0 * static_cast<double>(layers) * static_cast<double>(kv_heads) * static_cast<double>(head_dim) * elem_bytes;
}

namespace {

/// The report components that hold one pipeline component's weights
/// (the generation engine's ids: the denoiser's are "weights").
enum class WeightPart : std::uint8_t { denoiser, text_encoder, text_encoder_2, text_encoder_3, image_encoder, vae };
constexpr std::array<Choice<WeightPart>, 6> kWeightParts{{{WeightPart::denoiser, "weights"},
                                                          {WeightPart::text_encoder, "text_encoder_weights"},
                                                          {WeightPart::text_encoder_2, "text_encoder_2_weights"},
                                                          {WeightPart::text_encoder_3, "text_encoder_3_weights"},
                                                          {WeightPart::image_encoder, "image_encoder_weights"},
                                                          {WeightPart::vae, "vae_weights"}}};

constexpr std::array<std::string_view, 3> kPeaks{"peak_allocated_bytes", "peak_reserved_bytes", "peak_device_bytes"};

/// accelerate's row nearest a nominal width in bits (its --dtypes: 32, 16, 8, 4).
AccelerateDtype nearest_row(double bits) {
  static constexpr std::array<std::pair<double, AccelerateDtype>, 4> kRows{{{32, AccelerateDtype::float32},
                                                                            {16, AccelerateDtype::float16},
                                                                            {8, AccelerateDtype::int8},
                                                                            {4, AccelerateDtype::int4}}};
  auto best = kRows[0];
  for (const auto& r : kRows)
    if (std::fabs(r.first - bits) < std::fabs(best.first - bits)) best = r;
  return best.second;
}

/// accelerate's row for a training precision: float32, or its float16/bfloat16 branch.
AccelerateDtype training_row(Precision p) {
  return p == Precision::fp32 ? AccelerateDtype::float32 : AccelerateDtype::float16;
}

double measured_value(const std::vector<std::pair<std::string, double>>& measured, std::string_view name) {
  for (const auto& [k, v] : measured)
    if (k == name) return v;
  return 0;
}

/// KV rules: bytes per token per GPU, then what each engine does with it.
void kv_rule(BaselineKind kind, double per_token_model, const Scenario& s,
             const std::vector<std::pair<std::string, double>>& measured, std::vector<BaselinePrediction>& out) {
  const InferenceSettings& inf = s.inference();
  const double split = static_cast<double>(s.parallel.tensor * s.parallel.pipeline);
  const double per_token = per_token_model / split;
  out.push_back({kind, "kv_bytes_per_token", per_token});
  if (inf.engine != Engine::vllm) {
    // llama.cpp and transformers allocate the KV of the requested context for each sequence.
    out.push_back(
        {kind, "kv_cache_bytes", per_token * static_cast<double>(inf.context) * static_cast<double>(inf.concurrency)});
    return;
  }
  // vLLM fills a pool: the rule's tokens are the pool the engine printed over its bytes per token.
  const double pool = measured_value(measured, "kv_cache_bytes");
  if (pool <= 0 || per_token <= 0) return;
  const double tokens = std::floor(pool / per_token);
  out.push_back({kind, "kv_capacity_tokens", tokens});
  if (inf.context > 0) out.push_back({kind, "max_concurrency", tokens / static_cast<double>(inf.context)});
}

void weight_rules(const Scenario& s, std::vector<BaselinePrediction>& out) {
  const std::int64_t params = parameter_count(s.model->tensors);
  const double split = static_cast<double>(s.parallel.tensor * s.parallel.pipeline);
  const double nominal = nominal_bytes_per_param(s.weights);
  for (auto peak : kPeaks)
    out.push_back({BaselineKind::label_bytes_plus_20, peak, label_bytes_plus_20(params, nominal) / split});
  if (s.workload == Workload::inference) {
    const double size = accelerate_total_size(params, nearest_row(nominal * 8.0));
    out.push_back({BaselineKind::accelerate, "weights_bytes", size / split});
  } else if (const TrainingWorkload* t = s.training()) {
    if (const auto peak = accelerate_adam_peak(params, training_row(t->training.precision)))
      for (auto p : kPeaks) out.push_back({BaselineKind::accelerate, p, *peak / split});
  }
}

}  // namespace

std::optional<double> pipeline_weights_sum(const Report& report) {
  double sum = 0;
  int parts = 0;
  for (const auto& c : report.components) {
    if (find_choice(kWeightParts, c.id) == nullptr) continue;
    sum += static_cast<double>(c.bytes.in_bytes());
    ++parts;
  }
  return parts >= 2 ? std::optional<double>(sum) : std::nullopt;
}

std::vector<BaselinePrediction> baseline_predictions(const Scenario& s, const Report& report,
                                                     const std::vector<std::pair<std::string, double>>& measured) {
  std::vector<BaselinePrediction> out;
  if (s.model) {
    weight_rules(s, out);
    const Architecture& a = s.model->arch;
    if (s.workload == Workload::inference && a.layers > 0) {
      const KvDtype& kv = s.inference().kv;
      const double elem = static_cast<double>(kv.block_bytes) / static_cast<double>(kv.block_elems);
      if (a.hidden > 0)
        kv_rule(BaselineKind::kv_from_hidden, kv_per_token_from_hidden(a.layers, a.hidden, elem), s, measured, out);
      if (a.kv_heads > 0 && a.head_dim > 0)
        kv_rule(BaselineKind::kv_gqa, kv_per_token_gqa(a.layers, a.kv_heads, a.head_dim, elem), s, measured, out);
    }
  }
  if (const auto sum = pipeline_weights_sum(report))
    for (auto p : kPeaks) out.push_back({BaselineKind::pipeline_weights, p, *sum});
  return out;
}

}  // namespace vram
