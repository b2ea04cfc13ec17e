// "Measure it": the page shows the core's command line or script for the
// configured workload, and which output line is which metric.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { WAIT, useBrowser, openPage } = require('./helpers.cjs');

let context;
useBrowser((c) => { context = c; });

test('vLLM and llama.cpp scenarios show the exact command line to measure them', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=2&tp=2&kv=fp8');
  const cmd = page.getByTestId('measure-command');
  await cmd.waitFor(WAIT);
  const text = await cmd.textContent();
  assert.match(text, /vllm serve meta-llama\/Llama-3\.1-8B/);
  assert.match(text, /--max-model-len 32768/);
  assert.match(text, /--tensor-parallel-size 2/);
  assert.match(text, /--kv-cache-dtype fp8/);
  assert.match(await page.getByTestId('measure').textContent(), /kv_capacity_tokens ← GPU KV cache size: N tokens/);

  await page.goto(page.url().replace(/#.*$/, '') +
    '#v=1&src=catalog&model=mistralai%2FMixtral-8x7B-Instruct-v0.1&w=gguf%3AQ4_K_M&engine=llama.cpp&ctx=8192&gpu=RTX-4090&n=2');
  await page.waitForFunction(() => $vb('[data-testid=measure-command]')?.textContent.includes('llama-server'), null, WAIT);
  assert.match(await page.getByTestId('measure-command').textContent(), /-m \/path\/to\/Mixtral-8x7B-Instruct-v0\.1-Q4_K_M\.gguf/);
  await page.close();
});

test('training shows a short PyTorch script that prints the peaks', async () => {
  const page = await openPage(context, '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B&method=lora');
  const cmd = page.getByTestId('measure-command');
  await cmd.waitFor(WAIT);
  const text = await cmd.textContent();
  assert.match(text, /from_pretrained\("Qwen\/Qwen3-8B"/);
  assert.match(text, /get_peft_model/);
  assert.match(text, /torch\.cuda\.max_memory_allocated\(\)/);
  await page.close();
});

test('reconcile: a pasted vLLM log beside the estimate, per category, with the case it makes', async () => {
  const page = await openPage(context, '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=8192&gpu=H100-SXM-80GB&n=1');
  const log = [
    'INFO 05-12 10:01:00 [gpu_model_runner.py:1623] Model loading took 14.99 GiB memory and 5.1 seconds',
    'INFO 05-12 10:01:02 [gpu_worker.py:227] Available KV cache memory: 54.32 GiB',
    'INFO 05-12 10:01:02 [kv_cache_utils.py:716] GPU KV cache size: 444,976 tokens',
    'INFO 05-12 10:01:02 [kv_cache_utils.py:720] Maximum concurrency for 8,192 tokens per request: 54.32x',
  ].join('\n');
  await page.getByTestId('reconcile-log').fill(log);
  await page.getByTestId('reconcile-run').click();
  const table = page.getByTestId('reconcile-table');
  await table.waitFor(WAIT);
  const kv = await table.locator('tr[data-metric=kv_capacity_tokens]').textContent();
  assert.match(kv, /444,976 tokens/);
  assert.match(kv, /[+-]\d+\.\d %/);
  assert.match(await table.locator('tr[data-metric=weights_bytes]').textContent(), /14\.99 GiB/);
  const c = JSON.parse(await page.getByTestId('reconcile-case').textContent());
  assert.equal(c.measured.kv_capacity_tokens, 444976);
  assert.equal(c.scenario.model, 'meta-llama/Llama-3.1-8B');
  // Another scenario: the comparison follows it.
  const before = await table.locator('tr[data-metric=max_concurrency] td').nth(1).textContent();
  await page.getByTestId('context').fill('32768');
  await page.waitForFunction((b) => $vb('[data-testid=reconcile-table] tr[data-metric=max_concurrency] td:nth-child(3)')
    ?.textContent !== b, before, WAIT);
  // Text with nothing to read: a clear error, and the page goes on.
  await page.getByTestId('reconcile-log').fill('hello world\nnothing here');
  await page.getByTestId('reconcile-run').click();
  await page.getByTestId('reconcile-error').waitFor(WAIT);
  assert.match(await page.getByTestId('reconcile-error').textContent(), /\/log/);
  assert.deepEqual(context.pageErrors, []);
  await page.close();
});
