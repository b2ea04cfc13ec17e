// How to measure a scenario (io/measure.hpp): the command line or script for
// its exact settings, and the output lines that are its metrics.
#include "vram/io/measure.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

using namespace vram;
using nlohmann::json;

namespace {
json measure(const json& scenario) {
  return json::parse(io::measure_json(test::scenario(scenario)));
}
std::vector<std::string> metrics(const json& m) {
  std::vector<std::string> out;
  for (const auto& r : m["look_for"]) out.push_back(r["metric"]);
  return out;
}
}  // namespace

TEST_CASE("vLLM: the serve command carries every setting the estimate read", "[measure]") {
  const json m = measure({{"model", "meta-llama/Llama-3.1-70B"},
                          {"weights", "fp8"},
                          {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 4}}},
                          {"inference",
                           {{"context", 32768},
                            {"tensor_parallel", 4},
                            {"kv_cache_dtype", "fp8"},
                            {"vllm", {{"version", "0.10.1"}, {"max_num_seqs", 64}, {"gpu_memory_utilization", 0.95}}}}}});
  CHECK(m["kind"] == "command");
  CHECK(m["text"] ==
        "pip install vllm==0.10.1\n"
        "vllm serve meta-llama/Llama-3.1-70B \\\n  --max-model-len 32768 --gpu-memory-utilization 0.95 \\\n"
        "  --tensor-parallel-size 4 --quantization fp8 \\\n  --kv-cache-dtype fp8 --max-num-seqs 64");
  CHECK(metrics(m) == std::vector<std::string>{"weights_bytes", "activation_bytes", "non_torch_bytes", "kv_cache_bytes",
                                               "kv_capacity_tokens", "max_concurrency", "cuda_graph_bytes"});
}

TEST_CASE("llama.cpp: llama-server's -c is the context of every slot together", "[measure]") {
  const json m = measure({{"model", "meta-llama/Llama-3.1-70B"},
                          {"weights", "gguf:Q4_K_M"},
                          {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
                          {"inference",
                           {{"engine", "llama.cpp"},
                            {"context", 8192},
                            {"concurrency", 2},
                            {"kv_cache_dtype", "q8_0"},
                            {"llama_cpp", {{"flash_attn", true}, {"tensor_split", {3, 2}}, {"n_gpu_layers", 60}}}}}});
  CHECK(m["text"] ==
        "llama-server -m /path/to/Llama-3.1-70B-Q4_K_M.gguf \\\n  -c 16384 -np 2 -ngl 60 -ts 3,2 -fa on -ctk q8_0 -ctv q8_0");
  CHECK(metrics(m) == std::vector<std::string>{"weights_bytes", "kv_cache_bytes", "activation_bytes"});
}

TEST_CASE("training and generation: a short PyTorch script that prints the peaks", "[measure]") {
  const json t = measure({{"workload", "training"},
                          {"model", "Qwen/Qwen3-8B"},
                          {"training",
                           {{"framework", "unsloth"}, {"method", "qlora"}, {"checkpointing", "full"}, {"seq_len", 4096},
                            {"micro_batch", 2}, {"lora_rank", 32}}}});
  CHECK(t["kind"] == "script");
  const std::string text = t["text"];
  CHECK(text.find("bnb_4bit_quant_type=\"nf4\"") != std::string::npos);
  CHECK(text.find("model.gradient_checkpointing_enable()") != std::string::npos);
  CHECK(text.find("LoraConfig(r=32") != std::string::npos);
  CHECK(text.find("(2, 4096)") != std::string::npos);
  CHECK(text.find("torch.cuda.max_memory_reserved()") != std::string::npos);
  CHECK(t["note"].get<std::string>().find("unsloth's own recipe") != std::string::npos);
  CHECK(metrics(t) == std::vector<std::string>{"peak_allocated_bytes", "peak_reserved_bytes"});
  CHECK(text.find("torch.optim.AdamW") != std::string::npos);
  CHECK(text.find("lr=1e-4, fused=True)") != std::string::npos);  // the step kernels the estimate assumes
  const auto kernels = [](const char* impl) {
    return measure({{"workload", "training"},
                    {"model", "meta-llama/Llama-3.2-1B"},
                    {"training", {{"optimizer_implementation", impl}}}})["text"]
        .get<std::string>();
  };
  CHECK(kernels("foreach").find("lr=1e-4, foreach=True)") != std::string::npos);
  CHECK(kernels("for-loop").find("lr=1e-4, foreach=False)") != std::string::npos);
  // Muon: torch.optim.Muon on the decoder layers' matrices, AdamW on the rest, both stepped.
  const std::string muon = measure({{"workload", "training"},
                                    {"model", "Qwen/Qwen3-8B"},
                                    {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 8}}},
                                    {"training", {{"framework", "deepspeed"}, {"sharding", "zero2"}, {"optimizer", "muon"}}}})["text"];
  CHECK(muon.find("torch.optim.Muon(hidden") != std::string::npos);
  CHECK(muon.find("torch.optim.AdamW(rest") != std::string::npos);
  CHECK(muon.find("    for opt in opts:\n        opt.step()") != std::string::npos);

  const json v = measure({{"workload", "video"},
                          {"model", "Wan-AI/Wan2.1-T2V-14B"},
                          {"generation", {{"width", 1280}, {"height", 720}, {"frames", 81}, {"offload", "model"}}}});
  const std::string vt = v["text"];
  CHECK(vt.find("pipe.enable_model_cpu_offload()") != std::string::npos);
  CHECK(vt.find("width=1280, height=720, num_frames=81") != std::string::npos);
  CHECK(vt.find("pipe.to(\"cuda\")") == std::string::npos);
  // The script loads the pipeline in the dtype the estimate assumed: Sana's fp16, FLUX's bf16, or
  // the scenario's own weights.
  const auto dtype_line = [](const json& m) {
    const std::string text = m["text"];
    return text.substr(text.find("torch_dtype="), 26);
  };
  CHECK(dtype_line(measure({{"workload", "image"}, {"model", "Efficient-Large-Model/Sana_1600M_1024px_diffusers"}})) ==
        "torch_dtype=torch.float16)");
  CHECK(dtype_line(measure({{"workload", "image"}, {"model", "black-forest-labs/FLUX.1-dev"}})).find("bfloat16") !=
        std::string::npos);
  CHECK(dtype_line(measure({{"workload", "image"}, {"model", "black-forest-labs/FLUX.1-dev"}, {"weights", "fp16"}})) ==
        "torch_dtype=torch.float16)");
}

TEST_CASE("the report carries how to measure it", "[measure]") {
  const Report r = test::run({{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 8192}}}});
  const auto it = std::find_if(r.details.begin(), r.details.end(), [](const auto& d) { return d.first == "measure"; });
  REQUIRE(it != r.details.end());
  CHECK(json::parse(it->second)["text"].get<std::string>().find("--max-model-len 8192") != std::string::npos);
}
