// <vram-budget>: lifecycle, attributes, URL state, computing and errors.
// The form and the views are mixed in by index.js.

import CSS from './styles.css';
import { h, s, replace } from './dom.js';
import { WORKLOAD_TEXT, DEFAULT_STATE, ATTRIBUTES } from './fields.js';
import {
  core, workloadOf, usesPipeline, stateToHash, hashToState, buildScenario, scenarioToState, ERROR_FIELDS,
} from './state.js';
import { loadModule, call, readWorkloads, pickerEntries } from './module.js';

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
    return [...Object.keys(ATTRIBUTES), 'no-url-state', 'page-url'];
  }

  constructor() {
    super();
    this._root = this.attachShadow({ mode: 'open' });
    this._root.adoptedStyleSheets = [styleSheet()];
    this._state = { ...DEFAULT_STATE };
    this._module = null;
    this._catalog = null;
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
    }
    if (!this._module) replace(this._root, h('p', { class: 'vb-loading', role: 'status' }, 'Loading the estimator\u2026'));
    loadModule().then(
      (module) => { if (!this._module) this._start(module); else this._attach(); },
      (e) => replace(this._root, h('p', { class: 'vb-error', role: 'alert' }, e.message)),
    );
  }

  disconnectedCallback() {
    window.removeEventListener('hashchange', this._onHashChange);
    clearTimeout(this._timer);
    this._started = false;
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
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
    this._catalog = call(module, 'catalog');
    if (!this._catalog.ok) {
      replace(this._root, h('p', { class: 'vb-error', role: 'alert' }, `catalog(): ${this._catalog.error.message}`));
      return;
    }
    core.defaults = { ...core.defaults, ...this._catalog.defaults };
    core.workloads = readWorkloads(module, core.defaults);
    this._entries = pickerEntries(this._catalog.models);
    if (!this._state.model && this._catalog.models.length) {
      const preferred = this._catalog.models.find((m) => m.id === 'meta-llama/Llama-3.1-8B');
      this._state.model = (preferred || this._catalog.models[0]).id;
    }
    this._buildForm();
    if (this._urlState) this._readHash(false);
    this._attach();
    this._syncForm();
    this._update({ defer: true });
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

  _onInput(key, value, now) {
    this._hashError = null;
    this._state[key] = value;
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

  /** Builds the scenario, asks the module, draws the answer. With defer (the
   *  first estimate), the plan and the chart are computed after the first paint. */
  _update(options = {}) {
    clearTimeout(this._timer);
    const built = buildScenario(this._state);
    this.scenario = built.scenario || null;
    const hash = stateToHash(this._state);
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
    this._scenarioPre.textContent = built.scenario ? JSON.stringify(built.scenario, null, 2) : '';

    let report;
    if (built.pending) report = { ok: false, pending: true, error: built.pending };
    else if (built.error) report = { ok: false, error: built.error };
    else report = call(this._module, 'estimate', JSON.stringify(built.scenario));
    this.report = report;
    this._showErrors(report);
    const seq = ++this._seq;
    if (report.ok) {
      const text = JSON.stringify(built.scenario);
      const planned = () => {
        if (seq !== this._seq) return; // a newer input has been drawn since
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
      if (options.defer) {
        // First load: the budget is drawn first; the solvers follow after that paint.
        let done = false;
        const once = () => { if (!done) { done = true; planned(); this._restoreFocus(); } };
        replace(this._out.plan, this._heading('plan', 'Plan'), h('p', { class: 'vb-loading', role: 'status' }, 'Planning\u2026'));
        requestAnimationFrame(() => setTimeout(once, 0));
        setTimeout(once, 200);
      } else {
        planned();
      }
    } else {
      this.plan = null;
      this.sweep = null;
    }
    this._restoreFocus();
    this.dispatchEvent(new CustomEvent('estimate-change', { bubbles: true, composed: true, detail: report }));
  }

  /** Copies the link (absolute) to the clipboard, or shows it to copy by hand. */
  _copyLink() {
    const url = new URL(this._permalink.getAttribute('href'), location.href).href;
    const say = (text) => { this._copyStatus.textContent = text; };
    const clip = navigator.clipboard;
    if (clip && clip.writeText) clip.writeText(url).then(() => say(' Link copied.'), () => say(` Copy this link: ${url}`));
    else say(` Copy this link: ${url}`);
  }

  /** Fills the form from a pasted scenario; says which fields it has no input for. */
  _importScenario() {
    const text = this._fields.import.value.trim();
    let sc;
    try {
      sc = JSON.parse(text);
    } catch (e) {
      this._importStatus.textContent = `Not valid JSON: ${e.message}`;
      return;
    }
    const got = scenarioToState(sc, { ...DEFAULT_STATE, model: this._state.model });
    if (got.error) {
      this._importStatus.textContent = got.error;
      return;
    }
    this._importStatus.textContent = got.ignored.length
      ? `Loaded; the form has no input for ${got.ignored.join(', ')}, so those are left out.` : 'Loaded.';
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
      this._generalError.textContent = this._hashError;
    }
    // Figures of another workload would mislead: show them only while they still apply.
    const sameWorkload = this._renderedWorkload === workloadOf(this._state);
    this._figures.hidden = !report.ok && !(sameWorkload && !report.pending && error && error.path !== '/workload');
    if (report.ok) return;

    if (report.pending) {
      replace(this._notice, h('p', { class: 'vb-pending' }, error.message[0].toUpperCase() + error.message.slice(1), '.'));
      this._notice.hidden = false;
      return;
    }
    const path = error.path || '';
    // A workload the module reads but does not estimate is a notice; an unknown one is an input error.
    if (path === '/workload' && core.workloads.includes(workloadOf(this._state))) {
      // The workload is valid but the module does not estimate it: say so, keep the scenario.
      const [name] = WORKLOAD_TEXT[workloadOf(this._state)] || [workloadOf(this._state)];
      replace(this._notice,
        h('h2', {}, `${name}: not estimated by this version`),
        h('p', { 'data-testid': 'workload-message' }, error.message),
        h('p', { class: 'vb-help' }, 'The inputs on the left build the scenario below; keep it (or the link) and run it when the estimator lands, with this page or with ',
          h('code', {}, 'vram-budget estimate'), '.'),
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
    replace(slot, h('code', { class: 'vb-path' }, path || '/'), ' ', error.message);
    slot.hidden = false;
    this._fields[key]?.setAttribute('aria-invalid', 'true');

    replace(this._banner, h('strong', {}, 'Input error '), h('code', { class: 'vb-path' }, path || '/'), ': ', error.message,
      this._figures.hidden ? '' : ' \u2014 the figures below are from the last valid input.');
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
}
