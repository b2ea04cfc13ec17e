// The plan: solvers' answers, hints with Apply, GPU options with Use.

import { h, s, replace } from '../dom.js';
import { patchToState } from '../state.js';

export class PlanView {
  _renderPlan(plan) {
    const out = this._out.plan;
    if (!plan || !plan.ok) {
      replace(out, this._heading('plan', this._t('plan.title')),
        h('p', { class: 'vb-field-error' }, plan ? `${plan.error.path} ${this._message(plan.error)}` : this._t('plan.none')));
      return;
    }
    const na = this._t('plan.na');
    const tokens = (n) => this._t('unit.tokens', this._num(n));
    const solved = plan.max_batch !== undefined ? this._generationSolved(plan)
      : plan.max_seq_len !== undefined ? this._trainingSolved(plan)
      : plan.max_micro_batch !== undefined ? this._sampleSolved(plan) : [
      [this._t('plan.max-context'), plan.max_context_tokens !== undefined
        ? `${tokens(plan.max_context_tokens)}${plan.max_context_limit ? ` ${this._t('plan.model-limit', this._num(plan.max_context_limit))}` : ''}` : na, 'max-context'],
      [this._t('plan.max-concurrency'), plan.max_concurrency !== undefined ? this._num(plan.max_concurrency) : na, 'max-concurrency'],
      [this._t('plan.smallest-tp'), plan.smallest_tensor_parallel !== undefined && plan.smallest_tensor_parallel !== null
        ? this._num(plan.smallest_tensor_parallel) : this._t('plan.no-tp'), 'smallest-tp'],
    ];
    if (plan.max_seq_len === undefined && plan.max_gpu_layers !== undefined) {
      const g = plan.max_gpu_layers;
      solved.push([this._t('plan.max-layers'), g === null ? this._t('plan.no-layers')
        : `${this._t('plan.layers-of', this._num(g.n_gpu_layers), this._num(g.n_layer + 1))}${g.all_layers ? ` ${this._t('plan.all-layers')}` : ''}; ${
          this._t('plan.host', this._bytes(g.host_bytes).text)}`,
      'max-gpu-layers']);
    }
    const model = plan.model;
    if (model && model.params !== undefined) {
      solved.unshift([this._t('plan.params'),
        `${this._num(model.params)} (${this._num(model.active_params)})`, 'params']);
      const roles = (model.params_by_role || []).slice(0, 4)
        .map((r) => `${r.role} ${this._num(r.params)}`).join(', ');
      if (roles) solved.splice(1, 0, [this._t('plan.roles'), roles, 'params-by-role']);
    }
    const hints = (plan.hints || []).map((hint) => {
      const changes = patchToState(hint.patch, this._state);
      return h('li', {},
        h('strong', {}, hint.change), ' \u2014 ', hint.effect, ' ',
        changes ? this._actionButton(`hint:${hint.change}`, this._t('plan.apply'), this._t('plan.apply-name', hint.change), changes) : null);
    });
    const options = (plan.gpu_options || []).map((o) => h('tr', {},
      h('th', { scope: 'row' }, o.name, ' ', (() => {
        const changes = patchToState(o.patch, this._state);
        return changes ? this._actionButton(`use:${o.gpu}:${o.count}`, this._t('plan.use'),
          this._t('plan.use-name', `${o.count > 1 ? `${o.count} \u00d7 ` : ''}${o.name}`), changes) : null;
      })()),
      h('td', { class: 'vb-num' }, this._num(o.count)),
      h('td', { class: 'vb-num' }, this._bytes(o.memory_bytes).text),
      h('td', { class: 'vb-num' }, this._bytes(o.total_bytes).text),
      h('td', { class: 'vb-num' }, o.price_usd_per_hour === null || o.price_usd_per_hour === undefined
        ? this._t('plan.no-price') : this._t('plan.price', this._num(o.price_usd_per_hour)))));
    replace(out, this._heading('plan', this._t('plan.title')),
      h('dl', { class: 'vb-metrics' }, solved.map(([label, text, id]) =>
        [h('dt', {}, label), h('dd', { 'data-plan': id }, text)])),
      h('h3', {}, this._t('plan.hints')),
      hints.length ? h('ul', { class: 'vb-hints' }, hints) : h('p', { class: 'vb-help' }, this._t('plan.no-hints')),
      h('h3', {}, this._t('plan.options')),
      options.length ? h('div', { class: 'vb-scroll vb-options', tabindex: '0', role: 'region', 'aria-label': this._t('plan.options-region') }, h('table', { class: 'vb-table' },
        h('thead', {}, h('tr', {}, ['gpu', 'count', 'memory', 'needed', 'price'].map((c) => h('th', { scope: 'col' }, this._t(`plan.col.${c}`))))),
        h('tbody', {}, options))) : h('p', { class: 'vb-help' }, this._t('plan.no-options')));
  }


  /** The training plan's solvers: seq_len with and without headroom, micro-batch, fewest GPUs. */
  _trainingSolved(plan) {
    const tokens = (n) => (n > 0 ? this._t('unit.tokens', this._num(n)) : this._t('plan.no-seq'));
    const fewest = plan.fewest_gpus === null
      ? `${this._t('plan.no-gpus', this._num(plan.fewest_gpus_limit))}${plan.more_gpus_divide ? '' : ` ${this._t('plan.replicates')}`}`
      : `${this._num(plan.fewest_gpus)}${plan.more_gpus_divide ? ` ${this._t('plan.divides')}` : ''}`;
    return [
      [this._t('plan.max-seq'), tokens(plan.max_seq_len), 'max-seq-len'],
      [this._t('plan.max-seq-headroom'), tokens(plan.max_seq_len_with_headroom), 'max-seq-len-headroom'],
      [this._t('plan.max-mb'), plan.max_micro_batch > 0 ? this._num(plan.max_micro_batch) : this._t('plan.no-mb'), 'max-micro-batch'],
      [this._t('plan.fewest'), fewest, 'fewest-gpus'],
    ];
  }

  /** A diffusion fine-tune's plan: the largest micro-batch at the sample size; more GPUs only replicate. */
  _sampleSolved(plan) {
    return [
      [this._t('plan.max-mb-sample'), plan.max_micro_batch > 0 ? this._num(plan.max_micro_batch) : this._t('plan.no-mb'),
        'max-micro-batch'],
      [this._t('plan.fewest'), this._t('plan.replicated'), 'fewest-gpus'],
    ];
  }

  /** The image and video plan's solvers: size at the aspect ratio, frames, batch, fewest GPUs. */
  _generationSolved(plan) {
    const atLimit = (v, limit) => (v === limit ? ` ${this._t('plan.search-limit')}` : '');
    const out = [];
    if (plan.max_size !== undefined) {
      const sz = plan.max_size;
      out.push([this._t('plan.max-size'), sz === null ? this._t('plan.no-size')
        : `${this._t('unit.size', this._num(sz.width), this._num(sz.height))}${atLimit(sz.height, plan.max_size_limit.height)}`, 'max-size']);
    }
    if (plan.max_frames !== undefined) {
      out.push([this._t('plan.max-frames'), plan.max_frames === null ? this._t('plan.no-frames')
        : `${this._num(plan.max_frames)}${atLimit(plan.max_frames, plan.max_frames_limit)}`, 'max-frames']);
    }
    out.push([this._t('plan.max-batch'), plan.max_batch === null ? this._t('plan.no-mb')
      : `${this._num(plan.max_batch)}${atLimit(plan.max_batch, plan.max_batch_limit)}`, 'max-batch']);
    out.push([this._t('plan.fewest'), plan.fewest_gpus === null
      ? `${this._t('plan.no-gpus', this._num(plan.fewest_gpus_limit))}${plan.more_gpus_divide ? '' : ` ${this._t('plan.one-gpu')}`}`
      : `${this._num(plan.fewest_gpus)}${plan.more_gpus_divide ? ` ${this._t('plan.splits')}` : ''}`, 'fewest-gpus']);
    return out;
  }

  /** A button that applies a plan's patch; its name says what it applies, and
   *  focus comes back to it (or to the plan) once the figures are redrawn. */
  _actionButton(action, text, name, changes) {
    return h('button', { type: 'button', class: 'vb-apply', 'data-action': action, 'aria-label': name,
      onclick: () => { this._focusAction = action; this._setState(changes); } }, text);
  }
}
