// HunyuanVideo-1.5: the transformer and VAE read from their config.json, the
// Qwen2.5-VL language model and the ByT5 glyph encoder read by the existing
// readers, inventories, geometry, the working set and the VAE decode on
// hand-computed values.
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

constexpr const char* kHy15Id = "tencent/HunyuanVideo-1.5";

/// A tiny HunyuanVideo15Transformer3DModel: 2 heads × 4 (dim 8), mlp_ratio 2, one block, one refiner block.
json tiny_hy15_transformer() {
  return {{"_class_name", "HunyuanVideo15Transformer3DModel"}, {"num_attention_heads", 2}, {"attention_head_dim", 4},
          {"mlp_ratio", 2.0}, {"num_layers", 1}, {"num_refiner_layers", 1}, {"in_channels", 5}, {"out_channels", 4},
          {"text_embed_dim", 6}, {"text_embed_2_dim", 3}, {"image_embed_dim", 7}, {"patch_size", 1}};
}

json tiny_hy15_vae() {
  return {{"_class_name", "AutoencoderKLHunyuanVideo15"}, {"block_out_channels", {8, 16, 16}}, {"layers_per_block", 1},
          {"latent_channels", 4}, {"spatial_compression_ratio", 4}, {"temporal_compression_ratio", 2}};
}

json tiny_hy15_pipeline(const json& den, const json& vae) {
  return {{"id", "t/hy15"}, {"modality", "video"},
          {"native", {{"width", 64}, {"height", 64}, {"frames", 9}, {"max_frames", 9}}},
          {"components", json::array({{{"name", "text_encoder_2"}, {"kind", "t5_encoder"}, {"params", 1}, {"source", "t"},
                                       {"config", {{"hidden", 8}, {"head_dim", 4}, {"heads", 2}, {"layers", 1}, {"ffn", 16},
                                                   {"vocab", 10}, {"tokens", 4}}}},
                                      {{"name", "transformer"}, {"kind", "hunyuan_video15"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", den}},
                                      {{"name", "vae"}, {"kind", "vae_hunyuan15"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", vae}}})}};
}

json hy15_scenario(json generation = json::object()) {
  return {{"workload", "video"}, {"model", kHy15Id}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}, {"headroom", 0},
          {"generation", generation}};
}

}  // namespace

TEST_CASE("HunyuanVideo-1.5 transformer inventory from its config.json", "[generation][hunyuan15][inventory]") {
  // d = 8, ffn 16, text 6, ByT5 3, image 7, in 5, out 4, patch 1:
  //   patch Conv3d 5·8 + 8 = 48, image LayerNorms 2·7 + 2·8 = 30, ByT5 LayerNorm 2·3 = 6, cond_type_embed 3·8 = 24 → 108;
  //   image projection 7·7 + 7 = 56 and 7·8 + 8 = 64 → 120;
  //   token refiner (as HunyuanVideo's, pooled text and proj_in from 6): 2056 + 72 + 56 + 72 + 56 + one block 1016 = 3328;
  //   ByT5 projection 3·2048 + 2048 = 8192, 2048·2048 + 2048 = 4,196,352, 2048·8 + 8 = 16,392 → 4,220,936;
  //   time embedding 256·8 + 8 = 2056 and 72 → 2128; one dual-stream block 864 + 576 + 560 + 16 = 2016;
  //   norm_out 8·16 + 16 = 144, proj_out 8·4 + 4 = 36.
  //   108 + 120 + 3328 + 4,220,936 + 2128 + 2016 + 180 = 4,228,816
  const Pipeline p = parse_pipeline(tiny_hy15_pipeline(tiny_hy15_transformer(), tiny_hy15_vae()), "/p");
  CHECK(p.components[1].inventory.params() == 4'228'816);
  // The catalog's: 54 blocks × 151,056,896 + the refiner 141,105,152 + the rest.
  const Part& t = part(kHy15Id, "transformer");
  CHECK(t.inventory.params() == 8'326'608'160);
  CHECK(t.config.hidden == 2048);
  CHECK(t.config.layers == 54);
}

TEST_CASE("HunyuanVideo-1.5 VAE inventory from its config.json", "[generation][hunyuan15][inventory]") {
  // [8, 16, 16], one resnet per encoder level (two per decoder level), latent 4, spatial 4, temporal 2.
  //   resnet c → c (RMS gammas, two 3×3×3 convs): 2c + 2·(27c² + c); 8: 3488, 16: 13,888.
  //   encoder: conv_in 3·8·27 + 8 = 656; level 0: 3488, downsample conv to 16 / 4 = 4 channels 8·4·27 + 4 = 868;
  //   level 1 (the downsampler already gave 16 channels): 13,888, then a conv to 16 / 8 = 2 channels (time) 866;
  //   level 2: 13,888; mid 2·13,888 + 16 + 4·(256 + 16) = 28,880; norm_out 16; conv_out 16·8·27 + 8 = 3464 → 66,014.
  //   decoder: conv_in 4·16·27 + 16 = 1744; mid 28,880; level 0: 2·13,888, upsample conv to 16·8 (time) 55,424;
  //   level 1: 2·13,888, conv to 8·4 13,856; level 2: 2·3488; norm_out 8; conv_out 8·3·27 + 3 = 651 → 163,091.
  const Pipeline p = parse_pipeline(tiny_hy15_pipeline(tiny_hy15_transformer(), tiny_hy15_vae()), "/p");
  CHECK(p.components[2].inventory.params() == 66'014 + 163'091);
  CHECK(part(kHy15Id, "vae").inventory.params() == 1'260'634'115);
}

TEST_CASE("HunyuanVideo-1.5 text encoders: Qwen2.5-VL's language model and ByT5", "[generation][hunyuan15][inventory]") {
  // Qwen2_5_VLTextModel: 28 × (2·3584² + 2·3584·512 + 3·3584·18944) = 6,525,288,448 linear weights, q/k/v biases
  //   28·(3584 + 2·512) = 129,024, norms 28·2·3584 + 3584 = 204,288, embeddings 152,064·3584 = 544,997,376.
  const Part& te = part(kHy15Id, "text_encoder");
  CHECK(te.inventory.linear_weights() == 6'525'288'448);
  CHECK(te.inventory.params() == 7'070'619'136);
  CHECK(te.inventory.params() == 7'615'616'512 - 152064LL * 3584);  // the language model less its lm_head
  // Every hidden state kept: 29 · 1108 · 3584 · 2 = 230,322,176, plus one layer 1108 · 2 · (4·3584 + 3·18944) =
  //   157,708,288 → 388,030,464.
  CHECK(text_encoder_forward(te, 1, 2).bytes == Bytes::of(388'030'464));
  // ByT5: 12 × (4·1472·384 + 3·1472·3584 + 2·1472) + 1510·1472 + 32·6 + 1472.
  CHECK(part(kHy15Id, "text_encoder_2").inventory.params() == 219'314'944);
}

TEST_CASE("HunyuanVideo-1.5 geometry and refused sizes", "[generation][hunyuan15][geometry]") {
  // 848 × 480 × 121: 31 latent frames of 30 × 53, patch 1: 49,290 tokens.
  const LatentGeometry g = test::native_decode(kHy15Id, 848, 480, 121).latent;
  CHECK(g.latent_frames == 31);
  CHECK(g.tokens == 49'290);
  std::string msg;
  CHECK(error_path(hy15_scenario({{"frames", 120}}), &msg) == "/generation/frames");
  CHECK(msg.find("117, 121") != std::string::npos);
  CHECK(error_path(hy15_scenario({{"width", 850}}), &msg) == "/generation/width");
  CHECK(msg.find("848, 864") != std::string::npos);
  CHECK(error_path(hy15_scenario({{"width", 1280}, {"height", 720}})) == "(no error)");
}

TEST_CASE("HunyuanVideo-1.5 working set: dual-stream blocks and the bool mask", "[generation][hunyuan15][activations]") {
  DenoiseShape s;
  s.tokens = s.full_tokens = 49'290;
  s.text_tokens = 729 + 256 + 1000;  // image, ByT5, language model
  s.batch = 1;                       // the guider's passes run one after the other
  s.elem = 2;
  // joint 51,275 tokens, dim 2048: attention (6·51,275 + 3·1985) · 2048 · 2 = 1,284,526,080, the bool masks
  //   51,275² · 2 = 5,258,251,250, SDPA's additive mask 51,275² · 2 = 5,258,251,250 and its copy padded to 51,280 keys
  //   51,275 · 51,280 · 2 = 5,258,764,000 → 17,059,792,580 (RoPE 2,438,963,200; feed-forward 2,237,071,360);
  //   cos/sin 49,290 · 128 · 2 · 4 = 50,472,960 → 17,110,265,540.
  CHECK(denoiser_working_set(part(kHy15Id, "transformer"), s).bytes == Bytes::of(17'110'265'540));
  // 49,295 video tokens make 51,280 in all, a multiple of 16: no padded copy. (6·51,280 + 3·1985) · 2048 · 2 =
  //   1,284,648,960 + 51,280² · 4 = 10,518,553,600, cos/sin 49,295 · 128 · 8 = 50,478,080 → 11,853,680,640.
  s.tokens = s.full_tokens = 49'295;
  CHECK(denoiser_working_set(part(kHy15Id, "transformer"), s).bytes == Bytes::of(11'853'680'640));
}

TEST_CASE("HunyuanVideo-1.5 VAE decode: every frame in one call", "[generation][hunyuan15][vae]") {
  const Part& vae = part(kHy15Id, "vae");
  DecodeShape s = test::native_decode(kHy15Id, 848, 480, 121);
  // Untiled: the last level's resnets (128 channels, 121 frames of 480 × 848) peak at norm2: the input 2 B and the
  //   conv1 output with its two fp32 copies 10 B per element: 128 · 121 · 407,040 · 12 = 75,650,826,240.
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(75'650'826'240));
  // Tiled (16-latent tiles every 12): the same moment over a 256 × 256 tile 128 · 121 · 65,536 · 12 =
  //   12,180,258,816, and every decoded tile held: 38 · 69 latents of tiles (16 + 16 + 6, 4 · 16 + 5) ·
  //   256 pixels · 3 · 121 · 2 = 487,314,432 → 12,667,573,248.
  s.tiling = true;
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(12'667'573'248));
}

TEST_CASE("HunyuanVideo-1.5 components refuse configs they do not model", "[generation][hunyuan15][hostile]") {
  json s = {{"workload", "video"}, {"model", tiny_hy15_pipeline(tiny_hy15_transformer(), tiny_hy15_vae())},
            {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK(error_path(s) == "(no error)");
  s["model"]["components"][1]["hf_config"]["use_meanflow"] = true;
  CHECK(error_path(s) == "/model/components/1/hf_config/use_meanflow");
  s["model"]["components"][1]["hf_config"] = tiny_hy15_transformer();
  s["model"]["components"][1]["hf_config"]["qk_norm"] = "layer_norm";
  CHECK(error_path(s) == "/model/components/1/hf_config/qk_norm");
  s["model"]["components"][1]["hf_config"] = tiny_hy15_transformer();
  s["model"]["components"][2]["hf_config"]["spatial_compression_ratio"] = 8;  // two resampling levels reach 4 at most
  CHECK(error_path(s) == "/model/components/2/hf_config/spatial_compression_ratio");
  s["model"]["components"][2]["hf_config"] = tiny_hy15_vae();
  s["model"]["components"][2]["hf_config"]["temporal_compression_ratio"] = 8;  // beyond the spatial 4
  CHECK(error_path(s) == "/model/components/2/hf_config/temporal_compression_ratio");
  s["model"]["components"][2]["hf_config"] = tiny_hy15_vae();
  s["model"]["components"][2]["hf_config"]["upsample_match_channel"] = false;
  CHECK(error_path(s) == "/model/components/2/hf_config/upsample_match_channel");
  s["model"]["components"][2]["hf_config"] = tiny_hy15_vae();
  s["model"]["components"][2]["hf_config"]["_class_name"] = "AutoencoderKLHunyuanVideo";
  CHECK(error_path(s) == "/model/components/2/hf_config/_class_name");
}
