#include "vram/io/workload_settings.hpp"

#include "vram/error.hpp"
#include "vram/io/json_fields.hpp"
#include "vram/io/json_read.hpp"

namespace vram::io {

using nlohmann::json;

namespace {

const json& block_of(const json& s, const char* key, const std::string& path) {
  static const json empty = json::object();  // immutable
  const auto it = s.find(key);
  if (it == s.end() || it->is_null()) return empty;
  return require_object(*it, path, key);
}

/// An enum field: the table's value, else `fallback` noted as a default.
template <typename E, std::size_t N>
E enum_or(const json& b, const char* key, const std::string& path, const std::array<Choice<E>, N>& table, E fallback,
          ParseNotes& n) {
  if (auto v = optional_enum(b, key, path, table)) return *v;
  n.defaults_used.push_back(path.substr(1) + "." + key + " = " + std::string(name_of(table, fallback)));
  return fallback;
}

/// A whole number in `range`, else `fallback` noted as a default.
std::int64_t int_or(const json& b, const char* key, const std::string& path, IntRange range, std::int64_t fallback,
                    ParseNotes& n) {
  if (auto v = optional_int(b, key, path, range)) return *v;
  n.defaults_used.push_back(path.substr(1) + "." + key + " = " + std::to_string(fallback));
  return fallback;
}

/// A parallel size that must divide the GPU count.
std::int64_t divisor_of_gpus(const json& b, const char* key, const std::string& path, std::int64_t gpus) {
  const std::int64_t v = optional_int(b, key, path, {1, 4096}).value_or(1);
  if (gpus % v != 0) {
    throw InputError(join_path(path, key), "is " + std::to_string(v) + " but must divide hardware.count (" +
                                               std::to_string(gpus) + ")");
  }
  return v;
}

/// `lora_targets`: "all-linear" or a list of module names.
std::vector<std::string> lora_targets(const json& b, const std::string& path) {
  const auto it = b.find("lora_targets");
  if (it == b.end() || it->is_null()) return {};
  const std::string p = join_path(path, "lora_targets");
  if (it->is_string()) {
    if (*it == "all-linear") return {};
    throw InputError(p, "must be \"all-linear\" or a list of module names such as [\"q_proj\", \"v_proj\"]; got " +
                            describe_value(*it));
  }
  if (!it->is_array() || it->empty())
    throw InputError(p, "must be \"all-linear\" or a non-empty list of module names; got " + describe_value(*it));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
      throw InputError(join_path(p, std::to_string(i)), "must be a module name; got " + describe_value(v));
    names.push_back(v.get<std::string>());
  }
  return names;
}

void read_training_switches(const json& b, const std::string& p, TrainingSettings& t) {
  t.optimizer_in_backward = optional_bool(b, "optimizer_in_backward", p).value_or(false);
  t.chunked_loss = optional_bool(b, "chunked_loss", p).value_or(false);
  t.activation_offload = optional_bool(b, "activation_offload", p).value_or(false);
  t.fp8 = optional_bool(b, "fp8", p).value_or(false);
  t.train_text_encoder = optional_bool(b, "train_text_encoder", p).value_or(false);
  // `extra` holds framework flags; the ones that change memory are read (compile).
  t.compile = optional_bool(b, "compile", p).value_or(false);
  if (const auto e = b.find("extra"); e != b.end()) {
    if (!e->is_object()) throw InputError(join_path(p, "extra"), "must be an object of framework flags");
    t.compile = t.compile || optional_bool(*e, kTrainingExtraFlags[0], join_path(p, "extra")).value_or(false);
  }
}

void read_training_parallel(const json& b, const std::string& p, std::int64_t gpus, TrainingSettings& t) {
  t.tensor_parallel = divisor_of_gpus(b, "tensor_parallel", p, gpus);
  t.pipeline_parallel = divisor_of_gpus(b, "pipeline_parallel", p, gpus);
  t.context_parallel = divisor_of_gpus(b, "context_parallel", p, gpus);
  if (t.tensor_parallel * t.pipeline_parallel * t.context_parallel > gpus) {
    throw InputError(join_path(p, "tensor_parallel"),
                     "tensor × pipeline × context parallel = " +
                         std::to_string(t.tensor_parallel * t.pipeline_parallel * t.context_parallel) +
                         " GPUs, more than hardware.count (" + std::to_string(gpus) + ")");
  }
  t.shard_group_size = divisor_of_gpus(b, "shard_group_size", p, gpus);
  if (!b.contains("shard_group_size")) t.shard_group_size = 0;
}

}  // namespace

TrainingSettings parse_training(const json& s, std::int64_t gpus, ParseNotes n, bool sample) {
  const std::string p = "/training";
  const json& b = block_of(s, "training", p);
  warn_unknown_keys(b, p,
                    {"framework", "method", "lora_rank", "lora_targets", "use_dora", "trainable_layers", "precision", "optimizer", "optimizer_implementation", "micro_batch",
                     "seq_len", "grad_accum", "checkpointing", "attention", "sharding", "offload", "tensor_parallel",
                     "pipeline_parallel", "context_parallel", "shard_group_size", "optimizer_in_backward",
                     "chunked_loss", "activation_offload", "fp8", "train_text_encoder", "compile", "extra"},
                    n.warnings);
  TrainingSettings t;
  t.framework = enum_or(b, "framework", p, kFrameworks, Framework::transformers, n);
  t.method = enum_or(b, "method", p, kTrainMethods, TrainMethod::full, n);
  const bool adapters = t.method == TrainMethod::lora || t.method == TrainMethod::qlora;
  t.lora_rank = adapters ? int_or(b, "lora_rank", p, {1, 65'536}, 16, n) : 16;
  t.lora_targets = lora_targets(b, p);
  t.use_dora = optional_bool(b, "use_dora", p).value_or(false);
  if (t.use_dora && !adapters)
    throw InputError(join_path(p, "use_dora"), "DoRA decomposes LoRA adapters: it needs method \"lora\" or \"qlora\"");
  if (t.method == TrainMethod::freeze) t.trainable_layers = int_or(b, "trainable_layers", p, {1, 100'000}, 2, n);
  t.precision = enum_or(b, "precision", p, kPrecisions, Precision::bf16_mixed, n);
  t.optimizer = enum_or(b, "optimizer", p, kOptimizers, Optimizer::adamw, n);
  t.optimizer_implementation = optional_enum(b, "optimizer_implementation", p, kOptimizerImpls);
  t.micro_batch = int_or(b, "micro_batch", p, {1, 1'000'000}, 1, n);
  t.seq_len = int_or(b, "seq_len", p, {1, 100'000'000}, 2048, n);
  t.grad_accum = int_or(b, "grad_accum", p, {1, 1'000'000}, 1, n);
  t.checkpointing = enum_or(b, "checkpointing", p, kCheckpointing, Checkpointing::none, n);
  t.attention = enum_or(b, "attention", p, kTrainAttention, TrainAttention::flash, n);
  t.sharding = enum_or(b, "sharding", p, kShardings, Sharding::none, n);
  t.offload = enum_or(b, "offload", p, kTrainOffloads, TrainOffload::none, n);
  read_training_parallel(b, p, gpus, t);
  read_training_switches(b, p, t);
  if (!sample && t.micro_batch * t.seq_len > 100'000'000) {
    throw InputError(join_path(p, "seq_len"), "micro_batch × seq_len = " + std::to_string(t.micro_batch * t.seq_len) +
                                                  " tokens per step per GPU, beyond any real run (at most 10^8)");
  }
  return t;
}

namespace {

/// `component_weights`: component name → format name (or "none").
std::vector<std::pair<std::string, std::string>> component_weights(const json& b, const std::string& path) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto it = b.find("component_weights");
  if (it == b.end() || it->is_null()) return out;
  const std::string p = join_path(path, "component_weights");
  require_object(*it, p, "component_weights");
  for (auto e = it->begin(); e != it->end(); ++e) {
    if (!e->is_string() || e->get_ref<const std::string&>().empty())
      throw InputError(join_path(p, e.key()), "must be a weight format name (e.g. \"nf4\") or \"none\"; got " +
                                                  describe_value(*e));
    out.emplace_back(e.key(), e->get<std::string>());
  }
  return out;
}

void read_geometry(const json& b, const std::string& p, bool video, GenerationSettings& g) {
  g.width = optional_int(b, "width", p, {8, 16'384}).value_or(0);
  g.height = optional_int(b, "height", p, {8, 16'384}).value_or(0);
  if (const auto f = optional_int(b, "frames", p, {1, 10'000})) {
    if (!video) throw InputError(join_path(p, "frames"), "applies to video only (workload = video, or training a video pipeline); "
                                                    "an image pipeline makes one frame");
    g.frames = *f;
  }
  g.batch = optional_int(b, "batch", p, {1, 4096}).value_or(1);
  g.steps = optional_int(b, "steps", p, {1, 10'000}).value_or(0);
  g.cfg = optional_bool(b, "cfg", p);
}

}  // namespace

GenerationSettings parse_generation(const json& s, bool video, std::int64_t gpus, ParseNotes n) {
  const std::string p = "/generation";
  const json& b = block_of(s, "generation", p);
  warn_unknown_keys(b, p,
                    {"width", "height", "frames", "batch", "steps", "cfg", "offload", "text_encoder", "vae",
                     "attention", "vae_tiling", "vae_slicing", "sequence_parallel", "fsdp", "component_weights"},
                    n.warnings);
  GenerationSettings g;
  read_geometry(b, p, video, g);
  g.offload = enum_or(b, "offload", p, kGenOffloads, GenOffload::none, n);
  g.text_encoder = enum_or(b, "text_encoder", p, kTextEncoderPlaces, TextEncoderPlace::gpu, n);
  g.vae = enum_or(b, "vae", p, kVaePlaces, VaePlace::gpu, n);
  g.attention = enum_or(b, "attention", p, kGenAttention, GenAttention::efficient, n);
  g.vae_tiling = optional_bool(b, "vae_tiling", p).value_or(false);
  g.vae_slicing = optional_bool(b, "vae_slicing", p).value_or(false);
  g.sequence_parallel = divisor_of_gpus(b, "sequence_parallel", p, gpus);
  g.fsdp = optional_bool(b, "fsdp", p).value_or(false);
  // More than one GPU and no split given: each GPU generates on its own (data parallel), said.
  if (gpus > 1 && !b.contains("sequence_parallel") && !b.contains("fsdp")) {
    n.defaults_used.push_back("generation.sequence_parallel = 1, generation.fsdp = false: each of the " +
                              std::to_string(gpus) + " GPUs generates on its own (nothing is split over them)");
  }
  g.component_weights = component_weights(b, p);
  return g;
}

}  // namespace vram::io
