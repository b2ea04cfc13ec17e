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
    ['{"model":{"params":1e400}}', '/model/params'],  // a number no double holds, named by its field
    // Refused at the 65th level, named by its JSON pointer.
    ['[' .repeat(100000), '/0'.repeat(64)],
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

test('llama.cpp on two GPUs: every GPU in the split detail, the fullest one as the budget', () => {
  const s = { model: 'mistralai/Mixtral-8x7B-Instruct-v0.1', weights: 'gguf:Q4_K_M', hardware: { gpu: 'RTX-4090', count: 2 },
    inference: { engine: 'llama.cpp', context: 8192 } };
  const r = JSON.parse(mod.estimate(JSON.stringify(s)));
  assert.equal(r.ok, true);
  const split = r.details.split;
  assert.equal(split.split_mode, 'layer');
  assert.deepEqual(split.gpus.map((g) => g.layers), ['layers 0–16', 'layers 17–31 + output']);
  // Layers 0–16 at Q4_K_M: 9 × 816,480,256 B + 8 × 938,672,128 B (the use_more_bits layers); KV 17 × 8,192 × 4,096 B.
  assert.equal(split.gpus[0].weights_bytes, 14857699328);
  assert.equal(split.gpus[0].kv_bytes, 570425344);
  assert.equal(r.total_bytes, split.gpus[split.heaviest].total_bytes);
  assert.equal(r.fits, true);
  // One GPU does not fit; the plan offers the second, and the most layers one GPU holds.
  const one = { ...s, hardware: { gpu: 'RTX-4090', count: 1 } };
  const p = JSON.parse(mod.plan(JSON.stringify(one)));
  const hint = p.hints.find((h) => h.change.startsWith('2 GPUs'));
  assert.ok(hint, JSON.stringify(p.hints));
  assert.equal(hint.patch.hardware.count, 2);
  assert.ok(p.max_gpu_layers.n_gpu_layers < 33);
  const native = spawnSync(cli, ['plan', '-', '--json'], { input: JSON.stringify(one), encoding: 'utf8' });
  assert.deepEqual(p, JSON.parse(native.stdout));
});

test('the n_gpu_layers solver: 20 layers on a GPU sized for exactly 20', () => {
  // Llama-3.1-8B Q4_K_M at 4,096 tokens, n_gpu_layers 20: layers 12–31 (2,616,524,800 B) + KV 335,544,320 B
  // + compute buffer 310,378,496 B + CUDA context 547,608,330 B = 3,810,055,946 B.
  const s = { model: 'meta-llama/Llama-3.1-8B', weights: 'gguf:Q4_K_M', headroom: 0,
    hardware: { gpu: { name: 'test GPU', memory_bytes: 3810055946 } }, inference: { engine: 'llama.cpp', context: 4096 } };
  const p = JSON.parse(mod.plan(JSON.stringify(s)));
  assert.equal(p.max_gpu_layers.n_gpu_layers, 20);
  assert.equal(p.max_gpu_layers.host_kv_bytes, 12 * 4096 * 4096);
});

test('llama.cpp refuses fp8 KV and a tensor_split of the wrong length, by path', () => {
  const base = { model: 'meta-llama/Llama-3.1-8B', hardware: { count: 2 }, inference: { engine: 'llama.cpp' } };
  const fp8 = JSON.parse(mod.estimate(JSON.stringify({ ...base, inference: { engine: 'llama.cpp', kv_cache_dtype: 'fp8' } })));
  assert.equal(fp8.error.path, '/inference/kv_cache_dtype');
  assert.match(fp8.error.message, /q5_1/);
  const ts = JSON.parse(mod.estimate(JSON.stringify({ ...base, inference: { engine: 'llama.cpp', llama_cpp: { tensor_split: [1, 1, 1] } } })));
  assert.equal(ts.error.path, '/inference/llama_cpp/tensor_split');
});

test('catalog({models: false}) leaves the models and the pipelines\' components out; models() gives the same list as catalog()', () => {
  const full = JSON.parse(mod.catalog());
  const light = JSON.parse(mod.catalog({ models: false }));
  assert.equal(light.ok, true);
  assert.equal(light.models, undefined);
  assert.equal(light.model_count, full.models.length);
  assert.ok(full.pipelines.every((p) => Array.isArray(p.components) && p.components.length > 0));
  assert.deepEqual(light.pipelines, full.pipelines.map(({ components, ...p }) => p));
  assert.deepEqual({ ...light, models: full.models, pipelines: full.pipelines }, full);
  assert.deepEqual(JSON.parse(mod.models()), { ok: true, models: full.models });
  // Anything but {models: false} is the whole catalog.
  for (const arg of [undefined, null, 'no', { models: 0 }, { models: true }]) {
    assert.equal(JSON.parse(mod.catalog(arg)).models.length, full.models.length);
  }
  assert.ok(full.models.some((m) => m.id === full.defaults.model), `the shown model ${full.defaults.model}`);
});

test('catalog().defaults are the defaults the core applies (the page keeps none of its own)', () => {
  const d = JSON.parse(mod.catalog()).defaults;
  const r = JSON.parse(mod.estimate(JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', inference: { context: 4096 } })));
  assert.ok(r.defaults_used.includes(`hardware.gpu = ${d.gpu}`));
  assert.ok(r.defaults_used.includes(`inference.engine = ${d.engine}`));
  assert.ok(r.defaults_used.includes(`vllm.gpu_memory_utilization = ${d.engines.vllm.gpu_memory_utilization}`));
  // Each engine's field list is what its block accepts: a field outside it is warned about.
  const extra = JSON.parse(mod.estimate(JSON.stringify({
    model: 'meta-llama/Llama-3.1-8B', inference: { engine: 'llama.cpp', context: 4096, llama_cpp: { n_batch: 512, nope: 1 } } })));
  assert.ok(d.engines['llama.cpp'].fields.includes('n_batch'));
  assert.ok(extra.warnings.some((w) => w.startsWith('/inference/llama_cpp/nope: unknown field')));
  assert.deepEqual(d.training.optimizer, ['adamw', 'adamw-8bit', 'paged-adamw-8bit', 'adafactor', 'sgd', 'sgd-momentum', 'lion', 'muon']);
  assert.deepEqual(d.workloads, ['inference', 'training', 'image', 'video']);
  // The training and generation defaults named are the ones a scenario without them reports.
  const t = JSON.parse(mod.estimate(JSON.stringify({ workload: 'training', model: 'meta-llama/Llama-3.2-1B' })));
  assert.equal(t.ok, true);
  for (const key of ['framework', 'optimizer', 'seq_len', 'micro_batch']) {
    assert.ok(t.defaults_used.includes(`training.${key} = ${d.training_defaults[key]}`), `training.${key}`);
  }
  assert.equal(d.generation_defaults.offload, 'none');
});

// The module's small-object allocator (wasm/small_alloc.cpp) keeps freed blocks
// for reuse: a steady stream of estimates, a report over the 12 KB stack block,
// errors and plans must not grow the memory once each kind has run once.
test('repeated estimates, errors and plans reuse freed memory', () => {
  const fresh = [
    JSON.stringify({ model: 'deepseek-ai/DeepSeek-V3', hardware: { gpu: 'H200', count: 8 }, inference: { context: 32768, tensor_parallel: 8 } }),
    JSON.stringify({ model: 'meta-llama/Llama-3.1-70B', weights: 'gguf:Q4_K_M', hardware: { gpu: 'RTX-4090', count: 2 },
      inference: { engine: 'llama.cpp', context: 8192, pipeline_parallel: 2 } }),
    JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', inference: { context: 0 } }),
    JSON.stringify({ workload: 'training', model: 'meta-llama/Llama-3.1-8B', training: { framework: 'torchtune', method: 'lora' } }),
  ];
  const round = () => {
    for (const t of fresh) assert.equal(typeof JSON.parse(mod.estimate(t)).ok, 'boolean');
    assert.equal(JSON.parse(mod.plan(fresh[0])).ok, true);
  };
  for (let i = 0; i < 20; i++) round();
  const before = mod.HEAPU8.length;
  for (let i = 0; i < 400; i++) round();
  assert.equal(mod.HEAPU8.length, before, 'the module memory grew over 400 identical rounds');
  assert.equal(JSON.parse(mod.estimate(fresh[2])).ok, false);
  assert.equal(JSON.parse(mod.estimate(fresh[0])).components.length, 7);
});

// estimate() hands its report to JavaScript as ASCII (under node through Buffer's
// latin1 decoding), so every report must be ASCII: non-ASCII text as \u escapes.
test('every report estimate() returns is ASCII, and errors keep their UTF-8', () => {
  const list = JSON.parse(mod.models()).models.map((m) => m.id);
  assert.ok(list.length > 100);
  const texts = [];
  for (const id of list) {
    texts.push({ model: id, hardware: { gpu: 'H100-SXM-80GB', count: 2 }, inference: { context: 4096, tensor_parallel: 2 } });
    texts.push({ model: id, weights: 'gguf:Q4_K_M', inference: { engine: 'llama.cpp', context: 4096 } });
    texts.push({ workload: 'training', model: id, training: { framework: 'unsloth', method: 'qlora' } });
  }
  for (const p of JSON.parse(mod.catalog()).pipelines || []) texts.push({ workload: p.modality === 'video' ? 'video' : 'image', model: p.id });
  let reports = 0;
  for (const s of texts) {
    const out = mod.estimate(JSON.stringify(s));
    const r = JSON.parse(out);
    if (!r.ok) continue;
    reports++;
    assert.ok(/^[\x00-\x7f]*$/.test(out), `non-ASCII in the report of ${JSON.stringify(s).slice(0, 120)}`);
    assert.ok(r.components.some((c) => /[×≈]/.test(c.formula)), 'the formulas keep their × and ≈');
  }
  assert.ok(reports > 200, `only ${reports} reports`);
  const e = JSON.parse(mod.estimate(JSON.stringify({ model: 'ünknown/模型' })));
  assert.equal(e.ok, false);
  assert.ok(e.error.message.includes('ünknown/模型'), e.error.message);
});
