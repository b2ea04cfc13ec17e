// <vram-budget> embedded in a host page: the host's styles stay intact and do not
// reach inside, no id repeats, every attribute is observed (set and removed),
// no-url-state never touches the host's URL, and the link does not rewrite it.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { WAIT, WEB, useBrowser } = require('./helpers.cjs');

const HOST_URL = pathToFileURL(path.join(__dirname, 'fixtures', 'embed.html')).href;

let context;
useBrowser((c) => { context = c; });

async function openHost(hash = '#host-anchor') {
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  page.on('pageerror', (err) => context.pageErrors.push(err.message));
  await page.goto(HOST_URL + hash);
  await page.waitForFunction(() => [...document.querySelectorAll('vram-budget')].every((el) => el.report && el.report.ok), null, WAIT);
  return page;
}
const scenarioOf = (page, id) => page.evaluate((i) => document.getElementById(i).scenario, id);
const waitScenario = (page, id, check) => page.waitForFunction(([i, src]) => {
  const sc = document.getElementById(i).scenario;
  return sc && (0, eval)(`(${src})`)(sc);
}, [id, String(check)], WAIT);

test('the host page keeps its styles, and the element keeps its own', async () => {
  const page = await openHost();
  const host = await page.evaluate(() => {
    const b = getComputedStyle(document.body);
    return { margin: b.marginTop, bg: b.backgroundColor, font: b.fontFamily,
      h2: getComputedStyle(document.getElementById('host-title')).color,
      p: getComputedStyle(document.getElementById('host-text')).letterSpacing };
  });
  assert.deepEqual(host, { margin: '37px', bg: 'rgb(250, 240, 200)', font: 'serif', h2: 'rgb(200, 0, 0)', p: '3px' });
  // The host's rules for h2, select and .vb-layout do not reach into the element.
  const inside = await page.evaluate(() => {
    const root = document.getElementById('first').shadowRoot;
    return { layout: getComputedStyle(root.querySelector('.vb-layout')).display,
      h2: getComputedStyle(root.querySelector('h2')).textTransform,
      select: getComputedStyle(root.querySelector('select')).borderTopWidth };
  });
  assert.deepEqual(inside, { layout: 'grid', h2: 'none', select: '1px' });
  assert.ok(await page.locator('#first').getByTestId('verdict').isVisible());
  await page.close();
});

test('no id is repeated: the document has none from the element, and each instance has its own', async () => {
  const page = await openHost();
  const ids = await page.evaluate(() => {
    const doc = [...document.querySelectorAll('[id]')].map((e) => e.id);
    const roots = [...document.querySelectorAll('vram-budget')].map((el) => [...el.shadowRoot.querySelectorAll('[id]')].map((e) => e.id));
    const attrs = ['for', 'aria-labelledby', 'aria-controls', 'aria-describedby', 'aria-activedescendant'];
    const refs = [];
    for (const el of document.querySelectorAll('vram-budget')) {
      for (const e of el.shadowRoot.querySelectorAll(attrs.map((a) => `[${a}]`).join(','))) {
        for (const a of attrs) {
          for (const x of (e.getAttribute(a) || '').split(' ').filter(Boolean)) {
            if (!el.shadowRoot.getElementById(x)) refs.push(`${e.tagName} ${a}=${x}`);
          }
        }
      }
    }
    return { doc, roots, refs };
  });
  assert.deepEqual(ids.doc, ['host-title', 'host-text', 'first', 'second']);
  for (const r of ids.roots) assert.equal(new Set(r).size, r.length);
  assert.ok(ids.roots[0].length > 50);
  assert.deepEqual(ids.refs, [], 'every label and reference points into its own shadow root');
  await page.close();
});

test('attributes are observed both ways: set, changed and removed', async () => {
  const page = await openHost();
  const second = page.locator('#second');
  assert.equal((await scenarioOf(page, 'second')).inference.context, 8192);
  assert.equal(await second.getByTestId('context').inputValue(), '8192');

  await page.evaluate(() => document.getElementById('second').setAttribute('context', '32K'));
  await waitScenario(page, 'second', (s) => s.inference.context === 32768);
  assert.equal(await second.getByTestId('context').inputValue(), '32K');
  await page.evaluate(() => document.getElementById('second').removeAttribute('context'));
  await waitScenario(page, 'second', (s) => s.inference.context === undefined);
  assert.equal(await second.getByTestId('context').inputValue(), '');

  await page.evaluate(() => document.getElementById('second').removeAttribute('gpu'));
  await waitScenario(page, 'second', (s) => s.hardware.gpu === undefined);

  await page.evaluate(() => {
    const el = document.getElementById('second');
    el.setAttribute('workload', 'training');
    el.setAttribute('training-method', 'qlora');
    el.setAttribute('training-seq-len', '4k');
  });
  await waitScenario(page, 'second', (s) => s.workload === 'training' && s.training.method === 'qlora' && s.training.seq_len === 4000);
  assert.equal(await second.getByTestId('workload-training').isChecked(), true);
  await page.evaluate(() => document.getElementById('second').removeAttribute('training-method'));
  await waitScenario(page, 'second', (s) => s.training.method === undefined);
  await page.evaluate(() => document.getElementById('second').removeAttribute('workload'));
  await waitScenario(page, 'second', (s) => s.workload === undefined && s.inference);

  // The other instance did not move.
  assert.deepEqual(await scenarioOf(page, 'first'),
    { v: 1, model: { params: 13000000000 }, weights: 'bf16', hardware: { count: 1 }, inference: {} });
  await page.close();
});

test('no-url-state: editing never touches the host\u2019s URL, and the link points to the standalone page', async () => {
  const page = await openHost('#host-anchor');
  const before = await page.evaluate(() => [location.href, history.length]);
  const first = page.locator('#first');
  await first.getByTestId('params').fill('7B');
  await waitScenario(page, 'first', (s) => s.model.params === 7e9);
  await first.getByTestId('workload-training').check();
  await waitScenario(page, 'first', (s) => s.workload === 'training');
  assert.deepEqual(await page.evaluate(() => [location.href, history.length]), before);

  const link = first.getByTestId('permalink');
  const href = await link.getAttribute('href');
  assert.equal(href.split('#')[0], pathToFileURL(path.join(WEB, 'index.html')).href);
  assert.equal(new URLSearchParams(href.split('#')[1]).get('wl'), 'training');
  assert.equal(await link.getAttribute('target'), '_blank');
  // Opened, that link reproduces the instance's scenario on the standalone page.
  const page2 = await context.newPage();
  await page2.goto(href);
  await page2.waitForFunction(() => document.querySelector('vram-budget')?.report, null, WAIT);
  assert.deepEqual(await page2.evaluate(() => document.querySelector('vram-budget').scenario), await scenarioOf(page, 'first'));
  await page2.close();

  // page-url chooses another standalone page.
  await page.evaluate(() => document.getElementById('first').setAttribute('page-url', 'https://example.org/vram/'));
  await page.waitForFunction(() => document.getElementById('first').shadowRoot
    .querySelector('[data-testid=permalink]').href.startsWith('https://example.org/vram/#v=1'), null, WAIT);

  // A hash change on the host is not read either.
  await page.evaluate(() => { location.hash = '#v=1&src=params&params=1000'; });
  await page.waitForTimeout(200);
  assert.equal((await scenarioOf(page, 'first')).model.params, 7e9);
  await page.close();
});

test('no script error and no request outside the files', () => {
  assert.deepEqual(context.pageErrors, []);
  assert.deepEqual(context.requests.filter((u) => !u.startsWith('file://')), []);
});

test('config and gpu-memory attributes; an unknown workload or link version is an error, not a notice', async () => {
  const page = await openHost();
  const cfg = { model_type: 'llama', hidden_size: 2048, intermediate_size: 8192, num_hidden_layers: 16,
    num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256, max_position_embeddings: 8192, torch_dtype: 'bfloat16' };
  await page.evaluate((c) => {
    const el = document.getElementById('first');
    el.removeAttribute('source');
    el.setAttribute('source', 'config');
    el.setAttribute('config', JSON.stringify(c));
    el.setAttribute('gpu-memory', '16 GiB');
  }, cfg);
  await waitScenario(page, 'first', (s) => s.model.config && s.model.config.hidden_size === 2048 && s.hardware.gpu.memory_bytes === 16 * 2 ** 30);
  await page.waitForFunction(() => document.getElementById('first').report.ok, null, WAIT);

  await page.evaluate(() => document.getElementById('first').setAttribute('workload', 'cooking'));
  const err = page.locator('#first').getByTestId('error-banner');
  await err.waitFor({ state: 'visible', ...WAIT });
  assert.match(await err.textContent(), /\/workload.*cooking/);
  assert.equal(await page.locator('#first').getByTestId('notice').isVisible(), false);
  await page.close();

  const standalone = await context.newPage();
  await standalone.goto(`${pathToFileURL(path.join(WEB, 'index.html')).href}#v=9&src=params&params=1`);
  await standalone.waitForFunction(() => document.querySelector('vram-budget')?.report, null, WAIT);
  assert.match(await standalone.locator('vram-budget .vb-form > .vb-field-error').first().textContent(), /state version v=9/);
  await standalone.close();
});

test('moved in the host\u2019s DOM, an instance keeps its state and answers again', async () => {
  const page = await openHost();
  await page.locator('#second').getByTestId('context').fill('4096');
  await waitScenario(page, 'second', (s) => s.inference.context === 4096);
  await page.evaluate(() => {
    const el = document.getElementById('second');
    const box = document.createElement('div');
    document.body.prepend(box);
    box.append(el); // disconnected, then connected again
  });
  await page.evaluate(() => document.getElementById('second').setAttribute('concurrency', '3'));
  await waitScenario(page, 'second', (s) => s.inference.context === 4096 && s.inference.concurrency === 3);
  assert.ok(await page.locator('#second').getByTestId('verdict').isVisible());
  assert.equal(await page.locator('#second').locator('.vb-layout').count(), 1, 'drawn once');
  await page.close();
});
