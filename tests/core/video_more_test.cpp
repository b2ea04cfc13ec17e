// Video pipelines built from kinds the catalog already had: Wan2.2-I2V-A14B
// (two Wan experts taking conditioning latents) and CogVideoX1.5-5B (a temporal
// patch), on hand-computed values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/budget/generation.hpp"
#include "vram/error.hpp"

using namespace vram;
using namespace vram::generation;
using Part = vram::generation::Component;
using nlohmann::json;

namespace {

using test::error_path;
using test::part;

json video(const char* id, json generation = json::object()) {
  return {{"workload", "video"}, {"model", id}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}, {"headroom", 0},
          {"generation", generation}};
}

std::string phases_of(const Report& r) {
  for (const auto& [key, text] : r.details)
    if (key == "phases") return text;
  return {};
}

}  // namespace

TEST_CASE("Wan2.2-I2V-A14B: two experts over noise, mask and conditioning latents", "[generation][wan]") {
  // Each expert is the T2V-A14B expert (14,288,491,584) with 36 input channels instead of 16:
  //   20 more channels × 1·2·2 patch × 5120 = 409,600 → 14,288,901,184, the published count.
  for (const char* name : {"high_noise_model", "low_noise_model"}) {
    const Part& c = part("Wan-AI/Wan2.2-I2V-A14B", name);
    CHECK(c.inventory.params() == 14'288'901'184);
    CHECK(c.inventory.params() - part("Wan-AI/Wan2.2-T2V-A14B", name).inventory.params() == 409'600);
    CHECK_FALSE(c.config.image_cond);  // no CLIP image cross-attention in Wan 2.2
  }
  CHECK(test::pipeline("Wan-AI/Wan2.2-I2V-A14B").first(Role::image_encoder) == nullptr);
  // The conditioning video is VAE-encoded before the denoise, like Wan 2.1 I2V.
  json s = video("Wan-AI/Wan2.2-I2V-A14B", {{"offload", "model"}});
  const Report r = test::run(s);
  CHECK(phases_of(r).find("\"phase\":\"encode\",\"component\":\"vae\"") != std::string::npos);
  // Text-to-video has no such phase.
  json t2v = video("Wan-AI/Wan2.2-T2V-A14B", {{"offload", "model"}});
  CHECK(phases_of(test::run(t2v)).find("\"phase\":\"encode\",\"component\":\"vae\"") == std::string::npos);
}

TEST_CASE("CogVideoX1.5-5B: a temporal patch of 2 over 1360 × 768 × 81", "[generation][cogvideox]") {
  // The 5b transformer (5,570,283,072) with a Linear patch embedding over 16 · 2 · 2 · 2 = 128 inputs instead of
  // a 2 × 2 Conv2d: (128 - 64) · 3072 = 196,608 more; proj_out to 128 instead of 64: 64 · 3072 + 64 = 196,672 more.
  const Part& t = part("THUDM/CogVideoX1.5-5B", "transformer");
  CHECK(t.inventory.params() == 5'570'283'072 + 196'608 + 196'672);
  CHECK(t.config.patch[0] == 2);
  // 81 frames: (81 - 1) / 4 + 1 = 21 latent frames, padded to 22 for the temporal patch: 11 × (768 / 16) × (1360 / 16)
  //   = 11 · 48 · 85 = 44,880 tokens.
  const LatentGeometry g =
      latent_geometry(test::pipeline("THUDM/CogVideoX1.5-5B"), GenerationSettings{}, 1360, 768, 81);
  CHECK(g.latent_frames == 21);
  CHECK(g.tokens == 44'880);
  // Its VAE is the CogVideoX-5b one.
  CHECK(part("THUDM/CogVideoX1.5-5B", "vae").inventory.params() == 215'583'907);
  std::string msg;
  CHECK(error_path(video("THUDM/CogVideoX1.5-5B", {{"frames", 80}}), &msg) == "/generation/frames");
  CHECK(msg.find("77, 81") != std::string::npos);
  CHECK(error_path(video("THUDM/CogVideoX1.5-5B", {{"width", 1366}}), &msg) == "/generation/width");
  CHECK(msg.find("1360, 1376") != std::string::npos);
}
