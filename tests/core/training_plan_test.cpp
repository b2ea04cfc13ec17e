#include "vram/plan/training_plan.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include "test_support.hpp"
#include "vram/estimate.hpp"
#include "vram/plan/solve.hpp"

using namespace vram;
using nlohmann::json;

namespace {

json training(json block, json hardware) {
  return {{"workload", "training"}, {"model", "meta-llama/Llama-3.1-8B"}, {"hardware", std::move(hardware)},
          {"training", std::move(block)}};
}

bool fits_json(const json& j) {
  return estimate(test::scenario(j), {false, nullptr}).fits;
}

}  // namespace

TEST_CASE("the training plan's seq_len and micro-batch sit at the verdict's boundary", "[training][plan]") {
  const json j = training({{"framework", "torchtune"}, {"method", "lora"}, {"seq_len", 512}}, {{"gpu", "RTX-4090"}});
  const Scenario s = test::scenario(j);
  const TrainingPlan p = training_plan(s, test::catalog());
  // The estimate's metric is the plan's length at the whole capacity.
  CHECK(test::metric(estimate(s), "max_context_tokens") == static_cast<double>(p.max_seq_len));
  REQUIRE(p.max_seq_len > 512);
  json at = j, past = j;
  at["headroom"] = past["headroom"] = 0;
  at["training"]["seq_len"] = p.max_seq_len;
  past["training"]["seq_len"] = p.max_seq_len + 1;
  CHECK(fits_json(at));
  CHECK_FALSE(fits_json(past));
  // Keeping the default headroom free leaves a shorter length, still at its own boundary.
  CHECK(p.max_seq_len_with_headroom < p.max_seq_len);
  json kept = j, kept_past = j;
  kept["training"]["seq_len"] = p.max_seq_len_with_headroom;
  kept_past["training"]["seq_len"] = p.max_seq_len_with_headroom + 1;
  CHECK(fits_json(kept));
  CHECK_FALSE(fits_json(kept_past));
  REQUIRE(p.max_micro_batch >= 1);
  json batch = j, batch_past = j;
  batch["training"]["micro_batch"] = p.max_micro_batch;
  batch_past["training"]["micro_batch"] = p.max_micro_batch + 1;
  CHECK(fits_json(batch));
  CHECK_FALSE(fits_json(batch_past));
}

TEST_CASE("the fewest GPUs: sharded states divide, replicated ones do not", "[training][plan]") {
  // Full fine-tuning of 8B parameters with AdamW keeps about 16 B per parameter of
  // model states (Rajbhandari et al. 2020): 128 GB, more than one 80 GB card.
  const json fsdp = training({{"method", "full"}, {"optimizer", "adamw"}, {"sharding", "fsdp"}, {"seq_len", 2048}},
                             {{"gpu", "H100-SXM-80GB"}, {"count", 1}});
  const TrainingPlan p = training_plan(test::scenario(fsdp), test::catalog());
  CHECK(p.more_gpus_divide);
  REQUIRE(p.fewest_gpus.has_value());
  CHECK(*p.fewest_gpus > 1);
  const Scenario s = test::scenario(fsdp);
  CHECK(estimate(with_training_gpus(s, *p.fewest_gpus), {false, nullptr}).fits);
  CHECK_FALSE(estimate(with_training_gpus(s, *p.fewest_gpus / 2), {false, nullptr}).fits);
  // DDP replicates the states: no count fits where one GPU does not.
  json ddp = fsdp;
  ddp["training"]["sharding"] = "ddp";
  ddp["hardware"]["count"] = 8;
  const TrainingPlan q = training_plan(test::scenario(ddp), test::catalog());
  CHECK_FALSE(q.more_gpus_divide);
  CHECK_FALSE(q.fewest_gpus.has_value());
  // Every GPU option fits at its count, and a sharded one not at half of it.
  REQUIRE_FALSE(p.gpu_options.empty());
  for (const GpuOption& o : p.gpu_options) {
    INFO(o.gpu_id << " × " << o.count);
    json at = fsdp;
    at["hardware"] = {{"gpu", o.gpu_id}, {"count", o.count}};
    CHECK(fits_json(at));
    if (o.count > 1) {
      at["hardware"]["count"] = o.count / 2;
      CHECK_FALSE(fits_json(at));
    }
  }
}

TEST_CASE("the training plan's JSON: solvers, hints whose patches give their figures, GPU options", "[training][plan]") {
  const json j = training({{"framework", "torchtune"}, {"method", "full"}, {"optimizer", "adamw"},
                           {"sharding", "zero3"}, {"seq_len", 4096}},
                          {{"gpu", "H100-SXM-80GB"}, {"count", 1}});
  const json p = plan_json(j.dump(), test::catalog());
  REQUIRE(p["ok"] == true);
  CHECK(p["max_seq_len"].get<std::int64_t>() >= 0);
  CHECK(p["more_gpus_divide"] == true);
  REQUIRE(p["fewest_gpus"].is_number_integer());
  bool count_hint = false;
  REQUIRE(p["hints"].size() >= 3);
  for (const json& h : p["hints"]) {
    INFO(h.dump());
    json patched = j;
    patched.merge_patch(h["patch"]);
    const Report r = estimate(test::scenario(patched), {false, nullptr});
    // The hint's effect names the figure its patch gives.
    CHECK(h["effect"].get<std::string>().find(format_iec(r.total)) != std::string::npos);
    if (h["patch"].contains("hardware")) {
      count_hint = true;
      CHECK(h["patch"]["hardware"]["count"] == p["fewest_gpus"]);
      CHECK(r.fits);
    }
  }
  CHECK(count_hint);
  REQUIRE(p["gpu_options"].is_array());
  for (const json& o : p["gpu_options"]) CHECK(o["patch"]["hardware"]["gpu"] == o["gpu"]);
}

TEST_CASE("the plan offers a switch for what it buys, and GPUs the framework runs on", "[training][plan]") {
  // Unsloth QLoRA: its loss is already fused, so chunked_loss buys nothing and is not offered.
  const json j = training({{"framework", "unsloth"}, {"method", "qlora"}, {"seq_len", 4096}, {"micro_batch", 2},
                           {"optimizer", "adamw-8bit"}, {"checkpointing", "full"}, {"activation_offload", true}},
                          {{"gpu", "RTX-4090"}});
  const Scenario s = test::scenario(j);
  const TrainingPlan p = training_plan(s, test::catalog());
  const Bytes now = estimate(s, {false, nullptr}).total;
  for (const TrainingSwitch& w : p.switches) {
    CAPTURE(w.path, w.value);
    CHECK(w.path != "/training/chunked_loss");
    CHECK(w.total < now);
  }
  // Unsloth needs compute capability 7.0: the Tesla P40 (6.1) is not an option, however much it holds.
  const auto listed = [](const TrainingPlan& plan, std::string_view id) {
    return std::any_of(plan.gpu_options.begin(), plan.gpu_options.end(), [&](const GpuOption& o) { return o.gpu_id == id; });
  };
  CHECK_FALSE(listed(p, "P40"));
  CHECK(listed(p, "RTX-3090"));
  // torchtune runs on it (Pascal has no bf16 kernels, but the memory is the same in fp16).
  json tt = j;
  tt["training"]["framework"] = "torchtune";
  tt["training"].erase("activation_offload");
  tt["training"]["seq_len"] = 1024;
  CHECK(listed(training_plan(test::scenario(tt), test::catalog()), "P40"));
}
