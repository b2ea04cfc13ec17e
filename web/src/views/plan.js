// The plan: solvers' answers, hints with Apply, GPU options with Use.

import { h, s, replace } from '../dom.js';
import { formatBytes, groupDigits } from '../format.js';
import { patchToState } from '../state.js';

export class PlanView {
  _renderPlan(plan) {
    const out = this._out.plan;
    if (!plan || !plan.ok) {
      replace(out, this._heading('plan', 'Plan'),
        h('p', { class: 'vb-field-error' }, plan ? `${plan.error.path} ${plan.error.message}` : 'no plan'));
      return;
    }
    const na = 'not available for this model';
    const solved = plan.max_seq_len !== undefined ? this._trainingSolved(plan) : [
      ['Longest context that fits', plan.max_context_tokens !== undefined
        ? `${groupDigits(plan.max_context_tokens)} tokens${plan.max_context_limit ? ` (model limit ${groupDigits(plan.max_context_limit)})` : ''}` : na, 'max-context'],
      ['Most concurrent sequences at this context', plan.max_concurrency !== undefined ? groupDigits(plan.max_concurrency) : na, 'max-concurrency'],
      ['Smallest tensor parallel that fits', plan.smallest_tensor_parallel !== undefined && plan.smallest_tensor_parallel !== null
        ? groupDigits(plan.smallest_tensor_parallel) : 'none up to 8 GPUs', 'smallest-tp'],
    ];
    if (plan.max_seq_len === undefined && plan.max_gpu_layers !== undefined) {
      const g = plan.max_gpu_layers;
      solved.push(['Most layers on the GPU(s) (llama.cpp n_gpu_layers)', g === null ? 'none: not even 0 layers fit'
        : `${groupDigits(g.n_gpu_layers)} of ${groupDigits(g.n_layer + 1)}${g.all_layers ? ' (every layer and the output)' : ''}; host memory ${formatBytes(g.host_bytes).text}`,
      'max-gpu-layers']);
    }
    const model = plan.model;
    if (model && model.params !== undefined) {
      solved.unshift(['Parameters (active per token)',
        `${groupDigits(model.params)} (${groupDigits(model.active_params)})`, 'params']);
      const roles = (model.params_by_role || []).slice(0, 4)
        .map((r) => `${r.role} ${groupDigits(r.params)}`).join(', ');
      if (roles) solved.splice(1, 0, ['Largest parameter groups', roles, 'params-by-role']);
    }
    const hints = (plan.hints || []).map((hint) => {
      const changes = patchToState(hint.patch);
      return h('li', {},
        h('strong', {}, hint.change), ' \u2014 ', hint.effect, ' ',
        changes ? this._actionButton(`hint:${hint.change}`, 'Apply', `Apply: ${hint.change}`, changes) : null);
    });
    const options = (plan.gpu_options || []).map((o) => h('tr', {},
      h('th', { scope: 'row' }, o.name, ' ', (() => {
        const changes = patchToState(o.patch);
        return changes ? this._actionButton(`use:${o.gpu}:${o.count}`, 'Use',
          `Use ${o.count > 1 ? `${o.count} \u00d7 ` : ''}${o.name}`, changes) : null;
      })()),
      h('td', { class: 'vb-num' }, groupDigits(o.count)),
      h('td', { class: 'vb-num' }, formatBytes(o.memory_bytes).text),
      h('td', { class: 'vb-num' }, formatBytes(o.total_bytes).text),
      h('td', { class: 'vb-num' }, o.price_usd_per_hour === null || o.price_usd_per_hour === undefined
        ? 'no price' : `$${groupDigits(o.price_usd_per_hour)}`)));
    replace(out, this._heading('plan', 'Plan'),
      h('dl', { class: 'vb-metrics' }, solved.map(([label, text, id]) =>
        [h('dt', {}, label), h('dd', { 'data-plan': id }, text)])),
      h('h3', {}, 'What would change the picture'),
      hints.length ? h('ul', { class: 'vb-hints' }, hints) : h('p', { class: 'vb-help' }, 'No hints for this scenario.'),
      h('h3', {}, 'GPU options that fit, cheapest first'),
      options.length ? h('div', { class: 'vb-scroll vb-options', tabindex: '0', role: 'region', 'aria-label': 'GPU options (scrollable)' }, h('table', { class: 'vb-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, 'GPU'), h('th', { scope: 'col' }, 'Count'),
          h('th', { scope: 'col' }, 'Memory each'), h('th', { scope: 'col' }, 'Needed each'),
          h('th', { scope: 'col' }, 'USD/h (whole set)'))),
        h('tbody', {}, options))) : h('p', { class: 'vb-help' }, 'No catalogued GPU set fits.'));
  }


  /** The training plan's solvers: seq_len with and without headroom, micro-batch, fewest GPUs. */
  _trainingSolved(plan) {
    const tokens = (n) => (n > 0 ? `${groupDigits(n)} tokens` : 'none: not even the shortest fits');
    const fewest = plan.fewest_gpus === null
      ? `none up to ${groupDigits(plan.fewest_gpus_limit)}${plan.more_gpus_divide ? '' : ' (this sharding replicates the states: more GPUs add replicas, not room)'}`
      : `${groupDigits(plan.fewest_gpus)}${plan.more_gpus_divide ? ' (the sharding divides the states)' : ''}`;
    return [
      ['Longest seq_len that fits the whole card', tokens(plan.max_seq_len), 'max-seq-len'],
      ['Longest seq_len keeping the headroom free', tokens(plan.max_seq_len_with_headroom), 'max-seq-len-headroom'],
      ['Largest micro-batch at this seq_len', plan.max_micro_batch > 0 ? groupDigits(plan.max_micro_batch) : 'none', 'max-micro-batch'],
      ['Fewest GPUs of this model', fewest, 'fewest-gpus'],
    ];
  }

  /** A button that applies a plan's patch; its name says what it applies, and
   *  focus comes back to it (or to the plan) once the figures are redrawn. */
  _actionButton(action, text, name, changes) {
    return h('button', { type: 'button', class: 'vb-apply', 'data-action': action, 'aria-label': name,
      onclick: () => { this._focusAction = action; this._setState(changes); } }, text);
  }
}
