// Formatting bytes and figures for display (never arithmetic on the estimate).

/** Bytes → {value, label, text}. The label always comes with its divisor. */
export const UNIT_SYSTEMS = {
  iec: { divisor: 2 ** 30, label: 'GiB' }, // GiB = 2^30 bytes
  si: { divisor: 1e9, label: 'GB' }, // GB = 10^9 bytes
};
export function formatBytes(bytes, system = 'iec', digits = 2) {
  const unit = UNIT_SYSTEMS[system];
  if (!unit) throw new Error(`unknown unit system: ${system}`);
  const value = (Number(bytes) / unit.divisor).toFixed(digits);
  return { value, label: unit.label, text: `${value} ${unit.label}` };
}
// One formatter for every figure: toLocaleString would build one per call.
const DIGITS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
export const groupDigits = (n) => DIGITS.format(Number(n));
export const exactBytes = (n) => `${groupDigits(n)} B`;
