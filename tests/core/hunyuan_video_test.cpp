// HunyuanVideo: the transformer and VAE read from their config.json, the
// language-model text encoder read by the core's config reader, inventories,
// geometry, the working set and the chunked VAE decode on hand-computed values.
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

/// A tiny HunyuanVideoTransformer3DModel: 2 heads × 4 (dim 8), mlp_ratio 2, one block of each kind.
json tiny_hunyuan() {
  return {{"num_attention_heads", 2}, {"attention_head_dim", 4}, {"mlp_ratio", 2.0}, {"num_layers", 1},
          {"num_single_layers", 1}, {"num_refiner_layers", 1}, {"in_channels", 4}, {"out_channels", 4},
          {"text_embed_dim", 6}, {"pooled_projection_dim", 5}, {"guidance_embeds", true}, {"patch_size", 2}};
}

json tiny_hunyuan_vae() {
  return {{"block_out_channels", {32, 64}}, {"layers_per_block", 1}, {"latent_channels", 4},
          {"spatial_compression_ratio", 2}, {"temporal_compression_ratio", 4}};
}

json tiny_hunyuan_pipeline(const json& den, const json& vae) {
  return {{"id", "t/hy"}, {"modality", "video"},
          {"native", {{"width", 64}, {"height", 64}, {"frames", 9}, {"max_frames", 9}}},
          {"components", json::array({{{"name", "text_encoder_2"}, {"kind", "clip_text"}, {"params", 1}, {"source", "t"},
                                       {"config", {{"hidden", 8}, {"layers", 1}, {"ffn", 16}, {"heads", 2}, {"vocab", 10},
                                                   {"positions", 4}, {"tokens", 4}}}},
                                      {{"name", "transformer"}, {"kind", "hunyuan_video"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", den}},
                                      {{"name", "vae"}, {"kind", "vae_hunyuan"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", vae}}})}};
}

json hunyuan(json generation = json::object()) {
  return {{"workload", "video"}, {"model", "tencent/HunyuanVideo"}, {"hardware", {{"gpu", "H100-SXM-80GB"}}},
          {"headroom", 0}, {"generation", generation}};
}

}  // namespace

TEST_CASE("HunyuanVideo transformer inventory from its config.json", "[generation][hunyuan][inventory]") {
  // d = 8, ffn 16, text 6, pooled 5, in/out 4, patch 1 × 2 × 2:
  //   Conv3d 4·4·8 + 8 = 136;
  //   token refiner: timestep 256·8 + 8 = 2056 and 72, pooled text 6·8 + 8 = 56 and 72, proj_in 56; one block:
  //   q, k, v, out 4·72 = 288, FF (ratio 4) 8·32 + 32 = 288 and 32·8 + 8 = 264, AdaNorm 8·16 + 16 = 144,
  //   LayerNorms 32 → 1016; refiner 3328;
  //   conditioning: timestep and guidance 2·(2056 + 72) = 4256, CLIP pooled 5·8 + 8 = 48 and 72 → 4376;
  //   dual-stream block: AdaLayerNormZero ×2 2·(8·48 + 48) = 864, q/k/v/out ×2 8·72 = 576, FF ×2 2·144 + 2·136 = 560,
  //   q/k RMSNorms 4·4 = 16 → 2016; single-stream block: 8·24 + 24 = 216, q, k, v 216, proj_mlp 144,
  //   proj_out 24·8 + 8 = 200, q/k RMSNorms 8 → 784; norm_out 144; proj_out 8·16 + 16 = 144.
  //   136 + 3328 + 4376 + 2016 + 784 + 144 + 144 = 10928
  const Pipeline p = parse_pipeline(tiny_hunyuan_pipeline(tiny_hunyuan(), tiny_hunyuan_vae()), "/p");
  CHECK(p.components[1].inventory.params() == 10928);
  const Part& t = part("tencent/HunyuanVideo", "transformer");
  CHECK(t.inventory.params() == 12'821'012'544);
  CHECK(t.config.single_layers == 40);
}

TEST_CASE("HunyuanVideo VAE inventory from its config.json", "[generation][hunyuan][inventory]") {
  // [32, 64], one resnet per encoder level (two per decoder level), latent 4, spatial 2 (level 0 scales):
  //   encoder: conv_in 3·32·27 + 32 = 2624; resnet 32 → 32: 64 + 27680 + 64 + 27680 = 55488; downsampler 27680;
  //   resnet 32 → 64: 64 + 55360 + 128 + 110656 + shortcut 2112 = 168320; mid: 2 × 221568 + attention
  //   (GroupNorm 128, q/k/v/out 4·(64·64 + 64) = 16640) = 459904; norm_out 128; conv_out 64·8·27 + 8 = 13832 → 727976.
  //   decoder: conv_in 4·64·27 + 64 = 6976; mid 459904; up 0: 2 × 221568 + upsampler conv 110656; up 1: resnet
  //   64 → 32 128 + 55328 + 64 + 27680 + 2080 = 85280 and 55488; norm_out 64; conv_out 32·3·27 + 3 = 2595 → 1164099.
  //   quant_conv 8·8 + 8 = 72, post_quant_conv 4·4 + 4 = 20.
  const Pipeline p = parse_pipeline(tiny_hunyuan_pipeline(tiny_hunyuan(), tiny_hunyuan_vae()), "/p");
  CHECK(p.components[2].inventory.params() == 727976 + 1164099 + 92);
  CHECK(part("tencent/HunyuanVideo", "vae").inventory.params() == 246'478'803);
}

TEST_CASE("HunyuanVideo's language-model text encoder: the core's reader, no lm_head", "[generation][hunyuan][inventory]") {
  // Llama-3-8B layers with a 128,320-token vocabulary: 32 × (2·4096² + 2·4096·1024 + 3·4096·14336) =
  //   6,979,321,856 linear weights; embeddings 128320·4096 = 525,598,720, norms 32·8192 + 4096.
  const Part& te = part("tencent/HunyuanVideo", "text_encoder");
  CHECK(te.inventory.linear_weights() == 6'979'321'856);
  CHECK(te.inventory.params() == 7'505'186'816);
  CHECK(te.inventory.params() == 8'030'261'248 - 128256LL * 4096 + 64LL * 4096);  // Meta-Llama-3-8B's published count
  CHECK(te.config.language_model != nullptr);
  // Its forward keeps every hidden state: 33 · 351 · 4096 · 2 = 94,887,936, plus one layer
  //   351 · 2 · (4 · 4096 + 3 · 14336) = 41,693,184 → 136,581,120.
  CHECK(text_encoder_forward(te, 1, 2).bytes == Bytes::of(136'581'120));
}

TEST_CASE("HunyuanVideo geometry and refused sizes", "[generation][hunyuan][geometry]") {
  // 1280 × 720 × 129: 33 latent frames of 90 × 160, patch 1 × 2 × 2: 33 · 45 · 80 = 118,800 tokens.
  const LatentGeometry g = test::native_decode("tencent/HunyuanVideo", 1280, 720, 129).latent;
  CHECK(g.latent_frames == 33);
  CHECK(g.tokens == 118'800);
  std::string msg;
  CHECK(error_path(hunyuan({{"frames", 128}}), &msg) == "/generation/frames");
  CHECK(msg.find("125, 129") != std::string::npos);
  CHECK(error_path(hunyuan({{"width", 1290}}), &msg) == "/generation/width");
  CHECK(msg.find("1280, 1296") != std::string::npos);
}

TEST_CASE("HunyuanVideo working set: single-stream blocks over video and text", "[generation][hunyuan][activations]") {
  DenoiseShape s;
  s.tokens = s.full_tokens = 118'800;
  s.text_tokens = 256;
  s.batch = 1;  // guidance distilled
  s.elem = 2;
  // joint 119,056 tokens, dim 3072, ffn 12288: RoPE on keys 119056 · (5·3072 + 12288) · 2 + 118800 · 3072 · 14 =
  //   6,583,320,576 + 5,109,350,400 = 11,692,670,976 (proj_out moment 119056 · (7·3072 + 2·12288) · 2 =
  //   10,972,200,960); cos/sin 118800 · 128 · 2 · 4 = 121,651,200 → 11,814,322,176.
  CHECK(denoiser_working_set(part("tencent/HunyuanVideo", "transformer"), s).bytes == Bytes::of(11'814'322'176));
}

TEST_CASE("HunyuanVideo VAE decode: chunks of five latent frames", "[generation][hunyuan][vae]") {
  const Part& vae = part("tencent/HunyuanVideo", "vae");
  DecodeShape s = test::native_decode("tencent/HunyuanVideo", 1280, 720, 129);
  // A 5-frame chunk: up 2's upsampler (256 channels, 9 frames of 360 × 640 to 17 of 720 × 1280) peaks:
  //   256 · (9·230400 + 4·17·921600 + 2·921600) · 2 = 34,091,827,200 (the mid block's causal mask over
  //   5 · 14400 = 72000 tokens: 72000² · 6 + 512 · 72000 · 2 = 31,177,728,000). Chunks start every 3 latent frames:
  //   the last 5-frame one (the 10th) follows 17 + 8 · 16 = 145 held frames of 3 · 921600 · 2 = 5,529,600 B
  //   → 34,091,827,200 + 801,792,000 = 34,893,619,200.
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(34'893'619'200));
  // Tiled (256-pixel tiles every 192): the same stage over a 32 × 32-latent tile,
  //   256 · (9·16384 + 4·17·65536 + 2·65536) · 2 = 2,424,307,712, the chunk's tiles 3 · 17 · (114 · 208 · 64) · 2 =
  //   154,791,936, and the 145 held frames → 3,380,891,648.
  s.tiling = true;
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(3'380'891'648));
}

TEST_CASE("HunyuanVideo components refuse configs they do not model", "[generation][hunyuan][hostile]") {
  json s = {{"workload", "video"}, {"model", tiny_hunyuan_pipeline(tiny_hunyuan(), tiny_hunyuan_vae())},
            {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK(error_path(s) == "(no error)");
  s["model"]["components"][1]["hf_config"]["image_condition_type"] = "token_replace";  // I2V: no parameter of its own
  CHECK(error_path(s) == "(no error)");
  s["model"]["components"][1]["hf_config"]["image_condition_type"] = "first_frame";
  CHECK(error_path(s) == "/model/components/1/hf_config/image_condition_type");
  s["model"]["components"][1]["hf_config"] = tiny_hunyuan();
  s["model"]["components"][2]["hf_config"]["temporal_compression_ratio"] = 8;
  CHECK(error_path(s) == "/model/components/2/hf_config/temporal_compression_ratio");
  s["model"]["components"][2]["hf_config"] = tiny_hunyuan_vae();
  s["model"]["components"][2]["hf_config"]["spatial_compression_ratio"] = 8;  // two levels reach 2 at most
  CHECK(error_path(s) == "/model/components/2/hf_config/spatial_compression_ratio");
}

TEST_CASE("HunyuanVideo-I2V: LLaVA encodes the prompt with the image's 576 positions; the token-replace transformer",
          "[generation][hunyuan][i2v]") {
  const Part& te = part("tencent/HunyuanVideo-I2V", "text_encoder");
  // LlavaForConditionalGeneration loaded whole: the LlamaModel (7,505,186,816) + lm_head 128,320 × 4096 + the CLIP
  // ViT-L/14-336 tower (patch conv 3·14·14·1024 without bias 602,112, class embedding 1,024, 577 positions 590,848,
  // pre- and post-LayerNorm 2 × 2,048, 24 layers of 12,596,224) + the projector 1024 → 4096 → 4096 (20,979,712).
  CHECK(te.inventory.params() ==
        7'505'186'816LL + 128'320LL * 4096 + (602'112 + 1'024 + 590'848 + 4'096 + 24LL * 12'596'224) + 20'979'712);
  // 359 tokenized positions (256 + crop_start 103), the <image> token expanded to 576: 934 run through the model;
  // handed on: 359 - 103 - 4 assistant-header states = 252, and 576 / 4 image states = 144.
  CHECK(encoder_positions(te.config) == 934);
  CHECK(handed_tokens(te.config) == 396);
  // Its forward: 33 hidden states of 934 positions, a decoder layer, the logits of every position.
  const Term f = text_encoder_forward(te, 1, 2);
  CHECK(f.bytes == Bytes::of(33LL * 934 * 4096 * 2 + 934LL * 2 * (4 * 4096 + 3 * 14336) + 934LL * 128'320 * 2));
  // token_replace adds no parameter: the transformer is the T2V one.
  CHECK(part("tencent/HunyuanVideo-I2V", "transformer").inventory.params() ==
        part("tencent/HunyuanVideo", "transformer").inventory.params());
  // The joint sequence is 140 text tokens longer than T2V's 256: at the RoPE moment (5 × 3072 + 12,288 elements a
  // joint token in bf16) the denoise working set grows by 140 × 55,296 B.
  const auto denoise_working = [](const char* id) {
    const Report r = test::run({{"workload", "video"}, {"model", id}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}});
    for (const auto& [key, text] : r.details)
      if (key == "phases")
        for (const auto& ph : json::parse(text))
          if (ph["phase"] == "denoise") return ph["working_bytes"].get<std::int64_t>();
    return std::int64_t{-1};
  };
  CHECK(denoise_working("tencent/HunyuanVideo-I2V") - denoise_working("tencent/HunyuanVideo") == 140LL * 55'296);
}
