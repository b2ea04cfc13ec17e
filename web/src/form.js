// The form: its inputs, the model type-ahead, and syncing the state into it.

import { h, s, append, replace } from './dom.js';
import { formatBytes } from './format.js';
import { SUFFIXES, parseQuantity } from './quantity.js';
import { WORKLOAD_TEXT, TRAINING_FIELDS, GENERATION_FIELDS } from './fields.js';
import { core, workloadOf, blockOf, usesPipeline, engineOf, engineReads } from './state.js';
import { matchModels } from './module.js';

export class FormMethods {
  _field(key, labelText, control, help, kind) {
    const id = this._newId(key);
    control.id = id;
    const err = h('p', { class: 'vb-field-error', id: `${id}-error`, role: 'alert', hidden: true });
    const described = [`${id}-error`];
    const helpEl = help ? h('p', { class: 'vb-help', id: `${id}-help` }, help) : null;
    if (help) described.push(`${id}-help`);
    let understood = null;
    if (kind && SUFFIXES[kind]) {
      understood = h('p', { class: 'vb-understood', id: `${id}-read`, 'aria-live': 'polite', 'data-understood': key });
      described.push(`${id}-read`);
      this._understood[key] = { el: understood, kind };
    }
    control.setAttribute('aria-describedby', described.join(' '));
    this._fields[key] = control;
    this._errors[key] = err;
    return h('div', { class: 'vb-field', 'data-field': key },
      h('label', { for: id }, labelText), control, understood, helpEl, err);
  }

  _select(key, options) {
    const sel = h('select', { name: key, 'data-testid': key },
      options.map(([value, text]) => h('option', { value }, text)));
    sel.addEventListener('change', () => this._onInput(key, sel.value, true));
    return sel;
  }

  _text(key, attrs) {
    const input = h('input', { type: 'text', name: key, autocomplete: 'off', spellcheck: 'false', 'data-testid': key, ...attrs });
    input.addEventListener('input', () => this._onInput(key, input.value, false));
    input.addEventListener('change', () => this._onInput(key, input.value, true));
    return input;
  }

  /** An input of the training or generation block, from its table entry. */
  _blockField(f) {
    let control;
    if (f.kind === 'choice' && Array.isArray(core.defaults[f.block] && core.defaults[f.block][f.field])) {
      control = this._select(f.key, [['', 'default'], ...core.defaults[f.block][f.field].map((n) => [n, n])]);
    } else if (f.kind === 'bool') {
      control = this._select(f.key, [['', 'default'], ['true', 'on'], ['false', 'off']]);
    } else {
      const numeric = SUFFIXES[f.kind] ? { inputmode: f.kind === 'count' ? 'numeric' : 'text' } : {};
      control = this._text(f.key, { placeholder: f.placeholder || '', ...numeric });
    }
    return this._field(f.key, f.label, control, f.help, f.kind);
  }

  /** The catalog model type-ahead: a combobox over ids, families and sizes. */
  _modelPicker() {
    const listId = this._newId('models');
    const input = h('input', {
      type: 'text', name: 'model', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false',
      'aria-controls': listId, autocomplete: 'off', spellcheck: 'false', 'data-testid': 'model',
      placeholder: 'search: id, family or size (qwen 8b)',
    });
    const list = h('ul', { class: 'vb-listbox', role: 'listbox', id: listId, hidden: true,
      'aria-label': 'Catalog models', 'data-testid': 'model-options' });
    let matches = [];
    let active = -1;
    const show = (query) => {
      matches = matchModels(this._entries, query).slice(0, 60);
      active = matches.length ? 0 : -1;
      replace(list, matches.length ? matches.map((e, i) => h('li', {
        role: 'option', id: `${listId}-${i}`, 'data-value': e.id, 'aria-selected': i === active ? 'true' : 'false',
        onmousedown: (ev) => { ev.preventDefault(); pick(e.id); },
      }, e.id, h('span', {}, [e.family, e.size, e.dtype].filter(Boolean).join(' \u00b7 '))))
        : h('li', { class: 'vb-empty', role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false' }, 'no catalog model matches'));
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      mark();
    };
    const close = () => {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
    };
    const mark = () => {
      [...list.children].forEach((li, i) => li.setAttribute('aria-selected', i === active ? 'true' : 'false'));
      if (active >= 0) {
        input.setAttribute('aria-activedescendant', `${listId}-${active}`);
        list.children[active].scrollIntoView({ block: 'nearest' });
      } else input.removeAttribute('aria-activedescendant');
    };
    const pick = (id) => {
      input.value = id;
      close();
      this._onInput('model', id, true);
    };
    input.addEventListener('focus', () => input.select());
    input.addEventListener('input', () => show(input.value));
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        if (list.hidden) { show(input.value === this._state.model ? '' : input.value); return; }
        if (!matches.length) return;
        active = (active + (ev.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length;
        mark();
      } else if (ev.key === 'Enter') {
        ev.preventDefault();
        if (!list.hidden && active >= 0) pick(matches[active].id);
        else commit();
      } else if (ev.key === 'Escape') {
        if (!list.hidden) { ev.preventDefault(); close(); input.value = this._state.model; }
      }
    });
    // Text that matches no option goes to the module as typed, so it names the error.
    const commit = () => {
      close();
      const text = input.value.trim();
      if (text === '' ) { input.value = this._state.model; return; }
      const exact = this._entries.find((e) => e.id.toLowerCase() === text.toLowerCase());
      const id = exact ? exact.id : text;
      input.value = id;
      if (id !== this._state.model) this._onInput('model', id, true);
    };
    input.addEventListener('blur', commit);
    const field = this._field('model', 'Model (catalog)', input,
      `${this._entries.length} models; type part of an id, a family (llama, qwen3_moe) or a size (70B), then pick with \u2191 \u2193 and Enter.`);
    field.insertBefore(list, input.nextSibling);
    return field;
  }

  _buildForm() {
    const form = h('form', { class: 'vb-form', 'aria-label': 'Scenario', onsubmit: (e) => e.preventDefault() });
    const runtimeSet = this._runtimeSet();
    const trainingSet = this._blockSet('training', 'Fine-tuning', TRAINING_FIELDS);
    const generationSet = this._blockSet('generation', 'Generation', GENERATION_FIELDS);
    this._blockSets = { inference: runtimeSet, training: trainingSet, generation: generationSet };
    this._generalError = h('p', { class: 'vb-field-error', role: 'alert', hidden: true });
    this._skip = h('a', { class: 'vb-skip', href: '#', 'data-testid': 'skip-to-results',
      onclick: (e) => { e.preventDefault(); this._results.scrollIntoView(); this._results.focus(); } }, 'Skip to the results');
    append(form, [this._skip, this._generalError, this._workloadSet(), this._modelSet(), runtimeSet, trainingSet,
      generationSet, this._hardwareSet(), this._shareBlock()]);
    replace(this._root, h('div', { class: 'vb-layout' }, form, this._outputs()));
  }

  /** The workload choice, from the workloads the module reads. */
  _workloadSet() {
    const wlLegend = this._newId('wl-legend');
    this._workloadRadios = h('div', { class: 'vb-workloads', role: 'radiogroup', 'aria-labelledby': wlLegend },
      core.workloads.map((w) => {
        const [name, what] = WORKLOAD_TEXT[w] || [w, ''];
        const radio = h('input', { type: 'radio', name: 'workload', value: w, 'data-testid': `workload-${w}`,
          'aria-describedby': `${wlLegend}-${w}` });
        radio.addEventListener('change', () => radio.checked && this._onInput('wl', w === core.defaults.workload ? '' : w, true));
        return h('label', { title: what }, radio, h('span', {}, name, h('span', { id: `${wlLegend}-${w}`, hidden: true }, what)));
      }));
    const wlSet = h('fieldset', {}, h('legend', { id: wlLegend }, 'Workload'), this._workloadRadios,
      this._wlHelp = h('p', { class: 'vb-help', 'data-testid': 'workload-help' }));
    this._errors.wl = h('p', { class: 'vb-field-error', role: 'alert', hidden: true });
    wlSet.append(this._errors.wl);
    return wlSet;
  }

  /** The model: catalog type-ahead, parameter count or config.json; a pipeline id for image and video. */
  _modelSet() {
    const cat = this._catalog;
    const srcLegend = this._newId('src-legend');
    const sources = [['catalog', 'Catalog model'], ['params', 'Parameter count'], ['config', 'Paste config.json'],
      ['files', 'Model files']];
    this._radios = h('div', { class: 'vb-radios', role: 'radiogroup', 'aria-labelledby': srcLegend },
      sources.map(([value, text]) => {
        const radio = h('input', { type: 'radio', name: 'source', value, 'data-testid': `source-${value}` });
        radio.addEventListener('change', () => radio.checked && this._onInput('src', value, true));
        return h('label', { class: 'vb-radio' }, radio, ` ${text}`);
      }));
    this._errors['model-source'] = h('p', { class: 'vb-field-error', role: 'alert', hidden: true });

    const configArea = h('textarea', { name: 'config', rows: 6, spellcheck: 'false', 'data-testid': 'config',
      placeholder: '{"model_type": "llama", "hidden_size": 4096, ...}' });
    configArea.addEventListener('input', () => this._onInput('config', configArea.value, false));

    this._sourceBlocks = {
      catalog: this._modelPicker(),
      params: this._field('params', 'Parameter count', this._text('params', { inputmode: 'text' }),
        'e.g. 13000000000, 7B or 1.5e9. A bare count gives the weights only: with no architecture there is no KV cache or activation estimate.',
        'params'),
      files: this._filesBlock(),
      config: h('div', {},
        this._field('config', 'config.json (Hugging Face, verbatim)', configArea,
          'Paste the model\u2019s config.json; the architecture is read from it.'),
        this._field('wbytes', 'Checkpoint bytes (optional)', this._text('wbytes', { placeholder: 'from the inventory' }),
          'The checkpoint\u2019s exact size, e.g. the index\u2019s metadata.total_size; the weights are then spread over the GPUs in the inventory\u2019s proportions.',
          'bytes')),
    };
    const pipelines = Array.isArray(cat.pipelines) ? cat.pipelines : [];
    const pipeListId = this._newId('pipelines');
    this._pipeField = this._field('pipe', 'Pipeline (Hugging Face id)',
      this._text('pipe', { placeholder: 'e.g. black-forest-labs/FLUX.1-dev', list: pipelines.length ? pipeListId : null }),
      'The diffusion pipeline: its text encoders, denoiser and VAE are read from the catalog.');
    if (pipelines.length) {
      this._pipeField.append(h('datalist', { id: pipeListId },
        pipelines.map((p) => h('option', { value: typeof p === 'string' ? p : p.id }))));
    }

    this._modelSources = h('div', {}, this._radios, this._errors['model-source'], Object.values(this._sourceBlocks));
    const modelSet = h('fieldset', {},
      h('legend', { id: srcLegend }, 'Model'),
      this._modelSources, this._pipeField,
      this._field('weights', 'Weights format',
        this._select('weights', [['', 'checkpoint\u2019s own (default)'], ...cat.weight_formats.map((f) => [f, f])]),
        'How the weights are stored: the checkpoint\u2019s own format, or a quantized one.'));
    return modelSet;
  }

  /** The inference runtime: engine, context, concurrency, KV cache, parallelism, vLLM and llama.cpp settings. */
  _runtimeSet() {
    const cat = this._catalog;
    const runtimeSet = h('fieldset', { 'data-block': 'inference' },
      h('legend', {}, 'Runtime'),
      this._field('engine', 'Engine', this._select('engine',
        cat.engines.map((e) => [e, e === cat.defaults.engine ? `${e} (default)` : e])),
      'vLLM fills a fraction of the card with KV blocks; llama.cpp allocates its context exactly; transformers grows a cache.'),
      h('div', { class: 'vb-row' },
        this._field('context', 'Context (tokens)', this._text('context', { placeholder: 'model max' }),
          'Tokens per sequence: 8192, 32k, 128K.', 'tokens'),
        this._field('concurrency', 'Concurrency', this._text('concurrency', { inputmode: 'numeric', placeholder: '1' }),
          'Sequences resident at once.', 'count')),
      h('div', { class: 'vb-row' },
        this._field('kv', 'KV cache dtype',
          this._select('kv', [['', 'default (auto)'], ...cat.kv_cache_dtypes.filter((d) => d !== 'auto').map((d) => [d, d])]),
          'Precision of the cached keys and values.'),
        this._field('tp', 'Tensor parallel', this._text('tp', { inputmode: 'numeric', placeholder: '1' }),
          'GPUs each layer is split over.', 'count')),
      this._gmuField = this._field('gmu', 'vLLM gpu_memory_utilization',
        this._text('gmu', { inputmode: 'decimal', placeholder: `${cat.defaults.engines.vllm.gpu_memory_utilization} (vLLM default)` }),
        'The fraction of the card vLLM reserves; the rest is its headroom.'),
      this._llamaFields = h('div', { class: 'vb-llama', 'data-testid': 'llama-fields' },
        h('div', { class: 'vb-row' },
          this._field('ngl', 'GPU layers (-ngl)', this._text('ngl', { inputmode: 'numeric', placeholder: 'all + output' }),
            'Layers on the GPU; the rest run from host memory.'),
          this._field('sm', 'Split mode (several GPUs)',
            this._select('sm', [['', 'layer (default)'], ['row', 'row'], ['none', 'none (main GPU only)']]),
            'How llama.cpp divides the model over GPUs.')),
        h('div', { class: 'vb-row' },
          this._field('ts', 'Tensor split', this._text('ts', { placeholder: 'equal, e.g. 3,1', 'data-testid': 'tensor-split' }),
            'One proportion per GPU: how llama.cpp shares the layers.'),
          this._field('mg', 'Main GPU', this._text('mg', { inputmode: 'numeric', placeholder: '0' }),
            'The GPU that holds the output and scratch buffers.'))));
    this._fields.sm.setAttribute('data-testid', 'split-mode');
    return runtimeSet;
  }

  /** A training or generation block: the everyday inputs first, parallelism and switches under "More settings". */
  _blockSet(block, legend, fields) {
    return h('fieldset', { 'data-block': block, 'data-testid': `${block}-fields` },
      h('legend', {}, legend), fields.filter((f) => !f.advanced).map((f) => this._blockField(f)),
      h('details', { class: 'vb-more', 'data-testid': `${block}-more` }, h('summary', {}, 'More settings'),
        fields.filter((f) => f.advanced).map((f) => this._blockField(f))));
  }

  /** The hardware: a catalog GPU or a custom memory size, the count and the headroom. */
  _hardwareSet() {
    const cat = this._catalog;
    const hwSet = h('fieldset', {},
      h('legend', {}, 'Hardware'),
      this._field('gpu', 'GPU (usable memory the framework sees)',
        this._select('gpu', cat.gpus.map((g) => [g.id,
          `${g.name} \u2014 ${formatBytes(g.memory_bytes).text}${g.id === cat.defaults.gpu ? ' (default)' : ''}`])),
        'The total torch.cuda.mem_get_info() reports, not the marketing figure.'),
      this._field('gpumem', 'Or a custom GPU\u2019s memory', this._text('gpumem', { placeholder: 'e.g. 24 GB or 22.5 GiB' }),
        'Replaces the GPU above: the total the framework sees (GB = 10\u2079 B, GiB = 2\u00b3\u2070 B).', 'bytes'),
      h('div', { class: 'vb-row' },
        this._field('count', 'GPU count', this._text('count', { inputmode: 'numeric' }), 'GPUs in the set.', 'count'),
        this._field('headroom', 'Headroom (%)', this._text('headroom', { inputmode: 'decimal', placeholder: '10' }),
          'Memory kept free for safety.')));
    return hwSet;
  }

  /** The link, Copy link, and the scenario JSON with its import. */
  _shareBlock() {
    this._permalink = h('a', { class: 'vb-permalink', 'data-testid': 'permalink' }, 'Link to this estimate');
    this._scenarioPre = h('pre', { class: 'vb-code', 'data-testid': 'scenario-json' });
    this._accuracyLink = h('a', { 'data-testid': 'accuracy-link' }, 'How close these estimates come to measurements');
    return [
      h('p', { class: 'vb-share' }, this._permalink, ' ',
        h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'copy-link', onclick: () => this._copyLink() }, 'Copy link'),
        this._copyStatus = h('span', { class: 'vb-help', role: 'status', 'data-testid': 'copy-status' })),
      h('p', { class: 'vb-help' }, this._accuracyLink,
        ': every measured case, the error per metric and the rules of thumb beside it (ACCURACY.md).'),
      h('details', { 'data-testid': 'scenario-details' }, h('summary', {}, 'Scenario JSON (export, import, command-line tool)'), this._scenarioPre,
        this._field('import', 'Load a scenario', h('textarea', { rows: 4, spellcheck: 'false', 'data-testid': 'import',
          placeholder: '{"v": 1, "workload": "training", "model": "Qwen/Qwen3-8B", ...}' }),
        'Paste a scenario (CONTRACT v1) to fill the form from it.'),
        h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'import-load', onclick: () => this._importScenario() }, 'Load'),
        this._importStatus = h('p', { class: 'vb-help', role: 'status', 'data-testid': 'import-status' }))];
  }

  /** The results column: the banner, the notice and the figures' sections. */
  _outputs() {
    const hid = (k) => this._headingId(k);
    this._out = {
      worked: h('section', { class: 'vb-worked', 'aria-labelledby': hid('worked') }),
      verdict: h('section', { class: 'vb-verdict', 'aria-live': 'polite', 'data-testid': 'verdict', tabindex: '-1' }),
      bar: h('section', { 'aria-labelledby': hid('bar') }),
      table: h('section', { 'aria-labelledby': hid('table') }),
      gpus: h('section', { 'aria-labelledby': hid('gpus'), 'data-testid': 'per-gpu' }),
      metrics: h('section', { 'aria-labelledby': hid('metrics') }),
      reconcile: this._reconcileSection(),
      chart: h('section', { 'aria-labelledby': hid('chart') }),
      grid: h('details', { class: 'vb-grid-map', 'data-testid': 'fit-map',
        ontoggle: (e) => { if (e.target.open) this._renderGrid(); } }),
      plan: h('section', { 'aria-labelledby': hid('plan'), 'data-testid': 'plan' }),
    };
    this._banner = h('div', { class: 'vb-banner', role: 'alert', hidden: true, 'data-testid': 'error-banner' });
    this._notice = h('div', { class: 'vb-notice', hidden: true, 'data-testid': 'notice', role: 'status' });
    this._figures = h('div', { class: 'vb-figures', hidden: true }, Object.values(this._out));
    this._results = h('div', { class: 'vb-results', 'data-testid': 'results', tabindex: '-1', 'aria-label': 'Results' }, this._banner, this._notice, this._figures);
    return this._results;
  }

  _headingId(key) {
    if (!this._headingIds) this._headingIds = {};
    if (!this._headingIds[key]) this._headingIds[key] = this._newId(`h-${key}`);
    return this._headingIds[key];
  }

  /** Put the state into the form controls (after a hash read, an attribute or an applied hint). */
  _syncForm() {
    if (!this._fields.engine) return;
    const st = this._state;
    const wl = workloadOf(st);
    for (const radio of this._workloadRadios.querySelectorAll('input')) radio.checked = radio.value === wl;
    this._wlHelp.textContent = WORKLOAD_TEXT[wl] ? `${WORKLOAD_TEXT[wl][0]}: ${WORKLOAD_TEXT[wl][1]}.` : '';
    for (const radio of this._radios.querySelectorAll('input')) radio.checked = radio.value === st.src;
    // Files fill the config.json and bytes inputs, shown beside what was read.
    for (const [key, block] of Object.entries(this._sourceBlocks)) {
      block.hidden = key !== st.src && !(key === 'config' && st.src === 'files');
    }
    const pipeline = usesPipeline(st);
    this._modelSources.hidden = pipeline;
    this._pipeField.hidden = !pipeline;
    const block = blockOf(st);
    for (const [name, set] of Object.entries(this._blockSets)) set.hidden = name !== block;
    for (const f of GENERATION_FIELDS) {
      if (f.only) this._fields[f.key].closest('.vb-field').hidden = !f.only.includes(wl);
    }
    for (const [key, control] of Object.entries(this._fields)) {
    if (key === 'import') continue; // text waiting for Load, not state
      // An unset GPU or engine shows the core's default (the scenario leaves it out).
      const want = key === 'gpu' && st.gpu === '' ? core.defaults.gpu
        : key === 'engine' && st.engine === '' ? core.defaults.engine : (st[key] ?? '');
      if (control.value !== want && this._root.activeElement !== control) {
        if (control.tagName === 'SELECT' && want !== '' &&
            ![...control.options].some((o) => o.value === want)) {
          // A value the catalog does not list (from a link): keep it so the module names the error.
          control.append(h('option', { value: want }, `${want} (not in catalog)`));
        }
        control.value = want;
      }
    }
    for (const key of Object.keys(this._understood)) this._showUnderstood(key);
    this._gmuField.hidden = !engineReads(engineOf(st), 'gpu_memory_utilization');
    this._llamaFields.hidden = !engineReads(engineOf(st), 'n_gpu_layers');
  }

  _showUnderstood(key) {
    const u = this._understood[key];
    const text = parseQuantity(this._state[key] ?? '', u.kind).understood;
    u.el.textContent = text;
    u.el.hidden = text === '';
  }

}
