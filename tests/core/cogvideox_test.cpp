// CogVideoX pipelines: components read from their repositories' config.json,
// the transformer and VAE inventories, the denoiser working set and the VAE
// decode on hand-computed values, and bad input refused at its JSON path.
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

using test::part;
using test::pipeline;

/// A tiny CogVideoXTransformer3DModel config: 2 heads × 8 (dim 16), one block.
json tiny_transformer() {
  return {{"num_attention_heads", 2}, {"attention_head_dim", 8}, {"num_layers", 1}, {"in_channels", 4},
          {"out_channels", 4}, {"text_embed_dim", 8}, {"time_embed_dim", 6}, {"patch_size", 2},
          {"max_text_seq_length", 4}, {"sample_frames", 9}, {"sample_height", 8}, {"sample_width", 8},
          {"temporal_compression_ratio", 4}};
}

Inventory inventory_from(ComponentKind kind, const json& hf) {
  json j = {{"name", "x"}, {"kind", std::string(name_of(kComponentKinds, kind))}, {"params", 1}, {"source", "test"},
            {"hf_config", hf}};
  json p = {{"id", "t/x"}, {"modality", "video"}, {"native", {{"width", 720}, {"height", 480}, {"frames", 49}, {"max_frames", 49}}},
            {"components", json::array({j, {{"name", "vae"}, {"kind", "vae_cogvideox"}, {"params", 1}, {"source", "test"},
                                             {"hf_config", {{"block_out_channels", {32, 64}}, {"layers_per_block", 1},
                                                            {"latent_channels", 4}, {"temporal_compression_ratio", 4}}}},
                                            {{"name", "transformer"}, {"kind", "cogvideox"}, {"params", 1}, {"source", "test"},
                                             {"hf_config", tiny_transformer()}}})}};
  return parse_pipeline(p, "/p").components[0].inventory;
}

json cog(const char* id, json generation = json::object()) {
  return {{"workload", "video"}, {"model", id}, {"hardware", {{"gpu", "A100-80GB"}}}, {"headroom", 0},
          {"generation", generation}};
}

using test::error_path;

DecodeShape cogvideox_native_decode() {
  DecodeShape s;
  s.latent.latent_frames = 13;  // (49 - 1) / 4 + 1
  s.latent.latent_height = 60;  // 480 / 8
  s.latent.latent_width = 90;   // 720 / 8
  s.latent.latent_channels = 16;
  s.width = 720;
  s.height = 480;
  s.frames = 49;
  s.elem = 2;
  return s;
}

DenoiseShape native_denoise() {
  DenoiseShape s;
  s.tokens = s.full_tokens = 17550;  // 13 latent frames × 30 × 45 patches
  s.text_tokens = 226;
  s.batch = 2;  // CFG batched
  s.elem = 2;
  return s;
}

}  // namespace

TEST_CASE("CogVideoX transformer inventory from its config.json", "[generation][cogvideox][inventory]") {
  // d = 2 × 8 = 16, time 6, text 8, in/out 4, patch 2:
  //   patch Conv2d 4·2·2·16 + 16 = 272; text_proj 8·16 + 16 = 144; time 16·6 + 6 = 102 and 6·6 + 6 = 42;
  //   block: 2 modulations 2·(6·96 + 96) = 1344; q, k, v 3·(16·16 + 16) = 816; out 272; FF 16·64 + 64 = 1088
  //   and 64·16 + 16 = 1040; two LayerNorms 2·32 = 64; q/k LayerNorms 4·8 = 32 → 4656;
  //   norm_final + norm_out.norm 64; norm_out.linear 6·32 + 32 = 224; proj_out 16·16 + 16 = 272.
  //   272 + 144 + 102 + 42 + 4656 + 64 + 224 + 272 = 5776
  CHECK(inventory_from(ComponentKind::cogvideox, tiny_transformer()).params() == 5776);
  // CogVideoX 1.5: patch_size_t 2 makes the patch embedding a Linear(4·2·2·2 = 32 → 16) + 16 = 528 (+256)
  // and proj_out 16 × 32 + 32 = 544 (+272): 6304; an ofs embedding of 6 adds 2 · (6·6 + 6) = 84.
  json t = tiny_transformer();
  t["patch_size_t"] = 2;
  t["patch_bias"] = false;  // ignored by the Linear patch embedding
  CHECK(inventory_from(ComponentKind::cogvideox, t).params() == 6304);
  t["ofs_embed_dim"] = 6;
  CHECK(inventory_from(ComponentKind::cogvideox, t).params() == 6388);
  // The catalog's transformers: the published CogVideoX-5b count, and the 2b computed the same way.
  CHECK(part("THUDM/CogVideoX-5b", "transformer").inventory.params() == 5'570'283'072);
  CHECK(part("THUDM/CogVideoX-2b", "transformer").inventory.params() == 1'693'783'872);
  // Linear layers are what quantizers convert: 42 blocks × (2 × 512 × 18432 + 4 × 3072² + 2 × 3072 × 12288) + the rest.
  const Inventory& inv = part("THUDM/CogVideoX-5b", "transformer").inventory;
  CHECK(inv.linear_weights() == 42LL * (2 * 512 * 18432 + 4 * 3072LL * 3072 + 2 * 3072LL * 12288) + 4096LL * 3072 +
                                    3072LL * 512 + 512 * 512 + 512 * 6144 + 3072 * 64);
}

TEST_CASE("CogVideoX VAE inventory from its config.json", "[generation][cogvideox][inventory]") {
  // block_out_channels [32, 64], one resnet per encoder level (two per decoder level), latent 4, RGB:
  //   encoder: conv_in 3·32·27 + 32 = 2624; resnet 32→32: 2·64 (GroupNorms) + 2·(32·32·27 + 32) = 55488;
  //   downsample Conv2d 9·32² + 32 = 9248; resnet 32→64: 64 + 128 + (32·64·27 + 64) + (64·64·27 + 64) +
  //   shortcut 32·64 + 64 = 168320; mid 2 × resnet 64→64 = 443136; norm_out 128; conv_out 64·8·27 + 8 = 13832
  //   → 692776.
  //   decoder (spatial norms add 2 × (4·C + C) each): conv_in 4·64·27 + 64 = 6976; mid 2 × 222848 = 445696;
  //   up 0: 2 × 222848 + upsample 9·64² + 64 = 36928; up 1: resnet 64→32 86240 + 32→32 56128;
  //   norm_out 64 + 2·(4·32 + 32) = 384; conv_out 32·3·27 + 3 = 2595 → 1080643.
  const json vae = {{"block_out_channels", {32, 64}}, {"layers_per_block", 1}, {"latent_channels", 4},
                    {"temporal_compression_ratio", 4}};
  CHECK(inventory_from(ComponentKind::vae_cogvideox, vae).params() == 692776 + 1080643);
  // The catalog's VAE ([128, 256, 256, 512], 3 resnets per encoder level): 92,215,456 + 123,368,451.
  const Part& v = part("THUDM/CogVideoX-5b", "vae");
  CHECK(v.inventory.params() == 215'583'907);
  CHECK(v.inventory.linear.empty());
  CHECK(v.config.spatial == 8);
  CHECK(v.config.temporal == 4);
  CHECK(part("THUDM/CogVideoX-2b", "vae").config.sample_width == 720);  // diffusers' default: the 2b config predates it
}

TEST_CASE("CogVideoX denoiser working set over the joint sequence", "[generation][cogvideox][activations]") {
  const DenoiseShape s = native_denoise();
  // 5b (RoPE): joint 2 × (17550 + 226) = 35552 tokens, video 35100, dim 3072, ffn 12288, 2 B:
  //   attention output 35552 · 3072 · 9 · 2 = 1,965,883,392;
  //   RoPE on keys 35552 · 3072 · 6 · 2 + 35100 · 3072 · (2 + 12) = 1,310,588,928 + 1,509,580,800 = 2,820,169,728;
  //   feed-forward 35552 · (2 · 3072 + 2 · 12288) · 2 = 2,184,314,880 → the RoPE moment peaks.
  CHECK(denoiser_working_set(part("THUDM/CogVideoX-5b", "transformer"), s).bytes == Bytes::of(2'820'169'728));
  // 2b (sin-cos table): attention 35552 · 1920 · 18 = 1,228,677,120 < feed-forward 35552 · (3840 + 15360) · 2
  //   = 1,365,196,800; the table (17550 + 226) · 1920 · 2 = 68,259,840 → 1,433,456,640.
  CHECK(denoiser_working_set(part("THUDM/CogVideoX-2b", "transformer"), s).bytes == Bytes::of(1'433'456'640));
}

TEST_CASE("CogVideoX VAE decode: two latent frames per call, causal caches carried", "[generation][cogvideox][vae]") {
  const Part& vae = part("THUDM/CogVideoX-5b", "vae");
  // Levels of the first call (3 latent frames; 60 × 90 latents): mid 512 ch; up 0 512 → 512 (3 frames, then 5);
  // up 1 512 → 256 at 120 × 180 (5, then 9); up 2 256 → 256 at 240 × 360 (9); up 3 256 → 128 at 480 × 720 (9).
  // Top level spatial norm: 6 · 256 · 9 · 345600 · 2 B = 9,555,148,800 (its causal conv: 345600 · (256 · 31 + 128 · 9) · 2
  // = 6,281,625,600). Caches below it (elements): conv_in 2·16·5400 = 172,800; mid 2·5400·2048 + 8·16·3·5400 =
  // 24,192,000; up 0 2·5400·4096 + 16·16·3·5400 = 48,384,000; up 1 2·21600·2304 + 16·16·5·21600 = 127,180,800;
  // up 2 2·86400·2048 + 16·16·9·86400 = 552,960,000 → 752,889,600 · 2 B. First call: 11,060,928,000.
  // Second call (2 latent frames: 2, 4, 8, 8 frames): top 6 · 256 · 8 · 345600 · 2 = 8,493,465,600; its caches below
  // 723,168,000 · 2 = 1,446,336,000; the first call's caches held: 752,889,600 + top level 2·345600·1152 +
  // 16·16·9·345600 + norm_out 2·16·9·345600 + conv_out 2·128·345600 = 2,533,420,800 · 2 = 5,066,841,600
  // → 15,006,643,200. Output and its torch.cat: 2 · 3 · 49 · 345600 · 2 = 203,212,800. Peak: 15,209,856,000.
  DecodeShape s = cogvideox_native_decode();
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(15'209'856'000));
  // Tiling (tiles of 240 × 360 pixels = 30 × 45 latents): every level a quarter, so 15,006,643,200 / 4 =
  // 3,751,660,800; tiles held: rows 30 + 30 + 10 = 70 and columns 45 + 45 + 18 = 108 latents,
  // 3 · 49 · 70 · 108 · 64 · 2 = 142,248,960; output 203,212,800 → 4,097,122,560.
  s.tiling = true;
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(4'097'122'560));
  // The allocator keeps the next-largest level's blocks: up 2 of the first call, tiled, whose causal
  // conv (21600 · (256 · 31 + 256 · 9) · 2 = 442,368,000) beside cuDNN's NDHWC copies of its input
  // (the cat, 11 frames) and output (9 frames), 21600 · (256 · 11 + 256 · 9) · 2 = 221,184,000, is
  // 663,552,000: above its spatial norm, 6 · 256 · 9 · 21600 · 2 = 597,196,800.
  CHECK(vae_decode_cache(vae, s).bytes == Bytes::of(663'552'000));
  // fp32: no copies, the spatial norm again (in 4 B).
  DecodeShape f = s;
  f.elem = 4;
  CHECK(vae_decode_cache(vae, f).bytes == Bytes::of(2LL * 597'196'800));
}

TEST_CASE("CogVideoX pipelines estimate and validate their geometry", "[generation][cogvideox]") {
  // Model offload, 5b in bf16: the decode phase peaks with the VAE alone resident:
  // 215,583,907 × 2 B + 15,209,856,000 (the decode above) = 15,641,023,814.
  const Report r = test::run(cog("THUDM/CogVideoX-5b", {{"offload", "model"}}));
  CHECK(test::metric(r, "peak_allocated_bytes") == 15'641'023'814.0);
  // Tiled, the denoise phase peaks: 5,570,283,072 × 2 B + 2,820,169,728 (working set) + latents
  // 4 · 2 · (16 · 13 · 60 · 90) · 4 B = 35,942,400 → 13,996,678,272.
  const Report tiled = test::run(cog("THUDM/CogVideoX-5b", {{"offload", "model"}, {"vae_tiling", true}}));
  CHECK(test::metric(tiled, "peak_allocated_bytes") == 13'996'678'272.0);
  // 2b in fp16, tiled: the T5 encoder peaks: 4,762,310,656 × 2 B + its forward over 226 tokens,
  // 226 · 2 · (4 · 4096 + 3 · 10240) = 21,291,008 + eager scores 64 · 226² · 8 = 26,150,912 → 9,572,063,232.
  const Report small = test::run(cog("THUDM/CogVideoX-2b", {{"offload", "model"}, {"vae_tiling", true}}));
  CHECK(test::metric(small, "peak_allocated_bytes") == 9'572'063'232.0);

  std::string msg;
  CHECK(error_path(cog("THUDM/CogVideoX-2b", {{"frames", 50}}), &msg) == "/generation/frames");
  CHECK(msg.find("49, 53") != std::string::npos);
  CHECK(error_path(cog("THUDM/CogVideoX-2b", {{"width", 712}}), &msg) == "/generation/width");
  CHECK(msg.find("704, 720") != std::string::npos);
}

TEST_CASE("CogVideoX components refuse a config without its keys", "[generation][cogvideox][hostile]") {
  json p = json::parse(R"({"id": "t/cog", "modality": "video", "cfg": "batched",
    "native": {"width": 720, "height": 480, "frames": 49, "max_frames": 49},
    "components": [{"name": "text_encoder", "kind": "t5_encoder", "params": 1, "source": "t",
                    "config": {"hidden": 8, "head_dim": 4, "heads": 2, "ffn": 16, "layers": 1, "vocab": 10, "tokens": 8}}]})");
  json den = {{"name", "transformer"}, {"kind", "cogvideox"}, {"params", 1}, {"source", "t"}, {"hf_config", tiny_transformer()}};
  den["hf_config"].erase("num_layers");
  json vae = {{"name", "vae"}, {"kind", "vae_cogvideox"}, {"params", 1}, {"source", "t"},
              {"hf_config", {{"block_out_channels", {32, 64}}, {"layers_per_block", 1}, {"latent_channels", 4},
                             {"temporal_compression_ratio", 4}}}};
  p["components"].push_back(den);
  p["components"].push_back(vae);
  json s = {{"workload", "video"}, {"model", p}, {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK(error_path(s) == "/model/components/1/hf_config/num_layers");
  s["model"]["components"][1].erase("hf_config");
  CHECK(error_path(s) == "/model/components/1/hf_config");
  s["model"]["components"][1]["hf_config"] = tiny_transformer();
  s["model"]["components"][1]["hf_config"]["_class_name"] = "WanTransformer3DModel";
  CHECK(error_path(s) == "/model/components/1/hf_config/_class_name");
  s["model"]["components"][1]["hf_config"] = tiny_transformer();
  s["model"]["components"][2]["hf_config"]["temporal_compression_ratio"] = 3;
  CHECK(error_path(s) == "/model/components/2/hf_config/temporal_compression_ratio");
  s["model"]["components"][2]["hf_config"]["temporal_compression_ratio"] = 4;
  s["model"]["components"][2]["hf_config"].erase("block_out_channels");
  CHECK(error_path(s) == "/model/components/2/hf_config/block_out_channels");
}
