// LTX-Video: the transformer and VAE read from their config.json, inventories,
// latent geometry, the denoiser working set and the VAE decode on hand-computed
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

/// A tiny LTXVideoTransformer3DModel: 2 heads × 4 (dim 8), one block.
json tiny_ltx() {
  return {{"num_attention_heads", 2}, {"attention_head_dim", 4}, {"num_layers", 1}, {"in_channels", 4},
          {"out_channels", 4}, {"cross_attention_dim", 6}, {"caption_channels", 5}};
}

/// A tiny AutoencoderKLLTXVideo: two levels, the first scaling, patch 2.
json tiny_ltx_vae() {
  return {{"block_out_channels", {8, 16}}, {"layers_per_block", {1, 1, 1}}, {"spatio_temporal_scaling", {true, false}},
          {"latent_channels", 4}, {"patch_size", 2}};
}

json tiny_ltx_pipeline(const json& den, const json& vae) {
  return {{"id", "t/ltx"}, {"modality", "video"}, {"cfg", "batched"},
          {"native", {{"width", 64}, {"height", 64}, {"frames", 9}, {"max_frames", 9}}},
          {"components", json::array({{{"name", "text_encoder"}, {"kind", "t5_encoder"}, {"params", 1}, {"source", "t"},
                                       {"config", {{"hidden", 8}, {"head_dim", 4}, {"heads", 2}, {"ffn", 16},
                                                   {"layers", 1}, {"vocab", 10}, {"tokens", 8}}}},
                                      {{"name", "transformer"}, {"kind", "ltx_video"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", den}},
                                      {{"name", "vae"}, {"kind", "vae_ltx"}, {"params", 1}, {"source", "t"},
                                       {"hf_config", vae}}})}};
}

json ltx(json generation = json::object()) {
  return {{"workload", "video"}, {"model", "Lightricks/LTX-Video"}, {"hardware", {{"gpu", "A100-80GB"}}},
          {"headroom", 0}, {"generation", generation}};
}

}  // namespace

TEST_CASE("LTX-Video transformer inventory from its config.json", "[generation][ltx][inventory]") {
  // d = 8, ffn 32, cross 6, caption 5, in/out 4, patch 1:
  //   proj_in 4·8 + 8 = 40; scale_shift_table 16; time 256·8 + 8 = 2056, 8·8 + 8 = 72, 8·48 + 48 = 432;
  //   caption 5·8 + 8 = 48 and 72; block: attn1 q, k, v 3·72 = 216 + out 72; attn2 q 72, k, v 2·(6·8 + 8) = 112,
  //   out 72; FF 8·32 + 32 = 288 and 32·8 + 8 = 264; q/k RMSNorms 4·8 = 32; table 6·8 = 48 → 1176;
  //   proj_out 8·4 + 4 = 36. 40 + 16 + 2056 + 72 + 432 + 48 + 72 + 1176 + 36 = 3948
  const Pipeline p = parse_pipeline(tiny_ltx_pipeline(tiny_ltx(), tiny_ltx_vae()), "/p");
  CHECK(p.components[1].inventory.params() == 3948);
  // The catalog's 2B transformer: the published 1,923,385,472.
  const Part& t = part("Lightricks/LTX-Video", "transformer");
  CHECK(t.inventory.params() == 1'923'385'472);
  CHECK(t.config.hidden == 2048);
  CHECK(t.config.cross_dim == 2048);
}

TEST_CASE("LTX-Video VAE inventory and compression from its config.json", "[generation][ltx][inventory]") {
  // Encoder (input 3 · 2² = 12): conv_in 12·8·27 + 8 = 2600; level 0: resnet 8 → 8 2·(8·8·27 + 8) = 3472,
  //   downsampler 1736, conv_out resnet 8 → 16: 3472 + 6928 + LayerNorm 16 + shortcut 144 = 10560;
  //   level 1: resnet 16 → 16 13856; mid 13856; conv_out 16 → 4 + 1: 16·5·27 + 5 = 2165 → 48245.
  // Decoder: conv_in 4·16·27 + 16 = 1744; mid 13856; up 0 (no scaling) 13856; up 1: conv_in resnet 16 → 8
  //   3464 + 1736 + 32 + 136 = 5368, upsampler conv 8 → 64: 8·64·27 + 64 = 13888, resnet 3472; conv_out 8 → 12:
  //   8·12·27 + 12 = 2604 → 54788.
  const Pipeline p = parse_pipeline(tiny_ltx_pipeline(tiny_ltx(), tiny_ltx_vae()), "/p");
  const Part& v = p.components[2];
  CHECK(v.inventory.params() == 48245 + 54788);
  CHECK(v.config.spatial == 4);   // patch 2 × 2^1
  CHECK(v.config.temporal == 2);  // 2^1
  // The catalog's VAE: 32× spatial, 8× temporal, 180,404,353 + 238,789,296 parameters.
  const Part& vae = part("Lightricks/LTX-Video", "vae");
  CHECK(vae.inventory.params() == 419'193'649);
  CHECK(vae.config.spatial == 32);
  CHECK(vae.config.temporal == 8);
}

TEST_CASE("LTX-Video latent geometry and refused sizes", "[generation][ltx][geometry]") {
  // 704 × 512 × 161: (161 - 1) / 8 + 1 = 21 latent frames of 16 × 22 latents, patch 1: 7392 tokens.
  const Pipeline& p = test::pipeline("Lightricks/LTX-Video");
  const LatentGeometry g = latent_geometry(p, GenerationSettings{}, 704, 512, 161);
  CHECK(g.latent_frames == 21);
  CHECK(g.latent_height == 16);
  CHECK(g.latent_width == 22);
  CHECK(g.latent_channels == 128);
  CHECK(g.tokens == 7392);
  std::string msg;
  CHECK(error_path(ltx({{"frames", 160}}), &msg) == "/generation/frames");
  CHECK(msg.find("8k+1") != std::string::npos);
  CHECK(msg.find("153, 161") != std::string::npos);
  CHECK(error_path(ltx({{"width", 700}}), &msg) == "/generation/width");
  CHECK(msg.find("672, 704") != std::string::npos);
}

TEST_CASE("LTX-Video denoiser working set: RoPE on the keys and the fp32 tables", "[generation][ltx][activations]") {
  DenoiseShape s;
  s.tokens = s.full_tokens = 7392;
  s.cross_tokens = 128;
  s.batch = 2;  // CFG batched
  s.elem = 2;
  // 2 × 7392 = 14784 tokens, dim 2048, ffn 8192: RoPE on keys 14784 · 2048 · (6·2 + 12) = 726,663,168;
  //   attention output 14784 · 2048 · 7 · 2 = 423,886,848; feed-forward 14784 · (2·2048 + 2·8192) · 2 =
  //   605,552,640 → RoPE peaks; cos and sin 14784 · 2048 · 2 · 4 = 242,221,056 → 968,884,224.
  CHECK(ltx_working_set(part("Lightricks/LTX-Video", "transformer"), s).bytes == Bytes::of(968'884'224));
}

TEST_CASE("LTX-Video VAE decode: every frame at once, the top level's RMSNorm", "[generation][ltx][vae]") {
  DecodeShape s;
  s.latent = latent_geometry(test::pipeline("Lightricks/LTX-Video"), GenerationSettings{}, 704, 512, 161);
  s.width = 704;
  s.height = 512;
  s.frames = 161;
  s.elem = 2;
  // Up blocks: 512 (21 frames, 16 × 22) → 512 at 41 frames, 32 × 44 → 256 at 81, 64 × 88 → 128 at 161, 128 × 176.
  // Top resnet's second RMSNorm: input and conv1 output in bf16, fp32 copy and square:
  //   128 · 161 · (2 + 2 + 8) · 22528 = 5,571,084,288 (its convs: (2·20608 + 128·163 + 20608) · 2 · 22528 = 3,725,590,528).
  const Part& vae = part("Lightricks/LTX-Video", "vae");
  CHECK(ltx_decode_peak(vae, s).bytes == Bytes::of(5'571'084'288));
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(5'571'084'288));
  // The allocator keeps what the stages before the peak left: the largest is the last upsampler
  //   (128 → 1024 channels at 81 frames, 64 × 88): (128 · 81 + 2 · 1024 · 81) · 2 · 5632 = 1,985,347,584.
  //   conv_out and the unpatchify after the peak (2,564,947,968) take the peak's freed blocks.
  CHECK(vae_decode_cache(vae, s).bytes == Bytes::of(1'985'347'584));
  const DecodeTerms both = vae_decode(vae, s);
  CHECK(both.peak.bytes == Bytes::of(5'571'084'288));
  CHECK(both.cache.bytes == Bytes::of(1'985'347'584));
  // Tiled: 16 × 16 latent tiles (512 px, every 448 px = 14 latents): the top level over 64 × 64 px of a
  //   tile's 128 × 128: 12 · 128 · 161 · 16384 = 4,051,697,664; tiles: rows 16 + 2 = 18 latents, columns
  //   16 + 8 = 24: 3 · 161 · 18 · 24 · 1024 · 2 = 427,327,488; the joined rows and video 2 · 3 · 161 · 360448 · 2 =
  //   696,385,536 → 5,175,410,688.
  s.tiling = true;
  CHECK(vae_decode_peak(vae, s).bytes == Bytes::of(5'175'410'688));
}

TEST_CASE("LTX-Video estimates end to end", "[generation][ltx]") {
  // Model offload: the T5 encoder's phase peaks: 4,762,310,656 · 2 + its forward over 128 tokens,
  //   128 · 2 · (4 · 4096 + 3 · 10240) = 12,058,624 + eager scores 64 · 128² · 8 = 8,388,608 → 9,545,068,544.
  const Report r = test::run(ltx({{"offload", "model"}}));
  CHECK(test::metric(r, "peak_allocated_bytes") == 9'545'068'544.0);
  // Prompt embeddings computed elsewhere: the decode peaks with the VAE alone (bf16):
  //   419,193,649 · 2 + 5,571,084,288 = 6,409,471,586.
  const Report cpu = test::run(ltx({{"offload", "model"}, {"text_encoder", "cpu"}}));
  CHECK(test::metric(cpu, "peak_allocated_bytes") == 6'409'471'586.0);
}

TEST_CASE("LTX-Video components refuse configs they do not model", "[generation][ltx][hostile]") {
  json s = {{"workload", "video"}, {"model", tiny_ltx_pipeline(tiny_ltx(), tiny_ltx_vae())},
            {"hardware", {{"gpu", "H100-SXM-80GB"}}}};
  CHECK(error_path(s) == "(no error)");
  s["model"]["components"][1]["hf_config"]["qk_norm"] = "rms_norm";
  CHECK(error_path(s) == "/model/components/1/hf_config/qk_norm");
  s["model"]["components"][1]["hf_config"] = tiny_ltx();
  s["model"]["components"][2]["hf_config"]["timestep_conditioning"] = true;
  CHECK(error_path(s) == "/model/components/2/hf_config/timestep_conditioning");
  s["model"]["components"][2]["hf_config"] = tiny_ltx_vae();
  s["model"]["components"][2]["hf_config"]["layers_per_block"] = {1, 1};
  CHECK(error_path(s) == "/model/components/2/hf_config/layers_per_block");
  s["model"]["components"][2]["hf_config"] = tiny_ltx_vae();
  s["model"]["components"][2]["hf_config"]["spatio_temporal_scaling"] = {true};
  CHECK(error_path(s) == "/model/components/2/hf_config/spatio_temporal_scaling");
  s["model"]["components"][2].erase("hf_config");
  CHECK(error_path(s) == "/model/components/2/hf_config");
}
