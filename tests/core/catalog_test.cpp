#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "test_support.hpp"
#include "vram/budget/weights.hpp"
#include "vram/formats.hpp"
#include "vram/plan.hpp"

using namespace vram;

namespace {

// The checkpoint as stored: every tensor (vision and MTP included), unsharded,
// in the checkpoint's own format, plus its non-parameter tensors.
Bytes computed_checkpoint_bytes(const CatalogModel& m) {
  bool quantized = false;
  const WeightFormat own = format_from_quantization_config(m.config, "/config", m.model.arch.native_dtype, quantized);
  WeightPlacement all;
  all.mtp = true;
  return weights_on_gpu(m.model, own, all).bytes + m.checkpoint_extra_bytes;
}

}  // namespace

TEST_CASE("every catalog model loads and has an architecture", "[catalog]") {
  const auto& models = test::catalog().models();
  REQUIRE(models.size() >= 70);
  REQUIRE(models.size() == test::catalog().model_count());
  for (const CatalogModel* m : models) {
    CAPTURE(m->id);
    CHECK(parameter_count(m->model.tensors) > 100'000'000);
    CHECK(!m->config_source.empty());
  }
}

TEST_CASE("catalog checkpoint sizes equal the size computed from each config", "[catalog][checkpoint]") {
  int checked = 0;
  for (const CatalogModel* m_entry : test::catalog().models()) {
    const CatalogModel& m = *m_entry;
    if (!m.model.checkpoint_bytes) continue;
    if (m.checkpoint_status != "verified" && m.checkpoint_status != "corroborated") continue;
    CAPTURE(m.id, m.checkpoint_status);
    CHECK(computed_checkpoint_bytes(m) == *m.model.checkpoint_bytes);
    ++checked;
  }
  CHECK(checked >= 30);
}

TEST_CASE("the foundation's models have exact published sizes", "[catalog][checkpoint]") {
  // model.safetensors.index.json metadata.total_size of each repository (sources in models/*.json).
  const std::pair<const char*, std::int64_t> published[] = {
      {"meta-llama/Llama-2-7b-hf", 13'476'839'424},
      {"meta-llama/Llama-2-70b-hf", 137'953'316'864},
      {"meta-llama/Llama-3.1-8B", 16'060'522'496},
      {"meta-llama/Llama-3.1-70B", 141'107'412'992},
      {"mistralai/Mistral-7B-v0.3", 14'496'047'104},
      {"Qwen/Qwen2.5-7B", 15'231'233'024},
      {"Qwen/Qwen3-8B", 16'381'470'720},
      {"microsoft/phi-4", 29'319'014'400},
      {"openai/gpt-oss-20b", 13'761'264'768},
      {"mistralai/Mixtral-8x7B-v0.1", 93'405'585'408},
  };
  for (const auto& [id, bytes] : published) {
    CAPTURE(id);
    const CatalogModel* m = test::catalog().find_model(id);
    REQUIRE(m != nullptr);
    CHECK(computed_checkpoint_bytes(*m).in_bytes() == bytes);
  }
}

TEST_CASE("Qwen3-235B-A22B-Instruct-2507: the base's tensors with a 262,144-token context", "[catalog][checkpoint]") {
  const CatalogModel* update = test::catalog().find_model("Qwen/Qwen3-235B-A22B-Instruct-2507");
  const CatalogModel* base = test::catalog().find_model("Qwen/Qwen3-235B-A22B");
  REQUIRE(update != nullptr);
  REQUIRE(base != nullptr);
  // 94 layers x (128 experts x 3 x 4,096 x 1,536 + router + attention) + embeddings: the base's
  // published index total, 470,187,269,120 B in bf16.
  CHECK(computed_checkpoint_bytes(*update).in_bytes() == 470'187'269'120LL);
  CHECK(update->model.arch.max_positions == 262'144);
  CHECK(base->model.arch.max_positions == 40'960);
}

TEST_CASE("Nemotron-3 Nano NVFP4: experts and most Mamba-2 projections in nvfp4, the rest in bf16",
          "[catalog][checkpoint][nvfp4]") {
  const CatalogModel* m = test::catalog().find_model("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4");
  REQUIRE(m != nullptr);
  // nvfp4: 23 MoE blocks × 128 experts × (up + down 1,856 × 2,688) = 29,374,808,064, their shared experts
  // 23 × 2 × 3,712 × 2,688 = 458,981,376, and 17 of the 23 Mamba-2 blocks' in_proj 10,304 × 2,688 and
  // out_proj 2,688 × 4,096 = 658,022,400 (the six beside the attention blocks are excluded).
  const std::int64_t fp4 = 23LL * 128 * 2 * 1856 * 2688 + 23LL * 2 * 3712 * 2688 + 17LL * (10304 * 2688 + 2688 * 4096);
  CHECK(fp4 == 30'491'811'840);
  // bf16: embedding and lm_head 2 × 131,072 × 2,688, the 6 attention blocks (q, o 4,096 × 2,688; k, v 256 × 2,688),
  // 6 excluded Mamba-2 in/out projections, and what is no Linear: conv1d (6,144 × 4 + bias), dt_bias, A_log, D,
  // gated norms 4,096, routers 128 × 2,688 + correction bias 128, and 53 RMSNorms of 2,688.
  const std::int64_t bf16 = 2LL * 131072 * 2688 + 6LL * (2 * 4096 * 2688 + 2 * 256 * 2688) +
                            6LL * (10304 * 2688 + 2688 * 4096) + 23LL * (6144 * 4 + 6144 + 3 * 64 + 4096) +
                            23LL * (128 * 2688 + 128) + 53LL * 2688;
  CHECK(bf16 == 1'086'128'448);
  // nvfp4 stores 16 values in 9 bytes (e2m1 codes + an e4m3 scale) and two fp32 scales per tensor
  // (weight_scale_2, input_scale): 23 × (256 + 2) + 17 × 2 = 5,968 quantized tensors.
  CHECK(computed_checkpoint_bytes(*m).in_bytes() == fp4 / 16 * 9 + bf16 * 2 + 5'968LL * 8);
}

TEST_CASE("Qwen3.6-35B-A3B NVFP4 (ModelOpt MIXED_PRECISION): experts and lm_head nvfp4, projections fp8, the rest bf16",
          "[catalog][checkpoint][nvfp4]") {
  const CatalogModel* m = test::catalog().find_model("nvidia/Qwen3.6-35B-A3B-NVFP4");
  REQUIRE(m != nullptr);
  // W4A16_NVFP4: 40 layers × 256 experts × (gate, up, down) 512 × 2,048, the 40 shared experts 3 × 512 × 2,048,
  // and lm_head 248,320 × 2,048; one fp32 global scale for each of the 30,841 tensors.
  const std::int64_t fp4 = 40LL * 256 * 3 * 512 * 2048 + 40LL * 3 * 512 * 2048 + 248320LL * 2048;
  CHECK(fp4 == 32'846'643'200);
  // FP8 per tensor: the 10 full-attention layers' q (2,048 → 16 heads × 256 × 2 with the output gate), k and v
  // (2 × 256) and o (4,096 → 2,048); the 30 Gated DeltaNet layers' in_proj_qkv + in_proj_z (2 × 2,048 + 2 × 4,096
  // outputs), in_proj_b + in_proj_a (2 × 32, counted with them) and out_proj (4,096 → 2,048); one fp32 scale each.
  const std::int64_t fp8 = 10LL * 2048 * (8192 + 512 + 512) + 10LL * 4096 * 2048 +
                           30LL * 2048 * (4096 + 8192 + 64) + 30LL * 4096 * 2048;
  CHECK(fp8 == 1'283'194'880);
  // Everything quantized_layers does not name stays bf16: embeddings, norms, routers, conv1d, the vision tower and
  // the mtp layer (its experts too).
  const std::int64_t params = parameter_count(m->model.tensors);
  const std::int64_t bytes = computed_checkpoint_bytes(*m).in_bytes();
  CHECK(bytes == fp4 / 16 * 9 + 30'841LL * 4 + fp8 + 130LL * 4 + (params - fp4 - fp8) * 2);
  // vLLM 0.22.1 on this repository: "Checkpoint size: 21.82 GiB" (a public startup log, code-index file id
  // 56970046574), printed to 0.01 GiB. As fp8 everywhere (the quant_algo read as the whole checkpoint's),
  // the same count would be 34 GiB.
  CHECK(std::abs(static_cast<double>(bytes) / (1LL << 30) / 21.82 - 1.0) < 0.002);
}

TEST_CASE("every GPU states the memory the framework sees, with a source", "[catalog][gpus]") {
  const auto& gpus = test::catalog().gpus();
  for (const char* id :
       {"RTX-3090",  "RTX-4080",       "RTX-4090",      "RTX-5090",      "L4",        "A10",       "A10G",
        "L40S",      "RTX-A6000",      "RTX-6000-Ada",  "RTX-PRO-6000",  "P40",       "A100-40GB", "A100-80GB",
        "A800-80GB", "H100-PCIe-80GB", "H100-SXM-80GB", "H100-NVL-94GB", "H800-80GB", "H20",       "GH200",
        "H200",      "B200",           "B300",          "MI300X",        "MI325X",    "MI355X"}) {
    CAPTURE(id);
    const Gpu* g = test::catalog().find_gpu(id);
    REQUIRE(g != nullptr);
    CHECK(!g->memory_source.empty());
    // GPU memory is sold in binary units ("80 GB" HBM = 80 GiB physical); the
    // driver reserves part of it, so what CUDA reports is a little less.
    CHECK(g->memory.in(kGiB) < g->marketing_gb);
    CHECK(g->memory.in(kGiB) > g->marketing_gb * 0.9);
  }
  CHECK(gpus.size() >= 27);
  // H100 80GB HBM3: 81,090 MiB seen by CUDA (79.19 GiB), sold as 80 GB.
  CHECK(test::catalog().find_gpu("H100-SXM-80GB")->memory.in_bytes() == 85'029'158'912);
  CHECK(test::catalog().find_gpu("H100-SXM-80GB")->sm_count == 132);
  CHECK(test::catalog().find_gpu("H100-SXM-80GB")->compute_capability == 90);
  CHECK(test::catalog().find_gpu("MI300X")->compute_capability == 0);  // not CUDA
}

TEST_CASE("catalog labels name the checkpoint's own format", "[catalog]") {
  const nlohmann::json summary = catalog_summary_json(test::catalog());
  auto dtype_of = [&](const std::string& id) {
    for (const auto& m : summary["models"])
      if (m["id"] == id) return m["dtype"].get<std::string>();
    return std::string("(missing)");
  };
  CHECK(dtype_of("openai/gpt-oss-20b") == "mxfp4");
  CHECK(dtype_of("deepseek-ai/DeepSeek-V3") == "fp8");
  CHECK(dtype_of("meta-llama/Llama-3.1-8B") == "bf16");
}

namespace {
/// The embedded catalog's GPU list and one model file, plus `extra` files.
std::vector<CatalogFile> small_catalog(std::vector<CatalogFile> extra) {
  std::vector<CatalogFile> files;
  for (auto& f : embedded_catalog_files()) {
    if (f.name == "gpus.json" || f.name == "meta-llama__Llama-3.1-8B.json") files.push_back(std::move(f));
  }
  REQUIRE(files.size() == 2);
  for (auto& f : extra) files.push_back(std::move(f));
  return files;
}
}  // namespace

/// "path: message" of the InputError `f` throws, or "(no error)".
template <typename F>
std::string input_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.path() + ": " + e.what();
  }
  return "(no error)";
}

TEST_CASE("a model file is read when the model is first asked for, and its errors name the file", "[catalog]") {
  // A broken file does not stop the others from being used; asking for it, or for every model, names it.
  const Catalog c(small_catalog({{"acme__Broken-1B.json", R"({"id":"acme/Broken-1B","config":{"model_type":)"}}));
  CHECK(c.model_count() == 2);
  const CatalogModel* llama = c.find_model("meta-llama/Llama-3.1-8B");
  REQUIRE(llama != nullptr);
  CHECK(parameter_count(llama->model.tensors) == 8'030'261'248);
  CHECK(c.find_model("meta-llama/Llama-3.1-8B") == llama);  // read once, then kept
  CHECK(c.find_model("acme/Missing-1B") == nullptr);
  CHECK(input_error([&] { c.find_model("acme/Broken-1B"); }) ==
        "/acme__Broken-1B.json: is not valid JSON: malformed JSON at byte offset 46: syntax error while parsing value - "
        "unexpected end of input; expected '[', '{', or a literal");
  CHECK_THAT(input_error([&] { c.models(); }), Catch::StartsWith("/acme__Broken-1B.json: is not valid JSON: malformed JSON"));
  // A key written twice in a catalog file is named, not silently resolved.
  const Catalog twice(small_catalog({{"acme__Twice-1B.json", R"({"id":"acme/Twice-1B","id":"acme/Twice-1B","config":{}})"}}));
  CHECK(input_error([&] { twice.find_model("acme/Twice-1B"); }) ==
        "/acme__Twice-1B.json/id: is not valid JSON: duplicate key \"id\": each field may appear once in an object");
}

TEST_CASE("a pipeline's components are read on first use; a list of pipelines reads none", "[catalog]") {
  // A pipeline whose components cannot be read: the catalog and the light summary list it by its
  // top-level fields; asking for the pipeline itself names the file and the field.
  const Catalog c(small_catalog({{"pipelines/acme__Broken-Video.json",
                                  R"({"id":"acme/Broken-Video","aliases":["acme/bv"],"modality":"video",)"
                                  R"("native":{"width":832,"height":480,"frames":81,"max_frames":81},"components":[]})"}}));
  CHECK(c.has_pipeline("acme/Broken-Video"));
  CHECK(c.has_pipeline("acme/bv"));
  CHECK_FALSE(c.has_pipeline("acme/Other"));
  const auto light = catalog_summary_json(c, false);
  REQUIRE(light.at("pipelines").size() == 1);
  const auto& entry = light.at("pipelines")[0];
  CHECK(entry.at("id") == "acme/Broken-Video");
  CHECK(entry.at("aliases") == nlohmann::json::array({"acme/bv"}));
  CHECK(entry.at("modality") == "video");
  CHECK(entry.at("frames") == 81);
  CHECK(!entry.contains("components"));
  CHECK(input_error([&] { c.find_pipeline("acme/bv"); }) ==
        "/pipelines/acme__Broken-Video.json/components: is required: a list of components");
  CHECK_THAT(input_error([&] { (void)catalog_summary_json(c, true); }),
             Catch::StartsWith("/pipelines/acme__Broken-Video.json/components: is required"));
  // A top-level field that cannot be read is named when the catalog is built, as before.
  CHECK(input_error([] { Catalog bad(small_catalog({{"pipelines/acme__No-Id.json", R"({"native":{}})"}})); }) ==
        "/pipelines/acme__No-Id.json/id: is required: the Hugging Face repository id");
}

TEST_CASE("the light summary lists every catalog pipeline as the full one does, less the components", "[catalog]") {
  const auto light = catalog_summary_json(test::catalog(), false).at("pipelines");
  auto full = catalog_summary_json(test::catalog()).at("pipelines");
  REQUIRE(light.size() == test::catalog().pipelines().size());
  for (auto& p : full) p.erase("components");
  CHECK(light == full);
  // Read once, then kept: the same object by id and by alias.
  CHECK(test::catalog().find_pipeline("black-forest-labs/FLUX.1-dev") ==
        test::catalog().find_pipeline("black-forest-labs/FLUX.1-dev"));
}

TEST_CASE("find_model finds every catalog model by its exact id, and nothing else", "[catalog]") {
  const Catalog& c = test::catalog();
  std::set<std::string> ids;
  for (const CatalogModel* m : c.models()) ids.insert(m->id);
  REQUIRE(ids.size() == c.model_count());
  for (const CatalogModel* m : c.models()) {
    CAPTURE(m->id);
    CHECK(c.find_model(m->id) == m);
    CHECK(c.find_model(m->id + "x") == nullptr);
    const std::string shorter = m->id.substr(0, m->id.size() - 1);
    if (!ids.count(shorter)) CHECK(c.find_model(shorter) == nullptr);
  }
  CHECK(c.find_model("") == nullptr);
  CHECK(c.find_model("zzzz/after-every-id") == nullptr);
  CHECK(c.find_model("0/before-every-id") == nullptr);
}

TEST_CASE("a model file is named after its id", "[catalog]") {
  CHECK(input_error([] { Catalog c(small_catalog({{"broken.json", "{}"}})); }) ==
        "/broken.json: a model file is named after its id, <org>__<name>.json");
  const Catalog c(small_catalog({{"acme__Other-1B.json", R"({"id":"acme/Named-1B","config":{}})"}}));
  CHECK(input_error([&] { c.find_model("acme/Other-1B"); }) ==
        "/acme__Other-1B.json/id: is \"acme/Named-1B\" but the file is named for \"acme/Other-1B\"");
}

TEST_CASE("the catalog summary without models reads no model file", "[catalog]") {
  const Catalog c(small_catalog({{"acme__Broken-1B.json", "{"}}));
  const auto light = catalog_summary_json(c, false);
  CHECK(light.at("model_count") == 2);
  CHECK(!light.contains("models"));
  CHECK(light.at("gpus").size() == c.gpus().size());
  CHECK_THAT(input_error([&] { (void)catalog_summary_json(c, true); }),
             Catch::StartsWith("/acme__Broken-1B.json: is not valid JSON: malformed JSON"));
  // The full summary lists every model; the model a face shows first is one of them.
  const auto full = catalog_summary_json(test::catalog());
  CHECK(full.at("models").size() == full.at("model_count").get<std::size_t>());
  const std::string shown = full.at("defaults").at("model");
  CHECK(shown == kShownModel);
  CHECK(test::catalog().find_model(shown) != nullptr);
}

TEST_CASE("the catalog summary is ASCII JSON text with each engine's fields and defaults", "[catalog]") {
  const std::string text = catalog_summary_text(test::catalog(), false);
  CHECK(std::all_of(text.begin(), text.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; }));
  const auto j = nlohmann::json::parse(text);
  const auto& engines = j.at("defaults").at("engines");
  CHECK(engines.at("vllm").at("fields").size() == kVllmFields.size());
  CHECK(engines.at("vllm").at("fields")[0] == std::string(kVllmFields[0]));
  CHECK(engines.at("vllm").at("headroom_applies") == false);
  CHECK(engines.at("vllm").at("gpu_memory_utilization") == VllmSettings{}.gpu_memory_utilization);
  CHECK(engines.at("llama.cpp").at("headroom_applies") == true);
  CHECK(engines.at("llama.cpp").at("n_ubatch") == LlamaCppSettings{}.n_ubatch);
  CHECK(engines.at("transformers").at("nbits").at("hqq") == nlohmann::json::array({1, 2, 3, 4, 8}));
  CHECK(j.at("defaults").at("gpu") == kDefaultGpu);
  CHECK(j.at("defaults").at("training_defaults").at("lora_targets") == "all-linear");
  CHECK(j.at("engines") == nlohmann::json::array({"vllm", "llama.cpp", "transformers"}));
  CHECK(j.at("kv_cache_dtypes").size() == 10);
  // A GPU without a price says null, not 0.
  for (const auto& g : j.at("gpus")) CHECK((g.at("price_usd_per_hour").is_null() || g.at("price_usd_per_hour") > 0));
}
