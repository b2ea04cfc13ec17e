// The native command line: exit status 0 for answers, 2 for bad input, and a
// bad line of an accuracy file named by its line without stopping the run.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const cli = path.join(__dirname, '..', '..', 'build', 'native', 'vram-budget');
const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8', timeout: 10000 });

test('accuracy scores the good lines and names each bad one by line and field', () => {
  const good = { id: 'article', scenario: { model: { params: 13e9 }, weights: 'bf16' }, measured: { weights_bytes: 26e9 } };
  const text = [
    JSON.stringify(good),
    JSON.stringify({ ...good, id: 'zero', measured: { weights_bytes: 0 } }),
    '',
    JSON.stringify({ ...good, id: 7 }),
    '{"id": "dup", "id": "dup"}',
    JSON.stringify({ ...good, scenario: 'not an object' }),
  ].join('\n');
  const r = run(['accuracy', '-'], text);
  assert.equal(r.status, 2);
  assert.match(r.stdout, /article\s+weights_bytes\s+measured\s+2\.6e\+10\s+predicted\s+2\.6e\+10\s+\+0\.00%/);
  assert.match(r.stdout, /line 2: not a valid case: \/measured\/weights_bytes: must be a positive number/);
  assert.match(r.stdout, /line 4: not a valid case: \/id: must be a string; got 7/);
  assert.match(r.stdout, /line 5: not a valid case: \/id: duplicate key "id"/);
  assert.match(r.stdout, /line 6: not a valid case: \/scenario: must be a scenario object/);
  assert.match(r.stdout, /5 cases, 0 not estimated, 4 not valid cases/);
  assert.match(r.stderr, /4 line\(s\) of - are not valid cases/);
});

test('hostile scenarios exit 2 with the field named, never a signal', () => {
  const cases = [
    ['{"model": "a", "model": "b"}', /\/model: duplicate key "model"/],
    [Buffer.concat([Buffer.from('{"model": "'), Buffer.from([0xff]), Buffer.from('"}')]), /not valid UTF-8: byte offset 11/],
    ['{"model":{"config":' + '['.repeat(100000) + ']'.repeat(100000) + '}}', /\/model\/config\/0\/0.*nested deeper than 64 levels/],
    ['{"headroom": 1e999, "model": "meta-llama/Llama-3.1-8B"}', /\/headroom: malformed JSON .*number overflow/],
    ['{"model": "meta-llama/Llama-3.1-8B"}\u0000{', /NUL byte at byte offset 36/],
  ];
  for (const [input, message] of cases) {
    for (const cmd of ['estimate', 'plan']) {
      const r = run([cmd, '-'], input);
      const what = `${cmd}: ${String(input).slice(0, 60)}`;
      assert.equal(r.signal, null, what);
      assert.equal(r.status, 2, what);
      assert.match(r.stderr, message, what);
    }
  }
});

test('models lists each checkpoint by its own storage format, as the page does', () => {
  const r = run(['models', '--json']);
  assert.equal(r.status, 0);
  const byId = Object.fromEntries(JSON.parse(r.stdout).map((m) => [m.id, m]));
  assert.match(byId['openai/gpt-oss-20b'].dtype, /mxfp4/);
  assert.equal(byId['openai/gpt-oss-20b'].quantized, true);
  assert.match(byId['deepseek-ai/DeepSeek-V3'].dtype, /^fp8/);
  assert.equal(byId['meta-llama/Llama-3.1-8B'].dtype, 'bf16');
  const text = run(['models']).stdout.split('\n').find((l) => l.startsWith('openai/gpt-oss-20b '));
  assert.match(text, /mxfp4/);
});
