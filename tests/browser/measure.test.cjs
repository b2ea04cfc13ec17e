// "Measure it": the page shows the core's command line or script for the
// configured workload, and which output line is which metric.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { WAIT, launch, newContext, openPage } = require('./helpers.cjs');

let browser;
let context;
before(async () => {
  browser = await launch();
  context = await newContext(browser);
});
after(async () => {
  await browser?.close();
});

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
