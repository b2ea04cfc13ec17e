// Fine-tuning a diffusion model with diffusers' training scripts: the
// pipeline's components placed as the scripts place them (the trained model in
// fp32, frozen ones in the weight dtype, latents and prompt embeddings
// precomputed when the VAE or text encoders stay on the CPU), the model states
// of what trains, the denoiser's saved activations at the sample size, the
// backward's working set, the caching allocator and the CUDA context.
#include <algorithm>
#include <memory>
#include <optional>

#include "../generation/setup.hpp"
#include "vram/budget/diffusion_training.hpp"
#include "vram/budget/gradients.hpp"
#include "vram/budget/optimizer_state.hpp"
#include "vram/budget/runtime.hpp"
#include "vram/budget/training_runtime.hpp"
#include "vram/engines/training.hpp"
#include "vram/error.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/io/render.hpp"

namespace vram::training {

using generation::AdaptableModule;
using generation::ComponentKind;
using generation::Role;
using generation::TrainedModules;

namespace {

constexpr std::string_view kScriptsSource =
    "diffusers v0.35 examples/dreambooth/train_dreambooth.py, train_dreambooth_lora.py, "
    "train_dreambooth_lora_flux.py, train_dreambooth_lora_sd3.py: the trained model in fp32 (LoRA adapters in fp32 "
    "under fp16 mixed precision, cast_training_params), frozen models cast to weight_dtype, gradients kept between "
    "steps (zero_grad(set_to_none=args.set_grads_to_none), default False)";

/// The dtype the scripts cast frozen components to (`weight_dtype` from --mixed_precision).
const char* frozen_dtype(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::fp16_mixed: return "fp16";
    case Precision::bf16_mixed:
    case Precision::bf16: return "bf16";
  }
  return "bf16";
}

/// Bytes of a trained parameter: fp32 master under mixed precision, the dtype itself otherwise.
std::int64_t trained_bytes(Precision p) { return p == Precision::bf16 ? 2 : 4; }

/// The denoisers of a pipeline with several (Wan 2.2 A14B's two experts): the
/// trainers load and train one; the others must be left out by component_weights.
void keep_one_denoiser(const Scenario& s, GenerationSettings& g, generation::Pipeline& p) {
  std::string names;
  for (const auto* c : p.all(Role::denoiser)) names += (names.empty() ? "" : ", ") + c->name;
  const auto left_out = [&](const std::string& name) {
    for (const auto& [n, v] : g.component_weights)
      if (n == name && v == "none") return true;
    return false;
  };
  std::erase_if(p.components, [&](const generation::Component& c) {
    return role_of(c.kind) == Role::denoiser && left_out(c.name);
  });
  if (p.all(Role::denoiser).size() != 1)
    throw InputError("/generation/component_weights", s.pipeline->id + " has the denoisers " + names +
                                                          "; one is trained at a time: set the others to \"none\"");
  std::erase_if(g.component_weights, [&](const auto& e) { return e.second == "none" && p.find(e.first) == nullptr; });
}

/// The same scenario as an image or video generation, in the frozen dtype, for the
/// pipeline resolver. The trainers load every component through from_pretrained
/// (torch_dtype = weight_dtype), so a pipeline the Wan scripts run in checkpoint
/// dtypes is resolved as diffusers would load it.
Scenario as_generation(const Scenario& s, const TrainingWorkload& tw) {
  Scenario g = s;
  g.workload = s.pipeline->modality == generation::Modality::video ? Workload::video : Workload::image;
  GenerationSettings settings = tw.generation.value_or(GenerationSettings{});
  if (g.weights.name.empty()) g.weights = native_format(frozen_dtype(tw.training.precision));
  const std::size_t denoisers = s.pipeline->all(Role::denoiser).size();
  if (s.pipeline->runtime != generation::Runtime::diffusers || denoisers > 1) {
    auto p = std::make_shared<generation::Pipeline>(*s.pipeline);
    p->runtime = generation::Runtime::diffusers;
    if (denoisers > 1) keep_one_denoiser(s, settings, *p);
    g.pipeline = std::move(p);
  }
  g.settings = std::move(settings);
  return g;
}

void check_settings(const Scenario& s, const TrainingSettings& t, const generation::Component& den) {
  if (!generation::trains_denoiser(den.kind))
    throw InputError("/model", "fine-tuning is modelled for UNet (Stable Diffusion 1.x, 2.x, SDXL), FLUX.1, SD3 and "
                               "Wan 2.x denoisers; " + s.pipeline->id + "'s denoiser is " +
                                   std::string(name_of(generation::kComponentKinds, den.kind)));
  if (t.method == TrainMethod::freeze)
    throw InputError("/training/method", "diffusers' scripts train the whole denoiser or LoRA adapters; allowed for "
                                         "framework diffusers: full, lora, qlora");
  if (t.method == TrainMethod::qlora && s.weights.kind != FormatKind::nf4)
    throw InputError("/weights", "QLoRA trains adapters on a 4-bit base: set weights to \"nf4\" (bitsandbytes)");
  if (t.sharding != Sharding::none && t.sharding != Sharding::ddp)
    throw InputError("/training/sharding", "diffusers' scripts replicate the model on every GPU (accelerate DDP); "
                                           "allowed for framework diffusers: none, ddp");
  if (t.checkpointing == Checkpointing::selective)
    throw InputError("/training/checkpointing", "enable_gradient_checkpointing() checkpoints whole blocks; allowed "
                                                "for framework diffusers: none, full");
  if (t.optimizer == Optimizer::muon)
    throw InputError("/training/optimizer", "\"muon\" is not an optimizer diffusers' training scripts offer; "
                                            "deepspeed and torchtitan (language models) do: choose another optimizer "
                                            "for framework diffusers");
}

/// The LoRA targets, checked against the component's modules as PEFT does:
/// a name no module has is ignored (a warning), unless none matches at all.
TrainedModules lora_targets(const Scenario& s, const TrainingSettings& t, const std::vector<AdaptableModule>& mods,
                            Report& r) {
  TrainedModules m;
  m.targets = t.lora_targets;
  if (m.targets.empty()) {
    m.targets = {"to_k", "to_q", "to_v", "to_out.0"};
    if (r.explain) r.defaults_used.push_back("training.lora_targets = to_k, to_q, to_v, to_out.0 (the scripts' default)");
  }
  bool any = false;
  for (std::size_t i = 0; i < m.targets.size(); ++i) {
    TrainedModules one{false, {m.targets[i]}};
    bool found = false;
    for (const auto& mod : mods) {
      if (!one.trains(mod.name)) continue;
      found = true;
      if (t.lora_rank > std::min(mod.in * mod.kernel * mod.kernel, mod.out))
        throw InputError("/training/lora_rank", "rank " + std::to_string(t.lora_rank) + " exceeds the smaller side of " +
                                                    std::string(mod.name) + " (" + std::to_string(mod.in) + " → " +
                                                    std::to_string(mod.out) + ")");
    }
    any = any || found;
    if (!found && r.explain)
      r.warnings.push_back("lora_targets: \"" + m.targets[i] + "\" matches no module of the denoiser; PEFT adapts the "
                                                                "modules the other names match");
  }
  if (!any) {
    std::string names;
    for (const auto& mod : mods)
      if (names.find(std::string(mod.name) + ",") == std::string::npos) names += std::string(mod.name) + ", ";
    throw InputError("/training/lora_targets", "no target matches a module of " + s.pipeline->id +
                                                   "'s denoiser; its modules: " + names.substr(0, names.size() - 2));
  }
  return m;
}

/// What trains, and the shapes its model states are counted over.
struct Trained {
  TrainedModules den_modules;
  TrainableSet den;                   ///< the denoiser's trainable tensors (full: counted as one)
  TrainableSet text;                  ///< the trained CLIP text encoders' tensors
  std::vector<const generation::Placed*> text_parts;  ///< the trained text encoders
  TrainedModules text_modules;
  std::int64_t adapter_bytes = 4;     ///< LoRA adapters' dtype
  TrainableSet all() const {
    TrainableSet s = den;
    s.blocks.insert(s.blocks.end(), text.blocks.begin(), text.blocks.end());
    return s;
  }
};

void add_text_encoders(const Scenario& s, const generation::Setup& u, const TrainingSettings& t, Trained& out) {
  if (!t.train_text_encoder) return;
  const bool lora = t.method != TrainMethod::full;
  out.text_modules = lora ? TrainedModules{false, {"q_proj", "k_proj", "v_proj", "out_proj"}} : TrainedModules{true, {}};
  for (const auto& x : u.parts) {
    if (x.c->kind != ComponentKind::clip_text || !x.loaded) continue;
    if (!x.on_gpu)
      throw InputError("/training/train_text_encoder", "a trained text encoder runs on the GPU: set "
                                                       "generation.text_encoder to \"gpu\"");
    out.text_parts.push_back(&x);
    const TrainableSet one = lora ? generation::lora_adapters(generation::adaptable_modules(*x.c), out.text_modules,
                                                              t.lora_rank)
                                  : TrainableSet{{{1, x.c->inventory.params(), 1}}};
    out.text.blocks.insert(out.text.blocks.end(), one.blocks.begin(), one.blocks.end());
  }
  if (out.text_parts.empty())
    throw InputError("/training/train_text_encoder", s.pipeline->id + " has no CLIP text encoder the scripts train");
}

Trained trained_of(const Scenario& s, const generation::Setup& u, const TrainingSettings& t,
                   const generation::Placed& den, Report& r) {
  Trained out;
  if (t.method == TrainMethod::full) {
    out.den_modules.full = true;
    out.den.blocks.push_back({1, den.c->inventory.params(), 1});
  } else {
    const std::vector<AdaptableModule> mods = generation::adaptable_modules(*den.c);
    out.den_modules = lora_targets(s, t, mods, r);
    out.den = generation::lora_adapters(mods, out.den_modules, t.lora_rank);
  }
  // PEFT moves adapters to a float base's dtype; on a 4-bit base, or cast by the scripts under fp16, they stay fp32.
  const bool fp32_adapters = t.precision == Precision::fp32 || t.precision == Precision::fp16_mixed ||
                             t.method == TrainMethod::qlora;
  out.adapter_bytes = fp32_adapters ? 4 : 2;
  add_text_encoders(s, u, t, out);
  return out;
}

bool trains_whole(const Trained& tr, const generation::Placed& x, const TrainingSettings& t, const generation::Placed& den) {
  if (t.method != TrainMethod::full) return false;
  if (&x == &den) return true;
  return std::find(tr.text_parts.begin(), tr.text_parts.end(), &x) != tr.text_parts.end();
}

Term weights_of(const generation::Setup& u, const Trained& tr, const TrainingSettings& t, const generation::Placed& den) {
  Terms parts;
  for (const auto& x : u.parts) {
    if (!x.loaded || !x.on_gpu) continue;
    const Role role = role_of(x.c->kind);
    const std::string_view what = role == Role::denoiser ? "denoiser" : role == Role::vae ? "VAE" : "text encoder";
    if (trains_whole(tr, x, t, den)) {
      parts.push_back(Term::product({Factor::of(x.c->inventory.params(), "params"),
                                     Factor::bytes(trained_bytes(t.precision), "trained in fp32")})
                          .named(what)
                          .cite(kScriptsSource));
    } else {
      parts.push_back(generation::component_weights(*x.c, x.format).named(what));
    }
  }
  const std::int64_t adapters = t.method == TrainMethod::full ? 0 : tr.all().params();
  if (adapters > 0)
    parts.push_back(Term::product({Factor::of(adapters, "adapter params"), Factor::bytes(tr.adapter_bytes)})
                        .named("LoRA adapters")
                        .cite("PEFT v0.17 tuners/lora/layer.py LoraLayer.update_layer (A: rank × in, B: out × rank; "
                              "_move_adapter_to_device_of_base_layer keeps fp32 on a non-float base)"));
  return Term::sum(std::move(parts)).cite(kScriptsSource);
}

generation::TrainShape shape_of(const generation::Setup& u, const TrainingSettings& t) {
  generation::TrainShape sh;
  sh.latent = u.geo;
  sh.batch = t.micro_batch;
  sh.elem = u.elem;
  sh.text_tokens = generation::text_tokens(u);
  sh.cross_tokens = generation::cross_tokens(u);
  sh.attention = u.g.attention;  // generation.attention: SDPA (efficient) or the AttnProcessor's naive softmax
  sh.checkpointed = t.checkpointing == Checkpointing::full;
  return sh;
}

Term activations_of(const generation::Setup& u, const Trained& tr, const TrainingSettings& t,
                    const generation::Placed& den) {
  Terms parts;
  parts.push_back(generation::denoiser_saved_activations(*den.c, shape_of(u, t), tr.den_modules).named("denoiser"));
  for (const auto* x : tr.text_parts)
    parts.push_back(generation::text_encoder_saved_activations(*x->c, t.micro_batch, u.elem, tr.text_modules));
  return sum_nonzero(std::move(parts));
}

Term working_of(const generation::Setup& u, const TrainingSettings& t, const Trained& tr, const generation::Placed& den) {
  Terms parts;
  parts.push_back(generation::denoiser_backward_working(*den.c, shape_of(u, t), tr.den_modules));
  if (den.format.quantized) {
    std::int64_t largest = 0;
    for (const auto& g : den.c->inventory.linear) largest = std::max(largest, checked::mul(g.in, g.out));
    parts.push_back(dequantized_weight_term(largest, 2));
  }
  if (parts.size() == 1) return std::move(parts.front());
  return Term::sum(std::move(parts))
      .cite("PyTorch v2.5 torch/utils/checkpoint.py (the block recomputed in its backward); bitsandbytes v0.45 "
            "nn/modules.py Linear4bit.forward (each 4-bit weight dequantized to the compute dtype for its matmul)");
}

void write_details(const generation::Setup& u, const Trained& tr, const TrainingSettings& t, Report& r) {
  io::ObjectText e;
  e.set("engine", "diffusers").set("pipeline", u.p->id).set("source", kScriptsSource);
  e.set("method", name_of(kTrainMethods, t.method)).set("trainable_params", tr.all().params());
  e.set("width", u.g.width).set("height", u.g.height).set("latent_height", u.geo.latent_height);
  e.set("latent_width", u.geo.latent_width).set("tokens", u.geo.tokens);
  r.detail("engine", e.str());
}

/// Latents encoded every step: the VAE's weights are counted, its encode's working set is not.
void warn_vae_encode(const generation::Setup& u, Report& r) {
  for (const auto& x : u.parts)
    if (role_of(x.c->kind) == Role::vae && x.loaded && x.on_gpu)
      r.warnings.push_back("generation.vae = gpu: each step encodes its sample with the VAE; the encode's own working "
                           "set (before the denoiser's forward) is not counted. Set vae to \"cpu\" for latents "
                           "precomputed, as the scripts' caching options do");
}

/// The scripts' torch.optim.AdamW steps after backward has freed the saved activations and its working set (the
/// gradients, kept between steps, are counted already): what the step's temporaries need beyond them, or nothing
/// where the backward peak is higher.
Term step_above_backward(Term step, const Term& acts, const Term& work) {
  const Bytes backward = acts.bytes + work.bytes;
  if (step.bytes <= backward)
    return Term::given(Bytes{})
        .named("under the backward peak")
        .noted("the step's temporaries ({} B) fit in what backward frees ({} B)",
               {step.bytes.in_bytes(), backward.in_bytes()})
        .cite(step.source);
  Term freed = Term::given(backward).named("saved activations and backward working set, freed before the step");
  return Term::difference(terms(std::move(step), std::move(freed))).named("step above the backward peak");
}

/// The live tensors' peak is the sum of the allocated terms; reserved adds the allocator's cache, device the context.
void write_metrics(const std::vector<const Term*>& allocated_terms, const Term& weights, const Term& acts,
                   const Term& reserve, Report& r) {
  Bytes allocated;
  ByteRange range{};
  for (const Term* t : allocated_terms) {
    allocated += t->bytes;
    range.low += t->range ? t->range->low : t->bytes;
    range.high += t->range ? t->range->high : t->bytes;
  }
  const Bytes reserved = allocated + reserve.bytes;
  r.metric("weights_bytes", static_cast<double>(weights.bytes.in_bytes()));
  r.metric("activation_bytes", static_cast<double>(acts.bytes.in_bytes()));
  r.metric("peak_allocated_bytes", static_cast<double>(allocated.in_bytes()));
  r.metric("peak_reserved_bytes", static_cast<double>(reserved.in_bytes()));
  r.metric("peak_device_bytes", static_cast<double>((reserved + r.components.back().bytes).in_bytes()));
  // Derived terms alone state no range (CONTRACT 1.1: low = high); the allocator's reserve always carries one.
  if (range.low != range.high) r.metric_range("peak_allocated_bytes", range);
  r.metric_range("peak_reserved_bytes", {range.low + reserve.range->low, range.high + reserve.range->high});
}

}  // namespace

void diffusion_account(const Scenario& s, Report& r) {
  const TrainingWorkload& tw = *s.training();
  const TrainingSettings& t = tw.training;
  const Scenario g = as_generation(s, tw);  // owns the pipeline u points into
  const generation::Setup u = generation::resolve(g, r);
  const generation::Placed* den = nullptr;
  for (const auto& x : u.parts)
    if (role_of(x.c->kind) == Role::denoiser) den = &x;
  check_settings(s, t, *den->c);
  if (r.explain) warn_vae_encode(u, r);
  const Trained tr = trained_of(s, u, t, *den, r);
  const bool x = r.explain;
  const TrainableSet all = tr.all();
  const std::int64_t state_b = t.method == TrainMethod::full ? trained_bytes(t.precision) : tr.adapter_bytes;
  const Term weights = weights_of(u, tr, t, *den);
  Term grads = gradients_term(all.params(), state_b, Share{});
  if (s.gpu_count > 1 && t.sharding == Sharding::ddp)
    grads = Term::sum(terms(std::move(grads), ddp_buckets_term(all.params(), state_b)));
  const Term acts = activations_of(u, tr, t, *den);
  const Term work = working_of(u, t, tr, *den);
  r.add(io::component("weights", "Model weights", weights, x));
  r.add(io::component("gradients", "Gradients", grads, x));
  const Term optimizer = optimizer_state_term(all, t.optimizer, state_b, Share{});
  r.add(io::component("optimizer_state", "Optimizer state", optimizer, x));
  r.add(io::component("activations", "Saved activations", acts, x));
  r.add(io::component("workspace", "Backward working set", work, x));
  std::optional<Term> step;
  // The scripts build torch.optim.AdamW without `fused`: its foreach step, unless the scenario says otherwise.
  note_optimizer_implementation(t, default_adamw_impl(Framework::diffusers), "the scripts' torch.optim.AdamW, no fused", r);
  if (t.optimizer == Optimizer::adamw) {
    const OptimizerImpl impl = t.optimizer_implementation.value_or(default_adamw_impl(Framework::diffusers));
    step = step_above_backward(adamw_step_term(all, impl, state_b, Share{}), acts, work);
    r.add(io::component("optimizer_step", "Optimizer step above the backward peak", *step, x));
  }
  // The transient working set of the phase that peaks: backward, or the optimizer step.
  const Term reserve = allocator_reserve_term(acts.bytes + work.bytes + (step ? step->bytes : Bytes{}));
  r.add(io::component("allocator_cache", "Caching allocator reserve", reserve, x));
  r.add(io::cuda_context_component(
      engine_context_term(s.gpu.compute_capability, s.gpu.sm_count, s.gpu.rocm_arch, s.gpu_count > 1), x));
  std::vector<const Term*> allocated{&weights, &grads, &optimizer, &acts, &work};
  if (step) allocated.push_back(&*step);
  write_metrics(allocated, weights, acts, reserve, r);
  if (x) write_details(u, tr, t, r);
}

}  // namespace vram::training
