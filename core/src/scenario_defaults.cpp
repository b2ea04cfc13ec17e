// The defaults and allowed names a face shows (`catalog().defaults`): read off
// the same tables and default-constructed settings the scenario parser uses.
// Built once per page load, so it lives apart from the parser (and is compiled
// for size in the WebAssembly build).
#include <nlohmann/json.hpp>

#include "vram/scenario.hpp"

namespace vram {

using nlohmann::json;

namespace {
template <typename E, std::size_t N>
json names_of(const std::array<Choice<E>, N>& table) {
  json out = json::array();
  for (const auto& c : table) out.push_back(c.name);
  return out;
}
/// The training and generation settings a scenario gets when it gives none.
json training_defaults_json() {
  const TrainingSettings t;
  return {{"framework", name_of(kFrameworks, t.framework)},
          {"method", name_of(kTrainMethods, t.method)},
          {"lora_rank", t.lora_rank},
          {"lora_targets", "all-linear"},
          {"precision", name_of(kPrecisions, t.precision)},
          {"optimizer", name_of(kOptimizers, t.optimizer)},
          {"micro_batch", t.micro_batch},
          {"seq_len", t.seq_len},
          {"grad_accum", t.grad_accum},
          {"checkpointing", name_of(kCheckpointing, t.checkpointing)},
          {"attention", name_of(kTrainAttention, t.attention)},
          {"sharding", name_of(kShardings, t.sharding)},
          {"offload", name_of(kTrainOffloads, t.offload)}};
}

json generation_defaults_json() {
  const GenerationSettings g;
  return {{"batch", g.batch},
          {"offload", name_of(kGenOffloads, g.offload)},
          {"text_encoder", name_of(kTextEncoderPlaces, g.text_encoder)},
          {"vae", name_of(kVaePlaces, g.vae)},
          {"attention", name_of(kGenAttention, g.attention)},
          {"sequence_parallel", g.sequence_parallel}};
}
}  // namespace

json scenario_defaults_json() {
  const VllmSettings v;
  const LlamaCppSettings l;
  const InferenceSettings inf;
  return {{"workload", "inference"},
          {"workloads", names_of(kWorkloads)},
          {"gpu", kDefaultGpu},
          {"model", kShownModel},
          {"headroom", Scenario{}.headroom},
          {"engine", to_string(inf.engine)},
          {"engines",
           {{"vllm",
             {{"fields", kVllmFields},
              {"headroom_applies", false},
              {"gpu_memory_utilization", v.gpu_memory_utilization},
              {"block_size", v.block_size},
              {"moe_backend", names_of(kMoeBackends)}}},
            {"llama.cpp",
             {{"fields", kLlamaCppFields},
              {"headroom_applies", true},
              {"n_gpu_layers", l.n_gpu_layers},
              {"n_batch", l.n_batch},
              {"n_ubatch", l.n_ubatch},
              {"kv_unified", l.kv_unified}}},
            {"transformers",
             {{"fields", kTransformersFields},
              {"headroom_applies", true},
              {"cache_implementation", names_of(kHfCaches)},
              {"attn_implementation", names_of(kHfAttentions)},
              {"backend", names_of(kHfQuantBackends)},
              {"nbits", {{"quanto", {2, 4}}, {"hqq", {1, 2, 3, 4, 8}}}},
              {"q_group_size", TransformersSettings{}.q_group_size},
              {"residual_length", TransformersSettings{}.residual_length}}}}},
          {"training",
           {{"framework", names_of(kFrameworks)},
            {"method", names_of(kTrainMethods)},
            {"precision", names_of(kPrecisions)},
            {"optimizer", names_of(kOptimizers)},
            {"checkpointing", names_of(kCheckpointing)},
            {"attention", names_of(kTrainAttention)},
            {"sharding", names_of(kShardings)},
            {"offload", names_of(kTrainOffloads)}}},
          {"diffusion_training",
           {{"framework", name_of(kFrameworks, Framework::diffusers)},
            {"training_fields", kDiffusionTrainingFields},
            {"generation_fields", kDiffusionGenerationFields}}},
          {"training_defaults", training_defaults_json()},
          {"generation_defaults", generation_defaults_json()},
          {"generation",
           {{"offload", names_of(kGenOffloads)},
            {"text_encoder", names_of(kTextEncoderPlaces)},
            {"vae", names_of(kVaePlaces)},
            {"attention", names_of(kGenAttention)}}}};
}

}  // namespace vram
