// Step-Video-T2V: the transformer (StepVideoModel) and the Video-VAE (AutoencoderKL
// version 2) read from their constructor arguments, inventories, geometry, the
// transformer's working set and the chunked VAE decode on hand-computed values.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/budget/generation.hpp"
#include "vram/error.hpp"
#include "vram/io/measure.hpp"
#include "vram/plan/solve.hpp"

using namespace vram;
using namespace vram::generation;
using Part = vram::generation::Component;
using nlohmann::json;

namespace {

using test::error_path;
using test::part;

constexpr const char* kStepId = "stepfun-ai/stepvideo-t2v";

/// A tiny StepVideoModel: one head of 128 (dim 128), one block, 4 latent channels, captions 6 and 5 wide.
json tiny_step_transformer() {
  return {{"_class_name", "StepVideoModel"},
          {"num_attention_heads", 1},
          {"attention_head_dim", 128},
          {"num_layers", 1},
          {"in_channels", 4},
          {"out_channels", 4},
          {"patch_size", 1},
          {"caption_channels", {6, 5}}};
}

/// A tiny Video-VAE: three levels of 32, 32, 64 channels both ways, one resnet per level, 4 latent channels.
json tiny_step_vae() {
  return {{"_class_name", "AutoencoderKL"},
          {"version", 2},
          {"z_channels", 4},
          {"num_res_blocks", 1},
          {"ch", 32},
          {"ch_mult", {1, 1, 2}},
          {"temporal_up_layers", {1, 2}},
          {"encoder_ch", 32},
          {"encoder_ch_mult", {1, 1, 2}},
          {"down_sampling_layer", {0, 1}}};
}

json tiny_step_pipeline(const json& den, const json& vae) {
  return {
      {"id", "t/step"},
      {"modality", "video"},
      {"cfg", "batched"},
      {"native", {{"width", 64}, {"height", 64}, {"frames", 17}, {"max_frames", 17}}},
      {"components",
       json::array(
           {{{"name", "transformer"}, {"kind", "stepvideo_dit"}, {"params", 1}, {"source", "t"}, {"hf_config", den}},
            {{"name", "vae"}, {"kind", "vae_stepvideo"}, {"params", 1}, {"source", "t"}, {"hf_config", vae}}})}};
}

json step_scenario(json generation = json::object()) {
  return {{"workload", "video"},
          {"model", kStepId},
          {"hardware", {{"gpu", "H100-SXM-80GB"}}},
          {"headroom", 0},
          {"generation", generation}};
}

/// The native forward: 36 latent frames of 34 × 62 tokens, both CFG samples, 77 + 320 caption tokens.
DenoiseShape native_denoise() {
  DenoiseShape s;
  s.tokens = s.full_tokens = 75'888;
  s.cross_tokens = 397;
  s.batch = 2;
  s.elem = 2;
  return s;
}

}  // namespace

TEST_CASE("Step-Video transformer inventory from its constructor arguments", "[generation][stepvideo][inventory]") {
  // d = 128, ffn 512, captions 6 and 5, in = out = 4, patch 1:
  //   PatchEmbed 4·128 + 128 = 640; the block's norm1, norm2 4·128, q/k RMSNorms 4·128, scale_shift_table 6·128 =
  //   1792; the output scale_shift_table 256 → 2688 other;
  //   block linears (bias-free) wqkv 128·384, wo, wq, wo 3·128², wkv 128·256, feed-forward 2·128·512 = 262,144;
  //   proj_out 128·4 + 4 = 516; timestep embedder 256·128 + 128 = 32,896 and 128² + 128 = 16,512;
  //   adaLN-single linear 128·768 + 768 = 99,072; caption projection 6·128 + 128 = 896 and 16,512; CLIP 5·128 + 128 =
  //   768. 2688 + 262,144 + 516 + 32,896 + 16,512 + 99,072 + 896 + 16,512 + 768 = 432,004
  const Pipeline p = parse_pipeline(tiny_step_pipeline(tiny_step_transformer(), tiny_step_vae()), "/p");
  CHECK(p.components[0].inventory.params() == 432'004);
  CHECK(p.components[0].inventory.linear_weights() ==
        262'144 + 128 * 4 + 256 * 128 + 128 * 128 + 128 * 768 + 6 * 128 + 128 * 128 + 5 * 128);
  // The catalog's: 48 blocks × (16 · 6144² + 10 · 6144 + 512) = 28,994,002,944 + embedders and projections
  //   348,475,456 → 29,342,478,400 (the README's "30B").
  const Part& t = part(kStepId, "transformer");
  CHECK(t.inventory.params() == 29'342'478'400);
  CHECK(t.config.hidden == 6144);
  CHECK(t.config.layers == 48);
  CHECK(t.config.text_dim == 6144);
  CHECK(t.config.clip_dim == 1024);
}

TEST_CASE("Step-Video text encoders from their own config.json files", "[generation][stepvideo][inventory]") {
  // Step-LLM: 48 layers × (q 6144² + k, v 2 · 6144 · 1024 + o 6144² + gate, up, down 3 · 6144 · 16,896 + 2 norms
  //   12,288) = 48 × 399,519,744 = 19,176,947,712, embeddings 65,536 · 6144 = 402,653,184, final norm 6,144:
  //   19,579,607,040, its index's 39,159,201,792 B / 2 B plus the final norm.
  const Part& llm = part(kStepId, "step_llm");
  CHECK(llm.inventory.params() == 19'579'607'040LL);
  CHECK(llm.inventory.params() == 39'159'201'792LL / 2 + 6'144);
  CHECK(llm.config.tokens == 320);
  // Hunyuan-CLIP as a CLIP tower: tokens 47,020 · 1024 + positions 512 · 1024 + one layer (4 · (1024² + 1024) +
  //   1024 · 4096 + 4096 + 4096 · 1024 + 1024 + 2 LayerNorms 4096) + the final LayerNorm 2048 = 61,271,040.
  const Part& clip = part(kStepId, "hunyuan_clip");
  CHECK(clip.inventory.params() == 61'271'040);
  CHECK(clip.config.tokens == 77);
  // Both on the transformer's GPU by default; "cpu" stands for the reference's caption server.
  const json on_gpu{{"workload", "video"}, {"model", kStepId}, {"hardware", {{"gpu", "A100-80GB"}}}};
  json served = on_gpu;
  served["generation"] = {{"text_encoder", "cpu"}};
  CHECK(test::run(on_gpu).total - test::run(served).total == Bytes::of((19'579'607'040LL + 61'271'040) * 2));
}

TEST_CASE("Step-Video VAE inventory from its constructor arguments", "[generation][stepvideo][inventory]") {
  // Resnet c → c: 2c + 2·(27c² + c) + 2c; 32: 55,488, 64: 221,568; 32 → 64 with its 1×1×1 shortcut 168,320,
  //   64 → 32 85,280. Mid block (64): 2 · 221,568 + 128 + 4 · (64² + 64) = 459,904.
  //   encoder: conv_in 3·32·27 + 32 = 2624; level 0: 55,488 + a strided 3×3×3 conv 27,680; level 1: the same;
  //   level 2: 168,320; mid 459,904; norm_out 128; conv_patchify to 4·4 = 16: 27,664; conv_out 128 → 8: 27,656
  //   → 852,632.
  //   decoder: conv_in 4 → 128: 13,952; conv_unpatchify 128 → 8·64: 1,769,984; mid 459,904; level 2: 2 · 221,568
  //   and Upsample3D 2·(110,656 + 128) = 221,568; level 1: 85,280 + 55,488 and Upsample3D 2·(27,680 + 64) = 55,488;
  //   level 0: 2 · 55,488; norm_out 64; conv_out 32 → 3: 2595 → 3,218,435.
  const Pipeline p = parse_pipeline(tiny_step_pipeline(tiny_step_transformer(), tiny_step_vae()), "/p");
  CHECK(p.components[1].inventory.params() == 852'632 + 3'218'435);
  CHECK(p.components[1].config.spatial == 8);
  CHECK(p.components[1].config.temporal == 8);
  const Part& vae = part(kStepId, "vae");
  CHECK(vae.inventory.params() == 109'885'696 + 388'933'123);
  CHECK(vae.config.spatial == 16);
  CHECK(vae.config.latent_channels == 64);
}

TEST_CASE("Step-Video geometry: 17-frame chunks and refused sizes", "[generation][stepvideo][geometry]") {
  // 992 × 544 × 204: 204 / 17 · 3 = 36 latent frames of 34 × 62, patch 1: 75,888 tokens.
  const LatentGeometry g = test::native_decode(kStepId, 992, 544, 204).latent;
  CHECK(g.latent_frames == 36);
  CHECK(g.tokens == 75'888);
  std::string msg;
  CHECK(error_path(step_scenario({{"frames", 200}}), &msg) == "/generation/frames");
  CHECK(msg.find("187, 204") != std::string::npos);
  CHECK(error_path(step_scenario({{"width", 1000}}), &msg) == "/generation/width");
  CHECK(msg.find("992, 1008") != std::string::npos);
  CHECK(error_path(step_scenario({{"frames", 1003}})) == "/generation/frames");  // beyond 4 × 204
  CHECK(error_path(step_scenario({{"width", 768}, {"height", 768}, {"frames", 136}})) == "(no error)");
}

TEST_CASE("Step-Video: the solvers step by whole 17-frame chunks", "[generation][stepvideo][plan]") {
  Scenario s = test::scenario(step_scenario({{"width", 992}, {"height", 544}, {"frames", 204}}));
  const SizeSteps steps = size_steps(s);
  CHECK(steps.frames_at(1) == 17);
  CHECK(steps.frames_at(12) == 204);
  CHECK(steps.frame_index(204) == 12);
  CHECK(steps.frame_index(203) == 11);
  CHECK(steps.height_at(34) == 544);  // multiples of 16
  for (std::int64_t i = 1; i <= 3; ++i) {
    apply_setting(s, Setting::frames, i);
    CHECK_NOTHROW(estimate(s));
  }
}

TEST_CASE("Step-Video: the measurement script runs the reference, not diffusers", "[generation][stepvideo][measure]") {
  const json m = json::parse(io::measure_json(test::scenario(step_scenario({{"frames", 136}}))));
  const std::string text = m["text"].get<std::string>();
  CHECK(text.find("run_parallel.py") != std::string::npos);
  CHECK(text.find("--width 992 --height 544 --num_frames 136") != std::string::npos);
  CHECK(text.find("DiffusionPipeline") == std::string::npos);
  CHECK(text.find("max_memory_allocated") != std::string::npos);
}

TEST_CASE("Step-Video working set: the cross-attention's per-head masks", "[generation][stepvideo][activations]") {
  const Part& t = part(kStepId, "transformer");
  DenoiseShape s = native_denoise();
  // 151,776 video tokens (2 samples): held by forward 151,776 · 6144 · 2 = 1,865,023,488 and the bool mask
  //   151,776 · 397 = 60,255,072 → 1,925,278,560.
  CHECK(stepvideo_held(t, s).bytes == Bytes::of(1'925'278'560));
  // Cross-attention: 6 · 151,776 · 6144 · 2 = 11,190,140,928; the mask repeated over 48 heads 151,776 · 48 · 397 =
  //   2,892,243,456, SDPA's additive copy × 2 = 5,784,486,912 and its copy padded to 400 keys 151,776 · 48 · 400 · 2 =
  //   5,828,198,400 → 25,695,069,696.
  CHECK(stepvideo_cross_attention(t, s).bytes == Bytes::of(25'695'069'696));
  CHECK(stepvideo_self_attention(t, s).bytes == Bytes::of(151'776LL * 9 * 6144 * 2));
  CHECK(stepvideo_ffn(t, s).bytes == Bytes::of(151'776LL * (4 * 6144 + 2 * 24'576) * 2));
  CHECK(denoiser_working_set(t, s).bytes == Bytes::of(1'925'278'560 + 25'695'069'696));
  // 400 caption tokens, a multiple of 16: no padded copy, 11,190,140,928 + 151,776 · 48 · 400 · 3 = 19,932,438,528,
  //   below the feed-forward's 22,380,281,856; held 1,865,023,488 + 151,776 · 400 = 1,925,733,888.
  s.cross_tokens = 400;
  CHECK(stepvideo_cross_attention(t, s).bytes == Bytes::of(19'932'438'528));
  CHECK(denoiser_working_set(t, s).bytes == Bytes::of(1'925'733'888 + 22'380'281'856));
}

TEST_CASE("Step-Video VAE decode: one 3-latent-frame chunk per call", "[generation][stepvideo][vae]") {
  const Part& vae = part(kStepId, "vae");
  const DecodeShape s = test::native_decode(kStepId, 992, 544, 204);
  // A chunk of 3 latent frames of 34 × 62: the entry (4 · 4096 · 3 · 2108), the mid block at 5 frames of 68 × 124, two
  //   Upsample3D (5 → 10 → 20 frames), one Upsample2D, then level 0 at 20 frames of 544 × 992 = 539,648 pixels.
  const Terms levels = stepvideo_decode_levels(vae, s);
  CHECK(levels.size() == 14);
  CHECK(levels.front().bytes == Bytes::of(4LL * 4096 * 3 * 2108 * 2));
  // The second Upsample3D: 512 channels, 10 frames of 136 × 248: 41 · 512 · 10 · 33,728 · 2 = 14,160,363,520.
  CHECK(levels[7].bytes == Bytes::of(14'160'363'520));
  // Peak: level 0's first resnet (256 → 128) at its first GroupNorm, 256 · 539,648 · (4 · 20 + 2) · 2 =
  //   22,656,581,632, with 11 earlier chunks held at 20 uncropped frames: 11 · 3 · 20 · 539,648 · 2 = 712,335,360.
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(22'656'581'632 + 712'335'360));
}

TEST_CASE("Step-Video components refuse configs they do not model", "[generation][stepvideo][hostile]") {
  json s = {{"workload", "video"},
            {"model", tiny_step_pipeline(tiny_step_transformer(), tiny_step_vae())},
            {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK(error_path(s) == "(no error)");
  const auto den = [&](const char* key, const json& v, const std::string& at) {
    s["model"]["components"][0]["hf_config"] = tiny_step_transformer();
    s["model"]["components"][0]["hf_config"][key] = v;
    CHECK(error_path(s) == "/model/components/0/hf_config/" + at);
    s["model"]["components"][0]["hf_config"] = tiny_step_transformer();
  };
  den("attention_head_dim", 64, "attention_head_dim");
  den("caption_channels", "wide", "caption_channels");
  den("caption_channels", json::array({6, 0}), "caption_channels/1");
  den("norm_elementwise_affine", true, "norm_elementwise_affine");
  den("use_additional_conditions", true, "use_additional_conditions");
  den("norm_type", "ada_norm_zero", "norm_type");
  den("_class_name", "PixArtTransformer2DModel", "_class_name");
  const auto vae = [&](const char* key, const json& v, const std::string& at) {
    s["model"]["components"][1]["hf_config"] = tiny_step_vae();
    s["model"]["components"][1]["hf_config"][key] = v;
    CHECK(error_path(s) == "/model/components/1/hf_config/" + at);
    s["model"]["components"][1]["hf_config"] = tiny_step_vae();
  };
  vae("version", 1, "version");
  vae("temporal_up_layers", json::array({1}), "temporal_up_layers");
  vae("temporal_up_layers", json::array({1, 1}), "temporal_up_layers/1");
  vae("down_sampling_layer", json::array({0, 2}), "down_sampling_layer/1");  // the last level does not resample
  vae("ch", 48, "ch_mult");                                                  // GroupNorm(32)
  vae("z_channels", 64, "z_channels");                                       // 64 · 8 is not a multiple of 32 · 64
  vae("encoder_ch_mult", json::array({1, 2}), "encoder_ch_mult");
  vae("ch_mult", json::array({1, 1, 1, 1, 1, 1, 2}), "ch_mult");  // 7 levels: 128× spatial
  s["generation"] = {{"vae_tiling", true}};
  CHECK(error_path(s) == "/generation/vae_tiling");
  s["generation"] = {{"vae_slicing", true}};
  CHECK(error_path(s) == "/generation/vae_slicing");
}
