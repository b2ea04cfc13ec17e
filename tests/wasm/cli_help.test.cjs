// The native command line's own parsing: `--help` for the tool and for each
// subcommand (exit 0, on stdout), and a wrong flag, a missing argument or an
// unknown subcommand (one line naming it, then the usage, on stderr; exit 2).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const cli = path.join(__dirname, '..', '..', 'build', 'native', 'vram-budget');
const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8', timeout: 10000 });

const subcommands = {
  estimate: { args: /FILE/, options: ['--json'] },
  plan: { args: /FILE/, options: ['--json'] },
  accuracy: { args: /FILE/, options: ['--json', '--baselines'] },
  inspect: { args: /FILE\.\.\./, options: ['--json'] },
  reconcile: { args: /LOG/, options: ['--json', '--scenario FILE'] },
  models: { args: null, options: ['--json'] },
  gpus: { args: null, options: ['--json'] },
};

test('--help lists every subcommand with a one-line description', () => {
  for (const flag of ['--help', '-h']) {
    const r = run([flag]);
    assert.equal(r.status, 0, flag);
    assert.equal(r.stderr, '');
    for (const name of Object.keys(subcommands)) assert.match(r.stdout, new RegExp(`^  ${name} +\\S.*$`, 'm'), name);
  }
});

test('each subcommand has --help with its description, arguments and options', () => {
  for (const [name, want] of Object.entries(subcommands)) {
    const r = run([name, '--help']);
    assert.equal(r.status, 0, name);
    assert.equal(r.signal, null, name);
    const lines = r.stdout.split('\n');
    assert.ok(lines[0].length > 10 && !lines[0].startsWith('Usage'), `${name}: a one-line description first`);
    assert.match(r.stdout, new RegExp(`Usage: vram-budget ${name} \\[OPTIONS\\]`), name);
    if (want.args) assert.match(r.stdout, want.args, name);
    for (const o of want.options) assert.ok(r.stdout.includes(o), `${name}: ${o}`);
    assert.ok(r.stdout.includes('-h,--help'), name);
  }
});

test('a wrong flag, a missing argument or an unknown subcommand: one line, the usage, exit 2', () => {
  const cases = [
    [['estimate', '--bogus', '-'], /^vram-budget estimate: .*--bogus\n/, /usage: vram-budget estimate FILE\|- \[--json\]/],
    [['plan'], /^vram-budget plan: FILE is required\n/, /usage: vram-budget plan /],
    [['accuracy', 'a.jsonl', 'b.jsonl'], /^vram-budget accuracy: .*b\.jsonl\n/, /usage: vram-budget accuracy /],
    [['inspect'], /^vram-budget inspect: FILE is required\n/, /usage: vram-budget inspect /],
    [['reconcile', 'log.txt'], /^vram-budget reconcile: --scenario is required\n/, /usage: vram-budget reconcile /],
    [['models', '--baselines'], /^vram-budget models: .*--baselines\n/, /usage: vram-budget models /],
    [['estmate', 'x.json'], /^vram-budget: unknown subcommand "estmate"\n/, /usage: vram-budget estimate .*\n(.*\n)*.*vram-budget gpus/],
    [[], /^vram-budget: A subcommand is required\n/, /usage: vram-budget estimate/],
  ];
  for (const [args, first, usage] of cases) {
    const r = run(args);
    const what = args.join(' ') || '(none)';
    assert.equal(r.status, 2, what);
    assert.equal(r.stdout, '', what);
    assert.match(r.stderr, first, what);
    assert.match(r.stderr, usage, what);
  }
});

test('flags may come before or after the file; - reads standard input', () => {
  const scenario = JSON.stringify({ model: { params: 13e9 }, weights: 'bf16' });
  for (const args of [['estimate', '--json', '-'], ['estimate', '-', '--json']]) {
    const r = run(args, scenario);
    assert.equal(r.status, 0, args.join(' '));
    assert.equal(JSON.parse(r.stdout).ok, true);
  }
  const models = run(['models', '--json']);
  assert.equal(models.status, 0);
  assert.ok(JSON.parse(models.stdout).some((m) => m.id === 'meta-llama/Llama-3.1-8B'));
});
