#include "vram/formats.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "vram/error.hpp"

using namespace vram;
using nlohmann::json;

namespace {
Codec linear_of(const char* name) {
  return parse_weight_format(json(name), "/weights", "bf16").linear;
}
}  // namespace

TEST_CASE("plain formats: elements × bits / 8", "[formats]") {
  CHECK(stored_bytes(linear_of("bf16"), 4096, 4096).in_bytes() == 33'554'432);
  CHECK(stored_bytes(linear_of("fp32"), 4096, 4096).in_bytes() == 67'108'864);
  CHECK(stored_bytes(linear_of("int4"), 4096, 4096).in_bytes() == 8'388'608);
  CHECK(stored_bytes(linear_of("bf16"), 4096, 4096, 8).in_bytes() == 8 * 33'554'432);
}

TEST_CASE("fp8 and int8 add one fp32 scale per output channel", "[formats]") {
  // 4096 × 4096 × 1 B + 4096 rows × 4 B
  CHECK(stored_bytes(linear_of("fp8"), 4096, 4096).in_bytes() == 16'793'600);
  CHECK(stored_bytes(linear_of("w8a8"), 4096, 4096).in_bytes() == 16'793'600);
}

TEST_CASE("group-quantized 4-bit formats carry scales, zeros and indexes", "[formats]") {
  // payload 4096 × 4096 / 2 = 8,388,608 B; 4096 rows × 32 groups of 128.
  // GPTQ: fp16 scale + 4-bit zero per group = 20 bits → 327,680 B; g_idx 4096 × 4 B = 16,384 B.
  CHECK(stored_bytes(linear_of("gptq-int4"), 4096, 4096).in_bytes() == 8'388'608 + 327'680 + 16'384);
  // AWQ: the same without g_idx.
  CHECK(stored_bytes(linear_of("awq-int4"), 4096, 4096).in_bytes() == 8'388'608 + 327'680);
  // compressed-tensors w4a16: bf16 scale per group (262,144 B) + int64[2] shape (16 B).
  CHECK(stored_bytes(linear_of("w4a16"), 4096, 4096).in_bytes() == 8'388'608 + 262'144 + 16);
  // group_size 32 quadruples the scale cost.
  const Codec g32 = parse_weight_format(json{{"format", "awq-int4"}, {"group_size", 32}}, "/weights", "bf16").linear;
  CHECK(stored_bytes(g32, 4096, 4096).in_bytes() == 8'388'608 + 4 * 327'680);
}

TEST_CASE("block formats: GGUF, MXFP4, NVFP4, NF4", "[formats]") {
  CHECK(stored_bytes(linear_of("gguf:Q4_K_S"), 4096, 4096).in_bytes() ==
        4096LL * 16 * 144);  // 256-element blocks of 144 B
  CHECK(stored_bytes(linear_of("gguf:Q8_0"), 4096, 14336).in_bytes() ==
        4096LL * 448 * 34);                                                            // 32-element blocks of 34 B
  CHECK(stored_bytes(linear_of("mxfp4"), 2880, 2880).in_bytes() == 2880LL * 90 * 17);  // 32 fp4 + e8m0 scale
  CHECK(stored_bytes(linear_of("nvfp4"), 4096, 4096).in_bytes() ==
        4096LL * 256 * 9 + 8);  // 16 fp4 + fp8 scale, 2 fp32 globals
  CHECK(stored_bytes(linear_of("nf4"), 4096, 4096).in_bytes() ==
        4096LL * 4096 / 64 * 36);  // 32 B codes + 4 B absmax per 64
  // Double quantization: per 16,384 values 8,192 B codes + 256 B absmax + 4 B constant.
  const Codec dq = parse_weight_format(json{{"format", "nf4"}, {"double_quant", true}}, "/weights", "bf16").linear;
  CHECK(stored_bytes(dq, 4096, 4096).in_bytes() == 1024LL * (8192 + 256 + 4));
}

TEST_CASE("DeepSeek-style fp8 stores one fp32 scale per 128×128 tile", "[formats]") {
  json config = {{"quantization_config", {{"quant_method", "fp8"}, {"weight_block_size", {128, 128}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  REQUIRE(found);
  // 7168 × 2048: 14,680,064 B payload + 56 × 16 tiles × 4 B
  CHECK(stored_bytes(f.linear, 7168, 2048).in_bytes() == 14'680'064 + 3'584);
}

TEST_CASE("ModelOpt FP8 stores one fp32 scale per tensor; its exclude_modules stay 16-bit", "[formats]") {
  json config = {{"quantization_config",
                  {{"quant_method", "modelopt"},
                   {"quant_algo", "FP8"},
                   {"kv_cache_quant_algo", "FP8"},
                   {"exclude_modules", {"lm_head"}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  REQUIRE(found);
  // 8192 × 28672 × 1 B + one 4-byte scale for the whole tensor.
  CHECK(stored_bytes(f.linear, 8192, 28672).in_bytes() == 234'881'024 + 4);
  Architecture a;
  a.layers = 80;
  const Tensor head{TensorRole::lm_head, -1, 128256, 8192, 1, TensorStage::text, Shard::rows, true};
  const Tensor down{TensorRole::mlp_down, 3, 8192, 28672, 1, TensorStage::text, Shard::rows, true};
  CHECK(codec_for(f, head, a).name == "bf16");
  CHECK(codec_for(f, down, a).name == f.linear.name);
}

TEST_CASE("quantization_config ignore lists keep modules in 16-bit", "[formats]") {
  json config = {{"quantization_config",
                  {{"quant_method", "mxfp4"},
                   {"modules_to_not_convert",
                    {"model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  REQUIRE(f.name == "mxfp4");
  Architecture a;
  a.layers = 24;
  const Tensor q{TensorRole::attn_q, 0, 4096, 2880, 1, TensorStage::text, Shard::rows, true};
  const Tensor expert{TensorRole::expert_up, 0, 2880, 2880, 32, TensorStage::text, Shard::rows, true};
  CHECK(codec_for(f, q, a).name == "bf16");
  CHECK(codec_for(f, expert, a).name == "mxfp4");
}

TEST_CASE("a norm in an ignore list keeps only the norm, whatever its name holds", "[formats]") {
  // Qwen3-30B-A3B-FP8 lists every post_attention_layernorm; its attention is stored in fp8.
  json config = {{"quantization_config",
                  {{"quant_method", "fp8"},
                   {"weight_block_size", {128, 128}},
                   {"modules_to_not_convert", {"lm_head", "model.layers.0.post_attention_layernorm",
                                               "model.layers.0.input_layernorm", "model.layers.0.mlp.gate"}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  Architecture a;
  a.layers = 48;
  const Tensor q{TensorRole::attn_q, 0, 4096, 2048, 1, TensorStage::text, Shard::rows, true};
  const Tensor router{TensorRole::router, 0, 128, 2048, 1, TensorStage::text, Shard::replicated, true};
  CHECK(codec_for(f, q, a).name == "fp8 block 128x128");
  CHECK(codec_for(f, router, a).name == "bf16");
  CHECK(f.keep_unquantized.size() == 2);  // lm_head and the router
}

TEST_CASE("ignore lists: a vision-tower module keeps the tower only; Nemotron-H names its mixers", "[formats]") {
  // RedHatAI gemma-3 FP8 lists "vision_tower.vision_model.encoder.layers.N.self_attn.q_proj": that is the tower,
  // not the q_proj of decoder layer N.
  json gemma = {{"quantization_config",
                 {{"quant_method", "compressed-tensors"},
                  {"format", "float-quantized"},
                  {"config_groups",
                   {{"group_0",
                     {{"targets", {"Linear"}},
                      {"weights", {{"num_bits", 8}, {"type", "float"}, {"strategy", "channel"}, {"symmetric", true}}}}}}},
                  {"ignore", {"vision_tower.vision_model.encoder.layers.3.self_attn.q_proj", "language_model.lm_head"}}}}};
  bool found = false;
  WeightFormat f = format_from_quantization_config(gemma, "/config", "bf16", found);
  CHECK(f.keep_unquantized == std::vector<KeptModule>{{TensorRole::vision, -1}, {TensorRole::lm_head, -1}});
  // NVIDIA's Nemotron-3 Nano NVFP4 export: backbone.layers.N.mixer.{q,k,v,o}_proj of attention blocks and
  // mixer.{in,out}_proj of Mamba-2 blocks; conv1d is no Linear and keeps nothing else.
  json nemotron = {{"quantization_config",
                    {{"quant_method", "modelopt"},
                     {"quant_algo", "NVFP4"},
                     {"exclude_modules", {"backbone.layers.5.mixer.q_proj", "backbone.layers.4.mixer.in_proj",
                                          "backbone.layers.4.mixer.out_proj", "backbone.layers.0.mixer.conv1d"}}}}};
  f = format_from_quantization_config(nemotron, "/config", "bf16", found);
  CHECK(f.keep_unquantized == std::vector<KeptModule>{{TensorRole::attn_q, 5}, {TensorRole::ssm_in, 4},
                                                      {TensorRole::ssm_out, 4}});
}

TEST_CASE("ignore lists: Qwen3.5's Gated DeltaNet blocks, shared experts and their gates", "[formats]") {
  // nvidia/Qwen3.5-122B-A10B-NVFP4 keeps linear_attn*, mlp.shared_expert* and mlp.shared_expert_gate of each
  // layer in bf16; the 397B export adds the pattern *.mlp.shared_expert.* for every layer.
  json config = {{"quantization_config",
                  {{"quant_method", "modelopt"},
                   {"quant_algo", "NVFP4"},
                   {"ignore",
                    {"model.language_model.layers.0.linear_attn*", "model.language_model.layers.0.mlp.shared_expert*",
                     "model.language_model.layers.0.mlp.shared_expert_gate", "*.mlp.shared_expert.*",
                     "mtp.layers.0.mlp.experts"}}}}};  // the MTP layer's, not decoder layer 0's
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  CHECK(std::none_of(f.keep_unquantized.begin(), f.keep_unquantized.end(),
                     [](const KeptModule& k) { return k.role == TensorRole::expert_up; }));
  CHECK(f.keep_unquantized == std::vector<KeptModule>{{TensorRole::ssm_in, 0},   {TensorRole::ssm_out, 0},
                                                      {TensorRole::mlp_gate, 0}, {TensorRole::mlp_up, 0},
                                                      {TensorRole::mlp_down, 0}, {TensorRole::router, 0},
                                                      {TensorRole::mlp_gate, -1}, {TensorRole::mlp_up, -1},
                                                      {TensorRole::mlp_down, -1}});
}

TEST_CASE("ignore lists: a pattern over every dense MLP keeps them all (Kimi K2.5's int4 export)", "[formats]") {
  json config = {{"quantization_config",
                  {{"quant_method", "compressed-tensors"},
                   {"format", "pack-quantized"},
                   {"config_groups",
                    {{"group_0",
                      {{"targets", {"Linear"}},
                       {"weights", {{"num_bits", 4}, {"type", "int"}, {"strategy", "group"}, {"group_size", 32},
                                    {"symmetric", true}}}}}}},
                   {"ignore", {"lm_head", "re:.*shared_experts.*", R"(re:.*mlp\.(gate|up|gate_up|down)_proj.*)"}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  CHECK(f.keep_unquantized == std::vector<KeptModule>{{TensorRole::lm_head, -1}, {TensorRole::mlp_gate, -1},
                                                      {TensorRole::mlp_up, -1}, {TensorRole::mlp_down, -1}});
}

TEST_CASE("ignore lists of any length: each module once, in the list's order, in n log n", "[formats]") {
  json ignore = json::array();
  for (int i = 0; i < 100'000; ++i) ignore.push_back("model.layers." + std::to_string(i / 2) + ".self_attn.q_proj");
  ignore.push_back("lm_head");
  bool found = false;
  const WeightFormat f = format_from_quantization_config(
      {{"quantization_config", {{"quant_method", "fp8"}, {"ignore", ignore}}}}, "/config", "bf16", found);
  REQUIRE(f.keep_unquantized.size() == 50'001);  // every name twice: once each
  CHECK(f.keep_unquantized[1] == KeptModule{TensorRole::attn_q, 1});
  CHECK(f.keep_unquantized.back() == KeptModule{TensorRole::lm_head, -1});
}

TEST_CASE("ignore lists: DeepSeek's latent-attention projections each keep their own role", "[formats]") {
  // nvidia/DeepSeek-V3.1-NVFP4 excludes q_a, q_b, kv_a_proj_with_mqa and kv_b of every layer; o_proj stays NVFP4.
  json config = {{"quantization_config",
                  {{"quant_method", "modelopt"},
                   {"quant_algo", "NVFP4"},
                   {"exclude_modules",
                    {"model.layers.3.self_attn.q_a_proj", "model.layers.3.self_attn.q_b_proj",
                     "model.layers.3.self_attn.kv_a_proj_with_mqa", "model.layers.3.self_attn.kv_b_proj"}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  CHECK(f.keep_unquantized == std::vector<KeptModule>{{TensorRole::mla_q_a, 3}, {TensorRole::mla_q_b, 3},
                                                      {TensorRole::mla_kv_a, 3}, {TensorRole::mla_kv_b, 3}});
}

TEST_CASE("ModelOpt MIXED_PRECISION: each module quantized_layers names takes its algorithm, the rest stays 16-bit",
          "[formats]") {
  json config = {{"quantization_config",
                  {{"quant_method", "modelopt"},
                   {"quant_algo", "MIXED_PRECISION"},
                   {"quantized_layers",
                    {{"model.language_model.layers.0.linear_attn.in_proj_qkv", {{"quant_algo", "FP8"}}},
                     {"model.language_model.layers.1.linear_attn.in_proj_qkv", {{"quant_algo", "FP8"}}},
                     {"model.language_model.layers.0.mlp.experts", {{"quant_algo", "W4A16_NVFP4"}, {"group_size", 16}}},
                     {"model.language_model.layers.1.mlp.experts", {{"quant_algo", "NVFP4"}, {"group_size", 16}}},
                     {"lm_head", {{"quant_algo", "W4A16_NVFP4"}, {"group_size", 16}}}}}}}};
  bool found = false;
  const WeightFormat f = format_from_quantization_config(config, "/config", "bf16", found);
  REQUIRE(found);
  CHECK(f.quantized());
  Architecture a;
  a.layers = 40;
  const auto codec = [&](TensorRole role, std::int32_t layer, std::int64_t count = 1) {
    return codec_for(f, Tensor{role, layer, 512, 2048, count, TensorStage::text, Shard::rows, true}, a);
  };
  CHECK(codec(TensorRole::ssm_in, 1).name == "fp8");
  CHECK(codec(TensorRole::ssm_in, 2).name == "bf16");  // a layer the map does not name
  CHECK(codec(TensorRole::ssm_out, 0).name == "bf16");
  CHECK(codec(TensorRole::expert_down, 1).name == "nvfp4");
  CHECK(codec(TensorRole::attn_q, 0).name == "bf16");
  // lm_head in NVFP4 although a head is no Linear of the decoder.
  const Tensor head{TensorRole::lm_head, -1, 248320, 2048, 1, TensorStage::text, Shard::rows, false};
  CHECK(codec_for(f, head, a).name == "nvfp4");
  // 512 × 2048 values: 65,536 blocks of 16 at 9 B, one fp32 global scale (W4A16: no input scale);
  // fp8 per tensor: 1 B per value and one fp32 scale.
  CHECK(stored_bytes(codec(TensorRole::expert_up, 0), 512, 2048).in_bytes() == 65'536 * 9 + 4);
  CHECK(stored_bytes(codec(TensorRole::ssm_in, 0), 512, 2048).in_bytes() == 512 * 2048 + 4);
  // NVFP4 with activation scales keeps two fp32 global scales per tensor.
  CHECK(stored_bytes(codec(TensorRole::expert_up, 1), 512, 2048).in_bytes() == 65'536 * 9 + 8);
  // Layers 0 and 1 of one role and algorithm are one range.
  CHECK(std::count_if(f.by_role.begin(), f.by_role.end(), [](const RoleCodec& r) { return r.role == TensorRole::ssm_in; }) == 1);
}

TEST_CASE("ModelOpt MIXED_PRECISION: any order and number of entries merge into ranges in n log n", "[formats]") {
  // 100,000 entries: every layer's q_proj in FP8, then every other layer's k_proj in NVFP4 (each alone). The map
  // is read in key order ("layers.10" before "layers.2"), not layer order.
  json layers = json::object();
  for (int i = 0; i < 50'000; ++i) {
    layers["model.layers." + std::to_string(i) + ".self_attn.q_proj"] = {{"quant_algo", "FP8"}};
    layers["model.layers." + std::to_string(2 * i) + ".self_attn.k_proj"] = {{"quant_algo", "NVFP4"}};
  }
  bool found = false;
  const WeightFormat f = format_from_quantization_config(
      {{"quantization_config", {{"quant_method", "modelopt"}, {"quant_algo", "MIXED_PRECISION"}, {"quantized_layers", layers}}}},
      "/config", "bf16", found);
  const auto count = [&](TensorRole role) {
    return std::count_if(f.by_role.begin(), f.by_role.end(), [&](const RoleCodec& r) { return r.role == role; });
  };
  CHECK(count(TensorRole::attn_q) == 1);  // layers 0 to 49,999: one range
  CHECK(count(TensorRole::attn_k) == 50'000);
  Architecture a;
  const Tensor q{TensorRole::attn_q, 49'999, 8, 8, 1, TensorStage::text, Shard::rows, true};
  const Tensor k{TensorRole::attn_k, 3, 8, 8, 1, TensorStage::text, Shard::rows, true};
  CHECK(codec_for(f, q, a).name == "fp8");
  CHECK(codec_for(f, k, a).name == "bf16");  // an odd layer: not named
}

TEST_CASE("ModelOpt MIXED_PRECISION refuses what it cannot store, naming the module", "[formats][errors]") {
  const auto error_at = [](json layers) {
    json config = {{"quantization_config", {{"quant_method", "modelopt"}, {"quant_algo", "MIXED_PRECISION"}}}};
    if (!layers.is_null()) config["quantization_config"]["quantized_layers"] = std::move(layers);
    bool found = false;
    try {
      format_from_quantization_config(config, "/config", "bf16", found);
    } catch (const InputError& e) {
      return std::string(e.path()) + " | " + e.what();
    }
    return std::string("no error");
  };
  const std::string missing = error_at(json());
  CHECK(missing.find("/config/quantization_config/quantized_layers |") == 0);
  CHECK(missing.find("FP8, NVFP4 or W4A16_NVFP4") != std::string::npos);
  const std::string algo = error_at({{"model.layers.0.mlp.down_proj", {{"quant_algo", "W4A8_AWQ"}}}});
  CHECK(algo.find("/config/quantization_config/quantized_layers/model.layers.0.mlp.down_proj/quant_algo |") == 0);
  CHECK(algo.find("allowed: FP8, NVFP4, W4A16_NVFP4") != std::string::npos);
  const std::string group = error_at({{"lm_head", {{"quant_algo", "NVFP4"}, {"group_size", 32}}}});
  CHECK(group.find("/config/quantization_config/quantized_layers/lm_head/group_size |") == 0);
  CHECK(error_at({{"lm_head", "NVFP4"}}).find("/config/quantization_config/quantized_layers/lm_head |") == 0);
}

TEST_CASE("Q4_K_M raises attn_v and ffn_down to Q6_K on the layers use_more_bits picks", "[formats][gguf]") {
  const WeightFormat f = parse_weight_format(json("gguf:Q4_K_M"), "/weights", "bf16");
  Architecture a;
  a.layers = 32;
  auto type_of = [&](TensorRole role, int layer) {
    return codec_for(f, Tensor{role, layer, 1024, 4096, 1, TensorStage::text, Shard::rows, true}, a).name;
  };
  // use_more_bits(i, 32): i < 4, i >= 28, or (i - 4) % 3 == 2
  CHECK(type_of(TensorRole::attn_v, 0) == "Q6_K");
  CHECK(type_of(TensorRole::attn_v, 4) == "Q4_K");
  CHECK(type_of(TensorRole::attn_v, 6) == "Q6_K");
  CHECK(type_of(TensorRole::mlp_down, 31) == "Q6_K");
  CHECK(type_of(TensorRole::attn_q, 0) == "Q4_K");
  CHECK(codec_for(f, Tensor{TensorRole::lm_head, -1, 128256, 4096, 1, TensorStage::text, Shard::rows, false}, a).name ==
        "Q6_K");
  CHECK(codec_for(f, Tensor{TensorRole::norm, 3, 1, 4096, 1, TensorStage::text, Shard::replicated, false}, a).name ==
        "F32");
}

TEST_CASE("unknown weight formats are errors that list what is allowed", "[formats][errors]") {
  try {
    (void)parse_weight_format(json("bfl6"), "/weights", "bf16");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.path() == "/weights");
    CHECK(std::string(e.what()).find("unknown weight format \"bfl6\"") != std::string::npos);
    CHECK(std::string(e.what()).find("gptq-int4") != std::string::npos);
  }
  // A GGUF file type without its prefix is named as it is written; other names are not.
  const auto message = [](const char* name) {
    try {
      (void)parse_weight_format(json(name), "/weights", "bf16");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK_THAT(message("q4_k_m"),
             Catch::Contains("unknown weight format \"q4_k_m\"; a GGUF file type is written with its prefix: \"gguf:Q4_K_M\""));
  CHECK_THAT(message("bfl6"), !Catch::Contains("GGUF file type"));
  CHECK_THROWS_AS(parse_weight_format(json("gguf:Q9_Z"), "/weights", "bf16"), InputError);
  CHECK_THROWS_AS(parse_weight_format(json(42), "/weights", "bf16"), InputError);
  CHECK_THROWS_AS(parse_weight_format(json{{"format", "awq-int4"}, {"group_size", 0}}, "/weights", "bf16"), InputError);
  CHECK_THROWS_AS(parse_weight_format(json{{"group_size", 128}}, "/weights", "bf16"), InputError);
}

TEST_CASE("activations are fp32 only for plain fp32 weights", "[formats]") {
  CHECK(activation_elem_bytes(parse_weight_format(nlohmann::json("fp32"), "/weights", "bf16")) == 4);
  CHECK(activation_elem_bytes(parse_weight_format(nlohmann::json("bf16"), "/weights", "bf16")) == 2);
  CHECK(activation_elem_bytes(parse_weight_format(nlohmann::json("fp8"), "/weights", "bf16")) == 2);
  CHECK(activation_elem_bytes(parse_weight_format(nlohmann::json("gguf:Q4_K_M"), "/weights", "bf16")) == 2);
}

TEST_CASE("the KV-cache dtype a ModelOpt quantization_config declares", "[formats]") {
  const auto declared = [](json q) {
    q["quant_method"] = "modelopt";
    q["quant_algo"] = "NVFP4";
    bool found = false;
    return format_from_quantization_config({{"quantization_config", q}}, "/config", "bf16", found).checkpoint_kv;
  };
  CHECK(declared({{"kv_cache_quant_algo", "FP8"}}) == "fp8");
  CHECK(declared({{"kv_cache_scheme", {{"dynamic", false}, {"num_bits", 8}, {"type", "float"}}}}) == "fp8");
  CHECK(declared({{"kv_cache_scheme", {{"dynamic", false}, {"num_bits", 4}, {"type", "float"}}}}).empty());
  CHECK(declared(json::object()).empty());
  bool found = false;
  const json fp8_method = {{"quantization_config", {{"quant_method", "fp8"}, {"kv_cache_quant_algo", "FP8"}}}};
  CHECK(format_from_quantization_config(fp8_method, "/config", "bf16", found).checkpoint_kv.empty());
}

TEST_CASE("LayerCodecs gives each layer the codec codec_for gives it, for every GGUF file type", "[formats][gguf]") {
  const char* types[] = {"F32",    "F16",    "BF16",   "Q8_0",   "Q6_K",   "Q5_K_M", "Q5_K_S", "Q4_K_M",
                         "Q4_K_S", "Q4_0",   "Q3_K_L", "Q3_K_M", "Q3_K_S", "Q2_K",   "Q2_K_S", "IQ4_XS"};
  Architecture a;
  a.layers = 61;
  a.heads = 32;
  a.kv_heads = 8;
  const TensorRole roles[] = {TensorRole::attn_q,   TensorRole::attn_v,     TensorRole::attn_o,
                              TensorRole::mlp_down, TensorRole::expert_down, TensorRole::mlp_up,
                              TensorRole::norm,     TensorRole::router};
  int raised_somewhere = 0;
  for (const char* type : types) {
    const WeightFormat f = parse_weight_format(json(std::string("gguf:") + type), "/weights", "bf16");
    for (const TensorRole role : roles) {
      for (const std::int64_t cols : {4096, 4000}) {  // 4000: not a multiple of a 256-element block
        const bool weight = role != TensorRole::norm;
        const Tensor t{role, 0, weight ? 1024 : 1, cols, 1, TensorStage::text, Shard::rows, weight};
        const LayerCodecs codecs(f, t, a);
        bool differs = false;
        for (std::int64_t i = 0; i < a.layers; ++i) {
          const Codec& expected = codec_for(f, t, a, i);
          CHECK(&codecs.at(i) == &expected);
          if (codecs.fixed() != nullptr) CHECK(codecs.fixed() == &expected);
          differs = differs || &expected != &codec_for(f, t, a, 0);
        }
        if (differs) ++raised_somewhere;
      }
    }
  }
  CHECK(raised_somewhere > 0);  // the per-layer path is exercised, not only the fixed one
}
