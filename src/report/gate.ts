import type { KnownFailure } from '../config/known-failures.js';
import type { CheckResult, Gate, Verdict } from './model.js';
import { EXIT, exitCodeFor, failsRun } from './verdict.js';

/**
 * What a CI gate makes of a run given its known failures (the failures that count for the
 * verdict: `strict` counts should failures, as the verdict does). The verdict is untouched (a
 * server with a known defect is still nonconformant); the gate passes when every failed
 * must check is listed by an entry that has not expired, and no entry has expired.
 * @param today the run's day, `YYYY-MM-DD` (UTC): an entry holds through its `expires` day.
 */
export function gateOf(checks: readonly CheckResult[], entries: readonly KnownFailure[], today: string, strict = false): Gate {
  const expired = entries.filter((entry) => entry.expires < today);
  const active = new Set(entries.filter((entry) => entry.expires >= today).map((entry) => entry.check));
  const failed = checks.filter((check) => failsRun(check, strict)).map((check) => check.id);
  const known = failed.filter((id) => active.has(id));
  const fresh = failed.filter((id) => !active.has(id));
  const stale = [...active].filter((id) => !failed.includes(id));
  return {
    passed: fresh.length === 0 && expired.length === 0,
    known,
    new: fresh,
    stale,
    expired: expired.map(({ check, expires }) => ({ check, expires })),
  };
}

/**
 * The exit code of a run: its verdict's, or with known failures the gate's (0 when it
 * passes, 1 when not). A target that could not be assessed stays 3 either way.
 */
export function exitCodeOf(verdict: Verdict, gate: Gate | undefined): number {
  if (!gate || verdict === 'error') return exitCodeFor(verdict);
  return gate.passed ? EXIT.conformant : EXIT.nonconformant;
}

/** The gate in a few lines, for the console and summary.md: its outcome, then each entry that needs a hand. */
export function gateLines(gate: Gate): string[] {
  const known = gate.known.length > 0 ? ` (${gate.known.length} known: ${gate.known.join(', ')})` : '';
  return [
    gate.passed ? `Gate: PASSED${known}` : `Gate: FAILED${known}`,
    ...(gate.new.length > 0 ? [`Gate: new failures: ${gate.new.join(', ')}`] : []),
    ...gate.expired.map(({ check, expires }) => `Gate: the known failure ${check} expired on ${expires}: renew it or remove it`),
    ...(gate.stale.length > 0 ? [`Gate: known failures that now pass (remove them): ${gate.stale.join(', ')}`] : []),
  ];
}
