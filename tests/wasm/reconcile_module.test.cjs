// The module's reconcile(log, scenario) against the native CLI: the same
// answer, and every wrong argument an error object, never a throw.
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

const log = [
  'load_tensors:        CUDA0 model buffer size =  4403.49 MiB',
  'load_tensors:   CPU_Mapped model buffer size =   281.81 MiB',
  'llama_kv_cache_unified:      CUDA0 KV buffer size =  1024.00 MiB',
  'llama_context:      CUDA0 compute buffer size =   560.00 MiB',
  '',
].join('\n');
const scenario = JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', weights: 'gguf:Q4_K_M', inference: { engine: 'llama.cpp', context: 8192 } });

test('reconcile answers what the CLI answers', () => {
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'vram-reconcile-'));
  fs.writeFileSync(path.join(dir, 'scenario.json'), scenario);
  const native = spawnSync(cli, ['reconcile', '-', '--scenario', path.join(dir, 'scenario.json'), '--json'], { input: log, encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  const r = JSON.parse(mod.reconcile(log, scenario));
  assert.equal(r.ok, true);
  assert.deepEqual(r, JSON.parse(native.stdout));
  assert.equal(r.found[0].bytes, 4617393930);
});

test('reconcile never throws: wrong types, lone surrogates, oversized text, nothing recognised', () => {
  const cases = [
    [[], /reconcile\(\) takes the log as text \(a string\); got undefined/],
    [[42, scenario], /reconcile\(\) takes the log as text \(a string\); got number/],
    [[log, null], /reconcile\(\) takes the scenario as JSON text \(a string\); got null/],
    [[log], /takes the scenario as JSON text/],
    [['Model loading took 1 GiB \uD800', scenario], /lone UTF-16 surrogate/],
    [[log, '{"model": "\uDC00"}'], /lone UTF-16 surrogate/],
    [['x'.repeat((16 << 20) + 1), scenario], /the log is 16,777,217 characters; at most 16 MiB/],
    [['hello', scenario], /no figure recognised/],
    [[log, '{"model": "no/such"}'], /./],
  ];
  for (const [args, message] of cases) {
    const r = JSON.parse(mod.reconcile(...args));
    assert.equal(r.ok, false, String(args[0]).slice(0, 40));
    assert.match(r.error.message, message);
  }
  assert.equal(JSON.parse(mod.reconcile('hello', scenario)).error.path, '/log');
  assert.equal(JSON.parse(mod.reconcile(log, '{"model": "no/such"}')).error.path, '/scenario/model');
  assert.equal(JSON.parse(mod.reconcile(log, scenario)).ok, true);
});
