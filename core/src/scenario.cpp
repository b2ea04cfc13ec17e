#include "vram/scenario.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "vram/engines/transformers_version.hpp"
#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_read.hpp"
#include "vram/io/version_text.hpp"
#include "vram/io/workload_settings.hpp"
#include "vram/out_of_line.hpp"

namespace vram {

using io::join_path;
using nlohmann::json;

const char* to_string(Workload w) {
  return name_of(kWorkloads, w).data();  // the table's names are literals
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

/// "auto" takes the activation dtype (`native_activation`: fp16, bf16 or fp32).
constexpr std::string_view kAutoKv = "auto";

std::optional<KvDtype> kv_dtype(const std::string& name, const std::string& native_activation) {
  const KvKind* kind = find_choice(kKvCacheDtypes, name == kAutoKv ? std::string_view(native_activation) : name);
  if (kind == nullptr) return std::nullopt;
  return kv_dtype_of(*kind);
}

/// Whether an unknown id the user gave is close to a catalog id: the catalog
/// id's name (after the organisation) is part of it, or it is part of that
/// name ("Wan-AI/Wan2.1-T2V-14B-Diffusers" and "Wan-AI/Wan2.1-T2V-14B").
bool close_to(std::string_view given, std::string_view catalog_id) {
  const std::string_view tail = catalog_id.substr(catalog_id.find('/') + 1);
  return given.size() >= 3 && (given.find(tail) != std::string_view::npos || tail.find(given) != std::string_view::npos);
}

/// An id in lower case (ASCII letters): the Hugging Face Hub's ids ignore case.
std::string lower_case(std::string_view id) {
  std::string out(id);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

/// A catalog id, with the close ids named when it is unknown. An id that
/// differs from one catalog id only in case (the Hugging Face Hub ignores
/// case) is read as that id, with a warning. Answers the catalog entry.
const CatalogModel* resolve_catalog_id(const std::string& id, const Catalog& catalog, Scenario& out) {
  const CatalogModel* cm = catalog.find_model(id);
  if (cm == nullptr) {
    std::string near;
    std::vector<std::string_view> same_letters;
    for (std::string_view c : catalog.model_ids()) {
      if (lower_case(c) == lower_case(id)) same_letters.push_back(c);
      if (close_to(id, c)) near += (near.empty() ? "" : ", ") + std::string(c);
    }
    if (same_letters.size() != 1) {
      throw InputError("/model", "unknown catalog id \"" + id + "\"" + (near.empty() ? "" : "; close: " + near) +
                                     "; list ids with `vram-budget models`, or give {\"config\": {...}} or "
                                     "{\"params\": N}");
    }
    cm = catalog.find_model(same_letters.front());
    out.warnings.push_back("model \"" + id + "\" is read as the catalog's " + cm->id + " (the ids differ only in case)");
  }
  out.model = cm->shared;
  out.model_ref = cm->id;
  return cm;
}

/// model.weights_bytes or model.weights_by_dtype: the exact checkpoint size.
void read_checkpoint_size(const json& m, Scenario& out) {
  if (m.contains("weights_bytes") && m.contains("weights_by_dtype")) {
    throw InputError("/model", "give either weights_bytes or weights_by_dtype, not both");
  }
  if (auto wb = io::optional_int(m, "weights_bytes", "/model")) out.weights_bytes_given = Bytes::of(*wb);
  const auto wd = m.find("weights_by_dtype");
  if (wd == m.end()) return;
  if (!wd->is_object()) {
    throw InputError("/model/weights_by_dtype", "must be an object such as {\"BF16\": N, \"F8_E4M3\": N}");
  }
  Bytes total;  // parameter counts per safetensors dtype, as the Hub lists them
  for (auto e = wd->begin(); e != wd->end(); ++e) {
    const std::int64_t n = io::require_int(*wd, e.key(), "/model/weights_by_dtype", {0, io::kAbsurd});
    total += Bytes::product(n, safetensors_dtype_bytes(e.key(), join_path("/model/weights_by_dtype", e.key())));
  }
  out.weights_bytes_given = total;
}

/// The model: a catalog entry (answered, so that its checkpoint format is read
/// in place), a bare parameter count or a pasted config.json (nullptr).
const CatalogModel* parse_model_ref(const json& s, const Catalog& catalog, Scenario& out) {
  const auto it = s.find("model");
  if (it == s.end()) {
    throw InputError(
        "/model",
        "is required: a catalog id (e.g. \"meta-llama/Llama-3.1-8B\"), {\"params\": N} or {\"config\": {...}}");
  }
  const json& m = *it;
  if (m.is_string()) return resolve_catalog_id(m.get_ref<const std::string&>(), catalog, out);
  if (!m.is_object()) {
    throw InputError("/model", "must be a catalog id string, {\"params\": N} or {\"config\": {...}}; got " +
                                   io::describe_value(m));
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
  read_checkpoint_size(m, out);
  return nullptr;
}

void parse_gpu(const json& hw, const Catalog& catalog, Scenario& out);

/// `hardware.interconnect` overrides the catalog GPU's own (a custom GPU has none).
void parse_hardware(const json& s, const Catalog& catalog, Scenario& out) {
  const json& hw = member_or_empty(s, "hardware");
  io::require_object(hw, "/hardware", "hardware");
  io::warn_unknown_keys(hw, "/hardware", {"gpu", "count", "interconnect"}, out.warnings);
  parse_gpu(hw, catalog, out);
  if (auto link = io::optional_enum(hw, "interconnect", "/hardware", kInterconnects)) out.gpu.interconnect = *link;
}

}  // namespace

GpuChoice gpu_choice(const Gpu& g) {
  return {g.id, g.name, g.memory, g.price_usd_per_hour, g.compute_capability, g.sm_count, g.interconnect, g.rocm_arch};
}

namespace {

/// A catalog GPU by id. An id written with other case or separators ("RTX 4090",
/// "h100-sxm-80gb") is read as the one catalog id it matches, with a warning;
/// otherwise the GPUs whose ids contain it ("H100": three) are named as close.
const Gpu& catalog_gpu(const std::string& given, const Catalog& catalog, std::vector<std::string>& warnings) {
  if (const Gpu* gpu = catalog.find_gpu(given)) return *gpu;
  const std::string f = io::fold_name(given);
  std::vector<const Gpu*> same;
  std::string ids, near;
  for (const auto& c : catalog.gpus()) {
    const std::string fc = io::fold_name(c.id);
    if (fc == f) same.push_back(&c);
    if (f.size() >= 2 && fc != f && fc.find(f) != std::string::npos) near += (near.empty() ? "" : ", ") + c.id;
    ids += (ids.empty() ? "" : ", ") + c.id;
  }
  if (same.size() == 1) {
    warnings.push_back("hardware.gpu \"" + given + "\" is read as the catalog's " + same.front()->id);
    return *same.front();
  }
  throw InputError("/hardware/gpu", "unknown GPU id \"" + given + "\"" + (near.empty() ? "" : "; close: " + near) +
                                        "; allowed: " + ids + ", or {\"name\": ..., \"memory_bytes\": N}");
}

void parse_gpu(const json& hw, const Catalog& catalog, Scenario& out) {
  out.gpu_count = io::optional_int(hw, "count", "/hardware", {1, 4096}).value_or(1);
  const auto g = hw.find("gpu");
  if (g == hw.end() || g->is_null()) {
    const Gpu* def = catalog.find_gpu(kDefaultGpu);
    if (def == nullptr) throw InputError("/hardware/gpu", "is required (the catalog has no default GPU)");
    out.gpu = gpu_choice(*def);
    out.defaults_used.push_back(std::string("hardware.gpu = ") + kDefaultGpu);
    return;
  }
  if (g->is_string()) {
    out.gpu = gpu_choice(catalog_gpu(g->get<std::string>(), catalog, out.warnings));
    return;
  }
  if (!g->is_object()) throw InputError("/hardware/gpu", "must be a catalog id or {\"name\", \"memory_bytes\"}");
  io::warn_unknown_keys(*g, "/hardware/gpu",
                        {"name", "memory_bytes", "price_usd_per_hour", "compute_capability", "sm_count"}, out.warnings);
  out.gpu.id = "custom";
  out.gpu.name = io::optional_string(*g, "name", "/hardware/gpu").value_or("custom GPU");
  // 1 GiB to 64 TiB: anything outside is a typo (a GB count, or bits).
  out.gpu.memory =
      Bytes::of(io::require_int(*g, "memory_bytes", "/hardware/gpu", {std::int64_t{1} << 30, std::int64_t{1} << 46}));
  out.gpu.price_usd_per_hour = io::optional_number(*g, "price_usd_per_hour", "/hardware/gpu", 0, 1e6);
  // CUDA compute capability as torch prints it (8.9, 9.0, 12.0): kernels and padding that depend on it.
  if (const auto cc = io::optional_number(*g, "compute_capability", "/hardware/gpu", 3.0, 15.9)) {
    out.gpu.compute_capability = static_cast<int>(std::lround(*cc * 10));
  }
  // Streaming multiprocessors (torch.cuda.get_device_properties(0).multi_processor_count): the driver's
  // stack reservation and vLLM's sampler scratch scale with them; unknown, an H100's 132 are assumed.
  if (const auto sms = io::optional_int(*g, "sm_count", "/hardware/gpu", {1, 1024})) {
    out.gpu.sm_count = static_cast<int>(*sms);
  }
}

/// llama.cpp --cache-type-k/-v accept f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl,
/// q5_0, q5_1 (common/arg.cpp kv_cache_types, ggml-org/llama.cpp @ b6000): no fp8.
void check_llama_kv(const InferenceSettings& st, const std::string& given, const std::string& path) {
  if (st.engine != Engine::llama_cpp || st.kv.kind != KvKind::fp8) return;
  throw InputError(path, "\"" + given +
                             "\" is not a llama.cpp cache type; llama.cpp (--cache-type-k / --cache-type-v) "
                             "allows f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (here: auto, fp32, fp16, "
                             "bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1)");
}

/// llama_cpp.tensor_split: one non-negative proportion per GPU, not all zero.
std::vector<double> parse_tensor_split(const json& block, const std::string& path, std::int64_t gpus) {
  const auto it = block.find("tensor_split");
  if (it == block.end() || it->is_null()) return {};
  const std::string tp = io::join_path(path, "tensor_split");
  if (!it->is_array()) {
    throw InputError(tp, "must be a list of proportions, one per GPU (e.g. [3, 1] puts 3/4 of the layers on GPU 0)");
  }
  if (static_cast<std::int64_t>(it->size()) != gpus) {
    throw InputError(tp, "has " + std::to_string(it->size()) + " entries but hardware.count is " +
                             std::to_string(gpus) + "; give one proportion per GPU");
  }
  std::vector<double> split;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_number() || !(v.get<double>() >= 0.0) || v.get<double>() > 1e12) {
      throw InputError(io::join_path(tp, std::to_string(i)), "must be a number >= 0 (a proportion); got " + v.dump());
    }
    split.push_back(v.get<double>());
  }
  if (std::all_of(split.begin(), split.end(), [](double x) { return x == 0.0; })) {
    throw InputError(tp, "must not be all zero; omit it for llama.cpp's default (by free memory: equal shares)");
  }
  return split;
}

/// llama_cpp.split_mode, main_gpu and tensor_split.
void parse_llama_gpus(const json& block, const std::string& path, Scenario& out) {
  LlamaCppSettings& ls = out.inference().llama_cpp;
  if (const auto m = io::optional_choice(block, "split_mode", path, {"none", "layer", "row"})) {
    ls.split_mode = *m == "none" ? LlamaSplitMode::none : (*m == "row" ? LlamaSplitMode::row : LlamaSplitMode::layer);
  }
  ls.main_gpu = io::optional_int(block, "main_gpu", path, {0, out.gpu_count - 1}).value_or(0);
  ls.tensor_split = parse_tensor_split(block, path, out.gpu_count);
}

/// For llama.cpp hardware.count is the number of GPUs the model is split over.
void check_llama_gpus(const json& block, Scenario& out) {
  const InferenceSettings& st = out.inference();
  if (out.parallel.tensor > 1) {
    throw InputError("/inference/tensor_parallel",
                     "llama.cpp does not split attention heads: it splits whole layers (llama_cpp.split_mode "
                     "\"layer\", the default) or weight rows (\"row\") over hardware.count GPUs; leave "
                     "tensor_parallel at 1 and set hardware.count");
  }
  if (out.parallel.pipeline != 1 && out.parallel.pipeline != out.gpu_count) {
    throw InputError("/inference/pipeline_parallel",
                     "llama.cpp splits layers over all hardware.count (" + std::to_string(out.gpu_count) +
                         ") GPUs; pipeline_parallel must be 1 or equal hardware.count");
  }
  const bool given = block.is_object();
  if (out.gpu_count > 1 && !(given && block.contains("split_mode")))
    out.defaults_used.push_back("llama_cpp.split_mode = layer");
  const bool splits = out.gpu_count > 1 && st.llama_cpp.split_mode != LlamaSplitMode::none;
  if (splits && !(given && block.contains("tensor_split")))
    out.defaults_used.push_back("llama_cpp.tensor_split = equal (by free memory, identical GPUs)");
  if (out.gpu_count > 1 && st.llama_cpp.split_mode == LlamaSplitMode::none) {
    out.warnings.push_back("llama_cpp.split_mode none: only GPU " + std::to_string(st.llama_cpp.main_gpu) +
                           " (main_gpu) holds the model; the other " + std::to_string(out.gpu_count - 1) +
                           " GPUs stay idle");
  }
}

/// vLLM's max_model_len and llama.cpp's n_ctx (all cells, shared by n_seq_max
/// sequences) are the engines' names for the context: they must agree with it.
std::optional<std::int64_t> context_given(const json& inf, const std::string& p) {
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
  return ctx;
}

/// Context (given, else the model's maximum) and concurrency.
void parse_tokens(const json& inf, const std::string& p, Scenario& out) {
  InferenceSettings& st = out.inference();
  const Architecture& a = out.model->arch;
  if (const auto ctx = context_given(inf, p)) {
    st.context = *ctx;
    if (a.max_positions > 0 && *ctx > a.max_positions) {
      out.warnings.push_back("inference.context " + group_thousands(*ctx) + " exceeds the model's maximum (" +
                             group_thousands(a.max_positions) +
                             " max_position_embeddings); vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1, and "
                             "quality past the trained length is not assured");
    }
  } else if (a.family != Family::bare) {
    st.context = a.max_positions > 0 ? a.max_positions : 2048;
    out.defaults_used.push_back("inference.context = " + std::to_string(st.context) +
                                (a.max_positions > 0 ? " (model max)" : " (the config states no maximum)"));
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
}

/// The KV cache dtype: `auto` is the activation dtype, the weights' own when
/// they are plain floats, else the model's 16-bit dtype.
void parse_kv_dtype(const json& inf, const std::string& p, Scenario& out) {
  InferenceSettings& st = out.inference();
  const Architecture& a = out.model->arch;
  std::string act =
      out.weights.quantized() ? (a.native_dtype == "fp32" ? "bf16" : a.native_dtype) : out.weights.linear.name;
  if (out.weights.gguf()) act = "fp16";
  if (act != "fp32" && act != "fp16" && act != "bf16") act = "bf16";
  std::string kvname = io::optional_string(inf, "kv_cache_dtype", p).value_or("");
  if (kvname.empty()) {
    kvname = st.engine == Engine::llama_cpp ? "fp16" : "auto";
    out.defaults_used.push_back("inference.kv_cache_dtype = " + kvname);
  }
  const std::optional<KvDtype> kv = kv_dtype(kvname, act);
  if (!kv) {
    throw InputError(p + "/kv_cache_dtype", "unknown KV cache dtype \"" + kvname +
                                                "\"; allowed: auto, " + choice_list(kKvCacheDtypes));
  }
  st.kv = *kv;
  check_llama_kv(st, kvname, p + "/kv_cache_dtype");
  if (st.kv.ggml() && st.engine != Engine::llama_cpp) {
    throw InputError(p + "/kv_cache_dtype", "\"" + kvname + "\" is a llama.cpp cache type; with " +
                                                std::string(to_string(st.engine)) + " use auto, fp16, bf16 or fp8");
  }
}

/// The power-of-two sizes that divide `heads`, for the error message.
std::string valid_tp_sizes(std::int64_t heads) {
  std::string v;
  for (std::int64_t t = 1; t <= heads; ++t)
    if (heads % t == 0 && (t & (t - 1)) == 0) v += (v.empty() ? "" : ", ") + std::to_string(t);
  return v;
}

void parse_parallel_sizes(const json& inf, const std::string& p, Scenario& out) {
  const Architecture& a = out.model->arch;
  const bool bare = a.family == Family::bare;
  const std::int64_t tp = io::optional_int(inf, "tensor_parallel", p, {1, 1024}).value_or(1);
  const std::int64_t pp = io::optional_int(inf, "pipeline_parallel", p, {1, 1024}).value_or(1);
  if (!bare && a.heads > 0 && a.heads % tp != 0) {
    throw InputError(p + "/tensor_parallel", "must divide the number of attention heads (" + std::to_string(a.heads) +
                                                 "); got " + std::to_string(tp) +
                                                 ". Valid sizes: " + valid_tp_sizes(a.heads));
  }
  if (!bare && pp > a.layers) {
    throw InputError(p + "/pipeline_parallel",
                     "must not exceed the number of layers (" + std::to_string(a.layers) + ")");
  }
  const std::int64_t per_replica = tp * pp;
  if (per_replica > out.gpu_count) {
    throw InputError("/hardware/count", "is " + std::to_string(out.gpu_count) +
                                            " but tensor_parallel x pipeline_parallel needs " +
                                            std::to_string(per_replica) + " GPUs");
  }
  out.parallel = inference_parallelism(out.gpu_count, tp, pp);
  if (per_replica < out.gpu_count && out.inference().engine != Engine::llama_cpp) {
    out.warnings.push_back("hardware.count " + std::to_string(out.gpu_count) +
                           " > tensor_parallel x pipeline_parallel (" + std::to_string(per_replica) +
                           "): the other GPUs run independent replicas; figures are per GPU of one replica");
  }
}

/// `engine` (V0 up to 0.10, V1 from 0.7), `cudagraph_mode` and `cudagraph_capture_sizes`.
void parse_vllm_engine(const json& v, const std::string& vp, VllmSettings& vs) {
  vs.engine = io::optional_enum(v, "engine", vp, kVllmEngines);
  vs.cudagraph_mode = io::optional_enum(v, "cudagraph_mode", vp, kCudaGraphModes);
  vs.mamba_cache_dtype = io::optional_enum(v, "mamba_cache_dtype", vp, kMambaDtypes).value_or(MambaDtype::auto_dtype);
  vs.mamba_ssm_cache_dtype =
      io::optional_enum(v, "mamba_ssm_cache_dtype", vp, kMambaDtypes).value_or(MambaDtype::auto_dtype);
  int major = 0, minor = 19;
  if (!vs.version.empty()) std::sscanf(vs.version.c_str() + (vs.version[0] == 'v' ? 1 : 0), "%d.%d", &major, &minor);
  const bool newer_than_v0 = major > 0 || minor >= 11;
  if (vs.engine == VllmEngine::v0 && newer_than_v0)
    throw InputError(vp + "/engine", "vLLM " + (vs.version.empty() ? std::string("0.19") : vs.version) +
                                         " has no V0 engine (removed in 0.11); allowed: v1");
  if (vs.engine == VllmEngine::v1 && major == 0 && minor < 7)
    throw InputError(vp + "/engine", "vLLM " + vs.version + " has no V1 engine (added in 0.7); allowed: v0");
  const auto sizes = v.find("cudagraph_capture_sizes");
  if (sizes == v.end()) return;
  const std::string sp = vp + "/cudagraph_capture_sizes";
  if (!sizes->is_array() || sizes->empty()) throw InputError(sp, "must be a non-empty list of batch sizes");
  for (std::size_t i = 0; i < sizes->size(); ++i) {
    const json& x = (*sizes)[i];
    if (!x.is_number_integer() || x.get<std::int64_t>() < 1 || x.get<std::int64_t>() > 1'000'000)
      throw InputError(sp + "/" + std::to_string(i), "must be a whole batch size from 1 to 1,000,000");
    vs.cudagraph_capture_sizes.push_back(x.get<std::int64_t>());
  }
}

void parse_vllm_block(const json& inf, const std::string& p, Scenario& out) {
  InferenceSettings& st = out.inference();
  const std::string default_gmu =
      "vllm.gpu_memory_utilization = " + format_decimal(VllmSettings{}.gpu_memory_utilization, 2);
  const auto v = inf.find("vllm");
  if (v == inf.end()) {
    if (st.engine == Engine::vllm) out.defaults_used.push_back(default_gmu);
    return;
  }
  const std::string vp = p + "/vllm";
  io::require_object(*v, vp, "vllm");
  io::warn_unknown_keys(*v, vp, kVllmFields, out.warnings);
  auto& vs = st.vllm;
  if (auto u = io::optional_number(*v, "gpu_memory_utilization", vp, 0.01, 1.0))
    vs.gpu_memory_utilization = *u;
  else
    out.defaults_used.push_back(default_gmu);
  vs.max_num_batched_tokens = io::optional_int(*v, "max_num_batched_tokens", vp, {1, 100'000'000});
  vs.max_num_seqs = io::optional_int(*v, "max_num_seqs", vp, {1, 1'000'000});
  vs.block_size = io::optional_int(*v, "block_size", vp, {1, 1'000'000}).value_or(VllmSettings{}.block_size);
  if (vs.block_size & (vs.block_size - 1)) {
    throw InputError(vp + "/block_size", "must be a power of two (vLLM accepts 1, 8, 16, 32, 64, 128); got " +
                                             std::to_string(vs.block_size));
  }
  vs.enforce_eager = io::optional_bool(*v, "enforce_eager", vp).value_or(false);
  vs.version = io::optional_string(*v, "version", vp).value_or("");
  parse_vllm_engine(*v, vp, vs);
  vs.enable_expert_parallel = io::optional_bool(*v, "enable_expert_parallel", vp).value_or(false);
  vs.flashinfer_sampler = io::optional_bool(*v, "flashinfer_sampler", vp);
  vs.language_model_only = io::optional_bool(*v, "language_model_only", vp).value_or(false);
  if (vs.language_model_only && out.model && out.model->arch.vision_params == 0)
    out.warnings.push_back("vllm.language_model_only: " + out.model_ref + " has no vision tower; nothing changes");
  vs.moe_backend = io::optional_enum(*v, "moe_backend", vp, kMoeBackends).value_or(MoeBackend::triton);
  if (vs.moe_backend == MoeBackend::deep_gemm && out.model && out.model->arch.experts == 0) {
    throw InputError(vp + "/moe_backend",
                     "deep_gemm runs routed experts; " + out.model_ref + " has none (leave moe_backend out)");
  }
  if (vs.enable_expert_parallel && out.model && out.model->arch.experts == 0) {
    throw InputError(vp + "/enable_expert_parallel",
                     "needs a mixture-of-experts model; " + out.model_ref + " has no routed experts (set false or leave it out)");
  }
  if (vs.enable_expert_parallel && out.parallel.tensor == 1) {
    out.warnings.push_back(vp + "/enable_expert_parallel: one tensor-parallel rank, so one expert-parallel rank; nothing "
                                "changes");
  }
}

VRAM_OUT_OF_LINE void read_llama_block(const json& inf, const std::string& p, Scenario& out) {
  InferenceSettings& st = out.inference();
  const json& llama_block = member_or_empty(inf, "llama_cpp");
  if (const auto l = inf.find("llama_cpp"); l != inf.end()) {
    const std::string lp = p + "/llama_cpp";
    io::require_object(*l, lp, "llama_cpp");
    io::warn_unknown_keys(*l, lp, kLlamaCppFields, out.warnings);
    const LlamaCppSettings d;
    auto& ls = st.llama_cpp;
    ls.n_gpu_layers = io::optional_int(*l, "n_gpu_layers", lp, {-1, 100'000}).value_or(d.n_gpu_layers);
    ls.n_batch = io::optional_int(*l, "n_batch", lp, {1, 10'000'000}).value_or(d.n_batch);
    ls.n_ubatch = std::min(ls.n_batch, io::optional_int(*l, "n_ubatch", lp, {1, 10'000'000}).value_or(d.n_ubatch));
    ls.flash_attn = io::optional_bool(*l, "flash_attn", lp).value_or(d.flash_attn);
    ls.n_seq_max = io::optional_int(*l, "n_seq_max", lp, {1, 100'000}).value_or(st.concurrency);
    ls.kv_unified = io::optional_bool(*l, "kv_unified", lp).value_or(d.kv_unified);
    ls.build = io::optional_int(*l, "build", lp, {1, 1'000'000});
    parse_llama_gpus(*l, lp, out);
  } else {
    st.llama_cpp.n_seq_max = st.concurrency;
  }
  if (st.engine != Engine::llama_cpp) return;
  const LlamaCppSettings& ls = st.llama_cpp;
  auto note = [&](std::string_view key, std::string_view value) {
    if (llama_block.is_object() && llama_block.contains(key)) return;
    std::string line;  // one string, built in place
    line.reserve(14 + key.size() + value.size());
    line.append("llama_cpp.").append(key).append(" = ").append(value);
    out.defaults_used.push_back(std::move(line));
  };
  note("n_gpu_layers", "all layers and the output layer");
  note("n_ubatch", std::to_string(ls.n_ubatch));
  // llama.cpp b6325 (ggml-org/llama.cpp#15434) made flash attention "auto": on wherever the
  // GPU supports it; the estimate keeps it off unless told, and says so.
  note("flash_attn", ls.flash_attn ? "true"
                                   : "false (llama.cpp from b6325 turns it on where the GPU supports it, -fa auto; "
                                     "set true to estimate a current build's default)");
  note("n_seq_max", std::to_string(ls.n_seq_max) + " (the concurrency)");
  note("build", "the newest known (b10309): KQ mask rows unpadded, an F16 mask with flash attention");
  if (ls.n_seq_max > 1) {
    note("kv_unified",
         "true (one cache shared by the sequences: llama.cpp before b5913 and llama-server's automatic slots; set false "
         "for an explicit -np N without -kvu since b6071, one stream per sequence)");
  }
  check_llama_gpus(llama_block, out);
}

void parse_llama_block(const json& inf, const std::string& p, Scenario& out) {
  InferenceSettings& st = out.inference();
  if (st.engine == Engine::llama_cpp || inf.contains("llama_cpp"))
    read_llama_block(inf, p, out);
  else
    st.llama_cpp.n_seq_max = st.concurrency;
}

/// transformers.version: a version text ("4.46.3", "v4.36"); anything else is refused.
void parse_hf_version(const json& b, const std::string& tp, TransformersSettings& ts) {
  ts.version = io::optional_string(b, "version", tp).value_or("");
  if (ts.version.empty()) return;
  const auto v = io::read_version(ts.version);
  if (!v) {
    throw InputError(tp + "/version", "\"" + ts.version +
                                          "\" is not a transformers version; give one such as \"4.56.0\" or \"4.36\"");
  }
  ts.major = v->major;
  ts.minor = v->minor;
  ts.patch = v->patch;
}

/// transformers.max_new_tokens: generated tokens at the end of the context; at least one prompt token stays.
void parse_hf_new_tokens(const json& b, const std::string& tp, std::int64_t context, TransformersSettings& ts) {
  const auto n = io::optional_int(b, "max_new_tokens", tp, {-1'000'000'000, 1'000'000'000});
  if (!n) return;
  if (*n < 0 || *n >= context) {
    throw InputError(tp + "/max_new_tokens", "is " + std::to_string(*n) + "; it must be 0 or more and below inference.context (" +
                                                 group_thousands(context) +
                                                 " tokens: the prompt is context - max_new_tokens, at least one token)");
  }
  ts.max_new_tokens = *n;
}

/// A cache class or attention the version does not have yet is refused.
void check_hf_available(const std::string& tp, const TransformersSettings& ts) {
  namespace te = transformers_engine;
  const te::HfVersion v = te::on_ladder(ts.major, ts.minor);
  auto need = [&](const char* key, const char* what, int since) {
    if (v.at_least(since)) return;
    throw InputError(tp + "/" + key, "transformers " + ts.version + " has no " + what + " (added in 4." +
                                         std::to_string(since) + "); give a later version or leave it out");
  };
  if (ts.cache == HfCache::static_cache) need("cache_implementation", "StaticCache", te::kStaticCacheSince);
  if (ts.cache == HfCache::quantized) need("cache_implementation", "QuantizedCache", te::kQuantizedCacheSince);
  if (ts.cache == HfCache::offloaded) need("cache_implementation", "OffloadedCache", te::kOffloadedCacheSince);
  if (ts.attention == HfAttention::sdpa) need("attn_implementation", "SDPA attention", te::kSdpaSince);
  if (ts.attention == HfAttention::flash_attention_2)
    need("attn_implementation", "FlashAttention-2", te::kFlashAttention2Since);
}

/// QuantizedCache's cache_config: backend, nbits (quanto 2/4; HQQ 1/2/3/4/8, transformers v4.56.0
/// cache_utils.py QuantoQuantizedLayer / HQQQuantizedLayer), q_group_size, residual_length.
void parse_hf_quantized(const json& b, const std::string& tp, TransformersSettings& ts, std::vector<std::string>& warnings) {
  ts.backend = io::optional_enum(b, "backend", tp, kHfQuantBackends).value_or(HfQuantBackend::quanto);
  const bool hqq = ts.backend == HfQuantBackend::hqq;
  if (const auto n = io::optional_int(b, "nbits", tp, {-1'000'000, 1'000'000})) {
    const bool ok = hqq ? (*n == 1 || *n == 2 || *n == 3 || *n == 4 || *n == 8) : (*n == 2 || *n == 4);
    if (!ok) {
      throw InputError(tp + "/nbits", "is " + std::to_string(*n) + "; allowed for the " + (hqq ? "hqq" : "quanto") +
                                          " backend: " + (hqq ? "1, 2, 3, 4, 8" : "2, 4"));
    }
    ts.nbits = *n;
  }
  if (const auto g = io::optional_int(b, "q_group_size", tp, {-1'000'000'000, 1'000'000'000})) {
    if (*g <= 0) throw InputError(tp + "/q_group_size", "is " + std::to_string(*g) + "; it must be a whole number >= 1");
    ts.q_group_size = *g;
  }
  if (const auto r = io::optional_int(b, "residual_length", tp, {-1'000'000'000, 1'000'000'000})) {
    if (*r < 0) throw InputError(tp + "/residual_length", "is " + std::to_string(*r) + "; it must be >= 0 tokens");
    ts.residual_length = *r;
  }
  if (ts.cache == HfCache::quantized) return;
  for (const char* key : {"backend", "nbits", "q_group_size", "residual_length"}) {
    if (b.contains(key)) warnings.push_back(tp + "/" + key + ": applies to cache_implementation \"quantized\" only; ignored");
  }
}

/// The defaults a transformers estimate used.
void note_hf_defaults(const json& b, const TransformersSettings& ts, std::vector<std::string>& d) {
  namespace te = transformers_engine;
  if (!b.contains("cache_implementation")) d.push_back("transformers.cache_implementation = dynamic");
  if (!ts.attention) {
    const bool sdpa = te::on_ladder(ts.major, ts.minor).at_least(te::kSdpaSince);
    d.push_back(std::string("transformers.attn_implementation = ") + (sdpa ? "sdpa" : "eager") + " (the version's default)");
  }
  if (ts.version.empty()) d.push_back("transformers.version = 4." + std::to_string(te::kHfCurrentMinor));
  if (!b.contains("max_new_tokens")) d.push_back("transformers.max_new_tokens = 0 (the whole context is prefilled as the prompt)");
  if (ts.cache != HfCache::quantized) return;
  if (!b.contains("backend")) d.push_back("transformers.backend = quanto");
  if (!b.contains("nbits")) d.push_back("transformers.nbits = 4");
  if (!b.contains("q_group_size")) d.push_back("transformers.q_group_size = 64");
  if (!b.contains("residual_length")) d.push_back("transformers.residual_length = 128");
}

VRAM_OUT_OF_LINE void read_transformers_block(const json& inf, const std::string& p, Scenario& out) {
  const std::string tp = p + "/transformers";
  static const json none = json::object();  // immutable
  const auto it = inf.find("transformers");
  const bool given = it != inf.end() && !it->is_null();
  if (given) io::require_object(*it, tp, "transformers");
  const json& b = given ? *it : none;
  TransformersSettings& ts = out.inference().transformers;
  if (given) {
    io::reject_unknown_keys(b, tp, kTransformersFields);
    ts.cache = io::optional_enum(b, "cache_implementation", tp, kHfCaches).value_or(HfCache::dynamic);
    ts.attention = io::optional_enum(b, "attn_implementation", tp, kHfAttentions);
    parse_hf_version(b, tp, ts);
    parse_hf_new_tokens(b, tp, out.inference().context, ts);
    parse_hf_quantized(b, tp, ts, out.warnings);
    check_hf_available(tp, ts);
  }
  if (out.inference().engine == Engine::transformers) note_hf_defaults(b, ts, out.defaults_used);
}

void parse_transformers_block(const json& inf, const std::string& p, Scenario& out) {
  if (out.inference().engine == Engine::transformers || inf.contains("transformers")) read_transformers_block(inf, p, out);
}

/// vLLM from v0.14 reads kv_cache_dtype "auto" as the KV-cache dtype a ModelOpt
/// checkpoint declares (vllm-project/vllm#30785; vllm/utils/torch_utils.py
/// resolve_kv_cache_dtype_string, called when EngineArgs builds the CacheConfig).
void resolve_checkpoint_kv(const json& inf, Scenario& out) {
  InferenceSettings& st = out.inference();
  if (st.engine != Engine::vllm || out.weights.checkpoint_kv != "fp8") return;
  const auto given = inf.find("kv_cache_dtype");
  const bool stated = given != inf.end() && given->is_string();
  if (stated && given->get_ref<const std::string&>() != kAutoKv) return;
  if (!st.vllm.version.empty()) {
    const auto v = io::read_version(st.vllm.version);
    if (!v || (v->major == 0 && v->minor < 14)) return;
  }
  st.kv = kv_dtype_of(KvKind::fp8);
  const std::string note = "inference.kv_cache_dtype = auto: fp8, the KV-cache dtype the checkpoint's "
                           "quantization_config declares (vLLM 0.14 and later read auto so)";
  auto& d = out.defaults_used;
  if (!stated) {
    d.erase(std::remove(d.begin(), d.end(), "inference.kv_cache_dtype = auto"), d.end());
    d.push_back(note);
  } else {
    out.warnings.push_back(note);
  }
}

void parse_inference(const json& s, Scenario& out) {
  const json& inf = member_or_empty(s, "inference");
  const std::string p = "/inference";
  io::require_object(inf, p, "inference");
  io::warn_unknown_keys(inf, p,
                        {"engine", "context", "concurrency", "kv_cache_dtype", "tensor_parallel", "pipeline_parallel",
                         "vllm", "llama_cpp", "transformers"},
                        out.warnings);
  InferenceSettings& st = out.inference();
  const auto engine = io::optional_choice(inf, "engine", p, {"vllm", "llama.cpp", "transformers"});
  if (!engine) out.defaults_used.push_back(std::string("inference.engine = ") + to_string(InferenceSettings{}.engine));
  st.engine = !engine ? InferenceSettings{}.engine
              : *engine == "vllm" ? Engine::vllm
              : (*engine == "llama.cpp" ? Engine::llama_cpp : Engine::transformers);
  parse_tokens(inf, p, out);
  parse_kv_dtype(inf, p, out);
  parse_parallel_sizes(inf, p, out);
  parse_vllm_block(inf, p, out);
  resolve_checkpoint_kv(inf, out);
  parse_llama_block(inf, p, out);
  parse_transformers_block(inf, p, out);
}

}  // namespace

namespace {

Workload parse_workload(const json& s, Scenario& out) {
  const auto w = io::optional_enum(s, "workload", "", kWorkloads);
  if (!w) out.defaults_used.push_back("workload = inference");
  return w.value_or(Workload::inference);
}

/// Weights: the scenario's format, else the checkpoint's own (its quantization_config).
void parse_weights(const json& s, const CatalogModel* cm, Scenario& out) {
  const std::string native = out.model->arch.native_dtype.empty() ? "bf16" : out.model->arch.native_dtype;
  bool checkpoint_quantized = false;
  // The checkpoint's own format: a catalog model's is read in place, not copied.
  std::optional<WeightFormat> read;
  const WeightFormat* own = nullptr;
  if (cm != nullptr) {
    own = &cm->own_format;
    checkpoint_quantized = cm->quantized;
  } else if (s.at("model").is_object() && s.at("model").contains("config")) {
    own = &read.emplace(
        format_from_quantization_config(s.at("model").at("config"), "/model/config", native, checkpoint_quantized));
  } else {
    own = &read.emplace(native_format(native));
  }
  if (const auto wf = s.find("weights"); wf != s.end() && !wf->is_null()) {
    out.weights = parse_weight_format(*wf, "/weights", native);
    // The same format as the checkpoint keeps the checkpoint's ignore list.
    if (checkpoint_quantized && own->name == out.weights.name) out.weights.keep_unquantized = own->keep_unquantized;
  } else {
    out.weights = read ? std::move(*read) : *own;
    out.defaults_used.push_back(
        "weights = " + out.weights.name +
        (checkpoint_quantized ? " (the checkpoint's quantization_config)" : " (the checkpoint's dtype)"));
  }
  check_group_alignment(out.weights, *out.model);
}

/// An image or video pipeline is named by its id (or given as an object); the
/// generation engine resolves its components.
VRAM_OUT_OF_LINE void parse_pipeline_ref(const json& s, const Catalog& catalog, Scenario& out) {
  const auto it = s.find("model");
  if (it == s.end() || !(it->is_string() || it->is_object())) {
    throw InputError("/model", "is required: a pipeline id such as \"black-forest-labs/FLUX.1-dev\" (or an object)");
  }
  out.model_ref = it->is_string() ? it->get<std::string>() : "pipeline";
  out.pipeline = it->is_object() ? std::make_shared<const generation::Pipeline>(generation::parse_pipeline(*it, "/model"))
                                 : catalog.find_pipeline(out.model_ref);
  if (!out.pipeline) {
    // A close pipeline is named with its runtime: a "-Diffusers" repository of a model whose
    // catalog entry follows the reference scripts runs differently.
    std::string ids, near;
    for (const auto* p : catalog.pipeline_headers()) {
      ids += (ids.empty() ? "" : ", ") + p->id;
      if (close_to(out.model_ref, p->id))
        near += (near.empty() ? "" : ", ") + p->id + " (runtime " + std::string(name_of(generation::kRuntimes, p->runtime)) + ")";
    }
    throw InputError("/model", "unknown image/video pipeline \"" + out.model_ref + "\"" +
                                   (near.empty() ? "" : "; close: " + near) + "; catalog pipelines: " + ids);
  }
  if (it->is_object()) out.model_ref = out.pipeline->id;
  if (const auto wf = s.find("weights"); wf != s.end() && !wf->is_null()) {
    out.weights = parse_weight_format(*wf, "/weights", "bf16");
  }
}

/// Training a pipeline's denoiser: framework "diffusers" names a pipeline; a
/// pipeline named under another framework is refused with the one that trains it.
VRAM_OUT_OF_LINE bool diffusion_training(const json& s, const Catalog& catalog) {
  const auto t = s.find("training");
  const bool diffusers = t != s.end() && t->is_object() && t->contains("framework") &&
                         (*t)["framework"].is_string() && (*t)["framework"].get_ref<const std::string&>() == name_of(kFrameworks, Framework::diffusers);
  if (diffusers) return true;
  const auto m = s.find("model");
  if (m != s.end() && m->is_string() && catalog.has_pipeline(m->get_ref<const std::string&>()) &&
      !catalog.find_model(m->get_ref<const std::string&>()))
    throw InputError("/training/framework", "\"" + m->get<std::string>() + "\" is an image/video pipeline; its "
                                            "fine-tuning is modelled with framework \"diffusers\"");
  return false;
}

/// Defaults of settings a diffusion fine-tune does not read (its length is the
/// sample size; the generation block gives only the sample and placements) are
/// not defaults it used: each "block.field = value" is kept when the field is in
/// that block's list (kDiffusionTrainingFields, kDiffusionGenerationFields).
void drop_unread_defaults(std::vector<std::string>& d) {
  const auto read = [](const std::string& x) {
    const auto named = [&](std::string_view block, const auto& fields) {
      if (x.rfind(block, 0) != 0) return false;
      const std::string_view rest = std::string_view(x).substr(block.size());
      const std::string_view field = rest.substr(0, rest.find(' '));
      return std::find(fields.begin(), fields.end(), field) == fields.end();
    };
    return named("training.", kDiffusionTrainingFields) || named("generation.", kDiffusionGenerationFields);
  };
  d.erase(std::remove_if(d.begin(), d.end(), read), d.end());
}

/// Settings a diffusion fine-tune does not read, given anyway, are named in the
/// warnings with what it reads instead (never dropped in silence).
void warn_unread_fields(const json& s, Scenario& out) {
  const auto check = [&](const char* block, const auto& fields) {
    const auto b = s.find(block);
    if (b == s.end() || !b->is_object()) return;
    for (const auto& [key, value] : b->items()) {
      if (key == "extra" || std::find(fields.begin(), fields.end(), key) != fields.end()) continue;
      std::string w = std::string("/") + block + "/" + key + ": not read when fine-tuning a diffusion pipeline";
      if (std::string_view(block) == "training" && key == "attention")
        w += "; its attention is /generation/attention (efficient or naive)";
      else if (std::string_view(block) == "training" && key == "seq_len")
        w += "; its length is the sample size (/generation/width, height and frames)";
      out.warnings.push_back(std::move(w));
    }
  };
  check("training", kDiffusionTrainingFields);
  check("generation", kDiffusionGenerationFields);
}

/// Blocks of other workloads are named in the warnings, never read.
void warn_other_blocks(const json& s, Scenario& out) {
  const bool generation_ok = out.workload != Workload::inference;  // training a diffusion model reads it too
  for (const char* key : {"inference", "training", "generation"}) {
    const bool own = (out.workload == Workload::inference && std::string_view(key) == "inference") ||
                     (out.workload == Workload::training && std::string_view(key) == "training") ||
                     (generation_ok && std::string_view(key) == "generation");
    if (!own && s.contains(key)) {
      out.warnings.push_back(std::string("/") + key + ": ignored for workload " + to_string(out.workload));
    }
  }
}

/// vLLM's own headroom and GPU requirement.
void finish_inference(const json& s, Scenario& out) {
  if (out.inference().engine != Engine::vllm) return;
  // vLLM reserves gpu_memory_utilization × memory itself; that is the headroom (plan/fit.hpp).
  auto& d = out.defaults_used;
  d.erase(std::remove(d.begin(), d.end(), "headroom = 0.10"), d.end());
  if (s.contains("headroom")) {
    out.warnings.push_back(
        "headroom is not applied with vLLM: its gpu_memory_utilization reservation is the headroom (set "
        "inference.vllm.gpu_memory_utilization instead)");
  }
  // vLLM needs CUDA compute capability 7.0 or newer (docs.vllm.ai, "GPU installation: requirements").
  if (out.gpu.compute_capability > 0 && out.gpu.compute_capability < 70) {
    out.warnings.push_back(out.gpu.name + " has CUDA compute capability " +
                           std::to_string(out.gpu.compute_capability / 10) + "." +
                           std::to_string(out.gpu.compute_capability % 10) +
                           "; vLLM needs 7.0 or newer: use llama.cpp or transformers on it");
  }
}

VRAM_OUT_OF_LINE void parse_training_settings(const json& s, io::ParseNotes& notes, Scenario& out) {
  TrainingWorkload t{io::parse_training(s, out.gpu_count, notes, out.pipeline != nullptr), std::nullopt};
  out.parallel = training_parallelism(out.gpu_count, t.training);
  const bool video = out.pipeline && out.pipeline->modality == generation::Modality::video;
  if (s.contains("generation") && out.pipeline) t.generation = io::parse_generation(s, video, out.gpu_count, notes);
  if (out.pipeline) {
    drop_unread_defaults(out.defaults_used);
    warn_unread_fields(s, out);
  }
  if (s.contains("generation") && !out.pipeline)
    out.warnings.push_back("/generation: ignored: the sample geometry applies to image and video pipelines "
                           "(framework diffusers)");
  out.settings = std::move(t);
}

VRAM_OUT_OF_LINE void parse_generation_settings(const json& s, io::ParseNotes& notes, Scenario& out) {
  GenerationSettings g = io::parse_generation(s, out.workload == Workload::video, out.gpu_count, notes);
  out.parallel.context = g.sequence_parallel;  // Ulysses / ring attention split the tokens
  out.parallel.data = std::max<std::int64_t>(1, out.gpu_count / g.sequence_parallel);
  out.settings = std::move(g);
}

void parse_settings(const json& s, Scenario& out) {
  io::ParseNotes notes{out.defaults_used, out.warnings};
  switch (out.workload) {
    case Workload::inference:
      out.settings = InferenceSettings{};
      parse_inference(s, out);
      finish_inference(s, out);
      // llama.cpp splits the layers over every GPU it is given (--split-mode layer).
      if (out.inference().engine == Engine::llama_cpp) out.parallel = inference_parallelism(out.gpu_count, 1, out.gpu_count);
      break;
    case Workload::training: parse_training_settings(s, notes, out); break;
    case Workload::image:
    case Workload::video: parse_generation_settings(s, notes, out); break;
  }
  warn_other_blocks(s, out);
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
  out.workload = parse_workload(s, out);
  const bool pipeline = out.workload == Workload::image || out.workload == Workload::video ||
                        (out.workload == Workload::training && diffusion_training(s, catalog));
  if (pipeline) {
    parse_pipeline_ref(s, catalog, out);
  } else {
    parse_weights(s, parse_model_ref(s, catalog, out), out);
  }
  parse_hardware(s, catalog, out);
  if (auto h = io::optional_number(s, "headroom", "", 0.0, 0.9)) {
    out.headroom = *h;
  } else {
    out.defaults_used.push_back("headroom = 0.10");
  }
  parse_settings(s, out);
  if (out.model) {
    for (const auto& n : out.model->arch.notes) out.warnings.push_back(n);
  }
  return out;
}

Scenario parse_scenario_text(const std::string& text, const Catalog& catalog) {
  return parse_scenario(io::read_json(text, "the scenario"), catalog);
}

KvDtype kv_dtype_of(KvKind kind) {
  KvDtype d;
  d.kind = kind;
  d.name = std::string(name_of(kKvCacheDtypes, kind));
  switch (kind) {
    case KvKind::fp16:
    case KvKind::bf16: d.block_bytes = 2; break;
    case KvKind::fp32: d.block_bytes = 4; break;
    case KvKind::fp8: d.block_bytes = 1; break;
    default: {
      const GgmlType t = ggml_type(d.name, "/inference/kv_cache_dtype");  // ggml block layouts (formats.cpp)
      d.block_elems = t.block_elems;
      d.block_bytes = t.block_bytes;
    }
  }
  return d;
}

}  // namespace vram
