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
constexpr std::array<GgufArch, 10> kGgufArchs{{{"llama", "llama"},
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
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kGgufKeys{{
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

json inspect(const InspectInput& in) {
  if (in.files.empty() && in.indexes.empty()) throw InputError("files", "give at least one model file");
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
  out["model"] = model;
  out["notes"] = notes;
  return out;
}

namespace {

bool is_config_name(std::string_view name) {
  constexpr std::string_view tail = "config.json";
  return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail && !is_index_name(name);
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

}  // namespace

json inspect_prefixes(const std::vector<FilePrefix>& files) {
  InspectInput in;
  json need = json::array();
  for (const FilePrefix& f : files) {
    if (f.prefix.size() > f.size) throw InputError(f.name, "more bytes were given than the file has");
    if (is_index_name(f.name) || is_config_name(f.name)) {
      if (auto r = whole(f)) {
        need.push_back({{"name", f.name}, {"bytes", r->bytes}});
      } else if (is_index_name(f.name)) {
        in.indexes.push_back(read_safetensors_index(f.name, f.prefix));
      } else {
        in.config = read_json(f.prefix, f.name);
      }
      continue;
    }
    HeaderStep step = read_header(f.name, f.prefix, f.size);
    if (auto* h = std::get_if<FileHeader>(&step)) {
      in.files.push_back(std::move(*h));
    } else {
      need.push_back({{"name", f.name}, {"bytes", std::get<PrefixRequest>(step).bytes}});
    }
  }
  if (!need.empty()) return {{"ok", true}, {"v", 1}, {"need", need}};
  return inspect(in);
}

}  // namespace vram::io
