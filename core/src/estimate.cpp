#include "vram/estimate.hpp"

#include <algorithm>
#include <map>

#include "vram/budget/kv_cache.hpp"
#include "vram/engines/llamacpp.hpp"
#include "vram/engines/transformers.hpp"
#include "vram/engines/vllm.hpp"
#include "vram/error.hpp"
#include "vram/io/json_writer.hpp"

namespace vram {

using nlohmann::json;

std::string model_summary_json(const Scenario& s) {
  const Model& m = *s.model;
  const Architecture& a = m.arch;
  io::ObjectText j;
  j.set("ref", s.model_ref);
  j.set("family", a.family);
  j.set("model_type", a.model_type);
  j.set("params", parameter_count(m.tensors));
  j.set("params_text", parameter_count(m.tensors, TensorStage::text));
  j.set("params_vision", parameter_count(m.tensors, TensorStage::vision));
  j.set("params_mtp", parameter_count(m.tensors, TensorStage::mtp));
  j.set("active_params", active_parameter_count(m));
  j.set("weights_format", s.weights.name);
  j.set("weights_summary", s.weights.summary);
  if (a.family != "bare") {
    j.set("hidden_size", a.hidden);
    j.set("layers", a.layers);
    j.set("attention_heads", a.heads);
    j.set("kv_heads", a.kv_heads);
    j.set("head_dim", a.head_dim);
    j.set("vocab_size", a.vocab);
    j.set("max_context", a.max_positions);
    std::map<std::string, int> kinds;
    for (const auto& l : a.layer_specs) kinds[to_string(l.kind)] += 1;
    io::ObjectText k;
    for (const auto& [name, n] : kinds) k.set(name, n);
    j.set_raw("layer_kinds", k.str());
    if (a.experts > 0) {
      j.set("experts", a.experts);
      j.set("experts_per_token", a.experts_per_token);
    }
  }
  if (m.checkpoint_bytes) j.set("checkpoint_bytes", m.checkpoint_bytes->in_bytes());
  // Where the parameters are: elements per tensor role, largest first.
  std::vector<std::pair<std::string, std::int64_t>> roles;
  for (const auto& t : m.tensors) {
    const std::string name = to_string(t.role);
    auto it = std::find_if(roles.begin(), roles.end(), [&](const auto& r) { return r.first == name; });
    if (it == roles.end())
      roles.emplace_back(name, t.elements());
    else
      it->second += t.elements();
  }
  std::stable_sort(roles.begin(), roles.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  std::string by_role;  // an array keeps the order in every JSON reader
  io::JsonWriter w(by_role);
  w.begin_array();
  for (const auto& [name, n] : roles) w.begin_object().key("role").value(name).key("params").value(n).end_object();
  w.end_array();
  j.set_raw("params_by_role", by_role);
  return j.str();
}

Report estimate(const Scenario& s, const EstimateOptions& options) {
  Report r;
  r.explain = options.explain;
  if (r.explain) {
    r.defaults_used = s.defaults_used;
    r.warnings = s.warnings;
  }
  switch (s.inference.engine) {
    case Engine::vllm: vllm::account(s, r, options.memo); break;
    case Engine::llama_cpp: llamacpp::account(s, r, options.memo); break;
    case Engine::transformers: transformers_engine::account(s, r, options.memo); break;
  }
  r.capacity = s.gpu.memory;
  r.usable = scale_floor(s.gpu.memory, 1.0 - s.headroom);
  r.free = r.usable - r.total;
  r.fits = r.free >= Bytes{} && r.engine_admits;
  if (!r.explain) return r;
  Bytes outside_allocator;
  for (const auto& c : r.components) {
    if (c.id == "cuda_context" || c.id == "non_torch" || c.id == "cuda_graphs") outside_allocator += c.bytes;
  }
  if (s.inference.engine != Engine::llama_cpp)
    r.metric("peak_reserved_bytes", static_cast<double>((r.total - outside_allocator).in_bytes()));
  r.metric("peak_device_bytes", static_cast<double>(r.total.in_bytes()));
  io::ObjectText gpu;
  gpu.set("id", s.gpu.id)
      .set("name", s.gpu.name)
      .set("memory_bytes", s.gpu.memory.in_bytes())
      .set("count", s.gpu_count);
  r.detail("gpu", gpu.str());
  io::ObjectText weights;
  weights.set("format", s.weights.name).set("summary", s.weights.summary);
  r.detail("weights", weights.str());
  io::ObjectText fit;
  fit.set("headroom", s.headroom)
      .set("usable_formula", format_iec(s.gpu.memory) + " × (1 − " +
                                 std::to_string(static_cast<int>(s.headroom * 100 + 0.5)) +
                                 " % headroom) = " + format_iec(r.usable));
  r.detail("fit", fit.str());
  return r;
}

json error_json(const std::string& path, const std::string& message) {
  return {{"ok", false}, {"error", {{"path", path}, {"message", message}}}};
}

std::string estimate_json(const std::string& text, const Catalog& catalog) {
  try {
    return to_json_text(estimate(parse_scenario_text(text, catalog)));
  } catch (const InputError& e) {
    return error_json(e.path(), e.what()).dump();
  } catch (const json::exception& e) {
    return error_json("", std::string("invalid JSON value: ") + e.what()).dump();
  } catch (const std::exception& e) {
    return error_json("", std::string("internal error: ") + e.what()).dump();
  } catch (...) {
    return error_json("", "internal error").dump();
  }
}

}  // namespace vram
