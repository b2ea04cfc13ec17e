// Formatting bytes and figures for display (never arithmetic on the estimate).
// The locale decides the grouping and the decimal sign: en-US "1,210,304" and
// "14.96 GiB", nl-NL "1.210.304" and "14,96 GiB".

/** Bytes → {value, label, text}. The label always comes with its divisor. */
export const UNIT_SYSTEMS = {
  iec: { divisor: 2 ** 30, label: 'GiB' }, // GiB = 2^30 bytes
  si: { divisor: 1e9, label: 'GB' }, // GB = 10^9 bytes
};

// The page's two locales are formatted here, as Intl.NumberFormat formats
// them (its rounding, grouping and signs; a browser test compares the two):
// the first Intl.NumberFormat a page builds loads the locale data, which took
// 30 to 100 ms of the first estimate's path in headless Chromium. Any other
// locale goes through Intl.NumberFormat.
const SIGNS = { 'en-US': { group: ',', decimal: '.' }, 'nl-NL': { group: '.', decimal: ',' } };

/** The shortest decimal digits of |n| rounded half away from zero to `max`
 *  decimals (what Intl.NumberFormat rounds), as [integer digits, fraction
 *  digits]; null when JavaScript writes |n| with an exponent. */
function roundedDigits(n, max) {
  const text = String(Math.abs(n));
  if (text.includes('e')) return null;
  const dot = text.indexOf('.');
  let int = dot < 0 ? text : text.slice(0, dot);
  let frac = dot < 0 ? '' : text.slice(dot + 1);
  if (frac.length > max) {
    const up = frac.charCodeAt(max) >= 53; // '5'
    const kept = (int + frac.slice(0, max)).split('');
    for (let i = kept.length - 1; up && i >= 0; i--) {
      if (kept[i] !== '9') { kept[i] = String.fromCharCode(kept[i].charCodeAt(0) + 1); break; }
      kept[i] = '0';
      if (i === 0) kept.unshift('1');
    }
    int = kept.slice(0, kept.length - max).join('');
    frac = kept.slice(kept.length - max).join('');
  }
  return [int, frac];
}

function formatIn(signs, n, min, max) {
  if (!Number.isFinite(n)) return null;
  const digits = roundedDigits(n, max);
  if (!digits) return null;
  const [int, rawFrac] = digits;
  let frac = rawFrac.replace(/0+$/, '');
  if (frac.length < min) frac = frac.padEnd(min, '0');
  const grouped = int.replace(/\B(?=(\d{3})+$)/g, signs.group);
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return sign + grouped + (frac ? signs.decimal + frac : '');
}

// One formatter per locale and number of digits: toLocaleString would build one per call.
const formatters = new Map();
function formatter(locale, min, max) {
  const key = `${locale}|${min}|${max}`;
  let f = formatters.get(key);
  if (!f) {
    const signs = SIGNS[locale];
    let intl = null;
    const viaIntl = (n) => {
      intl ??= new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
      return intl.format(n);
    };
    f = { format: signs ? (n) => formatIn(signs, n, min, max) ?? viaIntl(n) : viaIntl };
    formatters.set(key, f);
  }
  return f;
}

/** `n` with exactly `digits` decimals, grouped, in `locale`. */
export const fixedDigits = (n, digits, locale = 'en-US') => formatter(locale, digits, digits).format(Number(n));

export function formatBytes(bytes, system = 'iec', digits = 2, locale = 'en-US') {
  const unit = UNIT_SYSTEMS[system];
  if (!unit) throw new Error(`unknown unit system: ${system}`);
  const value = fixedDigits(Number(bytes) / unit.divisor, digits, locale);
  return { value, label: unit.label, text: `${value} ${unit.label}` };
}
/** A figure, grouped, with at most `max` decimals (two unless said). */
export const groupDigits = (n, locale = 'en-US', max = 2) => formatter(locale, 0, max).format(Number(n));
export const exactBytes = (n, locale = 'en-US') => `${groupDigits(n, locale)} B`;
