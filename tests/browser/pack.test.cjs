// The packed module in a browser (scripts/pack-module.cjs): its WebAssembly is
// compiled while it inflates, from the moment the script runs
// (WebAssembly.compileStreaming over a Response made in the page), every
// instance shares the compiled module, and a damaged payload still rejects
// with its reason.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { ROOT, PAGE_URL, useBrowser } = require('./helpers.cjs');
const { unpack } = require('../../scripts/pack-module.cjs');

let context;
useBrowser((c) => { context = c; });

const text = fs.readFileSync(path.join(ROOT, 'web', 'vram-budget.js'), 'utf8');
const call = /(createVramBudget, ")([A-Za-z0-9+/=]+)(", \d+\);)/.exec(text);

/** The module with another payload in its loader call. */
function withPayload(payload) {
  return text.slice(0, call.index) + call[1] + payload + call[3] + text.slice(call.index + call[0].length);
}

/** Loads `source` into a page from file:// and reports how the factory settled
 *  and which WebAssembly entry points it used (instantiate:module or
 *  instantiate:bytes); with `refuseStreaming`, the page's compileStreaming
 *  rejects as a browser that does not stream a Response made in the page would.
 *  The factory is called twice: the second call must not compile again. */
async function load(source, { refuseStreaming = false } = {}) {
  const page = await context.newPage();
  await page.goto(`${PAGE_URL}#v=1`);
  await page.setContent('<p>module</p>');
  await page.evaluate((refuse) => {
    window.used = [];
    for (const name of ['compile', 'compileStreaming', 'instantiate', 'instantiateStreaming']) {
      const real = WebAssembly[name];
      WebAssembly[name] = function (...args) {
        window.used.push(name === 'instantiate' ? `instantiate:${args[0] instanceof WebAssembly.Module ? 'module' : 'bytes'}` : name);
        if (refuse && name === 'compileStreaming') return Promise.reject(new TypeError('streaming refused'));
        return real.apply(WebAssembly, args);
      };
    }
  }, refuseStreaming);
  await page.addScriptTag({ content: source });
  // A factory that never settles is a failure too (10 s).
  const result = await page.evaluate(() => Promise.race([
    createVramBudget().then((m) => createVramBudget().then((second) => ({
      ok: JSON.parse(m.catalog({ models: false })).ok && JSON.parse(second.catalog({ models: false })).ok,
      used: window.used }))).then((r) => r,
      (e) => ({ error: String(e && e.message ? e.message : e), used: window.used })),
    new Promise((resolve) => setTimeout(() => resolve({ error: 'the factory did not settle in 10 s', used: window.used }), 10000)),
  ]));
  await page.close();
  return result;
}

test('the packed module compiles while it inflates, once for every instance', async () => {
  assert.ok(call, 'the loader call');
  const r = await load(text);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.used, ['compileStreaming', 'instantiate:module', 'instantiate:module']);
});

test('a damaged payload rejects the factory with its reason, not a stream error', async () => {
  const wasm = unpack(text).wasm;
  // A valid stream one byte short of the WebAssembly: the count at its end names both sizes.
  const short = await load(withPayload(zlib.deflateRawSync(wasm.subarray(0, wasm.length - 1)).toString('base64')));
  assert.match(short.error, new RegExp(`inflates to ${wasm.length - 1} bytes, not ${wasm.length}`));
  // A stream cut in half: the inflater's own words.
  const cut = await load(withPayload(call[2].slice(0, Math.floor(call[2].length / 8) * 4)));
  assert.ok(cut.error, JSON.stringify(cut));
  assert.doesNotMatch(cut.error, /Failed to read from a ReadableStream/);
  assert.match(cut.error, /truncated|unexpected end|invalid|incorrect/i);
});

test('where streaming is refused, the module still loads through the buffered path', async () => {
  const r = await load(text, { refuseStreaming: true });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.used, ['compileStreaming', 'compile', 'instantiate:module', 'instantiate:module']);
});
