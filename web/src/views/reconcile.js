// Reconcile: paste what an engine or PyTorch printed; the core reads the
// figures (reconcile() in the module) and the page shows measured beside
// estimated per category, what each difference means, and the accuracy case
// the measurement makes.

import { h, replace } from '../dom.js';
import { formatBytes, exactBytes, groupDigits } from '../format.js';
import { call } from '../module.js';

const figure = (metric, v) => {
  if (v === null || v === undefined) return '\u2014';
  if (metric.endsWith('_bytes')) return `${formatBytes(v).text} (${exactBytes(v)})`;
  if (metric.endsWith('_tokens')) return `${groupDigits(v)} tokens`;
  if (metric === 'max_concurrency') return `${groupDigits(v)}\u00d7`;
  return groupDigits(v);
};
const percent = (e) => (e === null || e === undefined ? '\u2014' : `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)} %`);

export class ReconcileView {
  /** The section: a box for the log, a button, the comparison. */
  _reconcileSection() {
    const id = this._newId('reconcile-log');
    this._reconcileLog = h('textarea', { id, rows: 5, spellcheck: 'false', 'data-testid': 'reconcile-log',
      placeholder: 'INFO ... [gpu_worker.py] Available KV cache memory: 54.32 GiB\n...' });
    const run = h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'reconcile-run' }, 'Compare');
    run.addEventListener('click', () => this._renderReconcile());
    this._reconcileOut = h('div', { 'data-testid': 'reconcile-out', 'aria-live': 'polite' });
    return h('section', { 'aria-labelledby': this._headingId('reconcile'), 'data-testid': 'reconcile' },
      this._heading('reconcile', 'Reconcile with a measurement'),
      h('div', { class: 'vb-field' },
        h('label', { for: id }, 'A vLLM or llama.cpp startup log, or PyTorch\u2019s memory output'),
        this._reconcileLog,
        h('p', { class: 'vb-help' }, 'Read here, in the page: the figures it prints are compared with this estimate.')),
      h('p', {}, run), this._reconcileOut);
  }

  /** Compares the pasted text with the current scenario (again after each change, once something is pasted). */
  _renderReconcile() {
    if (!this._reconcileOut) return;
    const log = this._reconcileLog.value;
    if (log.trim() === '' || !this.scenario) {
      replace(this._reconcileOut, log.trim() === '' ? null : h('p', { class: 'vb-help' }, 'Give a valid scenario first.'));
      return;
    }
    const r = call(this._module, 'reconcile', log, JSON.stringify(this.scenario));
    if (!r.ok) {
      replace(this._reconcileOut, h('p', { class: 'vb-field-error', role: 'alert', 'data-testid': 'reconcile-error' },
        r.error.path ? h('code', { class: 'vb-path' }, r.error.path) : null, r.error.path ? ': ' : '', r.error.message));
      return;
    }
    const rows = (r.rows || []).map((row) => h('tr', { 'data-metric': row.metric },
      h('th', { scope: 'row' }, h('code', {}, row.metric)),
      h('td', {}, figure(row.metric, row.measured)),
      h('td', {}, figure(row.metric, row.estimated)),
      h('td', {}, percent(row.error), row.in_range === true ? ' (in range)' : row.in_range === false ? ' (outside range)' : ''),
      h('td', {}, row.meaning || '')));
    const table = h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': 'Measured and estimated' },
      h('table', { class: 'vb-table', 'data-testid': 'reconcile-table' },
        h('thead', {}, h('tr', {}, ['Metric', 'Measured', 'Estimated', 'Error', 'What it means'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows)));
    const found = h('details', {}, h('summary', {}, `The ${r.found.length} line(s) read`),
      h('ul', { class: 'vb-found' }, r.found.map((f) => h('li', {}, `line ${f.line_number}: `, h('code', {}, f.line)))));
    const caseText = JSON.stringify(r.case);
    const accuracyCase = h('details', {}, h('summary', {}, 'As an accuracy case (one line of a .jsonl file)'),
      h('pre', { class: 'vb-code', 'data-testid': 'reconcile-case', tabindex: '0' }, h('code', {}, caseText)));
    replace(this._reconcileOut, table, found, accuracyCase,
      r.notes && r.notes.length ? h('ul', { class: 'vb-notes' }, r.notes.map((n) => h('li', {}, n))) : null);
  }
}
