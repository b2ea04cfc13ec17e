// The scenario (CONTRACT v1 section 1) as value types, and its parser.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/formats.hpp"
#include "vram/model.hpp"
#include "vram/units.hpp"

namespace vram {

enum class Workload : std::uint8_t { inference, training, image, video };
enum class Engine : std::uint8_t { vllm, llama_cpp, transformers };

/// KV cache element type (`auto` resolves to the model's activation dtype).
struct KvDtype {
  std::string name;  ///< "bf16", "fp8", "q8_0", ...
  std::int64_t block_elems = 1;
  std::int64_t block_bytes = 2;  ///< bytes per block of block_elems values
};

/// vLLM engine arguments (defaults: vLLM's own, per version; see engines/vllm.hpp).
struct VllmSettings {
  double gpu_memory_utilization = 0.9;
  std::optional<std::int64_t> max_num_batched_tokens;
  std::optional<std::int64_t> max_num_seqs;
  std::int64_t block_size = 16;
  bool enforce_eager = false;
  std::string version;  ///< "" = current (0.19 behaviour)
};

/// llama.cpp context parameters (defaults: llama.cpp's common_params).
struct LlamaCppSettings {
  std::int64_t n_gpu_layers = -1;  ///< -1 = all layers (and the output layer)
  std::int64_t n_batch = 2048;
  std::int64_t n_ubatch = 512;
  bool flash_attn = false;
  std::int64_t n_seq_max = 1;
};

struct InferenceSettings {
  Engine engine = Engine::vllm;
  std::int64_t context = 0;  ///< tokens per sequence
  std::int64_t concurrency = 1;
  KvDtype kv;
  std::int64_t tensor_parallel = 1;
  std::int64_t pipeline_parallel = 1;
  VllmSettings vllm;
  LlamaCppSettings llama_cpp;
};

/// The GPU the scenario runs on.
struct GpuChoice {
  std::string id;  ///< catalog id, or "custom"
  std::string name;
  Bytes memory;  ///< what the framework sees per GPU
  std::optional<double> price_usd_per_hour;
  int compute_capability = 0;  ///< CUDA compute capability × 10 (80 = "8.0"); 0 when unknown or not CUDA
  int sm_count = 0;            ///< streaming multiprocessors; 0 when unknown
};

struct Scenario {
  Workload workload = Workload::inference;
  std::shared_ptr<const Model> model;  ///< shared with the catalog; never null after parsing
  std::string model_ref;               ///< how the model was named (catalog id, "config.json", "13,000,000,000 params")
  WeightFormat weights;
  std::optional<Bytes> weights_bytes_given;  ///< model.weights_bytes: exact checkpoint size
  GpuChoice gpu;
  std::int64_t gpu_count = 1;
  double headroom = 0.10;
  InferenceSettings inference;
  std::vector<std::string> defaults_used;
  std::vector<std::string> warnings;
};

/// Parses and validates a scenario. Errors are `InputError` with the JSON path.
Scenario parse_scenario(const nlohmann::json& scenario, const Catalog& catalog);

/// Parses scenario text (malformed JSON is an `InputError` at path "").
Scenario parse_scenario_text(const std::string& text, const Catalog& catalog);

const char* to_string(Workload w);
const char* to_string(Engine e);

}  // namespace vram
