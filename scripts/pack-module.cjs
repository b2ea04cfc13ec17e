#!/usr/bin/env node
// Packs the linked module (Emscripten's SINGLE_FILE output: the WebAssembly as
// a base64 data URI inside the JavaScript) into the file the page, the tests
// and embedders load: the same classic script, with the WebAssembly stored as
// one raw DEFLATE stream (RFC 1951) in base64 instead. The loader added here
// inflates it with the platform's DecompressionStream (Chrome 103, Firefox 113,
// Safari 16.4; zlib under Node.js) and hands it to the glue through its documented
// `instantiateWasm` hook, so nothing is fetched and nothing is evaluated from
// text. In a browser the inflating stream goes to WebAssembly.compileStreaming
// as soon as the script runs, which compiles while it inflates. The module is
// about two fifths of its SINGLE_FILE size.
//
//   node scripts/pack-module.cjs LINKED.js OUT.js
//   require('./pack-module.cjs').unpack(text)   the WebAssembly inside a packed module
'use strict';
const fs = require('node:fs');
const zlib = require('node:zlib');

const DATA_URI = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/g;
/** Where the loader goes: after the factory's definition, before the UMD exports. */
const EXPORTS = "\nif (typeof exports === 'object' && typeof module === 'object')";
const PACKED = /\n\/\/ vram-budget packed WebAssembly: (\d+) B\n[\s\S]*?\}\)\(createVramBudget, "([A-Za-z0-9+/=]+)", \d+\);\n/;

/** The loader: wraps the factory so that every instance gets the inflated bytes. */
function loader(base64, size) {
  return `
// vram-budget packed WebAssembly: ${size} B
createVramBudget = (function (factory, packed, size) {
  function decoded() {
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(packed);
    if (typeof Buffer === "function") return Buffer.from(packed, "base64");
    var s = atob(packed), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function inflated() {
    if (typeof DecompressionStream !== "function") {
      return Promise.reject(new Error("vram-budget.js needs DecompressionStream (Chrome 103, Firefox 113, Safari 16.4, Node.js 20 or later)"));
    }
    if (typeof process === "object" && process.versions && process.versions.node && typeof require === "function") {
      return Promise.resolve().then(function () { return checked(require("zlib").inflateRawSync(decoded())); });
    }
    var stream = inflating();
    return new Response(stream.readable).arrayBuffer().then(null, stream.reason);
  }
  // The inflated bytes as a stream whose end checks their count. What reads it
  // reports only that it could not; reason(e) rejects with why (a damaged
  // stream, a wrong count) once the inflating has stopped.
  function inflating() {
    var seen = 0;
    var counted = new TransformStream({
      transform: function (chunk, out) { seen += chunk.byteLength; out.enqueue(chunk); },
      flush: function () { if (seen !== size) throw wrongSize(seen); }
    });
    var failed = null;
    var piped = new Blob([decoded()]).stream().pipeThrough(new DecompressionStream("deflate-raw")).pipeTo(counted.writable);
    piped.then(null, function (why) { failed = why || new Error("vram-budget.js: the packed WebAssembly could not be inflated"); });
    return {
      readable: counted.readable,
      failure: function () { return failed; },
      reason: function (e) { return piped.then(function () { throw e; }, function (why) { throw why || e; }); }
    };
  }
  // In a browser the WebAssembly is compiled while it inflates, from the moment
  // this script runs (compileStreaming takes a Response made here; nothing is
  // fetched), so the page's other scripts run meanwhile, and every instance
  // shares the one compiled module. Elsewhere it is compiled once inflated.
  function streams() {
    var node = typeof process === "object" && process.versions && process.versions.node;
    return !node && typeof WebAssembly.compileStreaming === "function" && typeof DecompressionStream === "function" &&
      typeof TransformStream === "function" && typeof Response === "function";
  }
  var compiling = null;
  function compiled() {
    if (compiling) return compiling;
    var stream = inflating();
    var response = new Response(stream.readable, { headers: { "Content-Type": "application/wasm" } });
    compiling = WebAssembly.compileStreaming(response).then(null, function () {
      // A damaged stream is reported as such; any other refusal (a browser that
      // does not stream a Response made in the page) takes the buffered path,
      // which reads a fresh stream to its end and names what failed, if anything.
      if (stream.failure()) throw stream.failure();
      return inflated().then(function (bytes) { return WebAssembly.compile(bytes); });
    });
    compiling.then(null, function () {});  // reported to each factory call
    return compiling;
  }
  function instantiated(imports) {
    if (!streams()) return inflated().then(function (bytes) { return WebAssembly.instantiate(bytes, imports); });
    return compiled().then(function (module) {
      return WebAssembly.instantiate(module, imports).then(function (instance) { return { instance: instance, module: module }; });
    });
  }
  if (streams()) compiled();
  function wrongSize(n) {
    return new Error("vram-budget.js: the packed WebAssembly inflates to " + n + " bytes, not " + size);
  }
  function checked(bytes) {
    if (bytes.byteLength !== size) throw wrongSize(bytes.byteLength);
    return bytes;
  }
  return function (moduleArg) {
    var arg = Object.assign({}, moduleArg);
    return new Promise(function (resolve, reject) {
      arg.instantiateWasm = function (imports, receive) {
        instantiated(imports)
          .then(function (result) { receive(result.instance, result.module); }, reject);
        return {};
      };
      factory(arg).then(resolve, reject);
    });
  };
})(createVramBudget, "${base64}", ${size});
`;
}

/** The packed module's text from the linked one; throws when the glue is not the shape this expects. */
function pack(text, name = 'the module') {
  const uris = [...text.matchAll(DATA_URI)];
  if (uris.length !== 1) throw new Error(`${name}: expected one base64 WebAssembly data URI, found ${uris.length}`);
  if (!text.includes('Module["instantiateWasm"]')) throw new Error(`${name}: the glue has no instantiateWasm hook`);
  const at = text.indexOf(EXPORTS);
  if (at < 0) throw new Error(`${name}: the glue's UMD exports were not found`);
  const wasm = Buffer.from(uris[0][1], 'base64');
  if (wasm.readUInt32BE(0) !== 0x0061736d) throw new Error(`${name}: the data URI is not WebAssembly`);
  const packed = zlib.deflateRawSync(wasm, { level: 9 }).toString('base64');
  // The glue keeps its (now empty) data URI, so it never looks for a .wasm file beside the script.
  const emptied = text.slice(0, uris[0].index) + '"data:application/octet-stream;base64,"' +
    text.slice(uris[0].index + uris[0][0].length);
  const cut = emptied.indexOf(EXPORTS);
  return emptied.slice(0, cut) + loader(packed, wasm.length) + emptied.slice(cut);
}

/** The WebAssembly bytes of a packed module, its base64 length and the length of everything else. */
function unpack(text, name = 'the module') {
  const m = PACKED.exec(text);
  if (!m) throw new Error(`${name}: no packed WebAssembly found (build it with scripts/build)`);
  const wasm = zlib.inflateRawSync(Buffer.from(m[2], 'base64'));
  if (wasm.length !== Number(m[1])) throw new Error(`${name}: the packed WebAssembly inflates to ${wasm.length} B, not ${m[1]}`);
  return { wasm, base64Length: m[2].length, deflatedLength: Buffer.from(m[2], 'base64').length, rest: text.length - m[2].length };
}

if (require.main === module) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: pack-module.cjs LINKED.js OUT.js');
    process.exit(2);
  }
  try {
    fs.writeFileSync(output, pack(fs.readFileSync(input, 'utf8'), input));
  } catch (e) {
    console.error(`pack-module: ${e.message}`);
    process.exit(1);
  }
}

module.exports = { pack, unpack };
