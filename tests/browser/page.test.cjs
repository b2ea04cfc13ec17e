// Browser test of web/index.html opened from file:// with no network.
// Run: node --test tests/browser/   (needs Debian's /usr/bin/chromium and web/vram-budget.js built)
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { chromium } = require('playwright-core');
const { renderAllSections } = require('./helpers.cjs');

const ROOT = path.resolve(__dirname, '..', '..');
const PAGE_URL = pathToFileURL(path.join(ROOT, 'web', 'index.html')).href;
// The README's screenshot is refreshed only on request (UPDATE_SCREENSHOT=1);
// ordinary runs write to test-results/ (ignored by git).
const SHOTS = process.env.UPDATE_SCREENSHOT ? path.join(ROOT, 'docs') : path.join(ROOT, 'test-results');
const SCREENSHOT = path.join(SHOTS, 'screenshot.png');
const PHONE_SCREENSHOT = path.join(SHOTS, 'screenshot-phone.png');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const WAIT = { timeout: 10000 };

let browser;
let context;
const requests = [];
const pageErrors = [];

before(async () => {
  assert.ok(fs.existsSync(path.join(ROOT, 'web', 'vram-budget.js')),
    'web/vram-budget.js is missing: build it with `cmake --build --preset wasm`');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  // The element renders into its shadow root: $vb(selector) queries the first instance's.
  await context.addInitScript(() => {
    window.$vb = (sel) => document.querySelector('vram-budget')?.shadowRoot?.querySelector(sel) ?? null;
  });
  context.on('request', (req) => requests.push(req.url()));
});

after(async () => {
  await browser?.close();
});

async function openPage(hash = '') {
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(PAGE_URL + hash);
  await page.locator('[data-testid=weights-formula], [data-testid=error-banner]:visible').first().waitFor(WAIT);
  return page;
}

/** Waits until the weights formula line contains every given string. */
async function weightsFormulaContains(page, ...parts) {
  await page.waitForFunction((ps) => {
    const el = $vb('[data-testid=weights-formula]');
    return el && ps.every((p) => el.textContent.includes(p));
  }, parts, WAIT);
  return page.locator('[data-testid=weights-formula]').textContent();
}

test('the article example: 13,000,000,000 params in bf16, then 7,000,000,000', async () => {
  const page = await openPage();
  await page.getByTestId('source-params').check();
  await page.getByTestId('params').fill('13000000000');
  await page.getByTestId('weights').selectOption('bf16');
  const line = await weightsFormulaContains(page, '26,000,000,000 B', '24.21 GiB');
  assert.match(line, /13,000,000,000 params × 2 B \(bf16\)/);

  await page.getByTestId('params').fill('7000000000');
  await weightsFormulaContains(page, '14,000,000,000 B', '13.04 GiB');

  // The budget table, verdict, chart and plan are drawn from the module's JSON.
  assert.equal(await page.locator('tr[data-component=weights] td').first().textContent(), '14,000,000,000 B');
  assert.match(await page.getByTestId('verdict').textContent(), /Fits/);
  assert.ok(await page.getByTestId('sweep-chart').isVisible());
  await page.close();
});

test('estimate-change fires with the report', async () => {
  const page = await openPage();
  const detail = page.evaluate(() => new Promise((resolve) => {
    document.addEventListener('estimate-change', (e) => resolve(e.detail), { once: true });
  }));
  await page.getByTestId('params').fill('1000000000');
  const report = await detail;
  assert.equal(report.ok, true);
  assert.equal(report.components.find((c) => c.id === 'weights').bytes, 2000000000);
  await page.close();
});

test('invalid input shows the error path and message; the page keeps working', async () => {
  const page = await openPage();
  await page.getByTestId('source-config').check();
  await page.getByTestId('config').fill('{"hidden_size": 4096,');
  const fieldError = page.locator('[data-field=config] .vb-field-error');
  await page.waitForFunction(() =>
    $vb('[data-field=config] .vb-field-error').textContent.includes('not valid JSON'), null, WAIT);
  assert.ok(await fieldError.isVisible());
  assert.match(await fieldError.textContent(), /\/model\/config.*not valid JSON/);
  assert.equal(await page.getByTestId('config').getAttribute('aria-invalid'), 'true');
  assert.ok(await page.getByTestId('error-banner').isVisible());

  // Valid JSON the module rejects: the module's own path comes back.
  await page.getByTestId('config').fill('{}');
  await page.waitForFunction(() =>
    $vb('[data-field=config] .vb-field-error').textContent.includes('/model/config/hidden_size'), null, WAIT);

  // A bad number on another input is reported there.
  await page.getByTestId('source-params').check();
  await page.getByTestId('count').fill('0');
  const countError = page.locator('[data-field=count] .vb-field-error');
  await countError.waitFor({ state: 'visible', ...WAIT });
  assert.match(await countError.textContent(), /\/hardware\/count/);

  // Fix it: errors clear and the estimate is back.
  await page.getByTestId('count').fill('1');
  await page.getByTestId('params').fill('13000000000');
  await page.getByTestId('weights').selectOption('bf16');
  await weightsFormulaContains(page, '26,000,000,000 B', '24.21 GiB');
  assert.equal(await countError.isVisible(), false);
  assert.equal(await page.getByTestId('error-banner').isVisible(), false);
  await page.close();
});

test('URL fragment round-trip', async () => {
  const hash = '#v=1&src=catalog&model=Qwen%2FQwen3-8B&w=gguf%3AQ4_K_M&engine=llama.cpp&ctx=8192&conc=2&gpu=RTX-4090&n=1';
  const page = await openPage(hash);
  assert.equal(await page.getByTestId('source-catalog').isChecked(), true);
  assert.equal(await page.getByTestId('model').inputValue(), 'Qwen/Qwen3-8B');
  assert.equal(await page.getByTestId('weights').inputValue(), 'gguf:Q4_K_M');
  assert.equal(await page.getByTestId('engine').inputValue(), 'llama.cpp');
  assert.equal(await page.getByTestId('context').inputValue(), '8192');
  assert.equal(await page.getByTestId('gpu').inputValue(), 'RTX-4090');
  await page.waitForFunction(() => !!$vb('tr[data-component=kv_cache]'), null, WAIT);

  // An edit is written back to the fragment, and that link restores it.
  await page.getByTestId('context').fill('16384');
  await page.waitForFunction(() => location.hash.includes('ctx=16384'), null, WAIT);
  const url = page.url();
  const params = new URLSearchParams(new URL(url).hash.slice(1));
  assert.equal(params.get('v'), '1');
  assert.equal(params.get('model'), 'Qwen/Qwen3-8B');
  assert.equal(params.get('engine'), 'llama.cpp');

  const again = await context.newPage();
  again.setDefaultTimeout(WAIT.timeout);
  await again.goto(url);
  await again.getByTestId('context').waitFor(WAIT);
  await again.waitForFunction(() => $vb('[data-testid=context]').value === '16384', null, WAIT);
  assert.equal(await again.getByTestId('weights').inputValue(), 'gguf:Q4_K_M');
  await again.close();
  await page.close();
});

test('screenshot for the README (1280 wide, full page)', async () => {
  const page = await openPage('#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=1');
  await page.waitForFunction(() => !!$vb('[data-testid=sweep-chart]'), null, WAIT);
  // The report's sections skip rendering while off screen (content-visibility: auto); a full-page
  // capture is one tall viewport only for the capture, so render them all first, as printing does.
  await renderAllSections(page);
  fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.ok(fs.statSync(SCREENSHOT).size > 10000);
  await page.close();
});

test('screenshot for the README (390 wide, dark theme, at the results)', async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', deviceScaleFactor: 2, locale: 'en-US' });
  const page = await phone.newPage();
  await page.goto(`${PAGE_URL}#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=1`);
  await page.getByTestId('verdict').waitFor(WAIT);
  await page.getByTestId('skip-to-results').click();
  fs.mkdirSync(path.dirname(PHONE_SCREENSHOT), { recursive: true });
  await page.screenshot({ path: PHONE_SCREENSHOT });
  assert.ok(fs.statSync(PHONE_SCREENSHOT).size > 10000);
  await phone.close();
});

test('the accuracy report opens from the page, offline: the element and the footer link to web/accuracy.html', async () => {
  const page = await openPage('#v=1&src=params&params=13000000000&w=bf16');
  const target = pathToFileURL(path.join(ROOT, 'web', 'accuracy.html')).href;
  assert.equal(await page.getByTestId('accuracy-link').getAttribute('href'), target);
  assert.equal(await page.getByTestId('footer-accuracy').getAttribute('href'), 'accuracy.html');
  await page.getByTestId('footer-accuracy').click();
  await page.waitForURL(target);
  assert.equal(await page.locator('h1').textContent(), 'Accuracy');
  // The estimator's table, with the row of vLLM's KV-token figure, and the baselines beside it.
  const row = page.locator('#the-estimator-per-workload-engine-and-metric + p + div tr', { hasText: 'kv_capacity_tokens' });
  assert.match(await row.first().textContent(), /inference\/vllm/);
  assert.ok(await page.locator('#baselines-side-by-side').count() === 1);
  assert.ok(await page.locator('a[href="index.html"]').count() === 1);
  await page.close();
});

test('no network: every request was a file:// load, and no script error', () => {
  assert.ok(requests.length > 0);
  const outside = requests.filter((u) => !u.startsWith('file://'));
  assert.deepEqual(outside, []);
  assert.deepEqual(pageErrors, []);
});

test('the same page works from a static server (scripts/static-server.cjs)', async () => {
  const { spawn } = require('node:child_process');
  const port = 18000 + Math.floor(Math.random() * 2000);
  const server = spawn(process.execPath, [path.join(ROOT, 'scripts', 'static-server.cjs'), path.join(ROOT, 'web'), String(port)],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve, reject) => {
      server.stdout.once('data', resolve);
      server.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
    });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT.timeout);
    const seen = [];
    page.on('request', (req) => seen.push(req.url()));
    await page.goto(`http://127.0.0.1:${port}/#v=1&src=params&params=13000000000&w=bf16`);
    await weightsFormulaContains(page, '26,000,000,000 B', '24.21 GiB');
    // Only the page's own files, from the same origin.
    for (const url of seen) assert.ok(url.startsWith(`http://127.0.0.1:${port}/`) || url.startsWith('data:'), url);
    await page.close();
  } finally {
    server.kill();
  }
});

test('a pasted config.json of an uncatalogued model: vLLM on an H100 at 0.9, 32k context', async () => {
  // A Llama-3.1-8B config under another name stands for "a model nobody catalogued".
  const cfg = JSON.parse(fs.readFileSync(path.join(ROOT, 'models', 'meta-llama__Llama-3.1-8B.json'), 'utf8')).config;
  const page = await openPage();
  await page.getByTestId('source-config').check();
  await page.getByTestId('config').fill(JSON.stringify({ ...cfg, architectures: ['NobodysForCausalLM'] }));
  await page.getByTestId('gpu').selectOption('H100-SXM-80GB');
  await page.getByTestId('context').fill('32768');
  await weightsFormulaContains(page, '8,030,261,248 params');
  // 79.19 GiB × 0.9 − 14.99 GiB weights − 1.89 GiB sampler peak − 0.25 GiB non-torch ≈ 54.15 GiB of KV:
  // 443,6xx tokens at 131,072 B each, about 13.5 sequences of 32,768 tokens.
  await page.waitForFunction(() => {
    const tokens = $vb('[data-metric=kv_capacity_tokens]');
    const conc = $vb('[data-metric=max_concurrency]');
    return tokens && conc && /^4[34]\d,\d{3}/.test(tokens.textContent) && /^13\.\d/.test(conc.textContent);
  }, null, WAIT);
  await page.close();
});

test('a pasted config.json as Python writes it: Infinity read as null, said among the warnings', async () => {
  // transformers writes a Mamba-2 config's time_step_limit (0.0, inf) as [0.0, Infinity]: not JSON.
  const cfg = JSON.parse(fs.readFileSync(path.join(ROOT, 'models', 'meta-llama__Llama-3.1-8B.json'), 'utf8')).config;
  const text = JSON.stringify({ ...cfg, time_step_limit: [0, 1] }, null, 2).replace(/\[\s*0,\s*1\s*\]/, '[0.0, Infinity]');
  assert.match(text, /Infinity/);
  const page = await openPage();
  await page.getByTestId('source-config').check();
  await page.getByTestId('config').fill(text);
  await weightsFormulaContains(page, '8,030,261,248 params');
  await page.waitForFunction(() => [...document.querySelector('vram-budget').shadowRoot.querySelectorAll('.vb-warnings li')].some((li) =>
    li.textContent.includes('config.json: 1 value that Python') && li.textContent.includes('read as null')), null, WAIT);
  assert.equal(await page.locator('[data-field=config] .vb-field-error').isVisible(), false);
  // What is neither JSON nor Python's is still refused as JSON.
  await page.getByTestId('config').fill('{"hidden_size": Infinityx}');
  await page.waitForFunction(() =>
    $vb('[data-field=config] .vb-field-error').textContent.includes('not valid JSON'), null, WAIT);
  await page.close();
});

test('vLLM text only: a vision-language model without its tower and encoder profiling, in the link', async () => {
  const page = await openPage('#v=1&src=catalog&model=google%2Fgemma-3-4b-it&ctx=8192&gpu=L40S&n=1');
  const activation = () => page.evaluate(() => document.querySelector('vram-budget').report.metrics.activation_bytes);
  const weights = () => page.evaluate(() => document.querySelector('vram-budget').report.metrics.weights_bytes);
  await page.waitForFunction(() => document.querySelector('vram-budget').report?.ok, null, WAIT);
  const [a0, w0] = [await activation(), await weights()];
  await page.getByTestId('lmo').selectOption('true');
  await page.waitForFunction(() => document.querySelector('vram-budget').scenario?.inference?.vllm?.language_model_only === true,
    null, WAIT);
  await page.waitForFunction((a) => document.querySelector('vram-budget').report.metrics.activation_bytes < a, a0, WAIT);
  // The module's figures: the dummy images and their embeddings leave the profiling peak (an L40S's
  // 2,048-token default budget: 8 images, 8 × 3 × 896² × 2 B + 8 × 256 × 2,560 × 2 B), the tower the weights.
  assert.equal(a0 - await activation(), 8 * 3 * 896 * 896 * 2 + 8 * 256 * 2560 * 2);
  assert.ok(w0 - await weights() > 800e6);
  assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('lmo'), 'true');
  // Hidden for engines that do not read it.
  await page.getByTestId('engine').selectOption('llama.cpp');
  await page.waitForFunction(() => !$vb('[data-testid=lmo]').checkVisibility(), null, WAIT);
  await page.close();
});

test('llama.cpp on two GPUs: the per-GPU table, tensor_split and the n_gpu_layers answer', async () => {
  const page = await openPage('#v=1&src=catalog&model=mistralai%2FMixtral-8x7B-Instruct-v0.1&w=gguf%3AQ4_K_M&engine=llama.cpp&ctx=8192&gpu=RTX-4090&n=2');
  const gpu0 = page.locator('[data-testid=per-gpu] tr[data-gpu="0"]');
  await gpu0.waitFor(WAIT);
  assert.match(await gpu0.textContent(), /layers 0–16 \(17\)/);
  assert.match(await page.locator('[data-testid=per-gpu] tr[data-gpu="1"]').textContent(), /layers 17–31 \+ output/);
  assert.ok(await page.locator('[data-testid=per-gpu] tr[data-gpu=host]').isVisible());
  assert.match(await page.getByTestId('verdict').textContent(), /Fits/);
  assert.ok(await page.getByTestId('llama-fields').isVisible());

  // Three quarters of the layers on GPU 0: slots il/33 < 0.75, layers 0–24; the link keeps it.
  await page.getByTestId('tensor-split').fill('3,1');
  await page.waitForFunction(() =>
    /layers 0–24 \(25\)/.test($vb('[data-testid=per-gpu] tr[data-gpu="0"]').textContent), null, WAIT);
  assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('ts'), '3,1');

  // One GPU does not fit; the plan says how many layers it holds, as the module computed.
  await page.getByTestId('tensor-split').fill('');
  await page.getByTestId('count').fill('1');
  await page.waitForFunction(() => /Does not fit/.test($vb('[data-testid=verdict]').textContent), null, WAIT);
  // The plan follows the budget's paint.
  await page.waitForFunction(() => document.querySelector('vram-budget').plan?.max_gpu_layers, null, WAIT);
  const n = await page.evaluate(() => document.querySelector('vram-budget').plan.max_gpu_layers.n_gpu_layers);
  assert.ok(n > 0 && n < 33);
  await page.waitForFunction((k) =>
    $vb('[data-plan=max-gpu-layers]')?.textContent.startsWith(`${k} of 33`), n, WAIT);

  // Other engines do not show the llama.cpp inputs.
  await page.getByTestId('engine').selectOption('vllm');
  await page.waitForFunction(() => $vb('[data-testid=llama-fields]').hidden, null, WAIT);
  await page.close();
});
