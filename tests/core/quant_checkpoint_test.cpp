// Stored bytes of AWQ, GPTQ, compressed-tensors and fbgemm_fp8 checkpoints,
// computed by hand from the tensors each quantizer saves (sources in
// core/src/quant_checkpoint.cpp), and the quantization_configs they refuse.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "test_support.hpp"
#include "vram/budget/weights.hpp"
#include "vram/error.hpp"
#include "vram/formats.hpp"
#include "vram/model.hpp"

using namespace vram;
using nlohmann::json;

namespace {

WeightFormat format_of(const json& quantization_config, const char* native = "bf16") {
  bool found = false;
  const WeightFormat f =
      format_from_quantization_config(json{{"quantization_config", quantization_config}}, "/config", native, found);
  REQUIRE(found);
  return f;
}

/// Bytes of one Linear of `out` x `in` (rows = outputs, cols = inputs).
std::int64_t linear_bytes(const WeightFormat& f, std::int64_t out, std::int64_t in) {
  return stored_bytes(f.linear, out, in).in_bytes();
}

/// The InputError path a call throws ("" when it does not throw).
template <typename F>
std::string call_error_path(F&& call, std::string* message = nullptr) {
  try {
    call();
  } catch (const InputError& e) {
    if (message) *message = e.what();
    return e.path();
  }
  return "";
}

json ct_config(json weights, const char* format) {
  return json{{"quant_method", "compressed-tensors"},
              {"format", format},
              {"config_groups", {{"group_0", {{"targets", {"Linear"}}, {"weights", std::move(weights)}}}}},
              {"ignore", {"lm_head"}}};
}

}  // namespace

TEST_CASE("AWQ GEMM: qweight, qzeros and fp16 scales per 128 inputs", "[quant][awq]") {
  const WeightFormat f = format_of(
      {{"bits", 4}, {"group_size", 128}, {"quant_method", "awq"}, {"version", "gemm"}, {"zero_point", true}}, "fp16");
  // k_proj of Llama-3-8B: out 1024, in 4096, 32 groups.
  //   qweight int32 [4096, 1024/8 = 128]   = 4096 x 128 x 4 = 2,097,152 B
  //   qzeros  int32 [32, 128]              =   32 x 128 x 4 =    16,384 B
  //   scales  fp16  [32, 1024]             =  32 x 1024 x 2 =    65,536 B
  CHECK(linear_bytes(f, 1024, 4096) == 2'097'152 + 16'384 + 65'536);
  CHECK(f.group_path == "/config/quantization_config/group_size");
  // zero_point false stores the same qzeros (vLLM registers them regardless).
  const WeightFormat nz = format_of({{"bits", 4}, {"group_size", 128}, {"quant_method", "awq"}, {"zero_point", false}});
  CHECK(linear_bytes(nz, 1024, 4096) == 2'179'072);
}

TEST_CASE("GPTQ: 3-bit packing, packed zeros, fp16 scales and g_idx", "[quant][gptq]") {
  const WeightFormat f =
      format_of({{"bits", 3}, {"group_size", 128}, {"desc_act", true}, {"sym", true}, {"quant_method", "gptq"}});
  // out 4096, in 4096, 32 groups:
  //   qweight int32 [4096/32*3 = 384, 4096] = 384 x 4096 x 4 = 6,291,456 B
  //   qzeros  int32 [32, 4096/32*3 = 384]   =   32 x 384 x 4 =    49,152 B
  //   scales  fp16  [32, 4096]              =  32 x 4096 x 2 =   262,144 B
  //   g_idx   int32 [4096]                  =       4096 x 4 =    16,384 B
  CHECK(linear_bytes(f, 4096, 4096) == 6'291'456 + 49'152 + 262'144 + 16'384);
  CHECK(f.name == "gptq-int3");
  // Per-channel (group_size -1): one scale and zero row; g_idx still stored.
  const WeightFormat pc = format_of({{"bits", 8}, {"group_size", -1}, {"quant_method", "gptq"}});
  // qweight 4096 x 4096 x 1 B + qzeros 4096 x 1 B + scales 4096 x 2 B + g_idx 16,384 B
  CHECK(linear_bytes(pc, 4096, 4096) == 16'777'216 + 4'096 + 8'192 + 16'384);
}

TEST_CASE("compressed-tensors pack-quantized w4a16 with group act-order", "[quant][compressed-tensors]") {
  const WeightFormat f = format_of(ct_config({{"num_bits", 4},
                                              {"type", "int"},
                                              {"symmetric", true},
                                              {"strategy", "group"},
                                              {"group_size", 128},
                                              {"actorder", "group"}},
                                             "pack-quantized"));
  // down_proj of Llama-3-8B: out 4096, in 14336, 112 groups:
  //   weight_packed int32 [4096, 14336/8 = 1792] = 4096 x 1792 x 4 = 29,360,128 B
  //   weight_scale  bf16  [4096, 112]            =  4096 x 112 x 2 =    917,504 B
  //   weight_g_idx  int32 [14336]                =      14336 x 4 =     57,344 B
  //   weight_shape  int64 [2]                    =                          16 B
  CHECK(linear_bytes(f, 4096, 14336) == 29'360'128 + 917'504 + 57'344 + 16);
  CHECK(f.group_path == "/config/quantization_config/config_groups/group_0/weights/group_size");
  REQUIRE(f.keep_unquantized.size() == 1);
  CHECK(f.keep_unquantized[0].role == TensorRole::lm_head);
  // Asymmetric: + weight_zero_point int32 [4096/8 = 512, 32] = 65,536 B (out 4096, in 4096).
  const WeightFormat asym = format_of(
      ct_config({{"num_bits", 4}, {"type", "int"}, {"symmetric", false}, {"strategy", "group"}, {"group_size", 128}},
                "pack-quantized"));
  CHECK(linear_bytes(asym, 4096, 4096) == 8'388'608 + 262'144 + 65'536 + 16);
}

TEST_CASE("compressed-tensors int8 and fp8: scales in the weight dtype", "[quant][compressed-tensors]") {
  // W8A8 channel (RedHatAI *-quantized.w8a8): weight int8 [4096, 4096] + weight_scale bf16 [4096, 1].
  const WeightFormat w8a8 = format_of(
      ct_config({{"num_bits", 8}, {"type", "int"}, {"symmetric", true}, {"strategy", "channel"}}, "int-quantized"));
  CHECK(linear_bytes(w8a8, 4096, 4096) == 16'777'216 + 8'192);
  // FP8 per-tensor with a static input scale: + 1 bf16 weight_scale + 1 bf16 input_scale.
  json fp8 = ct_config({{"num_bits", 8}, {"type", "float"}, {"strategy", "tensor"}}, "float-quantized");
  fp8["config_groups"]["group_0"]["input_activations"] = {
      {"num_bits", 8}, {"type", "float"}, {"strategy", "tensor"}, {"dynamic", false}, {"symmetric", true}};
  CHECK(linear_bytes(format_of(fp8), 4096, 4096) == 16'777'216 + 2 + 2);
  // FP8 blocks of 128 x 128: 7168 x 2048 → 56 x 16 tiles of one bf16 scale.
  const WeightFormat block = format_of(ct_config(
      {{"num_bits", 8}, {"type", "float"}, {"strategy", "block"}, {"block_structure", {128, 128}}}, "float-quantized"));
  CHECK(linear_bytes(block, 7168, 2048) == 14'680'064 + 56 * 16 * 2);
}

TEST_CASE("fbgemm_fp8: fp8 weights and one fp32 scale per output row", "[quant][fbgemm]") {
  const WeightFormat f = format_of(
      {{"quant_method", "fbgemm_fp8"}, {"activation_scale_ub", 1200.0}, {"modules_to_not_convert", {"lm_head"}}});
  // weight fp8 [4096, 4096] = 16,777,216 B + weight_scale fp32 [4096, 1] = 16,384 B
  CHECK(linear_bytes(f, 4096, 4096) == 16'777'216 + 16'384);
}

TEST_CASE("ignore lists that name one decoder layer keep only that layer", "[quant][ignore]") {
  const WeightFormat f = format_of({{"bits", 4},
                                    {"group_size", 64},
                                    {"quant_method", "awq"},
                                    {"modules_to_not_convert", {"layers.31.mlp", "model.layers.0.self_attn.q_proj"}}});
  CHECK(f.keeps_per_layer());
  Architecture a;
  a.layers = 32;
  const Tensor down{TensorRole::mlp_down, 0, 4096, 14336, 1, TensorStage::text, Shard::cols, true, 32};
  const Tensor q{TensorRole::attn_q, 0, 4096, 4096, 1, TensorStage::text, Shard::rows, true, 32};
  const Tensor k{TensorRole::attn_k, 0, 1024, 4096, 1, TensorStage::text, Shard::kv_rows, true, 32};
  CHECK(codec_for(f, down, a, 31).name == "bf16");
  CHECK(codec_for(f, down, a, 30).name == "int4 g64");
  CHECK(codec_for(f, q, a, 0).name == "bf16");
  CHECK(codec_for(f, q, a, 1).name == "int4 g64");
  CHECK(codec_for(f, k, a, 0).name == "int4 g64");
}

TEST_CASE("a group that does not divide a quantized layer's inputs is refused", "[quant][errors]") {
  const json config = {{"architectures", {"LlamaForCausalLM"}},
                       {"model_type", "llama"},
                       {"hidden_size", 512},
                       {"intermediate_size", 1344},  // 10.5 groups of 128
                       {"num_attention_heads", 8},
                       {"num_key_value_heads", 8},
                       {"num_hidden_layers", 2},
                       {"vocab_size", 32000},
                       {"torch_dtype", "float16"}};
  const Model m = model_from_config(config, "/config", "test");
  const WeightFormat f = format_of({{"bits", 4}, {"group_size", 128}, {"quant_method", "gptq"}});
  std::string message;
  CHECK(call_error_path([&] { check_group_alignment(f, m); }, &message) == "/config/quantization_config/group_size");
  CHECK(message.find("1344 inputs") != std::string::npos);
  const WeightFormat ok = format_of({{"bits", 4}, {"group_size", 64}, {"quant_method", "gptq"}});
  CHECK_NOTHROW(check_group_alignment(ok, m));
}

TEST_CASE("quantization_configs the loaders refuse are errors naming the field", "[quant][errors]") {
  const std::string q = "/config/quantization_config";
  std::string message;
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "hqq"}}); }, &message) == q + "/quant_method");
  CHECK(message.find("compressed-tensors") != std::string::npos);
  CHECK(call_error_path([&] { (void)format_of({{"bits", 4}}); }) == q + "/quant_method");
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "awq"}, {"bits", 8}}); }, &message) == q + "/bits");
  CHECK(message.find("must be one of 4") != std::string::npos);
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "gptq"}, {"bits", 5}}); }, &message) == q + "/bits");
  CHECK(message.find("2, 3, 4, 8") != std::string::npos);
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "gptq"}, {"group_size", 0}}); }) == q + "/group_size");
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "awq"}, {"group_size", -2}}); }) == q + "/group_size");
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "awq"}, {"version", "gemv"}}); }) == q + "/version");
  CHECK(call_error_path([&] {
          (void)format_of({{"quant_method", "gptq"}, {"checkpoint_format", "marlin"}});
        }) == q + "/checkpoint_format");
  const std::string w = q + "/config_groups/group_0/weights";
  CHECK(call_error_path([&] {
          (void)format_of(ct_config({{"num_bits", 3}, {"type", "int"}, {"strategy", "group"}, {"group_size", 128}},
                                    "pack-quantized"));
        }) == w + "/num_bits");
  CHECK(call_error_path([&] {
          (void)format_of(ct_config({{"num_bits", 4}, {"type", "int"}, {"strategy", "group"}, {"group_size", 0}},
                                    "pack-quantized"));
        }) == w + "/group_size");
  CHECK(call_error_path([&] {
          (void)format_of(ct_config({{"num_bits", 4}, {"type", "int"}, {"strategy", "rows"}}, "pack-quantized"));
        }) == w + "/strategy");
  CHECK(call_error_path([&] { (void)format_of(ct_config({{"num_bits", 8}}, "sparse-24")); }) == q + "/format");
  CHECK(call_error_path([&] { (void)format_of({{"quant_method", "compressed-tensors"}}); }) == q + "/config_groups");
}

TEST_CASE("Qwen2.5-0.5B-Instruct-AWQ: stored bytes from its own quantization_config", "[quant][catalog]") {
  const CatalogModel* m = test::catalog().find_model("Qwen/Qwen2.5-0.5B-Instruct-AWQ");
  REQUIRE(m != nullptr);
  CHECK(m->quantized);
  CHECK(m->own_format.name == "awq-int4");
  // Per decoder layer (hidden 896, 14 q heads and 2 kv heads of 64, MLP 4864, groups of 128):
  //   qweight in x out / 2: (896x896 + 2 x 896x128 + 896x896 + 3 x 896x4864) / 2 = 7,454,720 B
  //   qzeros  groups x out / 2: 7 x (896 + 128 + 128 + 896 + 4864 + 4864) / 2 + 38 x 896 / 2 = 58,240 B
  //   scales  groups x out x 2: 7 x 11,776 x 2 + 38 x 896 x 2 = 232,960 B
  //   q/k/v biases fp16 (896 + 128 + 128) x 2 = 2,304 B; two norms 2 x 896 x 2 = 3,584 B
  //   = 7,751,808 B; x 24 layers = 186,043,392 B
  // embed_tokens 151,936 x 896 x 2 = 272,269,312 B (tied head), final norm 1,792 B.
  WeightPlacement all;
  all.mtp = true;
  CHECK(weights_on_gpu(m->model, m->own_format, all).bytes.in_bytes() == 458'314'496);
  // The Hub file (731 MB) holds the tied embedding a second time as lm_head.weight.
  CHECK(m->checkpoint_extra_bytes.in_bytes() == 272'269'312);
  REQUIRE(m->model.checkpoint_bytes);
  CHECK(m->model.checkpoint_bytes->in_bytes() == 458'314'496 + 272'269'312);
}

TEST_CASE("Qwen1.5-1.8B-Chat-AWQ: stored bytes from its own quantization_config", "[quant][catalog]") {
  const CatalogModel* m = test::catalog().find_model("Qwen/Qwen1.5-1.8B-Chat-AWQ");
  REQUIRE(m != nullptr);
  // Per layer (hidden 2048, 16 + 16 heads of 128, MLP 5504 = 43 groups of 128):
  //   qweight (4 x 2048x2048 + 3 x 2048x5504) / 2 = 25,296,896 B
  //   qzeros 16 x (4 x 2048 + 2 x 5504) / 2 + 43 x 2048 / 2 = 197,632 B
  //   scales 16 x 19,200 x 2 + 43 x 2048 x 2 = 790,528 B
  //   biases 3 x 2048 x 2 = 12,288 B; norms 2 x 2048 x 2 = 8,192 B → 26,305,536 B; x 24 = 631,332,864 B
  // embed_tokens + untied lm_head 2 x 151,936 x 2048 x 2 = 1,244,659,712 B; final norm 4,096 B.
  WeightPlacement all;
  CHECK(weights_on_gpu(m->model, m->own_format, all).bytes.in_bytes() == 1'875'996'672);
  REQUIRE(m->model.checkpoint_bytes);
  CHECK(m->model.checkpoint_bytes->in_bytes() == 1'875'996'672);
}

TEST_CASE("Qwen2.5-7B-Instruct-AWQ and Llama-3.1-8B-Instruct-AWQ-INT4: stored bytes from their own quantization_config",
          "[quant][catalog]") {
  // Qwen2.5-7B-Instruct-AWQ, per layer (hidden 3584, 28 + 4 heads of 128, MLP 18944 = 148 groups of 128):
  //   qweight 116,523,008 + qzeros 910,336 + scales 3,641,344 + q/k/v biases 9,216 + norms 14,336
  //   = 121,098,240 B; x 28 = 3,390,750,720 B
  //   embed_tokens + untied lm_head 2 x 152,064 x 3584 x 2 = 2,179,989,504 B; final norm 7,168 B.
  // Meta-Llama-3.1-8B-Instruct-AWQ-INT4, per layer (hidden 4096, 32 + 8 heads of 128, MLP 14336 = 112
  //   groups of 128, no biases): qweight 109,051,904 + qzeros 851,968 + scales 3,407,872 + norms 16,384
  //   = 113,328,128 B; x 32 = 3,626,500,096 B
  //   embed_tokens + untied lm_head 2 x 128,256 x 4096 x 2 = 2,101,346,304 B; final norm 8,192 B.
  const std::pair<const char*, std::int64_t> expected[] = {
      {"Qwen/Qwen2.5-7B-Instruct-AWQ", 5'570'747'392},
      {"hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4", 5'727'854'592}};
  WeightPlacement all;
  for (const auto& [id, bytes] : expected) {
    INFO(id);
    const CatalogModel* m = test::catalog().find_model(id);
    REQUIRE(m != nullptr);
    CHECK(m->quantized);
    CHECK(m->own_format.name == "awq-int4");
    CHECK(weights_on_gpu(m->model, m->own_format, all).bytes.in_bytes() == bytes);
    REQUIRE(m->model.checkpoint_bytes);
    CHECK(m->model.checkpoint_bytes->in_bytes() == bytes);
  }
}

TEST_CASE("compressed-tensors strategy group needs a group size", "[quant][errors]") {
  const std::string w = "/config/quantization_config/config_groups/group_0/weights";
  CHECK(call_error_path([&] {
          (void)format_of(ct_config({{"num_bits", 4}, {"type", "int"}, {"strategy", "group"}}, "pack-quantized"));
        }) == w + "/group_size");
  // No strategy: group_size -1 means one scale per output row (QuantizationArgs' validator).
  const WeightFormat pc = format_of(ct_config({{"num_bits", 8}, {"type", "int"}, {"group_size", -1}}, "int-quantized"));
  CHECK(linear_bytes(pc, 4096, 4096) == 16'777'216 + 8'192);
}
