#include "vram/model.hpp"

#include <algorithm>
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

std::string config_error_path(const json& config) {
  try {
    (void)model_from_config(config, "/model/config", "x");
  } catch (const InputError& e) {
    return e.path();
  }
  return "(no error)";
}

std::string error_message(const json& config) {
  try {
    (void)model_from_config(config, "/model/config", "x");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

json catalog_config(const char* id) {
  const CatalogModel* m = test::catalog().find_model(id);
  REQUIRE(m != nullptr);
  return m->config;
}

json with(json c, const json::json_pointer& at, json value) {
  c[at] = std::move(value);
  return c;
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
  CHECK(m.arch.family == Family::bare);
}

TEST_CASE("config errors name the field and what is allowed", "[model][errors]") {
  json c = llama31_8b();
  c["num_key_value_heads"] = 5;
  CHECK(config_error_path(c) == "/model/config/num_key_value_heads");

  c = llama31_8b();
  c["hidden_size"] = 4100;  // 32 heads do not divide it and no head_dim is given
  CHECK(config_error_path(c) == "/model/config/num_attention_heads");

  c = llama31_8b();
  c.erase("vocab_size");
  CHECK(config_error_path(c) == "/model/config/vocab_size");

  c = llama31_8b();
  c["num_hidden_layers"] = -3;
  CHECK(config_error_path(c) == "/model/config/num_hidden_layers");

  c = llama31_8b();
  c["hidden_size"] = 1e300;
  CHECK(config_error_path(c) == "/model/config/hidden_size");

  c = llama31_8b();
  c["intermediate_size"] = "big";
  CHECK(config_error_path(c) == "/model/config/intermediate_size");

  c = llama31_8b();
  c["torch_dtype"] = "float8";
  CHECK(config_error_path(c) == "/model/config/torch_dtype");

  c = llama31_8b();
  c["layer_types"] = json::array({"full_attention"});  // 1 entry for 32 layers
  CHECK(config_error_path(c) == "/model/config/layer_types");

  c = llama31_8b();
  c["num_key_value_heads"] = 64;  // more KV heads than attention heads
  CHECK(config_error_path(c) == "/model/config/num_key_value_heads");

  const json* v3 = &test::catalog().find_model("deepseek-ai/DeepSeek-V3")->config;
  json d = *v3;
  d["first_k_dense_replace"] = 100;  // beyond the 61 layers
  CHECK(config_error_path(d) == "/model/config/first_k_dense_replace");
  d = *v3;
  d["num_experts_per_tok"] = 300;  // more than the 256 routed experts
  CHECK(config_error_path(d) == "/model/config/num_experts_per_tok");

  CHECK(config_error_path(json::array()) == "/model/config");

  c = llama31_8b();  // each field in range, the product absurd: the MLPs are most of it
  c["hidden_size"] = 8'000'000;
  c["intermediate_size"] = 9'000'000;
  c["num_hidden_layers"] = 500;
  c["head_dim"] = 128;
  CHECK(config_error_path(c) == "/model/config/intermediate_size");

  c = llama31_8b();
  c.erase("torch_dtype");
  c["dtype"] = "float8";  // the newer spelling of the key is the one named
  CHECK(config_error_path(c) == "/model/config/dtype");
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

TEST_CASE("a config container of the wrong type is an error at its field", "[model][errors]") {
  using P = json::json_pointer;
  const json llama = llama31_8b();
  CHECK(config_error_path(with(llama, P("/layer_types"), "full_attention")) == "/model/config/layer_types");
  CHECK(error_message(with(llama, P("/layer_types"), "full_attention")).find("must be an array") != std::string::npos);
  CHECK(config_error_path(with(llama, P("/text_config"), "llama")) == "/model/config/text_config");
  CHECK(error_message(with(llama, P("/text_config"), "llama")).find("must be an object") != std::string::npos);
  CHECK(config_error_path(with(llama, P("/vision_config"), 5)) == "/model/config/vision_config");
  CHECK(error_message(with(llama, P("/vision_config"), 5)).find("must be an object") != std::string::npos);
  CHECK(config_error_path(with(llama, P("/cross_attention_layers"), "3")) == "/model/config/cross_attention_layers");
  const json qwen3_moe = catalog_config("Qwen/Qwen3-30B-A3B");  // mlp_only_layers is read where there are experts
  CHECK(config_error_path(with(qwen3_moe, P("/mlp_only_layers"), 0)) == "/model/config/mlp_only_layers");

  const json llava = {
      {"model_type", "llava"},
      {"text_config", llama31_8b()},
      {"vision_config", {{"hidden_size", 1024}, {"intermediate_size", 4096}, {"num_hidden_layers", 24}}}};
  CHECK(config_error_path(with(llava, P("/vision_feature_layer"), "last")) == "/model/config/vision_feature_layer");
  CHECK(config_error_path(with(llava, P("/vision_feature_layer"), json::object())) == "/model/config/vision_feature_layer");

  const json mllama = catalog_config("meta-llama/Llama-3.2-11B-Vision");
  CHECK(config_error_path(with(mllama, P("/vision_config/supported_aspect_ratios"), json::object())) ==
        "/model/config/vision_config/supported_aspect_ratios");
  const json llama4 = catalog_config("meta-llama/Llama-4-Scout-17B-16E-Instruct");
  CHECK(config_error_path(with(llama4, P("/text_config/no_rope_layers"), "1,1,1,0")) ==
        "/model/config/text_config/no_rope_layers");

  // null is "not stated", as for every other field: the defaults apply.
  const std::int64_t n = parameter_count(model_from_config(llama, "/model/config", "x").tensors);
  for (const char* key : {"layer_types", "text_config", "vision_config", "cross_attention_layers"}) {
    CAPTURE(key);
    CHECK(parameter_count(model_from_config(with(llama, P(std::string("/") + key), nullptr), "/c", "x").tensors) == n);
  }
}

TEST_CASE("layer lists name the entry that is not a layer", "[model][errors]") {
  using P = json::json_pointer;
  const json llama = llama31_8b();  // 32 layers
  CHECK(config_error_path(with(llama, P("/cross_attention_layers"), {3, 32})) == "/model/config/cross_attention_layers/1");
  CHECK(error_message(with(llama, P("/cross_attention_layers"), {3, 32})).find("from 0 to 31") != std::string::npos);
  CHECK(config_error_path(with(llama, P("/cross_attention_layers"), {-1})) == "/model/config/cross_attention_layers/0");

  const json qwen3_moe = catalog_config("Qwen/Qwen3-30B-A3B");
  CHECK(config_error_path(with(qwen3_moe, P("/mlp_only_layers"), {0, "1"})) == "/model/config/mlp_only_layers/1");
  // A valid list still takes effect: layer 0 becomes dense.
  const Model m = model_from_config(with(qwen3_moe, P("/mlp_only_layers"), {0}), "/model/config", "x");
  CHECK_FALSE(m.arch.layer_specs[0].moe);
  CHECK(m.arch.layer_specs[1].moe);

  json llama4 = catalog_config("meta-llama/Llama-4-Scout-17B-16E-Instruct");
  const auto layers = llama4["text_config"]["num_hidden_layers"].get<std::size_t>();
  CHECK(config_error_path(with(llama4, P("/text_config/no_rope_layers"), json::array({1, 1, 0}))) ==
        "/model/config/text_config/no_rope_layers");
  json rope(layers, 1);
  rope[5] = 2;
  CHECK(config_error_path(with(llama4, P("/text_config/no_rope_layers"), rope)) ==
        "/model/config/text_config/no_rope_layers/5");
  rope = json(layers, 1);
  rope[0] = 0;  // layer 0 global (NoPE), every other layer chunked
  const Model l4 = model_from_config(with(llama4, P("/text_config/no_rope_layers"), rope), "/model/config", "x");
  CHECK(l4.arch.layer_specs[0].kind == LayerKind::full_attention);
  CHECK(l4.arch.layer_specs[3].kind == LayerKind::chunked_attention);  // global by the interval rule otherwise

  const json llava = {
      {"model_type", "llava"},
      {"text_config", llama31_8b()},
      {"vision_config", {{"hidden_size", 1024}, {"intermediate_size", 4096}, {"num_hidden_layers", 24}}},
      {"vision_feature_layer", {-2, "x"}}};
  CHECK(config_error_path(llava) == "/model/config/vision_feature_layer/1");
}

TEST_CASE("Qwen2-VL and Qwen2.5-VL towers are counted exactly", "[model][vision]") {
  // The 7B language model: 28 layers of width 3,584 (q/k/v with biases, 4 KV heads of 128),
  // MLP 18,944, vocabulary 152,064, untied head: 7,615,616,512 parameters.
  json lm = {{"hidden_size", 3584},      {"intermediate_size", 18944}, {"num_hidden_layers", 28},
             {"num_attention_heads", 28}, {"num_key_value_heads", 4},   {"vocab_size", 152064},
             {"tie_word_embeddings", false}, {"rms_norm_eps", 1e-6},    {"max_position_embeddings", 128000}};
  json v25 = lm;
  v25["model_type"] = "qwen2_5_vl";
  v25["vision_config"] = {{"depth", 32},           {"hidden_size", 1280},        {"intermediate_size", 3420},
                          {"num_heads", 16},       {"in_chans", 3},              {"out_hidden_size", 3584},
                          {"patch_size", 14},      {"spatial_merge_size", 2},    {"temporal_patch_size", 2}};
  // Patch Conv3d 3 × 2 × 14² × 1,280 = 1,505,280 (no bias); 32 blocks × (2 RMSNorms 2,560 + qkv 4,919,040 +
  // proj 1,639,680 + gate/up 2 × 4,381,020 + down 4,378,880 = 19,702,200); merger RMSNorm 1,280 +
  // 5,120² + 5,120 + 5,120 × 3,584 + 3,584 = 44,574,464. Tower 676,550,144; with the language model
  // 8,292,166,656, Qwen2.5-VL-7B's published size (8.29B).
  const Model m25 = model_from_config(v25, "/model/config", "x");
  CHECK(parameter_count(m25.tensors, TensorStage::vision) == 676'550'144);
  CHECK(parameter_count(m25.tensors) == 8'292'166'656);
  json v2 = lm;
  v2["model_type"] = "qwen2_vl";
  v2["vision_config"] = {{"depth", 32},      {"embed_dim", 1280},      {"mlp_ratio", 4},
                         {"num_heads", 16},  {"in_chans", 3},          {"hidden_size", 3584},
                         {"patch_size", 14}, {"spatial_merge_size", 2}, {"temporal_patch_size", 2}};
  // 32 blocks × (2 LayerNorms 5,120 + qkv 4,919,040 + proj 1,639,680 + fc1 6,558,720 + fc2 6,554,880 =
  // 19,677,440) + patch 1,505,280 + merger LayerNorm 2,560 + 44,573,184 = 675,759,104; total
  // 8,291,375,616, Qwen2-VL-7B's published size (8.29B).
  const Model m2 = model_from_config(v2, "/model/config", "x");
  CHECK(parameter_count(m2.tensors, TensorStage::vision) == 675'759'104);
  CHECK(parameter_count(m2.tensors) == 8'291'375'616);
}

TEST_CASE("a generic vision tower may state its width as embed_dim and its depth as depth", "[model][vision]") {
  // A model_type without an exact tower layout reads only the generic fields and their aliases.
  const json c = {
      {"model_type", "llava"},
      {"text_config", llama31_8b()},
      {"vision_config",
       {{"embed_dim", 1024}, {"depth", 24}, {"mlp_ratio_dim", 4096}, {"patch_size", 14}, {"image_size", 336}}}};
  const Model m = model_from_config(c, "/model/config", "x");
  const std::int64_t block = 4 * (1024LL * 1024 + 1024) + 2 * 4096LL * 1024 + 4096 + 1024 + 4 * 1024;
  const std::int64_t tower = 3LL * 14 * 14 * 1024 + 1024 + 576LL * 1024 + 24 * block + 2 * 1024;
  const std::int64_t projector = 1024LL * 4096 + 4096 + 4096LL * 4096 + 4096;
  CHECK(parameter_count(m.tensors, TensorStage::vision) == tower + projector);
}

TEST_CASE("MoonViT's vt_* names (Kimi-K2.5) are read as the generic tower's width, depth and MLP width",
          "[model][vision]") {
  // Kimi-K2.5's vision_config: vt_hidden_size 1152, vt_num_hidden_layers 27, vt_intermediate_size 4304, patch 14.
  json c = {{"model_type", "kimi_k25"},
            {"text_config", llama31_8b()},
            {"vision_config",
             {{"vt_hidden_size", 1152}, {"vt_num_hidden_layers", 27}, {"vt_intermediate_size", 4304}, {"patch_size", 14}}}};
  const Model m = model_from_config(c, "/model/config", "x");
  const std::int64_t block = 4 * (1152LL * 1152 + 1152) + 2 * 4304LL * 1152 + 4304 + 1152 + 4 * 1152;
  const std::int64_t tower = 3LL * 14 * 14 * 1152 + 1152 + 27 * block + 2 * 1152;  // no image_size: no learned positions
  const std::int64_t projector = 1152LL * 4096 + 4096 + 4096LL * 4096 + 4096;
  CHECK(parameter_count(m.tensors, TensorStage::vision) == tower + projector);
  // The generic layout is an approximation, and the model says so.
  CHECK(std::any_of(m.arch.notes.begin(), m.arch.notes.end(),
                    [](const std::string& n) { return n.find("generic ViT layout (27 blocks of width 1152)") != std::string::npos; }));
  // Without a width under any of its names, the tower is refused at the field.
  c["vision_config"].erase("vt_hidden_size");
  CHECK(config_error_path(c) == "/model/config/vision_config/hidden_size");
}

TEST_CASE("configs beyond 10^14 parameters are refused at the field behind the largest part", "[model][errors]") {
  // 100,000 experts of width 14,336 at hidden 4,096 on 32 layers: 5.6 × 10^14.
  json c = llama31_8b();
  c["num_local_experts"] = 100'000;
  c["num_experts_per_tok"] = 2;
  c["moe_intermediate_size"] = 14'336;
  CHECK(config_error_path(c) == "/model/config/num_local_experts");
  CHECK(error_message(c).find("10^14") != std::string::npos);
  c["num_local_experts"] = 8;  // Mixtral-sized: fine
  CHECK(config_error_path(c) == "(no error)");

  // Mamba: a 10^7 × 10^7 state on 500 layers (1.5 × 10^17), at hidden 1.
  const json mamba = {{"model_type", "mamba"},    {"hidden_size", 1},  {"intermediate_size", 10'000'000},
                      {"state_size", 10'000'000}, {"vocab_size", 100}, {"num_hidden_layers", 500}};
  CHECK(config_error_path(mamba) == "/model/config/state_size");
  json wide = mamba;  // the projections instead: hidden 10^7, expand 100,000 → width 10^12
  wide.erase("intermediate_size");
  wide["hidden_size"] = 10'000'000;
  wide["expand"] = 100'000;
  wide["state_size"] = 16;
  CHECK(config_error_path(wide) == "/model/config/expand");
  json dt = mamba;
  dt["state_size"] = 16;
  dt["time_step_rank"] = 10'000'000;
  CHECK(config_error_path(dt) == "/model/config/time_step_rank");
  json jamba = catalog_config("ai21labs/Jamba-v0.1");
  jamba["mamba_expand"] = 64;  // SSM width 262,144
  jamba["mamba_d_state"] = 10'000'000;
  CHECK(config_error_path(jamba) == "/model/config/mamba_d_state");

  // A dense model of about 1.1 × 10^14 (each field in range) is refused; half as deep is not.
  json dense = llama31_8b();
  dense["hidden_size"] = 32'768;
  dense["intermediate_size"] = 2'097'152;
  dense["num_hidden_layers"] = 512;
  dense["num_attention_heads"] = 256;
  CHECK(config_error_path(dense) == "/model/config/intermediate_size");
  dense["num_hidden_layers"] = 256;
  CHECK(config_error_path(dense) == "(no error)");
}

TEST_CASE("the exact count of the inventory is held to the same limit", "[model][errors]") {
  // The shape estimate leaves out per-layer vectors (conv bias, D, dt bias: 3 × 10^7
  // per layer here), so it stays just under 10^14 while the inventory is just over.
  const json mamba = {{"model_type", "mamba"}, {"hidden_size", 1},  {"intermediate_size", 10'000'000},
                      {"state_size", 6'507},   {"vocab_size", 100}, {"num_hidden_layers", 512}};
  CHECK(config_error_path(mamba) == "/model/config");
  CHECK(error_message(mamba).find("more than 10^14") != std::string::npos);
}

TEST_CASE("parameter sums are checked", "[model]") {
  const std::int64_t big = std::int64_t{1} << 62;
  const std::vector<Tensor> tensors = {{TensorRole::mlp_up, -1, 1, big}, {TensorRole::mlp_down, -1, 1, big}};
  CHECK_THROWS_AS(parameter_count(tensors), ArithmeticOverflow);
  Model m;
  m.tensors = tensors;
  CHECK_THROWS_AS(active_parameter_count(m), ArithmeticOverflow);
}

TEST_CASE("layer counts are bounded so that every sweep stays fast", "[model][errors]") {
  json c = llama31_8b();
  c["num_hidden_layers"] = 512;
  CHECK(config_error_path(c) == "(no error)");
  c["num_hidden_layers"] = 513;
  CHECK(config_error_path(c) == "/model/config/num_hidden_layers");
  c["num_hidden_layers"] = 100'000;
  CHECK(config_error_path(c) == "/model/config/num_hidden_layers");
}

TEST_CASE("Qwen3-VL's language models read as Qwen3 and Qwen3-MoE decoders", "[model]") {
  for (const char* id : {"Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-VL-30B-A3B-Instruct"}) {
    CAPTURE(id);
    const Architecture& a = test::arch(id);
    CHECK(a.block.qk_norm);  // q_norm and k_norm per layer, as Qwen3's
    const Report r = test::run({{"model", id}, {"inference", {{"context", 8192}}}});
    CHECK(std::none_of(r.warnings.begin(), r.warnings.end(),
                       [](const std::string& w) { return w.find("not a known family") != std::string::npos; }));
  }
  CHECK(test::arch("Qwen/Qwen3-VL-30B-A3B-Instruct").experts == 128);
}
