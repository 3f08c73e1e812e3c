import { readYamlFile } from './file.js';

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
 * Reads a known-failures file: a YAML list of {@link KnownFailure}.
 * @throws UsageError naming the file, line and column of the first problem.
 */
export async function loadKnownFailures(path: string): Promise<KnownFailure[]> {
  return (await readYamlFile(path, 'KnownFailures', 'known-failures file')) as KnownFailure[];
}
