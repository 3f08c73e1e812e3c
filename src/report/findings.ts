import type { Capability } from '../check/types.js';
import type { CheckResult, Finding } from './model.js';
import { targetAsWritten } from '../core/exchange.js';

/**
 * The run's failures grouped by their deviation, as data: one finding per request (method
 * and path) and what was found there ("POST /v1/categories → status 200"), with every expectation it missed, so
 * that a server answering 200 instead of 201 shows as one root cause with the checks it
 * fails, not as unrelated failures. Failures that say no expected/found are a finding
 * each. Ordered by the most severe level among a finding's checks (must, should, info),
 * then by how many checks it fails: an info cause never sits above a must cause.
 */
export function findingsOf(checks: readonly CheckResult[]): Finding[] {
  const groups = new Map<string, { head: string; data?: Pick<Finding, 'request' | 'found'>; expected: string[]; checks: string[]; rank: number }>();
  for (const check of checks) {
    const failure = check.failure;
    if (check.status !== 'failed' || !failure) continue;
    const request = { method: failure.request.method, path: targetAsWritten(failure.request.url).path };
    const deviated = failure.expected !== undefined && failure.found !== undefined;
    // One cause, whatever each check expected instead: a 200 fails `201` and `201 or 400` alike.
    const key = deviated ? JSON.stringify([request.method, request.path, failure.found]) : JSON.stringify([check.id]);
    const group = groups.get(key) ?? {
      head: deviated ? `${request.method} ${request.path} → ${failure.found}` : `${check.id}: ${failure.message.split('\n')[0]}`,
      ...(deviated ? { data: { request, found: failure.found! } } : {}),
      expected: [],
      checks: [],
      rank: LEVEL_RANK[check.level],
    };
    group.rank = Math.min(group.rank, LEVEL_RANK[check.level]);
    if (deviated && !group.expected.includes(failure.expected!)) group.expected.push(failure.expected!);
    group.checks.push(check.id);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.rank - b.rank || b.checks.length - a.checks.length)
    .map((group, i) => ({
      id: `F${i + 1}`,
      summary: group.expected.length > 0 ? `${group.head}, expected ${group.expected.join('; ')}` : group.head,
      checks: group.checks,
      ...(group.data ? { ...group.data, expected: group.expected } : {}),
    }));
}

/** Severity of a level, most severe first. */
const LEVEL_RANK: Record<CheckResult['level'], number> = { must: 0, should: 1, info: 2 };

/** The request each capability rests on (CheckDefinition.needs): a finding there blocks the checks that need it. */
const CAPABILITY_REQUEST: Record<Capability, { method: string; path: string }> = {
  create: { method: 'POST', path: '/categories' },
  list: { method: 'GET', path: '/categories' },
};

/** Whether a finding was made on the request a capability rests on (the path below the base URL). */
function blocks(finding: Finding, need: Capability): boolean {
  const { method, path } = CAPABILITY_REQUEST[need];
  return finding.request?.method === method && finding.request.path.endsWith(path);
}

/**
 * A check that could not be evaluated (`error`) because a capability it needs deviates:
 * its reason names the finding first (`blocked by F1 (…)`), not only the consequence
 * ("no create succeeded"). Other checks are returned as they are.
 * @param named whether to cite the finding by its id: the live console line, printed
 *   before every finding is known (ids follow the final counts), cites its summary alone.
 */
export function withBlocker(check: CheckResult, findings: readonly Finding[], named = true): CheckResult {
  if (check.status !== 'error' || !check.needs) return check;
  const blocker = findings.find((finding) => check.needs!.some((need) => blocks(finding, need)));
  if (!blocker) return check;
  const cited = named ? `${blocker.id} (${blocker.summary})` : blocker.summary;
  return { ...check, reason: `blocked by ${cited}: ${check.reason ?? 'not evaluated'}` };
}

/** {@link withBlocker} for every check of a run. */
export function withBlockers(checks: readonly CheckResult[], findings: readonly Finding[]): CheckResult[] {
  return checks.map((check) => withBlocker(check, findings));
}
