// The string tables: English and Dutch have exactly the same keys, each a string
// or a function of the same arguments in both, and every key the page's sources
// and index.html ask for is there. No browser needed.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { loadTables } = require('./strings.cjs');

const WEB = path.join(__dirname, '..', '..', 'web');
const { en, nl } = loadTables();

test('English and Dutch have exactly the same keys', () => {
  const a = Object.keys(en).sort();
  const b = Object.keys(nl).sort();
  assert.deepEqual(a.filter((k) => !(k in nl)), [], 'keys only in en.js');
  assert.deepEqual(b.filter((k) => !(k in en)), [], 'keys only in nl.js');
  assert.deepEqual(a, b);
  assert.ok(a.length > 300, `${a.length} keys`);
});

test('each key is a string in both tables, or a function of as many arguments in both', () => {
  const wrong = Object.keys(en).filter((k) => typeof en[k] !== typeof nl[k]
    || !['string', 'function'].includes(typeof en[k]) || (typeof en[k] === 'function' && en[k].length !== nl[k].length));
  assert.deepEqual(wrong, []);
  // The same {0}, {1} ... marks: a sentence keeps every node it places.
  const marks = (v) => (typeof v === 'string' ? (v.match(/\{\d\}/g) || []).sort().join() : '');
  assert.deepEqual(Object.keys(en).filter((k) => marks(en[k]) !== marks(nl[k])), []);
  // Nothing empty, and a Dutch string differs from the English one unless it is a name or a term.
  assert.deepEqual(Object.keys(en).filter((k) => typeof en[k] === 'string' && (!en[k].trim() || !nl[k].trim())), []);
});

/** The keys the page's sources name: every literal shaped like one ('files.read',
 *  'plan.col.gpu'), file names aside. Keys built from parts (field.<key>) are checked below. */
function keysInSources() {
  const files = fs.readdirSync(path.join(WEB, 'src'), { recursive: true })
    .filter((f) => f.endsWith('.js') && !f.startsWith('i18n'));
  const used = new Set();
  for (const f of files) {
    const text = fs.readFileSync(path.join(WEB, 'src', f), 'utf8');
    for (const m of text.matchAll(/'([a-z][a-z0-9-]*(?:\.[a-z0-9_-]+)+)'/g)) {
      if (!/\.(html|json|js|css|md)$/.test(m[1])) used.add(m[1]);
    }
  }
  return used;
}

test('every key the sources and index.html use is in the tables', () => {
  const used = keysInSources();
  assert.ok(used.size > 150, `${used.size} keys found in web/src`);
  assert.deepEqual([...used].filter((k) => !(k in en)), []);
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const pageKeys = [...html.matchAll(/data-i18n(?:-label)?="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(pageKeys.length >= 20);
  assert.deepEqual(pageKeys.filter((k) => !(k in en)), []);
  // The page's own keys are all used by it.
  assert.deepEqual(Object.keys(en).filter((k) => k.startsWith('page.') && !pageKeys.includes(k)), []);
});

test('field labels and help exist for every input of the fields table', () => {
  const src = fs.readFileSync(path.join(WEB, 'src', 'fields.js'), 'utf8');
  const keys = [...src.matchAll(/\{ key: '(\w+)'/g)].map((m) => m[1]);
  assert.ok(keys.length > 35);
  const missing = keys.flatMap((k) => [`field.${k}`, `field.${k}.help`]).filter((k) => !(k in en));
  assert.deepEqual(missing, []);
});
