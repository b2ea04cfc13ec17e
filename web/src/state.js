// The form's state: the scenario it builds (CONTRACT v1 section 1), its URL
// fragment, plan patches and error paths. No estimate arithmetic here.

import { numberOf } from './quantity.js';
import { BLOCK_OF, TRAINING_FIELDS, GENERATION_FIELDS, LLAMA_KEYS, HF_KEYS, HF_QUANT_KEYS, KEYS } from './fields.js';
import { english, languageOf } from './i18n/index.js';

/** A message of the page's own: English text (what the exported helpers return)
 *  and its table key, which the element shows in the reader's language. */
const said = (key, ...args) => ({ message: english.t(key, ...args), i18n: [key, ...args] });

/** The core's defaults (catalog().defaults): the default workload, engine
 *  and GPU, which fields each engine reads, and the names each training and
 *  generation setting allows. Set once the module answers. */
export const core = {
  defaults: { workload: 'inference', engine: '', gpu: '', engines: {}, training: {}, generation: {} },
  /** Workloads the module reads (catalog().defaults.workloads). */
  workloads: ['inference'],
  /** Ids and aliases of the catalog's video pipelines (catalog().pipelines): a fine-tune of one reads frames. */
  videoPipelines: new Set(),
};

export const workloadOf = (state) => state.wl || core.defaults.workload;
export const blockOf = (state) => BLOCK_OF[workloadOf(state)] || 'inference';
/** Fine-tuning an image pipeline: workload training with the core's diffusion framework. */
export const trainsPipeline = (state) => workloadOf(state) === 'training' && !!core.defaults.diffusion_training &&
  state.fw === core.defaults.diffusion_training.framework;
export const usesPipeline = (state) => blockOf(state) === 'generation' || trainsPipeline(state);
/** The engine a state runs on: the one chosen, else the core's default. */
export const engineOf = (state) => state.engine || core.defaults.engine;
/** Whether `engine` reads the scenario field `field` (from the core's own list). */
export function engineReads(engine, field) {
  const e = core.defaults.engines[engine];
  return !!e && e.fields.includes(field);
}
/** The block inputs a state shows. */
export function blockFields(state) {
  const block = blockOf(state);
  const list = block === 'training' ? TRAINING_FIELDS : block === 'generation' ? GENERATION_FIELDS : [];
  if (trainsPipeline(state)) return list.filter((f) => core.defaults.diffusion_training.training_fields.includes(f.field));
  return list.filter((f) => !f.only || f.only.includes(workloadOf(state)));
}
/** The generation inputs a diffusion fine-tune reads (its sample size, where the VAE and encoders run). */
export function sampleFields(state) {
  if (!trainsPipeline(state)) return [];
  return GENERATION_FIELDS.filter((f) => core.defaults.diffusion_training.generation_fields.includes(f.field) &&
    (f.field !== 'frames' || core.videoPipelines.has(state.pipe)));
}
/** The state keys a state's scenario reads (and its link holds). */
export function liveKeys(state) {
  const keys = ['wl', 'weights', 'gpu', 'gpumem', 'count', 'headroom'];
  if (state.gpumem !== '') keys.push('gpucc', 'gpusm');
  if (usesPipeline(state)) keys.push('pipe');
  else if (state.src === 'catalog') keys.push('src', 'model');
  else if (state.src === 'params') keys.push('src', 'params');
  else keys.push('src', 'config', 'wbytes');
  if (blockOf(state) === 'inference') {
    keys.push('engine', 'context', 'concurrency', 'kv', 'tp');
    if (engineReads(engineOf(state), 'gpu_memory_utilization')) keys.push('gmu');
    if (engineReads(engineOf(state), 'language_model_only')) keys.push('lmo');
    if (engineReads(engineOf(state), 'n_gpu_layers')) keys.push(...LLAMA_KEYS);
    if (engineReads(engineOf(state), 'cache_implementation')) {
      keys.push(...HF_KEYS);
      if (state.hfc === 'quantized') keys.push(...HF_QUANT_KEYS);
    }
  } else {
    keys.push(...blockFields(state).map((f) => f.key), ...sampleFields(state).map((f) => f.key));
  }
  return keys;
}

export const HASH_VERSION = '1';
/** The name a custom GPU has in the scenario (data, the same in every language). */
export const CUSTOM_GPU = 'custom GPU';

/** state → fragment text; `lang` (en | nl), when the reader chose one, goes last. */
export function stateToHash(state, lang = '') {
  const q = new URLSearchParams();
  q.set('v', HASH_VERSION);
  const live = new Set(liveKeys(state));
  for (const [key, k] of Object.entries(KEYS)) {
    if (live.has(key) && state[key] !== '' && state[key] !== undefined) q.set(k.hash, state[key]);
  }
  // Files are not in a link: what was read from them (config.json, bytes) is, as a pasted config.
  if (q.get('src') === 'files') q.set('src', 'config');
  if (languageOf(lang)) q.set('lang', languageOf(lang));
  return q.toString();
}

/** Fragment text → {state, lang} (lang only when the link names a language the
 *  page has), or {error, i18n} for an unknown version. */
export function hashToState(hash) {
  const q = new URLSearchParams(String(hash).replace(/^#/, ''));
  if (!q.has('v')) return null;
  if (q.get('v') !== HASH_VERSION) {
    const { message, i18n } = said('error.link-version', q.get('v'), HASH_VERSION);
    return { error: message, i18n };
  }
  const state = {};
  for (const [key, k] of Object.entries(KEYS)) {
    if (q.has(k.hash)) state[key] = q.get(k.hash);
  }
  const lang = languageOf(q.get('lang'));
  return lang ? { state, lang } : { state };
}

/** "3, 1" → [3, 1]; text that is not a list of numbers goes as is, so the module names the error. */
export function splitList(text) {
  const t = String(text).trim();
  if (t === '') return undefined;
  const parts = t.replace(/^\[|\]$/g, '').split(',').map((x) => x.trim());
  const nums = parts.map(Number);
  return parts.every((x) => x !== '') && nums.every(Number.isFinite) ? nums : t;
}
/** "q_proj, v_proj" → ["q_proj", "v_proj"]; a single word ("all-linear") stays a string. */
export function nameList(text) {
  const t = String(text).trim();
  if (t === '') return undefined;
  if (!/[,\s]/.test(t)) return t;
  return t.split(/[,\s]+/).filter(Boolean);
}
/** "transformer=nf4, text_encoder_2: int8" → {transformer: "nf4", text_encoder_2: "int8"}. */
export function nameMap(text) {
  const t = String(text).trim();
  if (t === '') return undefined;
  const out = {};
  for (const part of t.split(/[,;]+/).map((x) => x.trim()).filter(Boolean)) {
    const m = /^([^=:\s]+)\s*[=:]\s*(\S*)$/.exec(part);
    if (!m) return t; // not a map: the module names the error
    out[m[1]] = m[2];
  }
  return out;
}

/** One block input's text → its scenario value (undefined = not given). */
export function fieldValue(f, text) {
  if (text === '' || text === undefined) return undefined;
  switch (f.kind) {
    case 'choice': case 'text': return text;
    case 'bool': return text === 'true' ? true : text === 'false' ? false : text;
    case 'list': return nameList(text);
    case 'map': return nameMap(text);
    default: return numberOf(text, f.kind);
  }
}

/** state → {scenario}, {pending: message} (nothing to estimate yet), or
 *  {error: {path, message}} (the only local check: JSON syntax). */
export function buildScenario(state, readConfig) {
  const wl = workloadOf(state);
  const sc = { v: 1 };
  let notes;
  if (state.wl !== '') sc.workload = state.wl;
  if (usesPipeline(state)) {
    const id = state.pipe.trim();
    if (id === '') return { pending: { path: '/model', ...said('pending.pipeline') } };
    sc.model = id;
  } else if (state.src === 'catalog') {
    sc.model = state.model;
  } else if (state.src === 'params') {
    sc.model = { params: numberOf(state.params, 'params') ?? '' };
  } else if (state.src === 'files' && state.config.trim() === '' && state.fileParams) {
    // Files without a config.json: the parameter count their shapes hold, with their exact bytes.
    sc.model = { params: state.fileParams };
    const wbytes = numberOf(state.wbytes, 'bytes');
    if (wbytes !== undefined) sc.model.weights_bytes = wbytes;
  } else {
    const text = state.config.trim();
    if (text === '' && state.src === 'files') {
      return { pending: { path: '/model', ...said('pending.files') } };
    }
    if (text === '') return { pending: { path: '/model/config', ...said('pending.config') } };
    let config;
    try {
      config = JSON.parse(text);
    } catch (e) {
      // Python's json writes float('inf') and float('nan') as Infinity and NaN, which
      // JSON.parse refuses: the module's reader takes them as null and says so.
      const read = readConfig ? readConfig(text) : null;
      if (!read || !read.ok) return { error: { path: '/model/config', ...said('error.config-json', e.message) } };
      config = read.config;
      notes = read.notes;
    }
    sc.model = { config };
    const wbytes = numberOf(state.wbytes, 'bytes');
    if (wbytes !== undefined) sc.model.weights_bytes = wbytes;
  }
  if (state.weights !== '') sc.weights = state.weights;
  sc.hardware = {};
  const mem = numberOf(state.gpumem, 'bytes');
  if (mem !== undefined) {
    sc.hardware.gpu = { name: CUSTOM_GPU, memory_bytes: mem };
    const cc = numberOf(state.gpucc, 'decimal');
    if (cc !== undefined) sc.hardware.gpu.compute_capability = cc;
    const sms = numberOf(state.gpusm, 'count');
    if (sms !== undefined) sc.hardware.gpu.sm_count = sms;
  } else if (state.gpu !== '') sc.hardware.gpu = state.gpu;
  const count = numberOf(state.count, 'count');
  if (count !== undefined) sc.hardware.count = count;
  const headroom = numberOf(state.headroom, 'decimal');
  // The input is in percent; the scenario field is a fraction (unit change only).
  if (headroom !== undefined) sc.headroom = typeof headroom === 'number' ? headroom / 100 : headroom;
  const block = BLOCK_OF[wl];
  if (block === 'inference') sc.inference = inferenceBlock(state);
  else if (block) {
    const b = {};
    for (const f of blockFields(state)) {
      const v = fieldValue(f, state[f.key]);
      if (v !== undefined) b[f.field] = v;
    }
    sc[block] = b;
    const sample = {};
    for (const f of sampleFields(state)) {
      const v = fieldValue(f, state[f.key]);
      if (v !== undefined) sample[f.field] = v;
    }
    if (Object.keys(sample).length > 0) sc.generation = sample;
  }
  return notes && notes.length ? { scenario: sc, notes } : { scenario: sc };
}

export function inferenceBlock(state) {
  const inf = {};
  if (state.engine !== '') inf.engine = state.engine;
  const fields = { context: ['context', 'tokens'], concurrency: ['concurrency', 'count'], tp: ['tensor_parallel', 'count'] };
  for (const [key, [field, kind]] of Object.entries(fields)) {
    const v = numberOf(state[key], kind);
    if (v !== undefined) inf[field] = v;
  }
  if (state.kv !== '') inf.kv_cache_dtype = state.kv;
  if (engineReads(engineOf(state), 'gpu_memory_utilization')) {
    const gmu = numberOf(state.gmu, 'decimal');
    if (gmu !== undefined) inf.vllm = { gpu_memory_utilization: gmu };
  }
  if (engineReads(engineOf(state), 'language_model_only') && state.lmo !== '') {
    inf.vllm = { ...inf.vllm, language_model_only: fieldValue({ kind: 'bool' }, state.lmo) };
  }
  if (engineReads(engineOf(state), 'n_gpu_layers')) {
    const lc = {};
    const ngl = numberOf(state.ngl, 'count');
    if (ngl !== undefined) lc.n_gpu_layers = ngl;
    if (state.sm !== '') lc.split_mode = state.sm;
    const ts = splitList(state.ts);
    if (ts !== undefined) lc.tensor_split = ts;
    const mg = numberOf(state.mg, 'count');
    if (mg !== undefined) lc.main_gpu = mg;
    if (Object.keys(lc).length) inf.llama_cpp = lc;
  }
  if (engineReads(engineOf(state), 'cache_implementation')) {
    const hf = transformersBlock(state);
    if (Object.keys(hf).length) inf.transformers = hf;
  }
  return inf;
}

/** The transformers block: cache class, attention, version and (quantized cache) its cache_config. */
function transformersBlock(state) {
  const hf = {};
  if (state.hfc) hf.cache_implementation = state.hfc;
  if (state.hfa) hf.attn_implementation = state.hfa;
  if (String(state.hfv || '').trim() !== '') hf.version = String(state.hfv).trim();
  const newTokens = numberOf(state.hfn, 'tokens');
  if (newTokens !== undefined) hf.max_new_tokens = newTokens;
  if (state.hfc !== 'quantized') return hf;
  if (state.hfq) hf.backend = state.hfq;
  const numbers = { hfb: ['nbits', 'count'], hfg: ['q_group_size', 'count'], hfr: ['residual_length', 'tokens'] };
  for (const [key, [field, kind]] of Object.entries(numbers)) {
    const v = numberOf(state[key], kind);
    if (v !== undefined) hf[field] = v;
  }
  return hf;
}

/** Scenario paths a plan hint may patch, and the state key each one sets. */
export const PATCHABLE = {
  '/weights': 'weights',
  '/inference/context': 'context',
  '/inference/concurrency': 'concurrency',
  '/inference/kv_cache_dtype': 'kv',
  '/inference/tensor_parallel': 'tp',
  '/inference/engine': 'engine',
  '/inference/vllm/gpu_memory_utilization': 'gmu',
  '/inference/vllm/language_model_only': 'lmo',
  '/inference/llama_cpp/n_gpu_layers': 'ngl',
  '/inference/transformers/cache_implementation': 'hfc',
  '/inference/transformers/attn_implementation': 'hfa',
  '/hardware/gpu': 'gpu',
  '/hardware/count': 'count',
  ...Object.fromEntries([...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [`/${f.block}/${f.field}`, f.key])),
};
export function flattenPatch(patch, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(patch)) {
    const path = `${prefix}/${k}`;
    if (v && typeof v === 'object' && !Array.isArray(v)) flattenPatch(v, path, out);
    else out[path] = v;
  }
  return out;
}
/** A hint's patch → state changes, or null when the form cannot show one of its fields.
 *  A component's format (/generation/component_weights/NAME) is merged into the
 *  state's map of them (`state.cw`, "transformer=nf4, text_encoder_2=int8"). */
export function patchToState(patch, state = {}) {
  const flat = flattenPatch(patch || {});
  const changes = {};
  const weights = '/generation/component_weights/';
  for (const [path, value] of Object.entries(flat)) {
    if (path === '/inference/pipeline_parallel' && value === 1) continue;  // the form's own default
    if (path.startsWith(weights) && typeof value === 'string') {
      const map = nameMap(changes.cw !== undefined ? changes.cw : state.cw || '');
      const merged = { ...(map && typeof map === 'object' ? map : {}), [path.slice(weights.length)]: value };
      changes.cw = Object.entries(merged).map(([k, v]) => `${k}=${v}`).join(', ');
      continue;
    }
    const key = PATCHABLE[path];
    if (!key || typeof value === 'object') return null;
    changes[key] = String(value);
    if (key === 'gpu') {
      changes.gpumem = '';
      changes.gpucc = '';
      changes.gpusm = '';
    }
  }
  return changes;
}

/** Error path → the input it belongs to (longest prefix first). */
export const ERROR_FIELDS = [
  ['/model/config', 'config'],
  ['/model/weights_bytes', 'wbytes'],
  ['/model/params', 'params'],
  ['/model', 'model-source'],
  ['/weights', 'weights'],
  ['/inference/engine', 'engine'],
  ['/inference/context', 'context'],
  ['/inference/concurrency', 'concurrency'],
  ['/inference/kv_cache_dtype', 'kv'],
  ['/inference/tensor_parallel', 'tp'],
  ['/inference/pipeline_parallel', 'tp'],
  ['/inference/vllm/language_model_only', 'lmo'],
  ['/inference/vllm', 'gmu'],
  ['/inference/llama_cpp/n_gpu_layers', 'ngl'],
  ['/inference/llama_cpp/split_mode', 'sm'],
  ['/inference/llama_cpp/tensor_split', 'ts'],
  ['/inference/llama_cpp/main_gpu', 'mg'],
  ['/inference/transformers/cache_implementation', 'hfc'],
  ['/inference/transformers/attn_implementation', 'hfa'],
  ['/inference/transformers/version', 'hfv'],
  ['/inference/transformers/max_new_tokens', 'hfn'],
  ['/inference/transformers/backend', 'hfq'],
  ['/inference/transformers/nbits', 'hfb'],
  ['/inference/transformers/q_group_size', 'hfg'],
  ['/inference/transformers/residual_length', 'hfr'],
  ['/inference/transformers', 'hfc'],
  ...[...TRAINING_FIELDS, ...GENERATION_FIELDS].map((f) => [`/${f.block}/${f.field}`, f.key]),
  ['/hardware/gpu/memory_bytes', 'gpumem'],
  ['/hardware/gpu/compute_capability', 'gpucc'],
  ['/hardware/gpu/sm_count', 'gpusm'],
  ['/hardware/gpu', 'gpu'],
  ['/hardware/count', 'count'],
  ['/headroom', 'headroom'],
  ['/workload', 'wl'],
];

/** The text an input holds for a block value (the inverse of fieldValue). */
function fieldText(f, v) {
  if (f.kind === 'list' && Array.isArray(v)) return v.join(', ');
  if (f.kind === 'map' && v && typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k}=${x}`).join(', ');
  return typeof v === 'object' ? null : String(v);
}

/** The inference block's values → the state's inputs. */
function inferenceToState(inf, st, take) {
  take(inf, '/inference', ['engine', 'context', 'concurrency', 'kv_cache_dtype', 'tensor_parallel', 'vllm', 'llama_cpp',
    'transformers']);
  const simple = { engine: 'engine', context: 'context', concurrency: 'concurrency', kv_cache_dtype: 'kv', tensor_parallel: 'tp' };
  for (const [field, key] of Object.entries(simple)) if (inf[field] !== undefined) st[key] = String(inf[field]);
  if (inf.vllm) {
    take(inf.vllm, '/inference/vllm', ['gpu_memory_utilization', 'language_model_only']);
    if (inf.vllm.gpu_memory_utilization !== undefined) st.gmu = String(inf.vllm.gpu_memory_utilization);
    if (inf.vllm.language_model_only !== undefined) st.lmo = String(inf.vllm.language_model_only);
  }
  const lc = inf.llama_cpp || {};
  take(lc, '/inference/llama_cpp', ['n_gpu_layers', 'split_mode', 'tensor_split', 'main_gpu']);
  if (lc.n_gpu_layers !== undefined) st.ngl = String(lc.n_gpu_layers);
  if (lc.split_mode !== undefined) st.sm = String(lc.split_mode);
  if (lc.tensor_split !== undefined) st.ts = Array.isArray(lc.tensor_split) ? lc.tensor_split.join(',') : String(lc.tensor_split);
  if (lc.main_gpu !== undefined) st.mg = String(lc.main_gpu);
  const hf = inf.transformers || {};
  const hfKeys = { cache_implementation: 'hfc', attn_implementation: 'hfa', version: 'hfv', max_new_tokens: 'hfn', backend: 'hfq',
    nbits: 'hfb', q_group_size: 'hfg', residual_length: 'hfr' };
  take(hf, '/inference/transformers', Object.keys(hfKeys));
  for (const [field, key] of Object.entries(hfKeys)) {
    if (hf[field] !== undefined && typeof hf[field] !== 'object') st[key] = String(hf[field]);
  }
}

/**
 * A scenario (CONTRACT v1, e.g. one exported here or written for the
 * command-line tool) → {state, ignored: [paths the form has no input for]}
 * or {error} when it is not an object.
 */
export function scenarioToState(sc, defaults) {
  if (!sc || typeof sc !== 'object' || Array.isArray(sc)) {
    const { message, i18n } = said('import.not-object');
    return { error: message, i18n };
  }
  const st = { ...defaults, model: defaults.model };
  const ignored = [];
  const take = (obj, base, known) => {
    for (const k of Object.keys(obj || {})) if (!known.includes(k)) ignored.push(`${base}/${k}`);
  };
  take(sc, '', ['v', 'workload', 'model', 'weights', 'hardware', 'headroom', 'inference', 'training', 'generation']);
  if (sc.workload !== undefined) st.wl = String(sc.workload);
  // The framework says whether the model is a pipeline (a diffusion fine-tune).
  if (sc.training && typeof sc.training.framework === 'string') st.fw = sc.training.framework;
  const m = sc.model;
  if (usesPipeline(st)) {
    st.pipe = typeof m === 'string' ? m : '';
    if (typeof m !== 'string' && m !== undefined) ignored.push('/model');
  } else if (typeof m === 'string') {
    st.src = 'catalog';
    st.model = m;
  } else if (m && typeof m === 'object' && m.params !== undefined) {
    st.src = 'params';
    st.params = String(m.params);
    take(m, '/model', ['params']);
  } else if (m && typeof m === 'object' && m.config !== undefined) {
    st.src = 'config';
    st.config = JSON.stringify(m.config, null, 2);
    if (m.weights_bytes !== undefined) st.wbytes = String(m.weights_bytes);
    take(m, '/model', ['config', 'weights_bytes']);
  } else if (m !== undefined) ignored.push('/model');
  if (typeof sc.weights === 'string') st.weights = sc.weights;
  else if (sc.weights !== undefined) ignored.push('/weights');
  const hw = sc.hardware || {};
  take(hw, '/hardware', ['gpu', 'count']);
  if (typeof hw.gpu === 'string') st.gpu = hw.gpu;
  else if (hw.gpu && typeof hw.gpu === 'object' && hw.gpu.memory_bytes !== undefined) {
    st.gpumem = String(hw.gpu.memory_bytes);
    if (typeof hw.gpu.compute_capability === 'number') st.gpucc = String(hw.gpu.compute_capability);
    if (typeof hw.gpu.sm_count === 'number') st.gpusm = String(hw.gpu.sm_count);
  }
  if (hw.count !== undefined) st.count = String(hw.count);
  // The scenario's headroom is a fraction; the input is in percent (unit change only).
  if (typeof sc.headroom === 'number') st.headroom = String(Number((sc.headroom * 100).toPrecision(12)));
  const block = blockOf(st);
  if (block === 'inference') {
    inferenceToState(sc.inference || {}, st, take);
  } else {
    const b = sc[block] || {};
    const fields = blockFields(st);
    take(b, `/${block}`, fields.map((f) => f.field));
    for (const f of fields) {
      if (b[f.field] === undefined) continue;
      const text = fieldText(f, b[f.field]);
      if (text === null) ignored.push(`/${block}/${f.field}`);
      else st[f.key] = text;
    }
  }
  const sample = sampleFields(st);
  if (sample.length > 0) {
    const g = sc.generation || {};
    take(g, '/generation', sample.map((f) => f.field));
    for (const f of sample) {
      if (g[f.field] === undefined) continue;
      const text = fieldText(f, g[f.field]);
      if (text === null) ignored.push(`/generation/${f.field}`);
      else st[f.key] = text;
    }
  }
  for (const other of ['inference', 'training', 'generation']) {
    if (other !== block && sc[other] !== undefined && !(other === 'generation' && sample.length > 0)) ignored.push(`/${other}`);
  }
  return { state: st, ignored };
}
