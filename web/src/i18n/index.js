// The page's languages: one table of strings per language (en.js, nl.js, the
// same keys), the lookup t(key, ...args), which language is current, and the
// numbers per locale. Text that comes from the module (formulas, component
// labels, sources, warnings, its error messages) is shown as the module gives it.

import en from './en.js';
import nl from './nl.js';
import { formatBytes, groupDigits, exactBytes, fixedDigits } from '../format.js';

export const TABLES = { en, nl };
export const LANGUAGES = Object.keys(TABLES);
/** The locale of each language's numbers: grouping and decimal sign. */
export const LOCALES = { en: 'en-US', nl: 'nl-NL' };

/** A language tag ("nl", "nl-BE", "EN-gb") → a language of the page, or null. */
export function languageOf(tag) {
  const m = /^([a-z]{2,3})(?:[-_]|$)/i.exec(String(tag ?? '').trim());
  const lang = m && m[1].toLowerCase();
  return lang && TABLES[lang] ? lang : null;
}

/** The browser's language: Dutch when it starts with "nl", English otherwise. */
export function browserLanguage(nav = globalThis.navigator) {
  const first = (nav && ((nav.languages && nav.languages[0]) || nav.language)) || '';
  return /^nl(?:[-_]|$)/i.test(first) ? 'nl' : 'en';
}

/**
 * The current language of one element: the reader's choice (the switch, or
 * the link's lang=), else the element's lang attribute, else the browser's.
 */
export function currentLanguage({ chosen, attribute } = {}) {
  return languageOf(chosen) || languageOf(attribute) || browserLanguage();
}

/** Splits a table string on its {0}, {1} ... marks: the parts between and the mark numbers. */
export function splitMarks(text) {
  return String(text).split(/\{(\d)\}/);
}

const translators = {};
/**
 * One language's lookup and number formats:
 *   t(key, ...args)   the table's string, or its function called with args
 *   number(n, max)    grouped, at most `max` (2) decimals ("1.210.304", "13,5")
 *   fixed(n, digits)  exactly `digits` decimals
 *   bytes(b, system, digits) → {value, label, text} ("14,96 GiB")
 *   exact(b)          "26.000.000.000 B"
 */
export function translator(lang) {
  const l = languageOf(lang) || 'en';
  if (translators[l]) return translators[l];
  const table = TABLES[l];
  const locale = LOCALES[l];
  const t = (key, ...args) => {
    const v = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
    if (v === undefined) return key;
    return typeof v === 'function' ? v(...args) : v;
  };
  translators[l] = {
    lang: l,
    locale,
    t,
    has: (key) => Object.prototype.hasOwnProperty.call(table, key),
    number: (n, max = 2) => groupDigits(n, locale, max),
    fixed: (n, digits) => fixedDigits(n, digits, locale),
    bytes: (b, system = 'iec', digits = 2) => formatBytes(b, system, digits, locale),
    exact: (b) => exactBytes(b, locale),
  };
  return translators[l];
}

/** English: the language of the messages the exported helpers return (their API). */
export const english = translator('en');
