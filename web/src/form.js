// The form: its inputs, the model type-ahead, and syncing the state into it.

import { h, s, append, replace } from './dom.js';
import { SUFFIXES, parseQuantity, canonicalQuantity, displayQuantity } from './quantity.js';
import { TRAINING_FIELDS, GENERATION_FIELDS, numberKind } from './fields.js';
import { core, workloadOf, blockOf, usesPipeline, engineOf, engineReads, blockFields, sampleFields } from './state.js';
import { matchModels } from './module.js';
import { LANGUAGES } from './i18n/index.js';

/** A part of the form hidden until its workload or engine is chosen: `build` makes its inputs
 *  when it is first shown (`show`), so a page that opens on another one does not build them
 *  before its first estimate. */
function shownLater(box, build) {
  box.hidden = true;
  box._build = build;
  return box;
}

function show(box, shown) {
  box.hidden = !shown;
  if (shown && box._build) {
    append(box, box._build());
    box._build = null;
  }
}

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

  /** What the state keeps of a typed text: a number the English way (decimal point,
   *  no grouping), whatever the page's language; names and lists as typed. */
  _keptText(key, text) {
    const kind = numberKind(key);
    return kind ? canonicalQuantity(text, this._tr.lang) : text;
  }

  /** What an input shows of the state's text: a number in the page's notation. */
  _shownText(key, text) {
    const kind = numberKind(key);
    return kind ? displayQuantity(text, this._tr.lang) : text;
  }

  /** An input of the training or generation block, from its table entry. */
  _blockField(f) {
    let control;
    if (f.kind === 'choice' && Array.isArray(core.defaults[f.block] && core.defaults[f.block][f.field])) {
      control = this._select(f.key, [['', this._t('option.default')], ...core.defaults[f.block][f.field].map((n) => [n, n])]);
    } else if (f.kind === 'bool') {
      control = this._select(f.key, [['', this._t('option.default')], ['true', this._t('option.on')], ['false', this._t('option.off')]]);
    } else {
      const numeric = SUFFIXES[f.kind] ? { inputmode: f.kind === 'count' ? 'numeric' : 'text' } : {};
      const worded = `field.${f.key}.placeholder`;
      control = this._text(f.key, { placeholder: this._tr.has(worded) ? this._t(worded) : f.placeholder || '', ...numeric });
    }
    return this._field(f.key, this._t(`field.${f.key}`), control, this._t(`field.${f.key}.help`), f.kind);
  }

  /** The language switch: a labelled select, each language named in itself. */
  _languageField() {
    const id = this._newId('lang');
    const select = h('select', { id, name: 'lang', 'data-testid': 'language' },
      LANGUAGES.map((l) => h('option', { value: l, lang: l }, this._t(`language.${l}`))));
    select.value = this._tr.lang;
    select.addEventListener('change', () => this._chooseLanguage(select.value));
    return h('div', { class: 'vb-language' },
      h('label', { for: id }, this._t('language.label')), select);
  }

  /** The catalog model type-ahead: a combobox over ids, families and sizes. */
  _modelPicker() {
    const listId = this._newId('models');
    const input = h('input', {
      type: 'text', name: 'model', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false',
      'aria-controls': listId, autocomplete: 'off', spellcheck: 'false', 'data-testid': 'model',
      placeholder: this._t('model.search'),
    });
    const list = h('ul', { class: 'vb-listbox', role: 'listbox', id: listId, hidden: true,
      'aria-label': this._t('model.options'), 'data-testid': 'model-options' });
    let matches = [];
    let active = -1;
    const show = (query) => {
      matches = matchModels(this._entries, query).slice(0, 60);
      active = matches.length ? 0 : -1;
      replace(list, matches.length ? matches.map((e, i) => h('li', {
        role: 'option', id: `${listId}-${i}`, 'data-value': e.id, 'aria-selected': i === active ? 'true' : 'false',
        onmousedown: (ev) => { ev.preventDefault(); pick(e.id); },
      }, e.id, h('span', {}, [e.family, this._modelSize(e.params), e.dtype].filter(Boolean).join(' \u00b7 '))))
        : h('li', { class: 'vb-empty', role: 'option', 'aria-disabled': 'true', 'aria-selected': 'false' }, this._t('model.none')));
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
    const field = this._field('model', this._t('field.model'), input, this._t('field.model.help', this._num(this._catalog.model_count)));
    field.insertBefore(list, input.nextSibling);
    return field;
  }

  /** A catalog model's size: "8.03B" (nl "8,03B"), one decimal from 10B. */
  _modelSize(params) {
    return params ? `${this._tr.fixed(params / 1e9, params < 1e10 ? 2 : 1)}B` : '';
  }

  _buildForm() {
    const form = h('form', { class: 'vb-form', 'aria-label': this._t('form.label'), onsubmit: (e) => e.preventDefault() });
    const runtimeSet = this._runtimeSet();
    const trainingSet = this._blockSet('training', this._t('form.training'), TRAINING_FIELDS);
    const generationSet = this._blockSet('generation', this._t('form.generation'), GENERATION_FIELDS);
    this._blockSets = { inference: runtimeSet, training: trainingSet, generation: generationSet };
    this._generalError = h('p', { class: 'vb-field-error', role: 'alert', hidden: true });
    this._skip = h('a', { class: 'vb-skip', href: '#', 'data-testid': 'skip-to-results',
      onclick: (e) => { e.preventDefault(); this._results.scrollIntoView(); this._results.focus(); } }, this._t('form.skip'));
    append(form, [this._skip, this._languageField(), this._generalError, this._workloadSet(), this._modelSet(), runtimeSet,
      trainingSet, generationSet, this._hardwareSet(), this._shareBlock()]);
    // The language of everything inside, for screen readers and hyphenation.
    replace(this._root, h('div', { class: 'vb-layout', lang: this._tr.lang }, form, this._outputs()));
  }

  /** The workload choice, from the workloads the module reads. */
  _workloadSet() {
    const wlLegend = this._newId('wl-legend');
    this._workloadRadios = h('div', { class: 'vb-workloads', role: 'radiogroup', 'aria-labelledby': wlLegend },
      core.workloads.map((w) => {
        const name = this._workloadName(w);
        const what = this._tr.has(`workload.${w}.what`) ? this._t(`workload.${w}.what`) : '';
        const radio = h('input', { type: 'radio', name: 'workload', value: w, 'data-testid': `workload-${w}`,
          'aria-describedby': `${wlLegend}-${w}` });
        radio.addEventListener('change', () => radio.checked && this._onInput('wl', w === core.defaults.workload ? '' : w, true));
        return h('label', { title: what }, radio, h('span', {}, name, h('span', { id: `${wlLegend}-${w}`, hidden: true }, what)));
      }));
    const wlSet = h('fieldset', {}, h('legend', { id: wlLegend }, this._t('form.workload')), this._workloadRadios,
      this._wlHelp = h('p', { class: 'vb-help', 'data-testid': 'workload-help' }));
    this._errors.wl = h('p', { class: 'vb-field-error', role: 'alert', hidden: true });
    wlSet.append(this._errors.wl);
    return wlSet;
  }

  /** The model: catalog type-ahead, parameter count or config.json; a pipeline id for image and video. */
  _modelSet() {
    const cat = this._catalog;
    const srcLegend = this._newId('src-legend');
    this._radios = h('div', { class: 'vb-radios', role: 'radiogroup', 'aria-labelledby': srcLegend },
      ['catalog', 'params', 'config', 'files'].map((value) => {
        const text = this._t(`source.${value}`);
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
      params: this._field('params', this._t('field.params'), this._text('params', { inputmode: 'text' }),
        this._t('field.params.help'), 'params'),
      files: this._filesBlock(),
      config: h('div', {},
        this._field('config', this._t('field.config'), configArea, this._t('field.config.help')),
        this._field('wbytes', this._t('field.wbytes'), this._text('wbytes', { placeholder: this._t('field.wbytes.placeholder') }),
          this._t('field.wbytes.help'), 'bytes')),
    };
    const pipelines = Array.isArray(cat.pipelines) ? cat.pipelines : [];
    const pipeListId = this._newId('pipelines');
    this._pipeField = this._field('pipe', this._t('field.pipe'),
      this._text('pipe', { placeholder: this._t('field.pipe.placeholder'), list: pipelines.length ? pipeListId : null }),
      this._t('field.pipe.help'));
    if (pipelines.length) {
      this._pipeField.append(h('datalist', { id: pipeListId },
        pipelines.map((p) => h('option', { value: typeof p === 'string' ? p : p.id }))));
    }

    this._modelSources = h('div', {}, this._radios, this._errors['model-source'], Object.values(this._sourceBlocks));
    const modelSet = h('fieldset', {},
      h('legend', { id: srcLegend }, this._t('form.model')),
      this._modelSources, this._pipeField,
      this._field('weights', this._t('field.weights'),
        this._select('weights', [['', this._t('field.weights.own')], ...cat.weight_formats.map((f) => [f, f])]),
        this._t('field.weights.help')));
    return modelSet;
  }

  /** The inference runtime: engine, context, concurrency, KV cache, parallelism, vLLM and llama.cpp settings. */
  _runtimeSet() {
    const cat = this._catalog;
    const f = (key, control, kind) => this._field(key, this._t(`field.${key}`), control, this._t(`field.${key}.help`), kind);
    this._hfQuantFields = null;  // made with the transformers inputs
    const runtimeSet = h('fieldset', { 'data-block': 'inference' },
      h('legend', {}, this._t('form.runtime')),
      f('engine', this._select('engine',
        cat.engines.map((e) => [e, e === cat.defaults.engine ? this._t('option.is-default', e) : e]))),
      h('div', { class: 'vb-row' },
        f('context', this._text('context', { placeholder: this._t('field.context.placeholder') }), 'tokens'),
        f('concurrency', this._text('concurrency', { inputmode: 'numeric', placeholder: '1' }), 'count')),
      h('div', { class: 'vb-row' },
        f('kv', this._select('kv', [['', this._t('field.kv.auto')],
          ...cat.kv_cache_dtypes.filter((d) => d !== 'auto').map((d) => [d, d])])),
        f('tp', this._text('tp', { inputmode: 'numeric', placeholder: '1' }), 'count')),
      this._gmuField = f('gmu', this._text('gmu', { inputmode: 'decimal',
        placeholder: this._t('field.gmu.placeholder', this._num(cat.defaults.engines.vllm.gpu_memory_utilization)) })),
      this._lmoField = f('lmo', this._select('lmo',
        [['', this._t('option.default')], ['true', this._t('option.on')], ['false', this._t('option.off')]])),
      this._llamaFields = shownLater(h('div', { class: 'vb-llama', 'data-testid': 'llama-fields' }), () => {
        const rows = [
          h('div', { class: 'vb-row' },
            f('ngl', this._text('ngl', { inputmode: 'numeric', placeholder: this._t('field.ngl.placeholder') })),
            f('sm', this._select('sm', [['', this._t('field.sm.layer')], ['row', 'row'], ['none', this._t('field.sm.none')]]))),
          h('div', { class: 'vb-row' },
            f('ts', this._text('ts', { placeholder: this._t('field.ts.placeholder'), 'data-testid': 'tensor-split' })),
            f('mg', this._text('mg', { inputmode: 'numeric', placeholder: '0' })))];
        this._fields.sm.setAttribute('data-testid', 'split-mode');
        return rows;
      }),
      this._hfFields = shownLater(h('div', { class: 'vb-transformers', 'data-testid': 'transformers-fields' }),
        () => this._transformersFields(f)));
    return runtimeSet;
  }

  /** transformers generate(): the cache class, the attention, the version, and the quantized cache's settings. */
  _transformersFields(f) {
    const hf = this._catalog.defaults.engines.transformers || {};
    const choices = (names, fallback) => (names || []).map((n) => [n === fallback ? '' : n,
      n === fallback ? this._t('option.is-default', n) : n]);
    const backends = hf.backend || [];
    return [
      h('div', { class: 'vb-row' },
        f('hfc', this._select('hfc', choices(hf.cache_implementation, 'dynamic'))),
        f('hfa', this._select('hfa', [['', this._t('field.hfa.version')],
          ...(hf.attn_implementation || []).map((n) => [n, n])]))),
      h('div', { class: 'vb-row' },
        f('hfv', this._text('hfv', { placeholder: this._t('field.hfv.placeholder') })),
        f('hfn', this._text('hfn', { inputmode: 'numeric', placeholder: '0' }), 'tokens')),
      this._hfQuantFields = h('div', { class: 'vb-row', 'data-testid': 'quantized-cache-fields' },
        f('hfq', this._select('hfq', choices(backends, backends[0]))),
        f('hfb', this._text('hfb', { inputmode: 'numeric', placeholder: '4' }), 'count'),
        f('hfg', this._text('hfg', { inputmode: 'numeric', placeholder: String(hf.q_group_size ?? 64) }), 'count'),
        f('hfr', this._text('hfr', { inputmode: 'numeric', placeholder: String(hf.residual_length ?? 128) }), 'tokens'))];
  }

  /** A training or generation block: the everyday inputs first, parallelism and switches under "More settings".
   *  Its inputs are built when it is first shown (`_syncForm`): a page that opens on another workload
   *  does not build them before its first estimate. */
  _blockSet(block, legend, fields) {
    return shownLater(h('fieldset', { 'data-block': block, 'data-testid': `${block}-fields` }, h('legend', {}, legend)),
      () => [fields.filter((f) => !f.advanced).map((f) => this._blockField(f)),
        h('details', { class: 'vb-more', 'data-testid': `${block}-more` }, h('summary', {}, this._t('form.more')),
          fields.filter((f) => f.advanced).map((f) => this._blockField(f)))]);
  }

  /** The hardware: a catalog GPU or a custom memory size, the count and the headroom. */
  _hardwareSet() {
    const cat = this._catalog;
    const f = (key, control, kind) => this._field(key, this._t(`field.${key}`), control, this._t(`field.${key}.help`), kind);
    const gpuText = (g) => `${g.name} \u2014 ${this._bytes(g.memory_bytes).text}`;
    const hwSet = h('fieldset', {},
      h('legend', {}, this._t('form.hardware')),
      f('gpu', this._select('gpu', cat.gpus.map((g) => [g.id,
        g.id === cat.defaults.gpu ? this._t('option.is-default', gpuText(g)) : gpuText(g)]))),
      f('gpumem', this._text('gpumem', { placeholder: this._t('field.gpumem.placeholder') }), 'bytes'),
      f('gpucc', this._text('gpucc', { inputmode: 'decimal', placeholder: this._t('field.gpucc.placeholder') })),
      f('gpusm', this._text('gpusm', { inputmode: 'numeric', placeholder: this._t('field.gpusm.placeholder') }), 'count'),
      h('div', { class: 'vb-row' },
        f('count', this._text('count', { inputmode: 'numeric' }), 'count'),
        f('headroom', this._text('headroom', { inputmode: 'decimal', placeholder: '10' }))));
    return hwSet;
  }

  /** The link, Copy link, and the scenario JSON with its import. */
  _shareBlock() {
    this._permalink = h('a', { class: 'vb-permalink', 'data-testid': 'permalink' }, this._t('share.link'));
    this._scenarioPre = h('pre', { class: 'vb-code', 'data-testid': 'scenario-json' });
    this._accuracyLink = h('a', { 'data-testid': 'accuracy-link' }, this._t('share.accuracy'));
    return [
      h('p', { class: 'vb-share' }, this._permalink, ' ',
        h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'copy-link', onclick: () => this._copyLink() }, this._t('share.copy')),
        this._copyStatus = h('span', { class: 'vb-help', role: 'status', 'data-testid': 'copy-status' })),
      h('p', { class: 'vb-help' }, this._marked('share.accuracy-what', this._accuracyLink)),
      h('details', { 'data-testid': 'scenario-details' }, h('summary', {}, this._t('share.scenario')), this._scenarioPre,
        this._field('import', this._t('field.import'), h('textarea', { rows: 4, spellcheck: 'false', 'data-testid': 'import',
          placeholder: '{"v": 1, "workload": "training", "model": "Qwen/Qwen3-8B", ...}' }),
        this._t('field.import.help')),
        h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'import-load', onclick: () => this._importScenario() }, this._t('import.load')),
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
    this._results = h('div', { class: 'vb-results', 'data-testid': 'results', tabindex: '-1', 'aria-label': this._t('results.label') },
      this._banner, this._notice, this._figures);
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
    this._wlHelp.textContent = this._tr.has(`workload.${wl}.what`)
      ? this._t('workload.help', this._workloadName(wl), this._t(`workload.${wl}.what`)) : '';
    for (const radio of this._radios.querySelectorAll('input')) radio.checked = radio.value === st.src;
    // Files fill the config.json and bytes inputs, shown beside what was read.
    for (const [key, block] of Object.entries(this._sourceBlocks)) {
      block.hidden = key !== st.src && !(key === 'config' && st.src === 'files');
    }
    const pipeline = usesPipeline(st);
    this._modelSources.hidden = pipeline;
    this._pipeField.hidden = !pipeline;
    const block = blockOf(st);
    // A diffusion fine-tune reads the training block and the sample size of the generation block.
    const sample = sampleFields(st);
    for (const [name, set] of Object.entries(this._blockSets))
      show(set, name === block || (name === 'generation' && sample.length > 0));
    const engine = engineOf(st);
    show(this._llamaFields, engineReads(engine, 'n_gpu_layers'));
    show(this._hfFields, engineReads(engine, 'cache_implementation'));
    const shown = new Set([...blockFields(st), ...sample].map((f) => f.key));
    for (const f of [...TRAINING_FIELDS, ...GENERATION_FIELDS]) {
      if (this._fields[f.key]) this._fields[f.key].closest('.vb-field').hidden = !shown.has(f.key);
    }
    for (const [key, control] of Object.entries(this._fields)) {
      if (key === 'import') continue; // text waiting for Load, not state
      // An unset GPU or engine shows the core's default (the scenario leaves it out).
      const want = key === 'gpu' && st.gpu === '' ? core.defaults.gpu
        : key === 'engine' && st.engine === '' ? core.defaults.engine : this._shownText(key, st[key] ?? '');
      if (control.value !== want && this._root.activeElement !== control) {
        if (control.tagName === 'SELECT' && want !== '' &&
            ![...control.options].some((o) => o.value === want)) {
          // A value the catalog does not list (from a link): keep it so the module names the error.
          control.append(h('option', { value: want }, this._t('option.not-in-catalog', want)));
        }
        control.value = want;
      }
    }
    for (const key of Object.keys(this._understood)) this._showUnderstood(key);
    this._gmuField.hidden = !engineReads(engine, 'gpu_memory_utilization');
    this._lmoField.hidden = !engineReads(engine, 'language_model_only');
    if (this._hfQuantFields) this._hfQuantFields.hidden = this._hfFields.hidden || st.hfc !== 'quantized';
  }

  /** How a number input's text was read, as the input shows it, in the page's language. */
  _showUnderstood(key) {
    const u = this._understood[key];
    const control = this._fields[key];
    const shown = control ? control.value : this._shownText(key, this._state[key] ?? '');
    const text = parseQuantity(shown, u.kind, this._tr.lang).understood;
    u.el.textContent = text;
    u.el.hidden = text === '';
  }

}
