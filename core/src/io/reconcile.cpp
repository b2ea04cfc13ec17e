// Measured figures beside the estimate (io/reconcile.hpp): one figure per
// metric out of the lines that give it, the rows of the comparison, what each
// difference points at, and the JSON answer with its accuracy case.
#include "vram/io/reconcile.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "vram/accuracy.hpp"
#include "vram/error.hpp"
#include "vram/estimate.hpp"
#include "vram/io/json_read.hpp"
#include "vram/report.hpp"
#include "vram/scenario.hpp"

namespace vram {
namespace io {

namespace {

/// What a difference between a measured figure and the estimate points at, per metric.
struct MetricMeaning {
  std::string_view metric;
  std::string_view measured_higher;  ///< the log's figure is above the estimate
  std::string_view measured_lower;   ///< the log's figure is below it
};

constexpr std::array<MetricMeaning, 12> kMeanings{{
    {"weights_bytes",
     "the checkpoint holds tensors the inventory misses (vision tower, MTP or extra heads, untied embeddings) or is "
     "stored in a wider dtype than the scenario's weights",
     "the checkpoint is smaller than modelled: a narrower dtype or quantization than the scenario's weights, or "
     "tensors the engine does not load"},
    {"kv_cache_bytes",
     "the other terms took less than modelled (activation peak, non-torch memory) or the reservation is larger "
     "(gpu_memory_utilization, the GPU total); llama.cpp: a longer n_ctx, more sequences or a wider KV type",
     "the other terms took more than modelled, so the pool got less: look at activation_bytes and non_torch_bytes; "
     "llama.cpp: a shorter n_ctx or a narrower KV type"},
    {"kv_bytes_per_token", "a token costs more than modelled: KV dtype, KV heads or head size, or layers the model "
                           "treats as sliding-window or state-only are full attention",
     "a token costs less than modelled: a narrower KV dtype, sliding-window or shared-KV layers"},
    {"kv_capacity_tokens",
     "the pool holds more tokens: it got more bytes or a token costs less (compare kv_cache_bytes first)",
     "the pool holds fewer tokens: it got fewer bytes or a token costs more (compare kv_cache_bytes first; then the KV "
     "dtype, the layer kinds and the block size)"},
    {"max_concurrency", "follows kv_capacity_tokens: more tokens in the pool, or a shorter context per request",
     "follows kv_capacity_tokens: fewer tokens in the pool, or a longer context per request"},
    {"activation_bytes",
     "the profile run peaked higher: max_num_batched_tokens, sampler and logits buffers, an attention backend's "
     "workspace (llama.cpp: n_ubatch, flash_attn off, the output layer on the GPU)",
     "the profile run peaked lower than modelled: a smaller batch, chunked prefill or a leaner attention backend "
     "(llama.cpp: a smaller n_ubatch, flash_attn on)"},
    {"non_torch_bytes",
     "memory outside PyTorch grew more: NCCL buffers (tensor parallel), cuBLAS workspaces, custom all-reduce; it "
     "depends on the driver and library versions",
     "memory outside PyTorch grew less than modelled (single GPU, no custom all-reduce, another driver)"},
    {"cuda_graph_bytes",
     "the graphs took more: more capture sizes (max_num_seqs, cudagraph_capture_sizes), full graphs, or the "
     "version's capture; vLLM captures them after sizing the KV pool, so they come on top of it",
     "the graphs took less: fewer capture sizes, piecewise graphs or enforce_eager"},
    {"peak_allocated_bytes",
     "live tensors peaked higher: activations or temporaries not counted (logits, loss, optimizer step buffers, "
     "unfused kernels) or a larger batch",
     "live tensors peaked lower: checkpointing, fused kernels or a smaller batch than the scenario's"},
    {"peak_reserved_bytes",
     "the caching allocator held more than the live peak plus its modelled cache: fragmentation "
     "(PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True reduces it)",
     "the allocator held less: expandable segments, or a live peak below the estimate"},
    {"peak_device_bytes", "the device held more: CUDA context, NCCL or other processes on the GPU",
     "the device held less than modelled"},
    {"max_context_tokens", "a longer sequence fits than estimated: the estimate's activations or states are larger "
                           "than the run's",
     "a shorter sequence fits: the run spends more per token than modelled"},
}};

constexpr std::string_view kAgrees = "agrees with the estimate within the printed precision or 1 %";
constexpr std::string_view kNoEstimate =
    "the estimate has no such figure for this scenario (another engine or workload than the log's?)";

/// `a` with `b` added in: a device's buffers of one kind are summed.
void add_into(LogFigure& a, const LogFigure& b) {
  a.bytes += b.bytes;
  a.value = static_cast<double>(a.bytes.in_bytes());
  a.tolerance += b.tolerance;
  a.lines.push_back(b.line_number);
}

/// A figure for a note: a device buffer in MiB, as llama.cpp prints it.
std::string shown(const LogFigure& f) {
  if (!f.in_bytes) return format_decimal(f.value, 2);
  return f.device.empty() ? format_iec(f.bytes) : format(f.bytes, kMiB, 2);
}

std::string line_list(const std::vector<std::int64_t>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < 8; ++i) out += (i ? ", " : "") + group_thousands(lines[i]);
  if (lines.size() > 8) out += ", ...";
  return out;
}

/// One figure per device (summed) or per line.
std::vector<LogFigure> groups_of(const std::vector<const LogFigure*>& figs, std::vector<std::string>& notes) {
  std::vector<LogFigure> groups;
  const bool devices = std::any_of(figs.begin(), figs.end(), [](const LogFigure* f) { return !f->device.empty(); });
  for (const LogFigure* f : figs) {
    if (devices && f->device.empty()) {  // llama.cpp's "KV self size" counts all devices
      notes.push_back("line " + group_thousands(f->line_number) + ": " + std::string(f->metric) +
                      " over all devices left out: the per-device lines are read");
      continue;
    }
    auto same = std::find_if(groups.begin(), groups.end(),
                             [&](const LogFigure& g) { return !f->device.empty() && g.device == f->device; });
    if (same == groups.end()) {
      groups.push_back(*f);
      groups.back().lines = {f->line_number};
    } else {
      add_into(*same, *f);
    }
  }
  for (const LogFigure& g : groups) {
    if (g.lines.size() < 2) continue;
    notes.push_back(g.device + ": " + group_thousands(static_cast<std::int64_t>(g.lines.size())) + " " +
                    std::string(g.metric) + " lines summed (lines " + line_list(g.lines) + ") = " + shown(g) +
                    "; a model with sliding-window layers has two KV caches; paste a single run");
  }
  return groups;
}

/// The figure reported for one metric: the largest device or line, as the estimate is per GPU.
std::optional<LogFigure> choose(const std::vector<const LogFigure*>& figs, std::vector<std::string>& notes) {
  std::vector<LogFigure> groups = groups_of(figs, notes);
  groups.erase(std::remove_if(groups.begin(), groups.end(),
                              [](const LogFigure& g) { return g.in_bytes && g.bytes > kMaxPlausibleBytes; }),
               groups.end());
  if (groups.empty()) return std::nullopt;
  auto best = std::max_element(groups.begin(), groups.end(), [](const LogFigure& a, const LogFigure& b) {
    return a.value < b.value;
  });
  const auto agrees = [&](const LogFigure& g) { return std::fabs(g.value - best->value) <= g.tolerance + best->tolerance; };
  const bool differ = !std::all_of(groups.begin(), groups.end(), agrees);
  // Of the lines that agree with the largest, the most precise ("14.9888 GB" before "14.99GiB").
  for (auto g = groups.begin(); g != groups.end(); ++g)
    if (g->device.empty() && agrees(*g) && g->tolerance < best->tolerance) best = g;
  if (groups.size() > 1 && (differ || !best->device.empty())) {
    std::string each;
    for (std::size_t i = 0; i < groups.size() && i < 8; ++i) {
      each += (i ? ", " : "") + (groups[i].device.empty() ? "line " + group_thousands(groups[i].line_number)
                                                          : groups[i].device) + " " + shown(groups[i]);
    }
    notes.push_back(std::string(best->metric) + ": " + group_thousands(static_cast<std::int64_t>(groups.size())) +
                    (best->device.empty() ? " lines (" : " devices (") + each +
                    "): the largest is reported, as the estimate is per GPU" +
                    (best->device.empty() ? " (ranks differ, or the log holds several runs)" : ""));
  }
  if (best->lines.size() < 2) best->lines.clear();
  return *best;
}

}  // namespace

LogReading combine_figures(std::vector<LogFigure> raw, std::vector<std::string> notes) {
  LogReading r;
  for (const auto& m : kMetricUnits) {
    std::vector<const LogFigure*> figs;
    for (const LogFigure& f : raw)
      if (f.metric == m.name) figs.push_back(&f);
    if (figs.empty()) continue;
    if (auto f = choose(figs, notes)) r.found.push_back(std::move(*f));
  }
  r.notes = std::move(notes);
  return r;
}

std::vector<ReconcileRow> reconcile_rows(const LogReading& log, const Report& report) {
  std::vector<ReconcileRow> rows;
  for (const LogFigure& f : log.found) {
    ReconcileRow row;
    row.metric = f.metric;
    row.measured = f.value;
    row.tolerance = f.tolerance;
    row.meaning = kNoEstimate;
    if (const Metric* m = report.find_metric(f.metric)) row.estimated = m->value;
    for (const auto& [name, range] : report.metric_ranges) {
      if (name != f.metric) continue;
      row.range = range;
      row.in_range = static_cast<double>(range.low.in_bytes()) <= f.value &&
                     f.value <= static_cast<double>(range.high.in_bytes());
    }
    if (row.estimated) {
      const double diff = *row.estimated - row.measured;
      if (row.measured > 0) row.error = diff / row.measured;
      row.within_tolerance = std::fabs(diff) <= row.tolerance;
      const auto meaning = std::find_if(kMeanings.begin(), kMeanings.end(),
                                        [&](const MetricMeaning& e) { return e.metric == f.metric; });
      if (row.within_tolerance || (row.error && std::fabs(*row.error) <= 0.01))
        row.meaning = kAgrees;
      else if (meaning != kMeanings.end())
        row.meaning = diff < 0 ? meaning->measured_higher : meaning->measured_lower;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace io

namespace {

// The answer keeps its keys in the contract's order (id, source, quote, ... for the case).
using json = nlohmann::ordered_json;

/// A count or a byte figure as a JSON integer; a ratio as a number.
json figure_value(std::string_view metric, double v) {
  const auto unit = metric_unit(metric);
  if (unit && *unit != MetricUnit::ratio) return static_cast<std::int64_t>(std::llround(v));
  return v;
}

json found_json(const io::LogFigure& f) {
  json j = {{"metric", f.metric}};
  if (f.in_bytes)
    j["bytes"] = f.bytes.in_bytes();
  else
    j["value"] = figure_value(f.metric, f.value);
  j["tolerance"] = figure_value(f.metric, f.tolerance);
  j["line"] = f.line;
  j["line_number"] = f.line_number;
  j["source"] = io::to_string(f.source);
  if (!f.device.empty()) j["device"] = f.device;
  if (!f.lines.empty()) j["lines"] = f.lines;
  return j;
}

json row_json(const io::ReconcileRow& r) {
  json j = {{"metric", r.metric}, {"measured", figure_value(r.metric, r.measured)}};
  j["estimated"] = r.estimated ? figure_value(r.metric, *r.estimated) : json(nullptr);
  j["error"] = r.error ? json(*r.error) : json(nullptr);
  j["in_range"] = r.in_range ? json(*r.in_range) : json(nullptr);
  if (r.range) j["range"] = {r.range->low.in_bytes(), r.range->high.in_bytes()};
  j["tolerance"] = figure_value(r.metric, r.tolerance);
  j["within_tolerance"] = r.within_tolerance;
  j["meaning"] = r.meaning;
  return j;
}

/// "pasted-vllm-meta-llama-llama-3.1-8b": an id the user may keep or change.
std::string case_id(const io::LogReading& log, const std::string& model_ref) {
  std::string id = "pasted-" + std::string(io::to_string(log.found.front().source)) + "-";
  for (const char c : model_ref) {
    const char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool keep = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '.';
    if (keep)
      id += l;
    else if (id.back() != '-')
      id += '-';
    if (id.size() >= 64) break;
  }
  while (id.back() == '-') id.pop_back();
  return id;
}

/// The accuracy case (CONTRACT section 4) of the log's figures; zero figures
/// are left out (a case's measured figures are positive).
json case_json(const io::LogReading& log, const json& scenario, const std::string& model_ref, json& notes) {
  json measured = json::object();
  std::vector<std::pair<std::int64_t, const std::string*>> lines;  // each quoted line once, in log order
  for (const io::LogFigure& f : log.found) {
    if (!(f.value > 0)) {
      notes.push_back(std::string(f.metric) + " is 0 in the log: left out of the case (measured figures are positive)");
      continue;
    }
    measured[std::string(f.metric)] = figure_value(f.metric, f.value);
    lines.emplace_back(f.line_number, &f.line);
  }
  std::sort(lines.begin(), lines.end());
  std::string quote;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0 && lines[i].first == lines[i - 1].first) continue;
    if (!quote.empty()) quote += '\n';
    quote += *lines[i].second;
  }
  std::string case_notes = "Read from a pasted log by vram-budget reconcile; per GPU.";
  for (const auto& n : notes) {
    case_notes += ' ';
    case_notes += n.get_ref<const std::string&>();
    case_notes += '.';
  }
  return {{"id", case_id(log, model_ref)}, {"source", "pasted log"}, {"quote", quote}, {"kind", "exact"},
          {"scenario", scenario},          {"measured", measured},   {"notes", case_notes}};
}

/// `f()`, with the path of an `InputError` put under `prefix`.
template <typename F>
auto under(const std::string& prefix, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    throw InputError(prefix + e.path(), e.what());
  }
}

/// A log printed by an inference engine compared with another workload or engine would set figures of one
/// program beside an estimate of another: refused at "/log", naming both.
void check_log_matches(const io::LogReading& reading, const Scenario& s) {
  for (const io::LogFigure& f : reading.found) {
    if (f.source == io::LogSource::pytorch) continue;
    const Engine want = f.source == io::LogSource::vllm ? Engine::vllm : Engine::llama_cpp;
    if (s.workload == Workload::inference && s.inference().engine == want) continue;
    const std::string scenario = s.workload == Workload::inference
                                     ? "inference with engine " + std::string(to_string(s.inference().engine))
                                     : std::string(to_string(s.workload));
    throw InputError("/log", "is " + std::string(f.source == io::LogSource::vllm ? "vLLM" : "llama.cpp") +
                                 "'s output (line " +
                                 group_thousands(f.line_number) + ") and the scenario is " + scenario +
                                 ": set the workload to inference with engine " + to_string(want) +
                                 ", or paste what this scenario's program printed (PyTorch's peaks for training, "
                                 "image and video)");
  }
}

std::string reconcile_text(const std::string& log, const std::string& scenario_text, const Catalog& catalog) {
  const nlohmann::json doc = under("/scenario", [&] { return io::read_json(scenario_text, "the scenario"); });
  const Scenario s = under("/scenario", [&] { return parse_scenario(doc, catalog); });
  io::LogOptions options;
  if (s.workload == Workload::inference) {
    options.block_size = s.inference().vllm.block_size;
    options.context = s.inference().context;
  }
  const io::LogReading reading = io::read_log(log, options);
  check_log_matches(reading, s);
  const Report report = under("/scenario", [&] { return estimate(s); });
  json found = json::array(), rows = json::array(), notes = json::array();
  for (const io::LogFigure& f : reading.found) found.push_back(found_json(f));
  for (const io::ReconcileRow& r : io::reconcile_rows(reading, report)) rows.push_back(row_json(r));
  for (const std::string& n : reading.notes) notes.push_back(n);
  json answer = {{"ok", true}, {"v", 1}, {"found", found}, {"rows", rows}};
  answer["case"] = case_json(reading, json(doc), s.model_ref, notes);
  answer["notes"] = notes;
  return answer.dump(-1, ' ', true, json::error_handler_t::replace);
}

}  // namespace

std::string reconcile_json(const std::string& log, const std::string& scenario_text, const Catalog& catalog) {
  return text_or_error([&] { return reconcile_text(log, scenario_text, catalog); });
}

}  // namespace vram
