// The page on a phone and for every reader: no horizontal scroll at 360–390 px,
// the form never over the results, light and dark themes from the system,
// readable contrast, distinct names for repeated buttons, focus kept after Apply.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { WAIT, launch, newContext, openPage, contrast, renderAllSections } = require('./helpers.cjs');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const LLAMA_SPLIT = '#v=1&src=catalog&model=mistralai%2FMixtral-8x7B-Instruct-v0.1&w=gguf%3AQ4_K_M&engine=llama.cpp&ctx=8192&gpu=RTX-4090&n=2';
const VLLM = '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=1';

for (const width of [360, 390]) {
  test(`${width} px wide: no horizontal scroll, and the form does not cover the results`, async () => {
    const context = await newContext(browser, { viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
    for (const hash of [VLLM, LLAMA_SPLIT, '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B']) {
      const page = await openPage(context, hash);
      await page.locator('[data-testid=verdict]:visible, [data-testid=notice]:visible').first().waitFor({ state: 'visible', ...WAIT });
      await page.waitForTimeout(100);
      // Every section rendered, also those off screen: none may be wider than the screen.
      await renderAllSections(page);
      const sw = await page.evaluate(() => [document.documentElement.scrollWidth, document.body.scrollWidth]);
      assert.ok(Math.max(...sw) <= width, `${hash}: document is ${sw} px wide at ${width} px`);
      // Scrolled to the results, the point at their centre belongs to the results, not the form.
      const target = page.locator('[data-testid=verdict]:visible, [data-testid=notice]:visible').first();
      await target.scrollIntoViewIfNeeded();
      const hit = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const at = el.getRootNode().elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
        return !!at && el.contains(at);
      });
      assert.ok(hit, `${hash}: something covers the results`);
      await page.close();
    }
    // A skip link leads past the form on a narrow screen.
    const page = await openPage(context, VLLM);
    assert.ok(await page.getByTestId('skip-to-results').isVisible());
    await context.close();
  });
}

/** Colours of the text matched by `sel` against the background it sits on. */
function contrastOf(page, sel) {
  return page.evaluate((s) => {
    const root = document.querySelector('vram-budget').shadowRoot;
    const bgOf = (el) => {
      for (let e = el; e; e = e.parentElement || (e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : null)) {
        const bg = getComputedStyle(e).backgroundColor;
        if (bg && !/rgba\(\d+, \d+, \d+, 0\)|transparent/.test(bg)) return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    return [...root.querySelectorAll(s)].filter((e) => e.offsetParent !== null && e.textContent.trim())
      .map((e) => ({ text: e.textContent.trim().slice(0, 40), fg: getComputedStyle(e).color, bg: bgOf(e) }));
  }, sel);
}

for (const scheme of ['light', 'dark']) {
  test(`${scheme} theme follows the system; metric names and secondary text have contrast of at least 4.5:1`, async () => {
    const context = await newContext(browser, { colorScheme: scheme });
    const page = await openPage(context, VLLM);
    await page.locator('[data-metric=kv_capacity_tokens]').waitFor(WAIT);
    const host = await page.evaluate(() => getComputedStyle(document.querySelector('vram-budget')).backgroundColor);
    const pageBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = (c) => c.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b) < 200;
    assert.equal(dark(host), scheme === 'dark', host);
    assert.equal(dark(pageBg), scheme === 'dark', pageBg);
    const samples = [];
    for (const sel of ['.vb-metrics dt', '.vb-metrics dt code', '.vb-help', '.vb-source', '.vb-defaults', 'label',
      '.vb-table td', '.vb-table th', '.vb-legend li', '.vb-verdict-line', '.vb-warnings li', '.vb-apply']) {
      samples.push(...(await contrastOf(page, sel)).map((x) => ({ sel, ...x })));
    }
    assert.ok(samples.filter((x) => x.sel === '.vb-metrics dt code').length >= 5);
    for (const x of samples) {
      const c = contrast(x.fg, x.bg);
      assert.ok(c >= 4.5, `${scheme}: ${x.sel} "${x.text}" ${x.fg} on ${x.bg} is ${c.toFixed(2)}:1`);
    }
    await context.close();
  });
}

test('repeated Use and Apply buttons have distinct accessible names; focus stays where the user acted', async () => {
  const context = await newContext(browser);
  const page = await openPage(context, VLLM);
  await page.locator('[data-testid=plan] .vb-apply').first().waitFor(WAIT);
  const names = await page.locator('[data-testid=plan] .vb-apply').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label') || b.textContent));
  assert.ok(names.length > 5);
  assert.equal(new Set(names).size, names.length, `repeated names: ${names}`);
  for (const n of names) assert.match(n, /^(Use .+|Apply: .+)$/);
  const use = page.locator('[data-testid=plan] [data-action^="use:"]').nth(1);
  const action = await use.getAttribute('data-action');
  const [, gpu, count] = action.split(':');

  // Keyboard: focus a Use button and press Enter; the GPU changes and focus stays on that button.
  await use.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(([g, n]) => {
    const hw = document.querySelector('vram-budget').scenario.hardware;
    return hw.gpu === g && hw.count === Number(n);
  }, [gpu, count], WAIT);
  const focused = await page.evaluate(() => {
    const a = document.querySelector('vram-budget').shadowRoot.activeElement;
    return a ? { action: a.dataset.action || null, tag: a.tagName, inPlan: !!a.closest('[data-testid=plan]') } : null;
  });
  assert.ok(focused && focused.inPlan, `focus went to ${JSON.stringify(focused)}`);
  assert.equal(focused.action, action);
  assert.notEqual(await page.evaluate(() => document.activeElement.tagName), 'BODY');

  // An Apply whose button does not come back: focus goes to the plan's heading, not to <body>.
  const apply = page.locator('[data-testid=plan] [data-action^="hint:"]').first();
  if (await apply.count()) {
    await apply.click();
    await page.waitForFunction(() => {
      const a = document.querySelector('vram-budget').shadowRoot.activeElement;
      return a && a.closest('[data-testid=plan]');
    }, null, WAIT);
  }
  await context.close();
});
