// Mochi: the asymmetric transformer and the VAE read from their config.json,
// inventories, geometry, the working set and the VAE decode on hand-computed
// values, and bad input refused at its JSON path.
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

/// A tiny MochiTransformer3DModel: 2 heads × 4 (dim 8), context 6, two blocks.
json tiny_mochi() {
  return {{"num_attention_heads", 2}, {"attention_head_dim", 4}, {"num_layers", 2}, {"pooled_projection_dim", 6},
          {"in_channels", 4}, {"text_embed_dim", 8}, {"time_embed_dim", 4}, {"patch_size", 2}};
}

json tiny_mochi_vae() {
  return {{"encoder_block_out_channels", {4, 8, 8, 8}}, {"decoder_block_out_channels", {4, 8, 8, 8}},
          {"layers_per_block", {1, 1, 1, 1, 1}}, {"temporal_expansions", {1, 1, 2}}, {"spatial_expansions", {2, 1, 1}},
          {"add_attention_block", {false, false, false, false, true}}, {"latent_channels", 2}};
}

json tiny_mochi_pipeline(const json& den, const json& vae) {
  return {{"id", "t/mochi"}, {"modality", "video"}, {"cfg", "batched"},
          {"native", {{"width", 64}, {"height", 64}, {"frames", 7}, {"max_frames", 7}}},
          {"components", json::array({{{"name", "text_encoder"}, {"kind", "t5_encoder"}, {"params", 1}, {"source", "t"},
                                       {"config", {{"hidden", 8}, {"head_dim", 4}, {"heads", 2}, {"ffn", 16},
                                                   {"layers", 1}, {"vocab", 10}, {"tokens", 8}}}},
                                      {{"name", "transformer"}, {"kind", "mochi_dit"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", den}},
                                      {{"name", "vae"}, {"kind", "vae_mochi"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", vae}}})}};
}

json mochi(json generation = json::object()) {
  return {{"workload", "video"}, {"model", "genmo/mochi-1-preview"}, {"hardware", {{"gpu", "H100-SXM-80GB"}}},
          {"headroom", 0}, {"generation", generation}};
}

}  // namespace

TEST_CASE("Mochi transformer inventory from its config.json", "[generation][mochi][inventory]") {
  // d = 8, context P = 6, SwiGLU inner (4·8·2) // 3 = 21, context (4·6·2) // 3 = 16, in 4, patch 2, text 8, time 4:
  //   PatchEmbed 4·4·8 + 8 = 136; timestep 4·8 + 8 = 40 and 72; attention pool to_kv 8·16 + 16 = 144,
  //   to_q 72, to_out 72; caption_proj 8·6 + 6 = 54; pos_frequencies 3·2·2 = 12 → 602.
  //   Block 0: norm1 8·32 + 32 = 288, norm1_context 8·24 + 24 = 216, q/k/v 3·64 = 192, added q/k/v 3·48 = 144,
  //   to_out 72, to_add_out 8·6 + 6 = 54, FF 8·42 + 21·8 = 504, context FF 6·32 + 16·6 = 288, q/k norms 4·4 = 16 → 1774.
  //   Block 1 (context-pre-only): 288 + linear_1 8·6 + 6 = 54 + 192 + 144 + 72 + 504 + 16 = 1270.
  //   norm_out 8·16 + 16 = 144; proj_out 8·16 + 16 = 144. 602 + 1774 + 1270 + 288 = 3934
  const Pipeline p = parse_pipeline(tiny_mochi_pipeline(tiny_mochi(), tiny_mochi_vae()), "/p");
  CHECK(p.components[1].inventory.params() == 3934);
  // The catalog's: the published bf16 index total_size 20,055,355,488 = 2 × 10,027,677,744.
  const Part& t = part("genmo/mochi-1-preview", "transformer");
  CHECK(t.inventory.params() == 10'027'677'744);
  CHECK(t.config.ffn == 8192);
}

TEST_CASE("Mochi VAE inventory and compression from its config.json", "[generation][mochi][inventory]") {
  // Resnet of c: 2·(2c + 27c² + c); attention of c: 2c + 4c² + c.
  //   encoder: proj_in 15·4 + 4 = 64; block_in resnet(4) 2·(8 + 432 + 4) = 888; down 0: conv 4 → 8 with kernel
  //   1·2·2: 4·8·4 + 8 = 136, resnet(8) 2·(16 + 1728 + 8) = 3504; down 1 (kernel 1): 72 + 3504; down 2 (kernel 2):
  //   136 + 3504; block_out resnet(8) 3504 + attention 16 + 256 + 8 = 280; norm_out 16; proj_out 8·4 = 32 → 15640.
  //   decoder: conv_in 2·8 + 8 = 24; block_in 3504; up 0: resnet(8) 3504 + proj 8 → 8·2·1 = 16: 144;
  //   up 1: 3504 + 8 → 8: 72; up 2: 3504 + 8 → 4·1·4 = 16: 144; block_out resnet(4) 888; proj_out 4·3 + 3 = 15 → 15303.
  const Pipeline p = parse_pipeline(tiny_mochi_pipeline(tiny_mochi(), tiny_mochi_vae()), "/p");
  CHECK(p.components[2].inventory.params() == 15640 + 15303);
  CHECK(p.components[2].config.spatial == 2);
  CHECK(p.components[2].config.temporal == 2);
  const Part& vae = part("genmo/mochi-1-preview", "vae");
  CHECK(vae.inventory.params() == 459'748'611);
  CHECK(vae.config.spatial == 8);
  CHECK(vae.config.temporal == 6);
}

TEST_CASE("Mochi geometry and refused sizes", "[generation][mochi][geometry]") {
  // 848 × 480 × 19: (19 - 1) / 6 + 1 = 4 latent frames of 60 × 106, patch 2: 4 · 30 · 53 = 6360 tokens.
  const LatentGeometry g = test::native_decode("genmo/mochi-1-preview", 848, 480, 19).latent;
  CHECK(g.latent_frames == 4);
  CHECK(g.latent_height == 60);
  CHECK(g.tokens == 6360);
  std::string msg;
  CHECK(error_path(mochi({{"frames", 20}}), &msg) == "/generation/frames");
  CHECK(msg.find("6k+1") != std::string::npos);
  CHECK(msg.find("19, 25") != std::string::npos);
  CHECK(error_path(mochi({{"width", 850}}), &msg) == "/generation/width");
  CHECK(msg.find("848, 864") != std::string::npos);
}

TEST_CASE("Mochi working set: the SwiGLU feed-forward over the video tokens", "[generation][mochi][activations]") {
  DenoiseShape s;
  s.tokens = s.full_tokens = 6360;
  s.text_tokens = 256;
  s.batch = 2;  // CFG batched
  s.elem = 2;
  // 12720 tokens: FF 12720 · (2·3072 + 4·8192) · 2 = 989,921,280; RoPE on keys 12720 · 3072 · 22 = 859,668,480;
  //   per-sample attention 6360 · 3072 · 16 · 2 = 625,213,440 → the FF; cos/sin 6360 · 3072 · 4 = 78,151,680
  //   → 1,068,072,960.
  CHECK(denoiser_working_set(part("genmo/mochi-1-preview", "transformer"), s).bytes == Bytes::of(1'068'072'960));
}

TEST_CASE("Mochi VAE decode: the whole latent in one call", "[generation][mochi][vae]") {
  const Part& vae = part("genmo/mochi-1-preview", "vae");
  DecodeShape s = test::native_decode("genmo/mochi-1-preview", 848, 480, 19);
  // Up blocks: 768 at 4 frames of 60 × 106 → 512 at 12 of 120 × 212 → 256 at 24 of 240 × 424 → 128 at 24 of
  //   480 × 848. block_out's resnet: 128 · 407040 · (4·24 + 2) · 2 = 10,211,819,520 (up 2's projection
  //   24 · 101760 · (2·256 + 2·512) · 2 = 7,502,561,280; proj_out 24 · 407040 · (3·128 + 3) · 2 = 7,561,175,040).
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(10'211'819'520));
  // Tiled (32 × 32 latents every 24): block_out over 256 × 256 pixels 128 · 65536 · 98 · 2 = 1,644,167,168;
  //   tiles 3 · 24 · (76 · 138 · 64) · 2 = 96,657,408; rows and video 2 · 3 · 24 · 407040 · 2 = 117,227,520
  //   → 1,858,052,096.
  s.tiling = true;
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(1'858'052'096));
}

TEST_CASE("Mochi components refuse configs they do not model", "[generation][mochi][hostile]") {
  json s = {{"workload", "video"}, {"model", tiny_mochi_pipeline(tiny_mochi(), tiny_mochi_vae())},
            {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK(error_path(s) == "(no error)");
  s["model"]["components"][1]["hf_config"]["activation_fn"] = "gelu";
  CHECK(error_path(s) == "/model/components/1/hf_config/activation_fn");
  s["model"]["components"][1]["hf_config"] = tiny_mochi();
  s["model"]["components"][2]["hf_config"]["temporal_expansions"] = {1, 2};
  CHECK(error_path(s) == "/model/components/2/hf_config/temporal_expansions");
}
