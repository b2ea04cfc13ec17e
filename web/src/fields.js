//
// One table describes every input: its state key (also its URL key), the
// scenario path it fills, how its text is read, where its allowed values
// come from (the module's catalog().defaults) and its attribute. Its label,
// one-line explanation and any worded placeholder are in the string tables
// (i18n/en.js, i18n/nl.js: field.<key>, field.<key>.help, field.<key>.placeholder);
// a placeholder here is a literal value. Which block a workload reads is
// CONTRACT section 1.

/** Workload → the scenario block it reads. */
export const BLOCK_OF = { inference: 'inference', training: 'training', image: 'generation', video: 'generation' };

/**
 * kind: text | tokens | params | count | decimal | bytes | choice | bool | list | map
 * path: scenario path (array); block fields are relative to the workload's block.
 * choices: name in catalog().defaults.<block> (or a fixed list of [value, text]).
 */
export const TRAINING_FIELDS = [
  { key: 'fw', field: 'framework', kind: 'choice' },
  { key: 'method', field: 'method', kind: 'choice' },
  { key: 'rank', field: 'lora_rank', kind: 'count' },
  { key: 'targets', field: 'lora_targets', kind: 'list', placeholder: 'all-linear' },
  { key: 'dora', advanced: true, field: 'use_dora', kind: 'bool' },
  { key: 'tl', field: 'trainable_layers', kind: 'count', placeholder: '2' },
  { key: 'prec', field: 'precision', kind: 'choice' },
  { key: 'opt', field: 'optimizer', kind: 'choice' },
  { key: 'oimpl', advanced: true, field: 'optimizer_implementation', kind: 'choice' },
  { key: 'mb', field: 'micro_batch', kind: 'count' },
  { key: 'seq', field: 'seq_len', kind: 'tokens' },
  { key: 'ga', field: 'grad_accum', kind: 'count' },
  { key: 'ckpt', field: 'checkpointing', kind: 'choice' },
  { key: 'tattn', advanced: true, field: 'attention', kind: 'choice' },
  { key: 'shard', field: 'sharding', kind: 'choice' },
  { key: 'toff', advanced: true, field: 'offload', kind: 'choice' },
  { key: 'ttp', advanced: true, field: 'tensor_parallel', kind: 'count', placeholder: '1' },
  { key: 'tpp', advanced: true, field: 'pipeline_parallel', kind: 'count', placeholder: '1' },
  { key: 'tcp', advanced: true, field: 'context_parallel', kind: 'count', placeholder: '1' },
  { key: 'sgs', advanced: true, field: 'shard_group_size', kind: 'count' },
  { key: 'oib', advanced: true, field: 'optimizer_in_backward', kind: 'bool' },
  { key: 'closs', advanced: true, field: 'chunked_loss', kind: 'bool' },
  { key: 'aoff', advanced: true, field: 'activation_offload', kind: 'bool' },
  { key: 'fp8', advanced: true, field: 'fp8', kind: 'bool' },
  { key: 'tte', advanced: true, field: 'train_text_encoder', kind: 'bool' },
];
export const GENERATION_FIELDS = [
  { key: 'gw', field: 'width', kind: 'count' },
  { key: 'gh', field: 'height', kind: 'count' },
  { key: 'frames', field: 'frames', kind: 'count', only: ['video'] },
  { key: 'gb', field: 'batch', kind: 'count', placeholder: '1' },
  { key: 'steps', advanced: true, field: 'steps', kind: 'count' },
  { key: 'cfg', field: 'cfg', kind: 'bool' },
  { key: 'goff', field: 'offload', kind: 'choice' },
  { key: 'te', advanced: true, field: 'text_encoder', kind: 'choice' },
  { key: 'vae', advanced: true, field: 'vae', kind: 'choice' },
  { key: 'gattn', advanced: true, field: 'attention', kind: 'choice' },
  { key: 'tiling', field: 'vae_tiling', kind: 'bool' },
  { key: 'slicing', field: 'vae_slicing', kind: 'bool' },
  { key: 'sp', advanced: true, field: 'sequence_parallel', kind: 'count', placeholder: '1' },
  { key: 'fsdp', advanced: true, field: 'fsdp', kind: 'bool' },
  { key: 'cw', advanced: true, field: 'component_weights', kind: 'map', placeholder: 'transformer=nf4, text_encoder_2=int8' },
];
for (const f of TRAINING_FIELDS) { f.block = 'training'; f.attr = `training-${f.field.replace(/_/g, '-')}`; }
for (const f of GENERATION_FIELDS) { f.block = 'generation'; f.attr = `generation-${f.field.replace(/_/g, '-')}`; }

/** The common and inference inputs (key → URL key / attribute). */
export const COMMON_KEYS = {
  wl: { hash: 'wl', attr: 'workload' },
  src: { hash: 'src', attr: 'source' },
  model: { hash: 'model', attr: 'model' },
  params: { hash: 'params', attr: 'params', kind: 'params' },
  config: { hash: 'config', attr: 'config' },
  wbytes: { hash: 'wbytes', attr: 'weights-bytes', kind: 'bytes' },
  pipe: { hash: 'pipe', attr: 'pipeline' },
  weights: { hash: 'w', attr: 'weights' },
  gpu: { hash: 'gpu', attr: 'gpu' },
  gpumem: { hash: 'mem', attr: 'gpu-memory', kind: 'bytes' },
  gpucc: { hash: 'cc', attr: 'gpu-compute-capability', kind: 'decimal' },
  gpusm: { hash: 'sm', attr: 'gpu-sm-count', kind: 'count' },
  count: { hash: 'n', attr: 'gpu-count', kind: 'count' },
  headroom: { hash: 'headroom', attr: 'headroom', kind: 'decimal' },
};
export const INFERENCE_KEYS = {
  engine: { hash: 'engine', attr: 'engine' },
  context: { hash: 'ctx', attr: 'context', kind: 'tokens' },
  concurrency: { hash: 'conc', attr: 'concurrency', kind: 'count' },
  kv: { hash: 'kv', attr: 'kv-cache-dtype' },
  tp: { hash: 'tp', attr: 'tensor-parallel', kind: 'count' },
  gmu: { hash: 'gmu', attr: 'gpu-memory-utilization', kind: 'decimal' },
  lmo: { hash: 'lmo', attr: 'language-model-only' },
  ngl: { hash: 'ngl', attr: 'n-gpu-layers', kind: 'count' },
  sm: { hash: 'sm', attr: 'split-mode' },
  ts: { hash: 'ts', attr: 'tensor-split' },
  mg: { hash: 'mg', attr: 'main-gpu', kind: 'count' },
  hfc: { hash: 'hfc', attr: 'cache-implementation' },
  hfa: { hash: 'hfa', attr: 'attn-implementation' },
  hfv: { hash: 'hfv', attr: 'transformers-version' },
  hfn: { hash: 'hfn', attr: 'max-new-tokens', kind: 'tokens' },
  hfq: { hash: 'hfq', attr: 'quant-backend' },
  hfb: { hash: 'hfb', attr: 'nbits', kind: 'count' },
  hfg: { hash: 'hfg', attr: 'q-group-size', kind: 'count' },
  hfr: { hash: 'hfr', attr: 'residual-length', kind: 'tokens' },
};
/** State keys only llama.cpp reads. */
export const LLAMA_KEYS = ['ngl', 'sm', 'ts', 'mg'];
/** State keys only transformers reads (inference.transformers), and those of its quantized cache. */
export const HF_KEYS = ['hfc', 'hfa', 'hfv', 'hfn'];
export const HF_QUANT_KEYS = ['hfq', 'hfb', 'hfg', 'hfr'];

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
  gpucc: '', // a custom GPU's CUDA compute capability ('' = not given)
  gpusm: '', // a custom GPU's streaming multiprocessors ('' = not given)
  count: '1',
  headroom: '',
  engine: '', context: '', concurrency: '', kv: '', tp: '', gmu: '', lmo: '',
  ngl: '', sm: '', ts: '', mg: '',
  hfc: '', hfa: '', hfv: '', hfn: '', hfq: '', hfb: '', hfg: '', hfr: '',
  ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [f.key, ''])),
});

/** state key → {hash, attr, kind}; kind only for the number inputs. */
export const KEYS = {
  ...COMMON_KEYS, ...INFERENCE_KEYS,
  ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [f.key, { hash: f.key, attr: f.attr, kind: f.kind }])),
};
const NUMBER_KINDS = ['tokens', 'count', 'params', 'bytes', 'decimal'];
/** The kind of quantity a state key's text is read as, or '' for a name, a list or a switch. */
export const numberKind = (key) => (KEYS[key] && NUMBER_KINDS.includes(KEYS[key].kind) ? KEYS[key].kind : '');
export const ATTRIBUTES = Object.fromEntries(Object.entries(KEYS).map(([key, k]) => [k.attr, key]));
