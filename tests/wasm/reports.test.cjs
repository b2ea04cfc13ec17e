// The generated pages cannot go stale: ACCURACY.md is regenerated from the
// measured cases and `vram-budget accuracy --json` and must equal the committed
// file; BENCHMARKS.md must list every benchmark scenario and its machine.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const report = require(path.join(root, 'scripts', 'accuracy-report'));
const cli = path.join(root, 'build', 'native', 'vram-budget');

test('ACCURACY.md is what scripts/accuracy-report generates now', (t) => {
  const files = report.inputs();
  if (files.length === 0) {
    t.skip('no measured cases beside the checkout (../shared/accuracy/public.jsonl) nor in tests/data/cases/');
    return;
  }
  assert.ok(fs.existsSync(cli), 'build the CLI first: cmake --build --preset native');
  const acc = report.runAccuracy(files);
  const fresh = report.render(files, acc);
  const committed = fs.readFileSync(path.join(root, 'ACCURACY.md'), 'utf8');
  assert.equal(committed, fresh, 'ACCURACY.md is stale: run scripts/accuracy-report and commit it');
  // The page's copy (web/accuracy.html) is the same text as HTML, generated with it.
  const html = fs.readFileSync(path.join(root, 'web', 'accuracy.html'), 'utf8');
  assert.equal(html, report.toHtml(fresh), 'web/accuracy.html is stale: run scripts/accuracy-report and commit it');
  // Its figures are the CLI's: every summary row appears with the CLI's case count.
  for (const s of acc.summary) {
    assert.ok(committed.includes(`| ${s.group} | \`${s.metric}\` | ${s.n} |`), `${s.group} ${s.metric}`);
  }
});

test('the HTML rendition escapes text and keeps every table row', () => {
  const html = report.toHtml('# A <b> & "c"\n\nText with `x < y` and **bold**.\n\n| a | b |\n| --- | --- |\n| 1 | `2` |\n| 3 | 4 |\n\n- one\n- two\n');
  assert.match(html, /<h1 id="a-b-c">A &lt;b&gt; &amp; &quot;c&quot;<\/h1>/);
  assert.match(html, /<p>Text with <code>x &lt; y<\/code> and <strong>bold<\/strong>\.<\/p>/);
  assert.equal((html.match(/<tr>/g) || []).length, 3);
  assert.match(html, /<td><code>2<\/code><\/td>/);
  assert.match(html, /<ul>\n\s*<li>one<\/li>\n\s*<li>two<\/li>/);
});

test('BENCHMARKS.md lists every benchmark scenario and the machine it ran on', () => {
  const text = fs.readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8');
  const src = fs.readFileSync(path.join(root, 'scripts', 'benchmarks'), 'utf8');
  const names = [...src.matchAll(/^ {2}'([^']+)': \{/gm)].map((m) => m[1]);
  assert.ok(names.length >= 5, 'scenario names found in scripts/benchmarks');
  for (const n of names) assert.ok(text.includes(`| ${n} |`), `BENCHMARKS.md lacks "${n}": run scripts/benchmarks`);
  assert.match(text, /\| CPU \| .+ \|/);
  assert.match(text, /\| cores \| \d+ \|/);
  assert.match(text, /\| node \| v\d+/);
  assert.match(text, /load before \(`uptime`\)/);
});
