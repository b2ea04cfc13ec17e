// vram-budget: the command-line face of the core. Reads files, prints reports.
//
//   vram-budget estimate FILE|- [--json]
//   vram-budget plan FILE|- [--json]        longest context, concurrency, GPU options, hints
//   vram-budget accuracy FILE.jsonl [--json]
//   vram-budget inspect FILE... [--json]    safetensors shards (+ index, config.json) or a GGUF file
//   vram-budget models [--json]
//   vram-budget gpus [--json]
//
// Exit status: 0 success, 2 bad input (the message names the field), 1 other failure.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "inspect.hpp"
#include "vram/accuracy.hpp"
#include "vram/catalog.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/plan.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace {

constexpr const char* kUsage =
    "usage: vram-budget estimate FILE|- [--json]\n"
    "       vram-budget plan FILE|- [--json]\n"
    "       vram-budget accuracy FILE.jsonl [--json]\n"
    "       vram-budget inspect FILE... [--json]\n"
    "       vram-budget models [--json]\n"
    "       vram-budget gpus [--json]\n"
    "accuracy --baselines: the rules of thumb beside the estimator (--json always has them)\n";

/// Reads FILE, or standard input for "-"; says so on stderr when it cannot.
bool read_input(const std::string& name, std::string& out) {
  if (name == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream f(name, std::ios::binary);
  if (!f) {
    std::cerr << "vram-budget: cannot read " << name << "\n";
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

int cmd_estimate(const vram::Catalog& catalog, const std::string& file, bool as_json) {
  std::string text;
  if (!read_input(file, text)) return 2;
  try {
    const vram::Report r = vram::estimate(vram::parse_scenario_text(text, catalog));
    if (as_json)
      std::cout << vram::to_json_text(r) << "\n";
    else
      std::cout << vram::to_text(r);
    return 0;
  } catch (const vram::InputError& e) {
    if (as_json) std::cout << vram::error_json(e.path(), e.what()).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    std::cerr << "vram-budget: " << (e.path().empty() ? "" : e.path() + ": ") << e.what() << "\n";
    return 2;
  }
}

/// The llama.cpp n_gpu_layers solver's answer (plan_json "max_gpu_layers").
void print_gpu_layers(const nlohmann::json& g) {
  if (g.is_null()) {
    std::cout << "Most layers on the GPU(s) (llama.cpp n_gpu_layers): none (not even n_gpu_layers 0 fits)\n";
    return;
  }
  const auto n = g["n_gpu_layers"].get<std::int64_t>();
  const auto n_layer = g["n_layer"].get<std::int64_t>();
  auto iec = [&](const char* key) { return vram::format_iec(vram::Bytes::of(g[key].get<std::int64_t>())); };
  std::cout << "Most layers on the GPU(s) (llama.cpp n_gpu_layers): " << n << " of " << n_layer + 1 << " ("
            << n_layer << " layers + output)"
            << (n > n_layer ? ", all of them" : ", the first " + std::to_string(n_layer - std::min(n, n_layer)) +
                                                    " layers on the CPU")
            << "; host memory " << iec("host_bytes") << " (weights " << iec("host_weights_bytes") << " incl. token_embd"
            << ", KV " << iec("host_kv_bytes") << ")\n";
}

int cmd_plan(const vram::Catalog& catalog, const std::string& file, bool as_json) {
  std::string text;
  if (!read_input(file, text)) return 2;
  const nlohmann::json p = vram::plan_json(text, catalog);
  if (as_json) {
    std::cout << p.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return p.value("ok", false) ? 0 : 2;
  }
  if (!p.value("ok", false)) {
    std::cerr << "vram-budget: " << p["error"].value("path", "") << ": " << p["error"].value("message", "") << "\n";
    return 2;
  }
  if (p.contains("max_context_tokens")) {
    const auto ctx = p["max_context_tokens"].get<std::int64_t>();
    const auto conc = p["max_concurrency"].get<std::int64_t>();
    std::cout << "Longest context that fits: "
              << (ctx > 0 ? vram::group_thousands(ctx) + " tokens" : "none (not even one token fits on this GPU set)")
              << "\n";
    std::cout << "Most sequences at this context: " << (conc > 0 ? vram::group_thousands(conc) : "none") << "\n";
  }
  if (!p["smallest_tensor_parallel"].is_null()) {
    std::cout << "Smallest tensor-parallel size that fits: " << p["smallest_tensor_parallel"].get<std::int64_t>()
              << "\n";
  }
  if (p.contains("max_gpu_layers")) print_gpu_layers(p["max_gpu_layers"]);
  std::cout << "GPU options that fit, cheapest first:\n";
  for (const auto& o : p["gpu_options"]) {
    const std::string price = o["price_usd_per_hour"].is_null()
                                  ? "no price"
                                  : "$" + vram::format_decimal(o["price_usd_per_hour"].get<double>(), 2) + "/h";
    std::printf("  %2lld × %-44s %10s needed of %10s each  %s\n",
                static_cast<long long>(o["count"].get<std::int64_t>()), o["name"].get<std::string>().c_str(),
                vram::format_iec(vram::Bytes::of(o["total_bytes"].get<std::int64_t>())).c_str(),
                vram::format_iec(vram::Bytes::of(o["memory_bytes"].get<std::int64_t>())).c_str(), price.c_str());
  }
  for (const auto& h : p["hints"])
    std::cout << "hint: " << h["change"].get<std::string>() << " — " << h["effect"].get<std::string>() << "\n";
  return 0;
}

/// `accuracy --baselines`: the text adds the rules of thumb beside the estimator (--json always has them).
bool& accuracy_baselines() {
  static bool on = false;
  return on;
}

int cmd_accuracy(const vram::Catalog& catalog, const std::string& file, bool as_json) {
  std::string text;
  if (!read_input(file, text)) return 2;
  const vram::AccuracyRun run = vram::run_accuracy(text, catalog);
  if (as_json)
    std::cout << vram::to_json(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else
    std::cout << vram::to_text(run, accuracy_baselines());
  // Every valid case was scored; lines that are not cases make the run's input bad.
  if (run.malformed > 0) {
    std::cerr << "vram-budget: " << run.malformed << " line(s) of " << file << " are not valid cases (listed above)\n";
    return 2;
  }
  return 0;
}

int cmd_models(const vram::Catalog& catalog, bool as_json) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& m : catalog.models()) {
    const std::int64_t params = vram::parameter_count(m.model.tensors);
    list.push_back({{"id", m.id},
                    {"params", params},
                    {"model_type", m.model.arch.model_type},
                    {"max_context", m.model.arch.max_positions},
                    {"dtype", m.model.arch.native_dtype},
                    {"checkpoint_bytes", m.model.checkpoint_bytes ? nlohmann::json(m.model.checkpoint_bytes->in_bytes())
                                                                  : nlohmann::json(nullptr)}});
    if (!as_json) {
      std::printf("%-48s %20s params  %-12s ctx %-8lld %s\n", m.id.c_str(), vram::group_thousands(params).c_str(),
                  m.model.arch.model_type.c_str(), static_cast<long long>(m.model.arch.max_positions),
                  m.model.arch.native_dtype.c_str());
    }
  }
  if (as_json) std::cout << list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

int cmd_gpus(const vram::Catalog& catalog, bool as_json) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& g : catalog.gpus()) {
    list.push_back({{"id", g.id},
                    {"name", g.name},
                    {"memory_bytes", g.memory.in_bytes()},
                    {"marketing_gb", g.marketing_gb},
                    {"price_usd_per_hour",
                     g.price_usd_per_hour ? nlohmann::json(*g.price_usd_per_hour) : nlohmann::json(nullptr)}});
    if (!as_json) {
      std::printf("%-16s %-36s %18s  %10s  (sold as %g GB)\n", g.id.c_str(), g.name.c_str(),
                  vram::format_exact(g.memory).c_str(), vram::format_iec(g.memory).c_str(), g.marketing_gb);
    }
  }
  if (as_json) std::cout << list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool as_json = false;
  std::vector<std::string> positional;
  for (const auto& a : args) {
    if (a == "--json")
      as_json = true;
    else if (a == "--baselines")
      accuracy_baselines() = true;
    else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else
      positional.push_back(a);
  }
  if (positional.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    const vram::Catalog catalog(vram::embedded_catalog_files());
    const std::string& cmd = positional[0];
    if (cmd == "estimate" && positional.size() == 2) return cmd_estimate(catalog, positional[1], as_json);
    if (cmd == "plan" && positional.size() == 2) return cmd_plan(catalog, positional[1], as_json);
    if (cmd == "accuracy" && positional.size() == 2) return cmd_accuracy(catalog, positional[1], as_json);
    if (cmd == "inspect" && positional.size() >= 2)
      return cmd_inspect(std::vector<std::string>(positional.begin() + 1, positional.end()), as_json);
    if (cmd == "models" && positional.size() == 1) return cmd_models(catalog, as_json);
    if (cmd == "gpus" && positional.size() == 1) return cmd_gpus(catalog, as_json);
    std::cerr << kUsage;
    return 2;
  } catch (const vram::InputError& e) {
    std::cerr << "vram-budget: catalog: " << e.path() << ": " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "vram-budget: " << e.what() << "\n";
    return 1;
  }
}
