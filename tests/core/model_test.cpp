#include "vram/model.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/error.hpp"

using namespace vram;
using nlohmann::json;

namespace {

json llama31_8b() {
  return {{"model_type", "llama"},        {"hidden_size", 4096},
          {"intermediate_size", 14336},   {"num_hidden_layers", 32},
          {"num_attention_heads", 32},    {"num_key_value_heads", 8},
          {"vocab_size", 128256},         {"max_position_embeddings", 131072},
          {"tie_word_embeddings", false}, {"torch_dtype", "bfloat16"}};
}

std::string error_path(const json& config) {
  try {
    (void)model_from_config(config, "/model/config", "x");
  } catch (const InputError& e) {
    return e.path();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("Llama-3.1-8B parameters counted exactly from config.json", "[model]") {
  const Model m = model_from_config(llama31_8b(), "/model/config", "x");
  // embed + lm_head: 2 × 128,256 × 4,096 = 1,050,673,152
  // per layer: q 16,777,216 + k 4,194,304 + v 4,194,304 + o 16,777,216
  //            + gate/up/down 3 × 58,720,256 + 2 norms × 4,096 = 218,112,000
  // 32 layers = 6,979,584,000; final norm 4,096
  CHECK(parameter_count(m.tensors) == 1'050'673'152 + 6'979'584'000 + 4'096);
  CHECK(m.arch.head_dim == 128);
  CHECK(m.arch.native_dtype == "bf16");
  CHECK(m.arch.layer_specs.size() == 32);
}

TEST_CASE("tied embeddings are stored once", "[model]") {
  json c = llama31_8b();
  c["tie_word_embeddings"] = true;
  CHECK(parameter_count(model_from_config(c, "/c", "x").tensors) == 8'030'261'248 - 525'336'576);
}

TEST_CASE("an explicit head_dim overrides hidden / heads", "[model]") {
  // Qwen3-32B: 64 heads × 128 = 8,192 ≠ hidden 5,120
  const CatalogModel* m = test::catalog().find_model("Qwen/Qwen3-32B");
  REQUIRE(m != nullptr);
  CHECK(m->model.arch.head_dim == 128);
  CHECK(parameter_count(m->model.tensors) == 32'762'123'264);
}

TEST_CASE("architecture families count as their checkpoints do", "[model]") {
  const std::pair<const char*, std::int64_t> counts[] = {
      {"mistralai/Mixtral-8x7B-v0.1", 46'702'792'704},   // MoE, 8 experts
      {"Qwen/Qwen3-30B-A3B", 30'532'122'624},            // MoE, 128 experts, qk-norm
      {"deepseek-ai/DeepSeek-V2-Lite", 15'706'484'224},  // MLA + shared experts, first layer dense
      {"openai/gpt-oss-20b", 20'914'757'184},            // biases, sinks, alternating sliding window
      {"ai21labs/Jamba-v0.1", 51'570'323'328},           // Mamba + attention + MoE
      {"tiiuae/falcon-mamba-7b", 7'272'665'088},         // attention-free
      {"bigscience/bloomz-7b1", 7'069'016'064},          // ALiBi, fused qkv, LayerNorm biases
      {"bigscience/T0_3B", 2'849'757'184},               // encoder-decoder
      {"microsoft/phi-2", 2'779'683'840},                // parallel block, dense MLP with biases
      {"google/gemma-3-27b-it", 27'432'406'640},  // text 27,009,346,304 + SigLIP 416,866,032 + projector 6,194,304
  };
  for (const auto& [id, n] : counts) {
    CAPTURE(id);
    const CatalogModel* m = test::catalog().find_model(id);
    REQUIRE(m != nullptr);
    CHECK(parameter_count(m->model.tensors) == n);
  }
}

TEST_CASE("DeepSeek-V3 stores its multi-token-prediction layer beside the 671B model", "[model]") {
  const CatalogModel* m = test::catalog().find_model("deepseek-ai/DeepSeek-V3");
  REQUIRE(m != nullptr);
  CHECK(parameter_count(m->model.tensors, TensorStage::text) == 671'026'419'200);
  CHECK(parameter_count(m->model.tensors) == 684'489'845'504);
  CHECK(m->model.arch.layer_specs[0].kind == LayerKind::mla);
  CHECK_FALSE(m->model.arch.layer_specs[2].moe);  // first_k_dense_replace = 3
  CHECK(m->model.arch.layer_specs[3].moe);
}

TEST_CASE("active parameters count only the routed experts per token", "[model]") {
  const CatalogModel* m = test::catalog().find_model("mistralai/Mixtral-8x7B-v0.1");
  REQUIRE(m != nullptr);
  // 46,702,792,704 − 32 layers × 6 unused experts × 3 × 14,336 × 4,096 = 12,879,925,248
  CHECK(active_parameter_count(m->model) == 12'879'925'248);
}

TEST_CASE("sliding-window layouts are read from the config's own fields", "[model]") {
  auto kinds = [](const char* id) {
    const CatalogModel* m = test::catalog().find_model(id);
    REQUIRE(m != nullptr);
    int sliding = 0;
    for (const auto& l : m->model.arch.layer_specs) sliding += l.kind == LayerKind::sliding_attention;
    return sliding;
  };
  CHECK(kinds("mistralai/Mistral-7B-v0.1") == 32);  // window 4096 on every layer
  CHECK(kinds("mistralai/Mistral-7B-v0.3") == 0);
  CHECK(kinds("google/gemma-2-9b-it") == 21);   // even layers local
  CHECK(kinds("google/gemma-3-27b-it") == 52);  // 5 local : 1 global over 62
  CHECK(kinds("openai/gpt-oss-20b") == 12);     // layer_types
  CHECK(kinds("Qwen/Qwen2.5-7B") == 0);         // use_sliding_window false
}

TEST_CASE("a bare parameter count is one quantizable tensor", "[model][article]") {
  const Model m = model_from_param_count(13'000'000'000);
  CHECK(parameter_count(m.tensors) == 13'000'000'000);
  CHECK(m.arch.family == "bare");
}

TEST_CASE("config errors name the field and what is allowed", "[model][errors]") {
  json c = llama31_8b();
  c["num_key_value_heads"] = 5;
  CHECK(error_path(c) == "/model/config/num_key_value_heads");

  c = llama31_8b();
  c["hidden_size"] = 4100;  // 32 heads do not divide it and no head_dim is given
  CHECK(error_path(c) == "/model/config/num_attention_heads");

  c = llama31_8b();
  c.erase("vocab_size");
  CHECK(error_path(c) == "/model/config/vocab_size");

  c = llama31_8b();
  c["num_hidden_layers"] = -3;
  CHECK(error_path(c) == "/model/config/num_hidden_layers");

  c = llama31_8b();
  c["hidden_size"] = 1e300;
  CHECK(error_path(c) == "/model/config/hidden_size");

  c = llama31_8b();
  c["intermediate_size"] = "big";
  CHECK(error_path(c) == "/model/config/intermediate_size");

  c = llama31_8b();
  c["torch_dtype"] = "float8";
  CHECK(error_path(c) == "/model/config/torch_dtype");

  c = llama31_8b();
  c["layer_types"] = json::array({"full_attention"});  // 1 entry for 32 layers
  CHECK(error_path(c) == "/model/config/layer_types");

  c = llama31_8b();
  c["num_key_value_heads"] = 64;  // more KV heads than attention heads
  CHECK(error_path(c) == "/model/config/num_key_value_heads");

  const json* v3 = &test::catalog().find_model("deepseek-ai/DeepSeek-V3")->config;
  json d = *v3;
  d["first_k_dense_replace"] = 100;  // beyond the 61 layers
  CHECK(error_path(d) == "/model/config/first_k_dense_replace");
  d = *v3;
  d["num_experts_per_tok"] = 300;  // more than the 256 routed experts
  CHECK(error_path(d) == "/model/config/num_experts_per_tok");

  CHECK(error_path(json::array()) == "/model/config");

  c = llama31_8b();  // each field in range, the product absurd
  c["hidden_size"] = 8'000'000;
  c["intermediate_size"] = 9'000'000;
  c["num_hidden_layers"] = 90'000;
  c["head_dim"] = 128;
  CHECK(error_path(c) == "/model/config");
}

TEST_CASE("an unknown model_type is counted from generic fields, with a note", "[model]") {
  json c = llama31_8b();
  c["model_type"] = "brand_new_arch";
  const Model m = model_from_config(c, "/model/config", "x");
  CHECK(parameter_count(m.tensors) == 8'030'261'248);
  REQUIRE_FALSE(m.arch.notes.empty());
  CHECK(m.arch.notes.front().find("brand_new_arch") != std::string::npos);
}

TEST_CASE("multimodal configs read the language model under text_config", "[model]") {
  json c = {{"model_type", "llava"},
            {"text_config", llama31_8b()},
            {"vision_config",
             {{"hidden_size", 1024},
              {"intermediate_size", 4096},
              {"num_hidden_layers", 24},
              {"patch_size", 14},
              {"image_size", 336}}}};
  const Model m = model_from_config(c, "/model/config", "x");
  CHECK(parameter_count(m.tensors, TensorStage::text) == 8'030'261'248);
  // CLIP ViT-L/14-336: patch 3·14·14·1024 + 1024, positions 576 × 1024, 24 blocks of
  // 4(1024² + 1024) + 2·4096·1024 + 4096 + 1024 + 4·1024, post-norm 2·1024;
  // projector 1024·4096 + 4096 + 4096² + 4096.
  const std::int64_t block = 4 * (1024LL * 1024 + 1024) + 2 * 4096LL * 1024 + 4096 + 1024 + 4 * 1024;
  const std::int64_t tower = 3LL * 14 * 14 * 1024 + 1024 + 576LL * 1024 + 24 * block + 2 * 1024;
  const std::int64_t projector = 1024LL * 4096 + 4096 + 4096LL * 4096 + 4096;
  CHECK(parameter_count(m.tensors, TensorStage::vision) == tower + projector);
}

TEST_CASE("vision towers with a family layout are counted exactly", "[model][vision]") {
  auto vision = [](const char* id) {
    const CatalogModel* m = test::catalog().find_model(id);
    REQUIRE(m != nullptr);
    return parameter_count(m->model.tensors, TensorStage::vision);
  };
  // Mllama: patch conv 752,640 + class 1,280 + gated positions 2,049,281 + tile positions
  // 73,774,080 + pre/post tile 2 × 46,081 + layernorms 5,120 + 32 local layers × 19,672,320
  // + 8 global layers × 19,672,322 = 863,567,379; projector 7,680 × 4,096 + 4,096 = 31,461,376.
  CHECK(vision("meta-llama/Llama-3.2-11B-Vision") == 863'567'379 + 31'461'376);
  // Pixtral: patch conv 602,112 + ln_pre 1,024 + 24 × 16,779,264 = 403,305,472;
  // Mistral3 projector: norm 1,024 + merger 4,194,304 + 5,242,880 + 26,214,400 = 35,652,608.
  CHECK(vision("mistralai/Mistral-Small-3.1-24B-Instruct-2503") == 403'305'472 + 35'652'608);
  // Llama 4: patch 827,904 + class 1,408 + positions 812,416 + layernorms 5,632
  // + 34 × 23,807,872 + pixel-shuffle MLP 39,845,888 = 850,960,896; projector 4,096 × 5,120.
  CHECK(vision("meta-llama/Llama-4-Scout-17B-16E-Instruct") == 850'960'896 + 20'971'520);
  // Granite Vision (LLaVA-NeXT over SigLIP so400m/384): tower 428,225,600 including the
  // pooling head 15,238,352; projector 4 × 1,152 → 2,048 → 2,048 with biases + image_newline
  // = 13,637,632. The sum with the 2,533,533,696-parameter text model equals the public
  // count of granite-vision-3.2-2b, 2,975,396,928.
  CHECK(vision("ibm-granite/granite-vision-3.3-2b") == 2'975'396'928 - 2'533'533'696);
  // Mllama text: 8 cross-attention layers add q/k norms and two gates; 8 image-token embedding rows.
  CHECK(parameter_count(test::catalog().find_model("meta-llama/Llama-3.2-11B-Vision")->model.tensors,
                        TensorStage::text) == 9'775'192'080);
}
