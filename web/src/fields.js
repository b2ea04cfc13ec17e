//
// One table describes every input: its state key (also its URL key), the
// scenario path it fills, how its text is read, where its allowed values
// come from (the module's catalog().defaults), its attribute and its
// one-line explanation. Which block a workload reads is CONTRACT section 1.

/** Workload → the scenario block it reads. */
export const BLOCK_OF = { inference: 'inference', training: 'training', image: 'generation', video: 'generation' };
export const WORKLOAD_TEXT = {
  inference: ['Inference', 'serve or run a language model'],
  training: ['Fine-tuning', 'train or fine-tune (full, LoRA, QLoRA)'],
  image: ['Image', 'generate images with a diffusion pipeline'],
  video: ['Video', 'generate video with a diffusion pipeline'],
};

/**
 * kind: text | tokens | params | count | decimal | bytes | choice | bool | list | map
 * path: scenario path (array); block fields are relative to the workload's block.
 * choices: name in catalog().defaults.<block> (or a fixed list of [value, text]).
 */
export const TRAINING_FIELDS = [
  { key: 'fw', field: 'framework', label: 'Framework', kind: 'choice',
    help: 'Whose memory accounting: Trainer/TRL/PEFT (transformers), torchtune, torchtitan, Unsloth, DeepSpeed, diffusers\u2019 scripts.' },
  { key: 'method', field: 'method', label: 'Method', kind: 'choice',
    help: 'full trains every weight; lora and qlora train small adapters on a frozen base (4-bit for qlora); freeze trains the last layers.' },
  { key: 'rank', field: 'lora_rank', label: 'LoRA rank', kind: 'count', placeholder: 'default',
    help: 'Adapter rank r (lora and qlora only): each adapted matrix gains r \u00d7 (in + out) parameters.' },
  { key: 'targets', field: 'lora_targets', label: 'LoRA targets', kind: 'list', placeholder: 'all-linear',
    help: '"all-linear" or module names, comma-separated (q_proj, v_proj, ...).' },
  { key: 'dora', advanced: true, field: 'use_dora', label: 'DoRA', kind: 'bool',
    help: 'LoRA and QLoRA only: a magnitude per adapted output; each adapted module keeps two more outputs and rebuilds its weight norm.' },
  { key: 'tl', field: 'trainable_layers', label: 'Trainable layers (freeze)', kind: 'count', placeholder: '2',
    help: 'Method freeze only: the last N decoder layers train; the earlier ones, the embeddings and the output layer stay frozen.' },
  { key: 'prec', field: 'precision', label: 'Precision', kind: 'choice',
    help: 'Mixed precision keeps fp32 master weights beside 16-bit compute copies; pure bf16 or fp32 does not.' },
  { key: 'opt', field: 'optimizer', label: 'Optimizer', kind: 'choice',
    help: 'AdamW keeps two fp32 moments per trainable weight; 8-bit variants, Adafactor, SGD and Lion keep less.' },
  { key: 'mb', field: 'micro_batch', label: 'Micro-batch (per GPU)', kind: 'count', placeholder: 'default',
    help: 'Samples in one forward/backward on each GPU: saved activations grow with it.' },
  { key: 'seq', field: 'seq_len', label: 'Sequence length (tokens)', kind: 'tokens', placeholder: 'default',
    help: 'Tokens per sample, e.g. 2048, 4k, 8K: activations and logits grow with it.' },
  { key: 'ga', field: 'grad_accum', label: 'Gradient accumulation', kind: 'count', placeholder: 'default',
    help: 'Micro-batches summed before each optimizer step (memory stays that of one).' },
  { key: 'ckpt', field: 'checkpointing', label: 'Activation checkpointing', kind: 'choice',
    help: 'Recompute activations in the backward pass instead of keeping them: less memory, more compute.' },
  { key: 'tattn', advanced: true, field: 'attention', label: 'Attention kernel', kind: 'choice',
    help: 'flash and sdpa never hold the full score matrix; eager keeps seq_len\u00b2 scores per head.' },
  { key: 'shard', field: 'sharding', label: 'Sharding', kind: 'choice',
    help: 'DDP replicates the training state on every GPU; ZeRO and FSDP shard it across them.' },
  { key: 'toff', advanced: true, field: 'offload', label: 'CPU offload', kind: 'choice',
    help: 'Keep the optimizer state (and parameters) in host memory between uses.' },
  { key: 'ttp', advanced: true, field: 'tensor_parallel', label: 'Tensor parallel', kind: 'count', placeholder: '1', help: 'GPUs each layer is split over.' },
  { key: 'tpp', advanced: true, field: 'pipeline_parallel', label: 'Pipeline parallel', kind: 'count', placeholder: '1', help: 'Stages the layers are split into.' },
  { key: 'tcp', advanced: true, field: 'context_parallel', label: 'Context parallel', kind: 'count', placeholder: '1', help: 'GPUs sharing each sequence.' },
  { key: 'sgs', advanced: true, field: 'shard_group_size', label: 'Shard group size', kind: 'count', placeholder: 'all GPUs',
    help: 'GPUs one FSDP/ZeRO shard group spans (hybrid sharding).' },
  { key: 'oib', advanced: true, field: 'optimizer_in_backward', label: 'Optimizer in backward', kind: 'bool',
    help: 'Step each parameter during the backward pass and free its gradient at once.' },
  { key: 'closs', advanced: true, field: 'chunked_loss', label: 'Chunked loss', kind: 'bool',
    help: 'Compute logits and cross-entropy in chunks instead of the whole vocab \u00d7 tokens at once.' },
  { key: 'aoff', advanced: true, field: 'activation_offload', label: 'Activation offload', kind: 'bool',
    help: 'Move saved activations to CPU memory until the backward pass needs them.' },
  { key: 'fp8', advanced: true, field: 'fp8', label: 'fp8 matmuls', kind: 'bool', help: 'float8 training: fp8 compute copies of the weights.' },
  { key: 'tte', advanced: true, field: 'train_text_encoder', label: 'Train the text encoder', kind: 'bool',
    help: 'Diffusion models: the text encoder is trained too.' },
];
export const GENERATION_FIELDS = [
  { key: 'gw', field: 'width', label: 'Width (px)', kind: 'count', placeholder: 'native', help: 'Output width in pixels.' },
  { key: 'gh', field: 'height', label: 'Height (px)', kind: 'count', placeholder: 'native', help: 'Output height in pixels.' },
  { key: 'frames', field: 'frames', label: 'Frames', kind: 'count', placeholder: 'native', only: ['video'],
    help: 'Video frames; many video VAEs take 4k+1 frames (49, 81, ...).' },
  { key: 'gb', field: 'batch', label: 'Batch', kind: 'count', placeholder: '1', help: 'Images or videos per call.' },
  { key: 'steps', advanced: true, field: 'steps', label: 'Steps', kind: 'count', placeholder: 'pipeline\u2019s', help: 'Denoising steps: time, not memory.' },
  { key: 'cfg', field: 'cfg', label: 'Classifier-free guidance', kind: 'bool',
    help: 'Guidance runs the denoiser on a doubled batch (conditional and unconditional).' },
  { key: 'goff', field: 'offload', label: 'Offload', kind: 'choice',
    help: 'model: one component on the GPU at a time; sequential: layer by layer; group: groups of layers.' },
  { key: 'te', advanced: true, field: 'text_encoder', label: 'Text encoder', kind: 'choice',
    help: 'Where the prompt encoder runs: on the GPU, on the CPU (or precomputed), or sharded over the GPUs.' },
  { key: 'vae', advanced: true, field: 'vae', label: 'VAE', kind: 'choice', help: 'Where the latents are decoded: on the GPU or elsewhere.' },
  { key: 'gattn', advanced: true, field: 'attention', label: 'Attention', kind: 'choice',
    help: 'efficient (flash / SDPA / xformers) never holds the score matrix; naive materialises it.' },
  { key: 'tiling', field: 'vae_tiling', label: 'VAE tiling', kind: 'bool', help: 'Decode in overlapping tiles: the decode peak is often the real peak.' },
  { key: 'slicing', field: 'vae_slicing', label: 'VAE slicing', kind: 'bool', help: 'Decode one sample of the batch at a time.' },
  { key: 'sp', advanced: true, field: 'sequence_parallel', label: 'Sequence parallel', kind: 'count', placeholder: '1',
    help: 'GPUs sharing the token sequence (Ulysses / ring attention).' },
  { key: 'fsdp', advanced: true, field: 'fsdp', label: 'FSDP denoiser', kind: 'bool', help: 'Shard the denoiser\u2019s weights over the GPUs.' },
  { key: 'cw', advanced: true, field: 'component_weights', label: 'Component formats', kind: 'map', placeholder: 'transformer=nf4, text_encoder_2=int8',
    help: 'Per-component weight format, or "none" for a component not loaded.' },
];
for (const f of TRAINING_FIELDS) { f.block = 'training'; f.attr = `training-${f.field.replace(/_/g, '-')}`; }
for (const f of GENERATION_FIELDS) { f.block = 'generation'; f.attr = `generation-${f.field.replace(/_/g, '-')}`; }

/** The common and inference inputs (key → URL key / attribute). */
export const COMMON_KEYS = {
  wl: { hash: 'wl', attr: 'workload' },
  src: { hash: 'src', attr: 'source' },
  model: { hash: 'model', attr: 'model' },
  params: { hash: 'params', attr: 'params' },
  config: { hash: 'config', attr: 'config' },
  wbytes: { hash: 'wbytes', attr: 'weights-bytes' },
  pipe: { hash: 'pipe', attr: 'pipeline' },
  weights: { hash: 'w', attr: 'weights' },
  gpu: { hash: 'gpu', attr: 'gpu' },
  gpumem: { hash: 'mem', attr: 'gpu-memory' },
  count: { hash: 'n', attr: 'gpu-count' },
  headroom: { hash: 'headroom', attr: 'headroom' },
};
export const INFERENCE_KEYS = {
  engine: { hash: 'engine', attr: 'engine' },
  context: { hash: 'ctx', attr: 'context' },
  concurrency: { hash: 'conc', attr: 'concurrency' },
  kv: { hash: 'kv', attr: 'kv-cache-dtype' },
  tp: { hash: 'tp', attr: 'tensor-parallel' },
  gmu: { hash: 'gmu', attr: 'gpu-memory-utilization' },
  ngl: { hash: 'ngl', attr: 'n-gpu-layers' },
  sm: { hash: 'sm', attr: 'split-mode' },
  ts: { hash: 'ts', attr: 'tensor-split' },
  mg: { hash: 'mg', attr: 'main-gpu' },
};
/** State keys only llama.cpp reads. */
export const LLAMA_KEYS = ['ngl', 'sm', 'ts', 'mg'];

/** The inputs, as strings (what the form holds). '' = not given (default). */
export const DEFAULT_STATE = Object.freeze({
  wl: '', // '' = the core's default workload
  src: 'params', // catalog | params | config | files (config.json and bytes read from the model's files)
  model: '',
  params: '13000000000', // the article's hypothetical 13B
  config: '',
  wbytes: '', // the checkpoint's exact bytes (config and files sources)
  pipe: '',
  weights: '', // '' = the checkpoint's own
  gpu: '', // '' = the core's default GPU
  gpumem: '',
  count: '1',
  headroom: '',
  engine: '', context: '', concurrency: '', kv: '', tp: '', gmu: '',
  ngl: '', sm: '', ts: '', mg: '',
  ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [f.key, ''])),
});

/** state key → {hash, attr}. */
export const KEYS = {
  ...COMMON_KEYS, ...INFERENCE_KEYS,
  ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [f.key, { hash: f.key, attr: f.attr }])),
};
export const ATTRIBUTES = Object.fromEntries(Object.entries(KEYS).map(([key, k]) => [k.attr, key]));
