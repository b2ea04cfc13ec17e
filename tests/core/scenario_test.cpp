#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/error.hpp"

using namespace vram;
using nlohmann::json;

namespace {

test::Failure text_failure(const std::string& text) {
  try {
    (void)estimate(parse_scenario_text(text, test::catalog()));
  } catch (const InputError& e) {
    return {e.path(), e.what()};
  }
  return {"(no error)", ""};
}

test::Failure text_failure(const json& j) {
  return text_failure(j.dump());
}

json base() {
  return {{"v", 1},
          {"model", "meta-llama/Llama-3.1-8B"},
          {"hardware", {{"gpu", "H100-SXM-80GB"}}},
          {"inference", {{"context", 8192}}}};
}

}  // namespace

TEST_CASE("malformed JSON is an error at the root, with the parser's position", "[scenario][errors]") {
  const test::Failure f = text_failure(std::string("{\"model\": "));
  CHECK(f.path.empty());
  CHECK(f.message.find("malformed JSON") != std::string::npos);
  CHECK(text_failure(std::string("")).message.find("malformed JSON") != std::string::npos);
  CHECK(text_failure(std::string("[1,2]")).message.find("must be a JSON object") != std::string::npos);
}

TEST_CASE("bad numbers name their field and the allowed range", "[scenario][errors]") {
  auto at = [](const char* field, json value) {
    json s = base();
    s["inference"][field] = value;
    return text_failure(s);
  };
  CHECK(at("context", -1).path == "/inference/context");
  CHECK(at("context", 0).path == "/inference/context");
  CHECK(at("context", 1e12).path == "/inference/context");
  CHECK(at("context", 3.5).path == "/inference/context");
  CHECK(at("context", "8k").path == "/inference/context");
  CHECK(at("concurrency", 0).message.find("an integer from 1") != std::string::npos);
  json big = base();
  big["inference"]["context"] = 100'000'000;
  big["inference"]["concurrency"] = 1'000'000;  // each in range, the product absurd
  CHECK(text_failure(big).path == "/inference/concurrency");
  json s = base();
  s["headroom"] = 1.5;
  CHECK(text_failure(s).path == "/headroom");
  s = base();
  s["inference"]["vllm"] = {{"gpu_memory_utilization", 0}};
  CHECK(text_failure(s).path == "/inference/vllm/gpu_memory_utilization");
  // NaN cannot be written in JSON; the nearest hostile input is a huge exponent.
  CHECK(text_failure(std::string(R"({"model":{"params":1e400}})")).path == "/model/params");  // no double holds it
  s = base();
  s["model"] = {{"params", 0}};
  CHECK(text_failure(s).path == "/model/params");
  s["model"] = {{"params", -13000000000LL}};
  CHECK(text_failure(s).path == "/model/params");
  s = base();
  s["hardware"]["gpu"] = {{"name", "mine"}, {"memory_bytes", 24}};  // GB typed as bytes
  CHECK(text_failure(s).path == "/hardware/gpu/memory_bytes");
}

TEST_CASE("unknown names list what is allowed", "[scenario][errors]") {
  json s = base();
  s["weights"] = "fp6";
  CHECK(text_failure(s).path == "/weights");
  s = base();
  s["inference"]["kv_cache_dtype"] = "int2";
  CHECK(text_failure(s).message.find("allowed: auto, fp16, bf16, fp32, fp8, q8_0, q4_0") != std::string::npos);
  s = base();
  s["inference"]["engine"] = "tgi";
  CHECK(text_failure(s).path == "/inference/engine");
  s = base();
  s["hardware"]["gpu"] = "H100";
  const test::Failure g = text_failure(s);
  CHECK(g.path == "/hardware/gpu");
  CHECK(g.message.find("H100-SXM-80GB") != std::string::npos);
  s = base();
  s["model"] = "meta-llama/Llama-3.1-8c";
  CHECK(text_failure(s).path == "/model");
  s = base();
  s["inference"]["contxt"] = 8192;  // a typo is not silently ignored: it is named in the warnings
  const Scenario typo = test::scenario(s);
  REQUIRE_FALSE(typo.warnings.empty());
  CHECK(typo.warnings.front().rfind("/inference/contxt: unknown field, ignored; allowed here: engine, context", 0) ==
        0);
  s = base();
  s["inference"]["extra"] = {{"compile", true}};  // but "extra" is always accepted, silently
  CHECK(text_failure(s).path == "(no error)");
  CHECK(test::scenario(s).warnings.empty());
}

TEST_CASE("parallelism must match the model and the GPU count", "[scenario][errors]") {
  json s = base();
  s["inference"]["tensor_parallel"] = 3;  // 32 heads
  s["hardware"]["count"] = 3;
  const test::Failure f = text_failure(s);
  CHECK(f.path == "/inference/tensor_parallel");
  CHECK(f.message.find("Valid sizes: 1, 2, 4, 8, 16, 32") != std::string::npos);
  s = base();
  s["inference"]["tensor_parallel"] = 4;  // only 1 GPU
  CHECK(text_failure(s).path == "/hardware/count");
}

TEST_CASE("the engines' own context names are honoured and must agree", "[scenario]") {
  json s = base();
  s["inference"].erase("context");
  s["inference"]["vllm"] = {{"max_model_len", 16384}};
  CHECK(test::scenario(s).inference().context == 16384);
  s["inference"]["context"] = 8192;
  CHECK(text_failure(s).path == "/inference/vllm/max_model_len");
  json l = base();
  l["inference"] = {{"engine", "llama.cpp"}, {"llama_cpp", {{"n_ctx", 8192}, {"n_seq_max", 4}}}};
  CHECK(test::scenario(l).inference().context == 2048);  // 8,192 cells over 4 sequences
  l["inference"]["context"] = 4096;
  CHECK(text_failure(l).path == "/inference/llama_cpp/n_ctx");
}

TEST_CASE("a context above the model's maximum is allowed with a warning", "[scenario]") {
  json s = base();
  s["model"] = "meta-llama/Llama-2-7b-hf";
  s["inference"]["context"] = 8192;
  const Scenario sc = test::scenario(s);
  REQUIRE_FALSE(sc.warnings.empty());
  CHECK(sc.warnings.front().find("exceeds the model's maximum (4,096") != std::string::npos);
}

TEST_CASE("defaults are applied and reported", "[scenario]") {
  const Scenario sc = test::scenario({{"model", "Qwen/Qwen3-8B"}});
  CHECK(sc.inference().context == 40960);
  CHECK(sc.headroom == 0.10);
  CHECK(sc.gpu.id == "H100-SXM-80GB");
  CHECK(sc.weights.name == "bf16");
  CHECK(sc.inference().kv.name == "bf16");
  const auto has = [&](const std::string& d) {
    for (const auto& x : sc.defaults_used)
      if (x == d) return true;
    return false;
  };
  CHECK(has("inference.context = 40960 (model max)"));
  CHECK(has("hardware.gpu = H100-SXM-80GB"));
  // vLLM's gpu_memory_utilization is its headroom: the scenario's is not applied.
  CHECK_FALSE(has("headroom = 0.10"));
  const Scenario lc = test::scenario({{"model", "Qwen/Qwen3-8B"}, {"inference", {{"engine", "llama.cpp"}}}});
  CHECK(std::find(lc.defaults_used.begin(), lc.defaults_used.end(), "headroom = 0.10") != lc.defaults_used.end());
}

TEST_CASE("a pasted config.json with quantization_config sets the weights format", "[scenario]") {
  json cfg = test::catalog().find_model("meta-llama/Llama-3.1-8B")->config;
  cfg["quantization_config"] = {{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}};
  const Scenario sc = test::scenario({{"model", {{"config", cfg}}}});
  CHECK(sc.weights.name == "awq-int4");
}

TEST_CASE("every workload is estimated; a model of the wrong kind is refused clearly", "[scenario][errors]") {
  // Language-model training and, with framework diffusers, the fine-tuning of an image pipeline.
  CHECK_NOTHROW(test::run(json{{"workload", "training"}, {"model", "meta-llama/Llama-3.1-8B"}}));
  const test::Failure f = text_failure(json{{"workload", "training"},
                                 {"model", "meta-llama/Llama-3.1-8B"},
                                 {"training", {{"framework", "diffusers"}}}});
  CHECK(f.path == "/model");
  CHECK(f.message.find("unknown image/video pipeline \"meta-llama/Llama-3.1-8B\"") != std::string::npos);
  CHECK(text_failure(json{{"workload", "training"},
                     {"model", "CompVis/stable-diffusion-v1-4"},
                     {"training", {{"framework", "diffusers"}, {"method", "lora"}}}})
            .path == "(no error)");
  // The settings are read before the refusal: a bad one is named first.
  CHECK(text_failure(json{{"workload", "training"}, {"model", "meta-llama/Llama-3.1-8B"}, {"training", {{"optimizer", "adam"}}}})
            .path == "/training/optimizer");
  // Image and video are estimated now; an unknown pipeline is refused at /model, naming the catalog's.
  CHECK(text_failure(json{{"workload", "image"}, {"model", "black-forest-labs/FLUX.1-dev"}}).path == "(no error)");
  const test::Failure img = text_failure(json{{"workload", "image"}, {"model", "acme/unknown-diffusion"}});
  CHECK(img.path == "/model");
  CHECK(img.message.find("unknown image/video pipeline \"acme/unknown-diffusion\"") != std::string::npos);
  CHECK(img.message.find("black-forest-labs/FLUX.1-dev") != std::string::npos);
  CHECK(img.message.find("close:") == std::string::npos);
  // A repository of the same model in another layout names the catalog's entry, and how that one runs.
  const test::Failure wan = text_failure(json{{"workload", "video"}, {"model", "Wan-AI/Wan2.1-T2V-14B-Diffusers"}});
  CHECK(wan.path == "/model");
  CHECK(wan.message.find("; close: Wan-AI/Wan2.1-T2V-14B (runtime wan);") != std::string::npos);
  CHECK(wan.message.find("Wan2.1-T2V-1.3B (runtime") == std::string::npos);
}

TEST_CASE("ids typed with other case or separators: one match is read with a warning, several are named", "[scenario]") {
  const auto warned = [](const Report& r, const std::string& text) {
    return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const std::string& w) { return w == text; });
  };
  const Report spaced = test::run(json{{"model", "meta-llama/Llama-3.1-8B"}, {"hardware", {{"gpu", "rtx 4090"}}}});
  const Report exact = test::run(json{{"model", "meta-llama/Llama-3.1-8B"}, {"hardware", {{"gpu", "RTX-4090"}}}});
  CHECK(spaced.capacity == exact.capacity);
  CHECK(warned(spaced, "hardware.gpu \"rtx 4090\" is read as the catalog's RTX-4090"));
  CHECK(std::none_of(exact.warnings.begin(), exact.warnings.end(),
                     [](const std::string& w) { return w.find("is read as") != std::string::npos; }));
  // "H100" is three catalog GPUs: none is chosen, all are named.
  const test::Failure h100 = text_failure(json{{"model", "meta-llama/Llama-3.1-8B"}, {"hardware", {{"gpu", "H100"}}}});
  CHECK(h100.path == "/hardware/gpu");
  CHECK(h100.message.find("unknown GPU id \"H100\"; close: H100-PCIe-80GB, H100-SXM-80GB, H100-NVL-94GB; allowed: ") == 0);
  CHECK(text_failure(json{{"model", "meta-llama/Llama-3.1-8B"}, {"hardware", {{"gpu", "H1000"}}}}).message.find("close:") ==
        std::string::npos);
  // A model id in other case: the Hub's ids ignore case.
  const Report lower = test::run(json{{"model", "meta-llama/llama-3.1-8b"}});
  CHECK(lower.find_metric("weights_bytes")->value == test::run(json{{"model", "meta-llama/Llama-3.1-8B"}}).find_metric("weights_bytes")->value);
  CHECK(warned(lower, "model \"meta-llama/llama-3.1-8b\" is read as the catalog's meta-llama/Llama-3.1-8B (the ids differ only in case)"));
}

TEST_CASE("a setting's value in other case or separators is refused with the spelling that works", "[scenario][errors]") {
  const auto training = [](const char* key, const char* value) {
    return text_failure(json{{"workload", "training"}, {"model", "meta-llama/Llama-3.1-8B"}, {"training", {{key, value}}}});
  };
  const test::Failure bnb = training("optimizer", "paged_adamw_8bit");  // bitsandbytes' and HF Trainer's spelling
  CHECK(bnb.path == "/training/optimizer");
  CHECK(bnb.message.find("unknown value \"paged_adamw_8bit\" (did you mean \"paged-adamw-8bit\"?); allowed: ") == 0);
  CHECK(training("method", "QLoRA").message.find("did you mean \"qlora\"?") != std::string::npos);
  CHECK(training("optimizer", "adam").message.find("did you mean") == std::string::npos);
}

TEST_CASE("hostile input never crashes", "[scenario][errors]") {
  // Deep nesting, huge strings and wrong types come back as InputError.
  std::string deep(5000, '[');
  CHECK_NOTHROW(test::catalog());
  CHECK(text_failure(deep).message.find("nested deeper than 64 levels") != std::string::npos);
  CHECK(text_failure(json{{"model", {{"config", {{"hidden_size", std::string(100000, 'x')}}}}}}).path ==
        "/model/config/hidden_size");
  CHECK(text_failure(json{{"model", {{"config", nullptr}}}}).path == "/model/config");
  CHECK(text_failure(json{{"model", 7}}).path == "/model");
}
