// The report, whatever the workload: the weights line, the verdict, the budget
// bar, every component with its formula, the per-GPU split and the metrics.

import { h, s, append, replace } from '../dom.js';
import { colourOf } from '../labels.js';
import { CUSTOM_GPU } from '../state.js';

export class ReportViews {
  _renderWorked(report) {
    const w = report.components.find((c) => c.id === 'weights');
    const weights = report.details && report.details.weights;
    replace(this._out.worked,
      this._heading('worked', this._t('worked.title')),
      w ? h('p', { class: 'vb-formula-line', 'data-testid': 'weights-formula' }, w.formula)
        : h('p', { 'data-testid': 'weights-formula' }, this._t('worked.none')),
      h('p', { class: 'vb-help' },
        weights && weights.summary ? `${weights.format}: ${weights.summary}. ` : '',
        this._t('worked.lower-bound')));
  }

  _renderVerdict(report) {
    const free = this._bytes(Math.abs(report.free_bytes));
    const usable = this._bytes(report.usable_bytes);
    const gpu = report.details && report.details.gpu;
    const el = this._out.verdict;
    el.className = `vb-verdict ${report.fits ? 'vb-fits' : 'vb-short'}`;
    replace(el,
      h('p', { class: 'vb-verdict-line' },
        h('strong', {}, this._t(report.fits ? 'verdict.fits' : 'verdict.short')),
        ` \u2014 ${this._t('verdict.per-gpu', this._bytes(report.total_bytes).text, usable.text)}`,
        gpu ? ` ${this._t('verdict.on', `${gpu.count > 1 ? `${gpu.count} \u00d7 ` : ''}${this._gpuName(gpu)}`)}` : '',
        '; ',
        report.fits ? this._t('verdict.free', free.text, this._exact(report.free_bytes))
          : this._t('verdict.short-by', free.text, this._exact(Math.abs(report.free_bytes)))),
      report.warnings.length ? h('ul', { class: 'vb-warnings', 'aria-label': this._t('verdict.warnings') },
        report.warnings.map((w) => h('li', {}, w))) : null,
      report.defaults_used.length ? h('p', { class: 'vb-defaults' },
        h('span', {}, this._t('verdict.defaults'), ' '),
        report.defaults_used.map((d, i) => [i ? ', ' : '', h('code', {}, d)])) : null);
  }

  _renderBar(report) {
    const scale = Math.max(report.capacity_bytes, report.total_bytes);
    const pct = (b) => `${(100 * b / scale).toFixed(3)}%`;
    const track = h('div', { class: 'vb-bar-track', role: 'img',
      'aria-label': this._t('bar.label', report.components.map((c) => `${c.label} ${this._bytes(c.bytes).text}`).join(', '),
        this._bytes(report.usable_bytes).text, this._bytes(report.capacity_bytes).text) });
    const capacity = h('div', { class: 'vb-bar-capacity', style: { width: pct(report.capacity_bytes) } });
    const headroom = h('div', { class: 'vb-bar-headroom',
      style: { left: pct(report.usable_bytes), width: pct(report.capacity_bytes - report.usable_bytes) },
      title: this._t('bar.headroom-kept') });
    append(track, capacity, headroom);
    let left = 0;
    report.components.forEach((c, i) => {
      if (c.bytes <= 0) return;
      const wide = c.bytes / scale > 0.09;
      append(track, h('div', {
        class: 'vb-bar-seg', title: `${c.label}: ${this._bytes(c.bytes).text}`,
        style: { left: pct(left), width: pct(c.bytes), background: colourOf(c.id, i) },
      }, wide ? h('span', {}, `${c.label} ${this._bytes(c.bytes).text}`) : null));
      left += c.bytes;
    });
    append(track,
      h('div', { class: 'vb-bar-line vb-usable', style: { left: pct(report.usable_bytes) } },
        h('span', {}, this._t('bar.usable', this._bytes(report.usable_bytes).text))),
      h('div', { class: 'vb-bar-line vb-cap', style: { left: pct(report.capacity_bytes) } },
        h('span', {}, this._t('bar.capacity', this._bytes(report.capacity_bytes).text))));
    const legend = h('ul', { class: 'vb-legend' }, report.components.map((c, i) =>
      h('li', {}, h('span', { class: 'vb-swatch', style: { background: colourOf(c.id, i) } }),
        `${c.label} ${this._bytes(c.bytes).text}`)),
    h('li', {}, h('span', { class: 'vb-swatch vb-swatch-headroom' }), this._t('bar.headroom')));
    replace(this._out.bar, this._heading('bar', this._t('bar.title')), track, legend);
  }

  _renderTable(report) {
    const rows = report.components.map((c, i) => h('tr', { 'data-component': c.id },
      h('th', { scope: 'row' }, h('span', { class: 'vb-swatch', style: { background: colourOf(c.id, i) } }), c.label),
      h('td', { class: 'vb-num' }, this._exact(c.bytes)),
      h('td', { class: 'vb-num' }, this._bytes(c.bytes).value,
        c.range && c.range.low !== c.range.high ? h('div', { class: 'vb-range', 'data-range': c.id },
          `${this._bytes(c.range.low).value}\u2013${this._bytes(c.range.high).value}`) : null),
      h('td', { class: 'vb-formula' }, c.formula),
      h('td', { class: 'vb-source' }, c.source)));
    const details = report.details || {};
    const engine = details.engine || {};
    const foot = [
      [this._t('table.total'), report.total_bytes, this._t('table.sum'), ''],
      [this._t('table.usable'), report.usable_bytes, (details.fit && details.fit.usable_formula) || '', engine.requested_formula ? `vLLM: ${engine.requested_formula}` : ''],
      [this._t('table.capacity'), report.capacity_bytes, details.gpu ? this._gpuName(details.gpu) : '', ''],
    ].map(([label, bytes, formula, source]) => h('tr', {},
      h('th', { scope: 'row' }, label),
      h('td', { class: 'vb-num' }, this._exact(bytes)),
      h('td', { class: 'vb-num' }, this._bytes(bytes).value),
      h('td', { class: 'vb-formula' }, formula),
      h('td', { class: 'vb-source' }, source)));
    replace(this._out.table, this._heading('table', this._t('table.title')),
      h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': this._t('table.region') }, h('table', { class: 'vb-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, this._t('table.component')), h('th', { scope: 'col' }, this._t('table.exact')),
          h('th', { scope: 'col' }, this._bytes(0).label), h('th', { scope: 'col' }, this._t('table.formula')),
          h('th', { scope: 'col' }, this._t('table.source')))),
        h('tbody', {}, rows), h('tfoot', {}, foot))));
  }

  /** llama.cpp's split: every GPU's layers and budget, and what stays in host memory. */
  _renderGpus(report) {
    const out = this._out.gpus;
    const split = report.details && report.details.split;
    out.hidden = !split;
    if (!split) {
      out.replaceChildren();
      out.removeAttribute('aria-labelledby');
      return;
    }
    out.setAttribute('aria-labelledby', this._headingId('gpus'));
    const cell = (b) => h('td', { class: 'vb-num' }, this._bytes(b).text);
    const rows = split.gpus.map((g) => h('tr', { 'data-gpu': g.gpu, class: g.gpu === split.heaviest ? 'vb-heaviest' : null },
      h('th', { scope: 'row' }, this._t(g.gpu === split.heaviest ? 'gpus.fullest' : 'gpus.gpu', g.gpu)),
      h('td', {}, g.used ? `${g.layers}${g.n_layers ? ` (${this._num(g.n_layers)})` : ''}` : this._t('gpus.idle')),
      cell(g.weights_bytes), cell(g.kv_bytes), cell(g.compute_bytes), cell(g.context_bytes), cell(g.total_bytes)));
    const cpu = split.first_gpu_layer;
    const host = h('tr', { 'data-gpu': 'host' },
      h('th', { scope: 'row' }, this._t('gpus.host')),
      h('td', {}, `token_embd${cpu > 0 ? this._t('gpus.host-layers', cpu - 1) : ''}${split.n_gpu_layers <= split.n_layer ? ' + output' : ''}`),
      cell(split.host_weights_bytes), cell(split.host_kv_bytes), h('td', {}, ''), h('td', {}, ''), cell(split.host_bytes));
    replace(out, this._heading('gpus', this._t('gpus.title', split.split_mode)),
      h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': this._t('gpus.region') }, h('table', { class: 'vb-table' },
        h('thead', {}, h('tr', {}, ['gpu', 'layers', 'weights', 'kv', 'compute', 'context', 'total']
          .map((t) => h('th', { scope: 'col' }, this._t(`gpus.col.${t}`))))),
        h('tbody', {}, rows, host))),
      h('p', { class: 'vb-help' }, this._t('gpus.fullest-decides'), ' ',
        split.pipeline_parallel ? this._t('gpus.pipelined', this._bytes(split.pipeline_copies_bytes).text) : ''),
      h('p', { class: 'vb-source' }, split.source));
  }

  _renderMetrics(report) {
    const items = Object.entries(report.metrics).map(([name, value]) => {
      let text;
      const range = report.ranges && report.ranges[name];
      if (name.endsWith('_bytes')) {
        text = `${this._bytes(value).text} (${this._exact(value)})`;
        if (Array.isArray(range) && range[0] !== range[1]) {
          text += `, ${this._t('metrics.range', `${this._bytes(range[0]).value}\u2013${this._bytes(range[1]).text}`)}`;
        }
      }
      else if (name === 'kv_bytes_per_token') text = this._exact(value);
      else if (name === 'max_concurrency') text = `${this._num(value)}\u00d7`;
      else if (name.endsWith('_tokens')) text = this._t('unit.tokens', this._num(value));
      else text = this._num(value);
      const label = this._tr.has(`metric.${name}`) ? this._t(`metric.${name}`) : name;
      return [h('dt', {}, label, ' ', h('code', {}, name)), h('dd', { 'data-metric': name }, text)];
    });
    const engine = (report.details && report.details.engine) || {};
    const formulas = Object.entries(engine).filter(([k, v]) => k.endsWith('_formula') && v)
      .map(([k, v]) => h('li', {}, h('code', {}, k.replace(/_formula$/, '')), ' ', v));
    replace(this._out.metrics, this._heading('metrics', this._t('metrics.title')),
      h('dl', { class: 'vb-metrics' }, items),
      formulas.length ? h('div', {}, h('h3', {}, engine.engine ? this._t('metrics.engine', engine.engine) : this._t('metrics.the-engine')),
        h('ul', { class: 'vb-engine-formulas' }, formulas),
        engine.source ? h('p', { class: 'vb-source' }, engine.source) : null) : null,
      this._measureView(report.details && report.details.measure));
  }

  /** A GPU's name as the report gives it; the custom card's in the page's language. */
  _gpuName(gpu) {
    return gpu.name === CUSTOM_GPU && this._state.gpumem !== '' ? this._t('gpu.custom') : gpu.name;
  }

  /** How to measure this scenario: the core's command line or script, and which output line is which metric. */
  _measureView(m) {
    if (!m || !m.text) return null;
    const code = h('pre', { class: 'vb-code', 'data-testid': 'measure-command', tabindex: '0' }, h('code', {}, m.text));
    const copy = h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'measure-copy' }, this._t('measure.copy'));
    copy.addEventListener('click', () => {
      const done = () => {
        copy.textContent = this._t('measure.copied');
        setTimeout(() => { copy.textContent = this._t('measure.copy'); }, 1500);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(m.text).then(done, () => {});
    });
    return h('div', { class: 'vb-measure', 'data-testid': 'measure' },
      h('h3', {}, this._t('measure.title'), ' ', copy),
      h('p', { class: 'vb-help' }, this._t(m.kind === 'command' ? 'measure.command' : 'measure.step')),
      code,
      h('ul', { class: 'vb-look-for' }, (m.look_for || []).map((r) =>
        h('li', {}, h('code', {}, r.metric), ' \u2190 ', r.line))),
      m.note ? h('p', { class: 'vb-help' }, m.note) : null);
  }

}
