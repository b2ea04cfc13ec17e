// The hostile-input suite against the built WebAssembly module: every case of
// tests/data/hostile/cases.jsonl through estimate, plan, sweep and grid; the
// JavaScript boundary (wrong argument types and counts, huge strings, lone
// surrogates); and a check that hundreds of hostile calls leave the module
// answering a good scenario exactly as before, without runaway memory.
// The case format is described in tests/data/hostile/README.md.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..', '..');
const modulePath = path.join(root, 'web', 'vram-budget.js');
const casesPath = path.join(root, 'tests', 'data', 'hostile', 'cases.jsonl');

const MARKER = '@@hostile-marker@@';
const GRID = [3, 2];
const MiB = 1024 * 1024;
const GOOD = JSON.stringify({
  model: 'meta-llama/Llama-3.1-8B',
  hardware: { gpu: 'H100-SXM-80GB' },
  inference: { context: 4096, concurrency: 2 },
});

const cases = fs
  .readFileSync(casesPath, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

async function instantiate() {
  assert.ok(fs.existsSync(modulePath), 'build the module first: scripts/build');
  return require(modulePath)();
}

let mod;
test.before(async () => {
  mod = await instantiate();
});

// ---------------------------------------------------------------------------
// Building a case's text (README: "A case", "Recipes")
// ---------------------------------------------------------------------------

function setAt(doc, pointer, value) {
  if (pointer === '') return value;
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let cur = doc;
  for (const p of parts.slice(0, -1)) {
    if (cur[p] === undefined) cur[p] = {};
    cur = cur[p];
  }
  cur[parts[parts.length - 1]] = value;
  return doc;
}

function getAt(doc, pointer) {
  if (pointer === '') return doc;
  let cur = doc;
  for (const p of pointer.split('/').slice(1)) cur = cur[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  return cur;
}

/** The value text a recipe generates, as a string or (for raw bytes) a Buffer. */
function generated(r) {
  if (r.nest !== undefined) {
    const n = r.nest;
    const closed = !r.unclosed;
    if (r.open === '[') return '['.repeat(n) + (closed ? ']'.repeat(n) : '');
    if (r.open === '{') return '{"k":'.repeat(n) + (closed ? '0' + '}'.repeat(n) : '');
    throw new Error('recipe open must be "[" or "{"');
  }
  if (r.repeat !== undefined) return '"' + r.repeat.repeat(r.times) + '"';
  if (r.array !== undefined) return '[' + new Array(r.array).fill(JSON.stringify(r.item)).join(',') + ']';
  if (r.bytes_hex !== undefined) return Buffer.concat([Buffer.from('"'), Buffer.from(r.bytes_hex, 'hex'), Buffer.from('"')]);
  throw new Error('recipe has no generator');
}

/** A case's scenario text: a string, or a Buffer when it holds raw bytes. */
function caseText(c) {
  if (c.scenario !== undefined) return JSON.stringify(c.scenario);
  if (c.text !== undefined) return c.text;
  const r = c.recipe;
  let doc = structuredClone(r.base ?? {});
  let text;
  const generates = ['nest', 'repeat', 'array', 'bytes_hex', 'key_hex'].some((k) => r[k] !== undefined);
  if (generates) {
    let value;
    if (r.key_hex !== undefined) {
      getAt(doc, r.at)[MARKER] = 0;
      value = Buffer.concat([Buffer.from('"'), Buffer.from(r.key_hex, 'hex'), Buffer.from('"')]);
    } else {
      doc = setAt(doc, r.at, MARKER);
      value = generated(r);
    }
    const written = JSON.stringify(doc);
    const marker = JSON.stringify(MARKER);
    const pos = written.indexOf(marker);
    if (pos < 0) throw new Error('recipe marker not found');
    const before = written.slice(0, pos);
    const after = written.slice(pos + marker.length);
    text = Buffer.isBuffer(value) ? Buffer.concat([Buffer.from(before), value, Buffer.from(after)]) : before + value + after;
  } else {
    text = JSON.stringify(doc);
  }
  if (r.pad_to !== undefined) {
    const size = Buffer.isBuffer(text) ? text.length : Buffer.byteLength(text, 'utf8');
    if (size > r.pad_to) throw new Error('pad_to is shorter than the text');
    text = Buffer.isBuffer(text) ? Buffer.concat([text, Buffer.alloc(r.pad_to - size, 0x20)]) : text + ' '.repeat(r.pad_to - size);
  }
  return text;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes that are well-formed UTF-8 go to the module as the string they spell. */
function asArgument(text) {
  if (!Buffer.isBuffer(text)) return text;
  try {
    return strictUtf8.decode(text);
  } catch {
    return text;
  }
}

function byteLength(text) {
  return Buffer.isBuffer(text) ? text.length : Buffer.byteLength(text, 'utf8');
}

// ---------------------------------------------------------------------------
// Judging answers
// ---------------------------------------------------------------------------

const ENTRY_POINTS = ['estimate', 'plan', 'sweep', 'grid'];

function call(m, which, text) {
  // Raw bytes cannot be a JavaScript string: they are handed over as a Uint8Array.
  const arg = Buffer.isBuffer(text) ? new Uint8Array(text) : text;
  if (which === 'grid') return m.grid(arg, GRID[0], GRID[1]);
  return m[which](arg);
}

function isQuantityKey(k) {
  if (k === 'free_bytes') return false;
  return ['bytes', 'tokens', 'concurrency', 'concurrencies', 'count', 'totals', 'contexts', 'params', 'layers', 'heads',
    'capacity', 'blocks', 'points'].some((w) => k.includes(w));
}

function findNegatives(v, p, quantity, out) {
  if (Array.isArray(v)) v.forEach((x, i) => findNegatives(x, `${p}/${i}`, quantity, out));
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) findNegatives(x, `${p}/${k}`, isQuantityKey(k), out);
  else if (quantity && typeof v === 'number' && v < 0) out.push(`negative figure ${p} = ${v}`);
}

// Integers above 2^53 lose their last digits in JSON.parse: compare within that rounding.
function sameInt(a, b) {
  return Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * 1e-12;
}

function invariants(which, a) {
  const why = [];
  findNegatives(a, '', false, why);
  if (which === 'estimate') {
    if (!Array.isArray(a.components)) return [...why, 'report without components'];
    const sum = a.components.reduce((s, c) => s + c.bytes, 0);
    if (!sameInt(sum, a.total_bytes)) why.push(`components sum to ${sum} but total_bytes is ${a.total_bytes}`);
    if (a.usable_bytes > a.capacity_bytes) why.push('usable_bytes > capacity_bytes');
    if (a.free_bytes !== undefined && !sameInt(a.free_bytes, a.usable_bytes - a.total_bytes)) why.push('free_bytes is not usable − total');
    if (a.fits && a.total_bytes > a.usable_bytes) why.push(`fits: true with total_bytes ${a.total_bytes} > usable_bytes ${a.usable_bytes}`);
  } else if (which === 'plan') {
    if (a.max_context_tokens !== undefined && a.max_context_tokens > a.max_context_limit) why.push('max_context_tokens exceeds max_context_limit');
    for (const o of a.gpu_options ?? []) {
      if (o.total_bytes > o.memory_bytes) why.push(`GPU option ${o.gpu} needs more than its memory`);
      if (!(o.count >= 1)) why.push('GPU option with count < 1');
    }
  } else if (which === 'sweep') {
    if (a.totals.length !== a.fits.length || a.totals.length !== a.contexts.length) return [...why, 'sweep arrays of different lengths'];
    a.totals.forEach((t, i) => {
      if (a.fits[i] && t > a.usable_bytes) why.push(`sweep point ${i} fits with a total above usable_bytes`);
    });
  } else {
    const [nc, nq] = GRID;
    if (a.contexts.length !== nc || a.concurrencies.length !== nq || a.totals.length !== nc * nq || a.points !== nc * nq ||
        a.max_fitting_concurrency.length !== nc) {
      return [...why, `grid sizes disagree with the ${nc} × ${nq} asked for`];
    }
    a.max_fitting_concurrency.forEach((b, ci) => {
      if (b < 0 || b > nq) why.push('max_fitting_concurrency out of range');
      else if (b > 0 && a.totals[(b - 1) * nc + ci] > a.usable_bytes) why.push(`grid: the largest fitting concurrency at context ${a.contexts[ci]} is above usable_bytes`);
    });
  }
  return why;
}

const cut = (s, n = 300) => (s.length > n ? s.slice(0, n) + '…' : s);

/** Why one answer does not meet the case's expectation ([] when it does). */
function judge(c, which, answer, raw) {
  if (typeof answer !== 'string') return [`answer is a ${typeof answer}, not JSON text`];
  let a;
  try {
    a = JSON.parse(answer);
  } catch (e) {
    return [`answer is not valid JSON (${e.message}): ${cut(answer)}`];
  }
  if (a === null || typeof a !== 'object' || typeof a.ok !== 'boolean') return [`answer has no boolean ok: ${cut(answer)}`];
  const want = c.expect.ok;
  if (a.ok !== want) return [want ? `expected ok:true, got ${cut(answer)}` : 'expected ok:false, got ok:true'];
  if (want) return invariants(which, a);
  const e = a.error;
  if (!e || typeof e.path !== 'string' || typeof e.message !== 'string') return [`error is not {path, message}: ${cut(answer)}`];
  const why = [];
  if (e.message === '') why.push('empty error message');
  // A Uint8Array is not scenario text to the module: only ok:false and the error's shape are required.
  if (raw) return why;
  const got = ` (got path "${cut(e.path, 80)}": ${cut(e.message, 200)})`;
  if (c.expect.path !== undefined && e.path !== c.expect.path) why.push(`expected path "${c.expect.path}"${got}`);
  if (c.expect.path_prefix !== undefined) {
    const pre = [].concat(c.expect.path_prefix);
    if (!pre.some((p) => e.path.startsWith(p))) why.push(`expected a path starting with ${pre.map((p) => `"${p}"`).join(' or ')}${got}`);
  }
  for (const m of c.message_has ?? []) if (!e.message.includes(m)) why.push(`message lacks "${m}"${got}`);
  return why;
}

// ---------------------------------------------------------------------------
// The cases
// ---------------------------------------------------------------------------

test('the case file holds at least 110 cases with unique ids', () => {
  assert.ok(cases.length >= 110, `${cases.length} cases`);
  assert.equal(new Set(cases.map((c) => c.id)).size, cases.length);
});

for (const c of cases) {
  test(`case ${c.id}`, async () => {
    const text = asArgument(caseText(c));
    const problems = [];
    for (const which of ENTRY_POINTS) {
      let answer;
      try {
        answer = call(mod, which, text);
      } catch (e) {
        problems.push(`[${which}] threw ${e && e.name}: ${cut(String(e && e.message))}`);
        // A trap may leave the instance unusable: the next case gets a fresh one.
        mod = await instantiate();
        continue;
      }
      for (const w of judge(c, which, answer, Buffer.isBuffer(text))) problems.push(`[${which}] ${w}`);
    }
    assert.deepEqual(problems, [], `${c.id} (${c.why})`);
  });
}

// ---------------------------------------------------------------------------
// The JavaScript boundary
// ---------------------------------------------------------------------------

function refused(thunk, label) {
  let answer;
  assert.doesNotThrow(() => {
    answer = thunk();
  }, label);
  assert.equal(typeof answer, 'string', label);
  const a = JSON.parse(answer);
  assert.equal(a.ok, false, `${label}: ${cut(answer)}`);
  assert.equal(typeof a.error.path, 'string', label);
  assert.ok(typeof a.error.message === 'string' && a.error.message.length > 10, label);
  return a.error;
}

test('wrong argument types and counts answer ok:false, never throw', () => {
  const calls = [
    ['estimate(123)', () => mod.estimate(123)],
    ['estimate(null)', () => mod.estimate(null)],
    ['estimate(undefined)', () => mod.estimate(undefined)],
    ['estimate({})', () => mod.estimate({})],
    ['estimate()', () => mod.estimate()],
    ['estimate([])', () => mod.estimate([])],
    ['estimate(true)', () => mod.estimate(true)],
    ['estimate(Symbol)', () => mod.estimate(Symbol('scenario'))],
    ['estimate(a function)', () => mod.estimate(() => GOOD)],
    ['plan(123)', () => mod.plan(123)],
    ['plan()', () => mod.plan()],
    ['sweep(null)', () => mod.sweep(null)],
    ['sweep({})', () => mod.sweep({ model: 'meta-llama/Llama-3.1-8B' })],
    ['grid()', () => mod.grid()],
    ['grid(123, 3, 2)', () => mod.grid(123, 3, 2)],
    ['grid("...", "x", null)', () => mod.grid('...', 'x', null)],
    ['grid(good, "x", null)', () => mod.grid(GOOD, 'x', null)],
    ['grid(good)', () => mod.grid(GOOD)],
  ];
  for (const [label, thunk] of calls) refused(thunk, label);
});

test('grid counts are checked', () => {
  for (const [nc, nq] of [[1e9, 1e9], [-1, 0], [0, 2], [3, 0], [NaN, 2], [3, Infinity], [2 ** 31, 1], [2 ** 53, 2], ['3', 2], [3, {}], [1001, 1], [1, 100000]]) {
    refused(() => mod.grid(GOOD, nc, nq), `grid(good, ${String(nc)}, ${String(nq)})`);
  }
  for (const [nc, nq] of [[1, 1], [3, 2], [40, 8]]) {
    const g = JSON.parse(mod.grid(GOOD, nc, nq));
    assert.equal(g.ok, true, `grid(good, ${nc}, ${nq})`);
    assert.equal(g.totals.length, nc * nq);
    assert.equal(g.contexts.length, nc);
    const negatives = [];
    findNegatives(g, '', false, negatives);
    assert.deepEqual(negatives, []);
  }
});

test('catalog() answers its object whatever it is given', () => {
  for (const args of [[], [123], [null, 'x']]) {
    let answer;
    assert.doesNotThrow(() => {
      answer = mod.catalog(...args);
    });
    const c = JSON.parse(answer);
    assert.equal(typeof c.ok, 'boolean');
  }
  assert.equal(JSON.parse(mod.catalog()).ok, true);
});

test('a 50 MB string is refused without entering the module memory', async () => {
  const fresh = await instantiate();
  for (const f of ['estimate', 'plan', 'sweep']) assert.equal(JSON.parse(fresh[f](GOOD)).ok, true);
  assert.equal(JSON.parse(fresh.grid(GOOD, 3, 2)).ok, true);
  const before = fresh.HEAPU8.length;
  const big = JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', extra: { blob: MARKER } }).replace(JSON.stringify(MARKER), '"' + 'a'.repeat(52428800) + '"');
  for (const thunk of [() => fresh.estimate(big), () => fresh.plan(big), () => fresh.sweep(big), () => fresh.grid(big, 3, 2)]) {
    const e = refused(thunk, '50 MB');
    assert.equal(e.path, '');
    assert.match(e.message, /MiB/);
  }
  const grown = fresh.HEAPU8.length - before;
  assert.ok(grown < 16 * MiB, `the module memory grew by ${grown} bytes for a refused 50 MB text`);
});

test('texts over 4 MiB of UTF-8 are refused even when they are fewer than 4 Mi characters', () => {
  const text = JSON.stringify({ model: 'meta-llama/Llama-3.1-8B', extra: { s: 'é'.repeat(2200000) } });
  assert.ok(text.length < 4 * MiB && Buffer.byteLength(text) > 4 * MiB);
  const e = refused(() => mod.estimate(text), 'two-byte characters');
  assert.equal(e.path, '');
  assert.match(e.message, /MiB/);
  const padded = GOOD + ' '.repeat(4 * MiB - GOOD.length);
  assert.equal(JSON.parse(mod.estimate(padded)).ok, true, 'exactly 4 MiB is read');
  refused(() => mod.estimate(padded + ' '), '4 MiB + 1 byte');
});

test('a lone UTF-16 surrogate in a JavaScript string is refused', () => {
  // Raw, not escaped: JSON.stringify would write a lone surrogate as \\ud800.
  const texts = [
    '{"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 4096}, "extra": {"s": "a\uD800b"}}',
    '{"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 4096}, "extra": {"s": "a\uDC00b"}}',
    '{"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 4096}, "extra": {"s": "\uDBFF"}}',
    '{"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 4096}, "extra": {"s": "x"}}\uD800',
  ];
  for (const t of texts) assert.equal(t.isWellFormed?.() ?? false, false);
  const check = (label) => {
    for (const t of texts) {
      for (const f of ['estimate', 'plan', 'sweep']) {
        const e = refused(() => mod[f](t), `${label} ${f}`);
        assert.match(e.message, /UTF-8|surrogate/, label);
      }
      refused(() => mod.grid(t, 3, 2), `${label} grid`);
    }
  };
  check('with String.prototype.isWellFormed');
  // Debian 12's Node.js (18) has no isWellFormed: the refusal must not depend on it.
  const own = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
  if (own) delete String.prototype.isWellFormed;
  try {
    check('without String.prototype.isWellFormed');
  } finally {
    if (own) Object.defineProperty(String.prototype, 'isWellFormed', own);
  }
  // A well-formed pair is one character, and fine.
  const pair = '{"model": "meta-llama/Llama-3.1-8B", "inference": {"context": 4096}, "extra": {"s": "a\uD83D\uDE80b"}}';
  assert.equal(JSON.parse(mod.estimate(pair)).ok, true);
});

test('a NUL character does not cut the text short', () => {
  refused(() => mod.estimate(GOOD + '\u0000{'), 'NUL then garbage');
  refused(() => mod.estimate(GOOD.slice(0, 10) + '\u0000' + GOOD.slice(10)), 'NUL inside a string');
});

// ---------------------------------------------------------------------------
// Poisoning: hostile calls leave no trace
// ---------------------------------------------------------------------------

test('hundreds of hostile calls change neither the answers nor, beyond 64 MiB, the memory', async (t) => {
  const m = await instantiate();
  const good = () => [m.estimate(GOOD), m.plan(GOOD), m.sweep(GOOD), m.grid(GOOD, 3, 2)];
  good();  // warm-up: the catalog and the allocator's first pools
  const baseline = good();
  for (const a of baseline) assert.equal(JSON.parse(a).ok, true);
  const memoryBefore = m.HEAPU8.length;
  assert.ok(memoryBefore > 0, 'the module exposes HEAPU8');

  const hostile = cases
    .filter((c) => !c.expect.ok)
    .map((c) => [c.id, asArgument(caseText(c))])
    .filter(([, t]) => byteLength(t) <= MiB);
  assert.ok(hostile.some(([, t]) => typeof t === 'string' && t.includes('[[[[[[[[[[') && t.length > 10000), 'deep nesting is among them');
  let calls = 0;
  const threw = new Set();
  const attempt = (label, thunk) => {
    ++calls;
    try {
      // Whether each is refused as it should be is the cases' business; here
      // only that it answers.
      assert.equal(typeof JSON.parse(thunk()).ok, 'boolean');
    } catch (e) {
      threw.add(`${label}: ${e && e.name}: ${cut(String(e && e.message), 120)}`);
    }
  };
  for (let round = 0; round < 2; ++round) {
    for (const [id, t] of hostile) {
      for (const which of ENTRY_POINTS) attempt(`${which} ${id}`, () => call(m, which, t));
    }
    attempt('estimate(123)', () => m.estimate(123));
    attempt('estimate()', () => m.estimate());
    attempt('grid(good, -1, 0)', () => m.grid(GOOD, -1, 0));
    attempt('grid("x", "x", null)', () => m.grid('x', 'x', null));
    attempt('estimate(lone surrogate)', () => m.estimate('a\uD800b'));
    attempt('plan(null)', () => m.plan(null));
  }
  assert.ok(calls >= 300, `${calls} hostile calls`);
  const after = good();
  const grown = m.HEAPU8.length - memoryBefore;
  t.diagnostic(`${calls} hostile calls; module memory ${memoryBefore} → ${m.HEAPU8.length} bytes`);
  for (let i = 0; i < after.length; ++i) assert.equal(after[i], baseline[i], `${ENTRY_POINTS[i]} answers differently after ${calls} hostile calls`);
  assert.ok(grown <= 64 * MiB, `the module memory grew by ${grown} bytes over ${calls} hostile calls`);
  assert.deepEqual([...threw], [], 'hostile calls that threw instead of answering');
});
