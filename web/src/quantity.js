// Reading short number forms: "32k", "128K", "7B", "1.5e9", "24 GB".

import { formatBytes, groupDigits } from './format.js';

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
const UNIT_WORDS = { tokens: 'tokens', params: 'parameters', bytes: 'B', count: '' };

/** Text → {value, understood} where value is a number (or the text itself
 *  when it is not a number, so the module names the error) and understood
 *  says how a short form was read ('' for a plain number). */
export function parseQuantity(text, kind = 'count') {
  const t = String(text).trim().replace(/[_,\u00a0](?=\d)/g, '');
  if (t === '') return { value: undefined, understood: '' };
  const plain = Number(t);
  if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t) && Number.isFinite(plain)) return { value: plain, understood: '' };
  const m = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([A-Za-z]*)$/i.exec(t);
  const table = SUFFIXES[kind] || {};
  if (!m) return { value: t, understood: '' };
  const base = Number(m[1]);
  let mult = 1;
  if (m[2] !== '') {
    mult = table[m[2]] ?? (kind === 'bytes' ? table[m[2].replace(/b$/, 'B').replace(/^[kmgt]/, (c) => c.toUpperCase())] : undefined);
    if (mult === undefined) return { value: t, understood: '' };
  }
  let value = base * mult;
  if (!Number.isFinite(value)) return { value: t, understood: '' };
  const near = Math.round(value);
  if (Math.abs(value - near) < 1e-6 * Math.max(1, Math.abs(value))) value = near;
  const unit = UNIT_WORDS[kind] ? ` ${UNIT_WORDS[kind]}` : '';
  let understood = `read as ${groupDigits(value)}${unit}`;
  if (kind === 'bytes') understood += ` (${formatBytes(value, 'iec').text}, ${formatBytes(value, 'si').text})`;
  return { value, understood };
}
export const numberOf = (text, kind) => parseQuantity(text, kind).value;
