// English and Dutch on the page: the switch (and back) without losing the
// inputs or the focus, figures per locale, the lang attribute and the
// browser's language, numbers typed with a Dutch decimal comma, and no English
// string of the page's own left on a Dutch page.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { WAIT, WEB, launch, newContext, openPage, scenarioWhen, hashParams } = require('./helpers.cjs');
const { loadTables } = require('./strings.cjs');
const files = require('./fixtures/model-files.cjs');

const HOST_URL = pathToFileURL(path.join(__dirname, 'fixtures', 'embed.html')).href;
const VLLM = '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=1';
const tables = loadTables();

let browser;
let en;
before(async () => {
  browser = await launch();
  en = await newContext(browser);
});
after(async () => {
  await browser?.close();
});

const layoutLang = (page, n = 0) => page.evaluate((i) =>
  document.querySelectorAll('vram-budget')[i].shadowRoot.querySelector('.vb-layout')?.getAttribute('lang'), n);
const headings = (page) => page.evaluate(() =>
  [...document.querySelector('vram-budget').shadowRoot.querySelectorAll('h2, legend')].map((e) => e.textContent));
const activeTestId = (page) => page.evaluate(() =>
  document.querySelector('vram-budget').shadowRoot.activeElement?.dataset.testid ?? null);

test('the switch: Dutch and back, with the inputs, what is open and the focus kept', async () => {
  const page = await openPage(en, VLLM);
  await page.getByTestId('sweep-chart').waitFor(WAIT);
  const scenario = await page.evaluate(() => document.querySelector('vram-budget').scenario);
  assert.equal(await layoutLang(page), 'en');
  assert.ok((await headings(page)).includes('Raw weights first'));
  // Inputs that are not in the scenario: a pasted scenario and a log, and an open section.
  await page.getByTestId('scenario-details').locator('summary').click();
  await page.getByTestId('import').fill('{"v": 1}');
  await page.getByTestId('reconcile-log').fill('not a log yet');
  await page.getByTestId('context').fill('16384');
  await scenarioWhen(page, (s) => s.inference.context === 16384);

  const select = page.getByRole('combobox', { name: 'Language', exact: true });
  assert.equal(await select.inputValue(), 'en');
  await select.focus();
  await select.selectOption('nl');
  await page.waitForFunction(() => document.querySelector('vram-budget').language === 'nl', null, WAIT);
  assert.equal(await layoutLang(page), 'nl');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'nl', 'the standalone page follows');
  const nl = await headings(page);
  for (const h of ['Eerst de ruwe gewichten', 'Budget per GPU', 'Elk cijfer en hoe het is berekend', 'Metrieken',
    'Vergelijken met een meting', 'Plan', 'Workload', 'Model', 'Runtime', 'Hardware']) assert.ok(nl.includes(h), `${h} in ${nl}`);
  assert.equal(await page.locator('.vb-verdict-line strong').textContent(), 'Past');
  assert.equal(await page.getByTestId('copy-link').textContent(), 'Link kopi\u00ebren');
  assert.equal(await page.getByTestId('reconcile-run').textContent(), 'Vergelijken');
  assert.equal(await page.getByLabel('Gelijktijdige verzoeken', { exact: true }).inputValue(), '8');
  assert.match(await page.locator('h1 + .tagline').textContent(), /GPU-geheugencalculator/);
  // Nothing of the reader's is lost: inputs, texts waiting, the open section, the focus.
  assert.equal(await page.getByTestId('context').inputValue(), '16384');
  assert.equal(await page.getByTestId('gpu').inputValue(), 'L40S');
  assert.equal(await page.getByTestId('model').inputValue(), 'meta-llama/Llama-3.1-8B');
  assert.equal(await page.getByTestId('import').inputValue(), '{"v": 1}');
  assert.equal(await page.getByTestId('reconcile-log').inputValue(), 'not a log yet');
  assert.equal(await page.getByTestId('scenario-details').evaluate((d) => d.open), true);
  assert.equal(await activeTestId(page), 'language');
  assert.deepEqual(await page.evaluate(() => document.querySelector('vram-budget').scenario), { ...scenario, inference: { ...scenario.inference, context: 16384 } });
  assert.equal(hashParams(page).get('lang'), 'nl', 'the link keeps the choice');
  assert.ok(await page.getByTestId('sweep-chart').isVisible());

  // Back with the keyboard, from the switch itself (its name is now Dutch).
  const taal = page.getByRole('combobox', { name: 'Taal', exact: true });
  await taal.focus();
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('vram-budget').language === 'en', null, WAIT);
  assert.equal(await layoutLang(page), 'en');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.ok((await headings(page)).includes('Raw weights first'));
  assert.equal(await page.locator('.vb-verdict-line strong').textContent(), 'Fits');
  assert.equal(await activeTestId(page), 'language');
  assert.equal(await page.getByTestId('context').inputValue(), '16384');
  assert.equal(await page.getByTestId('import').inputValue(), '{"v": 1}');
  assert.equal(hashParams(page).get('lang'), 'en');

  // A link with lang= opens in that language; one without keeps the browser's.
  const again = await openPage(en, `${VLLM}&lang=nl`);
  assert.equal(await layoutLang(again), 'nl');
  await again.locator('a[data-step=weights]').click();
  await scenarioWhen(again, (s) => s.model && s.model.params === 13e9);
  assert.equal(await layoutLang(again), 'nl', 'a step of the walk keeps the language');
  assert.equal(hashParams(again).get('lang'), 'nl');
  await again.close();
  const old = await openPage(en, VLLM);
  assert.equal(await layoutLang(old), 'en');
  assert.equal(hashParams(old).has('lang'), false, 'no choice made: the link names no language');
  await old.close();
  await page.close();
});

test('figures per locale: 14,96 GiB and 1.210.304-style grouping in Dutch; the module\u2019s text as it comes', async () => {
  const read = async (page) => page.evaluate(() => {
    const root = document.querySelector('vram-budget').shadowRoot;
    const t = (sel) => root.querySelector(sel).textContent;
    return { weights: t('[data-metric=weights_bytes]'), tokens: t('[data-metric=kv_capacity_tokens]'),
      conc: t('[data-metric=max_concurrency]'), cell: t('tr[data-component=weights] td'),
      gib: t('tr[data-component=weights] td:nth-child(3)'), formula: t('[data-testid=weights-formula]'),
      verdict: t('[data-testid=verdict] .vb-verdict-line'), tick: root.querySelector('.vb-tick').textContent };
  });
  const pageEn = await openPage(en, VLLM);
  await pageEn.getByTestId('sweep-chart').waitFor(WAIT);
  const a = await read(pageEn);
  const pageNl = await openPage(en, `${VLLM}&lang=nl`);
  await pageNl.getByTestId('sweep-chart').waitFor(WAIT);
  const b = await read(pageNl);
  // The same figures, the separators swapped: "14.99 GiB (16,094,076,928 B)" → "14,99 GiB (16.094.076.928 B)".
  const dutch = (text) => text.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.'));
  assert.match(a.weights, /^\d+\.\d\d GiB \(\d{1,3}(,\d{3})+ B\)$/);
  assert.equal(b.weights, dutch(a.weights));
  assert.equal(a.cell, '16,060,522,496 B');
  assert.equal(b.cell, '16.060.522.496 B');
  assert.equal(b.gib, '14,96');
  assert.equal(b.tick, dutch(a.tick));
  assert.match(a.tokens, /^\d{1,3}(,\d{3})+ tokens$/);
  assert.match(b.tokens, /^\d{1,3}(\.\d{3})+ tokens$/);
  assert.equal(b.tokens.replace(/\./g, ''), a.tokens.replace(/,/g, ''), 'the same figure');
  assert.match(a.conc, /^\d+\.\d+\u00d7$/);
  assert.equal(b.conc, a.conc.replace('.', ','));
  assert.match(b.verdict, /^Past niet \u2014 per GPU 48,79 GiB van 41,10 GiB bruikbaar op NVIDIA L40S; 7,69 GiB tekort \(8\.261\.023\.744 B\)$/);
  assert.equal(b.formula, a.formula, 'the module\u2019s formula is shown as it gives it');
  assert.match(b.formula, /8,030,261,248 params/);
  await pageEn.close();
  await pageNl.close();
});

test('numbers typed in Dutch: a decimal comma, points that group, and the English reading in the link', async () => {
  const page = await openPage(en, '#v=1&src=params&params=1.5e9&mem=22.5%20GiB&lang=nl');
  // An English link shows its numbers the Dutch way, and means the same.
  assert.equal(await page.getByTestId('params').inputValue(), '1,5e9');
  assert.equal(await page.getByTestId('gpumem').inputValue(), '22,5 GiB');
  let sc = await scenarioWhen(page, (s) => s.model.params === 1.5e9);
  assert.equal(sc.hardware.gpu.memory_bytes, 22.5 * 2 ** 30);
  const understood = (key) => page.locator(`[data-understood=${key}]`).textContent();
  assert.equal(await understood('params'), 'gelezen als 1.500.000.000 parameters');

  await page.getByTestId('gpumem').fill('24,5 GB');
  sc = await scenarioWhen(page, (s) => s.hardware.gpu.memory_bytes === 24.5e9);
  assert.equal(await understood('gpumem'), 'gelezen als 24.500.000.000 B (22,82 GiB, 24,50 GB)');
  assert.equal(hashParams(page).get('mem'), '24.5 GB', 'the link holds the English reading');
  await page.getByTestId('params').fill('1.210.304');
  await scenarioWhen(page, (s) => s.model.params === 1210304);
  assert.equal(await understood('params'), 'gelezen als 1.210.304 parameters');
  await page.getByTestId('params').fill('2,5B');
  await scenarioWhen(page, (s) => s.model.params === 2.5e9);
  await page.getByTestId('headroom').fill('12,5');
  sc = await scenarioWhen(page, (s) => s.headroom === 0.125);
  await page.getByTestId('count').fill('1.024');
  await scenarioWhen(page, (s) => s.hardware.count === 1.024);
  assert.equal(await understood('count'), 'gelezen als 1,024', 'a lone point is a decimal point, and the input says so');

  // To English: the same values, written the English way.
  await page.getByRole('combobox', { name: 'Taal' }).selectOption('en');
  await page.waitForFunction(() => document.querySelector('vram-budget').language === 'en', null, WAIT);
  assert.equal(await page.getByTestId('gpumem').inputValue(), '24.5 GB');
  assert.equal(await page.getByTestId('headroom').inputValue(), '12.5');
  assert.equal(await page.getByTestId('params').inputValue(), '2.5B');
  assert.equal((await page.evaluate(() => document.querySelector('vram-budget').scenario)).hardware.gpu.memory_bytes, 24.5e9);
  // In English a comma groups thousands.
  await page.getByTestId('count').fill('1,024');
  await scenarioWhen(page, (s) => s.hardware.count === 1024);
  assert.equal(await understood('count'), 'read as 1,024');

  const got = await page.evaluate(() => {
    const p = (t, k, l) => window.VramBudgetElement.parseQuantity(t, k, l).value;
    return {
      en: [p('1,024', 'count'), p('13,000,000,000', 'params'), p('1.5e9', 'params'), p('1,5', 'count'),
        p('1,5e9', 'params'), p('1.024,5', 'decimal'), p('24,5 GB', 'bytes')],
      nl: [p('1,5e9', 'params', 'nl'), p('24,5 GB', 'bytes', 'nl'), p('1,024', 'decimal', 'nl'), p('1.210.304', 'count', 'nl'),
        p('1.024,5', 'decimal', 'nl'), p('1,024.5', 'decimal', 'nl'), p('13,000,000,000', 'params', 'nl'),
        p('1.5e9', 'params', 'nl'), p('0.9', 'decimal', 'nl'), p('32k', 'tokens', 'nl'), p('128K', 'tokens', 'nl'),
        p('7B', 'params', 'nl'), p('1,5,3', 'count', 'nl'), p('1.2.3', 'count', 'nl'), p('1.2345.678', 'count', 'nl')],
    };
  });
  assert.deepEqual(got.en, [1024, 13e9, 1.5e9, '1,5', '1,5e9', '1.024,5', '24,5 GB']);
  assert.deepEqual(got.nl, [1.5e9, 24.5e9, 1.024, 1210304, 1024.5, 1024.5, 13e9, 1.5e9, 0.9, 32000, 131072, 7e9,
    '1,5,3', '1.2.3', '1.2345.678']);
  await page.close();
});

test('the lang attribute sets the language; removed, the browser\u2019s language decides again', async () => {
  const page = await en.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  await page.goto(HOST_URL);
  await page.waitForFunction(() => [...document.querySelectorAll('vram-budget')].every((el) => el.report && el.report.ok), null, WAIT);
  assert.equal(await layoutLang(page, 0), 'en');
  const first = page.locator('#first');
  const second = page.locator('#second');
  const events = page.evaluate(() => new Promise((resolve) => {
    document.addEventListener('language-change', (e) => resolve([e.target.id, e.detail.lang]), { once: true });
  }));
  await page.evaluate(() => document.getElementById('first').setAttribute('lang', 'nl'));
  assert.deepEqual(await events, ['first', 'nl']);
  assert.equal(await layoutLang(page, 0), 'nl');
  assert.equal(await first.locator('.vb-verdict-line strong').textContent(), 'Past');
  assert.equal(await first.getByTestId('permalink').textContent(), 'Link naar deze schatting');
  assert.equal(await layoutLang(page, 1), 'en', 'the other instance keeps its own');
  assert.equal(await second.locator('.vb-verdict-line strong').textContent(), 'Fits');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the host page is left alone');
  await page.evaluate(() => document.getElementById('first').removeAttribute('lang'));
  await page.waitForFunction(() => document.getElementById('first').language === 'en', null, WAIT);
  assert.equal(await first.locator('.vb-verdict-line strong').textContent(), 'Fits');
  // An element that starts with lang="nl".
  await page.evaluate(() => {
    const el = document.createElement('vram-budget');
    el.id = 'third';
    el.setAttribute('lang', 'nl');
    el.setAttribute('no-url-state', '');
    document.body.append(el);
  });
  await page.waitForFunction(() => document.getElementById('third').report, null, WAIT);
  assert.equal(await layoutLang(page, 2), 'nl');
  assert.equal(await page.locator('#third').getByTestId('workload-help').textContent(), 'Inferentie: een taalmodel serveren of draaien.');
  await page.close();

  // A Dutch browser: Dutch by default, lang="en" overrides it, removed it is Dutch again.
  const dutch = await newContext(browser, { locale: 'nl-NL' });
  const standalone = await openPage(dutch, VLLM);
  assert.equal(await layoutLang(standalone), 'nl');
  assert.equal(await standalone.evaluate(() => document.title), 'VRAM Budget \u2014 hoeveel GPU-geheugen heeft deze configuratie nodig?');
  assert.equal(hashParams(standalone).has('lang'), false);
  await standalone.close();
  const host = await dutch.newPage();
  await host.goto(HOST_URL);
  await host.waitForFunction(() => [...document.querySelectorAll('vram-budget')].every((el) => el.report && el.report.ok), null, WAIT);
  assert.equal(await layoutLang(host, 1), 'nl');
  await host.evaluate(() => document.getElementById('second').setAttribute('lang', 'en'));
  await host.waitForFunction(() => document.getElementById('second').language === 'en', null, WAIT);
  assert.equal(await host.locator('#second').locator('.vb-verdict-line strong').textContent(), 'Fits');
  await host.evaluate(() => document.getElementById('second').removeAttribute('lang'));
  await host.waitForFunction(() => document.getElementById('second').language === 'nl', null, WAIT);
  await host.close();
  assert.deepEqual(dutch.pageErrors, []);
  await dutch.close();
});

/** Every string of the English table that the Dutch table says otherwise: whole
 *  strings, and the text between the {0} marks and the figures of a function's. */
function englishOnly() {
  // A stand-in for every argument: text "\u0001", also as a list (its join gives the same).
  const arg = () => Object.assign(['\u0001'], { toString: () => '\u0001' });
  const pieces = (table) => {
    const out = new Set();
    for (const v of Object.values(table)) {
      const text = typeof v === 'function' ? String(v(...Array.from({ length: v.length }, arg))) : String(v);
      for (const p of text.split(/\{\d\}|\u0001/)) if (p.trim().length > 1) out.add(p.trim());
    }
    return out;
  };
  const nl = pieces(tables.nl);
  return [...pieces(tables.en)].filter((p) => !nl.has(p) && /[a-z]{3}/i.test(p));
}

test('no English string of the page\u2019s own on a Dutch page, in any workload', async () => {
  const english = new Set(englishOnly());
  assert.ok(english.size > 300, `${english.size} English strings to look for`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-nl-'));
  files.writeSafetensors(path.join(dir, 'model.safetensors'), files.tinySafetensorsTensors());
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(files.tinyConfig()));
  fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a model file');
  const log = ['INFO 05-12 10:01:00 [gpu_model_runner.py:1623] Model loading took 14.99 GiB memory and 5.1 seconds',
    'INFO 05-12 10:01:02 [gpu_worker.py:227] Available KV cache memory: 54.32 GiB',
    'INFO 05-12 10:01:02 [kv_cache_utils.py:716] GPU KV cache size: 444,976 tokens'].join('\n');
  const dutch = await newContext(browser, { locale: 'nl-NL' });
  const states = [
    ['vLLM', VLLM, { log }],
    ['llama.cpp split', '#v=1&src=catalog&model=mistralai%2FMixtral-8x7B-Instruct-v0.1&w=gguf%3AQ4_K_M&engine=llama.cpp&ctx=8192&gpu=RTX-4090&n=2'],
    ['fine-tuning', '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B&method=lora&n=2&shard=ddp'],
    ['image', '#v=1&wl=image&pipe=black-forest-labs%2FFLUX.1-dev'],
    ['video, no pipeline yet', '#v=1&wl=video'],
    ['parameter count, custom GPU', '#v=1&src=params&params=7B&mem=24%20GB&headroom=20'],
    ['input error', '#v=1&src=params&params=13000000000&n=0'],
    ['paste config', '#v=1&src=config'],
    ['model files', '#v=1&src=files', { files: true }],
    ['old link version', '#v=9&src=params&params=1'],
  ];
  try {
    for (const [name, hash, extra = {}] of states) {
      const page = await openPage(dutch, hash);
      if (extra.files) {
        await page.getByTestId('files-input').setInputFiles(['config.json', 'model.safetensors', 'notes.txt'].map((f) => path.join(dir, f)));
        await page.getByTestId('files-summary').locator('table').waitFor(WAIT);
        await page.waitForFunction(() => document.querySelector('vram-budget').report?.ok, null, WAIT);
      }
      if (extra.log) {
        await page.getByTestId('reconcile-log').fill(extra.log);
        await page.getByTestId('reconcile-run').click();
        await page.getByTestId('reconcile-table').waitFor(WAIT);
      }
      await page.waitForFunction(() => !document.querySelector('vram-budget').shadowRoot.querySelector('.vb-loading'), null, WAIT);
      // Everything open: the fit map and every other section drawn.
      await page.evaluate(() => document.querySelector('vram-budget').shadowRoot.querySelectorAll('details').forEach((d) => { d.open = true; }));
      await page.waitForTimeout(50);
      const found = await page.evaluate((list) => {
        const el = document.querySelector('vram-budget');
        // Strings the module gave (labels, formulas, sources, warnings, hints, names): shown as given.
        const core = new Set();
        const walk = (v) => {
          if (typeof v === 'string') core.add(v.trim());
          else if (v && typeof v === 'object') Object.values(v).forEach(walk);
        };
        [el.report, el.plan, el.sweep, el._catalog, el._inspection].forEach(walk);
        const english = new Set(list);
        const bad = [];
        const look = (text, where) => {
          const t = String(text).replace(/\s+/g, ' ').trim();
          if (t && english.has(t) && !core.has(t)) bad.push(`${where}: ${t}`);
        };
        const visit = (root) => {
          const tw = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
          for (let n = tw.currentNode; n; n = tw.nextNode()) {
            if (n.nodeType === Node.TEXT_NODE) {
              if (!n.parentElement.closest('script, style')) look(n.data, n.parentElement.tagName.toLowerCase());
              continue;
            }
            if (n.nodeType !== Node.ELEMENT_NODE) continue;
            for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (n.hasAttribute(a)) look(n.getAttribute(a), `@${a}`);
            if (n.shadowRoot) visit(n.shadowRoot);
          }
        };
        visit(document.documentElement);
        look(document.title, 'title');
        return bad;
      }, [...english]);
      assert.deepEqual(found, [], `${name}: English left on the Dutch page`);
      assert.equal(await layoutLang(page), 'nl', name);
      await page.close();
    }
    assert.deepEqual(dutch.pageErrors, []);
  } finally {
    await dutch.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the standalone page\u2019s English text is the table\u2019s (page.* keys), as index.html has it', async () => {
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const page = await openPage(en, '#v=1');
  const diff = await page.evaluate((text) => {
    const norm = (s) => s.replace(/\s+/g, ' ').trim();
    const raw = new DOMParser().parseFromString(text, 'text/html');
    const out = [];
    for (const el of raw.querySelectorAll('[data-i18n]')) {
      const key = el.getAttribute('data-i18n');
      const now = document.querySelector(`[data-i18n="${key}"]`);
      if (!now || norm(now.textContent) !== norm(el.textContent)) out.push([key, norm(el.textContent), now && norm(now.textContent)]);
    }
    for (const el of raw.querySelectorAll('[data-i18n-label]')) {
      const now = document.querySelector(`[data-i18n-label="${el.getAttribute('data-i18n-label')}"]`);
      if (now.getAttribute('aria-label') !== el.getAttribute('aria-label')) out.push([el.getAttribute('aria-label')]);
    }
    return { out, count: raw.querySelectorAll('[data-i18n]').length };
  }, html);
  assert.deepEqual(diff.out, []);
  assert.ok(diff.count >= 20);
  await page.close();
  assert.deepEqual(en.pageErrors, []);
});

test('figures are formatted as Chromium\'s own Intl.NumberFormat formats them, in both locales', async () => {
  // The page formats en-US and nl-NL itself (the first Intl.NumberFormat of a
  // page costs tens of milliseconds); its rounding, grouping and signs must be Intl's.
  const page = await openPage(en, VLLM);
  const mismatches = await page.evaluate(() => {
    let seed = 11;
    const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const values = [0, -0, 1.005, 0.125, 2.5, -2.5, 999.995, 9.995, 0.005, 1e-7, 123456789012345.67, 2 ** 53, 2 ** 60,
      1e21, -1e-9, NaN, Infinity, -Infinity, 0.1 + 0.2, 1234, 26e9 / 2 ** 30];
    for (let i = 0; i < 20000; i++) {
      let v = rnd() * 10 * 10 ** (Math.floor(rnd() * 24) - 8);
      if (rnd() < 0.3) v = -v;
      if (rnd() < 0.3) v = Math.round(v * 1000) / 1000 + (rnd() < 0.5 ? 0.0005 : 0.005);
      values.push(v);
    }
    const out = [];
    for (const lang of ['en', 'nl']) {
      const tr = window.VramBudgetElement.translator(lang);
      for (const [min, max] of [[0, 0], [0, 1], [0, 2], [0, 3], [1, 1], [2, 2], [3, 3], [4, 4]]) {
        const intl = new Intl.NumberFormat(tr.locale, { minimumFractionDigits: min, maximumFractionDigits: max });
        for (const v of values) {
          const mine = min === max ? tr.fixed(v, min) : tr.number(v, max);
          if (mine !== intl.format(v)) out.push([lang, min, max, v, mine, intl.format(v)]);
        }
      }
    }
    return out.slice(0, 5).concat([out.length]);
  });
  assert.deepEqual(mismatches, [0]);
});
