// Inspection of model files from their headers (io/inspect.hpp).
#include "vram/io/inspect.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "vram/error.hpp"
#include "vram/formats.hpp"
#include "vram/io/json_read.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/units.hpp"

namespace vram::io {

namespace {

using nlohmann::json;

/// GGUF architectures whose `<arch>.*` keys map one to one onto a config.json
/// (ggml-org/llama.cpp @ 00342301d01a convert_hf_to_gguf.py writes them from
/// these model types).
struct GgufArch {
  std::string_view arch;
  std::string_view model_type;
};
constexpr std::array<GgufArch, 11> kGgufArchs{{{"llama", "llama"},
                                               {"mamba", "mamba"},
                                               {"qwen2", "qwen2"},
                                               {"qwen2moe", "qwen2_moe"},
                                               {"qwen3", "qwen3"},
                                               {"qwen3moe", "qwen3_moe"},
                                               {"gemma", "gemma"},
                                               {"gemma2", "gemma2"},
                                               {"gemma3", "gemma3_text"},
                                               {"phi3", "phi3"},
                                               {"starcoder2", "starcoder2"}}};

/// GGUF metadata key → config.json field, for the scalar keys that map directly.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kGgufKeys{{
    {"block_count", "num_hidden_layers"},
    {"embedding_length", "hidden_size"},
    {"feed_forward_length", "intermediate_size"},
    {"attention.head_count", "num_attention_heads"},
    {"attention.head_count_kv", "num_key_value_heads"},
    {"attention.key_length", "head_dim"},
    {"context_length", "max_position_embeddings"},
    {"vocab_size", "vocab_size"},
    {"expert_count", "num_experts"},
    {"expert_used_count", "num_experts_per_tok"},
    {"expert_feed_forward_length", "moe_intermediate_size"},
    {"attention.value_length", "v_head_dim"},
    // Mamba (llama.cpp llm_build_mamba; convert_hf_to_gguf.py MambaModel writes them from these fields).
    {"ssm.conv_kernel", "conv_kernel"},
    {"ssm.inner_size", "intermediate_size"},
    {"ssm.state_size", "state_size"},
    {"ssm.time_step_rank", "time_step_rank"},
}};

bool has_tensor(const FileHeader& h, std::string_view name) {
  return std::any_of(h.tensors.begin(), h.tensors.end(), [&](const auto& t) { return t.name == name; });
}

/// The number after `marker` in `name` ("model.layers.12.mlp" → 12), or -1.
std::int64_t index_after(std::string_view name, std::string_view marker) {
  const auto at = name.find(marker);
  if (at == std::string_view::npos) return -1;
  std::int64_t n = -1;
  for (std::size_t i = at + marker.size(); i < name.size() && name[i] >= '0' && name[i] <= '9' && n < 1'000'000; ++i)
    n = (n < 0 ? 0 : n * 10) + (name[i] - '0');
  return n;
}

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

/// What the tensor names show: repeated blocks, experts, a vision tower, MTP heads, a separate head.
json architecture_from_names(const std::vector<const TensorHeader*>& ts) {
  std::int64_t layers = 0, experts = 0, vision = 0, mtp = 0;
  bool head = false, embed = false;
  for (const TensorHeader* t : ts) {
    const std::string_view n = t->name;
    const std::int64_t l = std::max({index_after(n, "layers."), index_after(n, "blk."), index_after(n, ".h.")});
    const bool vis = contains(n, "vision") || contains(n, "visual.") || n.rfind("v.", 0) == 0 || contains(n, "mm.");
    if (vis) ++vision;
    if (!vis && l >= 0) layers = std::max(layers, l + 1);
    experts = std::max(experts, index_after(n, "experts.") + 1);
    if (contains(n, "mtp") || contains(n, "nextn")) ++mtp;
    head = head || contains(n, "lm_head") || n == "output.weight";
    embed = embed || contains(n, "embed_tokens") || n == "token_embd.weight" || contains(n, "wte");
  }
  json a = {{"blocks", layers}, {"vision_tensors", vision}, {"mtp_tensors", mtp}};
  if (experts > 0) a["experts"] = experts;
  if (embed) a["tied_embeddings"] = !head;
  return a;
}

/// The quantized layout the tensor names show, as the loaders store them.
std::string_view quantized_layout(const std::vector<const TensorHeader*>& ts) {
  // GPTQ/AWQ QuantLinear (qweight, qzeros, scales, g_idx); compressed-tensors pack-quantized
  // (weight_packed); fp8 (weight_scale, weight_scale_inv); bitsandbytes (quant_state);
  // gpt-oss MXFP4 (*_blocks with *_scales).
  constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kMarks{{{".qweight", "gptq/awq packed int"},
                                                                              {".weight_packed", "compressed-tensors packed"},
                                                                              {".quant_state", "bitsandbytes"},
                                                                              {"_blocks", "mxfp4 blocks and scales"},
                                                                              {".weight_scale_inv", "fp8 block scales"},
                                                                              {".weight_scale", "per-channel scales"}}};
  for (const auto& [mark, layout] : kMarks)
    for (const TensorHeader* t : ts)
      if (contains(t->name, mark)) return layout;
  return "";
}

std::string_view format_name(FileFormat f) {
  return f == FileFormat::gguf ? "gguf" : "safetensors";
}

json file_summary(const FileHeader& h) {
  std::map<std::string, std::int64_t> by;
  Bytes total;
  for (const auto& t : h.tensors) {
    by[t.dtype] += t.bytes.in_bytes();
    total += t.bytes;
  }
  return {{"name", h.name},           {"format", format_name(h.format)}, {"file_size", h.file_size},
          {"bytes_read", h.bytes_read}, {"tensors", h.tensors.size()},   {"tensor_bytes", total.in_bytes()},
          {"by_dtype", by}};
}

/// Every shard the index names was given, and holds the tensors it is said to.
void check_index(const SafetensorsIndex& idx, const std::vector<FileHeader>& files) {
  std::map<std::string, std::set<std::string>> held;
  for (const auto& f : files) {
    const std::string base = f.name.substr(f.name.find_last_of('/') + 1);
    for (const auto& t : f.tensors) held[base].insert(t.name);
  }
  for (const auto& [tensor, shard] : idx.weight_map) {
    const auto it = held.find(shard);
    if (it == held.end()) {
      throw InputError(idx.name + ":" + join_path("/weight_map", tensor),
                       "names shard \"" + shard + "\", which was not given; give every shard or only the index");
    }
    if (it->second.count(tensor) == 0) {
      throw InputError(idx.name + ":" + join_path("/weight_map", tensor), "is not in the header of " + shard);
    }
  }
}

/// Without an architecture the reference is the parameter count the shapes hold
/// (weights only), when the tensors store one element per parameter.
void add_param_count(const std::vector<const TensorHeader*>& all, const json& out, json& model, json& notes) {
  if (all.empty()) return;
  if (out["architecture"].contains("quantized_layout")) {
    notes.push_back("packed quantized tensors hold several parameters per element: no parameter count is given");
    return;
  }
  std::int64_t params = 0;
  try {
    for (const TensorHeader* t : all) {
      std::int64_t n = 1;
      for (const std::int64_t d : t->shape) n = checked::mul(n, d);
      params = checked::add(params, n);
    }
  } catch (const ArithmeticOverflow&) {  // only shapes no real file holds
    notes.push_back("the tensors' element counts overflow 64 bits together: no parameter count is given");
    return;
  }
  model["params"] = params;
  notes.push_back("the reference is the parameter count of the shapes: the weights alone are estimated");
}

}  // namespace

std::optional<json> config_from_gguf(const FileHeader& g) {
  const auto a = g.metadata.find("general.architecture");
  if (a == g.metadata.end() || !a->is_string()) return std::nullopt;
  const std::string arch = a->get<std::string>();
  const auto known = std::find_if(kGgufArchs.begin(), kGgufArchs.end(), [&](const GgufArch& k) { return k.arch == arch; });
  if (known == kGgufArchs.end()) return std::nullopt;
  json cfg = {{"model_type", known->model_type}};
  for (const auto& [key, field] : kGgufKeys) {
    const auto it = g.metadata.find(arch + "." + std::string(key));
    if (it != g.metadata.end() && it->is_number_unsigned()) cfg[std::string(field)] = *it;
  }
  if (!cfg.contains("vocab_size")) {
    const auto tok = g.metadata.find("tokenizer.ggml.tokens");
    if (tok != g.metadata.end() && tok->is_object() && tok->contains("count")) cfg["vocab_size"] = (*tok)["count"];
  }
  if (const auto w = g.metadata.find(arch + ".attention.sliding_window"); w != g.metadata.end() && w->is_number())
    cfg["sliding_window"] = *w;
  cfg["tie_word_embeddings"] = !has_tensor(g, "output.weight");
  return cfg;
}

namespace {

/// The refusal of files that hold no weights (a lone config.json says how to estimate it).
InputError no_model_file(bool config) {
  return InputError("files", std::string("give at least one model file: safetensors shards, a "
                                         "model.safetensors.index.json or a GGUF file") +
                                 (config ? "; a config.json alone is estimated as a scenario's model: "
                                           "{\"model\": {\"config\": {...}}}"
                                         : ""));
}

}  // namespace

json inspect(const InspectInput& in) {
  if (in.files.empty() && in.indexes.empty()) throw no_model_file(in.config.has_value());
  if (in.indexes.size() > 1) throw InputError(in.indexes[1].name, "give one model.safetensors.index.json");
  const bool gguf = std::any_of(in.files.begin(), in.files.end(), [](const auto& f) { return f.format == FileFormat::gguf; });
  if (gguf && in.files.size() > 1) throw InputError(in.files[1].name, "give one GGUF file at a time");
  if (!in.indexes.empty() && !in.files.empty()) check_index(in.indexes[0], in.files);
  json out = {{"ok", true}, {"v", 1}, {"format", gguf ? "gguf" : "safetensors"}};
  json files = json::array(), notes = json::array();
  std::vector<const TensorHeader*> all;
  std::map<std::string, std::int64_t> by;
  Bytes total;
  for (const auto& f : in.files) {
    files.push_back(file_summary(f));
    for (const auto& t : f.tensors) {
      all.push_back(&t);
      by[t.dtype] += t.bytes.in_bytes();
      total += t.bytes;
    }
  }
  out["files"] = files;
  out["tensors"] = all.size();
  out["by_dtype"] = by;
  out["tensor_bytes"] = total.in_bytes();
  out["architecture"] = architecture_from_names(all);
  if (const std::string_view q = quantized_layout(all); !q.empty()) out["architecture"]["quantized_layout"] = q;
  json model = json::object();
  if (in.files.empty()) {
    const auto& idx = in.indexes[0];
    if (idx.total_size) model["weights_bytes"] = *idx.total_size;
    notes.push_back("only the index was given: the size is its metadata.total_size; give the shards for tensors and dtypes");
  } else {
    model["weights_bytes"] = total.in_bytes();
  }
  if (in.config) {
    model["config"] = *in.config;
  } else if (gguf) {
    const FileHeader& g = in.files[0];
    if (auto cfg = config_from_gguf(g)) {
      model["config"] = *cfg;
    } else {
      notes.push_back("the GGUF architecture is not mapped to a config.json: give the model's config.json beside it");
    }
    out["gguf_version"] = g.gguf_version;
    out["architecture"]["gguf_architecture"] = g.metadata.value("general.architecture", json("unknown"));
    const auto ft = g.metadata.find("general.file_type");
    if (ft != g.metadata.end() && ft->is_number_unsigned()) {
      if (const char* name = gguf_file_type_name(ft->get<std::int64_t>())) out["weights"] = std::string("gguf:") + name;
    }
  } else {
    notes.push_back("safetensors headers hold no architecture: give the config.json beside the shards to estimate");
  }
  if (!model.contains("config")) add_param_count(all, out, model, notes);
  out["model"] = model;
  out["notes"] = notes;
  return out;
}

namespace {

std::string_view base_name(std::string_view name) {
  const auto slash = name.find_last_of('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

/// The folder a file sits in ("FLUX.1-dev/transformer/x.safetensors" → "transformer"), or "".
std::string parent_dir(std::string_view name) {
  const auto slash = name.find_last_of('/');
  if (slash == std::string_view::npos) return {};
  const std::string_view dir = name.substr(0, slash);
  return std::string(base_name(dir));
}

/// A model's config.json. Other *config.json files of a model folder
/// (generation_config, tokenizer_config, scheduler_config, ...) are not it.
bool is_config_name(std::string_view name) {
  return base_name(name) == "config.json";
}

/// A diffusers pipeline's model_index.json: its class and components.
bool is_pipeline_index_name(std::string_view name) {
  return base_name(name) == "model_index.json";
}

/// A whole small file: its text, or a request for all of it.
std::optional<PrefixRequest> whole(const FilePrefix& f) {
  if (f.size > kMaxHeaderBytes) {
    throw InputError(f.name, "is " + std::to_string(f.size) + " bytes; an index or config file is at most " +
                                 std::to_string(kMaxHeaderBytes));
  }
  if (f.prefix.size() < f.size) return PrefixRequest{f.size};
  return std::nullopt;
}

/// The files read so far, by the folder each sits in.
struct Collected {
  std::map<std::string, InspectInput> by_dir;
  std::optional<json> pipeline_index;  ///< model_index.json
  std::vector<std::string> skipped;    ///< *config.json files that are not a model's config
  std::vector<std::string> notes;      ///< what reading the files changed (Python's Infinity and NaN)
  json need = json::array();
};

void collect(const FilePrefix& f, Collected& c) {
  if (f.prefix.size() > f.size) throw InputError(f.name, "more bytes were given than the file has");
  const bool index = is_index_name(f.name), config = is_config_name(f.name), pipe = is_pipeline_index_name(f.name);
  if (!index && !config && !pipe && base_name(f.name).size() >= 11 &&
      base_name(f.name).substr(base_name(f.name).size() - 11) == "config.json") {
    c.skipped.push_back(f.name);
    return;
  }
  InspectInput& in = c.by_dir[parent_dir(f.name)];
  if (index || config || pipe) {
    if (auto r = whole(f)) {
      c.need.push_back({{"name", f.name}, {"bytes", r->bytes}});
    } else if (index) {
      in.indexes.push_back(read_safetensors_index(f.name, f.prefix));
    } else if (config) {
      int python_literals = 0;
      in.config = read_config_json(f.prefix, f.name, python_literals);
      if (python_literals > 0) c.notes.push_back(python_literals_note(f.name, python_literals));
    } else {
      c.pipeline_index = read_json(f.prefix, f.name);
    }
    return;
  }
  HeaderStep step = read_header(f.name, f.prefix, f.size);
  if (auto* h = std::get_if<FileHeader>(&step)) {
    in.files.push_back(std::move(*h));
  } else {
    c.need.push_back({{"name", f.name}, {"bytes", std::get<PrefixRequest>(step).bytes}});
  }
}

bool holds_weights(const InspectInput& in) {
  return !in.files.empty() || !in.indexes.empty();
}

/// A diffusers folder: each component (transformer, vae, text_encoder, ...) inspected on its own.
json inspect_pipeline(const Collected& c) {
  json out = {{"ok", true}, {"v", 1}, {"format", "diffusers"}};
  json components = json::array(), files = json::array(), notes = json::array();
  std::map<std::string, std::int64_t> by;
  std::int64_t tensors = 0, bytes = 0;
  for (const auto& [dir, in] : c.by_dir) {
    if (!holds_weights(in)) continue;
    json one = inspect(in);
    for (const auto& f : one["files"]) files.push_back(f);
    for (const auto& [d, b] : one["by_dtype"].items()) by[d] += b.get<std::int64_t>();
    tensors += one["tensors"].get<std::int64_t>();
    bytes += one["tensor_bytes"].get<std::int64_t>();
    components.push_back({{"component", dir.empty() ? "(top folder)" : dir},
                          {"format", one["format"]},
                          {"tensors", one["tensors"]},
                          {"tensor_bytes", one["tensor_bytes"]},
                          {"by_dtype", one["by_dtype"]},
                          {"architecture", one["architecture"]},
                          {"model", one["model"]}});
  }
  out["components"] = components;
  out["files"] = files;
  out["tensors"] = tensors;
  out["by_dtype"] = by;
  out["tensor_bytes"] = bytes;
  if (c.pipeline_index && c.pipeline_index->is_object()) {
    const json& idx = *c.pipeline_index;
    if (idx.contains("_class_name") && idx["_class_name"].is_string()) out["pipeline_class"] = idx["_class_name"];
    for (const auto& [name, spec] : idx.items()) {
      if (name.empty() || name[0] == '_' || !spec.is_array()) continue;
      const auto it = c.by_dir.find(name);
      const bool has_weights = it != c.by_dir.end() && holds_weights(it->second);
      const bool weighty = spec.size() == 2 && spec[1].is_string() &&
                           spec[1].get<std::string>().find("Tokenizer") == std::string::npos &&
                           spec[1].get<std::string>().find("Scheduler") == std::string::npos;
      if (weighty && !has_weights) notes.push_back("model_index.json names " + name + ", whose files were not given");
    }
  }
  notes.push_back("a diffusers pipeline: each component's exact bytes are above; estimate it by its pipeline id");
  out["notes"] = notes;
  return out;
}

}  // namespace

json inspect_prefixes(const std::vector<FilePrefix>& files) {
  Collected c;
  for (const FilePrefix& f : files) collect(f, c);
  if (!c.need.empty()) return {{"ok", true}, {"v", 1}, {"need", c.need}};
  const auto with_weights = std::count_if(c.by_dir.begin(), c.by_dir.end(), [](const auto& d) { return holds_weights(d.second); });
  json out;
  if (c.pipeline_index || with_weights > 1) {
    out = inspect_pipeline(c);
  } else {
    // One model, wherever its files sit: the folder's config.json and index with its shards.
    InspectInput in;
    for (auto& [dir, d] : c.by_dir) {
      for (const auto& f : d.files) in.files.push_back(f);
      for (const auto& i : d.indexes) in.indexes.push_back(i);
      if (d.config) in.config = d.config;
    }
    out = inspect(in);
  }
  for (const auto& name : c.skipped) out["notes"].push_back("not read: " + name + " (not a model\u2019s config.json)");
  for (const auto& n : c.notes) out["notes"].push_back(n);
  return out;
}

}  // namespace vram::io
