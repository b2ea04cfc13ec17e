// rhymes-ai/Allegro: a PixArt-style DiT over every video token, a T5 encoder and
// a VAE that decodes only in overlapping 3D tiles, on hand-computed values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/budget/generation.hpp"
#include "vram/error.hpp"
#include "vram/plan/solve.hpp"

using namespace vram;
using namespace vram::generation;
using nlohmann::json;

namespace {

using test::error_path;
using test::part;
using test::pipeline;

constexpr const char* kAllegro = "rhymes-ai/Allegro";

json video(json generation = json::object()) {
  return {{"workload", "video"}, {"model", kAllegro}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}, {"headroom", 0},
          {"generation", generation}};
}

}  // namespace

TEST_CASE("Allegro: the components counted from their config.json", "[generation][allegro]") {
  // Transformer (width 24 × 96 = 2304, ffn 9216, 32 blocks): per block attn1 4 × (2304² + 2304), attn2 the same
  // (cross_attention_dim 2304), the MLP 2 × 2304 × 9216 + 9216 + 2304 and the 6 × 2304 table = 84,978,432;
  // patch conv 4 · 2 · 2 · 2304 + 2304 = 39,168; adaLN-single 256 → 2304 → 2304 and 2304 → 6 × 2304 = 37,767,168;
  // caption projection 4096 → 2304 → 2304 = 14,750,208; the output table 4,608 and proj_out 2304 → 16 = 36,880.
  CHECK(part(kAllegro, "transformer").inventory.params() ==
        32LL * 84'978'432 + 39'168 + 37'767'168 + 14'750'208 + 4'608 + 36'880);
  CHECK(part(kAllegro, "transformer").inventory.params() == 2'771'907'856);  // 5.54 GB in bf16
  CHECK(part(kAllegro, "transformer").inventory.buffers == 0);             // no positional table: 3D RoPE
  CHECK(part(kAllegro, "vae").inventory.params() == 174'955'751);            // 700 MB in fp32, "175M"
  CHECK(part(kAllegro, "text_encoder").inventory.params() == 4'762'310'656);
}

TEST_CASE("Allegro: 88 frames at 720 × 1280 are 22 latent frames and 79,200 tokens in 75 VAE tiles",
          "[generation][allegro]") {
  const Pipeline& p = pipeline(kAllegro);
  const LatentGeometry g = latent_geometry(p, GenerationSettings{}, 1280, 720, 88);
  CHECK(g.latent_frames == 22);  // ceil(88 / 4)
  CHECK(g.tokens == 22 * 45 * 80);
  // An odd count: ceil((85 - 1) / 4) + 1 = 22 as well.
  CHECK(latent_geometry(p, GenerationSettings{}, 1280, 720, 85).latent_frames == 22);
  // Tiles of 6 × 40 × 40 latents every 4 × 25 × 30: 5 × 3 × 5.
  const LatentTiles t = allegro_latent_tiles(p.first(Role::vae)->config);
  CHECK(t.frames == 6);
  CHECK(t.stride_height == 25);
  CHECK(t.stride_width == 30);
  CHECK(t.count(g) == 75);
}

TEST_CASE("Allegro: the denoiser's MLP and the tile-by-tile decode", "[generation][allegro]") {
  const Pipeline& p = pipeline(kAllegro);
  const LatentGeometry g = latent_geometry(p, GenerationSettings{}, 1280, 720, 88);
  DenoiseShape s;
  s.tokens = s.full_tokens = g.tokens;
  s.cross_tokens = 512;
  s.batch = 2;  // CFG batched
  // The MLP phase (2 × 2304 + 2 × 9216 = 23,040 elements a token) is above the RoPE self-attention's
  // 8 × 2304; the 2 × 512 projected caption tokens stay beside it.
  const Term w = denoiser_working_set(*p.find("transformer"), s);
  CHECK(w.bytes == Bytes::of(158'400LL * 23'040 * 2 + 1024LL * 2304 * 2));
  CHECK(consistent(w));
  DecodeShape d;
  d.latent = g;
  d.width = 1280;
  d.height = 720;
  d.frames = 88;
  d.elem = 4;  // the VAE in fp32, as the pipeline's example loads it
  // One tile's decoder peaks at the last level's first resnet: 256 channels of 24 frames × 320 × 320 (input,
  // GroupNorm and SiLU outputs), beside every decoded tile (75 × RGB × 24 × 320 × 320, allocated up front).
  const Term decode = vae_decode_peak(*p.find("vae"), d);
  CHECK(decode.bytes == Bytes::of(256LL * 102'400 * 24 * 3 * 4 + 75LL * 3 * 24 * 102'400 * 4));
  CHECK(consistent(decode));
  // Through the estimate: the VAE weights in fp32 beside the bf16 rest, the decode the peak phase.
  const Report r = test::run(video());
  CHECK(test::metric(r, "weights_bytes") == 2.0 * (4'762'310'656 + 2'771'907'856) + 4.0 * 174'955'751);
  CHECK(test::metric(r, "activation_bytes") == static_cast<double>(decode.bytes.in_bytes()));
}

TEST_CASE("Allegro: sizes, frames and batches its tiled decode cannot take are refused with the valid ones",
          "[generation][allegro][errors]") {
  std::string msg;
  CHECK(error_path(video({{"frames", 89}}), &msg) == "/generation/frames");  // 23 latent frames
  CHECK(msg.find("Nearest valid: 88, 99") != std::string::npos);
  CHECK(error_path(video({{"width", 1024}}), &msg) == "/generation/width");
  CHECK(msg.find("Nearest valid: 800, 1040") != std::string::npos);
  CHECK(error_path(video({{"height", 480}}), &msg) == "/generation/height");  // 320 + 200 k and a multiple of 16
  CHECK(msg.find("Nearest valid: 320, 720") != std::string::npos);
  CHECK(error_path(video({{"batch", 2}})) == "/generation/vae_slicing");
  CHECK_NOTHROW(test::run(video({{"batch", 2}, {"vae_slicing", true}})));
  CHECK_NOTHROW(test::run(video({{"frames", 24}, {"width", 320}, {"height", 320}})));
}

TEST_CASE("Allegro: the solvers step along the sizes its tiles cover", "[generation][allegro][plan]") {
  Scenario s = test::scenario(video({{"width", 1280}, {"height", 720}, {"frames", 88}}));
  const SizeSteps steps = size_steps(s);
  // Heights 320 + 200 k that are multiples of 16: 320, 720, 1120, ...; widths 320 + 240 k; frames 24 + 16 k.
  CHECK(steps.height_at(1) == 320);
  CHECK(steps.height_at(2) == 720);
  CHECK(steps.width_near(1280.0) == 1280);
  CHECK(steps.width_near(1000.0) == 1040);
  CHECK(steps.frames_at(5) == 88);
  CHECK(steps.frame_index(88) == 5);
  CHECK(steps.frame_index(87) == 4);
  for (std::int64_t i = 1; i <= 8; ++i) {
    apply_setting(s, Setting::frames, i);
    CHECK_NOTHROW(estimate(s));
  }
}

TEST_CASE("a pasted Allegro VAE or transformer config is checked before it is counted",
          "[generation][allegro][errors]") {
  const json base = json::parse(test::read_file(std::string(VRAM_SOURCE_DIR) + "/models/pipelines/rhymes-ai__Allegro.json"));
  const auto refused = [&](int component, const char* key, json value) {
    json model = base;
    model["components"][component]["hf_config"][key] = std::move(value);
    json s = video();
    s["model"] = model;
    return error_path(s);
  };
  CHECK(refused(2, "temporal_compression_ratio", 8) == "/model/components/2/hf_config/temporal_compression_ratio");
  CHECK(refused(2, "temporal_upsample_blocks", {true, true, true, true}) ==
        "/model/components/2/hf_config/temporal_compression_ratio");
  CHECK(refused(2, "block_out_channels", {128, 250, 512, 512}) == "/model/components/2/hf_config/block_out_channels/1");
  CHECK(refused(2, "sample_size", 100) == "/model/components/2/hf_config/sample_size");
  // Seven levels compress 64×: a 128-pixel tile would step by 0 latent rows past its 120-pixel overlap.
  json deep = base;
  deep["components"][2]["hf_config"]["block_out_channels"] = {32, 32, 32, 32, 32, 32, 32};
  deep["components"][2]["hf_config"]["temporal_downsample_blocks"] = {true, true, false, false, false, false, false};
  deep["components"][2]["hf_config"]["temporal_upsample_blocks"] = {false, true, true, false, false, false, false};
  deep["components"][2]["hf_config"]["sample_size"] = 128;
  json s = video();
  s["model"] = deep;
  CHECK(error_path(s) == "/model/components/2/hf_config/sample_size");
  deep["components"][2]["hf_config"]["sample_size"] = 192;  // one latent row of stride
  s["model"] = deep;
  CHECK(error_path(s) != "/model/components/2/hf_config/sample_size");
  deep["components"][2]["hf_config"]["block_out_channels"] = {32, 32, 32, 32, 32, 32, 32, 32};
  s["model"] = deep;
  CHECK(error_path(s) == "/model/components/2/hf_config/block_out_channels");
  CHECK(refused(2, "temporal_downsample_blocks", {true}) == "/model/components/2/hf_config/temporal_downsample_blocks");
  CHECK(refused(1, "patch_size_t", 2) == "/model/components/1/hf_config/patch_size_t");
  CHECK(refused(1, "cross_attention_dim", 4096) == "/model/components/1/hf_config/cross_attention_dim");
  CHECK(refused(1, "_class_name", "PixArtTransformer2DModel") == "/model/components/1/hf_config/_class_name");
}
