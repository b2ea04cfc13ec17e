#include "vram/catalog.hpp"

#include <algorithm>
#include <cstdio>

#include "vram/error.hpp"
#include "vram/formats.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_read.hpp"

namespace vram {

using nlohmann::json;

namespace {

/// Files under models/pipelines/ are image and video pipelines.
constexpr std::string_view kPipelineDir = "pipelines/";
/// models/gpus.json is the GPU catalog; every other file is one model.
constexpr std::string_view kGpuFile = "gpus.json";

/// "/name": a catalog file as the root of the JSON pointers its errors name.
std::string pointer_of(std::string_view file) {
  std::string p;
  p.reserve(file.size() + 1);
  p += '/';
  p += file;
  return p;
}

CatalogModel read_model(std::string_view file, std::string_view expected_id, json j) {
  const std::string path = pointer_of(file);
  CatalogModel m;
  m.id = io::optional_string(j, "id", path).value_or("");
  if (m.id.empty()) throw InputError(path + "/id", "is required: the Hugging Face repository id");
  if (m.id != expected_id) {
    throw InputError(path + "/id", "is \"" + m.id + "\" but the file is named for \"" + std::string(expected_id) + "\"");
  }
  m.revision = io::optional_string(j, "revision", path).value_or("");
  m.config_source = io::optional_string(j, "config_source", path).value_or("");
  if (!j.contains("config")) throw InputError(path + "/config", "is required: the model's config.json");
  m.config = std::move(j.at("config"));
  m.model = model_from_config(m.config, path + "/config", m.id);
  const json ck = j.value("checkpoint", json::object());
  const std::string ckpath = path + "/checkpoint";
  if (auto total = io::optional_int(ck, "total_bytes", ckpath)) m.model.checkpoint_bytes = Bytes::of(*total);
  m.checkpoint_status = io::optional_string(ck, "status", ckpath).value_or("unknown");
  m.checkpoint_source = io::optional_string(ck, "source", ckpath).value_or("");
  if (auto extra = ck.find("extra_tensors"); extra != ck.end() && extra->is_array()) {
    for (std::size_t i = 0; i < extra->size(); ++i) {
      const auto& e = (*extra)[i];
      const std::string ep = ckpath + "/extra_tensors/" + std::to_string(i);
      // Either per decoder layer (rotary inv_freq buffers) or a whole tensor (a tied head stored twice).
      const auto per_layer = io::optional_int(e, "per_layer_elems", ep);
      const auto whole = io::optional_int(e, "elems", ep);
      if (!per_layer && !whole) throw InputError(ep, "needs per_layer_elems or elems");
      const std::string dtype = io::optional_string(e, "dtype", ep).value_or("F32");
      const std::int64_t elems = per_layer ? *per_layer * m.model.arch.layers : *whole;
      m.checkpoint_extra_bytes += Bytes::of(elems * safetensors_dtype_bytes(dtype, ep + "/dtype"));
    }
  }
  return m;
}

Gpu read_gpu(const json& g, const std::string& path) {
  Gpu gpu;
  gpu.id = io::optional_string(g, "id", path).value_or("");
  if (gpu.id.empty()) throw InputError(path + "/id", "is required");
  gpu.name = io::optional_string(g, "name", path).value_or(gpu.id);
  gpu.vendor = io::optional_string(g, "vendor", path).value_or("");
  gpu.marketing_gb = io::optional_number(g, "marketing_gb", path, 0, 1e6).value_or(0);
  gpu.memory = Bytes::of(io::require_int(g, "memory_bytes", path, {1, io::kAbsurd}));
  gpu.memory_source = io::optional_string(g, "memory_source", path).value_or("");
  gpu.price_usd_per_hour = io::optional_number(g, "price_usd_per_hour", path, 0, 1e6);
  gpu.price_source = io::optional_string(g, "price_source", path).value_or("");
  gpu.sm_count = static_cast<int>(io::optional_int(g, "sm_count", path, {1, 10'000}).value_or(0));
  if (auto cc = io::optional_string(g, "compute_capability", path)) {
    int major = 0, minor = 0;
    if (std::sscanf(cc->c_str(), "%d.%d", &major, &minor) != 2 || major < 1 || minor < 0 || minor > 9) {
      throw InputError(path + "/compute_capability", "must be \"major.minor\" such as \"8.0\"; got \"" + *cc + "\"");
    }
    gpu.compute_capability = major * 10 + minor;
  }
  gpu.interconnect = io::optional_enum(g, "interconnect", path, kInterconnects).value_or(Interconnect::unknown);
  gpu.rocm_arch = io::optional_enum(g, "gcn_arch", path, kRocmArchs).value_or(RocmArch::none);
  if ((gpu.vendor == "amd") != (gpu.rocm_arch != RocmArch::none)) {
    throw InputError(path + "/gcn_arch", "is required for an AMD GPU (gfx942, gfx950) and absent for every other");
  }
  return gpu;
}

/// "org/name" from "org__name.json": a model file is named after its Hugging Face id.
std::string id_of_file(std::string_view name) {
  constexpr std::string_view kSuffix = ".json";
  const auto sep = name.find("__");
  if (!name.ends_with(kSuffix) || sep == std::string_view::npos || sep == 0 ||
      sep + 2 >= name.size() - kSuffix.size()) {
    throw InputError(pointer_of(name), "a model file is named after its id, <org>__<name>.json");
  }
  std::string id(name.substr(0, sep));
  id += '/';
  id += name.substr(sep + 2, name.size() - kSuffix.size() - sep - 2);
  return id;
}

/// A catalog file's document, read by the same bounded reader as any input
/// (so a duplicate key in a catalog file is an error, not a silent choice).
json parsed(const CatalogFile& f) {
  try {
    return io::read_json(f.text, f.name);
  } catch (const InputError& e) {
    throw InputError(pointer_of(f.name) + e.path(), std::string("is not valid JSON: ") + e.what());
  }
}

}  // namespace

Catalog::Catalog(std::vector<CatalogFile> files) {
  for (auto& f : files) {
    if (f.name.starts_with(kPipelineDir)) {
      std::string path = pointer_of(f.name);
      json doc = parsed(f);
      generation::Pipeline header = generation::parse_pipeline_header(doc, path);
      pipeline_slots_.push_back({std::move(header), std::move(path), std::move(doc), nullptr});
    } else if (f.name == kGpuFile) {
      const json j = parsed(f);
      const auto list = j.find("gpus");
      if (list == j.end() || !list->is_array()) throw InputError("/gpus.json/gpus", "is required: a list of GPUs");
      for (std::size_t i = 0; i < list->size(); ++i) {
        gpus_.push_back(read_gpu((*list)[i], "/gpus.json/gpus/" + std::to_string(i)));
      }
    } else {
      std::string id = id_of_file(f.name);
      slots_.push_back({std::move(id), std::move(f), nullptr});
    }
  }
  by_id_.reserve(slots_.size());
  for (std::size_t i = 0; i < slots_.size(); ++i) by_id_.emplace_back(slots_[i].id, i);
  std::stable_sort(by_id_.begin(), by_id_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

const CatalogModel& Catalog::read(const ModelSlot& slot) const {
  if (!slot.model) {
    const std::string path = pointer_of(slot.file.name);
    auto m = std::make_unique<CatalogModel>(read_model(slot.file.name, slot.id, parsed(slot.file)));
    m->shared = std::make_shared<const Model>(m->model);
    m->own_format = format_from_quantization_config(m->config, path + "/config", m->model.arch.native_dtype, m->quantized);
    check_group_alignment(m->own_format, m->model);
    slot.model = std::move(m);
  }
  return *slot.model;
}

const CatalogModel* Catalog::find_model(std::string_view id) const {
  const auto it = std::lower_bound(by_id_.begin(), by_id_.end(), id,
                                   [](const auto& entry, std::string_view v) { return entry.first < v; });
  return it != by_id_.end() && it->first == id ? &read(slots_[it->second]) : nullptr;
}

std::vector<std::string_view> Catalog::model_ids() const {
  std::vector<std::string_view> ids;
  ids.reserve(slots_.size());
  for (const auto& s : slots_) ids.emplace_back(s.id);
  return ids;
}

const std::vector<const CatalogModel*>& Catalog::models() const {
  if (all_.size() != slots_.size()) {
    all_.clear();
    for (const auto& s : slots_) all_.push_back(&read(s));
  }
  return all_;
}

const Catalog::PipelineSlot* Catalog::pipeline_slot(std::string_view id) const {
  for (const auto& s : pipeline_slots_) {
    if (s.header.id == id) return &s;
    for (const auto& a : s.header.aliases)
      if (a == id) return &s;
  }
  return nullptr;
}

const std::shared_ptr<const generation::Pipeline>& Catalog::read(const PipelineSlot& slot) const {
  if (!slot.pipeline) {
    generation::Pipeline p = slot.header;
    generation::read_pipeline_components(slot.doc, slot.path, p);
    slot.pipeline = std::make_shared<const generation::Pipeline>(std::move(p));
  }
  return slot.pipeline;
}

std::shared_ptr<const generation::Pipeline> Catalog::find_pipeline(std::string_view id) const {
  const PipelineSlot* s = pipeline_slot(id);
  return s ? read(*s) : nullptr;
}

const std::vector<std::shared_ptr<const generation::Pipeline>>& Catalog::pipelines() const {
  if (all_pipelines_.size() != pipeline_slots_.size()) {
    all_pipelines_.clear();
    for (const auto& s : pipeline_slots_) all_pipelines_.push_back(read(s));
  }
  return all_pipelines_;
}

std::vector<const generation::Pipeline*> Catalog::pipeline_headers() const {
  std::vector<const generation::Pipeline*> out;
  out.reserve(pipeline_slots_.size());
  for (const auto& s : pipeline_slots_) out.push_back(&s.header);
  return out;
}

const Gpu* Catalog::find_gpu(std::string_view id) const {
  for (const auto& g : gpus_) {
    if (g.id == id) return &g;
  }
  return nullptr;
}

}  // namespace vram
