#!/usr/bin/env node
// Bundles web/src/ (the <vram-budget> element, one module per concern) into the
// single classic script web/vram-budget-element.js with esbuild.
//   node web/build.cjs           write the bundle
//   node web/build.cjs --check   exit 1 if the committed bundle differs from web/src/
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const SRC = path.join(__dirname, 'src', 'index.js');
const OUT = path.join(__dirname, 'vram-budget-element.js');

/** The bundle's text: the entry's header comment, then the IIFE. */
async function bundle() {
  const entry = fs.readFileSync(SRC, 'utf8');
  const banner = (/^\/\*[\s\S]*?\*\//.exec(entry) || [''])[0];
  const result = await esbuild.build({
    entryPoints: [SRC], bundle: true, format: 'iife', target: 'es2022', charset: 'utf8',
    loader: { '.css': 'text' }, write: false, legalComments: 'none',
    banner: { js: `${banner}\n// Built from web/src/ by web/build.cjs (esbuild); edit the sources, not this file.` },
  });
  return result.outputFiles[0].text;
}

module.exports = { bundle, OUT };

if (require.main === module) {
  bundle().then((text) => {
    if (process.argv.includes('--check')) {
      const same = fs.existsSync(OUT) && fs.readFileSync(OUT, 'utf8') === text;
      if (!same) console.error('web/vram-budget-element.js is not the bundle of web/src/: run `npm run build:web`');
      process.exit(same ? 0 : 1);
    }
    fs.writeFileSync(OUT, text);
    console.log(`${path.relative(process.cwd(), OUT)}: ${text.length} bytes`);
  }, (e) => {
    console.error(e.message);
    process.exit(1);
  });
}
