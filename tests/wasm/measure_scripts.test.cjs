// scripts/measure/generate.py writes what it measures on a GPU as accuracy
// cases. Without a GPU its --dry-run writes the same lines with a placeholder
// measurement: every line must be a valid case the estimator can score, for
// each cache implementation the script runs.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.join(__dirname, '..', '..');
const cli = path.join(root, 'build', 'native', 'vram-budget');
const script = path.join(root, 'scripts', 'measure', 'generate.py');
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });

test('generate.py --dry-run writes valid, estimable transformers cases', { skip: python.status !== 0 && 'no python3' }, () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vram-measure-')), 'cases.jsonl');
  const gen = spawnSync('python3', [script, '--dry-run', '--out', out, '--prompts', '512', '--batches', '1', '2'],
    { encoding: 'utf8', timeout: 60000 });
  assert.equal(gen.status, 0, gen.stderr);
  const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
  // 4 models × 1 attention × 3 caches × 2 batches × 1 prompt
  assert.equal(lines.length, 24);
  const caches = new Set(lines.map((l) => JSON.parse(l).scenario.inference.transformers.cache_implementation));
  assert.deepEqual([...caches].sort(), ['dynamic', 'offloaded', 'static']);
  const r = spawnSync(cli, ['accuracy', out], { encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /24 cases, 0 not estimated, 0 not valid cases/);
});
