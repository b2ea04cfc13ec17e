#include "vram/io/workload_settings.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <sstream>
#include <string>

#include "test_support.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"

using namespace vram;
using nlohmann::json;

namespace {

std::string parse_error_path(const json& scenario) {
  try {
    (void)parse_scenario(scenario, test::catalog());
  } catch (const InputError& e) {
    return e.path();
  }
  return "(accepted)";
}

json training(json block, std::int64_t gpus = 1) {
  return {{"workload", "training"},
          {"model", "meta-llama/Llama-3.1-8B"},
          {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", gpus}}},
          {"training", std::move(block)}};
}

}  // namespace

TEST_CASE("the training block is read field by field, defaults named", "[scenario][training]") {
  const Scenario s = test::scenario(training({{"framework", "unsloth"},
                                              {"method", "qlora"},
                                              {"lora_rank", 32},
                                              {"lora_targets", {"q_proj", "v_proj"}},
                                              {"optimizer", "paged-adamw-8bit"},
                                              {"micro_batch", 2},
                                              {"seq_len", 4096},
                                              {"checkpointing", "full"},
                                              {"sharding", "fsdp"},
                                              {"offload", "optimizer+params"},
                                              {"chunked_loss", true},
                                              {"optimizer_implementation", "for-loop"}},
                                             4));
  REQUIRE(s.training() != nullptr);
  const TrainingSettings& t = s.training()->training;
  CHECK(t.framework == Framework::unsloth);
  CHECK(t.method == TrainMethod::qlora);
  CHECK(t.lora_rank == 32);
  CHECK(t.lora_targets == std::vector<std::string>{"q_proj", "v_proj"});
  CHECK(t.optimizer == Optimizer::paged_adamw_8bit);
  CHECK(t.micro_batch * t.seq_len == 8192);
  CHECK(t.checkpointing == Checkpointing::full);
  CHECK(t.sharding == Sharding::fsdp);
  CHECK(t.offload == TrainOffload::optimizer_params);
  CHECK(t.chunked_loss);
  CHECK(t.optimizer_implementation == OptimizerImpl::for_loop);
  CHECK(s.generation() == nullptr);
  const auto has = [&](const std::string& d) {
    return std::find(s.defaults_used.begin(), s.defaults_used.end(), d) != s.defaults_used.end();
  };
  CHECK(has("training.precision = bf16-mixed"));
  CHECK(has("training.attention = flash"));
  CHECK_FALSE(has("training.framework = transformers"));
}

TEST_CASE("bad training settings name their field and what is allowed", "[scenario][training][errors]") {
  CHECK(parse_error_path(training({{"optimizer", "adam"}})) == "/training/optimizer");
  CHECK(parse_error_path(training({{"micro_batch", "2"}})) == "/training/micro_batch");
  CHECK(parse_error_path(training({{"micro_batch", 0}})) == "/training/micro_batch");
  CHECK(parse_error_path(training({{"lora_targets", 5}})) == "/training/lora_targets");
  CHECK(parse_error_path(training({{"lora_targets", {"q_proj", 3}}})) == "/training/lora_targets/1");
  CHECK(parse_error_path(training({{"tensor_parallel", 3}}, 4)) == "/training/tensor_parallel");
  CHECK(parse_error_path(training({{"tensor_parallel", 2}, {"pipeline_parallel", 4}}, 4)) == "/training/tensor_parallel");
  CHECK(parse_error_path(training({{"chunked_loss", "yes"}})) == "/training/chunked_loss");
  CHECK(parse_error_path(training({{"optimizer_implementation", "apex"}})) == "/training/optimizer_implementation");
  CHECK(parse_error_path(training({{"optimizer_implementation", true}})) == "/training/optimizer_implementation");
  CHECK(parse_error_path(training({{"micro_batch", 1'000'000}, {"seq_len", 1'000'000}})) == "/training/seq_len");
  json not_object = training({});
  not_object["training"] = "full";
  CHECK(parse_error_path(not_object) == "/training");
  try {
    (void)parse_scenario(training({{"sharding", "zero4"}}), test::catalog());
    FAIL("zero4 accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "unknown value \"zero4\"; allowed: none, ddp, zero1, zero2, zero3, fsdp");
  }
}

TEST_CASE("the generation block is read for image and video", "[scenario][generation]") {
  const Scenario v = test::scenario({{"workload", "video"},
                                     {"model", "Wan-AI/Wan2.1-T2V-14B"},
                                     {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 4}}},
                                     {"generation",
                                      {{"width", 1280},
                                       {"height", 720},
                                       {"frames", 81},
                                       {"sequence_parallel", 4},
                                       {"fsdp", true},
                                       {"text_encoder", "sharded"},
                                       {"component_weights", {{"text_encoder", "fp8"}}}}}});
  REQUIRE(v.generation() != nullptr);
  CHECK(v.generation()->frames == 81);
  CHECK(v.generation()->sequence_parallel == 4);
  CHECK(v.generation()->text_encoder == TextEncoderPlace::sharded);
  CHECK(v.generation()->component_weights.at(0).second == "fp8");
  CHECK(v.model == nullptr);  // resolved by the generation engine
  const json image = {{"workload", "image"}, {"model", "black-forest-labs/FLUX.1-dev"}};
  json frames = image;
  frames["generation"] = {{"frames", 81}};
  CHECK(parse_error_path(frames) == "/generation/frames");  // an image has no frames
  json seq = image;
  seq["generation"] = {{"sequence_parallel", 3}};
  seq["hardware"] = {{"count", 4}};
  CHECK(parse_error_path(seq) == "/generation/sequence_parallel");
  json cw = image;
  cw["generation"] = {{"component_weights", {{"transformer", 4}}}};
  CHECK(parse_error_path(cw) == "/generation/component_weights/transformer");
  json off = image;
  off["generation"] = {{"offload", "disk"}};
  CHECK(parse_error_path(off) == "/generation/offload");
}

TEST_CASE("every public training, image and video case is read and estimated",
          "[scenario][accuracy][public]") {
  const std::string text = test::read_file(std::string(VRAM_SHARED_DIR) + "/accuracy/public.jsonl");
  if (text.empty()) {
    WARN("shared/accuracy/public.jsonl not found beside the checkout; skipped");
    return;
  }
  std::istringstream in(text);
  std::string line;
  int estimated = 0, generated = 0, diffusion = 0;
  while (std::getline(in, line)) {
    const json c = json::parse(line);
    const std::string workload = c["scenario"].value("workload", "inference");
    if (workload == "inference") continue;
    CAPTURE(c["id"].get<std::string>());
    const json r = json::parse(estimate_json(c["scenario"].dump(), test::catalog()));
    if (workload == "image" || workload == "video") {
      CHECK(r["ok"] == true);
      generated += r["ok"] == true;
      continue;
    }
    // Language models and diffusion pipelines (framework diffusers) alike.
    CHECK(r["ok"] == true);
    estimated += r["ok"] == true;
    diffusion += r["ok"] == true && c["scenario"]["training"].value("framework", "") == "diffusers";
  }
  CHECK(estimated >= 30);
  CHECK(diffusion >= 4);
  CHECK(generated >= 60);
}
