// One self-contained HTML file (web/build.cjs --single): the page, the module and
// the element inlined, opened from file:// under a Content Security Policy that
// allows nothing from anywhere; it must estimate and request nothing but itself.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { ROOT, WAIT, launch, newContext } = require('./helpers.cjs');
const { singleFile } = require('../../web/build.cjs');

const FILE = path.join(ROOT, 'test-results', 'vram-budget.html');
let browser;
before(async () => {
  fs.mkdirSync(path.dirname(FILE), { recursive: true });
  fs.writeFileSync(FILE, await singleFile());
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('the single file works from file:// with zero network requests, under a strict policy', async () => {
  const html = fs.readFileSync(FILE, 'utf8');
  assert.ok(!/<script src="[^"]*"><\/script>|<link rel="stylesheet"/.test(html), 'a script or stylesheet is still linked');
  const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
  assert.match(policy, /default-src 'none'/);
  assert.doesNotMatch(policy, /unsafe-inline|\*|https?:|connect-src/);
  // 'unsafe-eval' only while the module's glue builds functions from text.
  const module = fs.readFileSync(path.join(ROOT, 'web', 'vram-budget.js'), 'utf8');
  assert.equal(policy.includes("'unsafe-eval'"), /\bnew Function\b/.test(module));

  const context = await newContext(browser);
  const page = await context.newPage();
  page.on('pageerror', (err) => context.pageErrors.push(err.message));
  await page.goto(`${pathToFileURL(FILE).href}#v=1&wl=&src=params&params=13000000000&w=bf16`);
  await page.waitForFunction(() => $vb('[data-testid=weights-formula]')?.textContent.includes('26,000,000,000 B'), null, WAIT);
  // A second workload and a catalog model, all from the one file.
  await page.getByTestId('source-catalog').check();
  await page.waitForFunction(() => $vb('tr[data-component=kv_cache]'), null, WAIT);
  await page.getByTestId('workload-training').check();
  await page.waitForFunction(() => $vb('tr[data-component=optimizer_state]'), null, WAIT);
  assert.deepEqual(context.requests.map((u) => u.split('#')[0]), [pathToFileURL(FILE).href]);
  assert.deepEqual(context.pageErrors, []);
  await context.close();
});
