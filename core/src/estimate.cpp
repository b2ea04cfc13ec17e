#include "vram/estimate.hpp"

#include <map>

#include "vram/budget/kv_cache.hpp"
#include "vram/engines/llamacpp.hpp"
#include "vram/engines/transformers.hpp"
#include "vram/engines/vllm.hpp"
#include "vram/error.hpp"

namespace vram {

using nlohmann::json;

namespace {

json model_summary(const Scenario& s) {
  const Model& m = s.model;
  const Architecture& a = m.arch;
  json j;
  j["ref"] = s.model_ref;
  j["family"] = a.family;
  j["model_type"] = a.model_type;
  j["params"] = parameter_count(m.tensors);
  j["params_text"] = parameter_count(m.tensors, TensorStage::text);
  j["params_vision"] = parameter_count(m.tensors, TensorStage::vision);
  j["params_mtp"] = parameter_count(m.tensors, TensorStage::mtp);
  j["active_params"] = active_parameter_count(m);
  j["weights_format"] = s.weights.name;
  j["weights_summary"] = s.weights.summary;
  if (a.family != "bare") {
    j["hidden_size"] = a.hidden;
    j["layers"] = a.layers;
    j["attention_heads"] = a.heads;
    j["kv_heads"] = a.kv_heads;
    j["head_dim"] = a.head_dim;
    j["vocab_size"] = a.vocab;
    j["max_context"] = a.max_positions;
    std::map<std::string, int> kinds;
    for (const auto& l : a.layer_specs) kinds[to_string(l.kind)] += 1;
    j["layer_kinds"] = kinds;
    if (a.experts > 0) {
      j["experts"] = a.experts;
      j["experts_per_token"] = a.experts_per_token;
    }
  }
  if (m.checkpoint_bytes) j["checkpoint_bytes"] = m.checkpoint_bytes->in_bytes();
  return j;
}

}  // namespace

Report estimate(const Scenario& s) {
  Report r;
  r.defaults_used = s.defaults_used;
  r.warnings = s.warnings;
  switch (s.inference.engine) {
    case Engine::vllm: vllm::account(s, r); break;
    case Engine::llama_cpp: llamacpp::account(s, r); break;
    case Engine::transformers: transformers_engine::account(s, r); break;
  }
  r.capacity = s.gpu.memory;
  r.usable = scale_floor(s.gpu.memory, 1.0 - s.headroom);
  r.free = r.usable - r.total;
  r.fits = r.free >= Bytes{};
  if (s.inference.engine == Engine::vllm && s.model.arch.family != "bare") {
    const Metric* conc = r.find_metric("max_concurrency");
    if (conc != nullptr && conc->value + 1e-9 < static_cast<double>(s.inference.concurrency)) r.fits = false;
  }
  Bytes outside_allocator;
  for (const auto& c : r.components) {
    if (c.id == "cuda_context" || c.id == "non_torch" || c.id == "cuda_graphs") outside_allocator += c.bytes;
  }
  if (s.inference.engine != Engine::llama_cpp) r.metric("peak_reserved_bytes", static_cast<double>((r.total - outside_allocator).in_bytes()));
  r.metric("peak_device_bytes", static_cast<double>(r.total.in_bytes()));
  r.details["model"] = model_summary(s);
  r.details["gpu"] = {{"id", s.gpu.id}, {"name", s.gpu.name}, {"memory_bytes", s.gpu.memory.in_bytes()}, {"count", s.gpu_count}};
  r.details["headroom"] = s.headroom;
  r.details["usable_formula"] = format_iec(s.gpu.memory) + " × (1 − " + std::to_string(static_cast<int>(s.headroom * 100 + 0.5)) +
                                " % headroom) = " + format_iec(r.usable);
  return r;
}

json error_json(const std::string& path, const std::string& message) {
  return {{"ok", false}, {"error", {{"path", path}, {"message", message}}}};
}

json estimate_json(const std::string& text, const Catalog& catalog) {
  try {
    return to_json(estimate(parse_scenario_text(text, catalog)));
  } catch (const InputError& e) {
    return error_json(e.path(), e.what());
  } catch (const json::exception& e) {
    return error_json("", std::string("invalid JSON value: ") + e.what());
  } catch (const std::exception& e) {
    return error_json("", std::string("internal error: ") + e.what());
  } catch (...) {
    return error_json("", "internal error");
  }
}

}  // namespace vram
