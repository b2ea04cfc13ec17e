// The four workloads on the page: their inputs, the scenario each builds,
// their links, the module's answer for a workload it does not estimate yet,
// and a report of any workload drawn from its components and metrics.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { WAIT, useBrowser, openPage, scenarioWhen, hashParams } = require('./helpers.cjs');

let context;
useBrowser((c) => { context = c; });

const catalogOf = (page) => page.evaluate(async () => JSON.parse((await window.createVramBudget()).catalog()));
const optionValues = (page, testid) => page.getByTestId(testid).evaluate((sel) => [...sel.options].map((o) => o.value));

test('the workload choice: inference, fine-tuning, image, video, each with its own inputs', async () => {
  const page = await openPage(context, '#v=1');
  for (const w of ['inference', 'training', 'image', 'video']) assert.ok(await page.getByTestId(`workload-${w}`).isVisible(), w);
  assert.equal(await page.getByTestId('workload-inference').isChecked(), true);
  assert.equal(await page.getByTestId('training-fields').isVisible(), false);
  // Another workload's and another engine's inputs are built when first shown, not at load.
  for (const testid of ['training-fields', 'generation-fields', 'llama-fields', 'transformers-fields']) {
    assert.equal(await page.getByTestId(testid).locator('input, select').count(), 0, testid);
  }

  await page.getByTestId('workload-training').check();
  await page.getByTestId('training-fields').waitFor({ state: 'visible', ...WAIT });
  assert.equal(await page.getByTestId('engine').isVisible(), false);
  assert.equal(await page.getByTestId('generation-fields').isVisible(), false);

  // Allowed names come from the module (catalog().defaults), plus "default" (the core's own).
  const cat = await catalogOf(page);
  for (const [testid, field] of [['fw', 'framework'], ['method', 'method'], ['opt', 'optimizer'],
    ['prec', 'precision'], ['ckpt', 'checkpointing'], ['shard', 'sharding']]) {
    assert.deepEqual(await optionValues(page, testid), ['', ...cat.defaults.training[field]], field);
  }
  // Every input explains itself in one line.
  const fields = await page.getByTestId('training-fields').locator('.vb-field').all();
  assert.ok(fields.length >= 20);
  for (const f of fields) assert.ok((await f.locator('.vb-help').textContent()).length > 10);

  await page.getByTestId('workload-image').check();
  await page.getByTestId('generation-fields').waitFor({ state: 'visible', ...WAIT });
  assert.deepEqual(await optionValues(page, 'goff'), ['', ...cat.defaults.generation.offload]);
  assert.equal(await page.getByTestId('frames').isVisible(), false, 'frames are a video input');
  await page.getByTestId('workload-video').check();
  await page.getByTestId('frames').waitFor({ state: 'visible', ...WAIT });
  await page.close();
});

test('fine-tuning: the scenario the form builds, the module\u2019s answer, and the link', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=Qwen%2FQwen3-8B&ctx=8192');
  await page.getByTestId('workload-training').check();
  await page.getByTestId('method').selectOption('lora');
  await page.getByTestId('rank').fill('32');
  await page.getByTestId('targets').fill('q_proj, v_proj');
  await page.getByTestId('seq').fill('4K');
  await page.getByTestId('mb').fill('2');
  await page.getByTestId('opt').selectOption('adamw-8bit');
  await page.getByTestId('ckpt').selectOption('full');
  await page.getByTestId('shard').selectOption('fsdp');
  await page.getByTestId('count').fill('2');
  await page.getByTestId('training-more').locator('summary').click();
  await page.getByTestId('closs').selectOption('true');
  const sc = await scenarioWhen(page, (s) => s.training && s.training.chunked_loss === true && s.hardware.count === 2);
  assert.deepEqual(sc, {
    v: 1, workload: 'training', model: 'Qwen/Qwen3-8B', hardware: { count: 2 },
    training: { method: 'lora', lora_rank: 32, lora_targets: ['q_proj', 'v_proj'], optimizer: 'adamw-8bit',
      micro_batch: 2, seq_len: 4096, checkpointing: 'full', sharding: 'fsdp', chunked_loss: true },
  });
  assert.equal(await page.locator('[data-understood=seq]').textContent(), 'read as 4,096 tokens');

  // The module estimates it: the budget by category (optimizer state, gradients, saved activations), no notice.
  await page.waitForFunction(() => $vb('tr[data-component=optimizer_state]'), null, WAIT);
  const report = await page.evaluate(() => document.querySelector('vram-budget').report);
  assert.equal(report.ok, true);
  for (const id of ['weights', 'gradients', 'optimizer_state', 'activations']) {
    assert.ok(report.components.some((c) => c.id === id), `no ${id} line`);
  }
  assert.ok(report.metrics.peak_allocated_bytes > 0);
  assert.equal(await page.getByTestId('verdict').isVisible(), true);
  assert.equal(await page.getByTestId('notice').isVisible(), false);
  assert.equal(await page.getByTestId('error-banner').isVisible(), false);

  // The link holds the training inputs only, and reproduces the scenario.
  const q = hashParams(page);
  assert.equal(q.get('wl'), 'training');
  assert.equal(q.get('method'), 'lora');
  assert.equal(q.get('seq'), '4K');
  assert.equal(q.has('ctx'), false, 'inference inputs stay out of a training link');
  const again = await openPage(context, '', page.url());
  assert.deepEqual(await again.evaluate(() => document.querySelector('vram-budget').scenario), sc);
  assert.equal(await again.getByTestId('workload-training').isChecked(), true);
  assert.equal(await again.getByTestId('method').inputValue(), 'lora');
  await again.close();

  // Back to inference: the estimate and its figures return.
  await page.getByTestId('workload-inference').check();
  await page.getByTestId('verdict').waitFor({ state: 'visible', ...WAIT });
  assert.equal(await page.getByTestId('notice').isVisible(), false);
  assert.equal(hashParams(page).get('ctx'), '8192');
  await page.close();
});

test('image and video: the generation block, the pipeline id, and links that round-trip', async () => {
  const page = await openPage(context, '#v=1');
  await page.getByTestId('workload-image').check();
  // No pipeline named yet: a prompt, not an error.
  await page.getByTestId('notice').waitFor({ state: 'visible', ...WAIT });
  assert.match(await page.getByTestId('notice').textContent(), /name the pipeline/i);
  assert.equal(await page.getByTestId('error-banner').isVisible(), false);

  await page.getByTestId('pipe').fill('black-forest-labs/FLUX.1-dev');
  await page.getByTestId('gw').fill('1024');
  await page.getByTestId('gh').fill('768');
  await page.getByTestId('goff').selectOption('model');
  await page.getByTestId('tiling').selectOption('true');
  await page.getByTestId('generation-more').locator('summary').click();
  await page.getByTestId('cw').fill('transformer=nf4, text_encoder_2=int8');
  const image = await scenarioWhen(page, (s) => s.generation && s.generation.component_weights);
  assert.deepEqual(image, {
    v: 1, workload: 'image', model: 'black-forest-labs/FLUX.1-dev', hardware: { count: 1 },
    generation: { width: 1024, height: 768, offload: 'model', vae_tiling: true,
      component_weights: { transformer: 'nf4', text_encoder_2: 'int8' } },
  });
  // Estimated from the pipeline: the weights of its components and the peak phase's working set.
  await page.waitForFunction(() => $vb('tr[data-component=latents]'), null, WAIT);
  const imageReport = await page.evaluate(() => document.querySelector('vram-budget').report);
  assert.equal(imageReport.ok, true);
  assert.ok(imageReport.metrics.peak_allocated_bytes > 0);
  assert.equal(await page.getByTestId('error-banner').isVisible(), false);
  const imageUrl = page.url();

  await page.getByTestId('workload-video').check();
  await page.getByTestId('pipe').fill('Wan-AI/Wan2.1-T2V-14B');
  await page.getByTestId('frames').fill('81');
  const video = await scenarioWhen(page, (s) => s.workload === 'video' && s.generation.frames === 81);
  assert.equal(video.model, 'Wan-AI/Wan2.1-T2V-14B');
  assert.equal(video.generation.width, 1024);
  const videoUrl = page.url();

  for (const [url, want] of [[imageUrl, image], [videoUrl, video]]) {
    const again = await openPage(context, '', url);
    assert.deepEqual(await again.evaluate(() => document.querySelector('vram-budget').scenario), want);
    await again.close();
  }
  await page.close();
});

test('a bad value in a workload block is reported at its input', async () => {
  const page = await openPage(context, '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B');
  await page.getByTestId('mb').fill('0');
  const err = page.locator('[data-field=mb] .vb-field-error');
  await err.waitFor({ state: 'visible', ...WAIT });
  assert.match(await err.textContent(), /\/training\/micro_batch/);
  assert.equal(await page.getByTestId('mb').getAttribute('aria-invalid'), 'true');
  await page.close();
});

test('a report of any workload is drawn from its components and metrics', async () => {
  const page = await openPage(context, '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B');
  // A module answering a training scenario the way the contract describes (CONTRACT section 2).
  await page.evaluate(() => {
    const GiB = 2 ** 30;
    const report = {
      ok: true, v: 1, total_bytes: 70 * GiB, capacity_bytes: 79 * GiB, usable_bytes: 71 * GiB, free_bytes: 1 * GiB, fits: true,
      components: [
        { id: 'weights', label: 'Model weights', bytes: 16 * GiB, formula: 'w formula', source: 's' },
        { id: 'gradients', label: 'Gradients', bytes: 16 * GiB, formula: 'g formula', source: 's' },
        { id: 'optimizer_state', label: 'Optimizer state', bytes: 32 * GiB, formula: 'o formula', source: 's' },
        { id: 'saved_activations', label: 'Saved activations', bytes: 6 * GiB, formula: 'a formula', source: 's',
          range: { low: 5 * GiB, high: 7 * GiB } },
      ],
      metrics: { peak_allocated_bytes: 68 * GiB, peak_reserved_bytes: 70 * GiB, max_context_tokens: 8192 },
      ranges: { peak_reserved_bytes: [66 * GiB, 74 * GiB] },
      defaults_used: ['training.framework = transformers'], warnings: [],
    };
    const no = JSON.stringify({ ok: false, error: { path: '/workload', message: 'not in this stub' } });
    const el = document.querySelector('vram-budget');
    el._module = { estimate: () => JSON.stringify(report), plan: () => no, sweep: () => no, catalog: () => '{}' };
    el._setState({});
  });
  await page.getByTestId('verdict').waitFor({ state: 'visible', ...WAIT });
  for (const id of ['weights', 'gradients', 'optimizer_state', 'saved_activations']) {
    assert.ok(await page.locator(`tr[data-component=${id}]`).isVisible(), id);
  }
  assert.match(await page.locator('[data-metric=peak_reserved_bytes]').textContent(), /^70\.00 GiB .*range 66\.00\u201374\.00 GiB/);
  assert.equal(await page.locator('[data-range=saved_activations]').textContent(), '5.00\u20137.00');
  assert.equal(await page.locator('[data-metric=max_context_tokens]').textContent(), '8,192 tokens');
  assert.match(await page.getByTestId('verdict').textContent(), /Fits/);
  assert.equal(await page.getByTestId('notice').isVisible(), false);
  await page.close();
});

test('transformers generate: the version and max_new_tokens reach the scenario, the prefill and the link', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&engine=transformers&ctx=4096&hfv=4.44.2');
  await page.getByTestId('transformers-fields').waitFor({ state: 'visible', ...WAIT });
  const whole = await page.evaluate(() => document.querySelector('vram-budget').report.metrics.activation_bytes);
  await page.getByTestId('hfn').fill('1K');
  const sc = await scenarioWhen(page, (s) => s.inference && s.inference.transformers
    && s.inference.transformers.max_new_tokens === 1024);
  assert.equal(sc.inference.transformers.version, '4.44.2');
  // A 3,072-token prompt: its logits beside the final hidden states, hand-computed in tests/core/transformers_test.cpp.
  await page.waitForFunction((w) => document.querySelector('vram-budget').report.metrics.activation_bytes < w, whole, WAIT);
  const r = await page.evaluate(() => document.querySelector('vram-budget').report);
  assert.equal(r.metrics.activation_bytes, 2389693440);
  assert.equal(r.metrics.kv_cache_bytes, 536870912, 'the cache still holds the whole context');
  assert.equal(hashParams(page).get('hfn'), '1K');
  const again = await openPage(context, '', page.url());
  assert.deepEqual(await again.evaluate(() => document.querySelector('vram-budget').scenario), sc);
  assert.equal(await again.getByTestId('hfn').inputValue(), '1K');
  await again.close();
  await page.close();
});

test('no script error and no network request in these pages', () => {
  assert.deepEqual(context.pageErrors, []);
  assert.deepEqual(context.requests.filter((u) => !u.startsWith('file://')), []);
});

test('the article, step by step: each step sets the calculator to its point', async () => {
  const page = await openPage(context, '#v=1');
  const steps = await page.getByTestId('walk').locator('a[data-step]').evaluateAll((as) => as.map((a) => a.dataset.step));
  assert.ok(steps.length >= 7);
  for (const step of steps) {
    await page.locator(`a[data-step=${step}]`).click();
    const want = new URLSearchParams(new URL(await page.locator(`a[data-step=${step}]`).evaluate((a) => a.href)).hash.slice(1));
    await page.waitForFunction((w) => {
      const el = document.querySelector('vram-budget');
      const sc = el.scenario;
      return sc && el.report && (w.wl ? sc.workload === w.wl : !sc.workload) && (!w.gpu || sc.hardware.gpu === w.gpu);
    }, Object.fromEntries(want), WAIT);
    const report = await page.evaluate(() => document.querySelector('vram-budget').report);
    // Every step is a valid scenario: estimated, or (training) read in full and answered at /workload.
    assert.ok(report.ok || report.error.path === '/workload', `${step}: ${JSON.stringify(report.error)}`);
    if (step === 'weights') {
      await page.waitForFunction(() => $vb('[data-testid=weights-formula]').textContent.includes('26,000,000,000 B \u2248 24.21 GiB'), null, WAIT);
    }
    if (step === 'kv') assert.equal(report.fits, false);
  }
  await page.close();
});

test('scenario JSON: export, import back into the form per workload, and the copy-link button', async () => {
  const exported = [
    { v: 1, model: 'meta-llama/Llama-3.1-8B', weights: 'awq-int4', hardware: { gpu: 'L40S', count: 2 }, headroom: 0.15,
      inference: { engine: 'llama.cpp', context: 16384, concurrency: 2, llama_cpp: { n_gpu_layers: 20, tensor_split: [3, 1] } } },
    { v: 1, workload: 'training', model: { params: 7000000000 }, hardware: { count: 4 },
      training: { method: 'qlora', lora_targets: ['q_proj', 'v_proj'], seq_len: 4096, sharding: 'zero3', fp8: true } },
    { v: 1, workload: 'video', model: 'Wan-AI/Wan2.1-T2V-14B', hardware: { gpu: { name: 'custom GPU', memory_bytes: 24000000000 }, count: 1 },
      generation: { width: 832, height: 480, frames: 81, offload: 'model', component_weights: { transformer: 'fp8' } } },
  ];
  const page = await openPage(context, '#v=1');
  for (const sc of exported) {
    await page.getByTestId('scenario-details').locator('summary').first().click();
    await page.getByTestId('import').fill(JSON.stringify(sc));
    await page.getByTestId('import-load').click();
    await scenarioWhen(page, new Function(`return (s) => JSON.stringify(s) === ${JSON.stringify(JSON.stringify(sc))}`)());
    assert.equal(await page.getByTestId('import-status').textContent(), 'Loaded.');
    // What the page shows as the export is that scenario again.
    assert.deepEqual(JSON.parse(await page.getByTestId('scenario-json').textContent()), sc);
    await page.getByTestId('scenario-details').locator('summary').first().click();
  }
  // Fields the form has no input for are named, not silently dropped.
  await page.getByTestId('scenario-details').locator('summary').first().click();
  await page.getByTestId('import').fill(JSON.stringify({ v: 1, model: 'Qwen/Qwen3-8B', inference: { pipeline_parallel: 2 } }));
  await page.getByTestId('import-load').click();
  assert.match(await page.getByTestId('import-status').textContent(), /no input for \/inference\/pipeline_parallel/);
  await page.getByTestId('import').fill('{"v": 1,');
  await page.getByTestId('import-load').click();
  assert.match(await page.getByTestId('import-status').textContent(), /Not valid JSON/);

  // Copy link: the absolute link goes to the clipboard.
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true,
      value: { writeText: async (t) => { window.copied = t; } } });
  });
  await page.getByTestId('copy-link').click();
  await page.waitForFunction(() => window.copied, null, WAIT);
  const copied = await page.evaluate(() => window.copied);
  assert.equal(copied, page.url());
  assert.match(await page.getByTestId('copy-status').textContent(), /Link copied/);
  await page.close();
});

test('fit map: context × concurrency from the module\u2019s grid, drawn when opened, marked by symbol and colour', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=1');
  assert.equal(await page.getByTestId('fit-map-table').count(), 0, 'not computed while closed');
  await page.getByTestId('fit-map').locator('summary').click();
  const table = page.getByTestId('fit-map-table');
  await table.waitFor(WAIT);
  const grid = await page.evaluate(() => JSON.parse(document.querySelector('vram-budget')._module
    .grid(JSON.stringify(document.querySelector('vram-budget').scenario), 8, 8)));
  const cells = await table.locator('tbody td').evaluateAll((tds) => tds.map((td) => [td.dataset.fit, td.textContent]));
  assert.equal(cells.length, grid.contexts.length * grid.concurrencies.length);
  cells.forEach(([fit, text], k) => {
    const i = Math.floor(k / grid.concurrencies.length);
    const j = k % grid.concurrencies.length;
    assert.equal(fit, grid.concurrencies[j] <= grid.max_fitting_concurrency[i] ? 'yes' : 'no');
    assert.equal(text[0], fit === 'yes' ? '\u2713' : '\u2717');
  });
  assert.ok(cells.some(([f]) => f === 'yes') && cells.some(([f]) => f === 'no'));
  // It follows the inputs while open: redrawn for the larger card (waited for, not assumed after the change).
  const before = cells.filter(([f]) => f === 'yes').length;
  await page.getByTestId('gpu').selectOption('H200');
  // Counted again until the table drawn for the H200 shows more pairs, or the wait runs out.
  let after = 0;
  for (const end = Date.now() + WAIT.timeout; Date.now() < end; await page.waitForTimeout(100)) {
    const gpu = await page.evaluate(() => document.querySelector('vram-budget').scenario?.hardware?.gpu);
    after = await table.locator('tbody td[data-fit=yes]').count();
    if (gpu === 'H200' && after > before) break;
  }
  assert.ok(after > before, `a larger card fits more pairs (${after} against ${before})`);
  await page.close();
});

test('every input of every workload has a label and a one-line explanation', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&engine=llama.cpp');
  for (const w of ['inference', 'training', 'image', 'video']) {
    await page.getByTestId(`workload-${w}`).check();
    for (const more of await page.locator('details.vb-more').all()) {
      if (await more.isVisible() && !(await more.evaluate((d) => d.open))) await more.locator('summary').click();
    }
    const fields = await page.locator('.vb-form .vb-field').evaluateAll((fs) => fs
      .filter((f) => f.offsetParent !== null)
      .map((f) => ({ key: f.dataset.field, label: f.querySelector('label')?.textContent.trim() || '',
        help: f.querySelector('.vb-help')?.textContent.trim() || '' })));
    assert.ok(fields.length >= 8, `${w}: ${fields.length} inputs`);
    for (const f of fields) {
      assert.ok(f.label.length > 2, `${w}/${f.key}: no label`);
      assert.ok(f.help.length > 10, `${w}/${f.key}: no explanation`);
    }
    // Labels are distinct within a workload, so every control has its own name.
    const labels = fields.map((f) => f.label);
    assert.equal(new Set(labels).size, labels.length, `${w}: ${labels}`);
  }
  await page.close();
});

test('the training plan: seq_len and micro-batch answers, the fewest GPUs as a hint that applies', async () => {
  // 8B full fine-tune with AdamW under FSDP: about 16 B per parameter of states, more than one 80 GB card.
  const page = await openPage(context,
    '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B&method=full&opt=adamw&shard=fsdp&gpu=H100-SXM-80GB&n=1');
  const fewest = page.locator('[data-testid=plan] [data-plan=fewest-gpus]');
  await fewest.waitFor(WAIT);
  const n = Number((await fewest.textContent()).match(/^(\d+)/)[1]);
  assert.ok(n > 1, `fewest GPUs ${n}`);
  assert.match(await page.locator('[data-testid=plan] [data-plan=max-seq-len]').textContent(), /tokens|none/);
  const apply = page.locator(`[data-testid=plan] [data-action="hint:hardware.count = ${n}"]`);
  await apply.click();
  await page.waitForFunction((k) => document.querySelector('vram-budget').scenario?.hardware?.count === k, n, WAIT);
  // On that many GPUs the step fits, and the plan's answer for seq_len is a length now.
  await page.waitForFunction(() => {
    const d = document.querySelector('vram-budget');
    return d.report && d.report.ok && d.report.fits && d.plan && d.plan.ok && d.plan.max_seq_len > 0;
  }, null, WAIT);
  // The chart is against seq_len, with the plan's answer marked.
  await page.locator('[data-testid=chart-answer]').waitFor({ state: 'attached', ...WAIT });
  assert.match(await page.locator('[data-testid=sweep-chart]').getAttribute('aria-label'), /^Per-GPU total against seq_len at micro-batch/);
  const answer = await page.evaluate(() => document.querySelector('vram-budget').plan.max_seq_len_with_headroom);
  assert.match(await page.locator('[data-testid=sweep-chart] + .vb-help').textContent(), new RegExp(`longest seq_len that fits: ${answer.toLocaleString('en-US')} tokens`));
  await page.close();
});

test('freeze fine-tuning: the trainable-layers input reaches the scenario and the figures', async () => {
  const page = await openPage(context, '#v=1&wl=training&src=catalog&model=meta-llama%2FLlama-3.1-8B&method=freeze&tl=4');
  const sc = await scenarioWhen(page, (s) => s.training && s.training.method === 'freeze');
  assert.equal(sc.training.trainable_layers, 4);
  // Four decoder layers of 218,112,000 parameters: their fp32 master copy.
  // (DoRA is a LoRA variant: its checkbox reaches the scenario as use_dora, checked below on a LoRA link.)
  await page.waitForFunction(() => {
    const r = document.querySelector('vram-budget').report;
    return r && r.ok && r.components.some((c) => c.id === 'master_weights' && c.bytes === 4 * 218112000 * 4);
  }, null, WAIT);
  await page.close();
});

test('DoRA on a LoRA fine-tune: the checkbox reaches the scenario and the magnitudes the weights', async () => {
  const page = await openPage(context, '#v=1&wl=training&src=catalog&model=meta-llama%2FLlama-3.1-8B&method=lora&dora=true');
  const sc = await scenarioWhen(page, (s) => s.training && s.training.method === 'lora');
  assert.equal(sc.training.use_dora, true);
  await page.waitForFunction(() => {
    const r = document.querySelector('vram-budget').report;
    return r && r.ok && r.components.some((c) => c.id === 'weights' && c.formula.includes('DoRA magnitudes'));
  }, null, WAIT);
  await page.close();
});

test('fit map for training: seq_len × micro-batch from the module’s grid', async () => {
  const page = await openPage(context, '#v=1&wl=training&src=catalog&model=meta-llama%2FLlama-3.1-8B&method=lora&gpu=H100-SXM-80GB');
  await page.getByTestId('fit-map').locator('summary').click();
  const table = page.getByTestId('fit-map-table');
  await table.waitFor(WAIT);
  assert.equal(await page.getByTestId('fit-map').locator('summary').textContent(), 'Fit map: seq_len \u00d7 micro-batch');
  assert.equal(await table.locator('thead th').first().textContent(), 'seq_len');
  const grid = await page.evaluate(() => JSON.parse(document.querySelector('vram-budget')._module
    .grid(JSON.stringify(document.querySelector('vram-budget').scenario), 8, 8)));
  assert.deepEqual(grid.axes, ['seq_len', 'micro_batch']);
  const cells = await table.locator('tbody td').evaluateAll((tds) => tds.map((td) => td.dataset.fit));
  assert.equal(cells.length, grid.contexts.length * grid.concurrencies.length);
  assert.ok(cells.includes('yes') && cells.includes('no'), 'short sequences of one sample fit, long batches do not');
  await page.close();
});

test('the image plan: size, batch and switches that apply, a component format merged into the map', async () => {
  // FLUX.1-dev in bf16 on a 24 GB card: the weights alone do not fit.
  const page = await openPage(context, '#v=1&wl=image&pipe=black-forest-labs%2FFLUX.1-dev&gpu=RTX-4090&cw=text_encoder_2%3Dint8');
  const size = page.locator('[data-testid=plan] [data-plan=max-size]');
  await size.waitFor(WAIT);
  assert.match(await size.textContent(), /not even the smallest size/);
  assert.match(await page.locator('[data-testid=plan] [data-plan=fewest-gpus]').textContent(), /one GPU/);
  // The length × count map is for language models only.
  assert.equal(await page.getByTestId('fit-map').isVisible(), false);
  // The chart is against the image size (height, the width at the same ratio).
  assert.match(await page.locator('[data-testid=sweep-chart]').getAttribute('aria-label'), /^Per-GPU total against the size at batch 1: 256 \u00d7 256 px/);
  // nf4 for the transformer: its Apply merges it into the component formats already given.
  const apply = page.locator('[data-testid=plan] [data-action="hint:component_weights.transformer = nf4"]');
  await apply.click();
  const sc = await scenarioWhen(page, (s) => s.generation && s.generation.component_weights && s.generation.component_weights.transformer);
  assert.deepEqual(sc.generation.component_weights, { text_encoder_2: 'int8', transformer: 'nf4' });
  await page.waitForFunction(() => {
    const d = document.querySelector('vram-budget');
    return d.report && d.report.ok && d.report.fits && d.plan && d.plan.ok && d.plan.max_size && d.plan.max_size.height > 1024;
  }, null, WAIT);
  const plan = await page.evaluate(() => document.querySelector('vram-budget').plan);
  assert.match(await size.textContent(), new RegExp(`^${plan.max_size.width.toLocaleString('en-US')} \u00d7 ${plan.max_size.height.toLocaleString('en-US')} px`));
  // The plan's answer is marked on the chart.
  await page.locator('[data-testid=chart-answer]').waitFor({ state: 'attached', ...WAIT });
  assert.match(await page.locator('[data-testid=sweep-chart] + .vb-help').textContent(), /largest size that fits: [\d,]+ \u00d7 [\d,]+ px/);
  await page.close();
});

test('the video plan: frames against memory, and the fewest GPUs with the Wan scripts\u2019 split applied', async () => {
  const page = await openPage(context, '#v=1&wl=video&pipe=Wan-AI%2FWan2.1-T2V-14B&gpu=H100-SXM-80GB');
  const fewest = page.locator('[data-testid=plan] [data-plan=fewest-gpus]');
  await fewest.waitFor(WAIT);
  assert.match(await fewest.textContent(), /^2 \(Ulysses splits the tokens, FSDP the weights\)/);
  assert.match(await page.locator('[data-testid=sweep-chart]').getAttribute('aria-label'), /^Per-GPU total against the frames at batch 1: 1 frames/);
  await page.locator('[data-testid=plan] [data-action="hint:hardware.count = 2"]').click();
  const sc = await scenarioWhen(page, (s) => s.hardware && s.hardware.count === 2);
  assert.deepEqual(sc.generation, { sequence_parallel: 2, fsdp: true, text_encoder: 'sharded' });
  await page.waitForFunction(() => {
    const d = document.querySelector('vram-budget');
    return d.report && d.report.ok && d.report.fits && d.plan && d.plan.ok && d.plan.max_frames > 81;
  }, null, WAIT);
  await page.locator('[data-testid=chart-answer]').waitFor({ state: 'attached', ...WAIT });
  await page.close();
});

test('fine-tuning an image pipeline: framework diffusers takes a pipeline and the sample size, and plans the micro-batch', async () => {
  const page = await openPage(context, '#v=1&wl=training&fw=diffusers&pipe=black-forest-labs%2FFLUX.1-dev&w=nf4' +
    '&method=qlora&rank=4&opt=adamw-8bit&ckpt=full&gw=512&gh=768&te=cpu&vae=cpu&gpu=RTX-4090');
  const sc = await scenarioWhen(page, (s) => s.training && s.generation);
  assert.deepEqual(sc, {
    v: 1, workload: 'training', model: 'black-forest-labs/FLUX.1-dev', weights: 'nf4', hardware: { gpu: 'RTX-4090', count: 1 },
    training: { framework: 'diffusers', method: 'qlora', lora_rank: 4, optimizer: 'adamw-8bit', checkpointing: 'full' },
    generation: { width: 512, height: 768, text_encoder: 'cpu', vae: 'cpu' },
  });
  // The pipeline input instead of the language-model sources; the training inputs the core reads for it,
  // and of the generation block only the sample size and where the VAE and text encoders run.
  assert.equal(await page.getByTestId('pipe').isVisible(), true);
  assert.equal(await page.getByTestId('source-catalog').isVisible(), false);
  assert.equal(await page.getByTestId('seq').isVisible(), false, 'a diffusion fine-tune has no seq_len');
  assert.equal(await page.getByTestId('gw').isVisible(), true);
  assert.equal(await page.getByTestId('goff').isVisible(), false, 'inference offload is not a training input');
  // The module estimates it by category, and the plan answers the largest micro-batch.
  await page.waitForFunction(() => $vb('tr[data-component=activations]'), null, WAIT);
  const report = await page.evaluate(() => document.querySelector('vram-budget').report);
  assert.equal(report.ok, true);
  for (const id of ['weights', 'gradients', 'optimizer_state', 'activations', 'workspace']) {
    assert.ok(report.components.some((c) => c.id === id), `no ${id} line`);
  }
  const mb = page.locator('[data-testid=plan] [data-plan=max-micro-batch]');
  await mb.waitFor(WAIT);
  assert.match(await mb.textContent(), /^\d+$/);
  // The chart runs against the micro-batch, with the plan's answer marked.
  await page.locator('[data-testid=chart-answer]').waitFor({ state: 'attached', ...WAIT });
  const sweep = await page.evaluate(() => document.querySelector('vram-budget').sweep);
  assert.equal(sweep.axis, 'micro_batch');
  assert.match(await page.locator('[data-testid=sweep-chart]').getAttribute('aria-label'), /^Per-GPU total against the micro-batch/);
  // The link reproduces the scenario.
  const again = await openPage(context, '', page.url());
  assert.deepEqual(await again.evaluate(() => document.querySelector('vram-budget').scenario), sc);
  await again.close();
  await page.close();
});
