// The built WebAssembly module against the native CLI: same answers, never a throw.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const modulePath = path.join(root, 'web', 'vram-budget.js');
const cli = path.join(root, 'build', 'native', 'vram-budget');

let mod;
test.before(async () => {
  assert.ok(fs.existsSync(modulePath), 'build the module first: cmake --build --preset wasm');
  mod = await require(modulePath)();
});

function nativeEstimate(scenario) {
  const r = spawnSync(cli, ['estimate', '-', '--json'], { input: JSON.stringify(scenario), encoding: 'utf8' });
  return { status: r.status, report: r.stdout ? JSON.parse(r.stdout) : null };
}

const scenarios = [
  { v: 1, model: { params: 13000000000 }, weights: 'bf16', hardware: { gpu: 'H100-SXM-80GB' } },
  { model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: { gpu: 'RTX-4090' }, inference: { context: 32768, concurrency: 4 } },
  { model: 'openai/gpt-oss-20b', weights: 'mxfp4', hardware: { gpu: 'H100-SXM-80GB', count: 2 }, inference: { context: 8192, tensor_parallel: 2 } },
  { model: 'deepseek-ai/DeepSeek-V2-Lite-Chat', inference: { context: 16384, kv_cache_dtype: 'fp8' } },
  { model: 'meta-llama/Llama-3.1-70B-Instruct', weights: 'gguf:Q4_K_M', hardware: { gpu: 'RTX-4090', count: 2 },
    inference: { engine: 'llama.cpp', context: 8192, pipeline_parallel: 2 } },
  { model: 'google/gemma-3-27b-it', inference: { engine: 'transformers', context: 4096 } },
];

test('the article example: 26,000,000,000 B ≈ 24.21 GiB', () => {
  const r = JSON.parse(mod.estimate(JSON.stringify(scenarios[0])));
  assert.equal(r.ok, true);
  const w = r.components.find((c) => c.id === 'weights');
  assert.equal(w.bytes, 26000000000);
  assert.equal(w.formula, '13,000,000,000 params × 2 B (bf16) = 26,000,000,000 B ≈ 24.21 GiB');
});

test('the wasm module gives the native answers, byte for byte', () => {
  for (const s of scenarios) {
    const wasm = JSON.parse(mod.estimate(JSON.stringify(s)));
    const native = nativeEstimate(s);
    assert.equal(native.status, 0, JSON.stringify(s));
    assert.deepEqual(wasm, native.report, JSON.stringify(s));
  }
});

test('bad input comes back as {ok:false, error:{path, message}}', () => {
  const cases = [
    ['{not json', ''],
    [JSON.stringify({ model: 'no/such' }), '/model'],
    [JSON.stringify({ model: { params: -5 } }), '/model/params'],
    [JSON.stringify({ model: { params: 7e9 }, weights: 'fp5' }), '/weights'],
    [JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', inference: { context: 0 } }), '/inference/context'],
    [JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', inference: { tensor_parallel: 3 }, hardware: { count: 3 } }), '/inference/tensor_parallel'],
    [JSON.stringify({ model: { config: { model_type: 'llama', hidden_size: 4096 } } }), '/model/config/num_hidden_layers'],
    ['{"model":{"params":1e400}}', ''],
    ['[' .repeat(100000), ''],
  ];
  for (const [input, p] of cases) {
    const r = JSON.parse(mod.estimate(input));
    assert.equal(r.ok, false, input.slice(0, 80));
    assert.equal(r.error.path, p, input.slice(0, 80));
    assert.ok(r.error.message.length > 10);
    // The same module keeps working after an error.
    assert.equal(JSON.parse(mod.estimate(JSON.stringify(scenarios[0]))).ok, true);
  }
});

test('native CLI exits 2 on bad input', () => {
  const r = spawnSync(cli, ['estimate', '-'], { input: '{"model":{"params":0}}', encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /\/model\/params/);
});

test('catalog, plan and sweep answer in the contract shape', () => {
  const c = JSON.parse(mod.catalog());
  assert.equal(c.ok, true);
  assert.ok(c.models.length >= 70);
  assert.ok(c.gpus.some((g) => g.id === 'H100-SXM-80GB' && g.memory_bytes === 85029158912));
  const p = JSON.parse(mod.plan(JSON.stringify(scenarios[1])));
  assert.equal(p.ok, true);
  assert.ok(p.gpu_options.length > 0);
  assert.ok(p.hints.length > 0);
  const w = JSON.parse(mod.sweep(JSON.stringify(scenarios[1])));
  assert.equal(w.contexts.length, w.totals.length);
  assert.equal(JSON.parse(mod.plan('nope')).ok, false);
});

test('plan: the module and the CLI agree', () => {
  for (const s of scenarios.slice(1, 4)) {
    const wasm = JSON.parse(mod.plan(JSON.stringify(s)));
    const r = spawnSync(cli, ['plan', '-', '--json'], { input: JSON.stringify(s), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(wasm, JSON.parse(r.stdout), JSON.stringify(s));
  }
});
