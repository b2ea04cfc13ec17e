#include "vram/io/render.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

using namespace vram;

namespace {

// A reader of rendered formulas (the grammar in io/render.hpp), independent of
// the renderer: it recomputes every sum, difference and product from the
// numbers in the text and checks each stated "= N B" against them.

/// A figure read back, with how far the rounding of its real factors may move it.
struct Value {
  long double v = 0;
  long double tol = 0;  ///< absolute, from the rounding of real factors to four decimals
  bool real = false;
};

std::size_t find_top(std::string_view s, std::string_view sep) {
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (depth == 0 && s.substr(i, sep.size()) == sep) return i;
  }
  return std::string_view::npos;
}

std::vector<std::string_view> split_top(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  for (std::size_t at = find_top(s, sep); at != std::string_view::npos; at = find_top(s, sep)) {
    out.push_back(s.substr(0, at));
    s.remove_prefix(at + sep.size());
  }
  out.push_back(s);
  return out;
}

/// The first number that stands alone ("requested 1,024 B" → 1024), with its decimals.
Value leading_number(std::string_view s, std::string_view* rest = nullptr) {
  std::size_t i = 0;
  while (i < s.size() && !(std::isdigit(static_cast<unsigned char>(s[i])) && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '-')))
    ++i;
  REQUIRE(i < s.size());
  const bool negative = i > 0 && s[i - 1] == '-';
  std::string digits;
  int decimals = -1;
  for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == ',' || s[i] == '.'); ++i) {
    if (s[i] == ',') continue;
    if (decimals >= 0) ++decimals;
    if (s[i] == '.') decimals = 0;
    digits += s[i];
  }
  if (rest) *rest = s.substr(i);
  Value v;
  v.v = std::stold(digits) * (negative ? -1 : 1);
  // The renderer writes a real factor rounded to four decimals, trailing zeros dropped.
  v.real = decimals > 0;
  v.tol = v.real ? 0.5e-4L : 0;
  return v;
}

Value group_value(std::string_view inner);

Value factor_value(std::string_view f) {
  while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
  if (!f.empty() && f.front() == '(') {
    const std::size_t close = find_top(f, ")");
    REQUIRE(close != std::string_view::npos);
    return group_value(f.substr(1, close - 1));
  }
  std::string_view label;
  Value v = leading_number(f, &label);
  if (label.size() > 1 && label[0] == ' ') label.remove_prefix(1);
  const long double scale = label.substr(0, 3) == "GiB" ? 1024.0L * 1024 * 1024 : label.substr(0, 3) == "MiB" ? 1024.0L * 1024 : 1;
  v.v *= scale;
  v.tol *= scale;
  return v;
}

Value expr_value(std::string_view e) {
  if (find_top(e, " − ") != std::string_view::npos || find_top(e, " + ") != std::string_view::npos) {
    const bool minus = find_top(e, " − ") != std::string_view::npos;
    const auto parts = split_top(e, minus ? " − " : " + ");
    Value total = expr_value(parts[0]);
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const Value p = expr_value(parts[i]);
      total.v += minus ? -p.v : p.v;
      total.tol += p.tol;
      total.real = total.real || p.real;
    }
    return total;
  }
  Value product{1, 0, false};
  for (std::string_view f : split_top(e, " × ")) {
    const Value x = factor_value(f);
    product.tol = product.tol * std::fabs(x.v) + x.tol * std::fabs(product.v) + product.tol * x.tol;
    product.v *= x.v;
    product.real = product.real || x.real;
  }
  return product;
}

/// "[what: ]expr = N B..." → N, after checking that expr computes N.
Value group_value(std::string_view text) {
  const std::size_t eq = find_top(text, " = ");
  if (eq == std::string_view::npos) return factor_value(text);  // a figure alone
  std::string_view left = text.substr(0, eq);
  const std::size_t colon = find_top(left, ": ");
  if (colon != std::string_view::npos) left.remove_prefix(colon + 2);
  const Value computed = expr_value(left);
  const Value stated = leading_number(text.substr(eq + 3));
  INFO("in: " << std::string(text));
  if (computed.real) {
    // A real factor is rounded once to whole bytes (≤ 1 B) and shown to its decimals.
    CHECK(std::fabs(static_cast<double>(computed.v - stated.v)) <= static_cast<double>(computed.tol) + 1.0);
  } else {
    CHECK(computed.v == stated.v);
  }
  return Value{stated.v, 0, false};
}

void check_report(const Report& r) {
  REQUIRE(!r.components.empty());
  for (const auto& c : r.components) {
    INFO(std::string(c.id) << ": " << c.formula);
    REQUIRE(!c.formula.empty());
    CHECK(c.formula.find("{}") == std::string::npos);  // every template hole filled
    const Value v = group_value(c.formula);
    CHECK(v.v == static_cast<long double>(c.bytes.in_bytes()));
    if (c.range) CHECK((c.range->low <= c.bytes && c.bytes <= c.range->high));
  }
  // The engine's own figures: what it requests and what is left for the KV cache.
  for (const auto& [key, text] : r.details) {
    if (key != "engine") continue;
    const auto e = nlohmann::json::parse(text);
    INFO(e.dump());
    if (!e.contains("requested_formula")) continue;  // vLLM's reservation only
    CHECK(group_value(e["requested_formula"].get<std::string>()).v == e["requested_bytes"].get<std::int64_t>());
    const Value left = group_value(e["kv_available_formula"].get<std::string>());
    if (left.v > 0) CHECK(left.v == e["kv_available_bytes"].get<std::int64_t>());
  }
}

}  // namespace

TEST_CASE("render writes factors, the exact figure and the rounded one", "[render]") {
  const Term t = Term::product({Factor::of(13'000'000'000, "params"), Factor::bytes(2, "bf16")});
  CHECK(io::render(t) == "13,000,000,000 params × 2 B (bf16) = 26,000,000,000 B ≈ 24.21 GiB");
  const Term rotary = Term::product({Factor::of(131'072, "positions"), Factor::of(128, "rotary dims"), Factor::bytes(2)})
                          .shown_in(kMiB);
  CHECK(io::render(rotary) == "131,072 positions × 128 rotary dims × 2 B = 33,554,432 B ≈ 32.00 MiB");
  const Term per = Term::product({Factor::of(32, "layers"), Factor::of(2, "(K,V)"), Factor::of(8, "KV heads"),
                                  Factor::of(128, "dims"), Factor::bytes(2, "bf16")})
                       .per_unit("token")
                       .noted("{} Mamba layers hold a constant state instead", {28});
  CHECK(io::render(per) ==
        "32 layers × 2 (K,V) × 8 KV heads × 128 dims × 2 B (bf16) = 131,072 B/token; 28 Mamba layers hold a constant "
        "state instead");
  const Term fixed = Term::product({Factor::gib(0.25)}, Rounding::nearest).named("workspaces").noted("measured");
  CHECK(io::render(fixed) == "workspaces: 0.25 GiB = 268,435,456 B ≈ 0.25 GiB; measured");
}

TEST_CASE("a unit or note template fills each {} in turn and leaves other braces alone", "[render]") {
  const auto note = [](std::string_view text, std::array<std::int64_t, 4> args) {
    return io::render(Term::product({Factor::of(1, "x")}).per_unit("t").noted(text, args));
  };
  CHECK(note("{}", {1234}) == "1 x = 1 B/t; 1,234");
  CHECK(note("{}{} and {}", {1, 2, 3000}) == "1 x = 1 B/t; 12 and 3,000");
  CHECK(note("a { b } {{}} c {", {5}) == "1 x = 1 B/t; a { b } {5} c {");
  CHECK(note("ends with {", {}) == "1 x = 1 B/t; ends with {");
  CHECK(note("{} {} {} {} {}", {1, 2, 3, 4}) == "1 x = 1 B/t; 1 2 3 4 0");  // past the arguments: 0
  const Term unit = Term::product({Factor::of(8, "cells ({} streams × {})").with(2, 4096), Factor::bytes(2)});
  CHECK(io::render(unit) == "8 cells (2 streams × 4,096) × 2 B = 16 B ≈ 0.00 GiB");
}

TEST_CASE("a layer split reads GPU by GPU, then the host", "[render][llamacpp]") {
  CHECK(io::render_layers(0, 17, false) == "layers 0–16");
  CHECK(io::render_layers(5, 6, false) == "layer 5");
  CHECK(io::render_layers(3, 3, true) == "no layers + output");
  const std::vector<io::SplitShare> gpus = {{true, 0, 17, false, Bytes::of(4'692'251'770)},
                                            {true, 17, 32, true, Bytes::of(4'853'313'290)},
                                            {false, 0, 0, false, Bytes{}}};
  CHECK(io::render_layer_split(gpus, 0, false, Bytes::of(279'172'874)) ==
        "GPU 0: layers 0–16, 4.37 GiB; GPU 1: layers 17–31 + output, 4.52 GiB; GPU 2: idle; host: token_embd, 0.26 GiB");
  CHECK(io::render_layer_split({{true, 4, 32, true, Bytes::of(1LL << 32)}}, 4, false, Bytes::of(1LL << 30)) ==
        "GPU 0: layers 4–31 + output, 4.00 GiB; host: token_embd + layers 0–3, 1.00 GiB");
}

TEST_CASE("the usable memory reads as the engine's reservation or as the headroom", "[render][fit]") {
  const Bytes gib = Bytes::of(1LL << 30);
  TextBuffer a;
  io::render_usable_headroom(a, gib * 80, 0.1, gib * 72);
  CHECK(a.view() == "80.00 GiB × (1 − 10 % headroom) = 72.00 GiB");
  TextBuffer b;
  io::render_usable_reserved(b, gib * 72, Bytes::of(3LL << 29), Bytes::of(147LL << 29), gib * 80);
  CHECK(b.view() == "72.00 GiB the engine reserves + 1.50 GiB it allocates outside the reservation (CUDA context, "
                    "CUDA graphs) = 73.50 GiB of 80.00 GiB; the engine's reservation is the headroom");
}

TEST_CASE("render groups named parts and names the parts a max does not take", "[render]") {
  const Term a = Term::product({Factor::of(1024, "rows"), Factor::bytes(4)}).named("sampler step");
  const Term b = Term::product({Factor::of(512, "rows"), Factor::bytes(4)}).named("forward pass");
  const Term m = Term::max_of(terms(Term(a), Term(b)));
  CHECK(io::render(m) == "sampler step: 1,024 rows × 4 B = 4,096 B ≈ 0.00 GiB (forward pass 0.00 GiB is lower)");
  const Term s = Term::sum(terms(Term(m), Term::product({Factor::mib(32, "MiB cuBLAS workspace")})));
  CHECK(io::render(s) ==
        "(sampler step: 1,024 rows × 4 B = 4,096 B; forward pass 0.00 GiB is lower) + 32 MiB cuBLAS workspace = "
        "33,558,528 B ≈ 0.03 GiB");
  const Term d = Term::difference(terms(Term::given(Bytes::of(100)).named("requested"),
                                        Term::given(Bytes::of(30)).named("weights")));
  CHECK(io::render(d) == "requested 100 B − weights 30 B = 70 B ≈ 0.00 GiB");
  const Term w = Term::product(terms(Term(a)), {Factor::real(1.5, "(share)")}, Rounding::nearest);
  CHECK(io::render(w) == "(sampler step: 1,024 rows × 4 B = 4,096 B) × 1.5 (share) = 6,144 B ≈ 0.00 GiB");
}

TEST_CASE("a report line carries the term's range; text only when explaining", "[render][range]") {
  const Term t = Term::product({Factor::gib(0.25)}, Rounding::nearest).cite("a sweep").within(gib_range(0.2, 0.3));
  const vram::Component quiet = io::component("non_torch", "Non-torch", t, false);
  CHECK(quiet.formula.empty());
  CHECK(quiet.source.empty());
  REQUIRE(quiet.range);
  CHECK(quiet.range->high == Bytes::from_fraction(0.3, kGiB));
  const vram::Component loud = io::component("non_torch", "Non-torch", t, true, "more");
  CHECK(loud.source == "a sweep; more");
  CHECK(loud.formula == "0.25 GiB = 268,435,456 B ≈ 0.25 GiB");
}

TEST_CASE("every vLLM formula recomputes to its figure", "[render][vllm]") {
  const std::vector<nlohmann::json> scenarios = {
      {{"model", "meta-llama/Llama-3.1-8B"}, {"inference", {{"context", 32768}}}},
      {{"model", "deepseek-ai/DeepSeek-V3"},
       {"hardware", {{"gpu", "H200"}, {"count", 8}}},
       {"inference", {{"context", 32768}, {"tensor_parallel", 8}}}},
      {{"model", "Qwen/Qwen3-32B"},
       {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
       {"inference", {{"context", 16384}, {"pipeline_parallel", 2}}}},
      {{"model", "ai21labs/Jamba-v0.1"},
       {"hardware", {{"gpu", "H200"}, {"count", 2}}},
       {"inference", {{"context", 8192}, {"tensor_parallel", 2}, {"concurrency", 4}}}},
      {{"model", "tiiuae/falcon-mamba-7b"}, {"hardware", {{"gpu", "H200"}}}, {"inference", {{"concurrency", 2}}}},
      {{"model", "openai/gpt-oss-20b"},
       {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
       {"inference", {{"context", 8192}, {"tensor_parallel", 2}}}},
      {{"model", "google/gemma-3-27b-it"},
       {"hardware", {{"gpu", "H200"}}},
       {"inference", {{"context", 8192}, {"kv_cache_dtype", "fp8"}, {"concurrency", 3}}}},
      {{"model", "meta-llama/Llama-4-Scout-17B-16E-Instruct"},
       {"weights", "fp8"},
       {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 8}}},
       {"inference", {{"context", 8192}, {"tensor_parallel", 4}, {"pipeline_parallel", 2}}}},
      {{"model", "meta-llama/Llama-3.1-8B"},
       {"weights", "awq-int4"},
       {"hardware", {{"gpu", "RTX-3090"}}},
       {"inference", {{"context", 20000}, {"vllm", {{"version", "0.6.4"}}}}}},
      {{"model", "microsoft/phi-2"}, {"weights", "fp32"}, {"hardware", {{"gpu", "A10"}}}},
      {{"model", "meta-llama/Llama-3.2-11B-Vision"}, {"inference", {{"context", 8192}}}},
      {{"model", "bigscience/T0_3B"}, {"hardware", {{"gpu", "L4"}}}, {"inference", {{"context", 1024}}}},
      {{"model", {{"params", 13'000'000'000}}}},
  };
  for (const auto& j : scenarios) {
    INFO(j.dump());
    check_report(test::run(j));
  }
  // The exact checkpoint size, spread over two ranks in the inventory's proportions.
  const nlohmann::json cfg = test::catalog().find_model("meta-llama/Llama-3.1-8B")->config;
  check_report(test::run({{"model", {{"config", cfg}, {"weights_bytes", 16'060'522'496 + (1LL << 30)}}},
                          {"hardware", {{"gpu", "H100-SXM-80GB"}, {"count", 2}}},
                          {"inference", {{"context", 4096}, {"tensor_parallel", 2}}}}));
}

TEST_CASE("every llama.cpp and transformers formula recomputes to its figure", "[render][llamacpp][transformers]") {
  const nlohmann::json llama = {{"engine", "llama.cpp"}, {"context", 8192}};
  const std::vector<nlohmann::json> scenarios = {
      {{"model", "meta-llama/Llama-3.1-8B-Instruct"}, {"weights", "gguf:Q4_K_M"}, {"inference", llama}},
      {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
       {"weights", "gguf:Q8_0"},
       {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
       {"inference", {{"engine", "llama.cpp"}, {"context", 16384}, {"llama_cpp", {{"flash_attn", true}}}}}},
      {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
       {"weights", "gguf:Q4_K_M"},
       {"hardware", {{"gpu", "RTX-4090"}, {"count", 2}}},
       {"inference", {{"engine", "llama.cpp"}, {"llama_cpp", {{"split_mode", "row"}}}}}},
      {{"model", "google/gemma-3-27b-it"},
       {"weights", "gguf:Q4_K_M"},
       {"inference", {{"engine", "llama.cpp"}, {"context", 32768}, {"llama_cpp", {{"n_seq_max", 2}}}}}},
      {{"model", "tiiuae/falcon-mamba-7b"}, {"weights", "gguf:Q8_0"}, {"inference", llama}},
      {{"model", {{"params", 13'000'000'000}}},
       {"weights", "gguf:Q4_K_M"},
       {"hardware", {{"count", 2}}},
       {"inference", {{"engine", "llama.cpp"}, {"llama_cpp", {{"tensor_split", {3, 1}}}}}}},
      {{"model", "meta-llama/Llama-3.1-8B-Instruct"},
       {"weights", "gguf:Q4_K_M"},
       {"inference", {{"engine", "llama.cpp"}, {"llama_cpp", {{"n_gpu_layers", 20}}}}}},
      {{"model", "Qwen/Qwen3-8B"}, {"inference", {{"engine", "transformers"}, {"context", 4096}, {"concurrency", 2}}}},
      {{"model", "google/gemma-3-27b-it"},
       {"hardware", {{"gpu", "H200"}}},
       {"inference", {{"engine", "transformers"}, {"context", 8192}}}},
      {{"model", "ai21labs/Jamba-v0.1"},
       {"hardware", {{"gpu", "H200"}, {"count", 2}}},
       {"inference", {{"engine", "transformers"}, {"tensor_parallel", 2}}}},
  };
  for (const auto& j : scenarios) {
    INFO(j.dump());
    check_report(test::run(j));
  }
}

TEST_CASE("the reader catches a formula whose arithmetic is off", "[render]") {
  // The checks above must be able to fail: a product stated 1 B too high reads back differently.
  CHECK(leading_number("= 16,385 B").v == 16'385);
  CHECK(expr_value("8,192 tokens × 2 B").v == 16'384);
  CHECK(static_cast<double>(expr_value("0.39 GiB + 0.016 GiB × 32 layers").v) == Approx(968'515'125.248));
  CHECK(expr_value("0.39 GiB + 0.016 GiB × 32 layers").real);
  CHECK(expr_value("(a: 2 B × 3 = 6 B) + requested 10 B − 1 B").v == 15);
}

TEST_CASE("a quiet estimate builds no text, only figures and ranges", "[render][vllm]") {
  static_assert(std::is_trivially_copyable_v<Factor>, "a factor holds figures and views, never an owned string");
  const Scenario s = test::scenario({{"model", "deepseek-ai/DeepSeek-V3"},
                                     {"hardware", {{"gpu", "H200"}, {"count", 8}}},
                                     {"inference", {{"context", 32768}, {"tensor_parallel", 8}}}});
  EstimateOptions quiet;
  quiet.explain = false;
  const Report q = estimate(s, quiet);
  const Report loud = estimate(s);
  REQUIRE(q.components.size() == loud.components.size());
  for (std::size_t i = 0; i < q.components.size(); ++i) {
    CHECK(q.components[i].formula.empty());
    CHECK(q.components[i].source.empty());
    CHECK(q.components[i].bytes == loud.components[i].bytes);
    CHECK(q.components[i].range == loud.components[i].range);
  }
  CHECK(q.details.empty());
  CHECK(q.total == loud.total);
}
