#include "vram/budget/weights.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

#include "vram/io/render.hpp"

namespace vram {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}
}  // namespace

ShardShape shard_shape(const Tensor& t, const Architecture& arch, std::int64_t tp, std::int64_t vocab_multiple) {
  const bool vector = t.rows == 1;
  std::int64_t out = vector ? t.cols : t.rows;  // output dimension
  std::int64_t in = vector ? 1 : t.cols;
  const bool vocab = t.role == TensorRole::embedding || t.role == TensorRole::lm_head ||
                     (t.role == TensorRole::bias && t.layer < 0 && out == arch.vocab);
  if (vocab && vocab_multiple > 1) out = ceil_div(out, vocab_multiple) * vocab_multiple;
  switch (t.shard) {
    case Shard::replicated: break;
    case Shard::rows: out = ceil_div(out, tp); break;
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

bool is_expert(const Tensor& t, const Architecture& arch) {
  switch (t.role) {
    case TensorRole::expert_gate:
    case TensorRole::expert_up:
    case TensorRole::expert_down: return true;
    case TensorRole::bias: return arch.experts > 1 && t.count == arch.experts;  // an expert's bias
    default: return false;
  }
}

ShardShape padded_expert_shape(const Tensor& t, ShardShape s, const WeightPlacement& p) {
  const auto up = [](std::int64_t n, std::int64_t m) { return m > 1 ? checked::mul(ceil_div(n, m), m) : n; };
  switch (t.role) {
    case TensorRole::expert_gate:
    case TensorRole::expert_up: return {up(s.rows, p.expert_intermediate_multiple), up(s.cols, p.expert_hidden_multiple)};
    case TensorRole::expert_down: return {up(s.rows, p.expert_hidden_multiple), up(s.cols, p.expert_intermediate_multiple)};
    default: return s;
  }
}

namespace {
/// Two codec objects may share a name (a GGUF base type and the same type in
/// its mix table): one part per name, largest first.
void merge_parts(std::vector<WeightsEstimate::Part>& parts) {
  for (std::size_t i = 0; i < parts.size(); ++i) {
    for (std::size_t j = i + 1; j < parts.size();) {
      if (parts[j].codec == parts[i].codec) {
        parts[i].params += parts[j].params;
        parts[i].bytes += parts[j].bytes;
        parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(j));
      } else {
        ++j;
      }
    }
  }
  // Largest first, equal sizes in their order: an insertion sort of the few parts
  // (std::stable_sort would take a heap buffer for them).
  for (std::size_t i = 1; i < parts.size(); ++i) {
    for (std::size_t j = i; j > 0 && parts[j - 1].bytes < parts[j].bytes; --j) std::swap(parts[j - 1], parts[j]);
  }
}

/// Calls `run(codec, layers)` once for each codec tensor `t` has on the layers
/// in [first, end), with the number of those layers: llama.cpp mixtures choose
/// the type of some tensors layer by layer, and an ignore list may keep one
/// layer's module in 16 bits. A tensor's bytes are linear in its layer count, so
/// a codec's layers are sized at once wherever they lie (a Q4_K_M attn_v
/// alternates types some forty times over 80 layers but has two codecs).
template <typename Run>
void for_each_codec_layers(const WeightFormat& format, const Tensor& t, const Architecture& a, std::int32_t first,
                           std::int32_t end, Run&& run) {
  const LayerCodecs codecs(format, t, a);
  if (const Codec* whole = codecs.fixed()) return run(*whole, end - first);
  std::array<std::pair<const Codec*, std::int32_t>, 8> seen{};
  std::size_t n = 0;
  for (std::int32_t i = first; i < end; ++i) {
    const Codec* c = &codecs.at(i);
    std::size_t k = 0;
    while (k < n && seen[k].first != c) ++k;
    if (k == n) {
      if (n == seen.size()) {  // more codecs than kept apart: this layer alone
        run(*c, 1);
        continue;
      }
      seen[n++] = {c, 0};
    }
    ++seen[k].second;
  }
  for (std::size_t k = 0; k < n; ++k) run(*seen[k].first, seen[k].second);
}
}  // namespace

WeightsEstimate weights_on_gpu(const Model& model, const WeightFormat& format, const WeightPlacement& p) {
  WeightsEstimate w;
  std::vector<const Codec*> codecs;  // parts are keyed by codec identity, named once
  auto add = [&](const Codec& codec, const ShardShape& s, std::int64_t count, std::int64_t elements) {
    const Bytes b = stored_bytes(codec, s.rows, s.cols, count);
    w.bytes += b;
    w.params += elements;
    std::size_t k = 0;
    while (k < codecs.size() && codecs[k] != &codec) ++k;
    if (k == codecs.size()) {
      codecs.push_back(&codec);
      w.parts.push_back({codec.name, 0, Bytes{}});
    }
    w.parts[k].params += s.rows * s.cols * count;
    w.parts[k].bytes += b;
  };
  for (const Tensor& t : model.tensors) {
    if (t.stage == TensorStage::mtp && !p.mtp) continue;
    if (t.stage == TensorStage::vision && !p.vision) continue;
    std::int32_t first = t.layer, end = t.layer + t.layers;  // layers of this entry on this GPU
    if (t.stage == TensorStage::text) {
      if (t.layer >= 0) {
        first = std::max(first, p.first_layer);
        end = std::min(end, p.end_layer);
        if (first >= end) continue;
      } else {
        const bool front = t.role == TensorRole::embedding || t.role == TensorRole::embedding_norm ||
                           t.role == TensorRole::position_embedding;
        if (front ? !p.embedding : !p.head) continue;
      }
    }
    // Expert parallelism: whole experts per rank (vLLM's determine_expert_map gives
    // rank 0 ceil(E / ep) of them), not a tensor-parallel slice of each.
    const bool expert = p.expert_parallel > 1 && is_expert(t, model.arch);
    const ShardShape s = padded_expert_shape(t, shard_shape(t, model.arch, expert ? 1 : p.tensor_parallel, p.vocab_multiple), p);
    const std::int64_t count = expert ? ceil_div(t.count, p.expert_parallel) : t.count;
    const std::int64_t per_layer = t.rows * t.cols * t.count;
    const bool varies_by_layer = t.role == TensorRole::attn_v || t.role == TensorRole::attn_o ||
                                 t.role == TensorRole::mlp_down || t.role == TensorRole::expert_down;
    const bool by_layer = (format.gguf() && varies_by_layer) || (format.keeps_per_layer() && t.quantizable);
    if (by_layer && end - first > 1) {
      // The layers of one type are sized at once (stored_bytes is linear in count).
      for_each_codec_layers(format, t, model.arch, first, end,
                         [&](const Codec& c, std::int32_t n) { add(c, s, count * n, per_layer * n); });
    } else {
      const std::int64_t n = t.layer >= 0 ? end - first : 1;
      add(codec_for(format, t, model.arch), s, count * n, per_layer * n);
    }
  }
  merge_parts(w.parts);
  return w;
}

bool operator==(const WeightPlacement& a, const WeightPlacement& b) {
  return a.tensor_parallel == b.tensor_parallel && a.first_layer == b.first_layer && a.end_layer == b.end_layer &&
         a.embedding == b.embedding && a.head == b.head && a.vision == b.vision && a.mtp == b.mtp &&
         a.vocab_multiple == b.vocab_multiple && a.expert_parallel == b.expert_parallel &&
         a.expert_intermediate_multiple == b.expert_intermediate_multiple &&
         a.expert_hidden_multiple == b.expert_hidden_multiple;
}

const WeightsEstimate& WeightsMemo::get(const Model& model, const WeightFormat& format, const WeightPlacement& p) {
  if (model_ != &model || format_ != &format) {
    entries_.clear();
    model_ = &model;
    format_ = &format;
  }
  for (const auto& [placement, estimate] : entries_) {
    if (placement == p) return estimate;
  }
  entries_.emplace_back(p, weights_on_gpu(model, format, p));
  return entries_.back().second;
}

WeightsEstimate weights_for(const Model& model, const WeightFormat& format, const WeightPlacement& p,
                            WeightsMemo* memo) {
  return memo ? memo->get(model, format, p) : weights_on_gpu(model, format, p);
}

namespace {
Term codec_term(const WeightsEstimate::Part& part) {
  if (part.params > 0 && part.bytes.in_bytes() % part.params == 0) {
    return Term::product({Factor::of(part.params, "params"), Factor::bytes(part.bytes.in_bytes() / part.params, part.codec)});
  }
  const double per_param =
      part.params > 0 ? static_cast<double>(part.bytes.in_bytes()) / static_cast<double>(part.params) : 0;
  return Term::shown_as(part.bytes, {Factor::of(part.params, "params"), Factor::real(per_param, "B", part.codec)});
}
}  // namespace

Term weights_term(const WeightsEstimate& w) {
  if (w.parts.empty()) return Term::product({Factor::of(0, "params")});
  if (w.parts.size() == 1) return codec_term(w.parts.front());
  Terms parts;
  parts.reserve(w.parts.size());
  for (const auto& part : w.parts) parts.push_back(codec_term(part));
  return Term::sum(std::move(parts));
}

std::string weights_formula(const WeightsEstimate& w) {
  return io::render(weights_term(w));
}

}  // namespace vram
