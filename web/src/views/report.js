// The report, whatever the workload: the weights line, the verdict, the budget
// bar, every component with its formula, the per-GPU split and the metrics.

import { h, s, append, replace } from '../dom.js';
import { formatBytes, groupDigits, exactBytes } from '../format.js';
import { colourOf, METRIC_LABELS } from '../labels.js';

export class ReportViews {
  _renderWorked(report) {
    const w = report.components.find((c) => c.id === 'weights');
    const weights = report.details && report.details.weights;
    replace(this._out.worked,
      this._heading('worked', 'Raw weights first'),
      w ? h('p', { class: 'vb-formula-line', 'data-testid': 'weights-formula' }, w.formula)
        : h('p', { 'data-testid': 'weights-formula' }, 'No weights component in this report.'),
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
    const capacity = h('div', { class: 'vb-bar-capacity', style: { width: pct(report.capacity_bytes) } });
    const headroom = h('div', { class: 'vb-bar-headroom',
      style: { left: pct(report.usable_bytes), width: pct(report.capacity_bytes - report.usable_bytes) },
      title: 'headroom kept free' });
    append(track, capacity, headroom);
    let left = 0;
    report.components.forEach((c, i) => {
      if (c.bytes <= 0) return;
      const wide = c.bytes / scale > 0.09;
      append(track, h('div', {
        class: 'vb-bar-seg', title: `${c.label}: ${formatBytes(c.bytes).text}`,
        style: { left: pct(left), width: pct(c.bytes), background: colourOf(c.id, i) },
      }, wide ? h('span', {}, `${c.label} ${formatBytes(c.bytes).text}`) : null));
      left += c.bytes;
    });
    append(track,
      h('div', { class: 'vb-bar-line vb-usable', style: { left: pct(report.usable_bytes) } },
        h('span', {}, `usable ${formatBytes(report.usable_bytes).text}`)),
      h('div', { class: 'vb-bar-line vb-cap', style: { left: pct(report.capacity_bytes) } },
        h('span', {}, `capacity ${formatBytes(report.capacity_bytes).text}`)));
    const legend = h('ul', { class: 'vb-legend' }, report.components.map((c, i) =>
      h('li', {}, h('span', { class: 'vb-swatch', style: { background: colourOf(c.id, i) } }),
        `${c.label} ${formatBytes(c.bytes).text}`)),
    h('li', {}, h('span', { class: 'vb-swatch vb-swatch-headroom' }), 'headroom'));
    replace(this._out.bar, this._heading('bar', 'Budget per GPU'), track, legend);
  }

  _renderTable(report) {
    const rows = report.components.map((c, i) => h('tr', { 'data-component': c.id },
      h('th', { scope: 'row' }, h('span', { class: 'vb-swatch', style: { background: colourOf(c.id, i) } }), c.label),
      h('td', { class: 'vb-num' }, exactBytes(c.bytes)),
      h('td', { class: 'vb-num' }, formatBytes(c.bytes).value,
        c.range && c.range.low !== c.range.high ? h('div', { class: 'vb-range', 'data-range': c.id },
          `${formatBytes(c.range.low).value}\u2013${formatBytes(c.range.high).value}`) : null),
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
      h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': 'Every figure (scrollable table)' }, h('table', { class: 'vb-table' },
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
      out.removeAttribute('aria-labelledby');
      return;
    }
    out.setAttribute('aria-labelledby', this._headingId('gpus'));
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
      h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': 'Per GPU (scrollable table)' }, h('table', { class: 'vb-table' },
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
      const range = report.ranges && report.ranges[name];
      if (name.endsWith('_bytes')) {
        text = `${formatBytes(value).text} (${exactBytes(value)})`;
        if (Array.isArray(range) && range[0] !== range[1]) {
          text += `, range ${formatBytes(range[0]).value}\u2013${formatBytes(range[1]).text}`;
        }
      }
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
        engine.source ? h('p', { class: 'vb-source' }, engine.source) : null) : null,
      this._measureView(report.details && report.details.measure));
  }

  /** How to measure this scenario: the core's command line or script, and which output line is which metric. */
  _measureView(m) {
    if (!m || !m.text) return null;
    const code = h('pre', { class: 'vb-code', 'data-testid': 'measure-command', tabindex: '0' }, h('code', {}, m.text));
    const copy = h('button', { type: 'button', class: 'vb-apply', 'data-testid': 'measure-copy' }, 'Copy');
    copy.addEventListener('click', () => {
      const done = () => { copy.textContent = 'Copied'; setTimeout(() => { copy.textContent = 'Copy'; }, 1500); };
      if (navigator.clipboard) navigator.clipboard.writeText(m.text).then(done, () => {});
    });
    return h('div', { class: 'vb-measure', 'data-testid': 'measure' },
      h('h3', {}, 'Measure it ', copy),
      h('p', { class: 'vb-help' }, m.kind === 'command'
        ? 'Start the engine with these settings; its startup log prints what this estimate predicts:'
        : 'Run one representative step with these settings; it prints the peaks:'),
      code,
      h('ul', { class: 'vb-look-for' }, (m.look_for || []).map((r) =>
        h('li', {}, h('code', {}, r.metric), ' \u2190 ', r.line))),
      m.note ? h('p', { class: 'vb-help' }, m.note) : null);
  }

}
