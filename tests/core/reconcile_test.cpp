// Measured figures read from pasted logs (io/reconcile.hpp) and set beside the
// estimate. The excerpts below are written in the format each engine prints;
// every expected byte count is the printed figure × its unit, rounded to a byte.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "test_support.hpp"
#include "vram/accuracy.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/io/reconcile.hpp"

namespace {

using nlohmann::json;
using vram::io::LogFigure;
using vram::io::LogReading;
using vram::io::read_log;

const LogFigure* find(const LogReading& r, std::string_view metric) {
  for (const auto& f : r.found)
    if (f.metric == metric) return &f;
  return nullptr;
}

std::int64_t bytes_of(const LogReading& r, std::string_view metric) {
  const LogFigure* f = find(r, metric);
  return f && f->in_bytes ? f->bytes.in_bytes() : -1;
}

bool any_note(const LogReading& r, const std::string& part) {
  for (const auto& n : r.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

/// The message of the `InputError` that `f` throws ("" when it throws none).
template <typename F>
std::string input_error(F&& f, std::string* path = nullptr) {
  try {
    f();
  } catch (const vram::InputError& e) {
    if (path) *path = e.path();
    return e.what();
  }
  return "";
}

// vLLM V1 (0.9 to 0.19): gpu_model_runner, gpu_worker, kv_cache_utils.
const char* const kVllmV1 =
    "INFO 05-12 10:00:41 [__init__.py:239] Automatically detected platform cuda.\n"
    "(VllmWorker rank=0 pid=4113) INFO 05-12 10:00:58 [gpu_model_runner.py:1329] Model loading took 14.99 GiB and "
    "5.123 seconds\n"
    "INFO 05-12 10:01:02 [gpu_worker.py:227] Memory profiling takes 4.24 seconds. Total non KV cache memory: "
    "16.57GiB; torch peak memory increase: 1.44GiB; non-torch forward increase memory: 0.14GiB; weights memory: "
    "14.99GiB.\n"
    "INFO 05-12 10:01:02 [gpu_worker.py:227] Available KV cache memory: 54.32 GiB\n"
    "INFO 05-12 10:01:03 [kv_cache_utils.py:634] GPU KV cache size: 444,992 tokens\n"
    "INFO 05-12 10:01:03 [kv_cache_utils.py:637] Maximum concurrency for 8,192 tokens per request: 54.32x\n"
    "INFO 05-12 10:01:25 [gpu_model_runner.py:1686] Graph capturing finished in 22 secs, took 0.53 GiB\n";

// vLLM V0 (0.6): worker.py and model_runner.py, "GB" for GiB.
const char* const kVllmV0 =
    "INFO 10-03 08:12:40 model_runner.py:1014] Loading model weights took 14.9888 GB\r\n"
    "INFO 10-03 08:12:44 worker.py:255] Memory profiling results: duration=3.81 seconds, total_gpu_memory=79.19GiB, "
    "initial_memory_usage=15.47GiB; model weights take 14.99GiB; non_torch_memory takes 0.14GiB; PyTorch "
    "activation peak memory takes 1.23GiB; the rest of the memory reserved for KV Cache is 54.91GiB.\r\n"
    "INFO 10-03 08:12:44 gpu_executor.py:122] # GPU blocks: 27895, # CPU blocks: 2048\r\n";

// llama-server (2025): load_tensors, llama_kv_cache_unified, llama_context.
const char* const kLlamaOneGpu =
    "load_tensors: offloading 32 repeating layers to GPU\n"
    "load_tensors: offloaded 33/33 layers to GPU\n"
    "load_tensors:        CUDA0 model buffer size =  4403.49 MiB\n"
    "load_tensors:   CPU_Mapped model buffer size =   281.81 MiB\n"
    "llama_context:  CUDA_Host  output buffer size =     0.49 MiB\n"
    "llama_kv_cache_unified:      CUDA0 KV buffer size =  1024.00 MiB\n"
    "llama_kv_cache_unified: size = 1024.00 MiB (  8192 cells,  32 layers,  1 seqs), K (f16):  512.00 MiB, V (f16):  "
    "512.00 MiB\n"
    "llama_context:      CUDA0 compute buffer size =   560.00 MiB\n"
    "llama_context:  CUDA_Host compute buffer size =    24.01 MiB\n";

}  // namespace

TEST_CASE("reconcile: a vLLM V1 startup log gives every figure with its line and precision") {
  const LogReading r = read_log(kVllmV1);
  CHECK(bytes_of(r, "weights_bytes") == 16'095'389'942);  // 14.99 × 2^30
  CHECK(bytes_of(r, "kv_cache_bytes") == 58'325'655'880);
  CHECK(bytes_of(r, "activation_bytes") == 1'546'188'227);
  CHECK(bytes_of(r, "non_torch_bytes") == 150'323'855);
  CHECK(bytes_of(r, "cuda_graph_bytes") == 569'083'167);
  REQUIRE(find(r, "kv_capacity_tokens"));
  CHECK(find(r, "kv_capacity_tokens")->value == 444'992);
  CHECK_FALSE(find(r, "kv_capacity_tokens")->in_bytes);
  CHECK(find(r, "max_concurrency")->value == Approx(54.32));
  CHECK(find(r, "max_concurrency")->tolerance == Approx(0.005));
  // 14.99 GiB is known to ±0.005 GiB = 5,368,709.12 B, rounded up.
  const LogFigure& w = *find(r, "weights_bytes");
  CHECK(w.tolerance == 5'368'710);
  CHECK(w.line_number == 2);
  CHECK(w.line.find("Model loading took 14.99 GiB") != std::string::npos);
  CHECK(w.source == vram::io::LogSource::vllm);
  CHECK(find(r, "activation_bytes")->line_number == 3);
  CHECK(find(r, "cuda_graph_bytes")->line_number == 7);
  // Vocabulary order, one figure per metric.
  CHECK(r.found.front().metric == "weights_bytes");
  CHECK(r.found.size() == 7);
}

TEST_CASE("reconcile: a vLLM V0 log reads GB as GiB and blocks × block size as tokens") {
  const LogReading r = read_log(kVllmV0, {.block_size = 16, .context = 0});
  CHECK(bytes_of(r, "weights_bytes") == 16'094'101'452);  // 14.9888 × 2^30: of the lines that agree, the most precise
  CHECK(find(r, "weights_bytes")->line_number == 1);
  CHECK(find(r, "weights_bytes")->tolerance == 53'688);  // ±0.00005 GiB
  CHECK(bytes_of(r, "kv_cache_bytes") == 58'959'163'556);    // 54.91 × 2^30
  CHECK(bytes_of(r, "activation_bytes") == 1'320'702'444);   // 1.23 × 2^30
  CHECK(bytes_of(r, "non_torch_bytes") == 150'323'855);      // 0.14 × 2^30
  CHECK(find(r, "kv_capacity_tokens")->value == 27'895 * 16);
  CHECK(find(r, "weights_bytes")->line.back() != '\r');
  CHECK(any_note(r, "\"GB\" read as GiB"));
  CHECK(any_note(r, "block size 16"));
  const LogReading r32 = read_log(kVllmV0, {.block_size = 32, .context = 0});
  CHECK(find(r32, "kv_capacity_tokens")->value == 27'895 * 32);
}

TEST_CASE("reconcile: vLLM's concurrency for another context than the scenario's is named") {
  const LogReading r = read_log(kVllmV1, {.block_size = 16, .context = 4096});
  CHECK(any_note(r, "8,192 tokens per request, the scenario's context is 4,096"));
  CHECK_FALSE(any_note(read_log(kVllmV1, {.block_size = 16, .context = 8192}), "tokens per request"));
}

TEST_CASE("reconcile: llama.cpp buffers of one GPU; host buffers left out") {
  const LogReading r = read_log(kLlamaOneGpu);
  CHECK(bytes_of(r, "weights_bytes") == 4'617'393'930);  // 4403.49 × 2^20
  CHECK(find(r, "weights_bytes")->tolerance == 5'243);    // ±0.005 MiB
  CHECK(find(r, "weights_bytes")->device == "CUDA0");
  CHECK(find(r, "weights_bytes")->source == vram::io::LogSource::llama_cpp);
  CHECK(bytes_of(r, "kv_cache_bytes") == 1'073'741'824);
  CHECK(bytes_of(r, "activation_bytes") == 587'202'560);
  CHECK(find(r, "activation_bytes")->line_number == 8);
  CHECK(any_note(r, "host buffers"));
  CHECK(r.found.size() == 3);
}

TEST_CASE("reconcile: llama.cpp on two GPUs reports the largest device and says so") {
  const LogReading r = read_log(
      "load_tensors:        CUDA0 model buffer size =  2200.00 MiB\n"
      "load_tensors:        CUDA1 model buffer size =  2203.49 MiB\n"
      "load_tensors:   CPU_Mapped model buffer size =   281.81 MiB\n"
      "llama_kv_cache_unified:      CUDA0 KV buffer size =   544.00 MiB\n"
      "llama_kv_cache_unified:      CUDA1 KV buffer size =   480.00 MiB\n"
      "llama_context:      CUDA0 compute buffer size =   300.00 MiB\n"
      "llama_context:      CUDA1 compute buffer size =   400.00 MiB\n");
  CHECK(bytes_of(r, "weights_bytes") == 2'310'526'730);  // CUDA1: 2203.49 × 2^20
  CHECK(find(r, "weights_bytes")->device == "CUDA1");
  CHECK(bytes_of(r, "kv_cache_bytes") == std::int64_t{544} << 20);
  CHECK(find(r, "kv_cache_bytes")->device == "CUDA0");
  CHECK(bytes_of(r, "activation_bytes") == std::int64_t{400} << 20);
  CHECK(any_note(r, "weights_bytes: 2 devices (CUDA0 2200.00 MiB, CUDA1 2203.49 MiB): the largest is reported, as the "
                    "estimate is per GPU"));
}

TEST_CASE("reconcile: a device's two KV caches (sliding-window layers) are summed, with both lines") {
  const LogReading r = read_log(
      "llama_kv_cache_unified_iswa: creating non-SWA KV cache, size = 8192 cells\n"
      "llama_kv_cache_unified:      CUDA0 KV buffer size =   640.00 MiB\n"
      "llama_kv_cache_unified_iswa: creating     SWA KV cache, size = 1024 cells\n"
      "llama_kv_cache_unified:      CUDA0 KV buffer size =    80.00 MiB\n");
  CHECK(bytes_of(r, "kv_cache_bytes") == std::int64_t{720} << 20);
  CHECK(find(r, "kv_cache_bytes")->lines == std::vector<std::int64_t>{2, 4});
  CHECK(find(r, "kv_cache_bytes")->tolerance == 2 * 5'243);
  CHECK(any_note(r, "CUDA0: 2 kv_cache_bytes lines summed (lines 2, 4) = 720.00 MiB"));
}

TEST_CASE("reconcile: older llama.cpp: llm_load_tensors buffers and KV self size") {
  const LogReading r = read_log(
      "llm_load_tensors: offloaded 33/33 layers to GPU\n"
      "llm_load_tensors:        CPU buffer size =   281.81 MiB\n"
      "llm_load_tensors:      CUDA0 buffer size =  4403.49 MiB\n"
      "llama_new_context_with_model: KV self size  = 1024.00 MiB, K (f16):  512.00 MiB, V (f16):  512.00 MiB\n"
      "llama_new_context_with_model:      CUDA0 compute buffer size =   560.00 MiB\n");
  CHECK(bytes_of(r, "weights_bytes") == 4'617'393'930);
  CHECK(bytes_of(r, "kv_cache_bytes") == 1'073'741'824);
  CHECK(find(r, "kv_cache_bytes")->line_number == 4);
  CHECK(bytes_of(r, "activation_bytes") == 587'202'560);
}

TEST_CASE("reconcile: KV self size is left out where per-device KV lines exist") {
  const LogReading r = read_log(
      "llama_kv_cache_init:      CUDA0 KV buffer size =   512.00 MiB\n"
      "llama_kv_cache_init:      CUDA1 KV buffer size =   512.00 MiB\n"
      "llama_new_context_with_model: KV self size  = 1024.00 MiB, K (f16):  512.00 MiB, V (f16):  512.00 MiB\n");
  CHECK(bytes_of(r, "kv_cache_bytes") == std::int64_t{512} << 20);
  CHECK(any_note(r, "line 3: kv_cache_bytes over all devices left out"));
}

TEST_CASE("reconcile: PyTorch max_memory_* prints, in bytes or with a unit") {
  const LogReading r = read_log(
      "step 100 loss 1.234\n"
      "torch.cuda.max_memory_allocated(): 17179869184\n"
      "torch.cuda.max_memory_reserved(0) = 18.50 GiB\n");
  CHECK(bytes_of(r, "peak_allocated_bytes") == 17'179'869'184);
  CHECK(find(r, "peak_allocated_bytes")->tolerance == 0);
  CHECK(bytes_of(r, "peak_reserved_bytes") == 19'864'223'744);  // 18.5 × 2^30, not the device id 0
  CHECK(find(r, "peak_reserved_bytes")->source == vram::io::LogSource::pytorch);
  // GB is 10^9 outside vLLM; a unit may stand before the figure.
  const LogReading si = read_log("Peak allocated memory (GB): 15.31\nPeak reserved: 16.2 GB\n");
  CHECK(bytes_of(si, "peak_allocated_bytes") == 15'310'000'000);
  CHECK(bytes_of(si, "peak_reserved_bytes") == 16'200'000'000);
  CHECK(find(si, "peak_reserved_bytes")->tolerance == 50'000'000);
  CHECK_FALSE(any_note(si, "read as GiB"));
}

TEST_CASE("reconcile: torch.cuda.memory_summary() peaks, whole units or decimals") {
  const std::string table =
      "|===========================================================================|\n"
      "|                  PyTorch CUDA memory summary, device ID 0                 |\n"
      "|---------------------------------------------------------------------------|\n"
      "|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |\n"
      "|===========================================================================|\n"
      "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
      "|---------------------------------------------------------------------------|\n"
      "| Allocated memory      |  14336 MiB |  71390 MiB |  92718 GiB |  92704 GiB |\n"
      "|       from large pool |  14304 MiB |  71358 MiB |  92412 GiB |  92398 GiB |\n"
      "|       from small pool |     32 MiB |     34 MiB |    306 GiB |    306 GiB |\n"
      "|---------------------------------------------------------------------------|\n"
      "| Active memory         |  14336 MiB |  71390 MiB |  92718 GiB |  92704 GiB |\n"
      "|---------------------------------------------------------------------------|\n"
      "| GPU reserved memory   |  72630 MiB |  72630 MiB |  72630 MiB |      0 B   |\n";
  const LogReading r = read_log(table);
  CHECK(bytes_of(r, "peak_allocated_bytes") == 74'857'840'640);  // 71390 × 2^20
  CHECK(find(r, "peak_allocated_bytes")->line_number == 8);
  CHECK(find(r, "peak_allocated_bytes")->tolerance == 1 << 20);  // printed rounded down: one unit
  CHECK(bytes_of(r, "peak_reserved_bytes") == 76'158'074'880);
  CHECK(any_note(r, "rounded down"));
  const LogReading d = read_log(
      "|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |\n"
      "| Allocated memory      |  14.00 GiB |  69.72 GiB |  90.54 TiB |  90.53 TiB |\n");
  CHECK(bytes_of(d, "peak_allocated_bytes") == 74'861'279'969);
  CHECK(find(d, "peak_allocated_bytes")->tolerance == 5'368'710);
}

TEST_CASE("reconcile: several ranks or runs: the largest figure, named in a note") {
  const LogReading r = read_log(
      "(VllmWorker rank=0 pid=1) INFO [gpu_worker.py:227] Available KV cache memory: 20.10 GiB\n"
      "(VllmWorker rank=1 pid=2) INFO [gpu_worker.py:227] Available KV cache memory: 20.35 GiB\n"
      "(VllmWorker rank=1 pid=2) INFO [gpu_worker.py:227] Available KV cache memory: 20.35 GiB\n");
  CHECK(find(r, "kv_cache_bytes")->line_number == 2);
  CHECK(bytes_of(r, "kv_cache_bytes") == 21'850'646'118);  // 20.35 × 2^30
  CHECK(any_note(r, "kv_cache_bytes: 3 lines (line 1 20.10 GiB, line 2 20.35 GiB, line 3 20.35 GiB)"));
  // Equal figures on several lines need no note.
  CHECK(read_log("Available KV cache memory: 1.00 GiB\nAvailable KV cache memory: 1.00 GiB\n").notes.empty());
}

TEST_CASE("reconcile: a log with nothing recognisable is an error that lists what is recognised") {
  std::string path;
  const std::string m = input_error([] { read_log("hello\nworld\n"); }, &path);
  CHECK(path == "/log");
  CHECK(m.find("no figure recognised in 2 lines") != std::string::npos);
  CHECK(m.find("Model loading took") != std::string::npos);
  CHECK(m.find("compute buffer size") != std::string::npos);
  CHECK(m.find("memory_summary") != std::string::npos);
  CHECK(input_error([] { read_log(""); }).find("no figure recognised in 0 lines") != std::string::npos);
}

TEST_CASE("reconcile: absurd figures are refused with the line named") {
  const auto refused = [](const std::string& log) { return input_error([&] { read_log(log); }); };
  CHECK(refused("x\nModel loading took 1e400 GiB\n").find("line 2: weights_bytes not read: \"1e400\" is not a finite "
                                                         "number") != std::string::npos);
  CHECK(refused("Available KV cache memory: -5.00 GiB\n").find("line 1: kv_cache_bytes not read: a negative figure") !=
        std::string::npos);
  CHECK(refused("Model loading took 9000000 TiB\n").find("more than 2^53 bytes") != std::string::npos);
  CHECK(refused("Model loading took nan GiB\n").find("\"nan\" is not a figure") != std::string::npos);
  CHECK(refused("Model loading took inf GiB\n").find("\"inf\" is not a figure") != std::string::npos);
  CHECK(refused("GPU KV cache size: 12.5 tokens\n").find("not a whole count") != std::string::npos);
  CHECK(refused("GPU KV cache size: 99999999999999999999 tokens\n").find("beyond 2^53") != std::string::npos);
  CHECK(refused("Model loading took 14.99 and 5 seconds\n").find("no unit") != std::string::npos);
  CHECK(refused("Model loading took 1" + std::string(100, '0') + " GiB\n").find("more than 64 characters") !=
        std::string::npos);
  CHECK(refused("max_memory_allocated: 1" + std::string(100, '0') + "\n").find("more than 2^53 bytes") !=
        std::string::npos);
  // A refused figure beside good ones is a note; the others are read.
  const LogReading r = read_log("Model loading took -1 GiB\nAvailable KV cache memory: 2.00 GiB\n");
  CHECK(bytes_of(r, "kv_cache_bytes") == std::int64_t{2} << 30);
  CHECK(find(r, "weights_bytes") == nullptr);
  CHECK(any_note(r, "line 1: weights_bytes not read: a negative figure"));
}

TEST_CASE("reconcile: hostile logs: 10 MB of garbage, a 1 MB line, invalid UTF-8, too long, too many figures") {
  std::string garbage(10'000'000, '\0');
  std::uint64_t x = 88172645463325252ull;  // xorshift: every byte value, '\n' included
  for (char& c : garbage) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<char>(x >> 56);
  }
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(input_error([&] { read_log(garbage); }).find("no figure recognised") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));

  std::string wide(500'000, 'M');  // "MMMM..." keeps every search busy at each byte
  wide += " Model loading took 7.50 GiB " + std::string(500'000, 'x');
  const LogReading w = read_log(wide);
  CHECK(bytes_of(w, "weights_bytes") == std::int64_t{15} << 29);
  CHECK(find(w, "weights_bytes")->line.size() < 400);
  CHECK(find(w, "weights_bytes")->line.find("took 7.50 GiB") != std::string::npos);

  const std::string bad_utf8 = "\xff\xfe INFO \xc3(\x80 Available KV cache memory: 3.00 GiB \xed\xa0\x80\n";
  CHECK(bytes_of(read_log(bad_utf8), "kv_cache_bytes") == std::int64_t{3} << 30);
  const json j = json::parse(vram::reconcile_json(bad_utf8, R"({"model": "meta-llama/Llama-3.1-8B"})",
                                                  vram::test::catalog()));
  CHECK(j["ok"] == true);
  CHECK(j["found"][0]["line"].get<std::string>().find("Available KV cache memory: 3.00 GiB") != std::string::npos);

  std::string path;
  CHECK(input_error([] { read_log(std::string(vram::io::kMaxLogBytes + 1, 'a')); }, &path)
            .find("at most 16 MiB") != std::string::npos);
  CHECK(path == "/log");

  std::string many;
  for (int i = 0; i < 5000; ++i) many += "GPU KV cache size: " + std::to_string(i + 1) + " tokens\n";
  const LogReading m = read_log(many);
  CHECK(find(m, "kv_capacity_tokens")->value == vram::io::kMaxLogFigures);
  CHECK(any_note(m, "only the first 4,096 figures were read"));
}

TEST_CASE("reconcile: rows against a catalog scenario agree with estimate_json and make a valid accuracy case") {
  const std::string scenario = R"({"model":"meta-llama/Llama-3.1-8B","inference":{"context":8192}})";
  const json r = json::parse(vram::reconcile_json(kVllmV1, scenario, vram::test::catalog()));
  REQUIRE(r["ok"] == true);
  CHECK(r["v"] == 1);
  const json report = json::parse(vram::estimate_json(scenario, vram::test::catalog()));
  REQUIRE(report["ok"] == true);
  REQUIRE(r["rows"].size() == r["found"].size());
  for (const json& row : r["rows"]) {
    const std::string metric = row["metric"];
    INFO(metric);
    REQUIRE(report["metrics"].contains(metric));
    const double est = report["metrics"][metric].get<double>();
    const double meas = row["measured"].get<double>();
    CHECK(row["estimated"].get<double>() == Approx(est));
    CHECK(row["error"].get<double>() == Approx((est - meas) / meas));
    CHECK_FALSE(row["meaning"].get<std::string>().empty());
    if (report.contains("ranges") && report["ranges"].contains(metric)) {
      const json& range = report["ranges"][metric];
      CHECK(row["range"] == range);
      CHECK(row["in_range"] == (range[0].get<double>() <= meas && meas <= range[1].get<double>()));
    } else {
      CHECK(row["in_range"].is_null());
    }
  }
  CHECK(r["found"][0] == json::parse(R"({"metric":"weights_bytes","bytes":16095389942,"tolerance":5368710,
      "line":"(VllmWorker rank=0 pid=4113) INFO 05-12 10:00:58 [gpu_model_runner.py:1329] Model loading took 14.99 GiB and 5.123 seconds",
      "line_number":2,"source":"vllm"})"));

  // The case is a valid accuracy line, scored with the same errors.
  const json& c = r["case"];
  CHECK(c["source"] == "pasted log");
  CHECK(c["kind"] == "exact");
  CHECK(c["scenario"] == json::parse(scenario));
  CHECK(c["measured"]["weights_bytes"] == 16'095'389'942);
  CHECK(c["quote"].get<std::string>().find("GPU KV cache size: 444,992 tokens") != std::string::npos);
  const vram::AccuracyRun run = vram::run_accuracy(c.dump(), vram::test::catalog());
  REQUIRE(run.cases.size() == 1);
  REQUIRE(run.cases[0].error.empty());
  CHECK(run.cases[0].checks.size() == r["rows"].size());
  for (const auto& check : run.cases[0].checks) {
    for (const json& row : r["rows"])
      if (row["metric"] == check.metric) CHECK(check.rel_error == Approx(row["error"].get<double>()));
  }
}

TEST_CASE("reconcile: each row's meaning follows the direction of the difference") {
  const std::string scenario = R"({"model":"meta-llama/Llama-3.1-8B","inference":{"context":8192}})";
  const vram::Report report = vram::estimate(vram::parse_scenario_text(scenario, vram::test::catalog()));
  const double weights = vram::test::metric(report, "weights_bytes");
  auto meaning = [&](double gib) {
    const LogReading r = read_log("Model loading took " + vram::format_decimal(gib, 2) + " GiB\n");
    return std::string(vram::io::reconcile_rows(r, report).at(0).meaning);
  };
  const double gib = weights / double(1 << 30);
  CHECK(meaning(gib).find("agrees") != std::string::npos);
  CHECK(meaning(gib * 1.2).find("tensors the inventory misses") != std::string::npos);
  CHECK(meaning(gib * 0.8).find("smaller than modelled") != std::string::npos);
  // A figure the report does not have (PyTorch peaks beside a llama.cpp estimate) has no estimate.
  const vram::Report llama = vram::estimate(vram::parse_scenario_text(
      R"({"model":"meta-llama/Llama-3.1-8B","inference":{"engine":"llama.cpp","context":8192}})",
      vram::test::catalog()));
  const auto rows = vram::io::reconcile_rows(read_log("max_memory_reserved: 1000\n"), llama);
  CHECK_FALSE(rows.at(0).estimated);
  CHECK_FALSE(rows.at(0).error);
  CHECK(std::string(rows.at(0).meaning).find("no such figure") != std::string::npos);
}

TEST_CASE("reconcile: errors name the input: /log or /scenario") {
  const auto error = [](const std::string& log, const std::string& scenario) {
    return json::parse(vram::reconcile_json(log, scenario, vram::test::catalog()));
  };
  const json bad_model = error(kVllmV1, R"({"model": "no/such-model"})");
  CHECK(bad_model["ok"] == false);
  CHECK(bad_model["error"]["path"] == "/scenario/model");
  CHECK(error(kVllmV1, "{")["error"]["path"].get<std::string>().rfind("/scenario", 0) == 0);
  const json nothing = error("nothing here", R"({"model": "meta-llama/Llama-3.1-8B"})");
  CHECK(nothing["error"]["path"] == "/log");
  // A zero figure is kept in the rows but left out of the case.
  const json zero = error("Model loading took 0.00 GiB\nAvailable KV cache memory: 3.00 GiB\n",
                          R"({"model": "meta-llama/Llama-3.1-8B"})");
  CHECK(zero["rows"].size() == 2);
  CHECK(zero["rows"][0]["error"].is_null());
  CHECK_FALSE(zero["case"]["measured"].contains("weights_bytes"));
  // An engine's log beside another workload or engine is refused, naming both.
  const json image = error(kVllmV1, R"({"workload": "image", "model": "black-forest-labs/FLUX.1-dev"})");
  CHECK(image["error"]["path"] == "/log");
  CHECK(image["error"]["message"].get<std::string>().find("vLLM's output") != std::string::npos);
  CHECK(image["error"]["message"].get<std::string>().find("the scenario is image") != std::string::npos);
  const json llama = error(kLlamaOneGpu, R"({"model": "meta-llama/Llama-3.1-8B"})");
  CHECK(llama["error"]["path"] == "/log");
  CHECK(llama["error"]["message"].get<std::string>().find("inference with engine vllm") != std::string::npos);
  // PyTorch's peaks go with any workload.
  CHECK(error("max_memory_allocated 1000000000\n", R"({"workload": "image", "model": "black-forest-labs/FLUX.1-dev"})")["ok"] ==
        true);
}
