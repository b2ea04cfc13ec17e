// <vram-budget>: lifecycle, attributes, URL state, computing and errors.
// The form and the views are mixed in by index.js.

import CSS from './styles.css';
import { h, s, replace } from './dom.js';
import { DEFAULT_STATE, ATTRIBUTES, numberKind } from './fields.js';
import {
  core, workloadOf, usesPipeline, stateToHash, hashToState, buildScenario, scenarioToState, ERROR_FIELDS,
} from './state.js';
import { loadModule, call, pickerEntries } from './module.js';
import { translator, currentLanguage, languageOf, splitMarks } from './i18n/index.js';

// Where this script was loaded from: the standalone page sits beside it.
const SCRIPT_URL = (document.currentScript && document.currentScript.src) || '';

let sharedSheet = null;
function styleSheet() {
  if (!sharedSheet) {
    sharedSheet = new CSSStyleSheet();
    sharedSheet.replaceSync(CSS);
  }
  return sharedSheet;
}

export class VramBudgetElement extends HTMLElement {
  static define(tag = 'vram-budget', registry = customElements) {
    registry.define(tag, this);
    return this;
  }

  static get observedAttributes() {
    return [...Object.keys(ATTRIBUTES), 'no-url-state', 'page-url', 'lang'];
  }

  constructor() {
    super();
    this._root = this.attachShadow({ mode: 'open' });
    this._root.adoptedStyleSheets = [styleSheet()];
    this._state = { ...DEFAULT_STATE };
    // The language the reader chose (the switch or the link's lang=): '' = none,
    // then the lang attribute decides, then the browser's language.
    this._chosenLang = '';
    this._tr = translator(currentLanguage());
    this._module = null;
    this._catalog = null;
    this._modelEntries = null;
    this._fields = {};
    this._errors = {};
    this._understood = {};
    this._timer = 0;
    this._seq = 0;
    this._uid = 0;
    this.scenario = null;
    this.report = null;
    this.plan = null;
    this.sweep = null;
    this._onHashChange = () => this._readHash(true);
  }

  /** An id unique inside this element's shadow root. */
  _newId(name) {
    return `vb-${name}-${++this._uid}`;
  }

  // ---- language -------------------------------------------------------------

  /** The page's language (en | nl); setting it is what the language switch does. */
  get language() {
    return this._tr.lang;
  }

  set language(value) {
    this._chooseLanguage(languageOf(value) || '');
  }

  /** A string of the current language's table. */
  _t(key, ...args) {
    return this._tr.t(key, ...args);
  }

  /** A table string whose {0}, {1} ... marks stand for the nodes given. */
  _marked(key, ...nodes) {
    return splitMarks(this._t(key)).map((part, i) => (i % 2 ? nodes[Number(part)] : part)).filter((x) => x !== '');
  }

  /** Figures formatted in the current locale. */
  _num(n) {
    return this._tr.number(n);
  }

  _bytes(b, system, digits) {
    return this._tr.bytes(b, system, digits);
  }

  _exact(b) {
    return this._tr.exact(b);
  }

  /** An error's text: the page's own in the current language (its i18n key), the module's as given. */
  _message(error) {
    return error.i18n ? this._t(...error.i18n) : error.message;
  }

  /** Sets a status line from a table string, and again after a change of language. */
  _say(el, key, ...args) {
    el._said = key ? [key, ...args] : null;
    el.textContent = key ? this._t(key, ...args) : '';
  }

  _chooseLanguage(lang) {
    this._chosenLang = lang;
    // Redrawn in another language, or the same one now chosen: the link says which.
    if (!this._applyLanguage() && this._permalink) this._writeLink();
  }

  /** Draws everything again in the language now current, keeping the inputs, what is
   *  open and the focus; tells the host page (language-change). */
  _applyLanguage() {
    const lang = currentLanguage({ chosen: this._chosenLang, attribute: this.getAttribute('lang') });
    if (lang === this._tr.lang && this._drawnLang === lang) return false;
    this._tr = translator(lang);
    let redrawn = false;
    if (this._drawnLang !== undefined) {
      if (this._fields.engine) {
        this._redrawForm();
        redrawn = true;
      } else if (!this._module) this._showLoading();
    }
    this._drawnLang = lang;
    this.dispatchEvent(new CustomEvent('language-change', { bubbles: true, composed: true, detail: { lang } }));
    return redrawn;
  }

  _showLoading() {
    replace(this._root, h('p', { class: 'vb-loading', role: 'status', lang: this._tr.lang }, this._t('status.loading')));
  }

  /** The form and the results built again (new language), with the reader's place kept:
   *  the inputs (state), the texts waiting for Load or Compare, what is open, the focus. */
  _redrawForm() {
    const active = this._root.activeElement;
    const focus = active ? { place: this._placeOf(active), value: active.value,
      start: active.selectionStart, end: active.selectionEnd } : null;
    const open = [...this._root.querySelectorAll('details')].filter((d) => d.open).map((d) => this._placeOf(d));
    const kept = { import: this._fields.import.value, log: this._reconcileLog.value };
    const said = [this._copyStatus, this._importStatus].map((el) => el._said);
    this._fields = {};
    this._errors = {};
    this._understood = {};
    this._buildForm();
    this._fields.import.value = kept.import;
    this._reconcileLog.value = kept.log;
    [this._copyStatus, this._importStatus].forEach((el, i) => { if (said[i]) this._say(el, ...said[i]); });
    if (this._inspection && this._inspection.ok) this._renderInspection(this._inspection, this._inspectionSkipped || []);
    if (this._filesErrorSaid) this._showFilesError(...this._filesErrorSaid);
    this._syncForm();
    for (const place of open) {
      const d = this._findPlace(place);
      if (d && d.tagName === 'DETAILS') d.open = true;
    }
    this._update({ quiet: true });
    for (const place of open) {  // the report's own (reconcile) are drawn by _update
      const d = this._findPlace(place);
      if (d && d.tagName === 'DETAILS') d.open = true;
    }
    const target = focus && this._findPlace(focus.place);
    if (!target) return;
    for (let d = target.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
    // Text typed and not yet read (the model's type-ahead); a number shows in the new notation.
    if (typeof focus.value === 'string' && target.tagName !== 'SELECT' && 'value' in target
        && !numberKind(target.name) && target.value !== focus.value) {
      target.value = focus.value;
    }
    target.focus({ preventScroll: true });
    if (typeof focus.start === 'number' && target.setSelectionRange) {
      try { target.setSelectionRange(focus.start, focus.end); } catch (e) { /* not a text input */ }
    }
  }

  /** Where an element is, so that its counterpart is found once everything is drawn again:
   *  its Apply/Use action, or its place under the nearest element with a test id. */
  _placeOf(el) {
    if (el.dataset && el.dataset.action) return { action: el.dataset.action };
    const box = el.closest('[data-testid]');
    const same = [...(box || this._root).querySelectorAll(el.tagName)];
    return { testid: box ? box.dataset.testid : '', self: box === el, tag: el.tagName, index: same.indexOf(el) };
  }

  _findPlace(p) {
    if (p.action) return [...this._root.querySelectorAll('[data-action]')].find((b) => b.dataset.action === p.action) || null;
    const box = p.testid ? [...this._root.querySelectorAll('[data-testid]')].find((e) => e.dataset.testid === p.testid) : this._root;
    if (!box) return null;
    return p.self ? box : box.querySelectorAll(p.tag)[p.index] || null;
  }

  connectedCallback() {
    if (this._started) return;
    this._started = true;
    // The attributes give the initial inputs once; moved in the DOM later, an
    // instance keeps what the user has changed since.
    if (!this._attributesRead) {
      this._attributesRead = true;
      for (const [attr, key] of Object.entries(ATTRIBUTES)) {
        if (this.hasAttribute(attr)) this._state[key] = this.getAttribute(attr);
      }
      if (this.getAttribute('model') && !this.hasAttribute('source')) this._state.src = 'catalog';
      if (this.getAttribute('config') && !this.hasAttribute('source')) this._state.src = 'config';
      const parsed = this._urlState ? hashToState(location.hash) : null;
      if (parsed && parsed.lang) this._chosenLang = parsed.lang;
    }
    this._applyLanguage();
    if (!this._module) this._showLoading();
    loadModule().then(
      (module) => { if (!this._module) this._start(module); else this._attach(); },
      (e) => replace(this._root, h('p', { class: 'vb-error', role: 'alert', lang: this._tr.lang }, this._message(e))),
    );
  }

  disconnectedCallback() {
    window.removeEventListener('hashchange', this._onHashChange);
    clearTimeout(this._timer);
    this._started = false;
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (name === 'lang') {
      // Set or removed, the attribute decides again (removed: the browser's language).
      if (this._started || this._module) this._chooseLanguage('');
      return;
    }
    if (name === 'no-url-state' || name === 'page-url') {
      if (this._module) { this._attach(); this._update(); }
      return;
    }
    const key = ATTRIBUTES[name];
    // A removed attribute returns its input to the default.
    const changes = { [key]: value === null ? DEFAULT_STATE[key] : value };
    if (name === 'model' && value !== null && !this.hasAttribute('source')) changes.src = 'catalog';
    if (!this._module) {
      Object.assign(this._state, changes);
      return;
    }
    this._setState(changes);
  }

  get _urlState() {
    return !this.hasAttribute('no-url-state');
  }

  _start(module) {
    this._module = module;
    // The models come later (the type-ahead's first use, or idle time after the
    // first estimate): building them reads every model file of the catalog.
    this._catalog = call(module, 'catalog', { models: false });
    this._modelEntries = null;
    if (!this._catalog.ok) {
      replace(this._root, h('p', { class: 'vb-error', role: 'alert', lang: this._tr.lang }, `catalog(): ${this._message(this._catalog.error)}`));
      return;
    }
    core.defaults = { ...core.defaults, ...this._catalog.defaults };
    // The workloads the core reads, from its own defaults (no probe estimate at start).
    core.workloads = core.defaults.workloads && core.defaults.workloads.length ? core.defaults.workloads : [core.defaults.workload];
    core.videoPipelines = new Set((this._catalog.pipelines || []).filter((p) => p.modality === 'video')
      .flatMap((p) => [p.id, ...(p.aliases || [])]));
    if (!this._state.model) this._state.model = core.defaults.model || '';
    this._buildForm();
    if (this._urlState) this._readHash(false);
    this._attach();
    this._syncForm();
    this._update({ defer: true });
    const idle = window.requestIdleCallback || ((f) => setTimeout(f, 250));
    idle(() => { if (this._module === module) void this._entries; }, { timeout: 2000 });
  }

  /** The type-ahead's entries: the catalog's models, asked for once, on first use. */
  get _entries() {
    if (!this._modelEntries) {
      const r = call(this._module, 'models');
      this._modelEntries = r.ok ? pickerEntries(r.models) : [];
    }
    return this._modelEntries;
  }

  /** Listens to the page's fragment only where URL state is on. */
  _attach() {
    window.removeEventListener('hashchange', this._onHashChange);
    if (this._urlState && this._started) window.addEventListener('hashchange', this._onHashChange);
  }

  _readHash(rerun) {
    const parsed = hashToState(location.hash);
    this._hashError = null;
    if (!parsed) return;
    if (parsed.error) {
      this._hashError = parsed;
    } else {
      this._state = { ...DEFAULT_STATE, model: this._state.model, ...parsed.state };
      // A link without lang= keeps the language the reader has.
      if (parsed.lang && parsed.lang !== this._chosenLang) {
        this._chosenLang = parsed.lang;
        if (rerun) this._applyLanguage();
      }
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

  _onInput(key, value, now) {
    this._hashError = null;
    this._state[key] = this._keptText(key, value);
    if (this._understood[key]) this._showUnderstood(key);
    if (key === 'src' || key === 'engine' || key === 'wl') this._syncForm();
    clearTimeout(this._timer);
    if (now) this._update();
    else this._timer = setTimeout(() => this._update(), 150);
  }

  /** Where "Link to this estimate" points: this page's fragment, or (without
   *  URL state) the standalone page, so the host's URL is never rewritten. */
  _linkTarget(hash) {
    if (this._urlState) return { href: `#${hash}`, external: false };
    const base = this.getAttribute('page-url') || this._besideScript('index.html');
    return { href: `${base.replace(/#.*$/, '')}#${hash}`, external: true };
  }

  /** A file of the standalone bundle (index.html, accuracy.html), found
   *  beside this script or, when given, beside the page-url attribute. */
  _besideScript(file) {
    try {
      return new URL(file, this.getAttribute('page-url') || SCRIPT_URL || location.href).href;
    } catch (e) {
      return file;
    }
  }

  // ---- compute and render -------------------------------------------------

  /** The fragment (with URL state) and "Link to this estimate": the inputs and a chosen language. */
  _writeLink() {
    const hash = stateToHash(this._state, this._chosenLang);
    if (this._urlState && location.hash !== `#${hash}`) history.replaceState(null, '', `#${hash}`);
    const link = this._linkTarget(hash);
    this._permalink.href = link.href;
    if (link.external) {
      this._permalink.target = '_blank';
      this._permalink.rel = 'noopener';
    } else {
      this._permalink.removeAttribute('target');
      this._permalink.removeAttribute('rel');
    }
    this._accuracyLink.href = this._besideScript('accuracy.html');
    if (link.external) this._accuracyLink.target = '_blank';
  }

  /** Builds the scenario, asks the module, draws the answer. With defer (the
   *  first estimate), the plan and the chart are computed after the first paint. */
  _update(options = {}) {
    clearTimeout(this._timer);
    const built = buildScenario(this._state, (text) => call(this._module, 'readConfig', text));
    this.scenario = built.scenario || null;
    this._writeLink();
    this._scenarioPre.textContent = built.scenario ? JSON.stringify(built.scenario, null, 2) : '';

    let report;
    if (built.pending) report = { ok: false, pending: true, error: built.pending };
    else if (built.error) report = { ok: false, error: built.error };
    else report = call(this._module, 'estimate', JSON.stringify(built.scenario));
    // What reading the pasted config.json changed is said with the report's warnings.
    if (report.ok && built.notes) report = { ...report, warnings: [...built.notes, ...(report.warnings || [])] };
    this.report = report;
    this._showErrors(report);
    const seq = ++this._seq;
    if (report.ok) {
      const text = JSON.stringify(built.scenario);
      const planned = () => {
        this.plan = call(this._module, 'plan', text);
        this.sweep = call(this._module, 'sweep', text);
        this._renderChart(this.sweep, report, this.plan);
        this._renderPlan(this.plan);
        this._plannedText = text;
        this._renderGrid();
      };
      this.plan = null;
      this.sweep = null;
      this._renderReport(report);
      this._renderedWorkload = workloadOf(this._state);
      // The budget is drawn in this frame; the solvers and the chart follow
      // after it is painted (the plan keeps its last figures, marked busy,
      // until then).
      if (options.defer) {
        replace(this._out.plan, this._heading('plan', this._t('plan.title')),
          h('p', { class: 'vb-loading', role: 'status' }, this._t('status.planning')));
      }
      this._setBusy(true);
      this._afterPaint(seq, () => {
        planned();
        this._setBusy(false);
        this._restoreFocus();
      });
    } else {
      this.plan = null;
      this.sweep = null;
      this._setBusy(false);
      this._restoreFocus();
    }
    if (!options.quiet) this.dispatchEvent(new CustomEvent('estimate-change', { bubbles: true, composed: true, detail: report }));
  }

  /** Runs `f` once after the next paint, unless a newer update (`seq`) came first. */
  _afterPaint(seq, f) {
    let done = false;
    const once = () => {
      if (done || seq !== this._seq) return;
      done = true;
      f();
    };
    requestAnimationFrame(() => setTimeout(once, 0));
    setTimeout(once, 200);  // rAF does not run in a hidden page
  }

  /** Marks the plan and the chart as being recomputed (aria-busy). */
  _setBusy(busy) {
    for (const el of [this._out.plan, this._out.chart]) {
      if (!el) continue;
      if (busy) el.setAttribute('aria-busy', 'true');
      else el.removeAttribute('aria-busy');
    }
  }

  /** Copies the link (absolute) to the clipboard, or shows it to copy by hand. */
  _copyLink() {
    const url = new URL(this._permalink.getAttribute('href'), location.href).href;
    const clip = navigator.clipboard;
    const manual = () => this._say(this._copyStatus, 'share.copy-this', url);
    if (clip && clip.writeText) clip.writeText(url).then(() => this._say(this._copyStatus, 'share.copied'), manual);
    else manual();
  }

  /** Fills the form from a pasted scenario; says which fields it has no input for. */
  _importScenario() {
    const text = this._fields.import.value.trim();
    let sc;
    try {
      sc = JSON.parse(text);
    } catch (e) {
      this._say(this._importStatus, 'import.not-json', e.message);
      return;
    }
    const got = scenarioToState(sc, { ...DEFAULT_STATE, model: this._state.model });
    if (got.error) {
      this._say(this._importStatus, ...got.i18n);
      return;
    }
    if (got.ignored.length) this._say(this._importStatus, 'import.loaded-without', got.ignored.join(', '));
    else this._say(this._importStatus, 'import.loaded');
    this._hashError = null;
    this._state = got.state;
    this._syncForm();
    this._update();
  }

  /** After Apply or Use: focus the same control in the new figures, else the plan's heading. */
  _restoreFocus() {
    const action = this._focusAction;
    if (!action) return;
    this._focusAction = null;
    const same = [...this._root.querySelectorAll('[data-action]')].find((b) => b.dataset.action === action);
    const target = same || this._root.getElementById(this._headingId('plan')) || this._out.verdict;
    if (target && !same) target.setAttribute('tabindex', '-1');
    if (target) target.focus();
  }

  _showErrors(report) {
    const error = report.ok ? null : report.error;
    for (const [key, el] of Object.entries(this._errors)) {
      el.hidden = true;
      el.textContent = '';
      this._fields[key]?.removeAttribute('aria-invalid');
    }
    this._generalError.hidden = true;
    this._banner.hidden = true;
    this._notice.hidden = true;
    this._results.classList.remove('vb-stale');
    if (this._hashError) {
      this._generalError.hidden = false;
      this._generalError.textContent = this._t(...this._hashError.i18n);
    }
    // Figures of another workload would mislead: show them only while they still apply.
    const sameWorkload = this._renderedWorkload === workloadOf(this._state);
    this._figures.hidden = !report.ok && !(sameWorkload && !report.pending && error && error.path !== '/workload');
    if (report.ok) return;

    if (report.pending) {
      const text = this._message(error);
      replace(this._notice, h('p', { class: 'vb-pending' }, text[0].toUpperCase() + text.slice(1), '.'));
      this._notice.hidden = false;
      return;
    }
    const path = error.path || '';
    // A workload the module reads but does not estimate is a notice; an unknown one is an input error.
    if (path === '/workload' && core.workloads.includes(workloadOf(this._state))) {
      // The workload is valid but the module does not estimate it: say so, keep the scenario.
      replace(this._notice,
        h('h2', {}, this._t('notice.not-estimated', this._workloadName(workloadOf(this._state)))),
        h('p', { 'data-testid': 'workload-message' }, error.message),
        h('p', { class: 'vb-help' }, this._marked('notice.keep-scenario', h('code', {}, 'vram-budget estimate'))),
        h('pre', { class: 'vb-code' }, this.scenario ? JSON.stringify(this.scenario, null, 2) : ''));
      this._notice.hidden = false;
      return;
    }
    const match = ERROR_FIELDS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
    let key = match ? match[1] : null;
    if (key === 'model-source' && this._state.src === 'catalog') key = 'model';
    if (key === 'model-source' && usesPipeline(this._state)) key = 'pipe';
    if (key === 'gpu' && this._state.gpumem !== '') key = 'gpumem';
    const slot = (key && this._errors[key]) || this._generalError;
    const message = this._message(error);
    replace(slot, h('code', { class: 'vb-path' }, path || '/'), ' ', message);
    slot.hidden = false;
    this._fields[key]?.setAttribute('aria-invalid', 'true');

    replace(this._banner, h('strong', {}, this._t('error.input'), ' '), h('code', { class: 'vb-path' }, path || '/'), ': ', message,
      this._figures.hidden ? '' : ` \u2014 ${this._t('error.last-valid')}`);
    this._banner.hidden = false;
    if (!this._figures.hidden) this._results.classList.add('vb-stale');
  }

  _renderReport(report) {
    this._figures.hidden = false;
    this._renderWorked(report);
    this._renderVerdict(report);
    this._renderBar(report);
    this._renderTable(report);
    this._renderGpus(report);
    this._renderMetrics(report);
    this._renderReconcile();
  }

  _heading(key, text) {
    return h('h2', { id: this._headingId(key) }, text);
  }

  /** A workload's name in the current language (the module's own name for one the tables lack). */
  _workloadName(w) {
    return this._tr.has(`workload.${w}`) ? this._t(`workload.${w}`) : w;
  }
}
