// Shared set-up of the browser tests: Debian's chromium through playwright-core,
// the page from file://, and $vb(selector) for the element's shadow root.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { before, after } = require('node:test');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(__dirname, '..', '..');
const WEB = path.join(ROOT, 'web');
const PAGE_URL = pathToFileURL(path.join(WEB, 'index.html')).href;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const WAIT = { timeout: 10000 };
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

async function launch() {
  assert.ok(fs.existsSync(path.join(WEB, 'vram-budget.js')),
    'web/vram-budget.js is missing: build it with `cmake --build --preset wasm`');
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A context whose pages have $vb(sel) (first element's shadow root) and $vbAll(sel).
 *  The browser's language is English unless `options.locale` says otherwise: the
 *  page follows it (Dutch for "nl"), and these tests read its English text. */
async function newContext(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options });
  await context.addInitScript(() => {
    window.$vb = (sel, n = 0) => document.querySelectorAll('vram-budget')[n]?.shadowRoot?.querySelector(sel) ?? null;
  });
  context.requests = [];
  context.pageErrors = [];
  context.on('request', (req) => context.requests.push(req.url()));
  return context;
}

/** One browser for a test file, launched before its tests and closed after;
 *  `set(context)` receives the context its pages open in. */
function useBrowser(set, options = {}) {
  let browser;
  before(async () => {
    browser = await launch();
    set(await newContext(browser, options));
  });
  after(async () => {
    await browser?.close();
  });
}

/** Opens the page (or `url`) and waits for the first estimate or notice. */
async function openPage(context, hash = '', url = PAGE_URL) {
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  page.on('pageerror', (err) => context.pageErrors.push(err.message));
  await page.goto(url + hash);
  await page.waitForFunction(() => {
    const el = document.querySelector('vram-budget');
    return el && el.report && el.shadowRoot.querySelector('[data-testid=results]');
  }, null, WAIT);
  return page;
}

/** Navigates an open page to `hash` (a fragment other than its own), as a link opened in the same tab
 *  does, and waits until the element has read it (its hashchange listener runs before this one) and
 *  two frames have been drawn since. */
async function showState(page, hash) {
  await page.evaluate((h) => new Promise((resolve) => {
    window.addEventListener('hashchange', () => requestAnimationFrame(() => requestAnimationFrame(resolve)),
      { once: true });
    location.hash = h;
  }), hash);
}

/** The scenario the first element built, once `check(scenario)` holds. */
async function scenarioWhen(page, check) {
  const fn = `(${check})`;
  await page.waitForFunction((src) => {
    const sc = document.querySelector('vram-budget').scenario;
    // eslint-disable-next-line no-eval
    return sc && (0, eval)(src)(sc);
  }, fn, WAIT);
  return page.evaluate(() => document.querySelector('vram-budget').scenario);
}

const hashParams = (page) => new URLSearchParams(new URL(page.url()).hash.slice(1));

/** WCAG contrast of two CSS colours given as rgb()/rgba() text. */
function contrast(fg, bg) {
  const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

/** Renders every report section of the page's element, also those off screen that
 *  content-visibility: auto skips (for full-page captures and width checks of the whole report). */
const renderAllSections = (page) => page.evaluate(() => {
  for (const el of document.querySelectorAll('vram-budget')) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.vb-figures > section, .vb-figures > details { content-visibility: visible; }');
    el.shadowRoot.adoptedStyleSheets = [...el.shadowRoot.adoptedStyleSheets, sheet];
  }
});

module.exports = { ROOT, WEB, PAGE_URL, WAIT, launch, newContext, useBrowser, openPage, showState, scenarioWhen, hashParams,
  contrast, renderAllSections };
