/** English plural rules (CLDR's, as the platform has them): which of a noun's two forms a count takes. */
const RULES = new Intl.PluralRules('en-US');

/**
 * A count and its noun in the number English gives it: `1 must check`, `0 must checks`,
 * `1,204 exchanges`, `1 entry` and `2 entries` (a plural that is not the noun and an s is
 * given). Every count a user reads is written by it, at 0, 1 and 2 alike
 * (test/unit/counts.test.ts).
 */
export function countOf(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${RULES.select(n) === 'one' ? noun : nouns}`;
}
