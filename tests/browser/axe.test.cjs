// axe-core (from npm) on the page in both themes: no serious or critical
// violation in any workload, with an input error, with the type-ahead open,
// on a desktop and on a phone.
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { ROOT, WAIT, launch, newContext, openPage, showState } = require('./helpers.cjs');

const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const STATES = [
  ['inference', '#v=1&src=catalog&model=meta-llama%2FLlama-3.1-8B&ctx=32768&conc=8&gpu=L40S&n=1'],
  ['llama.cpp split', '#v=1&src=catalog&model=mistralai%2FMixtral-8x7B-Instruct-v0.1&w=gguf%3AQ4_K_M&engine=llama.cpp&ctx=8192&gpu=RTX-4090&n=2'],
  ['fine-tuning', '#v=1&wl=training&src=catalog&model=Qwen%2FQwen3-8B&method=lora'],
  ['video', '#v=1&wl=video&pipe=Wan-AI%2FWan2.1-T2V-14B&frames=81'],
  ['paste config', '#v=1&src=config'],
  ['model files', '#v=1&src=files'],
  ['input error', '#v=1&src=params&params=13000000000&n=0'],
];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** axe's findings on the page as it is (axe injected once per page). */
async function violations(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) })));
}

for (const scheme of ['light', 'dark']) {
  for (const width of [1280, 390]) {
    test(`axe: no serious or critical violation, ${scheme} theme, ${width} px`, async () => {
      const context = await newContext(browser, { colorScheme: scheme, viewport: { width, height: 900 } });
      // One page: loaded at the first state, then each state by its URL fragment, as a shared link
      // opened in the same tab applies it (the element follows hashchange).
      const page = await openPage(context, STATES[0][1]);
      for (const [name, hash] of STATES) {
        if (hash !== STATES[0][1]) await showState(page, hash);
        await page.waitForTimeout(50);
        const found = await violations(page);
        const bad = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(bad, [], `${name}: ${JSON.stringify(bad)}`);
        if (name === 'inference') assert.deepEqual(found, [], `${name}: ${JSON.stringify(found)}`);
      }
      // The type-ahead, open.
      await showState(page, STATES[0][1]);
      await page.getByTestId('source-catalog').check();
      await page.getByTestId('model').fill('qwen');
      await page.getByTestId('model-options').waitFor({ state: 'visible', ...WAIT });
      const bad = (await violations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad, [], JSON.stringify(bad));
      await context.close();
    });
  }
}
