/*
 * <vram-budget> — the page face of the VRAM Budget estimator.
 *
 * Presentation only. Every number shown comes from the WebAssembly module's
 * JSON (estimate, plan, sweep, catalog; see wasm/vram-budget.d.ts). This file
 * builds a scenario (CONTRACT v1 section 1) from the inputs, hands it to the
 * module, and draws what comes back. Bytes are only *formatted* here, with one
 * helper (formatBytes) that returns value and unit label together:
 * GiB = 2^30 bytes, GB = 10^9 bytes.
 *
 * Load (classic scripts, work from file://):
 *   <script src="vram-budget.js"></script>            defines createVramBudget
 *   <script src="vram-budget-element.js"></script>    defines <vram-budget>
 *
 * Markup:
 *   <vram-budget></vram-budget>
 *   <vram-budget source="catalog" model="Qwen/Qwen3-8B" context="8192"
 *                engine="llama.cpp" gpu="RTX-4090" no-url-state></vram-budget>
 *
 * Attributes (initial values; the URL fragment wins when it holds a state):
 *   source (catalog | params | config), model, params, weights, engine, context,
 *   concurrency, kv-cache-dtype, tensor-parallel, gpu, gpu-count,
 *   headroom (percent), gpu-memory-utilization, and for llama.cpp
 *   n-gpu-layers, split-mode (layer | row | none), tensor-split ("3,1"),
 *   main-gpu; no-url-state (boolean: do not read or write location.hash).
 *
 * URL state: location.hash = "#v=1&src=params&params=13000000000&w=bf16&..."
 *   (URLSearchParams; keys in HASH_KEYS below). A link reproduces the estimate.
 *
 * Events:
 *   estimate-change  bubbling CustomEvent; detail = the report object
 *                    ({ok:true, components, ...} or {ok:false, error}).
 *
 * Properties: scenario (the scenario object last sent), report, plan, sweep.
 *
 * CSS custom properties (see style.css):
 *   --vb-accent  accent colour (default #2557a7)
 *   --vb-ok      colour of "fits" (default #1b7f3b)
 *   --vb-bad     colour of "does not fit" and errors (default #b42318)
 *   --vb-muted   secondary text (default #5b6470)
 */
(function () {
  'use strict';

  const SVG_NS = 'http://www.w3.org/2000/svg';

  // ---- formatting (display only) -------------------------------------------

  /** Bytes → {value, label, text}. The label always comes with its divisor. */
  const UNIT_SYSTEMS = {
    iec: { divisor: 2 ** 30, label: 'GiB' }, // GiB = 2^30 bytes
    si: { divisor: 1e9, label: 'GB' }, // GB = 10^9 bytes
  };
  function formatBytes(bytes, system = 'iec', digits = 2) {
    const unit = UNIT_SYSTEMS[system];
    if (!unit) throw new Error(`unknown unit system: ${system}`);
    const value = (Number(bytes) / unit.divisor).toFixed(digits);
    return { value, label: unit.label, text: `${value} ${unit.label}` };
  }
  const groupDigits = (n) => Number(n).toLocaleString('en-US', { maximumFractionDigits: 2 });
  const exactBytes = (n) => `${groupDigits(n)} B`;

  // ---- tiny DOM helpers ------------------------------------------------------

  /** h('div', {class: 'x'}, child, 'text') — children are nodes or text. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
  }
  function s(tag, attrs, ...children) {
    const el = document.createElementNS(SVG_NS, tag);
    setAttrs(el, attrs);
    append(el, children);
    return el;
  }
  function setAttrs(el, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  function append(el, ...children) {
    for (const c of children.flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
  }
  function replace(el, ...children) {
    el.replaceChildren();
    append(el, children);
  }

  // ---- state <-> scenario <-> URL ------------------------------------------

  /** The inputs, as strings (what the form holds). '' = not given (default). */
  const DEFAULT_STATE = Object.freeze({
    src: 'params', // catalog | params | config
    model: '',
    params: '13000000000', // the article's hypothetical 13B
    config: '',
    weights: '', // '' = the checkpoint's own
    engine: '', // '' = the core's default engine
    context: '',
    concurrency: '',
    kv: '',
    tp: '',
    gpu: '', // '' = the core's default GPU
    count: '1',
    headroom: '',
    gmu: '',
    ngl: '', // llama.cpp n_gpu_layers ('' = all layers and the output layer)
    sm: '', // llama.cpp split_mode ('' = layer)
    ts: '', // llama.cpp tensor_split, comma-separated proportions ('' = equal)
    mg: '', // llama.cpp main_gpu
  });

  /** state key → URL fragment key. */
  const HASH_KEYS = {
    src: 'src', model: 'model', params: 'params', config: 'config', weights: 'w',
    engine: 'engine', context: 'ctx', concurrency: 'conc', kv: 'kv', tp: 'tp',
    gpu: 'gpu', count: 'n', headroom: 'headroom', gmu: 'gmu',
    ngl: 'ngl', sm: 'sm', ts: 'ts', mg: 'mg',
  };
  /** State keys only llama.cpp reads. */
  const LLAMA_KEYS = ['ngl', 'sm', 'ts', 'mg'];

  /** The core's defaults (catalog().defaults): the default engine and GPU, and
   *  which fields each engine reads. Set once the module answers. */
  let coreDefaults = { engine: '', gpu: '', engines: {} };
  /** The engine a state runs on: the one chosen, else the core's default. */
  function engineOf(state) {
    return state.engine || coreDefaults.engine;
  }
  /** Whether `engine` reads the scenario field `field` (from the core's own list). */
  function engineReads(engine, field) {
    const e = coreDefaults.engines[engine];
    return !!e && e.fields.includes(field);
  }
  const HASH_VERSION = '1';

  /** attribute → state key. */
  const ATTRIBUTES = {
    source: 'src', model: 'model', params: 'params', weights: 'weights',
    engine: 'engine', context: 'context', concurrency: 'concurrency',
    'kv-cache-dtype': 'kv', 'tensor-parallel': 'tp', gpu: 'gpu',
    'gpu-count': 'count', headroom: 'headroom', 'gpu-memory-utilization': 'gmu',
    'n-gpu-layers': 'ngl', 'split-mode': 'sm', 'tensor-split': 'ts', 'main-gpu': 'mg',
  };

  function stateToHash(state) {
    const q = new URLSearchParams();
    q.set('v', HASH_VERSION);
    for (const [key, hk] of Object.entries(HASH_KEYS)) {
      if (key === 'model' && state.src !== 'catalog') continue;
      if (key === 'params' && state.src !== 'params') continue;
      if (key === 'config' && state.src !== 'config') continue;
      if (key === 'gmu' && !engineReads(engineOf(state), 'gpu_memory_utilization')) continue;
      if (LLAMA_KEYS.includes(key) && !engineReads(engineOf(state), 'n_gpu_layers')) continue;
      if (state[key] !== '') q.set(hk, state[key]);
    }
    return q.toString();
  }

  /** Fragment text → partial state, or {error} for an unknown version. */
  function hashToState(hash) {
    const q = new URLSearchParams(hash.replace(/^#/, ''));
    if (!q.has('v')) return null;
    if (q.get('v') !== HASH_VERSION) {
      return { error: `this link has state version v=${q.get('v')}; this page reads v=${HASH_VERSION}` };
    }
    const state = {};
    for (const [key, hk] of Object.entries(HASH_KEYS)) {
      if (q.has(hk)) state[key] = q.get(hk);
    }
    return { state };
  }

  /** A number input's text → number, or the raw text so the module names the error. */
  function numberOrText(text) {
    const t = String(text).trim();
    if (t === '') return undefined;
    const n = Number(t);
    return Number.isFinite(n) ? n : t;
  }

  /** state → {scenario} or {error: {path, message}} (the only local check: JSON syntax). */
  function buildScenario(state) {
    const sc = { v: 1, workload: 'inference' };
    if (state.src === 'catalog') {
      sc.model = state.model;
    } else if (state.src === 'params') {
      sc.model = { params: numberOrText(state.params) ?? '' };
    } else {
      const text = state.config.trim();
      if (text === '') {
        return { error: { path: '/model/config', message: 'paste the model\u2019s config.json here' } };
      }
      let config;
      try {
        config = JSON.parse(text);
      } catch (e) {
        return { error: { path: '/model/config', message: `is not valid JSON: ${e.message}` } };
      }
      sc.model = { config };
    }
    if (state.weights !== '') sc.weights = state.weights;
    sc.hardware = {};
    if (state.gpu !== '') sc.hardware.gpu = state.gpu;
    const count = numberOrText(state.count);
    if (count !== undefined) sc.hardware.count = count;
    const headroom = numberOrText(state.headroom);
    // The input is in percent; the scenario field is a fraction (unit change only).
    if (headroom !== undefined) sc.headroom = typeof headroom === 'number' ? headroom / 100 : headroom;
    const inf = {};
    if (state.engine !== '') inf.engine = state.engine;
    const fields = { context: 'context', concurrency: 'concurrency', tp: 'tensor_parallel' };
    for (const [key, field] of Object.entries(fields)) {
      const v = numberOrText(state[key]);
      if (v !== undefined) inf[field] = v;
    }
    if (state.kv !== '') inf.kv_cache_dtype = state.kv;
    if (engineReads(engineOf(state), 'gpu_memory_utilization')) {
      const gmu = numberOrText(state.gmu);
      if (gmu !== undefined) inf.vllm = { gpu_memory_utilization: gmu };
    }
    if (engineReads(engineOf(state), 'n_gpu_layers')) {
      const lc = llamaSettings(state);
      if (Object.keys(lc).length) inf.llama_cpp = lc;
    }
    sc.inference = inf;
    return { scenario: sc };
  }

  /** "3, 1" → [3, 1]; text that is not a list of numbers goes as is, so the module names the error. */
  function splitList(text) {
    const t = String(text).trim();
    if (t === '') return undefined;
    const parts = t.replace(/^\[|\]$/g, '').split(',').map((x) => x.trim());
    const nums = parts.map(Number);
    return parts.every((x) => x !== '') && nums.every(Number.isFinite) ? nums : t;
  }

  /** The llama_cpp block from the llama.cpp inputs (only what was given). */
  function llamaSettings(state) {
    const lc = {};
    const ngl = numberOrText(state.ngl);
    if (ngl !== undefined) lc.n_gpu_layers = ngl;
    if (state.sm !== '') lc.split_mode = state.sm;
    const ts = splitList(state.ts);
    if (ts !== undefined) lc.tensor_split = ts;
    const mg = numberOrText(state.mg);
    if (mg !== undefined) lc.main_gpu = mg;
    return lc;
  }

  /** Scenario paths a plan hint may patch, and the state key each one sets. */
  const PATCHABLE = {
    '/weights': 'weights',
    '/inference/context': 'context',
    '/inference/concurrency': 'concurrency',
    '/inference/kv_cache_dtype': 'kv',
    '/inference/tensor_parallel': 'tp',
    '/inference/engine': 'engine',
    '/inference/vllm/gpu_memory_utilization': 'gmu',
    '/inference/llama_cpp/n_gpu_layers': 'ngl',
    '/hardware/gpu': 'gpu',
    '/hardware/count': 'count',
  };
  function flattenPatch(patch, prefix = '', out = {}) {
    for (const [k, v] of Object.entries(patch)) {
      const path = `${prefix}/${k}`;
      if (v && typeof v === 'object' && !Array.isArray(v)) flattenPatch(v, path, out);
      else out[path] = v;
    }
    return out;
  }
  /** A hint's patch → state changes, or null when the form cannot show one of its fields. */
  function patchToState(patch) {
    const flat = flattenPatch(patch || {});
    const changes = {};
    for (const [path, value] of Object.entries(flat)) {
      if (path === '/inference/pipeline_parallel' && value === 1) continue;  // the form's own default
      const key = PATCHABLE[path];
      if (!key || typeof value === 'object') return null;
      changes[key] = String(value);
    }
    return changes;
  }

  /** Error path → the input it belongs to (longest prefix wins). */
  const ERROR_FIELDS = [
    ['/model/config', 'config'],
    ['/model/params', 'params'],
    ['/model', 'model-source'],
    ['/weights', 'weights'],
    ['/inference/engine', 'engine'],
    ['/inference/context', 'context'],
    ['/inference/concurrency', 'concurrency'],
    ['/inference/kv_cache_dtype', 'kv'],
    ['/inference/tensor_parallel', 'tp'],
    ['/inference/pipeline_parallel', 'tp'],
    ['/inference/vllm', 'gmu'],
    ['/inference/llama_cpp/n_gpu_layers', 'ngl'],
    ['/inference/llama_cpp/split_mode', 'sm'],
    ['/inference/llama_cpp/tensor_split', 'ts'],
    ['/inference/llama_cpp/main_gpu', 'mg'],
    ['/hardware/gpu', 'gpu'],
    ['/hardware/count', 'count'],
    ['/headroom', 'headroom'],
  ];

  // ---- colours of the budget categories (presentation) ----------------------

  const COLOURS = {
    weights: '#3b6fd4', kv_cache: '#e08a1e', activations: '#2e9e6a',
    non_torch: '#8a63c7', cuda_graphs: '#c2497b', cuda_context: '#6b7785',
    rotary_cache: '#1f9bb3', allocator_cache: '#a3842a', gradients: '#d1495b',
    optimizer_state: '#7d4e24', master_weights: '#4d8f2a', text_encoder: '#5c6bc0',
    vae: '#00897b',
  };
  const FALLBACK_COLOURS = ['#9c6ade', '#3f8f8f', '#b5651d', '#5f7f1f', '#aa3377', '#337799'];
  function colourOf(id, index) {
    return COLOURS[id] || FALLBACK_COLOURS[index % FALLBACK_COLOURS.length];
  }

  const METRIC_LABELS = {
    weights_bytes: 'Weights resident on the GPU',
    kv_cache_bytes: 'KV cache allocated',
    kv_bytes_per_token: 'KV bytes per token (all layers)',
    kv_capacity_tokens: 'Tokens the KV pool holds',
    max_concurrency: 'Sequences of this context that fit',
    activation_bytes: 'Peak transient working memory',
    non_torch_bytes: 'Memory outside the framework allocator',
    cuda_graph_bytes: 'CUDA graph pools',
    peak_allocated_bytes: 'Peak of live tensors',
    peak_reserved_bytes: 'Peak held by the allocator',
    peak_device_bytes: 'Peak the driver sees',
    max_context_tokens: 'Longest context that fits',
  };

  // ---- the module, loaded once per page ------------------------------------

  let modulePromise = null;
  function loadModule() {
    if (!modulePromise) {
      if (typeof window.createVramBudget !== 'function') {
        return Promise.reject(new Error('vram-budget.js is not loaded: add <script src="vram-budget.js"> before this script'));
      }
      modulePromise = window.createVramBudget();
    }
    return modulePromise;
  }
  /** Calls a module function and parses its JSON; never throws. */
  function call(module, fn, arg) {
    try {
      return JSON.parse(arg === undefined ? module[fn]() : module[fn](arg));
    } catch (e) {
      return { ok: false, error: { path: '', message: `${fn}() failed: ${e.message}` } };
    }
  }

  let uid = 0;

  class VramBudgetElement extends HTMLElement {
    static define(tag = 'vram-budget', registry = customElements) {
      registry.define(tag, this);
      return this;
    }

    static get observedAttributes() {
      return Object.keys(ATTRIBUTES);
    }

    constructor() {
      super();
      this._id = `vb${++uid}`;
      this._state = { ...DEFAULT_STATE };
      this._module = null;
      this._catalog = null;
      this._fields = {};
      this._errors = {};
      this._timer = 0;
      this.scenario = null;
      this.report = null;
      this.plan = null;
      this.sweep = null;
      this._onHashChange = () => this._readHash(true);
    }

    connectedCallback() {
      if (this._started) return;
      this._started = true;
      for (const [attr, key] of Object.entries(ATTRIBUTES)) {
        if (this.hasAttribute(attr)) this._state[key] = this.getAttribute(attr);
      }
      if (this.getAttribute('model') && !this.hasAttribute('source')) this._state.src = 'catalog';
      replace(this, h('p', { class: 'vb-loading', role: 'status' }, 'Loading the estimator\u2026'));
      loadModule().then(
        (module) => this._start(module),
        (e) => replace(this, h('p', { class: 'vb-error', role: 'alert' }, e.message)),
      );
    }

    disconnectedCallback() {
      window.removeEventListener('hashchange', this._onHashChange);
      clearTimeout(this._timer);
      this._started = false;
    }

    attributeChangedCallback(name, _old, value) {
      if (!this._module || value === null) return;
      this._setState({ [ATTRIBUTES[name]]: value });
    }

    get _urlState() {
      return !this.hasAttribute('no-url-state');
    }

    _start(module) {
      this._module = module;
      this._catalog = call(module, 'catalog');
      if (!this._catalog.ok) {
        replace(this, h('p', { class: 'vb-error', role: 'alert' }, `catalog(): ${this._catalog.error.message}`));
        return;
      }
      coreDefaults = this._catalog.defaults;
      if (!this._state.model && this._catalog.models.length) {
        const preferred = this._catalog.models.find((m) => m.id === 'meta-llama/Llama-3.1-8B');
        this._state.model = (preferred || this._catalog.models[0]).id;
      }
      this._buildForm();
      if (this._urlState) {
        this._readHash(false);
        window.addEventListener('hashchange', this._onHashChange);
      }
      this._syncForm();
      this._update();
    }

    _readHash(rerun) {
      const parsed = hashToState(location.hash);
      this._hashError = null;
      if (!parsed) return;
      if (parsed.error) {
        this._hashError = parsed.error;
      } else {
        this._state = { ...DEFAULT_STATE, model: this._state.model, ...parsed.state };
      }
      if (rerun) {
        this._syncForm();
        this._update();
      }
    }

    /** Merge state changes, reflect them in the form, recompute. */
    _setState(changes) {
      this._hashError = null;
      Object.assign(this._state, changes);
      this._syncForm();
      this._update();
    }

    // ---- form ---------------------------------------------------------------

    _field(key, labelText, control, help) {
      const id = `${this._id}-${key}`;
      control.id = id;
      const err = h('p', { class: 'vb-field-error', id: `${id}-error`, role: 'alert', hidden: true });
      control.setAttribute('aria-describedby', `${id}-error${help ? ` ${id}-help` : ''}`);
      this._fields[key] = control;
      this._errors[key] = err;
      const wrap = h('div', { class: 'vb-field', 'data-field': key },
        h('label', { for: id }, labelText), control,
        help ? h('p', { class: 'vb-help', id: `${id}-help` }, help) : null, err);
      return wrap;
    }

    _select(key, options) {
      const sel = h('select', { name: key },
        options.map(([value, text]) => h('option', { value }, text)));
      sel.addEventListener('change', () => this._onInput(key, sel.value, true));
      return sel;
    }

    _text(key, attrs) {
      const input = h('input', { type: 'text', name: key, autocomplete: 'off', spellcheck: 'false', ...attrs });
      input.addEventListener('input', () => this._onInput(key, input.value, false));
      input.addEventListener('change', () => this._onInput(key, input.value, true));
      return input;
    }

    _buildForm() {
      const cat = this._catalog;
      const form = h('form', { class: 'vb-form', 'aria-label': 'Scenario', onsubmit: (e) => e.preventDefault() });

      // Model source
      const sources = [['catalog', 'Catalog model'], ['params', 'Parameter count'], ['config', 'Paste config.json']];
      const radios = h('div', { class: 'vb-radios', role: 'radiogroup', 'aria-labelledby': `${this._id}-src-legend` },
        sources.map(([value, text]) => {
          const radio = h('input', { type: 'radio', name: `${this._id}-src`, value, 'data-testid': `source-${value}` });
          radio.addEventListener('change', () => radio.checked && this._onInput('src', value, true));
          return h('label', { class: 'vb-radio' }, radio, ` ${text}`);
        }));
      this._radios = radios;
      const sourceErr = h('p', { class: 'vb-field-error', id: `${this._id}-model-source-error`, role: 'alert', hidden: true });
      this._errors['model-source'] = sourceErr;

      const modelSel = this._select('model', cat.models.map((m) => [
        m.id, `${m.id} \u00b7 ${(m.params / 1e9).toFixed(m.params < 1e10 ? 2 : 1)}B params${m.quantized ? ` \u00b7 ${m.dtype}` : ''}`,
      ]));
      modelSel.setAttribute('data-testid', 'model');
      const paramsInput = this._text('params', { inputmode: 'numeric', 'data-testid': 'params' });
      const configArea = h('textarea', { name: 'config', rows: 6, spellcheck: 'false', 'data-testid': 'config',
        placeholder: '{"model_type": "llama", "hidden_size": 4096, ...}' });
      configArea.addEventListener('input', () => this._onInput('config', configArea.value, false));

      this._sourceBlocks = {
        catalog: this._field('model', 'Model (catalog)', modelSel),
        params: this._field('params', 'Parameter count', paramsInput,
          'A bare count gives the weights only: with no architecture there is no KV cache or activation estimate.'),
        config: this._field('config', 'config.json (Hugging Face, verbatim)', configArea),
      };

      const modelSet = h('fieldset', {},
        h('legend', { id: `${this._id}-src-legend` }, 'Model'),
        radios, sourceErr,
        Object.values(this._sourceBlocks),
        this._field('weights', 'Weights format',
          this._select('weights', [['', 'checkpoint\u2019s own (default)'], ...cat.weight_formats.map((f) => [f, f])]),
        ));
      this._fields.weights.setAttribute('data-testid', 'weights');

      const runtimeSet = h('fieldset', {},
        h('legend', {}, 'Runtime'),
        this._field('engine', 'Engine', this._select('engine',
          cat.engines.map((e) => [e, e === cat.defaults.engine ? `${e} (default)` : e]))),
        h('div', { class: 'vb-row' },
          this._field('context', 'Context (tokens)', this._text('context', { inputmode: 'numeric', placeholder: 'model max', 'data-testid': 'context' })),
          this._field('concurrency', 'Concurrency', this._text('concurrency', { inputmode: 'numeric', placeholder: '1' }))),
        h('div', { class: 'vb-row' },
          this._field('kv', 'KV cache dtype',
            this._select('kv', [['', 'default (auto)'], ...cat.kv_cache_dtypes.filter((d) => d !== 'auto').map((d) => [d, d])])),
          this._field('tp', 'Tensor parallel', this._text('tp', { inputmode: 'numeric', placeholder: '1' }))),
        this._gmuField = this._field('gmu', 'vLLM gpu_memory_utilization',
          this._text('gmu', { inputmode: 'decimal', placeholder: `${cat.defaults.engines.vllm.gpu_memory_utilization} (vLLM default)` })),
        this._llamaFields = h('div', { class: 'vb-llama', 'data-testid': 'llama-fields' },
          h('div', { class: 'vb-row' },
            this._field('ngl', 'GPU layers (-ngl)',
              this._text('ngl', { inputmode: 'numeric', placeholder: 'all + output', 'data-testid': 'ngl' })),
            this._field('sm', 'Split mode (several GPUs)',
              this._select('sm', [['', 'layer (default)'], ['row', 'row'], ['none', 'none (main GPU only)']]))),
          h('div', { class: 'vb-row' },
            this._field('ts', 'Tensor split',
              this._text('ts', { placeholder: 'equal, e.g. 3,1', 'data-testid': 'tensor-split' }),
              'One proportion per GPU: how llama.cpp shares the layers.'),
            this._field('mg', 'Main GPU', this._text('mg', { inputmode: 'numeric', placeholder: '0' })))));
      this._fields.sm.setAttribute('data-testid', 'split-mode');

      const hwSet = h('fieldset', {},
        h('legend', {}, 'Hardware'),
        this._field('gpu', 'GPU (usable memory the framework sees)',
          this._select('gpu', cat.gpus.map((g) => [g.id,
            `${g.name} \u2014 ${formatBytes(g.memory_bytes).text}${g.id === cat.defaults.gpu ? ' (default)' : ''}`]))),
        h('div', { class: 'vb-row' },
          this._field('count', 'GPU count', this._text('count', { inputmode: 'numeric', 'data-testid': 'count' })),
          this._field('headroom', 'Headroom (%)', this._text('headroom', { inputmode: 'decimal', placeholder: '10' }))));
      this._fields.gpu.setAttribute('data-testid', 'gpu');
      this._fields.engine.setAttribute('data-testid', 'engine');

      this._generalError = h('p', { class: 'vb-field-error', role: 'alert', hidden: true });
      this._permalink = h('a', { class: 'vb-permalink' }, 'Link to this estimate');
      this._scenarioPre = h('pre', { class: 'vb-code', 'data-testid': 'scenario-json' });
      append(form, [this._generalError, modelSet, runtimeSet, hwSet,
        h('p', {}, this._permalink),
        h('details', {}, h('summary', {}, 'Scenario JSON (for the command-line tool)'), this._scenarioPre)]);

      // Outputs
      this._out = {
        banner: h('div', { class: 'vb-banner', role: 'alert', hidden: true, 'data-testid': 'error-banner' }),
        worked: h('section', { class: 'vb-worked', 'aria-labelledby': `${this._id}-h-worked` }),
        verdict: h('section', { class: 'vb-verdict', 'aria-live': 'polite', 'data-testid': 'verdict' }),
        bar: h('section', { 'aria-labelledby': `${this._id}-h-bar` }),
        table: h('section', { 'aria-labelledby': `${this._id}-h-table` }),
        gpus: h('section', { 'aria-labelledby': `${this._id}-h-gpus`, 'data-testid': 'per-gpu' }),
        metrics: h('section', { 'aria-labelledby': `${this._id}-h-metrics` }),
        chart: h('section', { 'aria-labelledby': `${this._id}-h-chart` }),
        plan: h('section', { 'aria-labelledby': `${this._id}-h-plan` }),
      };
      this._results = h('div', { class: 'vb-results' }, Object.values(this._out));
      replace(this, h('div', { class: 'vb-layout' }, form, this._results));
    }

    /** Put the state into the form controls (after a hash read or an applied hint). */
    _syncForm() {
      if (!this._fields.engine) return;
      const st = this._state;
      for (const radio of this._radios.querySelectorAll('input')) radio.checked = radio.value === st.src;
      for (const [key, block] of Object.entries(this._sourceBlocks)) block.hidden = key !== st.src;
      for (const [key, control] of Object.entries(this._fields)) {
        // An unset GPU or engine shows the core's default (the scenario leaves it out).
        const want = key === 'gpu' && st.gpu === '' ? coreDefaults.gpu
          : key === 'engine' && st.engine === '' ? coreDefaults.engine : st[key];
        if (control.value !== want) {
          if (control.tagName === 'SELECT' && want !== '' &&
              ![...control.options].some((o) => o.value === want)) {
            // A value the catalog does not list (from a link): keep it so the module names the error.
            control.append(h('option', { value: want }, `${want} (not in catalog)`));
          }
          control.value = want;
        }
      }
      this._gmuField.hidden = !engineReads(engineOf(st), 'gpu_memory_utilization');
      this._llamaFields.hidden = !engineReads(engineOf(st), 'n_gpu_layers');
    }

    _onInput(key, value, now) {
      this._hashError = null;
      this._state[key] = value;
      if (key === 'src' || key === 'engine') this._syncForm();
      clearTimeout(this._timer);
      if (now) this._update();
      else this._timer = setTimeout(() => this._update(), 150);
    }

    // ---- compute and render -------------------------------------------------

    _update() {
      clearTimeout(this._timer);
      const built = buildScenario(this._state);
      this.scenario = built.scenario || null;
      if (this._urlState) {
        const hash = `#${stateToHash(this._state)}`;
        if (location.hash !== hash) history.replaceState(null, '', hash);
      }
      this._permalink.href = `#${stateToHash(this._state)}`;
      this._scenarioPre.textContent = built.scenario ? JSON.stringify(built.scenario, null, 2) : '';

      let report;
      if (built.error) {
        report = { ok: false, error: built.error };
      } else {
        report = call(this._module, 'estimate', JSON.stringify(built.scenario));
      }
      this.report = report;
      this._showErrors(report.ok ? null : report.error);
      if (report.ok) {
        const text = JSON.stringify(built.scenario);
        this.plan = call(this._module, 'plan', text);
        this.sweep = call(this._module, 'sweep', text);
        this._render(report, this.plan, this.sweep);
      }
      this.dispatchEvent(new CustomEvent('estimate-change', { bubbles: true, detail: report }));
    }

    _showErrors(error) {
      for (const [key, el] of Object.entries(this._errors)) {
        el.hidden = true;
        el.textContent = '';
        this._fields[key]?.removeAttribute('aria-invalid');
      }
      this._generalError.hidden = true;
      const banner = this._out.banner;
      banner.hidden = true;
      this._results.classList.remove('vb-stale');
      if (this._hashError) {
        this._generalError.hidden = false;
        this._generalError.textContent = this._hashError;
      }
      if (!error) return;

      const path = error.path || '';
      const match = ERROR_FIELDS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
      let key = match ? match[1] : null;
      if (key === 'model-source' && this._state.src === 'catalog') key = 'model';
      const slot = key ? this._errors[key] : this._generalError;
      replace(slot, h('code', { class: 'vb-path' }, path || '/'), ' ', error.message);
      slot.hidden = false;
      this._fields[key]?.setAttribute('aria-invalid', 'true');

      replace(banner, h('strong', {}, 'Input error '), h('code', { class: 'vb-path' }, path || '/'), ': ', error.message,
        this.report && this._results.querySelector('table') ? ' \u2014 the figures below are from the last valid input.' : '');
      banner.hidden = false;
      this._results.classList.add('vb-stale');
    }

    _render(report, plan, sweep) {
      this._renderWorked(report);
      this._renderVerdict(report);
      this._renderBar(report);
      this._renderTable(report);
      this._renderGpus(report);
      this._renderMetrics(report);
      this._renderChart(sweep, report);
      this._renderPlan(plan);
    }

    _heading(key, text) {
      return h('h2', { id: `${this._id}-h-${key}` }, text);
    }

    _renderWorked(report) {
      const w = report.components.find((c) => c.id === 'weights');
      const weights = report.details && report.details.weights;
      replace(this._out.worked,
        this._heading('worked', 'Raw weights first'),
        w ? h('p', { class: 'vb-formula-line', 'data-testid': 'weights-formula', id: 'weights-formula' }, w.formula)
          : h('p', { 'data-testid': 'weights-formula', id: 'weights-formula' }, 'No weights component in this report.'),
        h('p', { class: 'vb-help' },
          weights && weights.summary ? `${weights.format}: ${weights.summary}. ` : '',
          'A lower bound, not a GPU recommendation: everything below is added on top.'));
    }

    _renderVerdict(report) {
      const free = formatBytes(Math.abs(report.free_bytes));
      const usable = formatBytes(report.usable_bytes);
      const gpu = report.details && report.details.gpu;
      const el = this._out.verdict;
      el.className = `vb-verdict ${report.fits ? 'vb-fits' : 'vb-short'}`;
      replace(el,
        h('p', { class: 'vb-verdict-line' },
          h('strong', {}, report.fits ? 'Fits' : 'Does not fit'),
          ` \u2014 per GPU ${formatBytes(report.total_bytes).text} of ${usable.text} usable`,
          gpu ? ` on ${gpu.count > 1 ? `${gpu.count} \u00d7 ` : ''}${gpu.name}` : '',
          '; ',
          report.fits ? `${free.text} free (${exactBytes(report.free_bytes)})`
            : `short by ${free.text} (${exactBytes(Math.abs(report.free_bytes))})`),
        report.warnings.length ? h('ul', { class: 'vb-warnings', 'aria-label': 'Warnings' },
          report.warnings.map((w) => h('li', {}, w))) : null,
        report.defaults_used.length ? h('p', { class: 'vb-defaults' },
          h('span', {}, 'Defaults used: '),
          report.defaults_used.map((d, i) => [i ? ', ' : '', h('code', {}, d)])) : null);
    }

    _renderBar(report) {
      const scale = Math.max(report.capacity_bytes, report.total_bytes);
      const pct = (b) => `${(100 * b / scale).toFixed(3)}%`;
      const track = h('div', { class: 'vb-bar-track', role: 'img',
        'aria-label': `Budget per GPU: ${report.components.map((c) => `${c.label} ${formatBytes(c.bytes).text}`).join(', ')}; usable ${formatBytes(report.usable_bytes).text} of ${formatBytes(report.capacity_bytes).text}` });
      const capacity = h('div', { class: 'vb-bar-capacity', style: `width:${pct(report.capacity_bytes)}` });
      const headroom = h('div', { class: 'vb-bar-headroom',
        style: `left:${pct(report.usable_bytes)};width:${pct(report.capacity_bytes - report.usable_bytes)}`,
        title: 'headroom kept free' });
      append(track, capacity, headroom);
      let left = 0;
      report.components.forEach((c, i) => {
        if (c.bytes <= 0) return;
        const wide = c.bytes / scale > 0.09;
        append(track, h('div', {
          class: 'vb-bar-seg', title: `${c.label}: ${formatBytes(c.bytes).text}`,
          style: `left:${pct(left)};width:${pct(c.bytes)};background:${colourOf(c.id, i)}`,
        }, wide ? h('span', {}, `${c.label} ${formatBytes(c.bytes).text}`) : null));
        left += c.bytes;
      });
      append(track,
        h('div', { class: 'vb-bar-line vb-usable', style: `left:${pct(report.usable_bytes)}` },
          h('span', {}, `usable ${formatBytes(report.usable_bytes).text}`)),
        h('div', { class: 'vb-bar-line vb-cap', style: `left:${pct(report.capacity_bytes)}` },
          h('span', {}, `capacity ${formatBytes(report.capacity_bytes).text}`)));
      const legend = h('ul', { class: 'vb-legend' }, report.components.map((c, i) =>
        h('li', {}, h('span', { class: 'vb-swatch', style: `background:${colourOf(c.id, i)}` }),
          `${c.label} ${formatBytes(c.bytes).text}`)),
      h('li', {}, h('span', { class: 'vb-swatch vb-swatch-headroom' }), 'headroom'));
      replace(this._out.bar, this._heading('bar', 'Budget per GPU'), track, legend);
    }

    _renderTable(report) {
      const rows = report.components.map((c, i) => h('tr', { 'data-component': c.id },
        h('th', { scope: 'row' }, h('span', { class: 'vb-swatch', style: `background:${colourOf(c.id, i)}` }), c.label),
        h('td', { class: 'vb-num' }, exactBytes(c.bytes)),
        h('td', { class: 'vb-num' }, formatBytes(c.bytes).value),
        h('td', { class: 'vb-formula' }, c.formula),
        h('td', { class: 'vb-source' }, c.source)));
      const details = report.details || {};
      const engine = details.engine || {};
      const foot = [
        ['Total per GPU', report.total_bytes, 'sum of the components above', ''],
        ['Usable', report.usable_bytes, (details.fit && details.fit.usable_formula) || '', engine.requested_formula ? `vLLM: ${engine.requested_formula}` : ''],
        ['Capacity (framework total)', report.capacity_bytes, details.gpu ? details.gpu.name : '', ''],
      ].map(([label, bytes, formula, source]) => h('tr', {},
        h('th', { scope: 'row' }, label),
        h('td', { class: 'vb-num' }, exactBytes(bytes)),
        h('td', { class: 'vb-num' }, formatBytes(bytes).value),
        h('td', { class: 'vb-formula' }, formula),
        h('td', { class: 'vb-source' }, source)));
      replace(this._out.table, this._heading('table', 'Every figure and how it was computed'),
        h('div', { class: 'vb-scroll' }, h('table', { class: 'vb-table' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'Component'), h('th', { scope: 'col' }, 'Bytes (exact)'),
            h('th', { scope: 'col' }, formatBytes(0).label), h('th', { scope: 'col' }, 'Formula'),
            h('th', { scope: 'col' }, 'Source'))),
          h('tbody', {}, rows), h('tfoot', {}, foot))));
    }

    /** llama.cpp's split: every GPU's layers and budget, and what stays in host memory. */
    _renderGpus(report) {
      const out = this._out.gpus;
      const split = report.details && report.details.split;
      out.hidden = !split;
      if (!split) {
        out.replaceChildren();
        return;
      }
      const cell = (b) => h('td', { class: 'vb-num' }, formatBytes(b).text);
      const rows = split.gpus.map((g) => h('tr', { 'data-gpu': g.gpu, class: g.gpu === split.heaviest ? 'vb-heaviest' : null },
        h('th', { scope: 'row' }, `GPU ${g.gpu}${g.gpu === split.heaviest ? ' (fullest)' : ''}`),
        h('td', {}, g.used ? `${g.layers}${g.n_layers ? ` (${groupDigits(g.n_layers)})` : ''}` : 'idle'),
        cell(g.weights_bytes), cell(g.kv_bytes), cell(g.compute_bytes), cell(g.context_bytes), cell(g.total_bytes)));
      const cpu = split.first_gpu_layer;
      const host = h('tr', { 'data-gpu': 'host' },
        h('th', { scope: 'row' }, 'Host memory'),
        h('td', {}, `token_embd${cpu > 0 ? ` + layers 0\u2013${cpu - 1}` : ''}${split.n_gpu_layers <= split.n_layer ? ' + output' : ''}`),
        cell(split.host_weights_bytes), cell(split.host_kv_bytes), h('td', {}, ''), h('td', {}, ''), cell(split.host_bytes));
      replace(out, this._heading('gpus', `Per GPU (llama.cpp, split mode ${split.split_mode})`),
        h('div', { class: 'vb-scroll' }, h('table', { class: 'vb-table' },
          h('thead', {}, h('tr', {}, ['GPU', 'Layers', 'Weights', 'KV cache', 'Compute buffer', 'CUDA context', 'Total']
            .map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, rows, host))),
        h('p', { class: 'vb-help' }, 'The fullest GPU decides the fit; the budget above is its own. ',
          split.pipeline_parallel ? `Pipelined micro-batches may add up to ${formatBytes(split.pipeline_copies_bytes).text} per GPU (see the warnings).` : ''),
        h('p', { class: 'vb-source' }, split.source));
    }

    _renderMetrics(report) {
      const items = Object.entries(report.metrics).map(([name, value]) => {
        let text;
        if (name.endsWith('_bytes')) text = `${formatBytes(value).text} (${exactBytes(value)})`;
        else if (name === 'kv_bytes_per_token') text = exactBytes(value);
        else if (name === 'max_concurrency') text = `${groupDigits(value)}\u00d7`;
        else if (name.endsWith('_tokens')) text = `${groupDigits(value)} tokens`;
        else text = groupDigits(value);
        return [h('dt', {}, METRIC_LABELS[name] || name, ' ', h('code', {}, name)), h('dd', { 'data-metric': name }, text)];
      });
      const engine = (report.details && report.details.engine) || {};
      const formulas = Object.entries(engine).filter(([k, v]) => k.endsWith('_formula') && v)
        .map(([k, v]) => h('li', {}, h('code', {}, k.replace(/_formula$/, '')), ' ', v));
      replace(this._out.metrics, this._heading('metrics', 'Metrics'),
        h('dl', { class: 'vb-metrics' }, items),
        formulas.length ? h('div', {}, h('h3', {}, `How ${engine.engine || 'the engine'} spends the card`),
          h('ul', { class: 'vb-engine-formulas' }, formulas),
          engine.source ? h('p', { class: 'vb-source' }, engine.source) : null) : null);
    }

    _renderChart(sweep, report) {
      const out = this._out.chart;
      if (!sweep || !sweep.ok) {
        replace(out, this._heading('chart', 'Per-GPU total vs context'),
          h('p', { class: 'vb-field-error' }, sweep ? sweep.error.message : 'no sweep'));
        return;
      }
      const W = 720; const H = 280;
      const m = { l: 64, r: 16, t: 16, b: 44 };
      const xs = sweep.contexts.map((c) => Math.log2(c));
      const x0 = Math.min(...xs); const x1 = Math.max(...xs);
      const X = (c) => m.l + (x1 === x0 ? 0.5 : (Math.log2(c) - x0) / (x1 - x0)) * (W - m.l - m.r);
      const yMaxBytes = Math.max(sweep.capacity_bytes, ...sweep.totals) * 1.05;
      const Y = (b) => H - m.b - (b / yMaxBytes) * (H - m.t - m.b);
      const yMax = yMaxBytes / 2 ** 30;
      const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000].find((st) => yMax / st <= 6) || 10000;

      const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'vb-chart', role: 'img', 'data-testid': 'sweep-chart',
        'aria-label': `Per-GPU total against context at concurrency ${sweep.concurrency}: ${sweep.contexts.map((c, i) => `${groupDigits(c)} tokens ${formatBytes(sweep.totals[i]).text}`).join('; ')}` });
      for (let g = 0; g <= yMax; g += step) {
        const y = Y(g * 2 ** 30);
        append(svg, s('line', { x1: m.l, x2: W - m.r, y1: y, y2: y, class: 'vb-grid' }),
          s('text', { x: m.l - 6, y: y + 4, 'text-anchor': 'end', class: 'vb-tick' }, `${g} ${formatBytes(0).label}`));
      }
      let lastLabelX = -Infinity;  // skip a tick label that would overlap the previous one
      sweep.contexts.forEach((c) => {
        append(svg, s('line', { x1: X(c), x2: X(c), y1: H - m.b, y2: H - m.b + 4, class: 'vb-axis' }));
        if (X(c) - lastLabelX < 48) return;
        lastLabelX = X(c);
        append(svg, s('text', { x: X(c), y: H - m.b + 16, 'text-anchor': 'middle', class: 'vb-tick' }, groupDigits(c)));
      });
      append(svg,
        s('text', { x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'vb-axis-label' },
          `context (tokens per sequence, log scale), concurrency ${sweep.concurrency}`),
        s('line', { x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b, class: 'vb-axis' }),
        s('line', { x1: m.l, x2: W - m.r, y1: Y(sweep.capacity_bytes), y2: Y(sweep.capacity_bytes), class: 'vb-cap-line' }),
        s('text', { x: W - m.r - 4, y: Y(sweep.capacity_bytes) - 5, 'text-anchor': 'end', class: 'vb-line-label' },
          `capacity ${formatBytes(sweep.capacity_bytes).text}`),
        s('line', { x1: m.l, x2: W - m.r, y1: Y(sweep.usable_bytes), y2: Y(sweep.usable_bytes), class: 'vb-usable-line' }),
        s('text', { x: m.l + 6, y: Y(sweep.usable_bytes) - 5, class: 'vb-line-label vb-usable-label' },
          `usable ${formatBytes(sweep.usable_bytes).text}`));
      const d = sweep.contexts.map((c, i) => `${i ? 'L' : 'M'}${X(c).toFixed(1)},${Y(sweep.totals[i]).toFixed(1)}`).join(' ');
      append(svg, s('path', { d, class: 'vb-total-line' }));
      sweep.contexts.forEach((c, i) => append(svg, s('circle', {
        cx: X(c), cy: Y(sweep.totals[i]), r: 4, class: sweep.fits[i] ? 'vb-pt-fit' : 'vb-pt-short',
      }, s('title', {}, `${groupDigits(c)} tokens: ${formatBytes(sweep.totals[i]).text} (${exactBytes(sweep.totals[i])}) \u2014 ${sweep.fits[i] ? 'fits' : 'does not fit'}`))));
      replace(out, this._heading('chart', 'Per-GPU total vs context'), svg,
        h('p', { class: 'vb-help' }, 'Filled points fit under the usable line; hollow red points do not.'));
    }

    _renderPlan(plan) {
      const out = this._out.plan;
      if (!plan || !plan.ok) {
        replace(out, this._heading('plan', 'Plan'),
          h('p', { class: 'vb-field-error' }, plan ? `${plan.error.path} ${plan.error.message}` : 'no plan'));
        return;
      }
      const na = 'not available for this model';
      const solved = [
        ['Longest context that fits', plan.max_context_tokens !== undefined
          ? `${groupDigits(plan.max_context_tokens)} tokens${plan.max_context_limit ? ` (model limit ${groupDigits(plan.max_context_limit)})` : ''}` : na, 'max-context'],
        ['Most concurrent sequences at this context', plan.max_concurrency !== undefined ? groupDigits(plan.max_concurrency) : na, 'max-concurrency'],
        ['Smallest tensor parallel that fits', plan.smallest_tensor_parallel !== undefined && plan.smallest_tensor_parallel !== null
          ? groupDigits(plan.smallest_tensor_parallel) : 'none up to 8 GPUs', 'smallest-tp'],
      ];
      if (plan.max_gpu_layers !== undefined) {
        const g = plan.max_gpu_layers;
        solved.push(['Most layers on the GPU(s) (llama.cpp n_gpu_layers)', g === null ? 'none: not even 0 layers fit'
          : `${groupDigits(g.n_gpu_layers)} of ${groupDigits(g.n_layer + 1)}${g.all_layers ? ' (every layer and the output)' : ''}; host memory ${formatBytes(g.host_bytes).text}`,
        'max-gpu-layers']);
      }
      const model = plan.model;
      if (model && model.params !== undefined) {
        solved.unshift(['Parameters (active per token)',
          `${groupDigits(model.params)} (${groupDigits(model.active_params)})`, 'params']);
        const roles = (model.params_by_role || []).slice(0, 4)
          .map((r) => `${r.role} ${groupDigits(r.params)}`).join(', ');
        if (roles) solved.splice(1, 0, ['Largest parameter groups', roles, 'params-by-role']);
      }
      const hints = (plan.hints || []).map((hint) => {
        const changes = patchToState(hint.patch);
        return h('li', {},
          h('strong', {}, hint.change), ' \u2014 ', hint.effect, ' ',
          changes ? h('button', { type: 'button', class: 'vb-apply', onclick: () => this._setState(changes) }, 'Apply') : null);
      });
      const options = (plan.gpu_options || []).map((o) => h('tr', {},
        h('th', { scope: 'row' }, o.name, ' ', (() => {
          const changes = patchToState(o.patch);
          return changes ? h('button', { type: 'button', class: 'vb-apply', onclick: () => this._setState(changes) }, 'Use') : null;
        })()),
        h('td', { class: 'vb-num' }, groupDigits(o.count)),
        h('td', { class: 'vb-num' }, formatBytes(o.memory_bytes).text),
        h('td', { class: 'vb-num' }, formatBytes(o.total_bytes).text),
        h('td', { class: 'vb-num' }, o.price_usd_per_hour === null || o.price_usd_per_hour === undefined
          ? 'no price' : `$${groupDigits(o.price_usd_per_hour)}`)));
      replace(out, this._heading('plan', 'Plan'),
        h('dl', { class: 'vb-metrics' }, solved.map(([label, text, id]) =>
          [h('dt', {}, label), h('dd', { 'data-plan': id }, text)])),
        h('h3', {}, 'What would change the picture'),
        hints.length ? h('ul', { class: 'vb-hints' }, hints) : h('p', { class: 'vb-help' }, 'No hints for this scenario.'),
        h('h3', {}, 'GPU options that fit, cheapest first'),
        options.length ? h('div', { class: 'vb-scroll vb-options' }, h('table', { class: 'vb-table' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, 'GPU'), h('th', { scope: 'col' }, 'Count'),
            h('th', { scope: 'col' }, 'Memory each'), h('th', { scope: 'col' }, 'Needed each'),
            h('th', { scope: 'col' }, 'USD/h (whole set)'))),
          h('tbody', {}, options))) : h('p', { class: 'vb-help' }, 'No catalogued GPU set fits.'));
    }
  }

  VramBudgetElement.formatBytes = formatBytes;
  VramBudgetElement.stateToHash = stateToHash;
  VramBudgetElement.hashToState = hashToState;
  VramBudgetElement.buildScenario = buildScenario;
  window.VramBudgetElement = VramBudgetElement;

  // Guarded registration: a second definition (script loaded twice) is ignored.
  try {
    VramBudgetElement.define();
  } catch (e) {
    if (!(e instanceof DOMException && e.name === 'NotSupportedError')) throw e;
  }
})();
