// The chart of the per-GPU total against context (the module's sweep).

import { h, s, append, replace } from '../dom.js';
import { call } from '../module.js';
import { workloadOf, usesPipeline } from '../state.js';

/** Per sweep axis: the string table's keys for its title, label, axis, unit and marked answer. */
const CHART_WORDS = {
  context: { title: 'chart.title', label: 'chart.label', axis: 'chart.axis', unit: 'unit.tokens', marked: 'chart.marked' },
  seq_len: { title: 'chart.title-seq', label: 'chart.label-seq', axis: 'chart.axis-seq', unit: 'unit.tokens', marked: 'chart.marked-seq' },
  height: { title: 'chart.title-size', label: 'chart.label-size', axis: 'chart.axis-size', unit: 'unit.px', marked: 'chart.marked-size' },
  frames: { title: 'chart.title-frames', label: 'chart.label-frames', axis: 'chart.axis-frames', unit: 'unit.frames', marked: 'chart.marked-frames' },
  batch: { title: 'chart.title-batch', label: 'chart.label-batch', axis: 'chart.axis-batch', unit: 'unit.samples', marked: 'chart.marked-batch' },
  micro_batch: { title: 'chart.title-mb', label: 'chart.label-mb', axis: 'chart.axis-mb', unit: 'unit.samples', marked: 'chart.marked-mb' },
};

/** The plan's answer on the sweep's axis (the largest value that fits), if it has one. */
function planAnswer(plan, axis) {
  switch (axis) {
    case 'seq_len': return plan.max_seq_len_with_headroom;
    case 'height': return plan.max_size ? plan.max_size.height : undefined;
    case 'frames': return plan.max_frames === null ? undefined : plan.max_frames;
    case 'batch': return plan.max_batch === null ? undefined : plan.max_batch;
    case 'micro_batch': return plan.max_micro_batch;
    default: return plan.max_context_tokens;
  }
}

export class ChartView {
  _renderChart(sweep, report, plan) {
    const out = this._out.chart;
    // The axis names the table of words: context (inference), seq_len (training), height, frames or batch (generation).
    const axis = sweep && sweep.ok ? sweep.axis : ({ training: 'seq_len', image: 'height', video: 'frames' }[workloadOf(this._state)] || 'context');
    const words = CHART_WORDS[axis] || CHART_WORDS.context;
    const title = this._t(words.title);
    if (!sweep || !sweep.ok) {
      replace(out, this._heading('chart', title),
        h('p', { class: 'vb-field-error' }, sweep ? this._message(sweep.error) : this._t('chart.none')));
      return;
    }
    // A point's name: tokens, or W × H px, frames, samples.
    const pointName = (c, i) => (axis === 'height' ? this._t('unit.size', this._num(sweep.widths[i]), this._num(c))
      : this._t(words.unit, this._num(c)));
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
      'aria-label': this._t(words.label, this._num(sweep.concurrency),
        sweep.contexts.map((c, i) => `${pointName(c, i)} ${this._bytes(sweep.totals[i]).text}`).join('; ')) });
    for (let g = 0; g <= yMax; g += step) {
      const y = Y(g * 2 ** 30);
      append(svg, s('line', { x1: m.l, x2: W - m.r, y1: y, y2: y, class: 'vb-grid' }),
        s('text', { x: m.l - 6, y: y + 4, 'text-anchor': 'end', class: 'vb-tick' }, `${this._num(g)} ${this._bytes(0).label}`));
    }
    let lastLabelX = -Infinity;  // skip a tick label that would overlap the previous one
    sweep.contexts.forEach((c) => {
      append(svg, s('line', { x1: X(c), x2: X(c), y1: H - m.b, y2: H - m.b + 4, class: 'vb-axis' }));
      if (X(c) - lastLabelX < 48) return;
      lastLabelX = X(c);
      append(svg, s('text', { x: X(c), y: H - m.b + 16, 'text-anchor': 'middle', class: 'vb-tick' }, this._num(c)));
    });
    append(svg,
      s('text', { x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle', class: 'vb-axis-label' },
        this._t(words.axis, this._num(sweep.concurrency))),
      s('line', { x1: m.l, x2: W - m.r, y1: H - m.b, y2: H - m.b, class: 'vb-axis' }),
      s('line', { x1: m.l, x2: W - m.r, y1: Y(sweep.capacity_bytes), y2: Y(sweep.capacity_bytes), class: 'vb-cap-line' }),
      s('text', { x: W - m.r - 4, y: Y(sweep.capacity_bytes) - 5, 'text-anchor': 'end', class: 'vb-line-label' },
        this._t('bar.capacity', this._bytes(sweep.capacity_bytes).text)),
      s('line', { x1: m.l, x2: W - m.r, y1: Y(sweep.usable_bytes), y2: Y(sweep.usable_bytes), class: 'vb-usable-line' }),
      s('text', { x: m.l + 6, y: Y(sweep.usable_bytes) - 5, class: 'vb-line-label vb-usable-label' },
        this._t('bar.usable', this._bytes(sweep.usable_bytes).text)));
    const d = sweep.contexts.map((c, i) => `${i ? 'L' : 'M'}${X(c).toFixed(1)},${Y(sweep.totals[i]).toFixed(1)}`).join(' ');
    append(svg, s('path', { d, class: 'vb-total-line' }));
    sweep.contexts.forEach((c, i) => append(svg, s('circle', {
      cx: X(c), cy: Y(sweep.totals[i]), r: 4, class: sweep.fits[i] ? 'vb-pt-fit' : 'vb-pt-short',
    }, s('title', {}, this._t('chart.point', pointName(c, i), this._bytes(sweep.totals[i]).text,
      this._exact(sweep.totals[i]), sweep.fits[i])))));
    // The solver's answer (the plan's longest length that keeps the headroom free), marked where it falls in range.
    const answer = plan && plan.ok ? planAnswer(plan, axis) : undefined;
    const lo = Math.min(...sweep.contexts); const hi = Math.max(...sweep.contexts);
    let marked = null;
    if (answer > 0 && answer >= lo && answer <= hi) {
      const x = X(answer);
      append(svg, s('line', { x1: x, x2: x, y1: m.t, y2: H - m.b, class: 'vb-answer-line', 'data-testid': 'chart-answer' }),
        s('text', { x: x + (x > W / 2 ? -4 : 4), y: m.t + 12, 'text-anchor': x > W / 2 ? 'end' : 'start', class: 'vb-line-label' },
          this._t(axis === 'context' || axis === 'seq_len' ? 'chart.answer' : 'chart.answer-most', this._num(answer))));
      marked = this._t(words.marked, axis === 'height' ? this._t('unit.size', this._num(plan.max_size.width), this._num(answer))
        : this._t(words.unit, this._num(answer)));
    }
    replace(out, this._heading('chart', title), svg,
      h('p', { class: 'vb-help' }, this._t('chart.points'), marked ? ` ${marked}` : ''));
  }

  /** Context × concurrency: which pairs fit (the module's grid), drawn only
   *  while its section is open, since it costs a few milliseconds. */
  _renderGrid() {
  const out = this._out.grid;
  // The grid is length × count for language models; image and video have the sweep and the plan.
  out.hidden = usesPipeline(this._state);
  if (out.hidden) return;
  const training = workloadOf(this._state) === 'training';
  const [rowName, colName, colWhat] = training
    ? ['seq_len', this._t('map.micro-batch'), this._t('map.samples')]
    : [this._t('map.context'), this._t('map.concurrency'), this._t('map.sequences')];
  const summary = h('summary', {}, this._t('map.title', rowName, colName));
  if (!out.open || !this._plannedText) {
    replace(out, summary);
    return;
  }
  const grid = call(this._module, 'grid', this._plannedText, 8, 8);
  if (!grid.ok) {
    replace(out, summary, h('p', { class: 'vb-field-error' }, `${grid.error.path} ${this._message(grid.error)}`));
    return;
  }
  const n = grid.concurrencies.length;
  const rows = grid.contexts.map((ctx, i) => h('tr', {},
    h('th', { scope: 'row', class: 'vb-num' }, this._num(ctx)),
    grid.concurrencies.map((conc, j) => {
      const total = grid.totals[j * grid.contexts.length + i];
      const fits = conc <= grid.max_fitting_concurrency[i];
      return h('td', { class: `vb-num ${fits ? 'vb-cell-fit' : 'vb-cell-short'}`, 'data-fit': fits ? 'yes' : 'no',
        title: total === null ? this._t('map.beyond') : `${this._t('unit.tokens', this._num(ctx))} \u00d7 ${conc}: ${this._exact(total)}` },
      fits ? '\u2713 ' : '\u2717 ', total === null ? '\u2014' : this._bytes(total).value);
    })));
  replace(out, summary,
    h('div', { class: 'vb-scroll', tabindex: '0', role: 'region', 'aria-label': this._t('map.region') },
      h('table', { class: 'vb-table vb-map', 'data-testid': 'fit-map-table' },
        h('caption', { class: 'vb-help' }, this._t('map.caption', this._bytes(0).label, rowName, colWhat, this._bytes(grid.usable_bytes).text)),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, rowName),
          grid.concurrencies.map((c) => h('th', { scope: 'col', class: 'vb-num' }, `\u00d7${c}`)))),
        h('tbody', {}, rows))),
    h('p', { class: 'vb-help' }, this._t('map.most', colWhat, rowName, grid.contexts.map((c, i) =>
      `${this._num(c)}: ${grid.max_fitting_concurrency[i]}${grid.max_fitting_concurrency[i] >= grid.concurrencies[n - 1] ? '+' : ''}`))));
  }
}
