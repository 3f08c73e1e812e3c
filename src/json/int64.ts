/**
 * Exact integer arithmetic on JSON number lexemes (RFC 8259 §6), so that the int64
 * range and id uniqueness (spec section 2) are decided on the integers the server sent,
 * not on doubles that round every integer above 2^53.
 */

/** Smallest and largest int64 values. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

const NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Beyond this decimal exponent every integer is far outside int64; cap to stay cheap. */
const EXPONENT_CAP = 40;
/**
 * Digits converted exactly at most: BigInt's decimal parsing grows with the square of the
 * length (a million digits takes minutes). Longer integers, far outside int64, become
 * 10^1000 with their sign: two ids that long and alike up to their thousandth digit compare equal.
 */
const DIGIT_CAP = 1000;

/**
 * The exact integer a JSON number lexeme denotes, or `undefined` when it has a
 * non-zero fractional part or is not a JSON number at all. `"1.0"` and `"1e3"` are
 * integers (JSON Schema 2020-12 counts any number with a zero fraction as an integer);
 * a huge exponent yields a value outside int64 rather than a huge BigInt.
 */
export function integerFromLexeme(lexeme: string): bigint | undefined {
  const match = NUMBER.exec(lexeme);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  let value: bigint;
  if (digits === '0') {
    value = 0n;
  } else if (digits.length + Math.max(0, exponent) > DIGIT_CAP) {
    // Any fraction is checked above the cap too: a long number with a fraction is no integer.
    if (exponent < 0 && !/^0*$/.test(digits.slice(digits.length + exponent))) return undefined;
    value = 10n ** BigInt(DIGIT_CAP);
  } else if (exponent >= 0) {
    value = exponent > EXPONENT_CAP ? 10n ** BigInt(EXPONENT_CAP) : BigInt(digits) * 10n ** BigInt(exponent);
  } else {
    const dropped = Math.min(-exponent, digits.length);
    if (!/^0*$/.test(digits.slice(digits.length - dropped))) return undefined;
    digits = digits.slice(0, digits.length - dropped) || '0';
    value = BigInt(digits);
  }
  return sign === '-' ? -value : value;
}

/** Whether an exact integer fits the int64 format (OpenAPI: signed 64 bits). */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}
