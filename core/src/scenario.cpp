#include "vram/scenario.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"

namespace vram {

using io::join_path;
using nlohmann::json;

const char* to_string(Workload w) {
  switch (w) {
    case Workload::inference: return "inference";
    case Workload::training: return "training";
    case Workload::image: return "image";
    case Workload::video: return "video";
  }
  return "inference";
}

const char* to_string(Engine e) {
  switch (e) {
    case Engine::vllm: return "vllm";
    case Engine::llama_cpp: return "llama.cpp";
    case Engine::transformers: return "transformers";
  }
  return "vllm";
}

namespace {

/// `obj[key]`, or an empty object when absent (read without copying).
const json& member_or_empty(const json& obj, const char* key) {
  static const json empty = json::object();  // immutable
  const auto it = obj.find(key);
  return it != obj.end() ? *it : empty;
}

// The GPU a scenario gets when it names none: the most common serving GPU.
constexpr const char* kDefaultGpu = "H100-SXM-80GB";

KvDtype kv_dtype(const std::string& name, const std::string& native_activation) {
  if (name == "fp16" || name == "f16") return {"fp16", 1, 2};
  if (name == "bf16") return {"bf16", 1, 2};
  if (name == "fp32" || name == "f32") return {"fp32", 1, 4};
  if (name == "fp8" || name == "fp8_e4m3" || name == "fp8_e5m2") return {"fp8", 1, 1};
  if (name == "q8_0") return {"q8_0", 32, 34};  // ggml block_q8_0
  if (name == "q4_0") return {"q4_0", 32, 18};  // ggml block_q4_0
  if (name == "auto") return kv_dtype(native_activation, native_activation);
  return {"", 0, 0};
}

void parse_model_ref(const json& s, const Catalog& catalog, Scenario& out) {
  const auto it = s.find("model");
  if (it == s.end()) {
    throw InputError(
        "/model",
        "is required: a catalog id (e.g. \"meta-llama/Llama-3.1-8B\"), {\"params\": N} or {\"config\": {...}}");
  }
  const json& m = *it;
  if (m.is_string()) {
    const std::string id = m.get<std::string>();
    const CatalogModel* cm = catalog.find_model(id);
    if (cm == nullptr) {
      std::string near;
      for (const auto& c : catalog.models()) {
        const auto slash = c.id.find('/');
        const std::string tail = c.id.substr(slash + 1);
        if (id.find(tail) != std::string::npos || tail.find(id) != std::string::npos)
          near += (near.empty() ? "" : ", ") + c.id;
      }
      throw InputError("/model",
                       "unknown catalog id \"" + id + "\"" + (near.empty() ? "" : "; close: " + near) +
                           "; list ids with `vram-budget models`, or give {\"config\": {...}} or {\"params\": N}");
    }
    out.model = cm->shared;
    out.model_ref = cm->id;
    return;
  }
  if (!m.is_object()) {
    throw InputError("/model", "must be a catalog id string, {\"params\": N} or {\"config\": {...}}; got " +
                                   std::string(m.type_name()));
  }
  io::warn_unknown_keys(m, "/model", {"params", "config", "weights_bytes", "weights_by_dtype", "id"}, out.warnings);
  if (m.contains("params") && m.contains("config")) {
    throw InputError("/model", "give either params or config, not both");
  }
  if (m.contains("params")) {
    const std::int64_t n = io::require_int(m, "params", "/model", {1, 100'000'000'000'000});
    out.model = std::make_shared<const Model>(model_from_param_count(n));
    out.model_ref = group_thousands(n) + " parameters";
    out.warnings.push_back(
        "a bare parameter count has no architecture: only the weights and the engine's fixed terms are "
        "estimated, not the KV cache or activations; give a catalog id or the config.json for those");
  } else if (m.contains("config")) {
    out.model = std::make_shared<const Model>(model_from_config(m.at("config"), "/model/config", "config.json"));
    out.model_ref = io::optional_string(m, "id", "/model").value_or("pasted config.json");
  } else {
    throw InputError("/model", "needs params (a parameter count) or config (a Hugging Face config.json)");
  }
  if (m.contains("weights_bytes") && m.contains("weights_by_dtype")) {
    throw InputError("/model", "give either weights_bytes or weights_by_dtype, not both");
  }
  if (auto wb = io::optional_int(m, "weights_bytes", "/model")) out.weights_bytes_given = Bytes::of(*wb);
  if (auto wd = m.find("weights_by_dtype"); wd != m.end()) {
    if (!wd->is_object()) {
      throw InputError("/model/weights_by_dtype", "must be an object such as {\"BF16\": N, \"F8_E4M3\": N}");
    }
    Bytes total;  // parameter counts per safetensors dtype, as the Hub lists them
    for (auto e = wd->begin(); e != wd->end(); ++e) {
      const std::int64_t n = io::require_int(*wd, e.key(), "/model/weights_by_dtype", {0, io::kAbsurd});
      total += Bytes::of(n * safetensors_dtype_bytes(e.key(), join_path("/model/weights_by_dtype", e.key())));
    }
    out.weights_bytes_given = total;
  }
}

void parse_hardware(const json& s, const Catalog& catalog, Scenario& out) {
  const json& hw = member_or_empty(s, "hardware");
  io::require_object(hw, "/hardware", "hardware");
  io::warn_unknown_keys(hw, "/hardware", {"gpu", "count"}, out.warnings);
  out.gpu_count = io::optional_int(hw, "count", "/hardware", {1, 4096}).value_or(1);
  const auto g = hw.find("gpu");
  if (g == hw.end() || g->is_null()) {
    const Gpu* def = catalog.find_gpu(kDefaultGpu);
    if (def == nullptr) throw InputError("/hardware/gpu", "is required (the catalog has no default GPU)");
    out.gpu = {def->id, def->name, def->memory, def->price_usd_per_hour, def->compute_capability, def->sm_count};
    out.defaults_used.push_back(std::string("hardware.gpu = ") + kDefaultGpu);
    return;
  }
  if (g->is_string()) {
    const Gpu* gpu = catalog.find_gpu(g->get<std::string>());
    if (gpu == nullptr) {
      std::string ids;
      for (const auto& c : catalog.gpus()) ids += (ids.empty() ? "" : ", ") + c.id;
      throw InputError("/hardware/gpu", "unknown GPU id \"" + g->get<std::string>() + "\"; allowed: " + ids +
                                            ", or {\"name\": ..., \"memory_bytes\": N}");
    }
    out.gpu = {gpu->id, gpu->name, gpu->memory, gpu->price_usd_per_hour, gpu->compute_capability, gpu->sm_count};
    return;
  }
  if (!g->is_object()) throw InputError("/hardware/gpu", "must be a catalog id or {\"name\", \"memory_bytes\"}");
  io::warn_unknown_keys(*g, "/hardware/gpu", {"name", "memory_bytes", "price_usd_per_hour"}, out.warnings);
  out.gpu.id = "custom";
  out.gpu.name = io::optional_string(*g, "name", "/hardware/gpu").value_or("custom GPU");
  // 1 GiB to 64 TiB: anything outside is a typo (a GB count, or bits).
  out.gpu.memory =
      Bytes::of(io::require_int(*g, "memory_bytes", "/hardware/gpu", {std::int64_t{1} << 30, std::int64_t{1} << 46}));
  out.gpu.price_usd_per_hour = io::optional_number(*g, "price_usd_per_hour", "/hardware/gpu", 0, 1e6);
}

void parse_inference(const json& s, Scenario& out) {
  const json& inf = member_or_empty(s, "inference");
  const std::string p = "/inference";
  io::require_object(inf, p, "inference");
  io::warn_unknown_keys(inf, p,
                        {"engine", "context", "concurrency", "kv_cache_dtype", "tensor_parallel", "pipeline_parallel",
                         "vllm", "llama_cpp", "transformers"},
                        out.warnings);
  InferenceSettings& st = out.inference;
  const auto engine = io::optional_choice(inf, "engine", p, {"vllm", "llama.cpp", "transformers"});
  if (!engine) out.defaults_used.push_back("inference.engine = vllm");
  st.engine =
      !engine || *engine == "vllm" ? Engine::vllm : (*engine == "llama.cpp" ? Engine::llama_cpp : Engine::transformers);

  const Architecture& a = out.model->arch;
  const bool bare = a.family == "bare";
  // The engines' own names for the context: vLLM max_model_len, llama.cpp n_ctx
  // (all cells, shared by n_seq_max sequences). They must agree with `context`.
  std::optional<std::int64_t> ctx = io::optional_int(inf, "context", p, {1, 100'000'000});
  const json& vllm_block = member_or_empty(inf, "vllm");
  const json& llama_block = member_or_empty(inf, "llama_cpp");
  if (vllm_block.is_object()) {
    if (auto mml = io::optional_int(vllm_block, "max_model_len", p + "/vllm", {1, 100'000'000})) {
      if (ctx && *ctx != *mml) {
        throw InputError(p + "/vllm/max_model_len", "is " + group_thousands(*mml) + " but /inference/context is " +
                                                        group_thousands(*ctx) + "; give one, or the same value");
      }
      ctx = mml;
    }
  }
  if (llama_block.is_object()) {
    if (auto n_ctx = io::optional_int(llama_block, "n_ctx", p + "/llama_cpp", {1, 100'000'000})) {
      const std::int64_t seqs = io::optional_int(llama_block, "n_seq_max", p + "/llama_cpp", {1, 100'000})
                                    .value_or(io::optional_int(inf, "concurrency", p, {1, 1'000'000}).value_or(1));
      const std::int64_t per_seq = (*n_ctx + seqs - 1) / seqs;
      if (ctx && *ctx != per_seq) {
        throw InputError(p + "/llama_cpp/n_ctx", "is " + group_thousands(*n_ctx) + " cells for " +
                                                     std::to_string(seqs) + " sequences (" + group_thousands(per_seq) +
                                                     " each) but /inference/context is " + group_thousands(*ctx) +
                                                     " per sequence; give one, or matching values");
      }
      ctx = per_seq;
    }
  }
  if (ctx) {
    st.context = *ctx;
    if (a.max_positions > 0 && *ctx > a.max_positions) {
      out.warnings.push_back("inference.context " + group_thousands(*ctx) + " exceeds the model's maximum (" +
                             group_thousands(a.max_positions) +
                             " max_position_embeddings); vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, and "
                             "quality past the trained length is not assured");
    }
  } else if (!bare) {
    if (a.max_positions > 0) {
      st.context = a.max_positions;
      out.defaults_used.push_back("inference.context = " + std::to_string(a.max_positions) + " (model max)");
    } else {
      st.context = 2048;
      out.defaults_used.push_back("inference.context = 2048 (the config states no maximum)");
    }
  }
  st.concurrency = io::optional_int(inf, "concurrency", p, {1, 1'000'000}).value_or(1);
  // Keep every byte product far from 64-bit overflow: 10^11 live tokens is far
  // beyond any GPU set (a trillion-byte KV cache at 10 B per token).
  if (static_cast<double>(st.context) * static_cast<double>(st.concurrency) > 1e11) {
    throw InputError(p + "/concurrency",
                     "context × concurrency = " + group_thousands(st.context) + " × " +
                         group_thousands(st.concurrency) +
                         " tokens is beyond any GPU set; the product may be at most 100,000,000,000");
  }

  // Activation dtype: the weights' dtype when they are plain floats, else the model's 16-bit dtype.
  std::string act =
      out.weights.quantized() ? (a.native_dtype == "fp32" ? "bf16" : a.native_dtype) : out.weights.linear.name;
  if (out.weights.gguf) act = "fp16";
  if (act != "fp32" && act != "fp16" && act != "bf16") act = "bf16";
  std::string kvname = io::optional_string(inf, "kv_cache_dtype", p).value_or("");
  if (kvname.empty()) {
    kvname = st.engine == Engine::llama_cpp ? "fp16" : "auto";
    out.defaults_used.push_back("inference.kv_cache_dtype = " + kvname);
  }
  st.kv = kv_dtype(kvname, act);
  if (st.kv.name.empty()) {
    throw InputError(p + "/kv_cache_dtype",
                     "unknown KV cache dtype \"" + kvname + "\"; allowed: auto, fp16, bf16, fp32, fp8, q8_0, q4_0");
  }
  if ((st.kv.name == "q8_0" || st.kv.name == "q4_0") && st.engine != Engine::llama_cpp) {
    throw InputError(p + "/kv_cache_dtype", "\"" + kvname + "\" is a llama.cpp cache type; with " +
                                                std::string(to_string(st.engine)) + " use auto, fp16, bf16 or fp8");
  }
  st.tensor_parallel = io::optional_int(inf, "tensor_parallel", p, {1, 1024}).value_or(1);
  st.pipeline_parallel = io::optional_int(inf, "pipeline_parallel", p, {1, 1024}).value_or(1);
  if (!bare && a.heads > 0 && a.heads % st.tensor_parallel != 0) {
    throw InputError(
        p + "/tensor_parallel", "must divide the number of attention heads (" + std::to_string(a.heads) + "); got " +
                                    std::to_string(st.tensor_parallel) + ". Valid sizes: " + [&] {
                                      std::string v;
                                      for (std::int64_t t = 1; t <= a.heads; ++t)
                                        if (a.heads % t == 0 && (t & (t - 1)) == 0)
                                          v += (v.empty() ? "" : ", ") + std::to_string(t);
                                      return v;
                                    }());
  }
  if (!bare && st.pipeline_parallel > a.layers) {
    throw InputError(p + "/pipeline_parallel",
                     "must not exceed the number of layers (" + std::to_string(a.layers) + ")");
  }
  if (st.tensor_parallel * st.pipeline_parallel > out.gpu_count) {
    throw InputError("/hardware/count", "is " + std::to_string(out.gpu_count) +
                                            " but tensor_parallel x pipeline_parallel needs " +
                                            std::to_string(st.tensor_parallel * st.pipeline_parallel) + " GPUs");
  }
  if (st.tensor_parallel * st.pipeline_parallel < out.gpu_count) {
    out.warnings.push_back("hardware.count " + std::to_string(out.gpu_count) +
                           " > tensor_parallel x pipeline_parallel (" +
                           std::to_string(st.tensor_parallel * st.pipeline_parallel) +
                           "): the other GPUs run independent replicas; figures are per GPU of one replica");
  }

  if (const auto v = inf.find("vllm"); v != inf.end()) {
    const std::string vp = p + "/vllm";
    io::require_object(*v, vp, "vllm");
    io::warn_unknown_keys(*v, vp,
                          {"gpu_memory_utilization", "max_num_batched_tokens", "max_num_seqs", "block_size",
                           "enforce_eager", "version", "max_model_len"},
                          out.warnings);
    auto& vs = st.vllm;
    if (auto u = io::optional_number(*v, "gpu_memory_utilization", vp, 0.01, 1.0))
      vs.gpu_memory_utilization = *u;
    else
      out.defaults_used.push_back("vllm.gpu_memory_utilization = 0.9");
    vs.max_num_batched_tokens = io::optional_int(*v, "max_num_batched_tokens", vp, {1, 100'000'000});
    vs.max_num_seqs = io::optional_int(*v, "max_num_seqs", vp, {1, 1'000'000});
    vs.block_size = io::optional_int(*v, "block_size", vp, {1, 1'000'000}).value_or(16);
    if (vs.block_size & (vs.block_size - 1)) {
      throw InputError(vp + "/block_size", "must be a power of two (vLLM accepts 1, 8, 16, 32, 64, 128); got " +
                                               std::to_string(vs.block_size));
    }
    vs.enforce_eager = io::optional_bool(*v, "enforce_eager", vp).value_or(false);
    vs.version = io::optional_string(*v, "version", vp).value_or("");
  } else if (st.engine == Engine::vllm) {
    out.defaults_used.push_back("vllm.gpu_memory_utilization = 0.9");
  }
  if (const auto l = inf.find("llama_cpp"); l != inf.end()) {
    const std::string lp = p + "/llama_cpp";
    io::require_object(*l, lp, "llama_cpp");
    io::warn_unknown_keys(*l, lp, {"n_gpu_layers", "n_batch", "n_ubatch", "flash_attn", "n_seq_max", "n_ctx"},
                          out.warnings);
    auto& ls = st.llama_cpp;
    ls.n_gpu_layers = io::optional_int(*l, "n_gpu_layers", lp, {-1, 100'000}).value_or(-1);
    ls.n_batch = io::optional_int(*l, "n_batch", lp, {1, 10'000'000}).value_or(2048);
    ls.n_ubatch = std::min(ls.n_batch, io::optional_int(*l, "n_ubatch", lp, {1, 10'000'000}).value_or(512));
    ls.flash_attn = io::optional_bool(*l, "flash_attn", lp).value_or(false);
    ls.n_seq_max = io::optional_int(*l, "n_seq_max", lp, {1, 100'000}).value_or(st.concurrency);
  } else {
    st.llama_cpp.n_seq_max = st.concurrency;
  }
  if (st.engine == Engine::llama_cpp) {
    const LlamaCppSettings& ls = st.llama_cpp;
    auto note = [&](const char* key, const std::string& value) {
      if (!llama_block.is_object() || !llama_block.contains(key))
        out.defaults_used.push_back(std::string("llama_cpp.") + key + " = " + value);
    };
    note("n_gpu_layers", "all layers and the output layer");
    note("n_ubatch", std::to_string(ls.n_ubatch));
    note("flash_attn", "false");
    note("n_seq_max", std::to_string(ls.n_seq_max) + " (the concurrency)");
  }
}

}  // namespace

Scenario parse_scenario(const json& s, const Catalog& catalog) {
  io::require_object(s, "", "the scenario");
  Scenario out;
  io::warn_unknown_keys(s, "",
                        {"v", "workload", "model", "weights", "hardware", "headroom", "inference", "training",
                         "generation", "id", "notes"},
                        out.warnings);
  if (auto v = io::optional_int(s, "v", "", {1, 1000}); v && *v != 1) {
    throw InputError("/v", "scenario version " + std::to_string(*v) + " is not supported; this build reads v 1");
  }
  const auto w = io::optional_choice(s, "workload", "", {"inference", "training", "image", "video"});
  if (!w) out.defaults_used.push_back("workload = inference");
  out.workload = !w || *w == "inference" ? Workload::inference
                 : *w == "training"      ? Workload::training
                 : *w == "image"         ? Workload::image
                                         : Workload::video;
  if (out.workload != Workload::inference) {
    throw InputError("/workload", std::string("\"") + to_string(out.workload) +
                                      "\" estimates are not available in this version; supported: inference");
  }
  parse_model_ref(s, catalog, out);

  // Weights: the scenario's format, else the checkpoint's own (its quantization_config).
  const std::string native = out.model->arch.native_dtype.empty() ? "bf16" : out.model->arch.native_dtype;
  bool checkpoint_quantized = false;
  WeightFormat own;
  if (const CatalogModel* cm = catalog.find_model(out.model_ref); cm != nullptr && s.at("model").is_string()) {
    own = cm->own_format;
    checkpoint_quantized = cm->quantized;
  } else if (s.at("model").is_object() && s.at("model").contains("config")) {
    own = format_from_quantization_config(s.at("model").at("config"), "/model/config", native, checkpoint_quantized);
  } else {
    own = native_format(native);
  }
  if (const auto wf = s.find("weights"); wf != s.end() && !wf->is_null()) {
    out.weights = parse_weight_format(*wf, "/weights", native);
    // The same format as the checkpoint keeps the checkpoint's ignore list.
    if (checkpoint_quantized && own.name == out.weights.name) out.weights.keep_unquantized = own.keep_unquantized;
  } else {
    out.weights = own;
    out.defaults_used.push_back(
        "weights = " + out.weights.name +
        (checkpoint_quantized ? " (the checkpoint's quantization_config)" : " (the checkpoint's dtype)"));
  }

  parse_hardware(s, catalog, out);
  if (auto h = io::optional_number(s, "headroom", "", 0.0, 0.9)) {
    out.headroom = *h;
  } else {
    out.defaults_used.push_back("headroom = 0.10");
  }
  parse_inference(s, out);
  // vLLM needs CUDA compute capability 7.0 or newer (docs.vllm.ai, "GPU installation: requirements").
  if (out.inference.engine == Engine::vllm && out.gpu.compute_capability > 0 && out.gpu.compute_capability < 70) {
    out.warnings.push_back(out.gpu.name + " has CUDA compute capability " +
                           std::to_string(out.gpu.compute_capability / 10) + "." +
                           std::to_string(out.gpu.compute_capability % 10) +
                           "; vLLM needs 7.0 or newer: use llama.cpp or transformers on it");
  }
  for (const auto& n : out.model->arch.notes) out.warnings.push_back(n);
  return out;
}

Scenario parse_scenario_text(const std::string& text, const Catalog& catalog) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) {
    // Re-parse with exceptions to get the position for the message.
    try {
      const json strict = json::parse(text);
      (void)strict;
    } catch (const json::exception& e) {
      throw InputError("", std::string("malformed JSON: ") + e.what());
    }
    throw InputError("", "malformed JSON");
  }
  return parse_scenario(j, catalog);
}

}  // namespace vram
