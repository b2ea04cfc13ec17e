// The defaults and allowed names a face shows (`catalog().defaults`): read off
// the same tables and default-constructed settings the scenario parser uses.
// Built once per page load, so it lives apart from the parser (and is compiled
// for size in the WebAssembly build); written as text, since a JSON document
// built from nested initializer lists is many times the code.
#include "vram/io/json_writer.hpp"
#include "vram/scenario.hpp"

namespace vram {

namespace {

using io::JsonWriter;

template <typename E, std::size_t N>
void names_of(JsonWriter& w, const std::array<Choice<E>, N>& table) {
  w.begin_array();
  for (const auto& c : table) w.value(c.name);
  w.end_array();
}

template <std::size_t N>
void list_of(JsonWriter& w, const std::array<std::string_view, N>& names) {
  w.begin_array();
  for (const std::string_view n : names) w.value(n);
  w.end_array();
}

template <typename T>
void numbers(JsonWriter& w, std::initializer_list<T> values) {
  w.begin_array();
  for (const T v : values) w.value(v);
  w.end_array();
}

/// The training and generation settings a scenario gets when it gives none.
void training_defaults(JsonWriter& w) {
  const TrainingSettings t;
  w.begin_object()
      .key("framework").value(name_of(kFrameworks, t.framework))
      .key("method").value(name_of(kTrainMethods, t.method))
      .key("lora_rank").value(t.lora_rank)
      .key("lora_targets").value("all-linear")
      .key("precision").value(name_of(kPrecisions, t.precision))
      .key("optimizer").value(name_of(kOptimizers, t.optimizer))
      .key("micro_batch").value(t.micro_batch)
      .key("seq_len").value(t.seq_len)
      .key("grad_accum").value(t.grad_accum)
      .key("checkpointing").value(name_of(kCheckpointing, t.checkpointing))
      .key("attention").value(name_of(kTrainAttention, t.attention))
      .key("sharding").value(name_of(kShardings, t.sharding))
      .key("offload").value(name_of(kTrainOffloads, t.offload))
      .end_object();
}

void generation_defaults(JsonWriter& w) {
  const GenerationSettings g;
  w.begin_object()
      .key("batch").value(g.batch)
      .key("offload").value(name_of(kGenOffloads, g.offload))
      .key("text_encoder").value(name_of(kTextEncoderPlaces, g.text_encoder))
      .key("vae").value(name_of(kVaePlaces, g.vae))
      .key("attention").value(name_of(kGenAttention, g.attention))
      .key("sequence_parallel").value(g.sequence_parallel)
      .end_object();
}

void engine_defaults(JsonWriter& w) {
  const VllmSettings v;
  const LlamaCppSettings l;
  const TransformersSettings t;
  w.begin_object().key("vllm").begin_object().key("fields");
  list_of(w, kVllmFields);
  w.key("headroom_applies").value(false)
      .key("gpu_memory_utilization").value(v.gpu_memory_utilization)
      .key("block_size").value(v.block_size)
      .key("moe_backend");
  names_of(w, kMoeBackends);
  w.end_object().key("llama.cpp").begin_object().key("fields");
  list_of(w, kLlamaCppFields);
  w.key("headroom_applies").value(true)
      .key("n_gpu_layers").value(l.n_gpu_layers)
      .key("n_batch").value(l.n_batch)
      .key("n_ubatch").value(l.n_ubatch)
      .key("kv_unified").value(l.kv_unified);
  w.end_object().key("transformers").begin_object().key("fields");
  list_of(w, kTransformersFields);
  w.key("headroom_applies").value(true).key("cache_implementation");
  names_of(w, kHfCaches);
  w.key("attn_implementation");
  names_of(w, kHfAttentions);
  w.key("backend");
  names_of(w, kHfQuantBackends);
  w.key("nbits").begin_object().key("quanto");
  numbers(w, {2, 4});
  w.key("hqq");
  numbers(w, {1, 2, 3, 4, 8});
  w.end_object()
      .key("q_group_size").value(t.q_group_size)
      .key("residual_length").value(t.residual_length)
      .end_object()
      .end_object();
}
}  // namespace

void write_scenario_defaults(JsonWriter& w) {
  const InferenceSettings inf;
  w.begin_object().key("workload").value("inference").key("workloads");
  names_of(w, kWorkloads);
  w.key("gpu").value(kDefaultGpu)
      .key("model").value(kShownModel)
      .key("headroom").value(Scenario{}.headroom)
      .key("engine").value(to_string(inf.engine))
      .key("engines");
  engine_defaults(w);
  w.key("training").begin_object().key("framework");
  names_of(w, kFrameworks);
  w.key("method");
  names_of(w, kTrainMethods);
  w.key("precision");
  names_of(w, kPrecisions);
  w.key("optimizer");
  names_of(w, kOptimizers);
  w.key("optimizer_implementation");
  names_of(w, kOptimizerImpls);
  w.key("checkpointing");
  names_of(w, kCheckpointing);
  w.key("attention");
  names_of(w, kTrainAttention);
  w.key("sharding");
  names_of(w, kShardings);
  w.key("offload");
  names_of(w, kTrainOffloads);
  w.end_object().key("diffusion_training").begin_object()
      .key("framework").value(name_of(kFrameworks, Framework::diffusers))
      .key("training_fields");
  list_of(w, kDiffusionTrainingFields);
  w.key("generation_fields");
  list_of(w, kDiffusionGenerationFields);
  w.end_object().key("training_defaults");
  training_defaults(w);
  w.key("generation_defaults");
  generation_defaults(w);
  w.key("generation").begin_object().key("offload");
  names_of(w, kGenOffloads);
  w.key("text_encoder");
  names_of(w, kTextEncoderPlaces);
  w.key("vae");
  names_of(w, kVaePlaces);
  w.key("attention");
  names_of(w, kGenAttention);
  w.end_object().end_object();
}

}  // namespace vram
