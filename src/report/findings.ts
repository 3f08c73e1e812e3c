import { requestLine } from '../core/exchange.js';
import type { Capability } from '../check/types.js';
import type { CheckResult, Finding } from './model.js';

/**
 * The run's failures grouped by their deviation: one finding per request and what was
 * found there ("POST /v1/categories → status 200"), with every expectation it missed, so
 * that a server answering 200 instead of 201 shows as one root cause with the checks it
 * fails, not as unrelated failures. Failures that say no expected/found are a finding
 * each. Most checks first.
 */
export function findingsOf(checks: readonly CheckResult[]): Finding[] {
  const groups = new Map<string, { head: string; expected: string[]; checks: string[] }>();
  for (const check of checks) {
    const failure = check.failure;
    if (check.status !== 'failed' || !failure) continue;
    const request = requestLine({ request: failure.request });
    const deviated = failure.expected !== undefined && failure.found !== undefined;
    // One cause, whatever each check expected instead: a 200 fails `201` and `201 or 400` alike.
    const key = deviated ? `${request}\u0000${failure.found}` : `${check.id}\u0000`;
    const group = groups.get(key) ?? { head: deviated ? `${request} → ${failure.found}` : `${check.id}: ${failure.message.split('\n')[0]}`, expected: [], checks: [] };
    if (deviated && !group.expected.includes(failure.expected!)) group.expected.push(failure.expected!);
    group.checks.push(check.id);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.checks.length - a.checks.length)
    .map((group, i) => ({ id: `F${i + 1}`, summary: group.expected.length > 0 ? `${group.head}, expected ${group.expected.join('; ')}` : group.head, checks: group.checks }));
}

/** The request each capability rests on (CheckDefinition.needs): a finding there blocks the checks that need it. */
const CAPABILITY_REQUEST: Record<Capability, string> = { create: 'POST /v1/categories →', list: 'GET /v1/categories →' };

/**
 * A check that could not be evaluated (`error`) because a capability it needs deviates:
 * its reason names the finding first (`blocked by F1 (…)`), not only the consequence
 * ("no create succeeded"). Other checks are returned as they are.
 * @param named whether to cite the finding by its id: the live console line, printed
 *   before every finding is known (ids follow the final counts), cites its summary alone.
 */
export function withBlocker(check: CheckResult, findings: readonly Finding[], named = true): CheckResult {
  if (check.status !== 'error' || !check.needs) return check;
  const blocker = findings.find((finding) => check.needs!.some((need) => finding.summary.includes(CAPABILITY_REQUEST[need])));
  if (!blocker) return check;
  const cited = named ? `${blocker.id} (${blocker.summary})` : blocker.summary;
  return { ...check, reason: `blocked by ${cited}: ${check.reason ?? 'not evaluated'}` };
}

/** {@link withBlocker} for every check of a run. */
export function withBlockers(checks: readonly CheckResult[], findings: readonly Finding[]): CheckResult[] {
  return checks.map((check) => withBlocker(check, findings));
}
