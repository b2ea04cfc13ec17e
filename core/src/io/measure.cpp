// How to measure a scenario (io/measure.hpp): the engine's command line or a
// short PyTorch script for its exact settings, and the lines of its output
// that are the report's metrics. Presentation text only: no figure is computed.
#include "vram/io/measure.hpp"

#include <charconv>
#include <string>

#include "vram/choice.hpp"
#include "vram/formats.hpp"
#include "vram/generation/pipeline.hpp"
#include "vram/io/json_writer.hpp"
#include "vram/units.hpp"

namespace vram::io {

namespace {

/// A metric and the output line that measures it (CONTRACT section 3).
struct Reading {
  std::string_view metric;
  std::string_view line;
};

constexpr Reading kVllmReadings[] = {
    {"weights_bytes", "Model loading took X GiB"},
    {"activation_bytes", "Memory profiling takes ... torch peak memory increase: X GiB"},
    {"non_torch_bytes", "... non-torch forward increase memory: X GiB"},
    {"kv_cache_bytes", "Available KV cache memory: X GiB"},
    {"kv_capacity_tokens", "GPU KV cache size: N tokens"},
    {"max_concurrency", "Maximum concurrency for N tokens per request: X.XXx"},
    {"cuda_graph_bytes", "Graph capturing finished in N secs, took X GiB"},
};
constexpr Reading kLlamaReadings[] = {
    {"weights_bytes", "CUDA0 model buffer size = X MiB (one line per GPU)"},
    {"kv_cache_bytes", "CUDA0 KV buffer size = X MiB"},
    {"activation_bytes", "CUDA0 compute buffer size = X MiB"},
};
constexpr Reading kTorchReadings[] = {
    {"peak_allocated_bytes", "max_memory_allocated N (torch.cuda.max_memory_allocated())"},
    {"peak_reserved_bytes", "max_memory_reserved N (torch.cuda.max_memory_reserved())"},
};

/// The model as a command takes it: the catalog id, or a placeholder for a pasted config or a count.
std::string model_arg(const Scenario& s, std::string_view placeholder) {
  const bool id = s.model_ref.find('/') != std::string::npos && s.model_ref.find(' ') == std::string::npos;
  return id ? s.model_ref : std::string(placeholder);
}

/// A whole number as a command line takes it (no thousands separators).
void put_int(TextBuffer& t, std::int64_t n) {
  char* p = t.room(21);
  t.commit(std::to_chars(p, p + 21, n).ptr);
}

/// An option and its whole-number value: " --name N".
void put_option(TextBuffer& t, std::string_view option, std::int64_t n) {
  t.put(option);
  t.put(' ');
  put_int(t, n);
}

void vllm_command(TextBuffer& t, const Scenario& s) {
  const InferenceSettings& inf = s.inference();
  const VllmSettings& v = inf.vllm;
  if (!v.version.empty()) {
    t.put("pip install vllm==");
    t.put(v.version);
    t.put('\n');
  }
  t.put("vllm serve ");
  t.put(model_arg(s, "/path/to/model"));
  put_option(t, " \\\n  --max-model-len", inf.context);
  t.put(" --gpu-memory-utilization ");
  t.put(format_decimal(v.gpu_memory_utilization, 4));
  if (s.parallel.tensor > 1) put_option(t, " \\\n  --tensor-parallel-size", s.parallel.tensor);
  if (s.parallel.pipeline > 1) put_option(t, " --pipeline-parallel-size", s.parallel.pipeline);
  if (s.weights.kind == FormatKind::fp8) t.put(" --quantization fp8");  // online FP8 on a 16-bit checkpoint
  if (inf.kv.kind == KvKind::fp8) {
    t.put(" \\\n  --kv-cache-dtype ");
    t.put(inf.kv.name);
  }
  if (v.max_num_seqs) put_option(t, " --max-num-seqs", *v.max_num_seqs);
  if (v.max_num_batched_tokens) put_option(t, " --max-num-batched-tokens", *v.max_num_batched_tokens);
  if (v.block_size != 16) put_option(t, " --block-size", v.block_size);
  if (v.enforce_eager) t.put(" --enforce-eager");
  if (v.mamba_cache_dtype != MambaDtype::auto_dtype) {
    t.put(" --mamba-cache-dtype ");
    t.put(name_of(kMambaDtypes, v.mamba_cache_dtype));
  }
  if (v.mamba_ssm_cache_dtype != MambaDtype::auto_dtype) {
    t.put(" --mamba-ssm-cache-dtype ");
    t.put(name_of(kMambaDtypes, v.mamba_ssm_cache_dtype));
  }
  if (v.language_model_only) t.put(" \\\n  --limit-mm-per-prompt '{\"image\": 0, \"video\": 0}'");
}

std::string llama_command(const Scenario& s) {
  const InferenceSettings& inf = s.inference();
  const LlamaCppSettings& l = inf.llama_cpp;
  // A GGUF file of the model in the scenario's type, e.g. /path/to/Llama-3.1-8B-Q4_K_M.gguf.
  const std::string id = model_arg(s, "model");
  std::string file = id.substr(id.find_last_of('/') + 1);
  if (s.weights.gguf()) {
    file += '-';
    file += std::string_view(s.weights.name).substr(s.weights.name.find(':') + 1);
  }
  // llama-server's -c is the whole context, shared by its -np slots.
  std::string c = "llama-server -m /path/to/" + file + ".gguf \\\n  -c " +
                  std::to_string(inf.context * l.n_seq_max) + " -np " + std::to_string(l.n_seq_max) + " -ngl " +
                  std::to_string(l.n_gpu_layers < 0 ? 999 : l.n_gpu_layers);
  if (s.gpu_count > 1 && l.split_mode != LlamaSplitMode::layer)
    c += std::string(" -sm ") + (l.split_mode == LlamaSplitMode::row ? "row" : "none");
  if (!l.tensor_split.empty()) {
    c += " -ts ";
    for (std::size_t i = 0; i < l.tensor_split.size(); ++i) {
      if (i) c += ',';
      c += format_decimal(l.tensor_split[i], 3);
    }
  }
  if (l.main_gpu != 0) c += " -mg " + std::to_string(l.main_gpu);
  if (l.n_batch != 2048) c += " -b " + std::to_string(l.n_batch);
  if (l.n_ubatch != 512) c += " -ub " + std::to_string(l.n_ubatch);
  if (l.flash_attn) c += " -fa on";
  if (inf.kv.ggml() || inf.kv.kind == KvKind::fp32) c += " -ctk " + inf.kv.name + " -ctv " + inf.kv.name;
  return c;
}

constexpr std::string_view kPeaks =
    "print(\"max_memory_allocated\", torch.cuda.max_memory_allocated())\n"
    "print(\"max_memory_reserved\", torch.cuda.max_memory_reserved())\n";

/// generate()'s cache arguments for the scenario's transformers settings.
std::string generate_cache_args(const TransformersSettings& t) {
  if (t.cache == HfCache::dynamic) return "";
  std::string a = ", cache_implementation=\"" + std::string(name_of(kHfCaches, t.cache)) + "\"";
  if (t.cache != HfCache::quantized) return a;
  return a + ", cache_config={\"backend\": \"" + std::string(name_of(kHfQuantBackends, t.backend)) +
         "\", \"nbits\": " + std::to_string(t.nbits) + ", \"q_group_size\": " + std::to_string(t.q_group_size) +
         ", \"residual_length\": " + std::to_string(t.residual_length) + "}";
}

/// A prompt of context − 1 tokens and two new ones: the cache ends at `context` tokens.
std::string transformers_script(const Scenario& s) {
  const InferenceSettings& inf = s.inference();
  const TransformersSettings& t = inf.transformers;
  const std::string attn =
      t.attention ? ", attn_implementation=\"" + std::string(name_of(kHfAttentions, *t.attention)) + "\"" : "";
  const std::string pin = t.version.empty() ? "" : "# pip install transformers==" + t.version + "\n";
  return pin + "import torch\nfrom transformers import AutoModelForCausalLM\n"
         "model = AutoModelForCausalLM.from_pretrained(\"" + model_arg(s, "/path/to/model") +
         "\", torch_dtype=\"auto\", device_map=\"cuda\"" + attn + ")\n"
         "ids = torch.randint(0, model.config.vocab_size, (" + std::to_string(inf.concurrency) + ", " +
         std::to_string(std::max<std::int64_t>(1, inf.context - 1)) + "), device=\"cuda\")\n"
         "torch.cuda.reset_peak_memory_stats()\nwith torch.no_grad():\n"
         "    model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=2, min_new_tokens=2, "
         "do_sample=False" + generate_cache_args(t) + ")\n" +
         std::string(kPeaks);
}

/// torch.optim.AdamW's arguments for the step kernels the estimate assumes (the framework's unless named).
std::string_view adamw_kernels(const TrainingSettings& t) {
  switch (t.optimizer_implementation.value_or(default_adamw_impl(t.framework))) {
    case OptimizerImpl::fused: return "fused=True";
    case OptimizerImpl::foreach: return "foreach=True";
    case OptimizerImpl::for_loop: break;
  }
  return "foreach=False";
}

std::string training_script(const Scenario& s) {
  const TrainingSettings& t = s.training()->training;
  std::string p = "import torch\nfrom transformers import AutoModelForCausalLM\n";
  const bool lora = t.method == TrainMethod::lora || t.method == TrainMethod::qlora;
  if (lora) p += "from peft import LoraConfig, get_peft_model\n";
  const bool nf4 = t.method == TrainMethod::qlora;
  if (nf4) p += "from transformers import BitsAndBytesConfig\n";
  p += "model = AutoModelForCausalLM.from_pretrained(\"" + model_arg(s, "/path/to/model") + "\", torch_dtype=torch.bfloat16, " +
       (nf4 ? "quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\", "
              "bnb_4bit_compute_dtype=torch.bfloat16),\n    " : "") + "attn_implementation=\"" +
       (t.attention == TrainAttention::flash ? "flash_attention_2" : t.attention == TrainAttention::sdpa ? "sdpa" : "eager") +
       (nf4 ? "\", device_map=\"cuda\")\n" : "\").cuda()\n");
  if (t.checkpointing != Checkpointing::none) p += "model.gradient_checkpointing_enable()\n";
  if (lora)
    p += "model = get_peft_model(model, LoraConfig(r=" + std::to_string(t.lora_rank) +
         ", target_modules=\"all-linear\"" +
         (t.use_dora ? std::string(", use_dora=True") : std::string()) + "))\n";
  if (t.method == TrainMethod::freeze) {
    p += "model.requires_grad_(False)  # freeze: only the last " + std::to_string(t.trainable_layers) +
         " decoder layers train\nfor layer in model.model.layers[-" + std::to_string(t.trainable_layers) +
         ":]:\n    layer.requires_grad_(True)\n";
  }
  const bool muon = t.optimizer == Optimizer::muon;
  if (muon)
    p += "# Muon (torch >= 2.9) on the hidden layers' matrices, AdamW on the rest, as the frameworks pair them\n"
         "hidden = [p for n, p in model.named_parameters() if p.requires_grad and p.ndim == 2 and \".layers.\" in n]\n"
         "rest = [p for n, p in model.named_parameters() if p.requires_grad and not (p.ndim == 2 and \".layers.\" in "
         "n)]\nopts = (torch.optim.Muon(hidden, lr=1e-3), torch.optim.AdamW(rest, lr=1e-4))\n";
  else
    p += t.optimizer == Optimizer::sgd || t.optimizer == Optimizer::sgd_momentum
             ? "opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=1e-4)\n"
             : "opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4, " +
                   std::string(adamw_kernels(t)) + ")\n";
  p += "ids = torch.randint(0, model.config.vocab_size, (" + std::to_string(t.micro_batch) + ", " +
       std::to_string(t.seq_len) + "), device=\"cuda\")\n"
       "torch.cuda.reset_peak_memory_stats()\nfor _ in range(2):  # the second step holds the optimizer state\n"
       "    model(input_ids=ids, labels=ids).loss.backward()\n";
  p += muon ? "    for opt in opts:\n        opt.step()\n        opt.zero_grad(set_to_none=True)\n"
            : "    opt.step()\n    opt.zero_grad(set_to_none=True)\n";
  return p + std::string(kPeaks);
}

std::string_view torch_name(generation::StoredDtype d) {
  return d == generation::StoredDtype::fp16 ? "torch.float16" : d == generation::StoredDtype::fp32 ? "torch.float32" : "torch.bfloat16";
}

/// The torch_dtype the estimate assumes: the scenario's plain weights, else the pipeline's dtype.
std::string_view torch_dtype(const Scenario& s) {
  const std::string& w = s.weights.name;
  if (w.empty() && s.pipeline) return torch_name(s.pipeline->dtype);
  return w == "fp16" ? "torch.float16" : w == "fp32" ? "torch.float32" : "torch.bfloat16";
}

/// Step-Video-T2V is run from its own repository (github stepfun-ai/Step-Video-T2V @675e08c run_parallel.py and
/// api/call_remote_server.py), its text encoders and VAE on a server beside the transformer's GPU.
std::string stepvideo_script(const Scenario& s) {
  const GenerationSettings& g = *s.generation();
  const generation::Pipeline& p = *s.pipeline;
  const auto or_native = [](std::int64_t v, std::int64_t native) { return std::to_string(v > 0 ? v : native); };
  return "# " + p.id + " runs from github stepfun-ai/Step-Video-T2V, not from diffusers: serve its text encoders and\n"
         "# VAE on another GPU (python api/call_remote_server.py --model_dir /path/to/stepvideo-t2v &), add the two\n"
         "# print lines below after the pipeline(...) call in run_parallel.py, and run the transformer on this GPU:\n"
         "#   torchrun --nproc_per_node 1 run_parallel.py --model_dir /path/to/stepvideo-t2v --vae_url 127.0.0.1\n"
         "#     --caption_url 127.0.0.1 --ulysses_degree 1 --tensor_parallel_degree 1 --width " +
         or_native(g.width, p.width) + " --height " + or_native(g.height, p.height) + " --num_frames " +
         or_native(g.frames, p.frames) + "\n"
         "# Compare its peaks with an estimate whose generation.text_encoder and generation.vae are \"cpu\"\n"
         "# (both run on the server).\n"
         "import torch\n" + std::string(kPeaks);
}

std::string diffusers_script(const Scenario& s) {
  const GenerationSettings& g = *s.generation();
  if (s.pipeline && s.pipeline->first(generation::Role::denoiser)->kind == generation::ComponentKind::stepvideo_dit)
    return stepvideo_script(s);
  std::string p = "import torch\nfrom diffusers import DiffusionPipeline\n"
                  "pipe = DiffusionPipeline.from_pretrained(\"" + model_arg(s, "/path/to/pipeline") +
                  "\", torch_dtype=" + std::string(torch_dtype(s)) + ")\n";
  p += g.offload == GenOffload::model        ? "pipe.enable_model_cpu_offload()\n"
       : g.offload == GenOffload::sequential ? "pipe.enable_sequential_cpu_offload()\n"
                                             : "pipe.to(\"cuda\")\n";
  const generation::Pipeline* pl = s.pipeline.get();
  // A component the reference usage loads in its own dtype (Allegro's VAE in fp32), as the estimate assumes.
  if (pl != nullptr && s.weights.name.empty())
    for (const auto& c : pl->components)
      if (c.dtype_given && c.dtype != pl->dtype) p += "pipe." + c.name + ".to(" + std::string(torch_name(c.dtype)) + ")\n";
  // AutoencoderKLAllegro decodes only in tiles: the pipeline's own example enables them.
  const generation::Component* vae = pl != nullptr ? pl->first(generation::Role::vae) : nullptr;
  if (g.vae_tiling || (vae != nullptr && vae->kind == generation::ComponentKind::vae_allegro))
    p += "pipe.vae.enable_tiling()\n";
  if (g.vae_slicing) p += "pipe.vae.enable_slicing()\n";
  // FLUX.1 Kontext conditions on a reference image: a blank one of the output's size.
  const bool reference = pl != nullptr && pl->reference_images > 0;
  if (reference) p = "from PIL import Image\n" + p;
  p += "torch.cuda.reset_peak_memory_stats()\npipe(prompt=\"a photo of a cat\"";
  if (g.width > 0) p += ", width=" + std::to_string(g.width) + ", height=" + std::to_string(g.height);
  if (reference)
    p += ", image=Image.new(\"RGB\", (" + std::to_string(g.width > 0 ? g.width : pl->width) + ", " +
         std::to_string(g.height > 0 ? g.height : pl->height) + "))";
  if (s.workload == Workload::video && g.frames > 0) p += ", num_frames=" + std::to_string(g.frames);
  if (g.steps > 0) p += ", num_inference_steps=" + std::to_string(g.steps);
  if (g.batch > 1) p += ", num_images_per_prompt=" + std::to_string(g.batch);
  return p + ")\n" + std::string(kPeaks);
}

template <std::size_t N>
void write_readings(JsonWriter& w, const Reading (&rs)[N]) {
  w.key("look_for").begin_array();
  for (const Reading& r : rs) w.begin_object().key("metric").value(r.metric).key("line").value(r.line).end_object();
  w.end_array();
}

}  // namespace

std::string measure_json(const Scenario& s) {
  char store[2048];
  JsonWriter w(store, sizeof store);
  w.begin_object();
  if (s.workload == Workload::inference && s.inference().engine == Engine::vllm) {
    char store[512];
    TextBuffer command(store, sizeof store);
    vllm_command(command, s);
    w.key("kind").value("command").key("text").value(command.view());
    write_readings(w, kVllmReadings);
  } else if (s.workload == Workload::inference && s.inference().engine == Engine::llama_cpp) {
    w.key("kind").value("command").key("text").value(llama_command(s));
    write_readings(w, kLlamaReadings);
  } else {
    const std::string text = s.workload == Workload::inference  ? transformers_script(s)
                             : s.workload == Workload::training ? training_script(s)
                                                                : diffusers_script(s);
    w.key("kind").value("script").key("text").value(text);
    write_readings(w, kTorchReadings);
  }
  std::string note = "paste what it prints into Reconcile to compare it with this estimate";
  if (const TrainingWorkload* tw = s.training(); tw && tw->training.framework != Framework::transformers) {
    note += "; the script runs transformers and peft: " + std::string(name_of(kFrameworks, tw->training.framework)) +
            "'s own recipe with the same settings gives its own figure";
  }
  w.key("note").value(note);
  w.end_object();
  return w.take();
}

}  // namespace vram::io
