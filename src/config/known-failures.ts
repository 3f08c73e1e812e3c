import { UsageError } from '../core/errors.js';

/**
 * One accepted defect of the target (schemas/known-failures.schema.json): while it has not
 * expired, the check's failure does not fail the gate.
 */
export interface KnownFailure {
  /** A check id. */
  check: string;
  /** Why it is accepted, e.g. a ticket. */
  reason: string;
  /** The last day it holds, `YYYY-MM-DD` (UTC). */
  expires: string;
}

/**
 * Reads a known-failures file: a YAML list of {@link KnownFailure}, each naming a check
 * that exists. An entry for a check that does not exist (a typo, a renamed check) would
 * never fail and be reported as "now passes" forever: it is refused.
 * @param checkIds the ids of every check (the suite's, and the traffic's own).
 * @throws UsageError naming the file, line and column of the first problem, or the entry
 *   whose check does not exist, with the ids it is closest to.
 */
export async function loadKnownFailures(path: string, checkIds: readonly string[]): Promise<KnownFailure[]> {
  // Loaded here: a run without the file never loads the YAML parser (some 15 ms of its start).
  const { readYamlFile } = await import('./file.js');
  const entries = (await readYamlFile(path, 'KnownFailures', 'known-failures file')) as KnownFailure[];
  const known = new Set(checkIds);
  const unknown = entries.findIndex((entry) => !known.has(entry.check));
  if (unknown >= 0) {
    const { check } = entries[unknown]!;
    const near = checkIds.filter((id) => id.includes(check) || check.includes(id) || sharedPrefix(id, check) >= Math.min(12, check.length - 1)).slice(0, 3);
    throw new UsageError(`the known-failures file ${path}: entry ${unknown + 1} names the check ${JSON.stringify(check)}, which does not exist${near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : ''}; \`petstore-conformance list\` prints every check id`);
  }
  return entries;
}

function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
