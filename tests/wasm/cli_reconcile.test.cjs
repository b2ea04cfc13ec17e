// `vram-budget reconcile LOG --scenario FILE [--json]`: a pasted startup log's
// figures beside the estimate, and an accuracy case the accuracy command reads.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const cli = path.join(__dirname, '..', '..', 'build', 'native', 'vram-budget');
const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8', timeout: 20000 });

const vllmLog = [
  '(VllmWorker rank=0 pid=4113) INFO 05-12 10:00:58 [gpu_model_runner.py:1329] Model loading took 14.99 GiB and 5.123 seconds',
  'INFO 05-12 10:01:02 [gpu_worker.py:227] Memory profiling takes 4.24 seconds. Total non KV cache memory: 16.57GiB; torch peak memory increase: 1.44GiB; non-torch forward increase memory: 0.14GiB; weights memory: 14.99GiB.',
  'INFO 05-12 10:01:02 [gpu_worker.py:227] Available KV cache memory: 54.32 GiB',
  'INFO 05-12 10:01:03 [kv_cache_utils.py:634] GPU KV cache size: 444,992 tokens',
  'INFO 05-12 10:01:03 [kv_cache_utils.py:637] Maximum concurrency for 8,192 tokens per request: 54.32x',
  'INFO 05-12 10:01:25 [gpu_model_runner.py:1686] Graph capturing finished in 22 secs, took 0.53 GiB',
  '',
].join('\n');
const scenario = { model: 'meta-llama/Llama-3.1-8B', hardware: { gpu: 'H100-SXM-80GB' }, inference: { context: 8192 } };

function files() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-reconcile-'));
  const log = path.join(dir, 'server.log');
  const sc = path.join(dir, 'scenario.json');
  fs.writeFileSync(log, vllmLog);
  fs.writeFileSync(sc, JSON.stringify(scenario));
  return { dir, log, sc };
}

test('reconcile --json: found figures, rows beside the estimate, notes and a case', () => {
  const { log, sc } = files();
  const r = run(['reconcile', log, '--scenario', sc, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.ok, true);
  assert.equal(j.v, 1);
  assert.deepEqual(Object.keys(j), ['ok', 'v', 'found', 'rows', 'case', 'notes']);
  const weights = j.found.find((f) => f.metric === 'weights_bytes');
  assert.equal(weights.bytes, 16095389942);
  assert.equal(weights.tolerance, 5368710);
  assert.equal(weights.line_number, 1);
  assert.equal(weights.source, 'vllm');
  assert.equal(j.found.find((f) => f.metric === 'kv_capacity_tokens').value, 444992);
  const estimate = JSON.parse(run(['estimate', sc, '--json']).stdout);
  for (const row of j.rows) {
    assert.deepEqual(Object.keys(row).slice(0, 5), ['metric', 'measured', 'estimated', 'error', 'in_range']);
    assert.equal(row.estimated, estimate.metrics[row.metric], row.metric);
    assert.ok(Math.abs(row.error - (row.estimated - row.measured) / row.measured) < 1e-12, row.metric);
    assert.ok(row.meaning.length > 10, row.metric);
  }
  assert.deepEqual(Object.keys(j.case), ['id', 'source', 'quote', 'kind', 'scenario', 'measured', 'notes']);
  assert.equal(j.case.source, 'pasted log');
  assert.deepEqual(j.case.scenario, scenario);
  // The case is an accuracy line as it stands.
  const acc = run(['accuracy', '-', '--json'], JSON.stringify(j.case));
  assert.equal(acc.status, 0, acc.stderr);
  const scored = JSON.parse(acc.stdout);
  assert.equal(scored.total, 1);
  assert.equal(scored.malformed, 0);
});

test('reconcile prints a table, reading the log from standard input', () => {
  const { sc } = files();
  const r = run(['reconcile', '-', '--scenario', sc], vllmLog);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Found in the log:\n  line 1 +weights_bytes +14\.99 GiB  ± 5,368,710 B\n/);
  assert.match(r.stdout, /\nmetric +measured +estimated +error +in range\n/);
  assert.match(r.stdout, /\nkv_capacity_tokens +444,992 +[\d,]+ +-?\d+\.\d+ % +no range\n/);
  assert.match(r.stdout, /\nAccuracy case \(one line of a tests\/data\/cases\/\*\.jsonl file\):\n\{"id":"pasted-vllm-meta-llama-llama-3\.1-8b",/);
});

test('reconcile errors: nothing recognised, a bad scenario, unreadable files, two standard inputs', () => {
  const { dir, log, sc } = files();
  const nothing = run(['reconcile', '-', '--scenario', sc], 'hello\nworld\n');
  assert.equal(nothing.status, 2);
  assert.match(nothing.stderr, /^vram-budget: \/log: no figure recognised in 2 lines; recognised: vLLM "Model loading took/);
  const bad = path.join(dir, 'bad.json');
  fs.writeFileSync(bad, '{"model": "no/such-model"}');
  const badScenario = run(['reconcile', log, '--scenario', bad, '--json']);
  assert.equal(badScenario.status, 2);
  assert.equal(JSON.parse(badScenario.stdout).error.path, '/scenario/model');
  assert.match(badScenario.stderr, /^vram-budget: \/scenario\/model: /);
  const missing = run(['reconcile', path.join(dir, 'absent.log'), '--scenario', sc]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*absent\.log/);
  const both = run(['reconcile', '-', '--scenario', '-'], vllmLog);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /cannot both be standard input/);
  const hostile = run(['reconcile', '-', '--scenario', sc], Buffer.concat([Buffer.from('Model loading took 1e400 GiB\n'), Buffer.from([0xff, 0xfe, 0x0a])]));
  assert.equal(hostile.status, 2);
  assert.equal(hostile.signal, null);
  assert.match(hostile.stderr, /line 1: weights_bytes not read: "1e400" is not a finite number/);
});
