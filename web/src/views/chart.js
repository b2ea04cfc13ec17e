// The chart of the per-GPU total against context (the module's sweep).

import { h, s, append, replace } from '../dom.js';
import { formatBytes, groupDigits, exactBytes } from '../format.js';
import { call } from '../module.js';
import { workloadOf } from '../state.js';

export class ChartView {
  _renderChart(sweep, report, plan) {
    const out = this._out.chart;
    const training = sweep && sweep.axis === 'seq_len';
    const title = training ? 'Per-GPU total vs seq_len' : 'Per-GPU total vs context';
    if (!sweep || !sweep.ok) {
      replace(out, this._heading('chart', title),
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
      'aria-label': `Per-GPU total against ${training ? `seq_len at micro-batch` : 'context at concurrency'} ${sweep.concurrency}: ${sweep.contexts.map((c, i) => `${groupDigits(c)} tokens ${formatBytes(sweep.totals[i]).text}`).join('; ')}` });
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
        training ? `seq_len (tokens per sample, log scale), micro-batch ${sweep.concurrency}`
          : `context (tokens per sequence, log scale), concurrency ${sweep.concurrency}`),
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
    // The solver's answer (the plan's longest length that keeps the headroom free), marked where it falls in range.
    const answer = plan && plan.ok ? (training ? plan.max_seq_len_with_headroom : plan.max_context_tokens) : undefined;
    const lo = Math.min(...sweep.contexts); const hi = Math.max(...sweep.contexts);
    let marked = null;
    if (answer > 0 && answer >= lo && answer <= hi) {
      const x = X(answer);
      append(svg, s('line', { x1: x, x2: x, y1: m.t, y2: H - m.b, class: 'vb-answer-line', 'data-testid': 'chart-answer' }),
        s('text', { x: x + (x > W / 2 ? -4 : 4), y: m.t + 12, 'text-anchor': x > W / 2 ? 'end' : 'start', class: 'vb-line-label' },
          `longest that fits: ${groupDigits(answer)}`));
      marked = `The vertical line marks the plan's longest ${training ? 'seq_len' : 'context'} that fits: ${groupDigits(answer)} tokens.`;
    }
    replace(out, this._heading('chart', title), svg,
      h('p', { class: 'vb-help' }, 'Filled points fit under the usable line; hollow red points do not.', marked ? ` ${marked}` : ''));
  }

  /** Context × concurrency: which pairs fit (the module's grid), drawn only
   *  while its section is open, since it costs a few milliseconds. */
  _renderGrid() {
  const out = this._out.grid;
  const training = workloadOf(this._state) === 'training';
  const [rowName, colName, colWhat] = training ? ['seq_len', 'micro-batch', 'samples per GPU']
    : ['context', 'concurrency', 'concurrent sequences'];
  const summary = h('summary', {}, `Fit map: ${rowName} \u00d7 ${colName}`);
  if (!out.open || !this._plannedText) {
    replace(out, summary);
    return;
  }
  const grid = call(this._module, 'grid', this._plannedText, 8, 8);
  if (!grid.ok) {
    replace(out, summary, h('p', { class: 'vb-field-error' }, `${grid.error.path} ${grid.error.message}`));
    return;
  }
  const n = grid.concurrencies.length;
  const rows = grid.contexts.map((ctx, i) => h('tr', {},
    h('th', { scope: 'row', class: 'vb-num' }, groupDigits(ctx)),
    grid.concurrencies.map((conc, j) => {
      const total = grid.totals[j * grid.contexts.length + i];
      const fits = conc <= grid.max_fitting_concurrency[i];
      return h('td', { class: `vb-num ${fits ? 'vb-cell-fit' : 'vb-cell-short'}`, 'data-fit': fits ? 'yes' : 'no',
        title: total === null ? 'beyond any real system' : `${groupDigits(ctx)} tokens \u00d7 ${conc}: ${exactBytes(total)}` },
      fits ? '\u2713 ' : '\u2717 ', total === null ? '\u2014' : formatBytes(total).value);
    })));
  replace(out, summary,
    h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': 'Fit map (scrollable table)' },
      h('table', { class: 'vb-table vb-map', 'data-testid': 'fit-map-table' },
        h('caption', { class: 'vb-help' }, `Per-GPU total in ${formatBytes(0).label} for each ${rowName} (rows) and number of ${colWhat} (columns); \u2713 fits in ${formatBytes(grid.usable_bytes).text} usable, \u2717 does not.`),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, rowName),
          grid.concurrencies.map((c) => h('th', { scope: 'col', class: 'vb-num' }, `\u00d7${c}`)))),
        h('tbody', {}, rows))),
    h('p', { class: 'vb-help' }, `Most ${colWhat} that fit at each ${rowName}: ${grid.contexts.map((c, i) => `${groupDigits(c)}: ${grid.max_fitting_concurrency[i]}${grid.max_fitting_concurrency[i] >= grid.concurrencies[n - 1] ? '+' : ''}`).join(', ')}.`));
  }
}
