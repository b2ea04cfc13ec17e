// The training estimate on catalog models, its solver, and bad input.
#include <algorithm>

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/budget/saved_activations.hpp"
#include "vram/budget/training_runtime.hpp"
#include "vram/error.hpp"
#include "vram/plan.hpp"
#include "vram/plan/solve.hpp"
#include "vram/plan/training_switches.hpp"

using namespace vram;
using nlohmann::json;

namespace {

json llama8b(json training, json hardware = {{"gpu", "H100-SXM-80GB"}}) {
  return {
      {"workload", "training"}, {"model", "meta-llama/Llama-3.1-8B"}, {"hardware", hardware}, {"training", training}};
}

Bytes component(const Report& r, std::string_view id) {
  const vram::Component* c = r.find_component(id);
  return c ? c->bytes : Bytes::of(-1);
}

using test::Failure;
using test::failure;

}  // namespace

TEST_CASE("full fine-tuning in pure bf16: 2 + 2 + 4 bytes per parameter of model states", "[training][engine]") {
  // Accumulating over two micro-batches keeps every gradient through the step.
  const Report r = test::run(
      llama8b({{"framework", "torchtune"}, {"precision", "bf16"}, {"optimizer", "adamw"}, {"grad_accum", 2}}));
  const std::int64_t params = 8'030'261'248;  // Llama-3.1-8B, untied embeddings
  CHECK(component(r, "weights") == Bytes::of(params * 2));
  CHECK(component(r, "gradients") == Bytes::of(params * 2));
  CHECK(component(r, "optimizer_state") == Bytes::of(params * 4));  // two bf16 moments (zeros_like)
  CHECK(component(r, "master_weights") == Bytes{});
  const double allocated = test::metric(r, "peak_allocated_bytes");
  const double reserved = test::metric(r, "peak_reserved_bytes");
  CHECK(reserved > allocated);
  CHECK(test::metric(r, "peak_device_bytes") == static_cast<double>(r.total.in_bytes()));
  CHECK(test::metric(r, "weights_bytes") == static_cast<double>(params * 2));
  for (const auto& c : r.components) CHECK_FALSE(c.formula.empty());
}

TEST_CASE("mixed precision adds fp32 master weights and moments (ZeRO's 16 bytes per parameter)",
          "[training][engine]") {
  const Report r = test::run(llama8b({{"framework", "deepspeed"}, {"precision", "bf16-mixed"}, {"grad_accum", 2}}));
  const std::int64_t params = 8'030'261'248;
  CHECK(component(r, "weights") + component(r, "gradients") + component(r, "master_weights") +
            component(r, "optimizer_state") ==
        Bytes::of(params * 16));
}

TEST_CASE("LoRA counts A and B on the target modules only", "[training][engine]") {
  const Report r = test::run(llama8b({{"framework", "torchtune"},
                                      {"method", "lora"},
                                      {"lora_rank", 8},
                                      {"lora_targets", {"q_proj", "v_proj"}},
                                      {"precision", "bf16"},
                                      {"grad_accum", 2}}));
  // Per layer: q 8 × (4096 + 4096), v 8 × (4096 + 1024); 32 layers.
  const std::int64_t adapters = (8 * 8192 + 8 * 5120) * 32;
  CHECK(component(r, "gradients") == Bytes::of(adapters * 2));
  CHECK(component(r, "optimizer_state") == Bytes::of(adapters * 4));
  CHECK(test::metric(r, "weights_bytes") == static_cast<double>(8'030'261'248LL * 2 + adapters * 2));
  // An fp32 run loads the base in fp32 (adapters at the default rank 16).
  const Report fp32 = test::run(llama8b({{"method", "lora"}, {"precision", "fp32"}, {"lora_targets", {"q_proj"}}}));
  CHECK(test::metric(fp32, "weights_bytes") == static_cast<double>(8'030'261'248LL * 4 + 16 * 8192 * 32 * 4));
  // torchtune's module names select the same tensors.
  const Report tt = test::run(llama8b({{"framework", "torchtune"},
                                       {"method", "lora"},
                                       {"lora_rank", 8},
                                       {"lora_targets", {"output_proj", "w1"}},
                                       {"precision", "bf16"},
                                       {"grad_accum", 2}}));
  CHECK(component(tt, "gradients") == Bytes::of((8 * 8192 + 8 * (4096 + 14336)) * 32 * 2));
}

TEST_CASE("QLoRA stores the base in NF4 with double-quantized absmax", "[training][engine]") {
  const Report r = test::run(llama8b({{"framework", "torchtune"}, {"method", "qlora"}, {"precision", "bf16"}}));
  const Report lora = test::run(llama8b({{"framework", "torchtune"}, {"method", "lora"}, {"precision", "bf16"}}));
  CHECK(test::metric(r, "weights_bytes") < 0.4 * test::metric(lora, "weights_bytes"));
  CHECK(component(r, "gradients") == component(lora, "gradients"));  // the same adapters
  CHECK(component(r, "workspace") > Bytes{});                        // one dequantized base weight
}

TEST_CASE("sharding divides the states it shards; DDP adds its buckets", "[training][engine]") {
  const json base{{"framework", "deepspeed"}, {"precision", "bf16-mixed"}, {"grad_accum", 2}};
  const json eight{{"gpu", "H100-SXM-80GB"}, {"count", 8}};
  auto with = [&](const char* sharding) {
    json t = base;
    t["sharding"] = sharding;
    return test::run(llama8b(t, eight));
  };
  const Report ddp = with("ddp"), z1 = with("zero1"), z2 = with("zero2"), z3 = with("zero3");
  CHECK(component(z1, "optimizer_state") * 8 >= component(ddp, "optimizer_state"));
  CHECK(component(z1, "optimizer_state") * 7 < component(ddp, "optimizer_state"));
  CHECK(component(ddp, "gradients") == component(z1, "gradients") * 2);  // buckets: a second copy
  CHECK(component(z2, "gradients") * 7 < component(z1, "gradients"));
  CHECK(component(z2, "weights") == component(z1, "weights"));
  CHECK(component(z3, "weights") * 7 < component(z2, "weights"));
  CHECK(component(z3, "workspace") > Bytes{});  // the gathered layer
  CHECK(test::metric(z3, "peak_allocated_bytes") < test::metric(z1, "peak_allocated_bytes"));
}

TEST_CASE("gradients freed after each step share the backward peak with the activations", "[training][engine]") {
  const json t{{"framework", "torchtune"}, {"precision", "bf16"}, {"seq_len", 512}};
  json accumulating = t;
  accumulating["grad_accum"] = 2;
  const Report once = test::run(llama8b(t)), twice = test::run(llama8b(accumulating));
  CHECK(component(once, "gradients") == Bytes{});
  const Bytes grads = component(twice, "gradients");
  const Bytes acts = component(twice, "activations");
  const Bytes peak = component(once, "activations");
  // The larger of: every activation (plus the output layer's gradient), or every gradient.
  CHECK(peak >= grads);
  CHECK(peak >= acts);
  CHECK(peak < grads + acts);
  const vram::Component* c = once.find_component("activations");
  REQUIRE(c->range);
  CHECK(c->range->low <= c->bytes);
  CHECK(c->bytes <= c->range->high);
}

TEST_CASE("what each switch buys", "[training][engine]") {
  auto peak = [](json t) { return test::metric(test::run(llama8b(t)), "peak_allocated_bytes"); };
  const json none{{"framework", "torchtune"}, {"method", "lora"}, {"seq_len", 4096}, {"micro_batch", 2}};
  json full = none;
  full["checkpointing"] = "full";
  json offload = full;
  offload["activation_offload"] = true;
  json chunked = full;
  chunked["chunked_loss"] = true;
  json eager = none;
  eager["attention"] = "eager";
  CHECK(peak(full) < peak(none));
  CHECK(peak(offload) < peak(full));
  CHECK(peak(chunked) < peak(full));
  CHECK(peak(eager) > peak(none));
  // Optimizer-in-backward frees the gradients: it helps where they, not the activations, set the peak.
  json opt_bwd{{"framework", "torchtune"}, {"precision", "bf16"}, {"seq_len", 128}, {"optimizer_in_backward", true}};
  json plain{{"framework", "torchtune"}, {"precision", "bf16"}, {"seq_len", 128}};
  CHECK(peak(opt_bwd) < peak(plain) - 10e9);
}

TEST_CASE("paged optimizer states sit outside the PyTorch allocator", "[training][engine]") {
  const Report r =
      test::run(llama8b({{"framework", "torchtune"}, {"precision", "bf16"}, {"optimizer", "paged-adamw-8bit"}}));
  const double outside = test::metric(r, "peak_device_bytes") - test::metric(r, "peak_reserved_bytes") -
                         static_cast<double>(component(r, "cuda_context").in_bytes());
  CHECK(outside == static_cast<double>(component(r, "optimizer_state").in_bytes()));
}

TEST_CASE("max_context_tokens is the seq_len at the card's capacity", "[training][engine][solve]") {
  const json j = llama8b({{"framework", "unsloth"}, {"method", "qlora"}, {"lora_rank", 32}, {"checkpointing", "full"}},
                         {{"gpu", "RTX-4090"}});
  const Report r = test::run(j);
  const auto longest = static_cast<std::int64_t>(test::metric(r, "max_context_tokens"));
  REQUIRE(longest > 1000);
  Scenario at = test::scenario(j);
  at.headroom = 0;
  apply_setting(at, Setting::seq_len, longest);
  CHECK(estimate(at).fits);
  apply_setting(at, Setting::seq_len, longest + 1);
  CHECK_FALSE(estimate(at).fits);
  CHECK(setting_path(Setting::seq_len) == "/training/seq_len");
  // Context parallelism: lengths are whole multiples of the ranks sharing a sequence.
  const json cp = llama8b({{"framework", "torchtune"}, {"method", "lora"}, {"context_parallel", 4}},
                          {{"gpu", "H100-SXM-80GB"}, {"count", 4}});
  const Report rc = test::run(cp);
  const auto longest_cp = static_cast<std::int64_t>(test::metric(rc, "max_context_tokens"));
  CHECK(longest_cp > 4096);
  CHECK(longest_cp % 4 == 0);
  Scenario past = test::scenario(cp);
  past.headroom = 0;
  apply_setting(past, Setting::seq_len, longest_cp + 4);
  CHECK_FALSE(estimate(past).fits);
  apply_setting(past, Setting::seq_len, longest_cp + 3);  // rounds down to the answer
  CHECK(past.training()->training.seq_len == longest_cp);
  // More memory, longer sequences.
  const Report big = test::run(llama8b(j["training"], {{"gpu", "H100-SXM-80GB"}}));
  CHECK(test::metric(big, "max_context_tokens") > 3 * test::metric(r, "max_context_tokens"));
}

TEST_CASE("bad training input is refused at its field", "[training][errors]") {
  CHECK(failure(llama8b({{"method", "lora"}, {"lora_rank", 0}})).path == "/training/lora_rank");
  CHECK(failure(llama8b({{"method", "lora"}, {"lora_rank", 5000}, {"lora_targets", {"q_proj"}}})).path ==
        "/training/lora_rank");
  const Failure target = failure(llama8b({{"method", "lora"}, {"lora_targets", {"q_proj", "wq"}}}));
  CHECK(target.path == "/training/lora_targets/1");
  CHECK(target.message.find("q_proj") != std::string::npos);  // the valid names are listed
  CHECK(failure(llama8b({{"micro_batch", 0}})).path == "/training/micro_batch");
  CHECK(failure(llama8b({{"seq_len", 200'000'000}})).path == "/training/seq_len");
  // Eager attention's scores over 10^8 tokens leave any real system: the sequence is named.
  CHECK(failure(llama8b({{"seq_len", 100'000'000}, {"attention", "eager"}})).path == "/training/seq_len");
  CHECK(failure(llama8b({{"optimizer_in_backward", true}, {"grad_accum", 4}})).path ==
        "/training/optimizer_in_backward");
  json gptq = llama8b({{"method", "qlora"}});
  gptq["weights"] = "gptq-int4";
  CHECK(failure(gptq).path == "/weights");
  json quantized_full = llama8b({{"method", "full"}});
  quantized_full["weights"] = "nf4";
  CHECK(failure(quantized_full).path == "/weights");
  const Failure tp = failure(llama8b({{"tensor_parallel", 3}}, {{"gpu", "H100-SXM-80GB"}, {"count", 3}}));
  CHECK(tp.path == "/training/tensor_parallel");
  CHECK(tp.message.find("Valid sizes: 1, 2, 4, 8, 16, 32") != std::string::npos);
  CHECK(failure(llama8b({{"context_parallel", 2}, {"seq_len", 1001}}, {{"gpu", "H100-SXM-80GB"}, {"count", 2}})).path ==
        "/training/context_parallel");
  CHECK(failure(llama8b({{"method", "freeze"}, {"trainable_layers", 0}})).path == "/training/trainable_layers");
}

TEST_CASE("Muon: where the framework ships it, its states and its optimizer step", "[training][engine][muon]") {
  const json eight{{"gpu", "H100-SXM-80GB"}, {"count", 8}};
  const json ds{{"framework", "deepspeed"}, {"sharding", "zero2"}, {"optimizer", "muon"}, {"seq_len", 2048}};
  const Report r = test::run(llama8b(ds, eight));
  // 6,979,321,856 hidden-matrix params × 1 × 2 B (ZeRO-2 momentum in the model's dtype) + 1,050,939,392 others
  // (embeddings, output layer, norms) × 2 × 4 B, over 8 GPUs.
  CHECK(component(r, "optimizer_state") == Bytes::of((6'979'321'856LL * 2 + 1'050'939'392LL * 8) / 8));
  json z3 = ds;
  z3["sharding"] = "zero3";  // ZeRO-3: an fp32 momentum partition
  CHECK(component(test::run(llama8b(z3, eight)), "optimizer_state") ==
        Bytes::of((6'979'321'856LL * 4 + 1'050'939'392LL * 8) / 8));
  json adamw = ds;
  adamw["optimizer"] = "adamw";
  CHECK(component(r, "optimizer_state") * 2 < component(test::run(llama8b(adamw, eight)), "optimizer_state"));
  // The optimizer step's Newton-Schulz is a candidate of the activations' phase: with tiny activations it counts.
  json tiny = ds;
  tiny["seq_len"] = 16;
  const Report small = test::run(llama8b(tiny, eight));
  const Bytes grads = Bytes::of(8'030'261'248LL * 2 / 8);  // every gradient, sharded by ZeRO-2
  CHECK(component(small, "activations") == grads + Bytes::of(369'098'752));  // + the Gram working set
  CHECK(test::metric(small, "activation_bytes") < static_cast<double>(grads.in_bytes()) + 369'098'752.0);  // backward's own
  const json titan{{"framework", "torchtitan"}, {"sharding", "fsdp"}, {"optimizer", "muon"}};
  CHECK(component(test::run(llama8b(titan, eight)), "optimizer_state") ==
        Bytes::of((6'979'321'856LL * 4 + 1'050'939'392LL * 8) / 8));
}

TEST_CASE("AdamW's step: fused by the frameworks' defaults, foreach and for-loop temporaries beside every gradient",
          "[training][engine][optimizer_state]") {
  const json eight{{"gpu", "H100-SXM-80GB"}, {"count", 8}};
  // Sixteen tokens: the backward peak is every gradient (fp32, FSDP over 8: 4,015,130,624 B) beside tiny activations.
  const json fsdp{{"framework", "transformers"}, {"sharding", "fsdp"}, {"seq_len", 16}};
  const Report fused = test::run(llama8b(fsdp, eight));
  const Bytes grads = Bytes::of(8'030'261'248LL * 4 / 8);
  CHECK(component(fused, "activations") < grads + Bytes::of(10'000'000));
  CHECK(std::find_if(fused.defaults_used.begin(), fused.defaults_used.end(), [](const std::string& d) {
          return d.rfind("training.optimizer_implementation = fused", 0) == 0;
        }) != fused.defaults_used.end());
  json foreach = fsdp;
  foreach["optimizer_implementation"] = "foreach";  // sqrt(exp_avg_sq) of every fp32 state shard at once
  CHECK(component(test::run(llama8b(foreach, eight)), "activations") == grads + grads);
  json loop = fsdp;
  loop["optimizer_implementation"] = "for-loop";  // two copies of the largest shard: the embedding's 525,336,576 / 8
  CHECK(component(test::run(llama8b(loop, eight)), "activations") == grads + Bytes::of(2 * 525'336'576LL * 4 / 8));
  // Accumulating micro-batches keeps every gradient in its own component: the step adds its temporaries alone.
  foreach["grad_accum"] = 2;
  CHECK(component(test::run(llama8b(foreach, eight)), "activations") == grads);
  // Offloaded to the host, the step is not on the GPU; another optimizer does not read the setting.
  foreach["grad_accum"] = 1;
  foreach["offload"] = "optimizer";
  CHECK(component(test::run(llama8b(foreach, eight)), "activations") < grads + Bytes::of(10'000'000));
  json sgd = fsdp;
  sgd["optimizer"] = "sgd";
  sgd["optimizer_implementation"] = "foreach";
  const Report r = test::run(llama8b(sgd, eight));
  CHECK(std::find_if(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
          return w.find("optimizer_implementation applies to adamw") != std::string::npos;
        }) != r.warnings.end());
  json bad = fsdp;
  bad["optimizer_implementation"] = "apex";
  CHECK(failure(llama8b(bad, eight)).path == "/training/optimizer_implementation");
}

TEST_CASE("Muon is refused where the framework does not run it", "[training][errors][muon]") {
  const json eight{{"gpu", "H100-SXM-80GB"}, {"count", 8}};
  const Failure unsloth = failure(llama8b({{"framework", "unsloth"}, {"optimizer", "muon"}}));
  CHECK(unsloth.path == "/training/optimizer");
  CHECK(unsloth.message.find("deepspeed") != std::string::npos);  // where it exists is named
  CHECK(failure(llama8b({{"optimizer", "muon"}})).path == "/training/optimizer");  // transformers
  CHECK(failure(llama8b({{"framework", "deepspeed"}, {"sharding", "ddp"}, {"optimizer", "muon"}}, eight)).path ==
        "/training/sharding");
  CHECK(failure(llama8b({{"framework", "torchtitan"}, {"sharding", "none"}, {"optimizer", "muon"}})).path ==
        "/training/sharding");
  CHECK(failure(llama8b({{"framework", "deepspeed"}, {"sharding", "zero2"}, {"optimizer", "muon"},
                         {"offload", "optimizer"}},
                        eight))
            .path == "/training/offload");
  const json bare{{"workload", "training"}, {"model", {{"params", 8000000000LL}}}, {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 8}}},
                  {"training", {{"framework", "deepspeed"}, {"sharding", "zero2"}, {"optimizer", "muon"}}}};
  CHECK(failure(bare).path == "/training/optimizer");
}

TEST_CASE("sharding over one GPU is a warning, not an error", "[training][errors]") {
  const Report r = test::run(llama8b({{"sharding", "zero3"}}));
  bool warned = false;
  for (const auto& w : r.warnings) warned = warned || w.find("shards nothing") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("the training grid: seq_len × micro-batch, each point at its verdict", "[training][plan]") {
  const json scenario = llama8b({{"framework", "torchtune"}, {"method", "lora"}, {"seq_len", 1024}}, {{"gpu", "RTX-4090"}});
  const json g = json::parse(grid_json(scenario.dump(), test::catalog(), 4, 3));
  REQUIRE(g["ok"] == true);
  CHECK(g["axes"] == json::array({"seq_len", "micro_batch"}));
  REQUIRE(g["contexts"].size() == 4);
  REQUIRE(g["concurrencies"] == json::array({1, 2, 3}));
  for (std::size_t j = 0; j < 3; ++j) {
    for (std::size_t i = 0; i < 4; ++i) {
      json at = scenario;
      at["training"]["seq_len"] = g["contexts"][i];
      at["training"]["micro_batch"] = g["concurrencies"][j];
      const Report r = estimate(test::scenario(at), {false, nullptr});
      CHECK(g["totals"][j * 4 + i] == r.total.in_bytes());  // micro-batch-major, as the inference grid
    }
  }
}

TEST_CASE("the training sweep charts the step against seq_len, at the verdict of each point", "[training][plan]") {
  const json scenario = llama8b({{"framework", "torchtune"}, {"method", "lora"}, {"seq_len", 3000}}, {{"gpu", "RTX-4090"}});
  const json sw = sweep_json(scenario.dump(), test::catalog());
  REQUIRE(sw["ok"] == true);
  CHECK(sw["axis"] == "seq_len");
  const auto& lengths = sw["contexts"];
  REQUIRE(lengths.size() >= 4);
  CHECK(lengths[0] == 256);
  CHECK(std::find(lengths.begin(), lengths.end(), 3000) != lengths.end());  // the scenario's own length
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    json at = scenario;
    at["training"]["seq_len"] = lengths[i];
    const Report r = estimate(test::scenario(at), {false, nullptr});
    CHECK(sw["totals"][i] == r.total.in_bytes());
    CHECK(sw["fits"][i] == r.fits);
    if (i > 0) CHECK(sw["totals"][i].get<std::int64_t>() > sw["totals"][i - 1].get<std::int64_t>());
  }
}

TEST_CASE("a bare parameter count trains with model states only", "[training][engine]") {
  const Report r =
      test::run({{"workload", "training"},
                 {"model", {{"params", 13'000'000'000LL}}},
                 {"training", {{"precision", "bf16-mixed"}, {"framework", "deepspeed"}, {"grad_accum", 2}}}});
  // ZeRO's 16 bytes per parameter (2 weights + 2 gradients + 12 optimizer), nothing for activations.
  CHECK(component(r, "weights") + component(r, "gradients") + component(r, "master_weights") +
            component(r, "optimizer_state") ==
        Bytes::of(13'000'000'000LL * 16));
  CHECK(component(r, "activations") == Bytes{});
  CHECK(test::metric(r, "max_context_tokens") == -1);  // no architecture, no sequence length to solve for
}

TEST_CASE("the activation range spans fused kernels to eager ops", "[training][engine]") {
  const Report r = test::run(llama8b({{"framework", "transformers"}, {"method", "lora"}, {"grad_accum", 2}}));
  const vram::Component* a = r.find_component("activations");
  REQUIRE(a != nullptr);
  REQUIRE(a->range);
  CHECK(a->range->low < a->bytes);   // a compiled step keeps fewer tensors and no fp32 logits
  CHECK(a->bytes < a->range->high);  // eager slack above
  // Unsloth's own kernels are the fused ones: its range is narrow below.
  const Report u = test::run(llama8b({{"framework", "unsloth"}, {"method", "lora"}, {"grad_accum", 2}}));
  const vram::Component* ua = u.find_component("activations");
  REQUIRE(ua->range);
  CHECK(ua->bytes.ratio(ua->range->low) < 1.2);
  CHECK(a->bytes.ratio(a->range->low) > 1.5);
}

TEST_CASE("Unsloth: fast cross-entropy on 16-bit logits up to 1,024 tokens, Cut Cross-Entropy above",
          "[training][engine]") {
  auto acts = [](std::int64_t seq) {
    const Report r = test::run(llama8b({{"framework", "unsloth"},
                                        {"method", "qlora"},
                                        {"checkpointing", "full"},
                                        {"seq_len", seq},
                                        {"grad_accum", 2}}));
    return component(r, "activations");
  };
  // Offloaded checkpointing keeps 2 layer inputs (2 × tokens × 4,096 × 2 B). At 1,024 tokens the loss phase,
  // 16-bit logits with their gradient in place (1,024 × 128,256 × 2 B) and the fp32 log-sum-exp (1,024 × 4 B),
  // is larger than the last layer's backward; one token more, the logits are never built and the layer wins:
  // recomputed layer 1,025 × (2 × 4,096 × 4 + 10,240 × 2 + 32 × 4 + 2 × 14,336 × 2) B = 113,488,000 B,
  // its backward 1,025 × 36,864 × 2 B = 75,571,200 B.
  CHECK(acts(1024) == Bytes::of(16'777'216 + 262'672'384));
  CHECK(acts(1025) == Bytes::of(16'793'600 + 113'488'000 + 75'571'200));
  CHECK(acts(2048) > acts(1025));
}

TEST_CASE("the loss's saved logits are released before the layers' backward: the larger phase counts",
          "[training][engine]") {
  const Report r = test::run(llama8b({{"framework", "torchtune"},
                                      {"method", "lora"},
                                      {"precision", "bf16"},
                                      {"checkpointing", "full"},
                                      {"chunked_loss", true},
                                      {"seq_len", 2048}}));
  // Kept: 32 layer inputs × 2,048 × 4,096 × 2 B = 536,870,912 B. At the loss: the 16-bit logits
  // 2,048 × 128,256 × 2 B = 525,336,576 B, the fp32 log-softmax of every chunk 2,048 × 128,256 × 4 B =
  // 1,050,673,152 B and one chunk's two fp32 gradients 256 × 128,256 × 2 × 4 B = 262,668,288 B. The recomputed
  // layer and its backward (0.56 GiB) are lower and are not added.
  CHECK(component(r, "activations") == Bytes::of(std::int64_t{536'870'912} + 525'336'576 + 1'050'673'152 + 262'668'288));
}

TEST_CASE("what each training switch buys, figures only", "[training][engine][plan]") {
  const json j = llama8b({{"framework", "torchtune"}, {"precision", "bf16"}, {"checkpointing", "full"}},
                         {{"gpu", "H100-SXM-80GB"}, {"count", 4}});
  const Scenario s = test::scenario(j);
  const double base = test::metric(estimate(s), "peak_reserved_bytes");
  const auto switches = training_switches(s);
  bool zero3 = false, lora = false, eight_bit = false;
  for (const auto& sw : switches) {
    CHECK(sw.path != "/training/checkpointing");  // already on: not offered
    const double with = static_cast<double>(sw.peak_reserved.in_bytes());
    if (sw.value == "zero3") zero3 = with < 0.6 * base;
    if (sw.value == "lora") lora = with < 0.6 * base;
    if (sw.value == "adamw-8bit") eight_bit = with < base;
  }
  CHECK(zero3);
  CHECK(lora);
  CHECK(eight_bit);
  for (const auto& sw : switches) CHECK(sw.value != "muon");  // torchtune has no Muon: not offered
  // DeepSpeed under ZeRO-2 runs it: offered, with what it saves.
  const Scenario ds = test::scenario(llama8b({{"framework", "deepspeed"}, {"sharding", "zero2"}},
                                             {{"gpu", "H100-SXM-80GB"}, {"count", 8}}));
  const double ds_base = test::metric(estimate(ds), "peak_reserved_bytes");
  bool muon = false;
  for (const auto& sw : training_switches(ds))
    if (sw.value == "muon") muon = static_cast<double>(sw.peak_reserved.in_bytes()) < ds_base;
  CHECK(muon);
}

TEST_CASE("freeze trains the last layers only: their states, and activations from the first of them", "[training][engine]") {
  // Llama-3.1-8B: one decoder layer holds 2 × 4096² (q, o) + 2 × 4096 × 1024 (k, v)
  // + 3 × 4096 × 14336 (gate, up, down) + 2 × 4096 (norms) = 218,112,000 parameters.
  const Report two = test::run(llama8b({{"method", "freeze"}}));  // LLaMA-Factory's default: the last 2 layers
  auto bytes_of = [](const Report& r, std::string_view id) {
    for (const auto& c : r.components)
      if (c.id == id) return c.bytes.in_bytes();
    return std::int64_t{-1};
  };
  CHECK(bytes_of(two, "master_weights") == 2 * 218'112'000LL * 4);
  CHECK(bytes_of(two, "optimizer_state") == 2 * 218'112'000LL * 2 * 4);  // AdamW: two fp32 moments
  CHECK(bytes_of(two, "weights") == 8'030'261'248LL * 2);                // every weight in bf16, as full fine-tuning
  // Every layer trained but the embeddings and the output layer: full fine-tuning's states less those.
  const Report all = test::run(llama8b({{"method", "freeze"}, {"trainable_layers", 32}}));
  const Report full = test::run(llama8b({{"method", "full"}}));
  const std::int64_t embed_and_head = 2LL * 128'256 * 4096 + 4096;  // embed_tokens, lm_head, final norm
  CHECK(bytes_of(full, "master_weights") - bytes_of(all, "master_weights") == embed_and_head * 4);
  // Activations: two layers keep what one keeps, twice; 32 layers as full fine-tuning (without the head's gradient).
  CHECK(bytes_of(two, "activations") < bytes_of(all, "activations"));
  // Bad input: more layers than the model has; a bare count; a quantized checkpoint.
  CHECK_THROWS_WITH(test::run(llama8b({{"method", "freeze"}, {"trainable_layers", 33}})),
                    Catch::Contains("the model has 32 layers"));
  CHECK_THROWS_WITH(test::run({{"workload", "training"}, {"model", {{"params", 7'000'000'000LL}}},
                               {"training", {{"method", "freeze"}}}}),
                    Catch::Contains("bare parameter count has none"));
  json quantized = llama8b({{"method", "freeze"}});
  quantized["weights"] = "awq-int4";
  CHECK_THROWS_WITH(test::run(quantized), Catch::Contains("freeze fine-tuning updates the last layers"));
}

TEST_CASE("DoRA: a magnitude per adapted output, both outputs kept, the weight norm rebuilt", "[training][engine]") {
  // Hand-computed terms first: 2 × 2,048 tokens × 43,008 adapted outputs × 2 B, and
  // (14,336² + 3 × 4,096 × 14,336) × 2 B for down_proj, Llama-3.1-8B's largest adapted weight.
  CHECK(dora_saved_term(2048, 43'008, 2).bytes.in_bytes() == 352'321'536);
  CHECK(dora_norm_term(14'336, 4096, 2).bytes.in_bytes() == 763'363'328);
  auto bytes_of = [](const Report& r, std::string_view id) {
    for (const auto& c : r.components)
      if (c.id == id) return c.bytes.in_bytes();
    return std::int64_t{-1};
  };
  const Report lora = test::run(llama8b({{"method", "lora"}}));
  const Report dora = test::run(llama8b({{"method", "lora"}, {"use_dora", true}}));
  // One layer's adapted outputs: q 4,096 + k 1,024 + v 1,024 + o 4,096 + gate, up 14,336 each + down 4,096 = 43,008;
  // their magnitudes over 32 layers, in fp32 beside the adapters (PEFT casts adapters to fp32).
  CHECK(bytes_of(dora, "weights") - bytes_of(lora, "weights") == 43'008LL * 32 * 4);
  CHECK(bytes_of(dora, "activations") - bytes_of(lora, "activations") == 32 * 352'321'536LL);
  CHECK(bytes_of(dora, "workspace") == 763'363'328);
  CHECK_THROWS_WITH(test::run(llama8b({{"method", "full"}, {"use_dora", true}})), Catch::Contains("needs method"));
}
