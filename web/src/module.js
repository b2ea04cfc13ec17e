// The WebAssembly module (loaded once per page), its calls, and the catalog's
// models for the type-ahead.

import { english } from './i18n/index.js';

let modulePromise = null;
export function loadModule() {
  if (!modulePromise) {
    if (typeof window.createVramBudget !== 'function') {
      const e = new Error(english.t('error.no-module'));
      e.i18n = ['error.no-module'];
      return Promise.reject(e);
    }
    modulePromise = window.createVramBudget();
  }
  return modulePromise;
}
/** Calls a module function and parses its JSON; never throws. */
export function call(module, fn, ...args) {
  try {
    return JSON.parse(module[fn](...args));
  } catch (e) {
    return { ok: false, error: { path: '', message: english.t('error.call', fn, e.message), i18n: ['error.call', fn, e.message] } };
  }
}
/** The catalog's models, sorted, each with the text the type-ahead matches. */
export function pickerEntries(models) {
  return models.map((m) => {
    // "8.03B": what the type-ahead matches; shown in the page's own notation.
    const size = `${(m.params / 1e9).toFixed(m.params < 1e10 ? 2 : 1)}B`;
    return { id: m.id, family: m.model_type || '', size, params: m.params, dtype: m.quantized ? m.dtype : '',
      hay: `${m.id} ${m.model_type || ''} ${size} ${m.dtype || ''}`.toLowerCase() };
  }).sort((a, b) => a.id.toLowerCase().localeCompare(b.id.toLowerCase()));
}
/** Every word must match: part of the id, family or format, or a size ("8b", "70B" within 15 %). */
export function matchModels(entries, query) {
  const words = String(query).toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (!words.length) return entries;
  return entries.filter((e) => words.every((w) => {
    if (e.hay.includes(w)) return true;
    const m = /^(\d+(?:\.\d+)?)b$/.exec(w);
    return !!m && Math.abs(e.params / 1e9 - Number(m[1])) <= 0.15 * Number(m[1]);
  }));
}
