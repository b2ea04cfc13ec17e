// The page's string tables (web/src/i18n/en.js, nl.js, ES modules) read in node
// through esbuild, as the bundle reads them.
'use strict';

const path = require('node:path');
const esbuild = require('esbuild');

const I18N = path.join(__dirname, '..', '..', 'web', 'src', 'i18n');

function loadTable(lang) {
  const out = esbuild.buildSync({ entryPoints: [path.join(I18N, `${lang}.js`)], bundle: true, format: 'cjs', write: false });
  const module = { exports: {} };
  new Function('module', 'exports', out.outputFiles[0].text)(module, module.exports);
  return module.exports.default;
}

/** {en, nl}: each language's table, key → string or function. */
const loadTables = () => ({ en: loadTable('en'), nl: loadTable('nl') });

module.exports = { loadTables, I18N };
