// The rules of thumb on hand-computed values, and their scoring beside the estimator.
#include <catch2/catch.hpp>

#include "test_support.hpp"
#include "vram/accuracy.hpp"
#include "vram/formats.hpp"

using namespace vram;

TEST_CASE("label × bytes + 20 %: the article's 13 B model in bf16", "[accuracy][baselines]") {
  // 13,000,000,000 × 2 B = 26,000,000,000 B; × 1.2 = 31,200,000,000 B.
  CHECK(label_bytes_plus_20(13'000'000'000, 2.0) == Approx(31'200'000'000.0));
}

TEST_CASE("nominal bytes per parameter: payload bits without scales", "[accuracy][baselines]") {
  CHECK(nominal_bytes_per_param(parse_weight_format("bf16", "/weights", "bf16")) == 2.0);
  CHECK(nominal_bytes_per_param(parse_weight_format("fp8", "/weights", "bf16")) == 1.0);
  // Q4_K: 144 B per 256 values = 4.5 bits.
  CHECK(nominal_bytes_per_param(parse_weight_format("gguf:Q4_K_M", "/weights", "bf16")) == Approx(4.5 / 8));
}

TEST_CASE("accelerate estimate-memory: total size and the Adam peak", "[accuracy][baselines]") {
  CHECK(accelerate_total_size(1'000'000'000, AccelerateDtype::float32) == 4e9);
  CHECK(accelerate_total_size(1'000'000'000, AccelerateDtype::float16) == 2e9);
  CHECK(accelerate_total_size(1'000'000'000, AccelerateDtype::int4) == 0.5e9);
  // The Model Memory Utility's published rows for timm/vit_large_patch16_384 (fp32 size
  // 1,218,863,008 B = 304,715,752 × 4 B): float32 step 4,875,452,032 B; float16 optimizer 2,437,726,016 B.
  CHECK(accelerate_adam_peak(304'715'752, AccelerateDtype::float32).value() == 4'875'452'032.0);
  CHECK(accelerate_adam_peak(304'715'752, AccelerateDtype::float16).value() == 2'437'726'016.0);
  CHECK_FALSE(accelerate_adam_peak(304'715'752, AccelerateDtype::int8).has_value());
}

TEST_CASE("KV per token: from the hidden size, and GQA-aware", "[accuracy][baselines]") {
  // Llama-3.1-8B: 32 layers, hidden 4096, 8 KV heads of 128, bf16.
  CHECK(kv_per_token_from_hidden(32, 4096, 2.0) == 524'288.0);  // 2 × 32 × 4096 × 2
  CHECK(kv_per_token_gqa(32, 8, 128, 2.0) == 131'072.0);        // 2 × 32 × 8 × 128 × 2
}

TEST_CASE("the sum of a pipeline's weights needs per-component weights", "[accuracy][baselines]") {
  Report r;
  r.add({.id = "weights", .label = "denoiser", .bytes = Bytes::of(10'000)});
  CHECK_FALSE(pipeline_weights_sum(r).has_value());  // one weights term: a language model
  r.add({.id = "text_encoder_weights", .label = "T5", .bytes = Bytes::of(5'000)});
  r.add({.id = "vae_weights", .label = "VAE", .bytes = Bytes::of(300)});
  r.add({.id = "activations", .label = "working set", .bytes = Bytes::of(99'999)});
  CHECK(pipeline_weights_sum(r).value() == 15'300.0);
}

TEST_CASE("KV rules on a vLLM case: tokens are the printed pool over the rule's bytes per token",
          "[accuracy][baselines]") {
  const nlohmann::json sc = {{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 8192}}}};
  const Scenario s = test::scenario(sc);
  const Report report = estimate(s);
  const std::vector<std::pair<std::string, double>> measured{{"kv_cache_bytes", 131'072.0 * 1000}};
  double gqa = 0, hidden = 0;
  for (const auto& p : baseline_predictions(s, report, measured)) {
    if (p.metric != "kv_capacity_tokens") continue;
    (p.baseline == BaselineKind::kv_gqa ? gqa : hidden) = p.value;
  }
  CHECK(gqa == 1000);
  CHECK(hidden == 250);
}

TEST_CASE("accuracy scores baselines on the same cases and reports range coverage", "[accuracy][baselines]") {
  const Report train = test::run({{"workload", "training"},
                                  {"model", "meta-llama/Llama-3.2-1B"},
                                  {"training", {{"extra", {{"compile", true}, {"packed", true}}}}}});
  const double peak = test::metric(train, "peak_reserved_bytes");
  REQUIRE(peak > 0);
  const auto line = [](const nlohmann::json& sc, const nlohmann::json& measured) {
    return nlohmann::json{{"scenario", sc}, {"measured", measured}}.dump() + "\n";
  };
  const nlohmann::json article = {{"model", {{"params", 13'000'000'000}}}, {"weights", "bf16"}};
  const nlohmann::json training = {
      {"workload", "training"}, {"model", "meta-llama/Llama-3.2-1B"},
      {"training", {{"extra", {{"compile", true}, {"packed", true}}}}}};
  const std::string jsonl = line(article, {{"weights_bytes", 26e9}}) + line(training, {{"peak_reserved_bytes", peak}}) +
                            line(training, {{"peak_reserved_bytes", peak * 10}});
  const AccuracyRun run = run_accuracy(jsonl, test::catalog());
  REQUIRE(run.cases.size() == 3);
  // accelerate's inference figure is the bf16 model size: exact for the article's bare count.
  REQUIRE(run.cases[0].baselines.size() == 1);
  CHECK(run.cases[0].baselines[0].baseline == BaselineKind::accelerate);
  CHECK(run.cases[0].baselines[0].rel_error == Approx(0).margin(1e-12));
  CHECK(run.cases[0].checks[0].mechanism.find("no range stated") == 0);
  // The training peak carries a range: the estimate itself lies inside, ten times it does not.
  REQUIRE(run.cases[1].checks[0].range.has_value());
  CHECK(run.cases[1].checks[0].range->contains(peak));
  CHECK(run.cases[2].checks[0].mechanism.find("above the stated range") != std::string::npos);
  // compile is read (training.extra.compile); packed is named as not modelled.
  CHECK(run.cases[2].checks[0].mechanism.find("not modelled (given under extra): packed") != std::string::npos);
  const MetricSummary* s = nullptr;
  for (const auto& x : run.summary)
    if (x.group == "training/transformers" && x.metric == "peak_reserved_bytes") s = &x;
  REQUIRE(s != nullptr);
  CHECK(s->ranged == 2);
  CHECK(s->inside == 1);
  CHECK(s->median_width > 0);
  CHECK(s->within_10 == 0.5);
  // Each applicable baseline is summarised beside the estimator on the same two cases.
  int training_rows = 0;
  for (const auto& b : run.baselines) {
    if (b.group != "training/transformers") continue;
    ++training_rows;
    CHECK(b.n == 2);
    CHECK(b.estimator_median_abs == Approx(0.45));  // |0| and |(1 − 10) / 10| = 0.9 → median 0.45
  }
  CHECK(training_rows == 2);  // label × bytes + 20 % and accelerate
}
