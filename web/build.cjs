#!/usr/bin/env node
// Bundles web/src/ (the <vram-budget> element, one module per concern) into the
// single classic script web/vram-budget-element.js with esbuild.
//   node web/build.cjs           write the bundle
//   node web/build.cjs --check   exit 1 if the committed bundle differs from web/src/
//   node web/build.cjs --single FILE   one self-contained HTML file (page, module, element)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const esbuild = require('esbuild');

const SRC = path.join(__dirname, 'src', 'index.js');
const OUT = path.join(__dirname, 'vram-budget-element.js');

/** The bundle's text: the entry's header comment, then the IIFE (minified for the single file). */
async function bundle({ minify = false } = {}) {
  const entry = fs.readFileSync(SRC, 'utf8');
  const banner = (/^\/\*[\s\S]*?\*\//.exec(entry) || [''])[0];
  const result = await esbuild.build({
    entryPoints: [SRC], bundle: true, format: 'iife', target: 'es2022', charset: 'utf8',
    loader: { '.css': 'text' }, write: false, legalComments: 'none', minify,
    banner: { js: `${banner}\n// Built from web/src/ by web/build.cjs (esbuild); edit the sources, not this file.` },
  });
  return result.outputFiles[0].text;
}

/** Content Security Policy of the single file: nothing from anywhere, only its own
 *  inline script and style blocks by hash. A module whose Embind glue builds
 *  functions from text (linked without -sDYNAMIC_EXECUTION=0) also needs
 *  'unsafe-eval'; one linked with it does not, and then the policy omits it. */
function csp(scripts, styles) {
  const sha = (text) => `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const evaluates = scripts.some((text) => /\bnew Function\b/.test(text));
  return ["default-src 'none'", `script-src ${scripts.map(sha).join(' ')} 'wasm-unsafe-eval'${evaluates ? " 'unsafe-eval'" : ''}`,
    `style-src ${styles.map(sha).join(' ')}`, "img-src data:", "base-uri 'none'", "form-action 'none'"].join('; ');
}

/** index.html with its stylesheet, the module and the element inlined: one file
 *  that works from file:// and requests nothing. */
async function singleFile() {
  const html = fs.readFileSync(path.join(__dirname, 'index.html'), 'utf8');
  const read = (name) => fs.readFileSync(path.join(__dirname, name), 'utf8');
  const element = await bundle({ minify: true });
  const scripts = [];
  const styles = [];
  let out = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (_, href) => {
    styles.push(read(href));
    return `<style>${styles[styles.length - 1]}</style>`;
  });
  out = out.replace(/<script src="([^"]+)"><\/script>/g, (_, src) => {
    const text = (src === 'vram-budget-element.js' ? element : read(src)).replace(/<\/script/gi, '<\\/script');
    scripts.push(text);
    return `<script>${text}</script>`;
  });
  out = out.replace('<meta charset="utf-8">',
    `<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="${csp(scripts, styles)}">`);
  return out;
}

module.exports = { bundle, singleFile, OUT };

if (require.main === module) {
  const single = process.argv.indexOf('--single');
  if (single > 0) {
    const target = process.argv[single + 1] || 'vram-budget.html';
    singleFile().then((text) => {
      fs.writeFileSync(target, text);
      console.log(`${target}: ${text.length} bytes`);
    }, (e) => {
      console.error(e.message);
      process.exit(1);
    });
    return;
  }
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
