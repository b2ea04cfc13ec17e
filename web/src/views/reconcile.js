// Reconcile: paste what an engine or PyTorch printed; the core reads the
// figures (reconcile() in the module) and the page shows measured beside
// estimated per category, what each difference means, and the accuracy case
// the measurement makes.

import { h, replace } from '../dom.js';
import { call } from '../module.js';

export class ReconcileView {
  /** A measured or estimated figure in the page's notation. */
  _figure(metric, v) {
    if (v === null || v === undefined) return '\u2014';
    if (metric.endsWith('_bytes')) return `${this._bytes(v).text} (${this._exact(v)})`;
    if (metric.endsWith('_tokens')) return this._t('unit.tokens', this._num(v));
    if (metric === 'max_concurrency') return `${this._num(v)}\u00d7`;
    return this._num(v);
  }

  /** A relative error: "+4.9 %" (nl "+4,9 %"). */
  _percent(e) {
    return e === null || e === undefined ? '\u2014' : `${e >= 0 ? '+' : ''}${this._tr.fixed(e * 100, 1)} %`;
  }

  /** The section: a box for the log, a button, the comparison. */
  _reconcileSection() {
    const id = this._newId('reconcile-log');
    this._reconcileLog = h('textarea', { id, rows: 5, spellcheck: 'false', 'data-testid': 'reconcile-log',
      placeholder: 'INFO ... [gpu_worker.py] Available KV cache memory: 54.32 GiB\n...' });
    const run = h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'reconcile-run' }, this._t('reconcile.run'));
    run.addEventListener('click', () => this._renderReconcile());
    this._reconcileOut = h('div', { 'data-testid': 'reconcile-out', 'aria-live': 'polite' });
    return h('section', { 'aria-labelledby': this._headingId('reconcile'), 'data-testid': 'reconcile' },
      this._heading('reconcile', this._t('reconcile.title')),
      h('div', { class: 'vb-field' },
        h('label', { for: id }, this._t('reconcile.log')),
        this._reconcileLog,
        h('p', { class: 'vb-help' }, this._t('reconcile.local'))),
      h('p', {}, run), this._reconcileOut);
  }

  /** Compares the pasted text with the current scenario (again after each change, once something is pasted). */
  _renderReconcile() {
    if (!this._reconcileOut) return;
    const log = this._reconcileLog.value;
    if (log.trim() === '' || !this.scenario) {
      replace(this._reconcileOut, log.trim() === '' ? null : h('p', { class: 'vb-help' }, this._t('reconcile.no-scenario')));
      return;
    }
    const r = call(this._module, 'reconcile', log, JSON.stringify(this.scenario));
    if (!r.ok) {
      replace(this._reconcileOut, h('p', { class: 'vb-field-error', role: 'alert', 'data-testid': 'reconcile-error' },
        r.error.path ? h('code', { class: 'vb-path' }, r.error.path) : null, r.error.path ? ': ' : '', this._message(r.error)));
      return;
    }
    const rows = (r.rows || []).map((row) => h('tr', { 'data-metric': row.metric },
      h('th', { scope: 'row' }, h('code', {}, row.metric)),
      h('td', {}, this._figure(row.metric, row.measured)),
      h('td', {}, this._figure(row.metric, row.estimated)),
      h('td', {}, this._percent(row.error), row.in_range === true ? ` ${this._t('reconcile.in-range')}`
        : row.in_range === false ? ` ${this._t('reconcile.out-of-range')}` : ''),
      h('td', {}, row.meaning || '')));
    const table = h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': this._t('reconcile.region') },
      h('table', { class: 'vb-table', 'data-testid': 'reconcile-table' },
        h('thead', {}, h('tr', {}, ['metric', 'measured', 'estimated', 'error', 'meaning']
          .map((c) => h('th', { scope: 'col' }, this._t(`reconcile.col.${c}`))))),
        h('tbody', {}, rows)));
    const found = h('details', {}, h('summary', {}, this._t('reconcile.found', r.found.length)),
      h('ul', { class: 'vb-found' }, r.found.map((f) => h('li', {}, this._t('reconcile.line', this._num(f.line_number)), ' ', h('code', {}, f.line)))));
    const caseText = JSON.stringify(r.case);
    const accuracyCase = h('details', {}, h('summary', {}, this._t('reconcile.case')),
      h('pre', { class: 'vb-code', 'data-testid': 'reconcile-case', tabindex: '0' }, h('code', {}, caseText)));
    replace(this._reconcileOut, table, found, accuracyCase,
      r.notes && r.notes.length ? h('ul', { class: 'vb-notes' }, r.notes.map((n) => h('li', {}, n))) : null);
  }
}
