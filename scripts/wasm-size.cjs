#!/usr/bin/env node
// What the module's bytes are: the WebAssembly sections, the embedded catalog
// inside the data section, the JavaScript glue and the base64 wrapping (of the
// deflated WebAssembly in a packed module, of the raw one as linked); with a
// name section (a link with --profiling-funcs) also the largest functions and
// the code per C++ namespace.
//
//   node scripts/wasm-size.cjs [web/vram-budget.js] [--top N] [--json]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { embeddedCatalog } = require('./embed-catalog.cjs');
const { unpack } = require('./pack-module.cjs');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const file = args.find((a, i) => !a.startsWith('--') && !(topAt >= 0 && i === topAt + 1)) ||
  path.join(root, 'web', 'vram-budget.js');

const SECTION_NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start',
  'element', 'code', 'data', 'datacount', 'tag'];

/** The wasm bytes inside a module: packed (web/vram-budget.js, scripts/pack-module.cjs: raw DEFLATE
 *  in base64) or as linked (SINGLE_FILE: a base64 data URI), and the JavaScript around them. */
function splitModule(text) {
  if (text.includes('vram-budget packed WebAssembly')) {
    const { wasm, base64Length, deflatedLength, rest } = unpack(text, file);
    return { wasm, base64Length, deflatedLength, glue: rest };
  }
  const m = text.match(/data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/);
  if (!m) throw new Error(`${file}: no embedded base64 WebAssembly found`);
  return { wasm: Buffer.from(m[1], 'base64'), base64Length: m[1].length, glue: text.length - m[1].length };
}

function reader(buf) {
  let at = 0;
  const r = {
    get at() { return at; },
    set at(v) { at = v; },
    u8: () => buf[at++],
    uleb() {
      let result = 0;
      let shift = 0;
      for (;;) {
        const b = buf[at++];
        result += (b & 0x7f) * 2 ** shift;
        shift += 7;
        if (!(b & 0x80)) return result;
      }
    },
    name() {
      const n = r.uleb();
      const s = buf.toString('utf8', at, at + n);
      at += n;
      return s;
    },
  };
  return r;
}

function sections(wasm) {
  const r = reader(wasm);
  r.at = 8;
  const out = [];
  while (r.at < wasm.length) {
    const id = r.u8();
    const size = r.uleb();
    const start = r.at;
    let name = SECTION_NAMES[id] || `id ${id}`;
    if (id === 0) name = `custom "${r.name()}"`;
    out.push({ id, name, start, size, end: start + size });
    r.at = start + size;
  }
  return out;
}

function functionNames(wasm, secs) {
  const names = new Map();
  const sec = secs.find((s) => s.name === 'custom "name"');
  if (!sec) return names;
  const r = reader(wasm);
  r.at = sec.start;
  r.name();
  while (r.at < sec.end) {
    const kind = r.u8();
    const size = r.uleb();
    const end = r.at + size;
    if (kind === 1) {
      for (let n = r.uleb(); n > 0; n--) names.set(r.uleb(), r.name());
    }
    r.at = end;
  }
  return names;
}

function importedFunctions(wasm, secs) {
  const sec = secs.find((s) => s.id === 2);
  if (!sec) return 0;
  const r = reader(wasm);
  r.at = sec.start;
  let n = 0;
  for (let count = r.uleb(); count > 0; count--) {
    r.name();
    r.name();
    const kind = r.u8();
    if (kind === 0) { r.uleb(); n++; }
    else if (kind === 1) { r.u8(); const f = r.u8(); r.uleb(); if (f & 1) r.uleb(); }
    else if (kind === 2) { const f = r.u8(); r.uleb(); if (f & 1) r.uleb(); }
    else if (kind === 3) { r.u8(); r.u8(); }
    else if (kind === 4) { r.u8(); r.uleb(); }
  }
  return n;
}

function functionSizes(wasm, secs) {
  const sec = secs.find((s) => s.id === 10);
  const r = reader(wasm);
  r.at = sec.start;
  const sizes = [];
  for (let n = r.uleb(); n > 0; n--) {
    const size = r.uleb();
    sizes.push(size);
    r.at += size;
  }
  return sizes;
}

/** The catalog as scripts/embed-catalog.cjs embeds it: minified JSON (deflated with the module). */
function catalogBytes() {
  const { files, text, textBytes } = embeddedCatalog(path.join(root, 'models'));
  // What the catalog costs in the deflated module, about: its text deflated on its own.
  return { files: files.length, bytes: textBytes, deflated: zlib.deflateRawSync(text, { level: 9 }).length };
}

/** A C++ demangled name's owner: the namespace or class path before the function name. */
function owner(name) {
  const bare = name.replace(/\(.*$/, '').replace(/<[^<>]*>/g, '').replace(/<[^<>]*>/g, '');
  const parts = bare.split('::');
  if (parts.length <= 1) return name.startsWith('$') || /^[a-z_0-9]+$/i.test(name) ? '(C runtime / unnamed)' : bare;
  return parts.slice(0, Math.min(parts.length - 1, 2)).join('::');
}

function main() {
  const text = fs.readFileSync(file, 'utf8');
  const { wasm, base64Length, deflatedLength, glue } = splitModule(text);
  const secs = sections(wasm);
  const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
  const catalog = catalogBytes();
  const report = {
    module: { file: path.relative(root, file), bytes: Buffer.byteLength(text), gzip: gz(Buffer.from(text)),
      javascript_glue_bytes: glue, base64_bytes: base64Length, deflated_wasm_bytes: deflatedLength ?? null },
    wasm: { bytes: wasm.length, gzip: gz(wasm) },
    sections: secs.map((s) => ({ name: s.name, bytes: s.size, gzip: gz(wasm.subarray(s.start, s.end)) })),
    catalog: { files: catalog.files, minified_json_bytes: catalog.bytes, deflated_bytes: catalog.deflated,
      share_of_wasm: +(catalog.bytes / wasm.length).toFixed(3) },
  };
  const names = functionNames(wasm, secs);
  if (names.size) {
    const base = importedFunctions(wasm, secs);
    const sizes = functionSizes(wasm, secs);
    const fns = sizes.map((bytes, i) => ({ name: names.get(base + i) || `$f${base + i}`, bytes }));
    fns.sort((a, b) => b.bytes - a.bytes);
    report.largest_functions = fns.slice(0, top);
    const byOwner = new Map();
    for (const f of fns) byOwner.set(owner(f.name), (byOwner.get(owner(f.name)) || 0) + f.bytes);
    report.code_by_owner = [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, top).map(([o, bytes]) => ({ owner: o, bytes }));
  }
  if (flag('--json')) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  const n = (x) => x.toLocaleString('en-US');
  console.log(`${report.module.file}: ${n(report.module.bytes)} B (gzip ${n(report.module.gzip)} B): ` +
    `${n(glue)} B JavaScript + ${n(base64Length)} B base64 of ` +
    (deflatedLength ? `${n(deflatedLength)} B deflated from ` : '') +
    `${n(wasm.length)} B WebAssembly (gzip ${n(report.wasm.gzip)} B)`);
  for (const s of report.sections) console.log(`  ${s.name.padEnd(24)} ${n(s.bytes).padStart(10)} B  gzip ${n(s.gzip).padStart(9)} B`);
  console.log(`  catalog: ${catalog.files} files, ${n(catalog.bytes)} B of minified JSON in the data section ` +
    `(${(100 * report.catalog.share_of_wasm).toFixed(1)} % of the WebAssembly), about ${n(catalog.deflated)} B deflated`);
  if (report.largest_functions) {
    console.log(`largest functions:`);
    for (const f of report.largest_functions) console.log(`  ${n(f.bytes).padStart(8)} B  ${f.name.slice(0, 150)}`);
    console.log(`code by owner:`);
    for (const o of report.code_by_owner) console.log(`  ${n(o.bytes).padStart(8)} B  ${o.owner.slice(0, 150)}`);
  }
}

/** The size in bytes of each function body the module defines, by WebAssembly function index
 *  (imported functions first, as the engine numbers them). */
function functionSizesByIndex(text) {
  const { wasm } = splitModule(text);
  const secs = sections(wasm);
  return [...new Array(importedFunctions(wasm, secs)).fill(0), ...functionSizes(wasm, secs)];
}

module.exports = { functionSizesByIndex };

if (require.main === module) main();
