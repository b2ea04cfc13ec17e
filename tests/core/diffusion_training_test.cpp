#include "vram/budget/diffusion_training.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/estimate.hpp"
#include "vram/plan.hpp"

using namespace vram;
using generation::ComponentKind;
using generation::TrainedModules;
using generation::TrainShape;
using generation::adaptable_modules;
using generation::denoiser_saved_activations;
using generation::lora_adapters;
using nlohmann::json;

namespace {

json flux_lora() {
  return {{"workload", "training"},
          {"model", "black-forest-labs/FLUX.1-dev"},
          {"weights", "nf4"},
          {"hardware", {{"gpu", "RTX-4090"}}},
          {"training",
           {{"framework", "diffusers"}, {"method", "qlora"}, {"lora_rank", 4},
            {"lora_targets", {"to_k", "to_q", "to_v", "to_out.0"}}, {"optimizer", "adamw-8bit"},
            {"checkpointing", "full"}}},
          {"generation", {{"width", 512}, {"height", 768}, {"text_encoder", "cpu"}, {"vae", "cpu"}}}};
}

json sd_dreambooth(const char* method) {
  return {{"workload", "training"},
          {"model", "CompVis/stable-diffusion-v1-4"},
          {"hardware", {{"gpu", "A100-80GB"}}},
          {"training",
           {{"framework", "diffusers"}, {"method", method}, {"precision", "fp32"}, {"micro_batch", 2},
            {"train_text_encoder", true}}},
          {"generation", {{"width", 512}, {"height", 512}}}};
}

/// A one-level UNet small enough to walk by hand: 4 channels, one resnet per
/// block, no attention but the mid block's (one head), on a 2 × 2 latent.
generation::Component tiny_unet() {
  generation::Component c;
  c.name = "unet";
  c.kind = ComponentKind::unet;
  c.config.block_channels = {4};
  c.config.attention_layers = {0};
  c.config.layers_per_block = 1;
  c.config.heads = 1;
  c.config.cross_dim = 4;
  return c;
}

/// A one-block Wan DiT to walk by hand: hidden 4, FFN 8, head_dim 2, patch 1 × 2 × 2, 4 output channels.
generation::Component tiny_wan() {
  generation::Component c;
  c.name = "transformer";
  c.kind = ComponentKind::wan_dit;
  c.config.hidden = 4;
  c.config.ffn = 8;
  c.config.layers = 1;
  c.config.heads = 2;
  c.config.head_dim = 2;
  c.config.out_channels = 4;
  c.config.patch = {1, 2, 2};
  return c;
}

json wan_lora(const char* model) {
  return {{"workload", "training"},
          {"model", model},
          {"weights", "bf16"},
          {"hardware", {{"gpu", "H100-SXM-80GB"}}},
          {"training",
           {{"framework", "diffusers"}, {"method", "lora"}, {"lora_rank", 32}, {"precision", "bf16-mixed"},
            {"checkpointing", "full"}}},
          {"generation", {{"width", 832}, {"height", 480}, {"frames", 81}, {"text_encoder", "cpu"}, {"vae", "cpu"}}}};
}

TrainShape tiny_shape() {
  TrainShape s;
  s.latent.latent_height = 2;
  s.latent.latent_width = 2;
  s.batch = 1;
  s.elem = 4;
  return s;
}

const Term* part_named(const Term& t, std::string_view what) {
  for (const auto& p : t.parts)
    if (p.what == what) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("LoRA targets match a module's name or a dotted suffix of it, as PEFT does", "[diffusion-training]") {
  const TrainedModules m{false, {"to_q", "ff.net.2"}};
  CHECK(m.trains("attn1.to_q"));
  CHECK(m.trains("attn2.to_q"));
  CHECK(m.trains("to_q"));
  CHECK_FALSE(m.trains("attn1.add_to_q"));  // a suffix must start at a dot
  CHECK(m.trains("ff.net.2"));
  CHECK_FALSE(m.trains("ff_context.net.2"));
  CHECK(TrainedModules{true, {}}.trains("anything"));
}

TEST_CASE("LoRA rank 4 on the SD 1.x UNet's attention has 797,184 parameters", "[diffusion-training]") {
  // Per transformer block: 6 square C → C projections and 2 from the 768-wide text: r × (in + out) each.
  // Levels 320, 640, 1280 have 5 blocks each (2 down, 3 up), the mid block one at 1280:
  // 4 × (6 × 640 + 2 × 1088) × 5 + 4 × (6 × 1280 + 2 × 1408) × 5 + 4 × (6 × 2560 + 2 × 2048) × 6
  // = 120,320 + 209,920 + 466,944 = 797,184 (3.19 MB in fp32).
  const generation::Component& unet = test::part("CompVis/stable-diffusion-v1-4", "unet");
  const TrainedModules t{false, {"to_q", "to_k", "to_v", "to_out.0"}};
  CHECK(lora_adapters(adaptable_modules(unet), t, 4).params() == 797'184);
}

TEST_CASE("LoRA on FLUX.1's attention projections counts double and single blocks", "[diffusion-training]") {
  // 19 double blocks × 4 (to_q, to_k, to_v, to_out.0) + 38 single blocks × 3 (no to_out) = 190 modules of
  // 3,072 → 3,072: 190 × 4 × (3,072 + 3,072) = 4,669,440.
  const generation::Component& flux = test::part("black-forest-labs/FLUX.1-dev", "transformer");
  const TrainedModules t{false, {"to_q", "to_k", "to_v", "to_out.0"}};
  CHECK(lora_adapters(adaptable_modules(flux), t, 4).params() == 4'669'440);
}

TEST_CASE("a hand-walked UNet: what every op keeps and what the trained layers add", "[diffusion-training]") {
  const generation::Component u = tiny_unet();
  // px = 4, C = 4. conv_in 16; down resnet (4 → 4): px × (in + 3 out) = 64, conv inputs 32 when trained.
  // Mid: resnet 64 (+32), Transformer2DModel wrapper 2 × C × px = 32 (+ proj_in, proj_out 32), one block
  // 21 × C × px = 336 (+ n1, to_out, attn2 q, attn2 out, ff in 16 each and ff.net.2's 4 × 16 = 144), resnet 64 (+32).
  // Up: two resnets of the 8-channel concatenation: cat 32 + px × (8 + 12) = 80 each (+ px × 8 + px × 4 = 48).
  // conv_norm_out 16. Kept: 816 elements; trained layers' inputs: 368.
  const Term full = denoiser_saved_activations(u, tiny_shape(), TrainedModules{true, {}});
  REQUIRE(full.parts.size() == 2);
  CHECK(full.parts[0].bytes == Bytes::of(816 * 4));
  CHECK(full.parts[1].bytes == Bytes::of(368 * 4));
  // LoRA on to_q/k/v/out.0: only their inputs: n1 (16), attn1's and attn2's merged outputs (16 + 16) and attn2's query (16).
  const Term lora = denoiser_saved_activations(u, tiny_shape(), TrainedModules{false, {"to_q", "to_k", "to_v", "to_out.0"}});
  REQUIRE(lora.parts.size() == 2);
  CHECK(lora.parts[0].bytes == Bytes::of(816 * 4));
  CHECK(lora.parts[1].bytes == Bytes::of(64 * 4));
}

TEST_CASE("naive attention keeps the softmax probabilities for backward", "[diffusion-training]") {
  TrainShape s = tiny_shape();
  const Term efficient = denoiser_saved_activations(tiny_unet(), s, TrainedModules{true, {}});
  s.attention = GenAttention::naive;
  const Term naive = denoiser_saved_activations(tiny_unet(), s, TrainedModules{true, {}});
  // The one block: 19 × C × px + heads × px × px = 304 + 16 = 320 instead of 336.
  CHECK(naive.parts[0].bytes == efficient.parts[0].bytes - Bytes::of(16 * 4));
}

TEST_CASE("checkpointed FLUX keeps each block's input over the joint sequence", "[diffusion-training]") {
  const Report r = test::run(flux_lora());
  // 512 × 768 px: 32 × 48 latent patches = 1,536 image tokens + 512 T5 tokens = 2,048; embedders and final
  // norm 2 × 2,048 × 3,072 = 12,582,912, 57 block inputs of 2,048 × 3,072 = 358,612,992: 371,195,904 elements
  // of 2 B.
  const vram::Component* acts = r.find_component("activations");
  REQUIRE(acts != nullptr);
  CHECK(acts->bytes == Bytes::of(742'391'808));
  std::string engine;
  for (const auto& [k, v] : r.details)
    if (k == "engine") engine = v;
  const json d = json::parse(engine);
  CHECK(d["trainable_params"] == 4'669'440);
  CHECK(d["tokens"] == 1'536);
  // The nf4 transformer, the fp32 adapters, nothing of the VAE or text encoders (precomputed, on the CPU).
  const vram::Component* w = r.find_component("weights");
  REQUIRE(w != nullptr);
  CHECK(w->formula.find("VAE") == std::string::npos);
  CHECK(w->formula.find("4,669,440 adapter params × 4 B") != std::string::npos);
  CHECK(r.find_metric("peak_device_bytes")->value > r.find_metric("peak_allocated_bytes")->value);
}

TEST_CASE("DreamBooth full fine-tuning trains UNet and text encoder in fp32 with Adam", "[diffusion-training]") {
  const Report full = test::run(sd_dreambooth("full"));
  // UNet 859,520,964 + CLIP text 123,060,480 = 982,581,444 trainable: 4 B gradients, 2 × 4 B AdamW moments.
  CHECK(full.find_component("gradients")->bytes == Bytes::of(982'581'444LL * 4));
  CHECK(full.find_component("optimizer_state")->bytes == Bytes::of(982'581'444LL * 8));
  const Report lora = test::run(sd_dreambooth("lora"));
  // Full fine-tuning keeps the trained convolutions' and projections' inputs too.
  CHECK(full.find_component("activations")->bytes > lora.find_component("activations")->bytes);
  CHECK(lora.find_component("gradients")->bytes < Bytes::of(100'000'000));
}

TEST_CASE("the scripts' foreach AdamW step adds what its temporaries need beyond the backward peak",
          "[diffusion-training][optimizer_state]") {
  // Without checkpointing the backward peak is higher: the step adds nothing.
  const Report eager = test::run(sd_dreambooth("full"));
  CHECK(eager.find_component("optimizer_step")->bytes == Bytes{});
  // Checkpointed, one sample: sqrt(exp_avg_sq) of 982,581,444 fp32 parameters, 3,930,325,776 B, exceeds the saved
  // activations and the backward working set, which the step's temporaries reuse once freed.
  json j = sd_dreambooth("full");
  j["training"]["checkpointing"] = "full";
  j["training"]["micro_batch"] = 1;
  const Report ckpt = test::run(j);
  const Bytes backward = ckpt.find_component("activations")->bytes + ckpt.find_component("workspace")->bytes;
  REQUIRE(backward < Bytes::of(3'930'325'776LL));
  CHECK(ckpt.find_component("optimizer_step")->bytes + backward == Bytes::of(3'930'325'776LL));
  Bytes sum;
  for (const auto& c : ckpt.components)
    if (c.id != "allocator_cache" && c.id != "cuda_context") sum += c.bytes;
  CHECK(ckpt.find_metric("peak_allocated_bytes")->value == static_cast<double>(sum.in_bytes()));
  // bitsandbytes' 8-bit AdamW updates in its own kernels: no such step.
  j["training"]["optimizer"] = "adamw-8bit";
  CHECK(test::run(j).find_component("optimizer_step") == nullptr);
}

TEST_CASE("diffusion training refuses what the scripts cannot do, naming the field", "[diffusion-training][errors]") {
  json j = flux_lora();
  j["weights"] = "bf16";
  CHECK(test::error_path(j) == "/weights");  // QLoRA on a 16-bit base
  j = flux_lora();
  j["training"]["lora_targets"] = {"q_proj"};
  std::string msg;
  CHECK(test::error_path(j, &msg) == "/training/lora_targets");
  CHECK(msg.find("attn.to_q") != std::string::npos);  // lists the modules the denoiser has
  j = flux_lora();
  j["training"]["lora_rank"] = 5000;
  CHECK(test::error_path(j) == "/training/lora_rank");
  j = flux_lora();
  j["training"]["method"] = "freeze";
  CHECK(test::error_path(j) == "/training/method");
  j = flux_lora();
  j["training"]["sharding"] = "zero3";
  CHECK(test::error_path(j) == "/training/sharding");
  j = flux_lora();
  j["training"]["checkpointing"] = "selective";
  CHECK(test::error_path(j) == "/training/checkpointing");
  j = sd_dreambooth("lora");
  j["generation"]["text_encoder"] = "cpu";
  CHECK(test::error_path(j) == "/training/train_text_encoder");
  j = flux_lora();
  j["model"] = "THUDM/CogVideoX-2b";
  j["weights"] = "nf4";
  j["generation"] = json::object();
  CHECK(test::error_path(j, &msg) == "/model");
  CHECK(msg.find("cogvideox") != std::string::npos);
  j = flux_lora();
  j["training"]["framework"] = "torchtune";
  CHECK(test::error_path(j) == "/training/framework");  // a pipeline under a language-model framework
  j = flux_lora();
  j["model"] = "meta-llama/Llama-3.1-8B";
  CHECK(test::error_path(j) == "/model");  // framework diffusers names a pipeline
  j = flux_lora();
  j["generation"]["width"] = 500;
  CHECK(test::error_path(j) == "/generation/width");  // not a multiple of VAE × patch
}

TEST_CASE("a target no module has is a warning while another matches", "[diffusion-training]") {
  json j = sd_dreambooth("lora");
  j["training"]["lora_targets"] = {"to_q", "to_v", "query", "value"};
  const Report r = test::run(j);
  int warned = 0;
  for (const auto& w : r.warnings) warned += w.find("\"query\" matches no module") != std::string::npos;
  CHECK(warned == 1);
}

TEST_CASE("settings a diffusion fine-tune does not read are warnings naming what it reads instead",
          "[diffusion-training]") {
  json j = sd_dreambooth("full");
  j["training"]["attention"] = "eager";
  j["training"]["seq_len"] = 77;
  j["generation"]["steps"] = 30;
  const Report r = test::run(j);
  const auto has = [&](std::string_view text) {
    return std::any_of(r.warnings.begin(), r.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
  };
  CHECK(has("/training/attention: not read when fine-tuning a diffusion pipeline; its attention is "
            "/generation/attention"));
  CHECK(has("/training/seq_len: not read"));
  CHECK(has("/generation/steps: not read"));
  // The estimate is the one without them: eager attention asked in the wrong block changes nothing.
  CHECK(test::metric(r, "peak_allocated_bytes") == test::metric(test::run(sd_dreambooth("full")), "peak_allocated_bytes"));
  // What it does read gives no such warning.
  const Report plain = test::run(sd_dreambooth("full"));
  CHECK(std::none_of(plain.warnings.begin(), plain.warnings.end(),
                     [](const std::string& w) { return w.find("not read") != std::string::npos; }));
}

TEST_CASE("the plan of a diffusion fine-tune: the largest micro-batch that fits, and GPUs", "[diffusion-training][plan]") {
  const json p = plan_json(flux_lora().dump(), test::catalog());
  REQUIRE(p["ok"] == true);
  const std::int64_t most = p["max_micro_batch"].get<std::int64_t>();
  REQUIRE(most >= 1);
  json j = flux_lora();
  j["training"]["micro_batch"] = most;
  CHECK(test::run(j).fits);
  j["training"]["micro_batch"] = most + 1;
  CHECK_FALSE(test::run(j).fits);
  REQUIRE(!p["gpu_options"].empty());
  for (const auto& o : p["gpu_options"]) CHECK(o["count"] == 1);  // the scripts replicate: one GPU must hold it
  // The sweep runs over the micro-batch and agrees with the plan; the context grid is a language-model answer.
  const json sw = sweep_json(flux_lora().dump(), test::catalog());
  REQUIRE(sw["ok"] == true);
  CHECK(sw["axis"] == "micro_batch");
  for (std::size_t i = 0; i < sw["contexts"].size(); ++i)
    CHECK(sw["fits"][i].get<bool>() == (sw["contexts"][i].get<std::int64_t>() <= most));
  CHECK(json::parse(grid_json(flux_lora().dump(), test::catalog(), 4, 4))["error"]["path"] == "/workload");
  // What each switch the scripts take buys: a full DreamBooth run is offered checkpointing, 8-bit AdamW and LoRA,
  // each lowering the total; sharding they cannot do and settings they do not read are not offered.
  const json dp = plan_json(sd_dreambooth("full").dump(), test::catalog());
  const double total = static_cast<double>(test::run(sd_dreambooth("full")).total.in_bytes());
  std::vector<std::string> changes;
  for (const auto& h : dp["hints"]) {
    changes.push_back(h["change"].get<std::string>());
    json patched = sd_dreambooth("full");
    patched["training"].update(h["patch"]["training"]);
    CHECK(static_cast<double>(test::run(patched).total.in_bytes()) < total);
  }
  CHECK(changes == std::vector<std::string>{"checkpointing = full", "optimizer = adamw-8bit", "method = lora"});
  // Checkpointed, the foreach step peaks: the fused kernel is offered.
  json ckpt = sd_dreambooth("full");
  ckpt["training"]["checkpointing"] = "full";
  const json cp = plan_json(ckpt.dump(), test::catalog());
  CHECK(std::any_of(cp["hints"].begin(), cp["hints"].end(),
                    [](const json& h) { return h["change"] == "optimizer_implementation = fused"; }));
  // The plan of a scenario the estimate refuses is refused the same way.
  json bad = flux_lora();
  bad["training"]["lora_rank"] = 5000;
  CHECK(plan_json(bad.dump(), test::catalog())["error"]["path"] == "/training/lora_rank");
}

TEST_CASE("a hand-walked Wan block: fp32 norm inputs, RMSNorm upcasts, SDPA tensors, float64 RoPE tables",
          "[diffusion-training][wan]") {
  TrainShape s;
  s.latent.tokens = 3;
  s.cross_tokens = 2;
  s.batch = 1;
  s.elem = 2;  // bf16: an fp32 tensor is 2 elements, a float64 one 4
  // Once: RoPE cos and sin 3 tokens × 2 × head_dim 2 × 4 = 48, the projected text 2 × 4 = 8, norm_out's fp32
  // input 3 × 2 × 4 = 24: 80. The block, per token: 6 fp32 tensors 6 × 2 × 4 = 48, SDPA q, k, v, out and
  // q, out 6 × 4 = 24, GELU input 8: 80 × 3 tokens = 240; the text's fp32 k upcast, k and v 2 × (2 + 2) × 4 = 32.
  // Kept: 80 + 240 + 32 = 352 elements.
  const Term full = denoiser_saved_activations(tiny_wan(), s, TrainedModules{true, {}});
  REQUIRE(full.parts.size() == 2);
  CHECK(full.parts[0].bytes == Bytes::of(352 * 2));
  // Full: inputs of attn1 q/k/v 4, attn2.to_q 4, ffn.net.0.proj 4, ffn.net.2 8; the modulation's fp32 n1, n3
  // and FFN output 3 × 8 + the gated attention output 4; normalised q, k, q 12: 60 × 3 = 180, proj_out 12: 192.
  CHECK(full.parts[1].bytes == Bytes::of(192 * 2));
  // LoRA on to_q/k/v/out.0: attn1's modulated input and attn2's query input, 8 × 3 = 24.
  const Term lora = denoiser_saved_activations(tiny_wan(), s, TrainedModules{false, {"to_q", "to_k", "to_v", "to_out.0"}});
  REQUIRE(lora.parts.size() == 2);
  CHECK(lora.parts[0].bytes == Bytes::of(352 * 2));
  CHECK(lora.parts[1].bytes == Bytes::of(24 * 2));
}

TEST_CASE("Wan 2.1 14B LoRA at 81 × 480 × 832, checkpointed, in the trainers' bf16", "[diffusion-training][wan]") {
  const Report r = test::run(wan_lora("Wan-AI/Wan2.1-T2V-14B"));
  // Latent 21 × 60 × 104, patches 1 × 2 × 2: 21 × 30 × 52 = 32,760 tokens. Kept: 40 block inputs of
  // 32,760 × 5,120 = 6,709,248,000; RoPE tables 32,760 × 1,024 = 33,546,240; the projected text 512 × 5,120 =
  // 2,621,440; norm_out's fp32 input 32,760 × 10,240 = 335,462,400: 7,080,878,080 elements of 2 B.
  CHECK(r.find_component("activations")->bytes == Bytes::of(14'161'756'160LL));
  // One block recomputed: 32,760 × (105,984 kept + 10,240 LoRA inputs) + 512 × 4 × 5,120 = 3,817,984,000
  // elements; beside it the largest op: RoPE's float64 products 32,760 × 30,720 elements.
  CHECK(r.find_component("workspace")->bytes == Bytes::of((3'817'984'000LL + 32'760LL * 30'720) * 2));
  // to_q/k/v/out.0 of attn1 and attn2 in 40 blocks: 320 × 32 × (5,120 + 5,120) = 104,857,600 adapter params.
  const vram::Component* w = r.find_component("weights");
  CHECK(w->formula.find("14,288,491,584 params × 2 B (bf16)") != std::string::npos);  // cast, not the fp32 checkpoint
  CHECK(w->formula.find("104,857,600 adapter params") != std::string::npos);
}

TEST_CASE("Wan 2.2 A14B trains one expert: the other is left out by component_weights", "[diffusion-training][wan]") {
  json j = wan_lora("Wan-AI/Wan2.2-T2V-A14B");
  std::string msg;
  CHECK(test::error_path(j, &msg) == "/generation/component_weights");
  CHECK(msg.find("high_noise_model, low_noise_model") != std::string::npos);
  j["generation"]["component_weights"] = {{"low_noise_model", "none"}};
  const Report high = test::run(j);
  const Report t2v = test::run(wan_lora("Wan-AI/Wan2.1-T2V-14B"));
  // Each A14B expert has Wan 2.1 14B's shape: the same step, one denoiser's weights.
  CHECK(high.find_component("weights")->bytes == t2v.find_component("weights")->bytes);
  CHECK(high.total == t2v.total);
}

TEST_CASE("Wan I2V keeps the image attention; TI2V's per-token modulation; the VAE encode is said uncounted",
          "[diffusion-training][wan]") {
  const Report t2v = test::run(wan_lora("Wan-AI/Wan2.1-T2V-14B"));
  json j = wan_lora("Wan-AI/Wan2.1-I2V-14B-720P");
  const Report i2v = test::run(j);
  // Checkpointed, the saved set differs by the 257 image tokens of context (once): 257 × 5,120 × 2 B.
  CHECK(i2v.find_component("activations")->bytes - t2v.find_component("activations")->bytes ==
        Bytes::of(257LL * 5'120 * 2));
  CHECK(i2v.find_component("workspace")->bytes > t2v.find_component("workspace")->bytes);
  j = wan_lora("Wan-AI/Wan2.2-TI2V-5B");
  j["generation"] = {{"width", 1280}, {"height", 704}, {"frames", 121}, {"vae", "gpu"}, {"text_encoder", "cpu"}};
  const Report ti2v = test::run(j);
  int warned = 0;
  for (const auto& w : ti2v.warnings) warned += w.find("encode's own working set") != std::string::npos;
  CHECK(warned == 1);
  CHECK(ti2v.find_component("workspace")->bytes > ti2v.find_component("activations")->bytes);
}
