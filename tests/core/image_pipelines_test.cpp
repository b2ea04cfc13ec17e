// More image pipelines: FLUX.1 Kontext's reference tokens, Sana's linear-attention
// transformer and deep-compression autoencoder, Qwen-Image's dual-stream MMDiT,
// and the language models they encode prompts with, on hand-computed values.
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
using test::pipeline;

json image(const char* id, json generation = json::object()) {
  return {{"workload", "image"}, {"model", id}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}, {"generation", generation}};
}

}  // namespace

TEST_CASE("FLUX.1 Kontext: the reference image's tokens join the sequence", "[generation][kontext]") {
  const auto& p = pipeline("black-forest-labs/FLUX.1-Kontext-dev");
  CHECK(p.reference_images == 1);
  // The FLUX.1-dev transformer, unchanged.
  CHECK(p.find("transformer")->inventory.params() == 11'901'408'320);
  GenerationSettings g;
  const LatentGeometry geo = latent_geometry(p, g, 1024, 1024, 1);
  // 1024 / 8 / 2 = 64 → 4096 image tokens, and 4096 more of the reference image.
  CHECK(geo.tokens == 4096);
  CHECK(geo.reference_tokens == 4096);
  // Single-stream block over 4096 + 4096 image tokens and 512 T5 tokens, bf16:
  //   (8192 + 512) × (2 × (6 × 3072 + 2 × 12288) + 12 × 3072 = 122,880 B) = 1,069,547,520 B.
  DenoiseShape s;
  s.tokens = s.full_tokens = geo.tokens + geo.reference_tokens;
  s.text_tokens = 512;
  CHECK(denoiser_working_set(*p.find("transformer"), s).bytes == Bytes::of(8704LL * 122'880));
  // Reference latents and the concatenated input: 3 × 16 × 128 × 128 × 2 B.
  CHECK(reference_latents(geo, 1, 1, 2).bytes == Bytes::of(3LL * 16 * 128 * 128 * 2));
  // The measuring script passes the reference image the estimate assumes.
  std::string script;
  for (const auto& [key, text] : test::run(image("black-forest-labs/FLUX.1-Kontext-dev")).details)
    if (key == "measure") script = json::parse(text)["text"].get<std::string>();
  CHECK(script.find("image=Image.new(\"RGB\", (1024, 1024))") != std::string::npos);
  // With the VAE elsewhere the denoise phase peaks: the same weights as FLUX.1-dev, and the
  // working set of the doubled sequence plus the reference latents.
  const Report r = test::run(image("black-forest-labs/FLUX.1-Kontext-dev", {{"vae", "cpu"}}));
  const Report dev = test::run(image("black-forest-labs/FLUX.1-dev", {{"vae", "cpu"}}));
  CHECK(test::metric(r, "weights_bytes") == test::metric(dev, "weights_bytes"));
  const double dev_set = (4096.0 + 512) * 122'880;
  CHECK(test::metric(r, "activation_bytes") - test::metric(dev, "activation_bytes") ==
        8704.0 * 122'880 - dev_set + 3.0 * 16 * 128 * 128 * 2);
}

TEST_CASE("FLUX.1 Kontext generates max_area pixels at the aspect ratio asked", "[generation][kontext]") {
  auto engine = [](const Report& r) {
    for (const auto& [key, text] : r.details)
      if (key == "engine") return json::parse(text);
    return json();
  };
  // 512 × 512 and 1000 × 1000 (off the 16-pixel grid) both become 1024 × 1024.
  for (int side : {512, 1000}) {
    const Report r = test::run(image("black-forest-labs/FLUX.1-Kontext-dev", {{"width", side}, {"height", side}}));
    CHECK(engine(r)["width"] == 1024);
    CHECK(engine(r)["tokens"] == 4096);
  }
  // 1280 × 720: sqrt(1,048,576 × 16/9) = 1365.3 → 1365 → 1360; sqrt(1,048,576 × 9/16) = 768.
  const Report wide = test::run(image("black-forest-labs/FLUX.1-Kontext-dev", {{"width", 1280}, {"height", 720}}));
  CHECK(engine(wide)["width"] == 1360);
  CHECK(engine(wide)["height"] == 768);
  CHECK(engine(wide)["reference_tokens"] == 85 * 48);
  // Other pipelines keep their grid check: FLUX.1-dev refuses 1000 with the nearest valid sizes.
  std::string msg;
  CHECK(error_path(image("black-forest-labs/FLUX.1-dev", {{"width", 1000}}), &msg) == "/generation/width");
  CHECK(msg.find("992, 1008") != std::string::npos);
  // A pasted pipeline whose max_area leaves a side under 16 pixels at the ratio asked is refused.
  json p = json::parse(test::read_file(std::string(VRAM_SOURCE_DIR) +
                                       "/models/pipelines/black-forest-labs__FLUX.1-Kontext-dev.json"));
  p["id"] = "my/kontext";
  p["max_area"] = 4096;
  CHECK(error_path({{"workload", "image"}, {"model", p}, {"generation", {{"width", 16384}, {"height", 8}}}}, &msg) ==
        "/generation/width");
  CHECK(msg.find("below 16") != std::string::npos);
}

TEST_CASE("a pipeline's reference_images is bounded", "[generation][kontext][errors]") {
  json p = json::parse(test::read_file(std::string(VRAM_SOURCE_DIR) +
                                       "/models/pipelines/black-forest-labs__FLUX.1-Kontext-dev.json"));
  p["id"] = "my/kontext";
  p["reference_images"] = 9;
  CHECK(error_path({{"workload", "image"}, {"model", p}}) == "/model/reference_images");
}

TEST_CASE("Qwen-Image: a double-stream MMDiT, Qwen2.5-VL as its text encoder, Wan's VAE on one frame",
          "[generation][qwen-image]") {
  const auto& p = pipeline("Qwen/Qwen-Image");
  // Per block: img_mod and txt_mod 2 × (3072 × 18432 + 18432) = 113,283,072; eight 3072² projections
  // with biases 75,522,048; four head RMSNorms 512; two GELU MLPs 2 × (3072 × 12288 + 12288 +
  // 12288 × 3072 + 3072) = 151,025,664: 339,831,296. Embedders, txt_norm, norm_out and proj_out
  // (3072 → 64) 40,523,328.
  const Part& dit = *p.find("transformer");
  CHECK(dit.inventory.params() == 60LL * 339'831'296 + 40'523'328);
  // Qwen2_5_VLForConditionalGeneration is loaded whole: the untied lm_head (152,064 × 3,584) and the
  // vision tower count, unlike HunyuanVideo's LlamaModel text encoder.
  const Part& te = *p.find("text_encoder");
  CHECK(te.config.conditional_generation);
  CHECK(te.inventory.params() == 8'292'166'656);
  CHECK_FALSE(pipeline("tencent/HunyuanVideo").find("text_encoder")->config.conditional_generation);
  // 1024 × 1024: 64 × 64 = 4096 image tokens beside 512 prompt tokens (546 encoded, the 34-token
  // template dropped). The MLP phase (2 × 3072 + 2 × 12288 = 30,720 elements a token) is above the
  // attention's 9 × 3072 = 27,648.
  GenerationSettings g;
  const LatentGeometry geo = latent_geometry(p, g, 1024, 1024, 1);
  CHECK(geo.tokens == 4096);
  CHECK(geo.latent_frames == 1);
  DenoiseShape s;
  s.tokens = s.full_tokens = geo.tokens;
  s.text_tokens = 512;
  const Term w = denoiser_working_set(dit, s);
  CHECK(w.bytes == Bytes::of(4608LL * 30'720 * 2));
  CHECK(consistent(w));
  // The whole pipeline in bf16: 57,698,920,550 B of weights (the repository's 57.7 GB); the decode
  // of the one latent frame peaks.
  const Report r = test::run(image("Qwen/Qwen-Image"));
  CHECK(test::metric(r, "weights_bytes") == 8'292'166'656.0 * 2 + 20'430'401'088.0 * 2 + 126'892'531.0 * 2);
  CHECK(r.find_component("vae_decode") != nullptr);
}

TEST_CASE("Sana 1600M: linear-attention DiT, Gemma-2 text encoder, deep-compression autoencoder",
          "[generation][sana]") {
  const auto& p = pipeline("Efficient-Large-Model/Sana_1600M_1024px_diffusers");
  // Per block (dim 2240): q, k, v without bias 15,052,800 + to_out 5,019,840; cross-attention
  // q, k, v, out with biases 20,079,360; GLUMBConv 25,099,200 + 112,000 + 12,544,000; the 6 × dim
  // table 13,440: 77,920,640. Patch conv 73,920, AdaLayerNormSingle 35,714,560, caption projection
  // 10,183,040 and norm 2,240, the output table 4,480 and proj_out 71,712.
  CHECK(p.find("transformer")->inventory.params() ==
        20LL * 77'920'640 + 73'920 + 35'714'560 + 10'183'040 + 2'240 + 4'480 + 71'712);
  // DC-AE f32c32: encoder 153,027,104 + decoder 159,223,171 (convolutions, RMSNorms, the
  // EfficientViT levels' bias-free attention projections).
  CHECK(p.find("vae")->inventory.params() == 153'027'104LL + 159'223'171);
  CHECK(p.find("text_encoder")->inventory.params() == 2'614'341'888);
  GenerationSettings g;
  const LatentGeometry geo = latent_geometry(p, g, 1024, 1024, 1);
  CHECK(geo.tokens == 32 * 32);  // 32× compression, patch 1
  // CFG batched: 2 × 1024 tokens. Linear attention: 2 × 2240 × 2 B + 5 × 2240 × 4 B = 53,760 B a
  // token; GLUMBConv: (2 × 2240 + 4 × 5600) × 2 B = 53,760 B too.
  DenoiseShape s;
  s.tokens = s.full_tokens = geo.tokens;
  s.batch = 2;
  const Term w = denoiser_working_set(*p.find("transformer"), s);
  CHECK(w.bytes == Bytes::of(2048LL * 53'760));
  CHECK(consistent(w));
  // The decode peaks in the 1024 × 1024 level's ResBlock: 128 channels × (input, second conv's
  // output: 2 × 2 B; the RMSNorm's fp32 copy and square: 8 B), beside the decoded image.
  DecodeShape d;
  d.latent = geo;
  d.width = d.height = 1024;
  d.elem = 2;
  const Term decode = vae_decode_peak(*p.find("vae"), d);
  CHECK(decode.bytes == Bytes::of(128LL * 1048576 * 12 + 3LL * 1048576 * 2));
  CHECK(consistent(decode));
  // Tiled (diffusers' AutoencoderDC.tiled_decode: 512 px tiles every 448 px) at 2048 × 2048: 64 × 64 latents,
  // tiles of 16 starting every 14 (0, 14, 28, 42, 56, the last 8 wide: 72 a side). One tile's top level is
  // 512 × 512 px of 128 channels × 12 B; all tiles held, 72² × 32² px × 3 × 2 B; the rows and the image
  // joined, 2 × 3 × 2048² × 2 B.
  d.latent = latent_geometry(p, g, 2048, 2048, 1);
  d.width = d.height = 2048;
  d.tiling = true;
  const Term tiled = vae_decode_peak(*p.find("vae"), d);
  CHECK(tiled.bytes == Bytes::of(128LL * 262144 * 12 + 72LL * 72 * 1024 * 3 * 2 + 2LL * 3 * 4194304 * 2));
  CHECK(consistent(tiled));
  CHECK(tiled.source.find("autoencoder_dc.py tiled_decode") != std::string_view::npos);
  d.tiling = false;
  CHECK(vae_decode_peak(*p.find("vae"), d).bytes == Bytes::of(128LL * 4194304 * 12 + 3LL * 4194304 * 2));
  // Through the pipeline: a tiled decode no larger than the untiled one.
  const json big = {{"width", 2048}, {"height", 2048}, {"offload", "model"}};
  json tiled_big = big;
  tiled_big["vae_tiling"] = true;
  CHECK(test::metric(test::run(image("Efficient-Large-Model/Sana_1600M_1024px_diffusers", tiled_big)), "peak_allocated_bytes") <=
        test::metric(test::run(image("Efficient-Large-Model/Sana_1600M_1024px_diffusers", big)), "peak_allocated_bytes"));
}

TEST_CASE("Qwen-Image's causal 3D VAE decodes in 256 px tiles every 192 px when tiling is on",
          "[generation][qwen-image]") {
  const auto& p = pipeline("Qwen/Qwen-Image");
  GenerationSettings g;
  DecodeShape d;
  d.latent = latent_geometry(p, g, 1024, 1024, 1);
  d.width = d.height = 1024;
  d.elem = 2;
  d.tiling = true;
  // One tile is 32 × 32 latents, decoded like one frame of the whole: levels of 384, 192, 192 and 96
  // input channels at 32², 64², 128² and 256² px; the largest holds 256² px × (6 × 96 + 96) channels
  // (input, SiLU, cache clone, 3 zero-padded frames; output) beside cuDNN's NHWC copies of the conv's
  // input and output (3 × 96 + 96) × 2 B = 138,412,032 B.
  // Its causal caches (one frame): 5 × 384 × 32² + (384 + 5 × 384) × 32² + (192 + 5 × 384) × 64² +
  // (192 + 5 × 192) × 128² + (96 + 5 × 96) × 256² + 96 × 256² = 75,890,688 elements × 2 B.
  // The tiles start every 24 latents: 0, 24, ..., 120, the last 8 wide: 5 × 32 + 8 = 168 latents a
  // side, 168² × 8² px × 3 × 2 B held; the rows and the joined image: 2 × 3 × 1024² × 2 B.
  const Term tiled = vae_decode_peak(*p.find("vae"), d);
  CHECK(tiled.bytes == Bytes::of(138'412'032LL + 75'890'688LL * 2 + 168LL * 168 * 64 * 3 * 2 + 2LL * 3 * 1048576 * 2));
  CHECK(consistent(tiled));
  CHECK(tiled.source.find("tiled_decode") != std::string_view::npos);
  // Untiled, the same levels run over 128 × 128 latents: about ten times more.
  d.tiling = false;
  const Term whole = vae_decode_peak(*p.find("vae"), d);
  CHECK(whole.bytes == Bytes::of(1'048'576LL * (672 + 384) * 2 + 75'890'688LL * 16 * 2 + 3LL * 1048576 * 2));
  // An image no larger than one tile decodes whole, tiling or not.
  d.latent = latent_geometry(p, g, 256, 256, 1);
  d.width = d.height = 256;
  const Term small = vae_decode_peak(*p.find("vae"), d);
  d.tiling = true;
  CHECK(vae_decode_peak(*p.find("vae"), d).bytes == small.bytes);
  // Through the pipeline: the decode phase shrinks, the rest of the report stays.
  const Report r = test::run(image("Qwen/Qwen-Image", {{"vae_tiling", true}, {"offload", "model"}}));
  const Report u = test::run(image("Qwen/Qwen-Image", {{"offload", "model"}}));
  CHECK(test::metric(r, "weights_bytes") == test::metric(u, "weights_bytes"));
  CHECK(test::metric(r, "peak_allocated_bytes") <= test::metric(u, "peak_allocated_bytes"));
}

TEST_CASE("a pasted Sana pipeline's configs are checked where a figure would divide by zero",
          "[generation][sana][errors]") {
  const json dit = {{"_class_name", "SanaTransformer2DModel"}, {"num_attention_heads", 2}, {"attention_head_dim", 8},
                    {"num_layers", 1}, {"in_channels", 4}, {"out_channels", 4}, {"caption_channels", 8},
                    {"num_cross_attention_heads", 2}, {"cross_attention_head_dim", 8}, {"cross_attention_dim", 16},
                    {"mlp_ratio", 2.5}, {"patch_size", 1}};
  const json dc = {{"_class_name", "AutoencoderDC"}, {"encoder_block_out_channels", {8, 16}},
                   {"decoder_block_out_channels", {8, 16}}, {"encoder_layers_per_block", {1, 1}},
                   {"decoder_layers_per_block", {1, 1}}, {"encoder_block_types", {"ResBlock", "EfficientViTBlock"}},
                   {"decoder_block_types", {"ResBlock", "EfficientViTBlock"}}, {"encoder_qkv_multiscales", {json::array(), {5}}},
                   {"decoder_qkv_multiscales", {json::array(), {5}}}, {"attention_head_dim", 8}, {"latent_channels", 4},
                   {"upsample_block_type", "interpolate"}, {"downsample_block_type", "Conv"}};
  json p = {{"id", "t/sana"}, {"modality", "image"}, {"native", {{"width", 64}, {"height", 64}}},
            {"components", {{{"name", "text_encoder"}, {"kind", "t5_encoder"}, {"params", 1}, {"source", "t"},
                             {"config", {{"hidden", 8}, {"head_dim", 4}, {"heads", 2}, {"ffn", 16}, {"layers", 1},
                                         {"vocab", 10}, {"tokens", 8}}}},
                            {{"name", "transformer"}, {"kind", "sana"}, {"params", 1}, {"source", "t"}, {"hf_config", dit}},
                            {{"name", "vae"}, {"kind", "vae_dc"}, {"params", 1}, {"source", "t"}, {"hf_config", dc}}}}};
  json s = {{"workload", "image"}, {"model", p}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK_NOTHROW(test::run(s));
  json bad = s;
  bad["model"]["components"][2]["hf_config"]["decoder_block_out_channels"][0] = 0;
  CHECK(error_path(bad) == "/model/components/2/hf_config/decoder_block_out_channels/0");
  bad = s;
  bad["model"]["components"][2]["hf_config"]["decoder_block_out_channels"][1] = 12;  // 12 heads of 8? no
  CHECK(error_path(bad) == "/model/components/2/hf_config/decoder_block_out_channels/1");
  bad = s;
  bad["model"]["components"][2]["hf_config"]["decoder_block_types"][1] = "Attention";
  CHECK(error_path(bad) == "/model/components/2/hf_config/decoder_block_types/1");
  bad = s;
  bad["model"]["components"][1]["hf_config"]["mlp_ratio"] = 100.0;
  CHECK(error_path(bad) == "/model/components/1/hf_config/mlp_ratio");
  bad = s;
  bad["model"]["components"][1]["hf_config"]["_class_name"] = "PixArtTransformer2DModel";
  CHECK(error_path(bad) == "/model/components/1/hf_config/_class_name");
  bad = s;
  bad["model"]["components"][1]["hf_config"].erase("caption_channels");
  CHECK(error_path(bad) == "/model/components/1/hf_config/caption_channels");
}

TEST_CASE("language-model text encoders: every hidden state where the pipeline asks, the logits where the head runs",
          "[generation][qwen-image][sana]") {
  // Qwen-Image: Qwen2_5_VLForConditionalGeneration over 546 tokens, output_hidden_states=True:
  // 29 states × 546 × 3584 × 2 B + the layer (4 × 3584 + 3 × 18944) × 2 B a token + the logits
  // 546 × 152,064 × 2 B.
  const Term q = text_encoder_forward(*pipeline("Qwen/Qwen-Image").find("text_encoder"), 1, 2);
  CHECK(q.bytes == Bytes::of(29LL * 546 * 3584 * 2 + 546LL * 2 * (4 * 3584 + 3 * 18944) + 546LL * 152064 * 2));
  CHECK(consistent(q));
  // Sana: Gemma2Model's last hidden state only, no head: the layer alone.
  const Term g = text_encoder_forward(*pipeline("Efficient-Large-Model/Sana_1600M_1024px_diffusers").find("text_encoder"), 1, 2);
  CHECK(g.bytes == Bytes::of(300LL * 2 * (4 * 2304 + 3 * 9216)));
}

TEST_CASE("CogView4-6B: joint attention over GLM text and image tokens, RoPE on the image part",
          "[generation][cogview4]") {
  const auto& p = pipeline("THUDM/CogView4-6B");
  // Per block (dim 4096, time_embed_dim 512): AdaLayerNormZero 512 → 12 × 4096 (25,214,976), q/k/v/out with biases
  // (67,125,248), the GELU feed-forward 4096 → 16384 → 4096 (134,238,208). Patch and text projections 64 → 4096 and
  // 4096 → 4096 (17,047,552); the timestep embedder 4096 → 512 → 512 (2,360,320) and the size conditions 1536 → 512 →
  // 512 (1,049,600); norm_out 512 → 8192 (4,202,496) and proj_out 4096 → 64 (262,208).
  CHECK(p.find("transformer")->inventory.params() ==
        28LL * (25'214'976 + 67'125'248 + 134'238'208) + 17'047'552 + 2'360'320 + 1'049'600 + 4'202'496 + 262'208);
  // GlmModel: per layer q 4096² + 4096, k and v 4096 × 256 + 256 (q/k/v biases; o_proj without), o 4096², the SwiGLU
  // 3 × 4096 × 13696 and two RMSNorms: 203,960,832; 40 of them, the 151,552-token embedding and the final norm.
  CHECK(p.find("text_encoder")->inventory.params() == 40LL * 203'960'832 + 151'552LL * 4096 + 4096);
  CHECK(p.cfg == CfgMode::separate);
  // 1024² → 64 × 64 = 4096 image tokens beside the prompt's at most 1024; RoPE on the keys' image part holds 6 hidden
  // per joint token and 14 B per image element, above the feed-forward's (2 × 4096 + 2 × 16384) × 2 B.
  DenoiseShape s;
  s.tokens = s.full_tokens = latent_geometry(p, GenerationSettings{}, 1024, 1024, 1).tokens;
  CHECK(s.tokens == 4096);
  s.text_tokens = 1024;
  const Term w = denoiser_working_set(*p.find("transformer"), s);
  CHECK(w.bytes == Bytes::of(5120LL * 6 * 4096 * 2 + 4096LL * 4096 * 14 + 4096LL * 128 * 2 * 4));
  CHECK(consistent(w));
}

TEST_CASE("HiDream-I1-Full: MoE double- and single-stream blocks over T5 and per-block Llama tokens",
          "[generation][hidream]") {
  const auto& p = pipeline("HiDream-ai/HiDream-I1-Full");
  // Width 2560; SwiGLU widths: routed 256 · ceil(int(2 · 10240 / 3) / 256) = 6912, shared (5120) 3584.
  const Part& t = *p.find("transformer");
  CHECK(t.config.ffn == 6912);
  CHECK(t.config.shared_ffn == 3584);
  // MoE feed-forward: shared 3 · 2560 · 3584 + 4 experts of 3 · 2560 · 6912 + the gate 4 · 2560 = 239,872,000.
  // Double block: 12 × 2560 modulation (78,673,920), image and text q/k/v/out (52,449,280), four RMSNorms
  // (10,240), the MoE and a dense text SwiGLU (53,084,160). Single block: 6 × 2560 (39,336,960), one attention
  // (26,224,640), two RMSNorms (5,120) and the MoE. Embedders 64 → 2560, 256 → 2560 → 2560, 2048 → 2560 → 2560
  // (19,182,080 together), 49 caption projections 4096 → 2560 without bias (513,802,240), the final 2560 → 5120
  // and 2560 → 64 (13,276,224).
  const std::int64_t moe = 239'872'000;
  CHECK(t.inventory.params() == 16LL * (78'673'920 + 52'449'280 + 10'240 + moe + 53'084'160) +
                                    32LL * (39'336'960 + 26'224'640 + 5'120 + moe) + 19'182'080 + 513'802'240 +
                                    13'276'224);
  CHECK(t.inventory.params() == 17'105'733'184);  // 34.21 GB in bf16
  // The transformer's text: T5's 128 tokens, the Llama's 128, and each block's own Llama layer (128 more).
  const Report r = test::run(image("HiDream-ai/HiDream-I1-Full"));
  std::int64_t denoise = -1;
  for (const auto& [key, text] : r.details)
    if (key == "phases")
      for (const auto& ph : json::parse(text))
        if (ph["phase"] == "denoise") denoise = ph["working_bytes"].get<std::int64_t>();
  DenoiseShape s;
  s.tokens = s.full_tokens = 4096;
  s.text_tokens = 384;
  s.batch = 2;  // CFG batched
  const Term w = denoiser_working_set(t, s);
  // RoPE returning over (4096 + 384) × 2 joint tokens: 18 copies of the 2560-wide hidden state.
  CHECK(w.bytes == Bytes::of(8960LL * 2560 * 18 * 2));
  CHECK(denoise > w.bytes.in_bytes());
  CHECK(denoise - w.bytes.in_bytes() < 16 << 20);  // the latents and their doubled input beside it
  // Any size is rescaled to 1024² pixels at its aspect ratio, each side floored to 16.
  const Report wide = test::run(image("HiDream-ai/HiDream-I1-Full", {{"width", 1920}, {"height", 1080}}));
  CHECK(wide.warnings.size() >= 1);
  // A transformer config whose llama_layers do not name one layer per block is refused.
  json model = json::parse(test::read_file(std::string(VRAM_SOURCE_DIR) + "/models/pipelines/HiDream-ai__HiDream-I1-Full.json"));
  model["components"][4]["hf_config"]["llama_layers"].erase(0);
  json bad = image("HiDream-ai/HiDream-I1-Full");
  bad["model"] = model;
  CHECK(error_path(bad) == "/model/components/4/hf_config/llama_layers");
  model["components"][4]["hf_config"]["llama_layers"].push_back(31);
  model["components"][4]["hf_config"]["num_activated_experts"] = 5;
  bad["model"] = model;
  CHECK(error_path(bad) == "/model/components/4/hf_config/num_activated_experts");
}
