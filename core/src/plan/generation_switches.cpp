// What each generation switch buys: the scenario re-estimated with one setting
// changed. The offload modes and VAE options are diffusers' (v0.35:
// enable_model_cpu_offload, enable_sequential_cpu_offload, enable_group_offload,
// enable_tiling, enable_slicing); the Wan reference scripts offer --offload_model
// and --t5_cpu only. A quantized denoiser is bitsandbytes nf4 and a quantized
// text encoder bitsandbytes int8, the two diffusers documents for FLUX.1
// (docs/source/en/quantization/bitsandbytes.md).
#include <stdexcept>

#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/plan/generation_plan.hpp"
#include "vram/plan/solve.hpp"

namespace vram {

using nlohmann::json;
using generation::Role;

namespace {

/// One switch: its change as text, whether it applies, the patch it makes.
struct Candidate {
  std::string change;
  json patch;  ///< the generation block's fields
};

bool diffusers_runtime(const Scenario& s) {
  return s.pipeline->runtime == generation::Runtime::diffusers;
}

/// A component whose storage the scenario leaves at the pipeline's 16-bit dtype.
bool stored_plain(const Scenario& s, const generation::Component& c) {
  if (c.inventory.linear.empty() || s.weights.quantized()) return false;
  for (const auto& [name, value] : s.generation()->component_weights)
    if (name == c.name) return false;
  return true;
}

/// The pipeline's largest text encoder (T5, umT5, a Llama), where the scenario keeps it in 16 bits.
const generation::Component* largest_plain_encoder(const Scenario& s) {
  const generation::Component* best = nullptr;
  for (const generation::Component* c : s.pipeline->all(Role::text_encoder))
    if (!best || c->params > best->params) best = c;
  return best && stored_plain(s, *best) ? best : nullptr;
}

void placement_candidates(const Scenario& s, std::vector<Candidate>& out) {
  const GenerationSettings& g = *s.generation();
  const bool diffusers = diffusers_runtime(s);
  if (g.offload == GenOffload::none) out.push_back({"offload = model", {{"offload", "model"}}});
  if (diffusers && g.offload != GenOffload::sequential && g.offload != GenOffload::group)
    out.push_back({"offload = group", {{"offload", "group"}}});
  if (diffusers && g.offload != GenOffload::sequential)
    out.push_back({"offload = sequential", {{"offload", "sequential"}}});
  if (g.text_encoder != TextEncoderPlace::cpu && !s.pipeline->all(Role::text_encoder).empty())
    out.push_back({"text_encoder = cpu", {{"text_encoder", "cpu"}}});
  // Allegro's VAE decodes in tiles whatever the setting: no switch to offer.
  const bool tiled_only = s.pipeline->first(Role::vae)->kind == generation::ComponentKind::vae_allegro;
  if (diffusers && !g.vae_tiling && !tiled_only) out.push_back({"vae_tiling = true", {{"vae_tiling", true}}});
  if (diffusers && !g.vae_slicing && g.batch > 1) out.push_back({"vae_slicing = true", {{"vae_slicing", true}}});
  if (g.attention == GenAttention::naive) out.push_back({"attention = efficient", {{"attention", "efficient"}}});
}

void format_candidates(const Scenario& s, std::vector<Candidate>& out) {
  if (!diffusers_runtime(s)) return;
  const generation::Component* den = s.pipeline->first(Role::denoiser);
  if (den && stored_plain(s, *den))
    out.push_back({"component_weights." + den->name + " = nf4", {{"component_weights", {{den->name, "nf4"}}}}});
  if (const generation::Component* te = largest_plain_encoder(s))
    out.push_back({"component_weights." + te->name + " = int8", {{"component_weights", {{te->name, "int8"}}}}});
}

void geometry_candidates(const Scenario& s, std::vector<Candidate>& out) {
  const GenerationSettings& g = *s.generation();
  const SizeSteps steps = size_steps(s);
  if (s.pipeline->modality == generation::Modality::video) {
    const std::int64_t index = steps.frame_index(g.frames);
    if (index > 1) {
      const std::int64_t frames = steps.frames_at(index / 2);
      out.push_back({"frames = " + std::to_string(frames), {{"frames", frames}}});
    }
  }
  if (g.batch > 1) out.push_back({"batch = 1", {{"batch", 1}}});
}

/// The table's value for a name the candidates above wrote.
template <typename E, std::size_t N>
E choice(const std::array<Choice<E>, N>& table, const json& name) {
  const E* v = find_choice(table, name.get<std::string>());
  if (!v) throw std::logic_error("generation switch: unknown choice " + name.dump());
  return *v;
}

/// `s` with the candidate's generation fields merged in (the same patch the page applies).
Scenario with_patch(const Scenario& s, const json& patch) {
  Scenario t = s;
  GenerationSettings& g = std::get<GenerationSettings>(t.settings);
  for (const auto& [key, value] : patch.items()) {
    if (key == "offload") g.offload = choice(kGenOffloads, value);
    if (key == "text_encoder") g.text_encoder = choice(kTextEncoderPlaces, value);
    if (key == "attention") g.attention = choice(kGenAttention, value);
    if (key == "vae_tiling") g.vae_tiling = value.get<bool>();
    if (key == "vae_slicing") g.vae_slicing = value.get<bool>();
    if (key == "frames") g.frames = value.get<std::int64_t>();
    if (key == "batch") g.batch = value.get<std::int64_t>();
    if (key == "component_weights")
      for (const auto& [name, format] : value.items()) g.component_weights.emplace_back(name, format.get<std::string>());
  }
  return t;
}

}  // namespace

std::vector<Hint> generation_switches(const Scenario& given, WeightsMemo* memo) {
  std::vector<Hint> out;
  if (given.generation() == nullptr || !given.pipeline) return out;
  const Scenario s = with_explicit_geometry(given);
  std::vector<Candidate> candidates;
  placement_candidates(s, candidates);
  format_candidates(s, candidates);
  geometry_candidates(s, candidates);
  const Report before = estimate(s, {false, memo});
  for (Candidate& c : candidates) {
    try {
      const Report after = estimate(with_patch(s, c.patch), {false, memo});
      out.push_back({std::move(c.change), fit_effect(before, after), json{{"generation", std::move(c.patch)}}});
    } catch (const InputError&) {
      // The switch does not apply to this pipeline (a component that cannot be quantized here).
    }
  }
  return out;
}

}  // namespace vram
