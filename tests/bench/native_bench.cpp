// vram-bench: native timings for BENCHMARKS.md (scripts/benchmarks runs it).
//
//   vram-bench SCENARIOS.json
//
// SCENARIOS.json is an object {name: scenario}. For each scenario: one full
// estimate (JSON text in, report JSON text out, as the page calls it), the plan
// (its solvers), the context sweep and a 100 × 100 context × concurrency grid,
// each the median of several timed runs; answers that are errors (a workload
// not estimated yet, a plan refused) are reported as such, not timed. Then a
// safetensors header shaped like a 140 GB checkpoint (Llama-3.1-70B in bf16,
// 80 layers) read through the same prefix protocol the page uses.
// Prints one JSON object.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "vram/catalog.hpp"
#include "vram/estimate.hpp"
#include "vram/io/headers.hpp"
#include "vram/plan.hpp"

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

/// The mean time per call of `calls` calls, in microseconds, for each of `runs` runs, sorted.
template <typename F>
std::vector<double> runs_us(int runs, int calls, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < calls; ++i) f();  // warm up as long as one run
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) f();
    t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / calls);
  }
  std::sort(t.begin(), t.end());
  return t;
}

/// The median of `runs_us`.
template <typename F>
double median_us(int runs, int calls, F&& f) {
  const std::vector<double> t = runs_us(runs, calls, f);
  return t[t.size() / 2];
}

bool ok(const json& j) {
  return j.is_object() && j.value("ok", false);
}

json time_scenario(const std::string& text, const vram::Catalog& catalog) {
  json out;
  const json report = json::parse(vram::estimate_json(text, catalog));
  if (!ok(report)) return {{"estimated", false}, {"error", report["error"]}};
  out["estimated"] = true;
  const std::vector<double> est = runs_us(7, 500, [&] { return vram::estimate_json(text, catalog); });
  out["estimate_us"] = est[est.size() / 2];
  out["estimate_fastest_us"] = est.front();
  if (ok(vram::plan_json(text, catalog)))
    out["plan_ms"] = median_us(5, 10, [&] { return vram::plan_json(text, catalog); }) / 1000;
  if (ok(vram::sweep_json(text, catalog)))
    out["sweep_ms"] = median_us(5, 10, [&] { return vram::sweep_json(text, catalog); }) / 1000;
  if (ok(json::parse(vram::grid_json(text, catalog, 100, 100))))
    out["grid_10k_ms"] = median_us(5, 1, [&] { return vram::grid_json(text, catalog, 100, 100); }) / 1000;
  return out;
}

/// A safetensors file of Llama-3.1-70B's tensors in bf16: 8-byte length, JSON header, data.
std::string llama70b_header(std::uint64_t& file_size) {
  const std::int64_t h = 8192, inter = 28672, kv = 1024, vocab = 128256;
  json header = json::object();
  std::uint64_t off = 0;
  auto add = [&](const std::string& name, std::vector<std::int64_t> shape) {
    std::uint64_t n = 2;
    for (auto d : shape) n *= static_cast<std::uint64_t>(d);
    header[name] = {{"dtype", "BF16"}, {"shape", shape}, {"data_offsets", {off, off + n}}};
    off += n;
  };
  add("model.embed_tokens.weight", {vocab, h});
  for (int l = 0; l < 80; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    add(p + "input_layernorm.weight", {h});
    add(p + "self_attn.q_proj.weight", {h, h});
    add(p + "self_attn.k_proj.weight", {kv, h});
    add(p + "self_attn.v_proj.weight", {kv, h});
    add(p + "self_attn.o_proj.weight", {h, h});
    add(p + "post_attention_layernorm.weight", {h});
    add(p + "mlp.gate_proj.weight", {inter, h});
    add(p + "mlp.up_proj.weight", {inter, h});
    add(p + "mlp.down_proj.weight", {h, inter});
  }
  add("model.norm.weight", {h});
  add("lm_head.weight", {vocab, h});
  header["__metadata__"] = {{"format", "pt"}};
  const std::string text = header.dump();
  std::string prefix(8, '\0');
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
  file_size = 8 + text.size() + off;
  return prefix + text;
}

json time_header() {
  std::uint64_t size = 0;
  const std::string bytes = llama70b_header(size);
  auto read = [&] {
    std::string_view prefix;
    for (;;) {
      const vram::io::HeaderStep step = vram::io::read_header("model.safetensors", prefix, size);
      if (const auto* f = std::get_if<vram::io::FileHeader>(&step)) return *f;
      prefix = std::string_view(bytes).substr(0, std::get<vram::io::PrefixRequest>(step).bytes);
    }
  };
  const vram::io::FileHeader f = read();
  return {{"file_size_bytes", size},
          {"bytes_read", f.bytes_read},
          {"tensors", f.tensors.size()},
          {"read_ms", median_us(7, 20, read) / 1000}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: vram-bench SCENARIOS.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream ss;
  ss << in.rdbuf();
  const json scenarios = json::parse(ss.str(), nullptr, false);
  if (!scenarios.is_object()) {
    std::cerr << "vram-bench: " << argv[1] << " must hold a JSON object {name: scenario}\n";
    return 2;
  }
  const vram::Catalog catalog(vram::embedded_catalog_files());
  json out = {{"scenarios", json::object()}};
  for (auto it = scenarios.begin(); it != scenarios.end(); ++it)
    out["scenarios"][it.key()] = time_scenario(it->dump(), catalog);
  out["header"] = time_header();
  std::cout << out.dump(2) << "\n";
  return 0;
}
