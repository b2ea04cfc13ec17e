#include "vram/budget/weights.hpp"

#include <algorithm>
#include <cstdio>

namespace vram {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
}  // namespace

ShardShape shard_shape(const Tensor& t, const Architecture& arch, std::int64_t tp, std::int64_t vocab_multiple) {
  const bool vector = t.rows == 1;
  std::int64_t out = vector ? t.cols : t.rows;  // output dimension
  std::int64_t in = vector ? 1 : t.cols;
  const bool vocab = t.role == TensorRole::embedding || t.role == TensorRole::lm_head ||
                     (t.role == TensorRole::bias && t.layer < 0 && out == arch.vocab);
  if (vocab && vocab_multiple > 1) out = ceil_div(out, vocab_multiple) * vocab_multiple;
  switch (t.shard) {
    case Shard::replicated:
      break;
    case Shard::rows:
      out = ceil_div(out, tp);
      break;
    case Shard::cols:
      if (!vector) in = ceil_div(in, tp);
      break;
    case Shard::kv_rows: {
      // vLLM QKVParallelLinear: each rank holds max(1, kv_heads / tp) whole KV heads,
      // replicating them when tp > kv_heads (vllm/model_executor/layers/linear.py, v0.19.0).
      const std::int64_t heads = std::max<std::int64_t>(1, arch.kv_heads);
      const std::int64_t per_rank = std::max<std::int64_t>(1, heads / tp);
      out = out / heads * per_rank;
      break;
    }
  }
  return vector ? ShardShape{1, out} : ShardShape{out, in};
}

WeightsEstimate weights_on_gpu(const Model& model, const WeightFormat& format, const WeightPlacement& p) {
  WeightsEstimate w;
  for (const Tensor& t : model.tensors) {
    if (t.stage == TensorStage::mtp && !p.mtp) continue;
    if (t.stage == TensorStage::vision && !p.vision) continue;
    if (t.stage == TensorStage::text) {
      if (t.layer >= 0 && (t.layer < p.first_layer || t.layer >= p.end_layer)) continue;
      if (t.layer < 0) {
        const bool front = t.role == TensorRole::embedding || t.role == TensorRole::position_embedding ||
                           (model.arch.family == "bloom" && t.role == TensorRole::norm && &t == &model.tensors[1]);
        if (front ? !p.embedding : !p.head) continue;
      }
    }
    const Codec codec = codec_for(format, t, model.arch);
    const ShardShape s = shard_shape(t, model.arch, p.tensor_parallel, p.vocab_multiple);
    const Bytes b = stored_bytes(codec, s.rows, s.cols, t.count);
    w.bytes += b;
    w.params += t.elements();
    auto it = std::find_if(w.parts.begin(), w.parts.end(), [&](const auto& part) { return part.codec == codec.name; });
    if (it == w.parts.end()) {
      w.parts.push_back({codec.name, s.rows * s.cols * t.count, b});
    } else {
      it->params += s.rows * s.cols * t.count;
      it->bytes += b;
    }
  }
  std::sort(w.parts.begin(), w.parts.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  return w;
}

std::string weights_formula(const WeightsEstimate& w) {
  std::string terms;
  for (const auto& part : w.parts) {
    if (!terms.empty()) terms += " + ";
    const double bpp = part.params > 0 ? static_cast<double>(part.bytes.in_bytes()) / static_cast<double>(part.params) : 0;
    char buf[64];
    if (bpp == static_cast<double>(static_cast<std::int64_t>(bpp))) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(bpp));
    else std::snprintf(buf, sizeof buf, "%.4g", bpp);
    terms += group_thousands(part.params) + " params × " + buf + " B (" + part.codec + ")";
  }
  if (terms.empty()) terms = "0 params";
  return terms + " = " + format_exact(w.bytes) + " ≈ " + format_iec(w.bytes);
}

}  // namespace vram
