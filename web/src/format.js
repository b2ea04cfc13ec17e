// Formatting bytes and figures for display (never arithmetic on the estimate).
// The locale decides the grouping and the decimal sign: en-US "1,210,304" and
// "14.96 GiB", nl-NL "1.210.304" and "14,96 GiB".

/** Bytes → {value, label, text}. The label always comes with its divisor. */
export const UNIT_SYSTEMS = {
  iec: { divisor: 2 ** 30, label: 'GiB' }, // GiB = 2^30 bytes
  si: { divisor: 1e9, label: 'GB' }, // GB = 10^9 bytes
};

// One formatter per locale and number of digits: toLocaleString would build one per call.
const formatters = new Map();
function formatter(locale, min, max) {
  const key = `${locale}|${min}|${max}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
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
