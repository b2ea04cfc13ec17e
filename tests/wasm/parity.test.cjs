// Parity: every measured case (the public file beside the checkout and the
// project's own, tests/data/cases/*.jsonl) estimated by the native CLI
// (`vram-budget estimate - --json`) and by the WebAssembly module.
//
// A report ({"ok": true, ...}) must be byte-identical: both faces print the
// core's one JSON writer (to_json_text), so even number formatting agrees.
// An error answer ({"ok": false, ...}, e.g. a workload not estimated yet) must
// be identical after JSON.parse: the CLI pretty-prints its error object
// (indent 2) while the module returns it compact; its content is the same.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');
const modulePath = path.join(root, 'web', 'vram-budget.js');
const cli = path.join(root, 'build', 'native', 'vram-budget');
const publicCases = process.env.VRAM_PUBLIC_CASES || path.join(root, '..', 'shared', 'accuracy', 'public.jsonl');
const ownDir = path.join(root, 'tests', 'data', 'cases');

/** Every case of every file: {file, line, id, scenario}. */
function allCases() {
  const files = [];
  if (fs.existsSync(publicCases)) files.push(publicCases);
  if (fs.existsSync(ownDir)) {
    for (const f of fs.readdirSync(ownDir).sort()) if (f.endsWith('.jsonl')) files.push(path.join(ownDir, f));
  }
  const cases = [];
  for (const file of files) {
    fs.readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
      if (!text.trim()) return;
      const c = JSON.parse(text);
      cases.push({ file: path.relative(root, file), line: i + 1, id: c.id, scenario: c.scenario });
    });
  }
  return cases;
}

let mod;
test.before(async () => {
  assert.ok(fs.existsSync(modulePath), 'build the module first: cmake --build --preset wasm');
  assert.ok(fs.existsSync(cli), 'build the CLI first: cmake --build --preset native');
  mod = await require(modulePath)();
});

test('native CLI and wasm give byte-identical reports on every measured case', (t) => {
  const cases = allCases();
  if (cases.length === 0) {
    t.skip(`no cases: neither ${publicCases} nor ${ownDir} found`);
    return;
  }
  let identical = 0;
  let errors = 0;
  for (const c of cases) {
    const input = JSON.stringify(c.scenario);
    const native = spawnSync(cli, ['estimate', '-', '--json'], { input, encoding: 'utf8', timeout: 20000 });
    const wasm = mod.estimate(input);
    const where = `${c.file}:${c.line} (${c.id})`;
    assert.ok(native.status === 0 || native.status === 2, `${where}: CLI exit status ${native.status}`);
    assert.equal(native.stdout.endsWith('\n'), true, `${where}: CLI output ends with a newline`);
    const nativeText = native.stdout.slice(0, -1);
    const parsed = JSON.parse(wasm);
    if (parsed.ok) {
      assert.equal(native.status, 0, where);
      assert.equal(wasm, nativeText, `${where}: reports differ`);
      identical += 1;
    } else {
      assert.equal(native.status, 2, where);
      assert.deepEqual(parsed, JSON.parse(nativeText), `${where}: error answers differ`);
      errors += 1;
    }
  }
  t.diagnostic(`${identical} reports byte-identical, ${errors} error answers identical after parse, of ${cases.length} cases`);
  assert.equal(identical + errors, cases.length);
});
