import { RE2JS } from 're2js';

/**
 * `--checks` patterns, matched with RE2 (re2js): linear in the length of the id whatever
 * the pattern, where a backtracking engine ran for minutes on `^([a-z0-9-]+)*!$`. RE2 has
 * no lookaround or backreferences; a pattern that uses them is refused before the run.
 */

const compiled = new Map<string, RE2JS>();

/** The pattern compiled, or why it cannot be (one line). */
export function compileCheckPattern(pattern: string): RE2JS | string {
  const known = compiled.get(pattern);
  if (known) return known;
  try {
    const regex = RE2JS.compile(pattern);
    compiled.set(pattern, regex);
    return regex;
  } catch (error) {
    return `${(error as Error).message.split('\n')[0]} (RE2 syntax: no lookaround or backreferences)`;
  }
}

/**
 * Whether the check id matches the pattern somewhere (as `RegExp.prototype.test` would).
 * @throws Error for a pattern that does not compile (settings are checked before any run).
 */
export function checkIdMatches(pattern: string, id: string): boolean {
  const regex = compileCheckPattern(pattern);
  if (typeof regex === 'string') throw new Error(`--checks ${pattern}: ${regex}`);
  return regex.matcher(id).find();
}
