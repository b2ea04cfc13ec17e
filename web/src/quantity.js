// Reading short number forms: "32k", "128K", "7B", "1.5e9", "24 GB".
//
// Separators, per language of the page:
//   en  a comma groups thousands (in groups of three: "1,024", "13,000,000,000");
//       a point is the decimal sign ("1.5e9", "0.9").
//   nl  a comma is the decimal sign ("1,5e9", "24,5 GB", "1,024" = 1.024); a
//       point is one too when it is the only separator, written once ("1.5e9",
//       "0.9"; "1.024" is 1.024, and the input says so); points (or commas)
//       written more than once, in groups of three, group thousands
//       ("1.210.304"); with both, the last one is the decimal sign ("1.024,5"
//       and "1,024.5" = 1024.5).
// What the form keeps (state, link, scenario) is the English reading: in Dutch
// the typed text is rewritten with a decimal point and no grouping
// (canonicalQuantity), and shown with a decimal comma (displayQuantity).

import { translator } from './i18n/index.js';

/** Suffix → multiplier, per kind of quantity. Tokens follow vLLM's
 *  human-readable integers (lower-case decimal, upper-case binary);
 *  parameter counts are decimal; bytes name their unit system. */
export const SUFFIXES = {
  tokens: { k: 1e3, m: 1e6, K: 2 ** 10, M: 2 ** 20 },
  count: { k: 1e3, K: 1e3 },
  params: { k: 1e3, K: 1e3, m: 1e6, M: 1e6, b: 1e9, B: 1e9, t: 1e12, T: 1e12 },
  bytes: {
    B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12,
    KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40,
  },
};

// sign, digits with separators, exponent, then the suffix (with its spaces).
const FORM = /^([-+]?)([\d.,]*\d[\d.,]*|[.,]\d+)(e[-+]?\d+)?(\s*[A-Za-z]*)$/i;

/** The digits and separators of a number → plain notation ("1024.5"), and
 *  whether a separator other than a lone decimal point was read; null when
 *  they are not a number in that language. */
function mantissa(text, lang) {
  const commas = text.split(',').length - 1;
  const points = text.split('.').length - 1;
  let group = '';
  let decimal = '';
  if (lang === 'nl') {
    if (commas && points) [group, decimal] = text.lastIndexOf(',') > text.lastIndexOf('.') ? ['.', ','] : [',', '.'];
    else if (commas) [group, decimal] = commas > 1 ? [',', ''] : ['', ','];
    else if (points) [group, decimal] = points > 1 ? ['.', ''] : ['', '.'];
  } else {
    if (commas) group = ',';
    if (points) decimal = '.';
  }
  const parts = decimal ? text.split(decimal) : [text];
  if (parts.length > 2) return null;
  let [int, frac] = parts;
  if (frac !== undefined && !/^\d*$/.test(frac)) return null;
  if (group) {
    const g = group === '.' ? '\\.' : ',';
    if (!new RegExp(`^\\d{1,3}(?:${g}\\d{3})+$`).test(int)) return null;
    int = int.split(group).join('');
  } else if (!/^\d*$/.test(int)) return null;
  if (int === '' && !frac) return null;
  // In Dutch "1.024" is read as 1.024, but the reader may have meant 1024: say how it was read.
  const twofold = lang === 'nl' && decimal === '.' && /^[1-9]\d{0,2}$/.test(int) && /^\d{3}$/.test(frac);
  return { plain: frac === undefined ? int : `${int}.${frac}`, separators: !!group || decimal === ',' || twofold };
}

/** Text → its parts under `lang`'s separators, or null when it is no number form. */
function readForm(text, lang) {
  const t = String(text).trim().replace(/[_\u00a0\u202f](?=\d)/g, '');
  const m = FORM.exec(t);
  if (!m) return null;
  const num = mantissa(m[2], lang);
  if (!num) return null;
  return { sign: m[1], plain: num.plain, separators: num.separators, exp: m[3] || '', rest: m[4] };
}

/** Text → {value, understood} where value is a number (or the text itself
 *  when it is not a number, so the module names the error) and understood
 *  says how a short form or a separator was read ('' for a plain number),
 *  in `lang` (en | nl), whose separators it follows. */
export function parseQuantity(text, kind = 'count', lang = 'en') {
  const tr = translator(lang);
  const t = String(text).trim();
  if (t === '') return { value: undefined, understood: '' };
  const form = readForm(t, tr.lang);
  if (!form) return { value: t, understood: '' };
  const table = SUFFIXES[kind] || {};
  const suffix = form.rest.trim();
  let mult = 1;
  if (suffix !== '') {
    mult = table[suffix] ?? (kind === 'bytes' ? table[suffix.replace(/b$/, 'B').replace(/^[kmgt]/, (c) => c.toUpperCase())] : undefined);
    if (mult === undefined) return { value: t, understood: '' };
  }
  let value = Number(`${form.sign}${form.plain}${form.exp}`) * mult;
  if (!Number.isFinite(value)) return { value: t, understood: '' };
  if (suffix === '' && form.exp === '' && !form.separators) return { value, understood: '' };
  const near = Math.round(value);
  if (Math.abs(value - near) < 1e-6 * Math.max(1, Math.abs(value))) value = near;
  let read = tr.number(value, 6);
  if (tr.has(`quantity.unit.${kind}`)) read += ` ${tr.t(`quantity.unit.${kind}`)}`;
  if (kind === 'bytes') read += ` (${tr.bytes(value, 'iec').text}, ${tr.bytes(value, 'si').text})`;
  return { value, understood: tr.t('quantity.read-as', read) };
}
export const numberOf = (text, kind, lang = 'en') => parseQuantity(text, kind, lang).value;

/** What a number input typed in `lang` is kept as: the same number written
 *  the English way (decimal point, no grouping); other text as typed. */
export function canonicalQuantity(text, lang) {
  if (lang === 'en') return text;
  const form = readForm(text, lang);
  if (!form) return text;
  return `${form.sign}${form.plain}${form.exp}${form.rest}`;
}

/** What a kept number input shows in `lang`: in Dutch with a decimal comma. */
export function displayQuantity(text, lang) {
  if (lang === 'en') return text;
  const form = readForm(text, 'en');
  if (!form || !form.plain.includes('.') && !form.separators) return text;
  return `${form.sign}${form.plain.replace('.', ',')}${form.exp}${form.rest}`;
}
