// The model type-ahead, number fields that take short forms ("32k", "7B",
// "24 GB") and say what they read, and "Paste config.json" that waits quietly.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { WAIT, useBrowser, openPage, scenarioWhen } = require('./helpers.cjs');

let context;
useBrowser((c) => { context = c; });

const optionIds = (page) => page.locator('[data-testid=model-options] [role=option][data-value]')
  .evaluateAll((os) => os.map((o) => o.dataset.value));

test('model type-ahead: search ids, families and sizes; pick with the keyboard or the mouse', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B');
  const cat = await page.evaluate(async () => JSON.parse((await window.createVramBudget()).catalog()));
  const input = page.getByTestId('model');
  assert.equal(await input.getAttribute('role'), 'combobox');

  // Opened with the arrow key: the whole catalog, sorted by id.
  await input.focus();
  await page.keyboard.press('ArrowDown');
  const all = await optionIds(page);
  assert.equal(all.length, Math.min(60, cat.models.length));
  assert.deepEqual(all, [...all].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
  assert.equal(await input.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('model-options').isVisible(), false);
  assert.equal(await input.inputValue(), 'meta-llama/Llama-3.1-8B');

  // Words narrow it: part of an id and a size.
  await input.fill('qwen3 8b');
  const q = await optionIds(page);
  assert.ok(q.includes('Qwen/Qwen3-8B'), q.join());
  for (const id of q) assert.match(id.toLowerCase(), /qwen3/);
  // A family (model_type) and a size in billions.
  await input.fill('mixtral');
  assert.ok((await optionIds(page)).every((id) => /mixtral/i.test(id)));
  await input.fill('70b');
  const big = await optionIds(page);
  assert.ok(big.length > 0);
  for (const id of big) {
    const m = cat.models.find((x) => x.id === id);
    assert.ok(Math.abs(m.params / 1e9 - 70) <= 10.5, `${id}: ${m.params}`);
  }

  // Keyboard pick: the active option is announced, Enter takes it.
  await input.fill('qwen3 8b');
  const first = (await optionIds(page))[0];
  await page.keyboard.press('ArrowDown');
  const second = (await optionIds(page))[1] || first;
  const activeId = await input.getAttribute('aria-activedescendant');
  assert.equal(await page.locator(`[id="${activeId}"]`).getAttribute('data-value'), second);
  await page.keyboard.press('Enter');
  await scenarioWhen(page, new Function(`return (s) => s.model === ${JSON.stringify(second)}`)());
  assert.equal(await input.inputValue(), second);

  // Mouse pick.
  await input.fill('gemma');
  const gemma = page.locator('[data-testid=model-options] [role=option][data-value]').first();
  const gid = await gemma.getAttribute('data-value');
  await gemma.click();
  await scenarioWhen(page, new Function(`return (s) => s.model === ${JSON.stringify(gid)}`)());

  // Text that names no catalog model goes to the module, which names the error at the input.
  await input.fill('nobody/NoSuchModel-1B');
  await page.keyboard.press('Enter');
  const err = page.locator('[data-field=model] .vb-field-error');
  await err.waitFor({ state: 'visible', ...WAIT });
  assert.match(await err.textContent(), /\/model/);
  await page.close();
});

test('number fields take 32k, 128K, 7B, 1.5e9 and 24 GB, and say what they read', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B');
  const understood = (key) => page.locator(`[data-understood=${key}]`).textContent();

  await page.getByTestId('context').fill('32k');
  await scenarioWhen(page, (s) => s.inference.context === 32000);
  assert.equal(await understood('context'), 'read as 32,000 tokens');
  await page.getByTestId('context').fill('128K');
  await scenarioWhen(page, (s) => s.inference.context === 131072);
  assert.equal(await understood('context'), 'read as 131,072 tokens');
  await page.getByTestId('context').fill('8192');
  await scenarioWhen(page, (s) => s.inference.context === 8192);
  assert.equal(await page.locator('[data-understood=context]').isVisible(), false, 'a plain number needs no reading');

  // Something that is not a number goes as typed, and the module names it.
  await page.getByTestId('context').fill('32q');
  const ctxErr = page.locator('[data-field=context] .vb-field-error');
  await ctxErr.waitFor({ state: 'visible', ...WAIT });
  assert.match(await ctxErr.textContent(), /\/inference\/context/);
  await page.getByTestId('context').fill('4k');

  await page.getByTestId('gpumem').fill('24 GB');
  let sc = await scenarioWhen(page, (s) => typeof s.hardware.gpu === 'object');
  assert.equal(sc.hardware.gpu.memory_bytes, 24000000000);
  assert.equal(await understood('gpumem'), 'read as 24,000,000,000 B (22.35 GiB, 24.00 GB)');
  await page.waitForFunction(() => /22\.35 GiB/.test($vb('[data-testid=results]').textContent), null, WAIT);
  await page.getByTestId('gpumem').fill('24GiB');
  sc = await scenarioWhen(page, (s) => s.hardware.gpu.memory_bytes === 24 * 2 ** 30);
  await page.getByTestId('gpumem').fill('');
  await scenarioWhen(page, (s) => s.hardware.gpu === undefined);

  await page.getByTestId('source-params').check();
  await page.getByTestId('params').fill('7B');
  await scenarioWhen(page, (s) => s.model.params === 7e9);
  assert.equal(await understood('params'), 'read as 7,000,000,000 parameters');
  await page.waitForFunction(() => $vb('[data-testid=weights-formula]').textContent.includes('7,000,000,000 params'), null, WAIT);
  await page.getByTestId('params').fill('1.5e9');
  await scenarioWhen(page, (s) => s.model.params === 1500000000);
  assert.equal(await understood('params'), 'read as 1,500,000,000 parameters');
  await page.close();
});

test('choosing "Paste config.json" shows no error before anything is pasted', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B');
  await page.getByTestId('source-config').check();
  await page.getByTestId('notice').waitFor({ state: 'visible', ...WAIT });
  assert.match(await page.getByTestId('notice').textContent(), /paste the model.s config\.json/i);
  assert.equal(await page.getByTestId('error-banner').isVisible(), false);
  assert.equal(await page.locator('.vb-field-error:visible').count(), 0);
  assert.equal(await page.getByTestId('config').getAttribute('aria-invalid'), null);
  assert.equal(await page.getByTestId('verdict').isVisible(), false, 'no figures of another model');
  assert.equal(await page.evaluate(() => document.querySelector('vram-budget').report.pending), true);
  await page.close();
});

test('the quantity reader on its own (VramBudgetElement.parseQuantity)', async () => {
  const page = await openPage(context, '#v=1');
  const got = await page.evaluate(() => {
    const p = window.VramBudgetElement.parseQuantity;
    return [p('32k', 'tokens'), p('128K', 'tokens'), p('7B', 'params'), p('1.5e9', 'params'), p('24 GB', 'bytes'),
      p('80GiB', 'bytes'), p('1,000', 'count'), p('2k', 'count'), p('7 B', 'params'), p('x', 'tokens'), p('', 'tokens'),
      p('1.1B', 'params')].map((r) => r.value);
  });
  assert.deepEqual(got, [32000, 131072, 7e9, 1.5e9, 24e9, 80 * 2 ** 30, 1000, 2000, 7e9, 'x', undefined, 1.1e9]);
  await page.close();
});

test('a custom GPU may give its compute capability: it reaches the scenario, the link and the MXFP4 padding', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=openai%2Fgpt-oss-20b&mem=80%20GB');
  await page.getByTestId('gpucc').fill('8.0');
  const sc = await scenarioWhen(page, (s) => s.hardware.gpu.compute_capability === 8);
  assert.equal(sc.hardware.gpu.memory_bytes, 80e9);
  // vLLM on sm80 runs MXFP4 experts through Marlin, which pads them.
  await page.waitForFunction(() => /Marlin MoE/.test($vb('[data-testid=results]').textContent), null, WAIT);
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('cc') === '8.0', null, WAIT);
  // Not a number: the module's error names the field.
  await page.getByTestId('gpucc').fill('sm80');
  const err = page.locator('[data-field=gpucc] .vb-field-error');
  await err.waitFor({ state: 'visible', ...WAIT });
  assert.match(await err.textContent(), /compute_capability/);
  // Without a custom GPU the field is not part of the scenario.
  await page.getByTestId('gpucc').fill('');
  await page.getByTestId('gpumem').fill('');
  await scenarioWhen(page, (s) => s.hardware.gpu === undefined);
  await page.close();
});

test('a custom GPU may give its SM count: it reaches the scenario, the link and the context formula', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&mem=24%20GB&cc=8.9');
  await page.getByTestId('gpusm').fill('58');
  const sc = await scenarioWhen(page, (s) => s.hardware.gpu.sm_count === 58);
  assert.equal(sc.hardware.gpu.compute_capability, 8.9);
  // The driver reserves a stack for each of the 58 SMs' resident threads.
  await page.waitForFunction(() => /58 SMs/.test($vb('[data-testid=results]').textContent), null, WAIT);
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('sm') === '58', null, WAIT);
  // Zero SMs: the module's error names the field.
  await page.getByTestId('gpusm').fill('0');
  const err = page.locator('[data-field=gpusm] .vb-field-error');
  await err.waitFor({ state: 'visible', ...WAIT });
  assert.match(await err.textContent(), /sm_count/);
  await page.close();
});
