#include "vram/plan/generation_plan.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include "test_support.hpp"
#include "vram/estimate.hpp"
#include "vram/plan.hpp"
#include "vram/plan/solve.hpp"

using namespace vram;
using nlohmann::json;

namespace {

json flux_on(const char* gpu) {
  return {{"workload", "image"}, {"model", "black-forest-labs/FLUX.1-dev"}, {"hardware", {{"gpu", gpu}}}};
}

json wan14b_on(const char* gpu) {
  return {{"workload", "video"}, {"model", "Wan-AI/Wan2.1-T2V-14B"}, {"hardware", {{"gpu", gpu}}}};
}

bool fits_json(const json& j) {
  return estimate(test::scenario(j), {false, nullptr}).fits;
}

const Hint* find_hint(const std::vector<Hint>& hints, const std::string& change) {
  for (const auto& h : hints)
    if (h.change == change) return &h;
  return nullptr;
}

}  // namespace

TEST_CASE("the image size setting keeps the base's aspect ratio in size multiples", "[generation][plan]") {
  json j = flux_on("H100-SXM-80GB");
  j["generation"] = {{"width", 1360}, {"height", 768}};
  const Scenario base = test::scenario(j);
  // FLUX: VAE 8× × patch 2 = 16 px per step; a video VAE adds its temporal factor.
  CHECK(size_steps(base).pixels == 16);
  CHECK(size_steps(base).frames == 1);
  CHECK(size_steps(test::scenario(wan14b_on("H100-SXM-80GB"))).frames == 4);
  Scenario t = base;
  // 100 steps of height = 1,600 px; width round(100 × 1360 / 768) = 177 steps = 2,832 px.
  apply_setting(t, Setting::image_size, 100, base);
  CHECK(t.generation()->height == 1600);
  CHECK(t.generation()->width == 2832);
  // The ratio comes from the base each time, so a later probe does not drift with the last one's rounding.
  apply_setting(t, Setting::image_size, 48, base);
  CHECK(t.generation()->height == 768);
  CHECK(t.generation()->width == 1360);
  apply_setting(t, Setting::frames, 3, base);
  CHECK(t.generation()->frames == 3);  // an image pipeline: one frame per step
  Scenario v = test::scenario(wan14b_on("H100-SXM-80GB"));
  apply_setting(v, Setting::frames, 21, v);
  CHECK(v.generation()->frames == 81);  // (21 − 1) × 4 + 1
}

TEST_CASE("the generation plan's size, frames and batch sit at the verdict's boundary", "[generation][plan]") {
  const json j = wan14b_on("H100-SXM-80GB");
  const GenerationPlan p = generation_plan(test::scenario(j), test::catalog());
  // Wan2.1 14B at 1280 × 720 × 81 on one H100 does not fit; a smaller size at the same ratio does.
  CHECK_FALSE(fits_json(j));
  REQUIRE(p.max_height);
  REQUIRE(p.max_height->value);
  const std::int64_t h = *p.max_height->value;
  CHECK(h % 16 == 0);
  CHECK(p.max_width == 16 * static_cast<std::int64_t>(std::llround(h / 16 * 1280.0 / 720.0)));
  json at = j, past = j;
  at["generation"] = {{"width", p.max_width}, {"height", h}};
  CHECK(fits_json(at));
  past["generation"] = {{"height", h + 16}, {"width", 16 * std::llround((h / 16 + 1) * 1280.0 / 720.0)}};
  CHECK_FALSE(fits_json(past));
  // The frames and batch searches run at the scenario's own size, where not even one frame fits.
  REQUIRE(p.max_frames);
  CHECK_FALSE(p.max_frames->value);
  CHECK(p.max_frames->limit == 321);  // 4 × the documented 81 frames, as 4k + 1
  CHECK_FALSE(p.max_batch.value);
  // Ulysses + FSDP: two GPUs are the fewest, and the hint's patch says how the scripts split.
  CHECK(p.more_gpus_divide);
  REQUIRE(p.fewest_gpus);
  CHECK(*p.fewest_gpus == 2);
  const Hint* more = find_hint(p.hints, "hardware.count = 2");
  REQUIRE(more);
  CHECK(more->scenario_patch["generation"]["sequence_parallel"] == 2);
  CHECK(more->scenario_patch["generation"]["fsdp"] == true);
  CHECK(more->scenario_patch["generation"]["text_encoder"] == "sharded");
  json two = j;
  two["hardware"]["count"] = 2;
  two["generation"] = more->scenario_patch["generation"];
  CHECK(fits_json(two));
  CHECK_FALSE(fits_json(json(j)));
}

TEST_CASE("GPUs that each run the whole pipeline are said, and splitting over them comes first", "[generation][plan]") {
  json j = wan14b_on("H100-SXM-80GB");
  j["hardware"]["count"] = 4;
  j["generation"] = {{"width", 1280}, {"height", 720}, {"frames", 81}};
  const Report alone = estimate(test::scenario(j));
  const std::string said =
      "generation.sequence_parallel = 1, generation.fsdp = false: each of the 4 GPUs generates on its own (nothing is "
      "split over them)";
  CHECK(std::find(alone.defaults_used.begin(), alone.defaults_used.end(), said) != alone.defaults_used.end());
  CHECK_FALSE(alone.fits);
  const GenerationPlan p = generation_plan(test::scenario(j), test::catalog());
  REQUIRE_FALSE(p.hints.empty());
  const Hint& split = p.hints.front();
  CHECK(split.change == "sequence_parallel = 4, fsdp = true");
  json four = j;
  four["generation"].update(split.scenario_patch["generation"]);
  CHECK(split.scenario_patch["hardware"]["count"] == 4);
  const Report shared = estimate(test::scenario(four));
  CHECK(shared.fits);
  CHECK(split.effect.find(format_iec(shared.total)) != std::string::npos);
  // Once the split is given, it is neither a default nor a hint.
  CHECK(std::find(shared.defaults_used.begin(), shared.defaults_used.end(), said) == shared.defaults_used.end());
  const GenerationPlan q = generation_plan(test::scenario(four), test::catalog());
  CHECK(find_hint(q.hints, "sequence_parallel = 4, fsdp = true") == nullptr);
}

TEST_CASE("the generation switches say what each buys, and their patches give that figure", "[generation][plan]") {
  const json j = flux_on("RTX-4090");
  const Scenario s = test::scenario(j);
  const std::vector<Hint> hints = generation_switches(s);
  // FLUX.1-dev in bf16 (33.6 GiB) does not fit a 24 GB card; nf4 for the transformer does.
  CHECK_FALSE(fits_json(j));
  for (const char* change : {"offload = model", "offload = group", "offload = sequential", "text_encoder = cpu",
                             "vae_tiling = true", "component_weights.transformer = nf4",
                             "component_weights.text_encoder_2 = int8"})
    CHECK(find_hint(hints, change) != nullptr);
  // Not offered: slicing with one image, fewer frames for an image, a batch of one already.
  CHECK(find_hint(hints, "vae_slicing = true") == nullptr);
  CHECK(find_hint(hints, "batch = 1") == nullptr);
  for (const Hint& h : hints) {
    json patched = j;
    patched.merge_patch(h.scenario_patch);
    const Report r = estimate(test::scenario(patched), {false, nullptr});
    INFO(h.change << ": " << h.effect);
    CHECK(h.effect.find(format_iec(r.total)) != std::string::npos);
    CHECK(h.effect.find(r.fits ? "fits" : "still short") != std::string::npos);
  }
  json nf4 = j;
  nf4.merge_patch(find_hint(hints, "component_weights.transformer = nf4")->scenario_patch);
  CHECK(fits_json(nf4));
  // The Wan scripts offer whole-model offload and the T5 on the CPU, not diffusers' modes.
  const std::vector<Hint> wan = generation_switches(test::scenario(wan14b_on("H100-SXM-80GB")));
  CHECK(find_hint(wan, "offload = model") != nullptr);
  CHECK(find_hint(wan, "offload = sequential") == nullptr);
  CHECK(find_hint(wan, "vae_tiling = true") == nullptr);
  CHECK(find_hint(wan, "frames = 37") != nullptr);  // 21 latent frames → 10: (10 − 1) × 4 + 1
}

TEST_CASE("plan and sweep answer image and video scenarios", "[generation][plan]") {
  const json plan = plan_json(flux_on("RTX-4090").dump(), test::catalog());
  REQUIRE(plan["ok"] == true);
  CHECK(plan["max_size"].is_null());  // its weights alone exceed a 24 GB card at any size
  CHECK(plan["max_size_limit"]["height"] == 4096);  // 4 × 1,024 native
  CHECK_FALSE(plan.contains("max_frames"));
  CHECK(plan["fewest_gpus_limit"] == 1);  // diffusers generates on one GPU
  for (const auto& o : plan["gpu_options"]) {
    json use = flux_on("RTX-4090");
    use.merge_patch(o["patch"]);
    CHECK(fits_json(use));
  }
  const json sweep = sweep_json(flux_on("H100-SXM-80GB").dump(), test::catalog());
  REQUIRE(sweep["ok"] == true);
  CHECK(sweep["axis"] == "height");
  // Nine heights a factor √2 apart in 16 px steps (64 × √2 = 90.5 → 91 steps = 1,456 px), square like the scenario.
  CHECK(sweep["contexts"] == json::array({256, 368, 512, 720, 1024, 1456, 2048, 2896, 4096}));
  CHECK(sweep["widths"] == sweep["contexts"]);
  const json video = sweep_json(wan14b_on("H100-SXM-80GB").dump(), test::catalog());
  REQUIRE(video["ok"] == true);
  CHECK(video["axis"] == "frames");
  CHECK(video["contexts"].front() == 1);
  // Totals rise with the frames (the cache and activations grow); the scenario's 81 frames are a point.
  const auto& c = video["contexts"];
  CHECK(std::find(c.begin(), c.end(), 81) != c.end());
  for (std::size_t i = 1; i < video["totals"].size(); ++i)
    CHECK(video["totals"][i].get<std::int64_t>() >= video["totals"][i - 1].get<std::int64_t>());
  // FLUX.1 Kontext generates a fixed area: no size answer, and its sweep is over the batch.
  const json kontext{{"workload", "image"}, {"model", "black-forest-labs/FLUX.1-Kontext-dev"}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  const json kp = plan_json(kontext.dump(), test::catalog());
  REQUIRE(kp["ok"] == true);
  CHECK_FALSE(kp.contains("max_size"));
  CHECK(sweep_json(kontext.dump(), test::catalog())["axis"] == "batch");
  // The grid stays for language models.
  CHECK(grid_json(flux_on("RTX-4090").dump(), test::catalog(), 4, 4).find("\"/workload\"") != std::string::npos);
}
