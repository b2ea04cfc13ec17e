// scripts/pack-module.cjs: the module in web/ carries its WebAssembly deflated,
// the packer refuses glue it does not understand, and a damaged payload makes
// the factory reject instead of leaving the page waiting.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { pack, unpack } = require('../../scripts/pack-module.cjs');

const root = path.resolve(__dirname, '..', '..');
const modulePath = path.join(root, 'web', 'vram-budget.js');
const EXPORTS = "\nif (typeof exports === 'object' && typeof module === 'object')\n  module.exports = createVramBudget;\n";
// The smallest WebAssembly module: magic and version.
const EMPTY_WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

function glue(payloads, { hook = true, exportsAnchor = true } = {}) {
  const uris = payloads.map((p) => `wasmBinaryFile="data:application/octet-stream;base64,${p.toString('base64')}";`).join('');
  return `var createVramBudget = (() => function (Module) { ${hook ? 'Module["instantiateWasm"];' : ''}${uris} })();` +
    (exportsAnchor ? EXPORTS : '\n');
}

test('pack then unpack gives back the same WebAssembly bytes', () => {
  const wasm = Buffer.concat([EMPTY_WASM, Buffer.alloc(4000, 7)]);
  const packed = pack(glue([wasm]));
  const back = unpack(packed);
  assert.deepEqual(back.wasm, wasm);
  assert.equal(back.deflatedLength, zlib.deflateRawSync(wasm, { level: 9 }).length);
  assert.ok(!packed.includes(wasm.toString('base64')), 'the raw base64 is gone');
  assert.ok(packed.includes('"data:application/octet-stream;base64,"'), 'the glue keeps an empty data URI');
  assert.ok(packed.indexOf('vram-budget packed WebAssembly') < packed.indexOf('module.exports'), 'loader before the exports');
});

test('the packer refuses glue it does not understand, naming what is missing', () => {
  assert.throws(() => pack(glue([]), 'x.js'), /x\.js: expected one base64 WebAssembly data URI, found 0/);
  assert.throws(() => pack(glue([EMPTY_WASM, EMPTY_WASM])), /found 2/);
  assert.throws(() => pack(glue([EMPTY_WASM], { hook: false })), /no instantiateWasm hook/);
  assert.throws(() => pack(glue([EMPTY_WASM], { exportsAnchor: false })), /UMD exports were not found/);
  assert.throws(() => pack(glue([Buffer.from('not wasm at all')])), /not WebAssembly/);
  assert.throws(() => unpack('var x = 1;', 'y.js'), /y\.js: no packed WebAssembly found/);
});

test('web/vram-budget.js is packed: well under the SINGLE_FILE size of its WebAssembly', () => {
  assert.ok(fs.existsSync(modulePath), 'build the module first: cmake --build --preset wasm');
  const text = fs.readFileSync(modulePath, 'utf8');
  const { wasm, base64Length } = unpack(text, modulePath);
  assert.equal(wasm.readUInt32BE(0), 0x0061736d);
  assert.ok(!/base64,AGFzbQ/.test(text), 'no raw WebAssembly data URI is left');
  assert.ok(base64Length < 0.6 * Math.ceil(wasm.length / 3) * 4, `${base64Length} B of base64 for ${wasm.length} B`);
});

test('a damaged payload rejects the factory with the reason, and a good copy still loads', async () => {
  const text = fs.readFileSync(modulePath, 'utf8');
  const m = /(createVramBudget, ")([A-Za-z0-9+/=]+)(", \d+\);)/.exec(text);
  assert.ok(m, 'the loader call');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vram-pack-'));
  const write = (name, payload) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text.slice(0, m.index) + m[1] + payload + m[3] + text.slice(m.index + m[0].length));
    return file;
  };
  try {
    // A stream cut in half cannot inflate; the factory's promise says so.
    const cut = write('cut.js', m[2].slice(0, Math.floor(m[2].length / 8) * 4));
    await assert.rejects(require(cut)(), /unexpected end|incorrect|invalid|inflates to/i);
    // A valid stream of the wrong length: one byte short of the WebAssembly.
    const wasm = unpack(text).wasm;
    const short = zlib.deflateRawSync(wasm.subarray(0, wasm.length - 1)).toString('base64');
    await assert.rejects(require(write('short.js', short))(), /inflates to \d[\d,]* bytes, not \d+/);
    const good = await require(write('good.js', m[2]))();
    assert.equal(JSON.parse(good.catalog()).ok, true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
