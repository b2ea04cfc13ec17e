// Header readers (io/headers.hpp) on files built byte by byte with each
// format's rules, and on hostile variants of them.
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "vram/error.hpp"
#include "vram/io/headers.hpp"
#include "vram/io/inspect.hpp"

using namespace vram;
using nlohmann::json;

namespace {

std::string le(std::uint64_t v, int bytes) {
  std::string s;
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}

/// A safetensors file: length, header text, then `data` zero bytes.
std::string safetensors(const std::string& header, std::uint64_t data) {
  return le(header.size(), 8) + header + std::string(static_cast<std::size_t>(data), '\0');
}

/// Answers the reader's prefix requests from `file`, counting what was read.
io::HeaderStep drive(const std::string& name, const std::string& file, std::uint64_t* read = nullptr) {
  std::string prefix;
  for (int steps = 0; steps < 64; ++steps) {
    io::HeaderStep s = io::read_header(name, prefix, file.size());
    if (std::holds_alternative<io::FileHeader>(s)) {
      if (read) *read = prefix.size();
      return s;
    }
    const std::uint64_t want = std::get<io::PrefixRequest>(s).bytes;
    REQUIRE(want > prefix.size());
    REQUIRE(want <= file.size());
    prefix = file.substr(0, static_cast<std::size_t>(want));
  }
  FAIL("the reader never finished");
  return io::PrefixRequest{};
}

io::FileHeader header(const std::string& name, const std::string& file, std::uint64_t* read = nullptr) {
  return std::get<io::FileHeader>(drive(name, file, read));
}

std::string failure(const std::string& name, const std::string& file) {
  try {
    drive(name, file);
  } catch (const InputError& e) {
    return e.path() + ": " + e.what();
  }
  return "no error";
}

// ---- GGUF ------------------------------------------------------------------

std::string gstr(const std::string& s) {
  return le(s.size(), 8) + s;
}

struct Gguf {
  std::string kv;
  std::uint64_t kvs = 0;
  std::string infos;
  std::uint64_t tensors = 0;
  std::uint64_t data = 0;
  std::uint32_t version = 3;

  Gguf& u32(const std::string& k, std::uint32_t v) {
    kv += gstr(k) + le(4, 4) + le(v, 4);
    ++kvs;
    return *this;
  }
  Gguf& str(const std::string& k, const std::string& v) {
    kv += gstr(k) + le(8, 4) + gstr(v);
    ++kvs;
    return *this;
  }
  /// A tensor of `dims` (ne[0] first) of GGML type `type`, placed after the previous ones (32-aligned).
  Gguf& tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type, std::uint64_t bytes) {
    infos += gstr(name) + le(dims.size(), 4);
    for (auto d : dims) infos += le(d, 8);
    infos += le(type, 4) + le(data, 8);
    data += (bytes + 31) / 32 * 32;
    ++tensors;
    return *this;
  }
  std::string file() const {
    std::string f = "GGUF" + le(version, 4) + le(tensors, 8) + le(kvs, 8) + kv + infos;
    f.resize((f.size() + 31) / 32 * 32, '\0');
    return f + std::string(static_cast<std::size_t>(data), '\0');
  }
};

/// A two-block llama in Q4_K / Q6_K / F32 (bytes from ggml's block layouts).
Gguf tiny_llama() {
  Gguf g;
  g.str("general.architecture", "llama").u32("general.file_type", 15);
  g.u32("llama.block_count", 2).u32("llama.embedding_length", 256).u32("llama.feed_forward_length", 512);
  g.u32("llama.attention.head_count", 4).u32("llama.attention.head_count_kv", 2).u32("llama.context_length", 4096);
  g.u32("llama.vocab_size", 1000);
  // token_embd 256 × 1000 in Q4_K: 1000 rows × 1 block × 144 B.
  g.tensor("token_embd.weight", {256, 1000}, 12, 144'000);
  for (int l = 0; l < 2; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    g.tensor(p + "attn_q.weight", {256, 256}, 12, 256 * 144);
    g.tensor(p + "ffn_down.weight", {512, 256}, 14, 256 * 2 * 210);  // Q6_K: 2 blocks per row × 210 B
    g.tensor(p + "attn_norm.weight", {256}, 0, 1024);                // F32
  }
  g.tensor("output.weight", {256, 1000}, 14, 1000 * 210);
  return g;
}

}  // namespace

TEST_CASE("safetensors: exact bytes from the header, read with the 8 bytes before it only", "[headers][safetensors]") {
  // 2 × 3 BF16 = 12 B, then 4 F32 = 16 B.
  const std::string h =
      R"({"__metadata__":{"format":"pt"},"a":{"dtype":"BF16","shape":[2,3],"data_offsets":[0,12]},)"
      R"("b":{"dtype":"F32","shape":[4],"data_offsets":[12,28]}})";
  const std::string f = safetensors(h, 28);
  std::uint64_t read = 0;
  const io::FileHeader fh = header("model.safetensors", f, &read);
  CHECK(read == 8 + h.size());
  CHECK(fh.tensors.size() == 2);
  CHECK(fh.tensors[0].bytes.in_bytes() == 12);
  CHECK(fh.tensors[1].bytes.in_bytes() == 16);
  CHECK(fh.metadata["format"] == "pt");
  // Sub-byte dtypes: 10 F4 values pack into 5 bytes.
  CHECK(header("x.safetensors", safetensors(R"({"q":{"dtype":"F4","shape":[10],"data_offsets":[0,5]}})", 5))
            .tensors[0]
            .bytes.in_bytes() == 5);
}

TEST_CASE("safetensors: hostile headers are refused, naming the file and the field", "[headers][safetensors][errors]") {
  const std::string ok = R"({"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})";
  CHECK(failure("m.safetensors", "abc").find("8-byte header length") != std::string::npos);
  CHECK(failure("m.safetensors", le(1ULL << 63, 8) + "{}").find("header length") != std::string::npos);
  CHECK(failure("m.safetensors", le(1000, 8) + ok).find("runs past the end") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors("[1,2]", 0)).find("JSON object") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors("{\"a\":", 0)).find("m.safetensors") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors(R"({"a":{"dtype":"Q9","shape":[2],"data_offsets":[0,4]}})", 4))
            .find("m.safetensors:/a/dtype: unknown safetensors dtype \"Q9\"") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors(R"({"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,9]}})", 4))
            .find("/a/data_offsets") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors(R"({"a":{"dtype":"BF16","shape":[3],"data_offsets":[0,4]}})", 4))
            .find("shape × dtype is 6 B but data_offsets span 4 B") != std::string::npos);
  CHECK(failure("m.safetensors",
                safetensors(R"({"a":{"dtype":"BF16","shape":[4294967296,4294967296],"data_offsets":[0,4]}})", 4))
            .find("overflows") != std::string::npos);
  const std::string overlap = R"({"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]},)"
                              R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[2,6]}})";
  CHECK(failure("m.safetensors", safetensors(overlap, 6)).find("overlaps") != std::string::npos);
  const std::string gap = R"({"a":{"dtype":"BF16","shape":[2],"data_offsets":[4,8]}})";
  CHECK(failure("m.safetensors", safetensors(gap, 8)).find("gap") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors(ok, 10)).find("cover 4 B of the 10 B") != std::string::npos);
  INFO(failure("m.safetensors", safetensors(R"({"a":1,"a":2})", 0)));
  CHECK(failure("m.safetensors", safetensors(R"({"a":1,"a":2})", 0)).find("m.safetensors:/a") != std::string::npos);
  CHECK(failure("m.safetensors", safetensors("{\"\xff\":1}", 0)).find("UTF-8") != std::string::npos);
}

TEST_CASE("GGUF: tensor bytes from ggml block layouts, architecture from metadata", "[headers][gguf]") {
  const std::string f = tiny_llama().file();
  std::uint64_t read = 0;
  const io::FileHeader g = header("tiny.gguf", f, &read);
  CHECK(g.gguf_version == 3);
  REQUIRE(g.tensors.size() == 8);
  CHECK(g.tensors[0].dtype == "Q4_K");
  CHECK(g.tensors[0].bytes.in_bytes() == 144'000);
  CHECK(g.tensors[2].bytes.in_bytes() == 107'520);  // 256 rows × 2 Q6_K blocks × 210 B
  CHECK(g.tensors[3].bytes.in_bytes() == 1024);
  CHECK(read == 64 * 1024);  // the header is inside the first request
  const json r = io::inspect({{g}, {}, std::nullopt});
  CHECK(r["weights"] == "gguf:Q4_K_M");
  CHECK(r["tensor_bytes"] == 144'000 + 2 * (256 * 144 + 107'520 + 1024) + 210'000);
  CHECK(r["architecture"]["blocks"] == 2);
  CHECK(r["architecture"]["tied_embeddings"] == false);
  const json& cfg = r["model"]["config"];
  CHECK(cfg["model_type"] == "llama");
  CHECK(cfg["hidden_size"] == 256);
  CHECK(cfg["num_key_value_heads"] == 2);
  CHECK(cfg["vocab_size"] == 1000);
  // The reference is a scenario's model as is.
  const Report rep = test::run({{"model", r["model"]}, {"weights", r["weights"]},
                                {"inference", {{"engine", "llama.cpp"}, {"context", 1024}}}});
  CHECK(test::metric(rep, "kv_bytes_per_token") == 2 * 2 * 2 * 64 * 2);  // layers × K,V × kv heads × head_dim × f16
}

TEST_CASE("GGUF: hostile files are refused in bounded time and memory", "[headers][gguf][errors]") {
  const std::string f = tiny_llama().file();
  // Truncated at every byte of the header: always an error, never a crash.
  const std::size_t header_end = f.find("output.weight") + 64;
  for (std::size_t n = 0; n < header_end; n += 7) {
    INFO(n);
    CHECK(failure("t.gguf", f.substr(0, n)) != "no error");
  }
  CHECK(failure("t.gguf", "GGUF" + le(1, 4) + le(0, 8) + le(0, 8)).find("version 1") != std::string::npos);
  CHECK(failure("t.gguf", "GGUF" + le(3, 4) + le(1ULL << 60, 8) + le(0, 8)).find("cannot fit") != std::string::npos);
  // A string claiming 2^62 bytes, an array claiming 2^61 elements.
  CHECK(failure("t.gguf", "GGUF" + le(3, 4) + le(0, 8) + le(1, 8) + le(1ULL << 62, 8) + std::string(64, 'a'))
            .find("ends inside") != std::string::npos);
  const std::string arr = "GGUF" + le(3, 4) + le(0, 8) + le(1, 8) + gstr("k") + le(9, 4) + le(4, 4) + le(1ULL << 61, 8);
  CHECK(failure("t.gguf", arr + std::string(64, '\0')).find("cannot fit") != std::string::npos);
  // Arrays of arrays nested too deep.
  std::string nested = "GGUF" + le(3, 4) + le(0, 8) + le(1, 8) + gstr("k") + le(9, 4);
  for (int i = 0; i < 5; ++i) nested += le(9, 4) + le(1, 8);
  CHECK(failure("t.gguf", nested + std::string(64, '\0')).find("nested deeper") != std::string::npos);
  Gguf bad = tiny_llama();
  bad.tensor("x", {10, 3}, 12, 144);  // ne[0] = 10 is not a multiple of Q4_K's 256
  CHECK(failure("t.gguf", bad.file()).find("not a multiple") != std::string::npos);
  Gguf unknown;
  unknown.tensor("x", {32}, 77, 32);
  CHECK(failure("t.gguf", unknown.file()).find("unknown GGML type id 77") != std::string::npos);
  Gguf dims;
  dims.tensor("x", {1, 1, 1, 1, 1}, 0, 4);
  CHECK(failure("t.gguf", dims.file()).find("allowed: 1 to 4") != std::string::npos);
  Gguf dup;
  dup.tensor("x", {8}, 0, 32).tensor("x", {8}, 0, 32);
  CHECK(failure("t.gguf", dup.file()).find("twice") != std::string::npos);
  // Data past the end of the file.
  std::string cut = tiny_llama().file();
  cut.resize(cut.size() - 100);
  CHECK(failure("t.gguf", cut).find("runs past the end of the file") != std::string::npos);
}

TEST_CASE("shards and their index: every named shard given, every tensor where the index says", "[headers][inspect]") {
  const std::string h1 = R"({"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})";
  const std::string h2 = R"({"b":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  const io::FileHeader s1 = header("model-00001-of-00002.safetensors", safetensors(h1, 4));
  const io::FileHeader s2 = header("model-00002-of-00002.safetensors", safetensors(h2, 8));
  const io::SafetensorsIndex idx = io::read_safetensors_index(
      "model.safetensors.index.json",
      R"({"metadata":{"total_size":12},"weight_map":{"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}})");
  const json r = io::inspect({{s1, s2}, {idx}, std::nullopt});
  CHECK(r["tensor_bytes"] == 12);
  CHECK(r["model"]["weights_bytes"] == 12);
  CHECK(r["by_dtype"]["BF16"] == 4);
  try {
    io::inspect({{s1}, {idx}, std::nullopt});
    FAIL("a missing shard was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("model-00002-of-00002.safetensors") != std::string::npos);
  }
  CHECK_THROWS_AS(io::read_safetensors_index("i.index.json", R"({"weight_map":{}})"), InputError);
}

TEST_CASE("inspect names the quantized layout the tensor names show", "[headers][inspect]") {
  const std::string h = R"({"model.layers.0.mlp.up_proj.qweight":{"dtype":"I32","shape":[2,4],"data_offsets":[0,32]},)"
                        R"("model.layers.0.mlp.up_proj.scales":{"dtype":"F16","shape":[1,4],"data_offsets":[32,40]}})";
  const json r = io::inspect({{header("q.safetensors", safetensors(h, 40))}, {}, std::nullopt});
  CHECK(r["architecture"]["quantized_layout"] == "gptq/awq packed int");
  CHECK(r["by_dtype"]["I32"] == 32);
  const std::string plain = R"({"model.layers.0.mlp.up_proj.weight":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})";
  CHECK_FALSE(io::inspect({{header("p.safetensors", safetensors(plain, 4))}, {}, std::nullopt})["architecture"].contains(
      "quantized_layout"));
}

TEST_CASE("GGUF Mamba: the SSM fields become the config's", "[headers][gguf][inspect]") {
  Gguf g;
  g.str("general.architecture", "mamba").u32("general.file_type", 1);
  g.u32("mamba.block_count", 2).u32("mamba.embedding_length", 256).u32("mamba.context_length", 1048576);
  g.u32("mamba.vocab_size", 1000).u32("mamba.ssm.conv_kernel", 4).u32("mamba.ssm.inner_size", 512);
  g.u32("mamba.ssm.state_size", 16).u32("mamba.ssm.time_step_rank", 16);
  g.tensor("token_embd.weight", {256, 1000}, 1, 256 * 1000 * 2);  // F16
  g.tensor("blk.0.ssm_in.weight", {256, 1024}, 1, 256 * 1024 * 2);
  const json r = io::inspect({{header("m.gguf", g.file())}, {}, std::nullopt});
  const json& cfg = r["model"]["config"];
  CHECK(cfg["model_type"] == "mamba");
  CHECK(cfg["intermediate_size"] == 512);
  CHECK(cfg["state_size"] == 16);
  CHECK(cfg["conv_kernel"] == 4);
  CHECK(cfg["time_step_rank"] == 16);
  // The reference estimates: one recurrent state per sequence, no per-token KV.
  const Report rep = test::run({{"model", r["model"]}, {"weights", r["weights"]},
                                {"inference", {{"engine", "llama.cpp"}, {"context", 1024}}}});
  CHECK(test::metric(rep, "kv_bytes_per_token") == 0);
}

namespace {
/// inspect_prefixes answering its own requests from `files` (name → bytes).
json inspect_all(const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<io::FilePrefix> list;
  for (const auto& [n, b] : files) list.push_back({n, b.size(), std::string()});
  for (int round = 0; round < 16; ++round) {
    const json r = io::inspect_prefixes(list);
    if (!r.contains("need")) return r;
    for (const auto& need : r["need"]) {
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].name == need["name"]) list[i].prefix = files[i].second.substr(0, need["bytes"].get<std::size_t>());
      }
    }
  }
  FAIL("inspect_prefixes never finished");
  return {};
}
}  // namespace

TEST_CASE("a diffusers folder: each component's files inspected on their own", "[headers][inspect]") {
  const std::string t_head = R"({"transformer_blocks.0.attn.to_q.weight":{"dtype":"BF16","shape":[4,4],"data_offsets":[0,32]}})";
  const std::string v_head = R"({"decoder.conv_in.weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";
  const std::string e_head = R"({"text_model.embeddings.token_embedding.weight":{"dtype":"F16","shape":[8,2],"data_offsets":[0,32]}})";
  const std::string index = R"({"_class_name":"FluxPipeline","transformer":["diffusers","FluxTransformer2DModel"],)"
                            R"("vae":["diffusers","AutoencoderKL"],"text_encoder":["transformers","CLIPTextModel"],)"
                            R"("text_encoder_2":["transformers","T5EncoderModel"],"tokenizer":["transformers","CLIPTokenizer"],)"
                            R"("scheduler":["diffusers","FlowMatchEulerDiscreteScheduler"]})";
  const json r = inspect_all({{"FLUX/model_index.json", index},
                              {"FLUX/transformer/config.json", R"({"_class_name":"FluxTransformer2DModel"})"},
                              {"FLUX/transformer/diffusion_pytorch_model.safetensors", safetensors(t_head, 32)},
                              {"FLUX/vae/diffusion_pytorch_model.safetensors", safetensors(v_head, 16)},
                              {"FLUX/text_encoder/model.safetensors", safetensors(e_head, 32)},
                              {"FLUX/scheduler/scheduler_config.json", R"({"shift":3.0})"}});
  CHECK(r["format"] == "diffusers");
  CHECK(r["pipeline_class"] == "FluxPipeline");
  CHECK(r["tensor_bytes"] == 32 + 16 + 32);
  CHECK(r["by_dtype"]["BF16"] == 32);
  REQUIRE(r["components"].size() == 3);
  std::map<std::string, std::int64_t> bytes;
  for (const auto& c : r["components"]) bytes[c["component"].get<std::string>()] = c["tensor_bytes"].get<std::int64_t>();
  CHECK(bytes == std::map<std::string, std::int64_t>{{"text_encoder", 32}, {"transformer", 32}, {"vae", 16}});
  const std::string notes = r["notes"].dump();
  CHECK(notes.find("text_encoder_2, whose files were not given") != std::string::npos);
  CHECK(notes.find("tokenizer") == std::string::npos);  // not weights: nothing missing
  CHECK(notes.find("not read: FLUX/scheduler/scheduler_config.json") != std::string::npos);
  // A config.json alone is no checkpoint: the error says how to estimate it instead.
  try {
    inspect_all({{"m/config.json", R"({"model_type":"llama"})"}});
    FAIL("a lone config.json was inspected");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("a config.json alone is estimated as a scenario's model") != std::string::npos);
  }
  // A config.json written by Python's json (a Mamba-2 model's time_step_limit) is read, and said so.
  const json py = inspect_all({{"m/config.json", R"({"model_type":"llama","time_step_limit":[0.0,Infinity]})"},
                               {"m/model.safetensors", safetensors(t_head, 32)}});
  CHECK(py["model"]["config"]["time_step_limit"] == json::array({0.0, nullptr}));
  CHECK(py["notes"].dump().find("m/config.json: 1 value that Python's json writes as Infinity or NaN") !=
        std::string::npos);
  // One model in a folder is still one model, with its config.json.
  const json one = inspect_all({{"Qwen/config.json", R"({"model_type":"llama"})"},
                                {"Qwen/model.safetensors", safetensors(t_head, 32)},
                                {"Qwen/generation_config.json", "{}"}});
  CHECK(one["format"] == "safetensors");
  CHECK(one["model"]["config"]["model_type"] == "llama");
  CHECK(one["model"]["weights_bytes"] == 32);
}

TEST_CASE("without a config.json the reference is the shapes' parameter count, usable as is", "[headers][inspect]") {
  const std::string h = R"({"a":{"dtype":"BF16","shape":[1000,500],"data_offsets":[0,1000000]},)"
                        R"("b":{"dtype":"F32","shape":[500],"data_offsets":[1000000,1002000]}})";
  const json r = io::inspect({{header("model.safetensors", safetensors(h, 1002000))}, {}, std::nullopt});
  CHECK(r["model"]["params"] == 500'500);
  CHECK(r["model"]["weights_bytes"] == 1'002'000);
  const Report rep = test::run({{"model", r["model"]}});
  CHECK(rep.find_component("weights")->bytes.in_bytes() == 1'002'000);  // the checkpoint's own bytes
  // Packed quantized tensors hold several parameters per element: no count is made up.
  const std::string q = R"({"l.qweight":{"dtype":"I32","shape":[64,128],"data_offsets":[0,32768]}})";
  const json p = io::inspect({{header("q.safetensors", safetensors(q, 32768))}, {}, std::nullopt});
  CHECK_FALSE(p["model"].contains("params"));
  CHECK(p["notes"].dump().find("no parameter count") != std::string::npos);
}
