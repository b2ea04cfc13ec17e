// Every hostile model file (tests/browser/fixtures/hostile-files.cjs) through
// the wasm module's inspectFiles() and the CLI's `inspect`: an error that names
// the file and says what is wrong, never a crash, a throw or a hang.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { hostileFiles, missingShardIndex } = require('../browser/fixtures/hostile-files.cjs');

const cli = path.join(__dirname, '..', '..', 'build', 'native', 'vram-budget');
const asFile = (name, bytes) => ({ name, size: bytes.length, slice: (a, b) => new Blob([bytes.subarray(a, b)]) });

test('the wasm module refuses every hostile file by name', async () => {
  const mod = await require(path.join(__dirname, '..', '..', 'web', 'vram-budget.js'))();
  for (const [name, bytes, want] of hostileFiles()) {
    const r = await mod.inspectFiles([asFile(name, bytes)]);
    assert.equal(r.ok, false, `${name}: ${JSON.stringify(r).slice(0, 200)}`);
    const text = `${r.error.path}: ${r.error.message}`;
    assert.ok(text.includes(name), `${name}: ${text}`);
    assert.match(text, want, name);
  }
  const r = await mod.inspectFiles(missingShardIndex().map(([n, b]) => asFile(n, b)));
  assert.equal(r.ok, false);
  assert.match(r.error.message, /model-00002-of-00002\.safetensors", which was not given/);
  assert.equal(JSON.parse(mod.estimate('{"model":"Qwen/Qwen3-8B"}')).ok, true);  // the module still answers
});

test('the CLI refuses every hostile file by name, with exit code 2', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-hostile-'));
  try {
    for (const [name, bytes, want] of hostileFiles()) {
      fs.writeFileSync(path.join(dir, name), bytes);
      const r = spawnSync(cli, ['inspect', path.join(dir, name)], { encoding: 'utf8', timeout: 10000 });
      assert.equal(r.status, 2, `${name}: ${r.stdout}${r.stderr}`);
      assert.ok(r.stderr.includes(name), `${name}: ${r.stderr}`);
      assert.match(r.stderr, want, name);
    }
    const files = missingShardIndex().map(([n, b]) => { fs.writeFileSync(path.join(dir, n), b); return path.join(dir, n); });
    const r = spawnSync(cli, ['inspect', ...files], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /model-00002-of-00002\.safetensors", which was not given/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
