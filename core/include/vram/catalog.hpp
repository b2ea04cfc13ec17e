// The catalog: models and GPUs from models/*.json, embedded at build time.
//
// A `Catalog` is built once from the JSON texts (the faces hold one and pass it
// by const reference); a model's file is read on first use and kept.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vram/formats.hpp"
#include "vram/gpu_arch.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"
#include "vram/workloads.hpp"

namespace vram {
namespace io {
class JsonWriter;
}  // namespace io

/// How the GPUs of one machine reach each other: what decides NCCL's
/// transport and channel count and whether vLLM enables its own all-reduce.
enum class Interconnect : std::uint8_t {
  unknown,       ///< not stated (a custom GPU); engines say what they assume
  pcie,          ///< PCIe without peer-to-peer access (GeForce cards): NCCL goes through host memory
  pcie_p2p,      ///< PCIe with peer-to-peer access between the GPUs
  nvlink_pairs,  ///< NVLink bridges between pairs of GPUs, PCIe between the pairs (H100 NVL, RTX A6000)
  nvlink,        ///< every GPU reaches every other over NVLink through NVSwitch (HGX / DGX boards)
  xgmi,          ///< AMD Infinity Fabric between all GPUs of the platform (MI300X OAM boards)
};

/// The names `hardware.interconnect` and models/gpus.json spell them with.
inline constexpr std::array<Choice<Interconnect>, 5> kInterconnects{{{Interconnect::pcie, "pcie"},
                                                                     {Interconnect::pcie_p2p, "pcie-p2p"},
                                                                     {Interconnect::nvlink_pairs, "nvlink-pairs"},
                                                                     {Interconnect::nvlink, "nvlink"},
                                                                     {Interconnect::xgmi, "xgmi"}}};

/// One GPU model: the memory the framework sees, and a marketing label.
struct Gpu {
  std::string id;    ///< catalog id, e.g. "H100-SXM-80GB"
  std::string name;  ///< "NVIDIA H100 SXM5 80GB HBM3"
  std::string vendor;
  double marketing_gb = 0;
  Bytes memory;  ///< cudaMemGetInfo total (what torch and vLLM see)
  std::string memory_source;
  std::optional<double> price_usd_per_hour;
  std::string price_source;
  /// CUDA compute capability ("8.0" → 80); 0 for GPUs without one (AMD).
  int compute_capability = 0;
  /// Streaming multiprocessors (compute units on AMD); 0 when unknown.
  int sm_count = 0;
  /// How several of these GPUs in one server are usually connected (gpus.json `interconnect`).
  Interconnect interconnect = Interconnect::unknown;
  /// The LLVM target of an AMD GPU (gpus.json `gcn_arch`); none for NVIDIA.
  RocmArch rocm_arch = RocmArch::none;
};

struct CatalogModel {
  std::string id;
  std::string revision;
  std::string config_source;
  nlohmann::json config;                ///< verbatim config.json
  Model model;                          ///< resolved architecture and inventory
  std::shared_ptr<const Model> shared;  ///< the same model, for scenarios to share without copying
  WeightFormat own_format;              ///< the checkpoint's storage, from its quantization_config or dtype
  bool quantized = false;               ///< the checkpoint has a quantization_config
  std::string checkpoint_status;        ///< verified | corroborated | computed | unknown
  std::string checkpoint_source;
  /// Non-parameter tensors stored in the checkpoint (e.g. Llama-2 inv_freq).
  Bytes checkpoint_extra_bytes;
};

/// One embedded file: its name (relative to models/) and text.
struct CatalogFile {
  std::string name;
  std::string text;
};

class Catalog {
 public:
  /// Reads the GPU list and each pipeline's top-level fields; each model's file
  /// is read when the model is first asked for (`find_model`, `models`), and a
  /// pipeline's components when it is (`find_pipeline`, `pipelines`), so a face
  /// that needs one model does not pay for ninety. Throws `InputError` naming the file on bad
  /// data, here or at that first use.
  explicit Catalog(std::vector<CatalogFile> files);
  Catalog(const Catalog&) = delete;
  Catalog& operator=(const Catalog&) = delete;

  const CatalogModel* find_model(std::string_view id) const;
  const Gpu* find_gpu(std::string_view id) const;
  /// Every model, in file order (reading the files not read yet).
  const std::vector<const CatalogModel*>& models() const;
  /// How many models the catalog holds, without reading them.
  std::size_t model_count() const { return slots_.size(); }
  /// Every model's id, in file order, without reading the files.
  std::vector<std::string_view> model_ids() const;
  const std::vector<Gpu>& gpus() const { return gpus_; }
  /// An image or video pipeline by id or alias (models/pipelines/*.json), or
  /// nullptr. Its components are read when the pipeline is first asked for.
  std::shared_ptr<const generation::Pipeline> find_pipeline(std::string_view id) const;
  /// Whether a pipeline has this id or alias (no component is read).
  bool has_pipeline(std::string_view id) const { return pipeline_slot(id) != nullptr; }
  /// Every pipeline, in file order (reading the components not read yet).
  const std::vector<std::shared_ptr<const generation::Pipeline>>& pipelines() const;
  /// Every pipeline's top-level fields (id, aliases, modality, runtime, native
  /// geometry), without components: what a list of pipelines needs.
  std::vector<const generation::Pipeline*> pipeline_headers() const;

 private:
  /// One model file: its id (from the file's name) and, once read, the model.
  /// The catalog is immutable data; reading a file on first use is a memo, and
  /// a catalog is used from one thread (each face holds its own).
  struct ModelSlot {
    std::string id;
    CatalogFile file;
    mutable std::unique_ptr<const CatalogModel> model;
  };
  const CatalogModel& read(const ModelSlot& slot) const;

  /// One pipeline file: its top-level fields at once; its components (each
  /// one's configuration and inventory) when first asked for, as for models.
  struct PipelineSlot {
    generation::Pipeline header;
    std::string path;
    nlohmann::json doc;
    mutable std::shared_ptr<const generation::Pipeline> pipeline;
  };
  const PipelineSlot* pipeline_slot(std::string_view id) const;
  const std::shared_ptr<const generation::Pipeline>& read(const PipelineSlot& slot) const;

  std::vector<ModelSlot> slots_;
  /// The slots by id (file order among equal ids), for `find_model`: a
  /// binary search instead of comparing every id at every estimate.
  std::vector<std::pair<std::string_view, std::size_t>> by_id_;
  mutable std::vector<const CatalogModel*> all_;  ///< filled by the first `models()`
  std::vector<PipelineSlot> pipeline_slots_;
  mutable std::vector<std::shared_ptr<const generation::Pipeline>> all_pipelines_;  ///< filled by the first `pipelines()`
  std::vector<Gpu> gpus_;
};

namespace generation {
/// The catalog's image and video pipelines for a face to list, as one JSON
/// array: id, modality, native geometry and, `with_components`, each
/// component's name, kind and parameters (which reads every component's configuration).
void write_pipelines_summary(io::JsonWriter& w, const Catalog& catalog, bool with_components = true);
}  // namespace generation

/// The files embedded from models/ at build time (generated source: their
/// minified texts, one after the other, read in place).
std::vector<CatalogFile> embedded_catalog_files();

}  // namespace vram
