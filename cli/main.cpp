// vram-budget: the command-line face of the core. Reads files, prints reports.
// The subcommands, their options and their one-line descriptions are the table
// kCommands below; `vram-budget SUBCOMMAND --help` prints them.
//
// Exit status: 0 success, 2 bad input or a bad command line (the message names
// the field or the flag), 1 other failure.
#include <CLI/CLI.hpp>
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
#include "vram/io/reconcile.hpp"
#include "vram/plan.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace {

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

/// The training plan's solvers: seq_len, micro-batch, fewest GPUs.
void print_training_solvers(const nlohmann::json& p) {
  auto tokens = [](const nlohmann::json& v) {
    const auto n = v.get<std::int64_t>();
    return n > 0 ? vram::group_thousands(n) + " tokens" : std::string("none (not even the shortest fits)");
  };
  std::cout << "Longest seq_len that fits the whole card: " << tokens(p["max_seq_len"]) << "\n";
  std::cout << "Longest seq_len keeping the headroom free: " << tokens(p["max_seq_len_with_headroom"]) << "\n";
  const auto batch = p["max_micro_batch"].get<std::int64_t>();
  std::cout << "Largest micro-batch at this seq_len: " << (batch > 0 ? vram::group_thousands(batch) : "none") << "\n";
  const auto limit = p["fewest_gpus_limit"].get<std::int64_t>();
  std::cout << "Fewest GPUs of this model: "
            << (p["fewest_gpus"].is_null()
                    ? "none up to " + std::to_string(limit) +
                          (p["more_gpus_divide"].get<bool>() ? "" : " (the sharding replicates the states: more GPUs add replicas)")
                    : std::to_string(p["fewest_gpus"].get<std::int64_t>()))
            << "\n";
}

/// "1,536 × 1,536 px", or "none" where not even the smallest fits; "(the search's limit)" at its top.
std::string size_text(const nlohmann::json& v, const nlohmann::json& limit) {
  if (v.is_null()) return "none (not even the smallest size fits)";
  const auto w = v["width"].get<std::int64_t>(), h = v["height"].get<std::int64_t>();
  return vram::group_thousands(w) + " × " + vram::group_thousands(h) + " px" +
         (h == limit["height"].get<std::int64_t>() ? " (the search's limit: 4 × the longer side, native or asked)" : "");
}

std::string count_text(const nlohmann::json& v, const nlohmann::json& limit, const char* none) {
  if (v.is_null()) return none;
  const auto n = v.get<std::int64_t>();
  return vram::group_thousands(n) + (n == limit.get<std::int64_t>() ? " (the search's limit)" : "");
}

/// The generation plan's solvers: size at the aspect ratio, frames, batch, fewest GPUs.
void print_generation_solvers(const nlohmann::json& p) {
  if (p.contains("max_size"))
    std::cout << "Largest size at this aspect ratio: " << size_text(p["max_size"], p["max_size_limit"]) << "\n";
  if (p.contains("max_frames"))
    std::cout << "Most frames at this size: " << count_text(p["max_frames"], p["max_frames_limit"], "none") << "\n";
  std::cout << "Largest batch at this size: " << count_text(p["max_batch"], p["max_batch_limit"], "none") << "\n";
  std::cout << "Fewest GPUs of this model: "
            << (p["fewest_gpus"].is_null()
                    ? "none up to " + std::to_string(p["fewest_gpus_limit"].get<std::int64_t>()) +
                          (p["more_gpus_divide"].get<bool>() ? "" : " (this runtime generates on one GPU)")
                    : std::to_string(p["fewest_gpus"].get<std::int64_t>()))
            << "\n";
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
  if (p.contains("max_seq_len")) print_training_solvers(p);
  if (!p.contains("max_seq_len") && p.contains("max_micro_batch")) {  // a diffusion model's fine-tuning
    const auto batch = p["max_micro_batch"].get<std::int64_t>();
    std::cout << "Largest micro-batch at this sample size: " << (batch > 0 ? vram::group_thousands(batch) : "none")
              << "\n";
  }
  if (p.contains("max_batch")) print_generation_solvers(p);
  if (p.contains("smallest_tensor_parallel") && !p["smallest_tensor_parallel"].is_null()) {
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

/// `baselines`: the text adds the rules of thumb beside the estimator (--json always has them).
int cmd_accuracy(const vram::Catalog& catalog, const std::string& file, bool as_json, bool baselines) {
  std::string text;
  if (!read_input(file, text)) return 2;
  const vram::AccuracyRun run = vram::run_accuracy(text, catalog);
  if (as_json)
    std::cout << vram::to_json(run).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else
    std::cout << vram::to_text(run, baselines);
  // Every valid case was scored; lines that are not cases make the run's input bad.
  if (run.malformed > 0) {
    std::cerr << "vram-budget: " << run.malformed << " line(s) of " << file << " are not valid cases (listed above)\n";
    return 2;
  }
  return 0;
}

/// A figure of `metric` in its unit: bytes in GiB, tokens grouped, a ratio with two decimals.
std::string metric_text(const std::string& metric, const nlohmann::ordered_json& v) {
  if (v.is_null()) return "-";
  const auto unit = vram::metric_unit(metric);
  if (unit == vram::MetricUnit::bytes) return vram::format_iec(vram::Bytes::of(v.get<std::int64_t>()));
  if (unit == vram::MetricUnit::tokens) return vram::group_thousands(v.get<std::int64_t>());
  return vram::format_decimal(v.get<double>(), 2);
}

void print_reconcile(const nlohmann::ordered_json& p) {
  std::cout << "Found in the log:\n";
  for (const auto& f : p["found"]) {
    const std::string metric = f["metric"].get<std::string>();
    const bool bytes = f.contains("bytes");
    const std::string tolerance = bytes ? vram::group_thousands(f["tolerance"].get<std::int64_t>()) + " B"
                                        : vram::format_decimal(f["tolerance"].get<double>(), 4);
    std::printf("  line %-7lld %-22s %14s  ± %s\n      %s\n", static_cast<long long>(f["line_number"].get<std::int64_t>()),
                metric.c_str(), metric_text(metric, bytes ? f["bytes"] : f["value"]).c_str(), tolerance.c_str(),
                f["line"].get<std::string>().c_str());
  }
  std::printf("\n%-22s %14s %14s %9s  %s\n", "metric", "measured", "estimated", "error", "in range");
  for (const auto& r : p["rows"]) {
    const std::string metric = r["metric"].get<std::string>();
    const std::string error = r["error"].is_null() ? "-" : vram::format_decimal(r["error"].get<double>() * 100, 2) + " %";
    const std::string in_range = r["in_range"].is_null() ? "no range" : (r["in_range"].get<bool>() ? "yes" : "no");
    std::printf("%-22s %14s %14s %9s  %s\n      %s\n", metric.c_str(), metric_text(metric, r["measured"]).c_str(),
                metric_text(metric, r["estimated"]).c_str(), error.c_str(), in_range.c_str(),
                r["meaning"].get<std::string>().c_str());
  }
  for (const auto& n : p["notes"]) std::cout << "note: " << n.get<std::string>() << "\n";
  std::cout << "\nAccuracy case (one line of a tests/data/cases/*.jsonl file):\n"
            << p["case"].dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

int cmd_reconcile(const vram::Catalog& catalog, const std::string& log_file, const std::string& scenario_file,
                  bool as_json) {
  if (log_file == "-" && scenario_file == "-") {
    std::cerr << "vram-budget: reconcile: the log and the scenario cannot both be standard input\n";
    return 2;
  }
  std::string log, scenario;
  if (!read_input(log_file, log) || !read_input(scenario_file, scenario)) return 2;
  const nlohmann::ordered_json p = nlohmann::ordered_json::parse(vram::reconcile_json(log, scenario, catalog));
  if (as_json) std::cout << p.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  if (!p.value("ok", false)) {
    std::cerr << "vram-budget: " << p["error"].value("path", "") << ": " << p["error"].value("message", "") << "\n";
    return 2;
  }
  if (!as_json) print_reconcile(p);
  return 0;
}

int cmd_models(const vram::Catalog& catalog, bool as_json) {
  nlohmann::json list = nlohmann::json::array();
  for (const vram::CatalogModel* m_entry : catalog.models()) {
    const vram::CatalogModel& m = *m_entry;
    const std::int64_t params = vram::parameter_count(m.model.tensors);
    list.push_back({{"id", m.id},
                    {"params", params},
                    {"model_type", m.model.arch.model_type},
                    {"max_context", m.model.arch.max_positions},
                    // The checkpoint's own storage (fp8, mxfp4, awq-int4, ...), as the page's catalog names it.
                    {"dtype", m.own_format.name},
                    {"native_dtype", m.model.arch.native_dtype},
                    {"quantized", m.quantized},
                    {"checkpoint_bytes", m.model.checkpoint_bytes ? nlohmann::json(m.model.checkpoint_bytes->in_bytes())
                                                                  : nlohmann::json(nullptr)}});
    if (!as_json) {
      std::printf("%-48s %20s params  %-12s ctx %-8lld %s\n", m.id.c_str(), vram::group_thousands(params).c_str(),
                  m.model.arch.model_type.c_str(), static_cast<long long>(m.model.arch.max_positions),
                  m.own_format.name.c_str());
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


/// One subcommand: its name, the arguments after it, and what it does.
struct Command {
  const char* name;
  const char* usage;
  const char* description;
};

constexpr Command kCommands[] = {
    {"estimate", "FILE|- [--json]", "Estimate the memory of a scenario per GPU, with the fit verdict"},
    {"plan", "FILE|- [--json]", "Longest context, most sequences, GPU options and hints for a scenario"},
    {"accuracy", "FILE.jsonl|- [--json] [--baselines]", "Score the estimator against measured cases (one per line)"},
    {"inspect", "FILE... [--json]", "Read safetensors shards (+ index, config.json) or a GGUF file from their headers"},
    {"reconcile", "LOG|- --scenario FILE [--json]",
     "Set a vLLM, llama.cpp or PyTorch log's measured figures beside the scenario's estimate"},
    {"models", "[--json]", "List the catalog's models"},
    {"gpus", "[--json]", "List the catalog's GPUs and the memory each one exposes"},
};

/// "usage: vram-budget NAME ARGS" for one subcommand, or for all of them.
std::string usage_text(const CLI::App* only) {
  std::string out;
  for (const Command& c : kCommands) {
    if (only != nullptr && only->get_name() != c.name) continue;
    out += (out.empty() ? "usage: " : "       ");
    out += std::string("vram-budget ") + c.name + " " + c.usage + "\n";
  }
  if (only == nullptr) out += "'vram-budget SUBCOMMAND --help' describes each one\n";
  return out;
}

/// What the command line asked for.
struct Request {
  std::string file;
  std::vector<std::string> files;
  std::string scenario;
  bool as_json = false;
  bool baselines = false;
};

/// A subcommand with its description and its `--json` flag.
CLI::App* subcommand(CLI::App& app, const Command& c, Request& req, const char* json_help) {
  CLI::App* sub = app.add_subcommand(c.name, c.description);
  sub->add_flag("--json", req.as_json, json_help);
  return sub;
}

void declare_commands(CLI::App& app, Request& req) {
  app.require_subcommand(1);
  app.add_flag("--json", req.as_json)->group("");  // "vram-budget --json estimate FILE", as before
  const char* input = "scenario JSON file, or - for standard input";
  subcommand(app, kCommands[0], req, "print the report object (CONTRACT section 2)")
      ->add_option("FILE", req.file, input)
      ->required();
  subcommand(app, kCommands[1], req, "print the plan object")->add_option("FILE", req.file, input)->required();
  CLI::App* accuracy = subcommand(app, kCommands[2], req, "print the run as JSON (baselines included)");
  accuracy->add_option("FILE", req.file, "accuracy cases (.jsonl, CONTRACT section 4), or - for standard input")
      ->required();
  accuracy->add_flag("--baselines", req.baselines, "print the rules of thumb beside the estimator");
  subcommand(app, kCommands[3], req, "print the inspection, with a model reference a scenario can use")
      ->add_option("FILE", req.files, "model files: safetensors shards, model.safetensors.index.json, config.json, GGUF")
      ->required();
  CLI::App* reconcile = subcommand(app, kCommands[4], req, "print found figures, rows, notes and the case as JSON");
  reconcile->add_option("LOG", req.file, "the pasted log (a file), or - for standard input")->required();
  reconcile->add_option("--scenario", req.scenario, "the scenario the log was run with (JSON file, or -)")
      ->required()
      ->type_name("FILE");
  reconcile->footer("Recognised: " + std::string(vram::io::recognised_lines()) + ".\n");
  subcommand(app, kCommands[5], req, "print the list as JSON");
  subcommand(app, kCommands[6], req, "print the list as JSON");
}

int run(const CLI::App& app, const Request& req) {
  const vram::Catalog catalog(vram::embedded_catalog_files());
  const std::string cmd = app.get_subcommands().front()->get_name();
  if (cmd == "estimate") return cmd_estimate(catalog, req.file, req.as_json);
  if (cmd == "plan") return cmd_plan(catalog, req.file, req.as_json);
  if (cmd == "accuracy") return cmd_accuracy(catalog, req.file, req.as_json, req.baselines);
  if (cmd == "inspect") return cmd_inspect(req.files, req.as_json);
  if (cmd == "reconcile") return cmd_reconcile(catalog, req.file, req.scenario, req.as_json);
  if (cmd == "models") return cmd_models(catalog, req.as_json);
  return cmd_gpus(catalog, req.as_json);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("GPU memory budgets: estimates, plans and accuracy against measured cases", "vram-budget");
  Request req;
  declare_commands(app, req);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e, std::cout, std::cerr);
  } catch (const CLI::ParseError& e) {
    const auto chosen = app.get_subcommands();
    const CLI::App* sub = chosen.empty() ? nullptr : chosen.front();
    // CLI11 reports a misspelt subcommand as a missing one; name the word instead.
    const bool unknown = sub == nullptr && argc > 1 && argv[1][0] != '-';
    std::cerr << "vram-budget" << (sub ? " " + sub->get_name() : std::string()) << ": "
              << (unknown ? "unknown subcommand \"" + std::string(argv[1]) + "\"" : std::string(e.what())) << "\n"
              << usage_text(sub);
    return 2;
  }
  try {
    return run(app, req);
  } catch (const vram::InputError& e) {
    std::cerr << "vram-budget: catalog: " << e.path() << ": " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "vram-budget: " << e.what() << "\n";
    return 1;
  }
}
