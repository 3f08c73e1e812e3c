import { countOf } from '../core/words.js';
import type { CheckResult, Coverage, Report, TrafficSummary, Verdict } from './model.js';
import { SAFE_DEFAULT_SKIPS } from '../check/reasons.js';
import type { RunSettings } from '../config/settings.js';

/** Exit codes of `petstore-conformance run` (a stable contract for CI). */
export const EXIT = {
  /** Every `must` check passed. */
  conformant: 0,
  /** A `must` check failed. */
  nonconformant: 1,
  /** Usage or configuration error. */
  usage: 2,
  /** The target could not be assessed (unreachable, every request failing, aborted), or the tool itself failed (core/tool-failure.ts). */
  error: 3,
} as const;

/** What the run knows beyond the checks' statuses. */
export interface RunFacts {
  /** False when no exchange got any response (unreachable target) or the run was aborted. */
  assessable: boolean;
  /** Why the target could not be assessed, when it could not. */
  unassessableReason?: string;
  /** Problems of the run itself. */
  runErrors: string[];
  /** Whether `should` failures count for the verdict (`--strict`). */
  strict: boolean;
}

/**
 * The one verdict policy: whether a check's outcome counts for the verdict. `must` checks
 * always do; `should` checks (HTTP standards the spec does not state) only under
 * `--strict`; `info` checks never. The verdict, the gate, JUnit, the console, summary.md
 * and report.html all ask this, and nothing else.
 */
export function countsForVerdict(check: Pick<CheckResult, 'level'>, strict: boolean): boolean {
  return check.level === 'must' || (strict && check.level === 'should');
}

/** Whether a check failed in a way that fails the run ({@link countsForVerdict}). */
export function failsRun(check: Pick<CheckResult, 'level' | 'status'>, strict: boolean): boolean {
  return check.status === 'failed' && countsForVerdict(check, strict);
}

/** Checks in the order every renderer lists failures: those that count for the verdict first, then by level (must, should, info). */
export function byWeight(strict: boolean): (a: Pick<CheckResult, 'level'>, b: Pick<CheckResult, 'level'>) => number {
  const rank = (check: Pick<CheckResult, 'level'>) => (countsForVerdict(check, strict) ? 0 : 3) + LEVEL_ORDER.indexOf(check.level);
  return (a, b) => rank(a) - rank(b);
}

const LEVEL_ORDER: ReadonlyArray<CheckResult['level']> = ['must', 'should', 'info'];

/**
 * Decides the verdict: `nonconformant` as soon as a `must` check failed on an assessable
 * target; `conformant` only when every `must` check that ran passed and at least one
 * did; `error` when the target could not be assessed or a `must` check could not be
 * evaluated. `info` checks never change the verdict, nor do `should` checks unless
 * `facts.strict` (`--strict`) makes their failures count.
 */
export function decideVerdict(checks: readonly CheckResult[], facts: RunFacts): { verdict: Verdict; reason: string } {
  if (!facts.assessable) return { verdict: 'error', reason: facts.unassessableReason ?? 'the target could not be assessed' };
  const must = checks.filter((check) => check.level === 'must');
  const counted = checks.filter((check) => failsRun(check, facts.strict));
  const failed = counted.filter((check) => check.level === 'must');
  const shouldFailed = counted.filter((check) => check.level === 'should');
  if (failed.length > 0 || shouldFailed.length > 0) {
    const kinds = [...(failed.length > 0 ? [countOf(failed.length, 'must check')] : []), ...(shouldFailed.length > 0 ? [`${countOf(shouldFailed.length, 'should check')} (--strict)`] : [])];
    return { verdict: 'nonconformant', reason: `${kinds.join(' and ')} failed: ${[...failed, ...shouldFailed].map((c) => c.id).join(', ')}` };
  }
  const errored = must.filter((check) => check.status === 'error');
  if (errored.length > 0) {
    return { verdict: 'error', reason: `${countOf(errored.length, 'must check')} could not be evaluated: ${errored.map((c) => c.id).join(', ')}` };
  }
  if (facts.runErrors.length > 0) return { verdict: 'error', reason: `the run had errors: ${facts.runErrors[0]}` };
  const passed = must.filter((check) => check.status === 'passed').length;
  if (passed === 0) return { verdict: 'error', reason: 'no must check ran' };
  // `the 1 must check passed`, never `all 1`.
  return { verdict: 'conformant', reason: `${passed === 1 ? 'the' : 'all'} ${countOf(passed, 'must check')} passed` };
}

/** Checks a shortfall names at most (the report lists every check's status). */
const NAMED_AT_MOST = 5;

/**
 * Why a verdict cannot stand on too little (`--min-must-checks`): fewer must checks ran,
 * or were judged on captured traffic, than the gate asks; undefined when enough did, or
 * no gate is set. A number names those that ran; `all` (every must check of the suite)
 * and `profile` (every one the profile reaches: none skipped but by the profile or by the
 * key kept out of URLs) name those that did not. A must failure is no less a failure on
 * little evidence: the caller keeps a nonconformant verdict.
 * @param profile the run's profile and whether it was chosen: `all` after a read-only
 *   profile taken by default says so, and how to choose one.
 */
export function coverageShortfall(checks: readonly CheckResult[], minimum: number | 'all' | 'profile' | undefined, profile?: Pick<RunSettings, 'profile' | 'profileSource'>): string | undefined {
  if (minimum === undefined) return undefined;
  const must = checks.filter((check) => check.level === 'must');
  const ran = must.filter((check) => check.status !== 'skipped');
  const judged = checks.some((check) => check.traffic) ? 'ran or were judged on the captured traffic' : 'ran';
  if (typeof minimum === 'number') {
    if (ran.length >= minimum) return undefined;
    return `only ${countOf(ran.length, 'must check')} ${judged}, fewer than --min-must-checks ${minimum}${ran.length > 0 ? `: ${ran.map((check) => check.id).join(', ')}` : ''}`;
  }
  const missing = must.filter((check) => check.status === 'skipped' && (minimum === 'all' || !SAFE_DEFAULT_SKIPS.includes(check.reason ?? '')));
  if (missing.length === 0) return undefined;
  // A profile taken by default never lowers a gate: the words say which one, and how to choose.
  const byDefault =
    minimum === 'all' && profile?.profile === 'read-only' && profile.profileSource === 'default'
      ? 'the profile was read-only by default, as for every target not on loopback (--profile full runs the creates; --profile read-only, written, gates on reads alone); '
      : '';
  const asked = minimum === 'all' ? 'every must check of the suite' : 'every must check the profile reaches';
  const named = missing.slice(0, NAMED_AT_MOST).map((check) => `${check.id} (${check.reason ?? 'skipped'})`);
  const more = missing.length > NAMED_AT_MOST ? `, and ${missing.length - NAMED_AT_MOST} more` : '';
  return `${byDefault}${ran.length} of ${countOf(must.length, 'must check')} ${judged}; --min-must-checks ${minimum} asks for ${asked}: not run ${named.join(', ')}${more}`;
}

/**
 * Why a capture cut short gives no verdict (exit 3), unless the cut is expected
 * (`--accept-truncated`): a capture that ends early showed less than it claims, and a
 * green verdict on it would pass what was never seen. Undefined when nothing was cut.
 */
export function truncationShortfall(traffic: TrafficSummary | undefined, accepted: boolean): string | undefined {
  const cut = traffic?.truncated ?? [];
  if (cut.length === 0 || accepted) return undefined;
  const [first] = cut;
  return `the capture ${first!.file} ${first!.reason}: judged up to its last whole entry (${countOf(first!.entries, 'entry', 'entries')})${cut.length > 1 ? `, and ${cut.length - 1} more cut` : ''}; --accept-truncated gives a verdict on what it holds`;
}

/**
 * How a verdict is shown at a glance: `partial` for a conformant verdict on part of the
 * interface (must checks untested: the read-only profile, a filter, a capture that showed
 * only some), never green; else the verdict. The console, summary.md and report.html ask
 * this alone.
 */
export function bannerOf(report: Pick<Report, 'verdict' | 'coverage'>): Verdict | 'partial' {
  return report.verdict === 'conformant' && report.coverage.untested > 0 ? 'partial' : report.verdict;
}

/**
 * What a partial verdict on captured traffic stands on, in words: `Must checks judged (10
 * of 51): …` for a capture alone, `Must checks that ran or were judged (…)` with a run;
 * undefined for a verdict that is not partial ({@link bannerOf}), or without traffic (the
 * headline names what kept the rest out: the profile, a filter).
 */
export function partialBasis(report: Pick<Report, 'verdict' | 'coverage' | 'checks' | 'target' | 'traffic'>): string | undefined {
  if (bannerOf(report) !== 'partial' || !report.traffic) return undefined;
  const ran = report.checks.filter((check) => check.level === 'must' && check.status !== 'skipped').map((check) => check.id);
  return `Must checks ${report.target.kind === 'traffic' ? 'judged' : 'that ran or were judged'} (${ran.length} of ${report.coverage.must}): ${ran.join(', ')}`;
}

/**
 * The must checks: in all, those that ran (actively or on captured traffic), those that
 * did not, whatever kept them from running (the profile, a filter, nothing to judge), so
 * that `ran + untested = must`; with traffic, how many ran on it alone.
 */
export function coverageOf(checks: readonly CheckResult[]): Coverage {
  const must = checks.filter((check) => check.level === 'must');
  const ran = must.filter((check) => check.status !== 'skipped');
  const withTraffic = checks.some((check) => check.traffic);
  return {
    must: must.length,
    ran: ran.length,
    untested: must.length - ran.length,
    ...(withTraffic ? { traffic: ran.filter((check) => check.traffic?.alone).length } : {}),
  };
}

/**
 * The verdict as the console, summary.md and report.html headline it. A run of the
 * embedded server is a self-test, whatever its verdict: a pipeline that lost its base URL
 * must not show a green conformance badge. A conformant run that did not run every must
 * check says how much it covered, and what kept the rest out (the read-only profile,
 * `--checks`): a partial pass must never read as a plain one. Captured traffic says what it
 * exercised. The numbers add up: ran + untested = must.
 */
export function headline(report: Pick<Report, 'verdict' | 'target' | 'coverage' | 'traffic'> & { settings: Pick<Report['settings'], 'profile' | 'profileSource' | 'checkFilter' | 'insecure'> }): string {
  // A run that did not verify the target's certificate never reads as one that did.
  return `${verdictHeadline(report)}${report.settings.insecure ? ' (TLS not verified: --insecure)' : ''}`;
}

function verdictHeadline({ verdict, target, settings, coverage, traffic }: Parameters<typeof headline>[0]): string {
  const shown = verdict.toUpperCase();
  const self = target.kind === 'embedded' ? 'SELF-TEST (embedded reference server): ' : '';
  if (verdict !== 'conformant') return `${self}${shown}`;
  const cut = traffic?.truncated?.length ? ` (the capture was cut short: judged up to its last whole entry)` : '';
  if (target.kind === 'traffic' && traffic) return `${shown} on what the capture shows${cut}: ${coverage.ran} of ${countOf(coverage.must, 'must check')} judged, ${coverage.untested} untested`;
  if (traffic && coverage.traffic !== undefined) {
    const active = coverage.ran - coverage.traffic;
    return `${self}${shown}: ${countOf(active, 'must check')} ran actively, ${coverage.traffic} more ${coverage.traffic === 1 ? 'was' : 'were'} judged on ${countOf(traffic.judged, 'captured exchange')}${cut}, ${coverage.untested} untested`;
  }
  if (coverage.untested === 0) return `${self}${shown}`;
  const readOnly = settings.profileSource === 'default' ? 'the read-only profile (the default for a target not on loopback)' : 'the read-only profile';
  const scope = [settings.profile === 'read-only' ? readOnly : undefined, settings.checkFilter !== undefined ? `the checks selected (--checks ${settings.checkFilter})` : undefined].filter((words) => words !== undefined);
  return `${self}${shown}${scope.length > 0 ? ` within ${scope.join(' and ')}` : ''}: ${coverage.ran} of ${countOf(coverage.must, 'must check')} ran, ${coverage.untested} untested`;
}

/**
 * Whether no check ran (none reached, or every one skipped: a key the target refuses stops
 * the run before its checks): a count of what ran then reads `not run`, never `(0)`.
 */
export function noCheckRan(report: Pick<Report, 'checks'>): boolean {
  return report.checks.every((check) => check.status === 'skipped');
}

/** Exit code for a verdict. */
export function exitCodeFor(verdict: Verdict): number {
  return EXIT[verdict];
}
