// web/vram-budget-element.js is the esbuild bundle of web/src/ (one module per
// concern), a single classic script: it must not drift from its sources.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { bundle, OUT } = require('../../web/build.cjs');

test('the committed element script is the bundle of web/src/ (npm run build:web)', async () => {
  const text = await bundle();
  assert.ok(fs.readFileSync(OUT, 'utf8') === text, 'web/vram-budget-element.js differs from web/src/: run `npm run build:web`');
});

test('the bundle is one classic script: no import or export left, no network API used', () => {
  const text = fs.readFileSync(OUT, 'utf8');
  assert.doesNotMatch(text, /^\s*(import|export)\s/m);
  assert.doesNotMatch(text, /\bfetch\(|XMLHttpRequest|WebSocket|sendBeacon|EventSource/);
  const parts = fs.readdirSync(path.join(__dirname, '..', '..', 'web', 'src'), { recursive: true }).filter((f) => /\.(js|css)$/.test(f));
  assert.ok(parts.length >= 10, parts.join());
});
