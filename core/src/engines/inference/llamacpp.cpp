#include "vram/engines/llamacpp.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "vram/budget/kv_cache.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/formats.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/render.hpp"

namespace vram::llamacpp {

namespace {

constexpr const char* kSource = "ggml-org/llama.cpp src/llama-model.cpp, src/llama-kv-cache.cpp, src/llama-context.cpp";
constexpr const char* kSplitSource =
    "ggml-org/llama.cpp @ 00342301d01a: src/llama-model.cpp llama_model::load_tensors (split points from "
    "tensor_split, layer il on GPU upper_bound(splits, (il − i_gpu_start) / act_gpu_layers), the output layer as slot "
    "n_layer, token_embd on the CPU), src/llama-kv-cache.cpp (each layer's K and V on its layer's device), "
    "ggml/src/ggml-cuda/ggml-cuda.cu (split buffer rows for --split-mode row); row mode keeps KV and non-matrix "
    "weights split by layer (PR #10026)";

bool is_bare(const Architecture& a) {
  return a.family == Family::bare;
}

const char* to_string(LlamaSplitMode m) {
  switch (m) {
    case LlamaSplitMode::none: return "none";
    case LlamaSplitMode::layer: return "layer";
    case LlamaSplitMode::row: return "row";
  }
  return "layer";
}

}  // namespace

std::int64_t kv_cells(std::int64_t context, std::int64_t n_seq_max) {
  return checked::round_up(checked::mul(context, n_seq_max), 256);
}

KvStreams kv_streams(std::int64_t context, std::int64_t n_seq_max, bool unified) {
  const std::int64_t n_ctx = kv_cells(context, n_seq_max);
  if (unified || n_seq_max <= 1) return {n_ctx, 1};
  return {checked::round_up(n_ctx / n_seq_max, 256), n_seq_max};
}

Bytes pipeline_copies_bytes(const Architecture& a, std::int64_t n_kv, std::int64_t n_ubatch) {
  // ggml-backend.cpp ggml_backend_sched: n_copies = GGML_SCHED_MAX_COPIES (4) when pipelining; one copy is
  // already in compute_buffer_bytes.
  const std::int64_t extra_copies = 4 - 1;
  const Bytes mask = Bytes::product(n_kv, checked::round_up(n_ubatch, 64), 4);
  const Bytes hidden = Bytes::product(n_ubatch, a.hidden, 4);
  return (mask + hidden) * extra_copies;
}

namespace {

/// Whole layers [first, end) (and the output layer when `head`) of the text model; token_embd never.
WeightsEstimate layer_weights(const Scenario& s, std::int64_t first, std::int64_t end, bool head, WeightsMemo* memo) {
  WeightPlacement p;
  p.first_layer = static_cast<std::int32_t>(first);
  p.end_layer = static_cast<std::int32_t>(std::max(first, end));
  p.embedding = false;  // token_embd is always kept in host memory
  p.head = head;
  p.vision = false;  // a multimodal projector is a separate file (mmproj)
  return weights_for(*s.model, s.weights, p, memo);
}

/// Adds `params` elements stored as `codec` to `w`, one part per codec name.
void add_part(WeightsEstimate& w, const Codec& codec, std::int64_t params, Bytes bytes) {
  w.bytes += bytes;
  w.params += params;
  const auto it = std::find_if(w.parts.begin(), w.parts.end(), [&](const auto& p) { return p.codec == codec.name; });
  if (it == w.parts.end()) {
    w.parts.push_back({codec.name, params, bytes});
  } else {
    it->params += params;
    it->bytes += bytes;
  }
}

/// 2D weights that run as a plain matrix product: the CUDA split buffer takes only those
/// (ggml-cuda.cu supports_op: GGML_OP_MUL_MAT with ne[2] = ne[3] = 1; stacked experts run as MUL_MAT_ID).
bool row_splittable(const Tensor& t) {
  if (t.rows <= 1 || t.count != 1) return false;
  switch (t.role) {
    case TensorRole::attn_q:
    case TensorRole::attn_k:
    case TensorRole::attn_v:
    case TensorRole::attn_qkv:
    case TensorRole::attn_o:
    case TensorRole::mla_q_a:
    case TensorRole::mla_q_b:
    case TensorRole::mla_kv_a:
    case TensorRole::mla_kv_b:
    case TensorRole::mlp_gate:
    case TensorRole::mlp_up:
    case TensorRole::mlp_down:
    case TensorRole::router:
    case TensorRole::ssm_in:
    case TensorRole::ssm_x:
    case TensorRole::ssm_out:
    case TensorRole::lm_head: return true;
    default: return false;
  }
}

/// --split-mode row: every row-splittable 2D weight of an offloaded layer is cut into row slices over all
/// GPUs (by tensor_split); the rest of the layer stays on its layer's GPU. A matrix whose slice on its own
/// layer's GPU would be empty is not split (ggml-cuda.cu supports_op: row_low == row_high).
void add_row_split_weights(const Scenario& s, Placement& p) {
  const Model& m = *s.model;
  const std::vector<float> starts = parallel::row_split_starts(p.proportions);
  const std::int64_t rounding = parallel::row_rounding(s.gpu.compute_capability);
  auto put = [&](const Tensor& one, int dev) {
    const Codec& codec = codec_for(s.weights, one, m.arch);
    const auto own = static_cast<std::size_t>(dev);  // row mode lists every GPU: position = GPU index
    if (row_splittable(one) && parallel::row_range(one.rows, starts, own, rounding).rows() > 0) {
      for (std::size_t g = 0; g < starts.size(); ++g) {
        const std::int64_t rows = parallel::row_range(one.rows, starts, g, rounding).rows();
        if (rows > 0) add_part(p.gpus[g].weights, codec, rows * one.cols, stored_bytes(codec, rows, one.cols));
      }
      return;
    }
    add_part(p.gpus[own].weights, codec, one.rows * one.cols * one.count,
             stored_bytes(codec, one.rows, one.cols, one.count));
  };
  for (const Tensor& t : m.tensors) {
    if (t.stage != TensorStage::text) continue;
    if (t.layer < 0) {
      const bool front = t.role == TensorRole::embedding || t.role == TensorRole::embedding_norm ||
                         t.role == TensorRole::position_embedding;
      if (!front && p.map.output_device != parallel::kHost) put(t, p.map.output_device);
      continue;
    }
    for (std::int64_t i = t.layer; i < t.layer + t.layers && i < p.n_layer; ++i) {
      const int dev = p.map.layer_device[static_cast<std::size_t>(i)];
      if (dev == parallel::kHost) continue;
      Tensor one = t;
      one.layer = static_cast<std::int32_t>(i);
      one.layers = 1;
      put(one, dev);
    }
  }
  for (GpuShare& g : p.gpus) {
    std::stable_sort(g.weights.parts.begin(), g.weights.parts.end(),
                     [](const auto& x, const auto& y) { return x.bytes > y.bytes; });
  }
}

/// llama.cpp's device list and the proportions it splits by.
void choose_devices(const Scenario& s, Placement& p) {
  const LlamaCppSettings& lc = s.inference().llama_cpp;
  const std::int64_t count = std::max<std::int64_t>(s.gpu_count, 1);
  p.mode = lc.split_mode;
  p.gpus.assign(static_cast<std::size_t>(count), GpuShare{});
  if (p.mode == LlamaSplitMode::none || count == 1) {
    // src/llama.cpp: split mode none keeps only devices[main_gpu].
    p.devices = {static_cast<int>(std::clamp<std::int64_t>(lc.main_gpu, 0, count - 1))};
    p.proportions = {1.0};
  } else {
    p.devices.resize(static_cast<std::size_t>(count));
    std::iota(p.devices.begin(), p.devices.end(), 0);
    // Default: by free memory, which is the same on identical GPUs.
    p.proportions =
        lc.tensor_split.size() == p.devices.size() ? lc.tensor_split : std::vector<double>(p.devices.size(), 1.0);
  }
  for (int d : p.devices) p.gpus[static_cast<std::size_t>(d)].used = true;
}

/// The layer map over hardware GPU indices.
void map_layers(const Scenario& s, Placement& p) {
  const std::int64_t ngl = s.inference().llama_cpp.n_gpu_layers;
  p.n_gpu_layers = ngl < 0 ? p.n_layer + 1 : std::min(ngl, p.n_layer + 1);
  p.map = parallel::assign_layers(p.n_layer, ngl, parallel::split_points(p.proportions));
  auto hw = [&](int d) { return d == parallel::kHost ? d : p.devices[static_cast<std::size_t>(d)]; };
  for (int& d : p.map.layer_device) d = hw(d);
  p.map.output_device = hw(p.map.output_device);
  for (std::size_t g = 0; g < p.gpus.size(); ++g) {
    const auto [first, end] = p.map.range(static_cast<int>(g));
    p.gpus[g].first_layer = first;
    p.gpus[g].end_layer = end;
    p.gpus[g].output = p.map.output_device == static_cast<int>(g);
  }
}

/// The context each GPU holds before any buffer: the driver's (llama.cpp talks
/// to the other GPUs by peer copies, no NCCL communicator).
Term llama_context(const Scenario& s) {
  return engine_context_term(s.gpu.compute_capability, s.gpu.sm_count, s.gpu.rocm_arch, false);
}

/// A bare parameter count has no layers: each GPU takes its tensor_split share of the weights.
void place_bare(const Scenario& s, Placement& p, WeightsMemo* memo) {
  const WeightsEstimate all = weights_for(*s.model, s.weights, WeightPlacement{}, memo);
  const double sum = std::accumulate(p.proportions.begin(), p.proportions.end(), 0.0);
  for (std::size_t k = 0; k < p.devices.size(); ++k) {
    GpuShare& g = p.gpus[static_cast<std::size_t>(p.devices[k])];
    g.weights = all;
    if (p.devices.size() > 1) {
      const double share = sum > 0 ? p.proportions[k] / sum : 0.0;
      g.weights.bytes = scale_floor(all.bytes, share);
      g.weights.params = static_cast<std::int64_t>(static_cast<double>(all.params) * share);
      for (auto& part : g.weights.parts) {
        part.bytes = scale_floor(part.bytes, share);
        part.params = static_cast<std::int64_t>(static_cast<double>(part.params) * share);
      }
    }
    g.context = p.context.bytes;
  }
}

/// Weights, KV, compute buffer and CUDA context of every GPU llama.cpp uses.
void fill_gpus(const Scenario& s, Placement& p, WeightsMemo* memo) {
  const Architecture& a = s.model->arch;
  const LlamaCppSettings& lc = s.inference().llama_cpp;
  if (p.mode == LlamaSplitMode::row && p.devices.size() > 1) add_row_split_weights(s, p);
  bool any_layer = false;
  // The compute buffer depends on whether the GPU holds the output layer only; the context on nothing.
  std::optional<Bytes> compute[2];
  const Bytes context = p.context.bytes;
  for (GpuShare& g : p.gpus) {
    if (!g.used) continue;
    const bool holds = g.end_layer > g.first_layer || g.output;
    if (holds && !(p.mode == LlamaSplitMode::row && p.devices.size() > 1))
      g.weights = layer_weights(s, g.first_layer, g.end_layer, g.output, memo);
    g.kv = kv_range_bytes(a, s.inference(), p.kv, g.first_layer, g.end_layer);
    if (holds) {
      std::optional<Bytes>& c = compute[g.output ? 1 : 0];
      if (!c) c = compute_buffer_bytes(a, p.kv.cells, lc.n_ubatch, lc.flash_attn, g.output, p.kv.streams, p.mask);
      g.compute = *c;
    }
    g.context = context;
    any_layer = any_layer || holds;
  }
  // With no layer offloaded the first GPU still reserves a compute buffer (llama-context.cpp graph reserve).
  if (!any_layer) {
    p.gpus[static_cast<std::size_t>(p.devices.front())].compute =
        compute_buffer_bytes(a, p.kv.cells, lc.n_ubatch, lc.flash_attn, false, p.kv.streams, p.mask);
  }
}

}  // namespace

Placement place(const Scenario& s, WeightsMemo* memo) {
  const Architecture& a = s.model->arch;
  const InferenceSettings& inf = s.inference();
  Placement p;
  p.context = llama_context(s);
  choose_devices(s, p);
  p.kv = kv_streams(inf.context, inf.llama_cpp.n_seq_max, inf.llama_cpp.kv_unified);
  p.cells = p.kv.total();
  p.mask = mask_layout(inf.llama_cpp.build, inf.llama_cpp.flash_attn);
  if (is_bare(a)) {
    place_bare(s, p, memo);
    p.n_gpu_layers = 0;
  } else {
    p.n_layer = std::max<std::int64_t>(a.layers, 1);
    map_layers(s, p);
    fill_gpus(s, p, memo);
    const bool host_output = p.map.output_device == parallel::kHost;
    WeightPlacement hp;
    hp.first_layer = 0;
    hp.end_layer = static_cast<std::int32_t>(p.map.first_gpu_layer);
    hp.head = host_output;
    hp.vision = false;
    p.host_weights = weights_for(*s.model, s.weights, hp, memo).bytes;
    p.host_kv = kv_range_bytes(a, inf, p.kv, 0, p.map.first_gpu_layer);
    // llama-context.cpp: pipeline parallelism with > 1 device, every layer and the output offloaded,
    // split mode layer (and KV offloaded, the default).
    p.pipeline = p.devices.size() > 1 && p.mode == LlamaSplitMode::layer && p.n_gpu_layers > p.n_layer;
  }
  for (std::size_t g = 0; g < p.gpus.size(); ++g) {
    if (p.gpus[g].used && p.gpus[g].total() > p.gpus[p.heaviest].total()) p.heaviest = g;
  }
  if (!p.gpus[p.heaviest].used) p.heaviest = static_cast<std::size_t>(p.devices.front());
  return p;
}

namespace {

/// The nominal bits per weight of a GGUF type stored as whole blocks (Q4_K: 144 B per 256 = 4.5 bits).
double nominal_bits(const Codec& c) {
  return c.group > 0 ? static_cast<double>(c.block_bits) / static_cast<double>(c.group) : 0.0;
}

/// A term placed on the fullest GPU: its note says where.
Term placed(Term t, const Placement& p) {
  const Location loc = location(p, p.heaviest);
  return std::move(t).noted(loc.note, loc.args);
}

/// The weights of the fullest GPU. A bare count has no layers: each GPU takes
/// its tensor_split share of the whole (`all`, which must outlive the term:
/// its factors name the codecs it holds).
Term weights_on_gpu(const Scenario& s, const Placement& p, const WeightsEstimate& all) {
  if (!is_bare(s.model->arch)) return placed(weights_term(p.gpus[p.heaviest].weights), p);
  Term whole = weights_term(all);
  if (p.devices.size() < 2) return whole;
  const double sum = std::accumulate(p.proportions.begin(), p.proportions.end(), 0.0);
  const auto k = static_cast<std::size_t>(
      std::find(p.devices.begin(), p.devices.end(), static_cast<int>(p.heaviest)) - p.devices.begin());
  const Factor share = Factor::real(sum > 0 ? p.proportions[k] / sum : 0.0, "tensor_split share of GPU {}")
                           .with(static_cast<std::int64_t>(p.heaviest));
  return Term::product(terms(std::move(whole)), {share}, Rounding::floor);
}

void add_weights(const Scenario& s, const Placement& p, Report& r, WeightsMemo* memo) {
  const bool one = p.devices.size() < 2;
  const bool bare = is_bare(s.model->arch);
  const WeightsEstimate all = bare ? weights_for(*s.model, s.weights, WeightPlacement{}, memo) : WeightsEstimate{};
  Term w = weights_on_gpu(s, p, all).cite(s.weights.source);
  if (!bare) w.what = "model buffer (token_embd stays in host memory)";
  r.add(io::component("weights", one ? "Model weights (CUDA0 model buffer)" : "Model weights (model buffer of the fullest GPU)",
                      w, r.explain, one ? std::string_view{} : kSplitSource));
}

void add_kv(const Scenario& s, const Placement& p, Report& r) {
  const GpuShare& g = p.gpus[p.heaviest];
  Term kv = kv_range_term(s.model->arch, s.inference(), p.kv, g.first_layer, g.end_layer).shown_in(kMiB);
  r.add(io::component("kv_cache", "KV cache", placed(std::move(kv), p), r.explain));
}

constexpr std::string_view kSplitComputeSource =
    "under a split (rule, not measured per GPU): ggml-backend.cpp ggml_backend_sched gives every GPU its own "
    "compute buffer, the graph allocator's peak over the layers it runs, one layer's attention at a time, so each "
    "GPU holding layers needs the single-GPU figure and the output GPU adds the logits; the row-split slices of the "
    "other GPUs come from the CUDA memory pool and are not counted. When the scheduler pipelines micro-batches it "
    "keeps GGML_SCHED_MAX_COPIES = 4 copies of each GPU's inputs: up to 3 × (KQ mask + n_ubatch × n_embd × 4 B) "
    "more per GPU, not included (the one published two-device log, over RPC, shows none)";

void add_compute(const Scenario& s, const Placement& p, Report& r) {
  const LlamaCppSettings& lc = s.inference().llama_cpp;
  const GpuShare& g = p.gpus[p.heaviest];
  const bool holds = g.end_layer > g.first_layer || g.output;
  Term c =
      compute_buffer_term(s.model->arch, p.kv.cells, lc.n_ubatch, lc.flash_attn, holds && g.output, p.kv.streams, p.mask)
          .shown_in(kMiB);
  if (c.bytes != g.compute) c = Term::given(g.compute).named("compute buffer");
  r.add(io::component("activations", "Compute buffer", placed(std::move(c), p), r.explain,
                      p.devices.size() < 2 ? std::string_view{} : kSplitComputeSource));
}

}  // namespace

namespace {

/// One GPU of the "split" detail.
std::string gpu_json(const GpuShare& g, std::size_t index) {
  io::ObjectText o;
  o.set("gpu", static_cast<std::int64_t>(index)).set("used", g.used);
  o.set("layers", io::render_layers(g.first_layer, g.end_layer, g.output));
  o.set("first_layer", g.first_layer).set("end_layer", g.end_layer).set("n_layers", g.end_layer - g.first_layer);
  o.set("output", g.output).set("weights_bytes", g.weights.bytes.in_bytes()).set("kv_bytes", g.kv.in_bytes());
  o.set("compute_bytes", g.compute.in_bytes()).set("context_bytes", g.context.in_bytes());
  return o.set("total_bytes", g.total().in_bytes()).str();
}

/// The split in one line (io::render_layer_split).
std::string split_formula(const Placement& p) {
  std::vector<io::SplitShare> gpus;
  gpus.reserve(p.gpus.size());
  for (const GpuShare& x : p.gpus) gpus.push_back({x.used, x.first_layer, x.end_layer, x.output, x.total()});
  return io::render_layer_split(gpus, p.map.first_gpu_layer,
                                p.map.output_device == parallel::kHost && !p.map.layer_device.empty(), p.host_total());
}

void add_split_detail(const Scenario& s, const Placement& p, Report& r) {
  io::JsonWriter w;
  w.begin_array();
  for (std::size_t g = 0; g < p.gpus.size(); ++g) w.raw(gpu_json(p.gpus[g], g));
  w.end_array();
  io::JsonWriter ws;
  ws.begin_array();
  for (double x : p.proportions) ws.value(x);
  ws.end_array();
  io::ObjectText d;
  d.set("split_mode", to_string(p.mode)).set("main_gpu", s.inference().llama_cpp.main_gpu);
  d.set_raw("tensor_split", ws.view()).set("heaviest", static_cast<std::int64_t>(p.heaviest));
  d.set("n_layer", p.n_layer).set("n_gpu_layers", p.n_gpu_layers).set("first_gpu_layer", p.map.first_gpu_layer);
  d.set_raw("gpus", w.view());
  d.set("host_weights_bytes", p.host_weights.in_bytes()).set("host_kv_bytes", p.host_kv.in_bytes());
  d.set("host_bytes", p.host_total().in_bytes()).set("pipeline_parallel", p.pipeline);
  const Architecture& a = s.model->arch;
  const Bytes copies = p.pipeline ? pipeline_copies_bytes(a, p.cells, s.inference().llama_cpp.n_ubatch) : Bytes{};
  d.set("pipeline_copies_bytes", copies.in_bytes());
  if (!is_bare(a)) d.set("layers_formula", split_formula(p));
  d.set("source", kSplitSource);
  r.detail("split", d.str());
}

void add_warnings(const Scenario& s, const Placement& p, Report& r) {
  const Architecture& a = s.model->arch;
  const LlamaCppSettings& lc = s.inference().llama_cpp;
  if (p.map.first_gpu_layer > 0) {
    r.warnings.push_back(std::to_string(p.map.first_gpu_layer) + " layers stay on the CPU (n_gpu_layers " +
                         std::to_string(lc.n_gpu_layers) + "): they need " + format_iec(p.host_total()) +
                         " of host memory with token_embd and run far slower");
  }
  if (p.pipeline) {
    r.warnings.push_back(
        "llama.cpp pipelines micro-batches over the " + std::to_string(p.devices.size()) +
        " GPUs (every layer offloaded, split_mode layer): ggml's scheduler then keeps 4 copies of each GPU's "
        "inputs, up to " +
        format_iec(pipeline_copies_bytes(a, p.cells, lc.n_ubatch)) + " per GPU beyond this estimate");
  }
  if (is_bare(a) && s.weights.gguf()) {
    r.warnings.push_back("a bare parameter count with " + s.weights.name + ": every weight is counted at " +
                         format_decimal(nominal_bits(s.weights.linear), 4) +
                         " bits, the nominal size of the base type " + s.weights.linear.name +
                         "; the mixture's larger types (attn_v, ffn_down, output) need the architecture, so this is a "
                         "lower bound: give a catalog id or the config.json for the per-tensor recipe");
  }
  if (is_bare(a) && p.devices.size() > 1) {
    r.warnings.push_back(
        "a bare parameter count has no layers: each GPU is given its tensor_split share of the "
        "weights, with no KV cache or compute buffer");
  }
}

}  // namespace

void account(const Scenario& s, Report& r, WeightsMemo* memo) {
  const Architecture& a = s.model->arch;
  if (a.family == Family::minimax) {
    // src/llama-arch.cpp knows no lightning attention layer (no MiniMax-Text-01 / M1 architecture).
    throw InputError("/inference/engine", "llama.cpp has no lightning attention (model_type \"" + a.model_type +
                                              "\", MiniMax-Text-01 / M1): allowed engines for it: vllm, transformers");
  }
  const Placement p = place(s, memo);
  const GpuShare& g = p.gpus[p.heaviest];
  add_weights(s, p, r, memo);
  if (!is_bare(a)) {
    add_kv(s, p, r);
    add_compute(s, p, r);
  }
  r.add(io::cuda_context_component(p.context, r.explain));

  r.metric("weights_bytes", static_cast<double>(g.weights.bytes.in_bytes()));
  if (!is_bare(a)) {
    r.metric("kv_bytes_per_token", static_cast<double>(kv_bytes_per_token(a, s.inference().kv, 1).in_bytes()));
    r.metric("kv_cache_bytes", static_cast<double>(g.kv.in_bytes()));
    r.metric("kv_capacity_tokens", static_cast<double>(p.cells));
    r.metric("activation_bytes", static_cast<double>(g.compute.in_bytes()));
  }
  if (!r.explain) return;
  const LlamaCppSettings& lc = s.inference().llama_cpp;
  io::ObjectText e;
  e.set("engine", "llama.cpp");
  e.set("n_gpu_layers", p.n_gpu_layers);
  e.set("n_ctx", p.cells);
  e.set("n_ubatch", lc.n_ubatch);
  e.set("flash_attn", lc.flash_attn);
  e.set("split_mode", to_string(p.mode));
  e.set("source", kSource);
  r.detail("engine", e.str());
  add_split_detail(s, p, r);
  add_warnings(s, p, r);
}

}  // namespace vram::llamacpp
