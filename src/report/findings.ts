import type { Capability } from '../check/types.js';
import type { CheckResult, Finding } from './model.js';
import { targetAsWritten } from '../core/exchange.js';

/**
 * The run's failures grouped by their deviation, as data: one finding per defect, so that
 * a server answering 200 instead of 201 shows as one root cause with the checks it fails,
 * not as unrelated failures. A failure that names its defect (a Category whose id is a
 * string) folds with every other naming it, on whatever request it showed (a create's
 * answer, a listed item); one that does not is grouped by its request (method and path)
 * and what was found there ("POST /v1/categories → status 200"), whatever each check
 * expected instead; one that says neither is a finding of its own. Ordered by the most
 * severe level among a finding's checks (must, should, info), then by how many checks it
 * fails: an info cause never sits above a must cause.
 */
export function findingsOf(checks: readonly CheckResult[]): Finding[] {
  const groups = new Map<string, Group>();
  for (const check of checks) {
    const failure = check.failure;
    if (check.status !== 'failed' || !failure) continue;
    const request = { method: failure.request.method, path: targetAsWritten(failure.request.url).path };
    const deviated = failure.expected !== undefined && failure.found !== undefined;
    const key = causeKey(check)!;
    const group = groups.get(key) ?? {
      ...(deviated ? { found: failure.found! } : { alone: `${check.id}: ${failure.message.split('\n')[0]}` }),
      ...(failure.defect !== undefined && deviated ? { defect: failure.defect } : {}),
      requests: [],
      expected: [],
      checks: [],
      rank: LEVEL_RANK[check.level],
    };
    group.rank = Math.min(group.rank, LEVEL_RANK[check.level]);
    if (deviated && !group.expected.includes(failure.expected!)) group.expected.push(failure.expected!);
    if (!group.requests.some((seen) => seen.method === request.method && seen.path === request.path)) group.requests.push(request);
    group.checks.push(check.id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.rank - b.rank || b.checks.length - a.checks.length).map(findingOf);
}

/**
 * What makes failures one root cause: the defect they name, else the request and what was
 * found there, else the check alone; undefined for a check that did not fail.
 */
export function causeKey(check: CheckResult): string | undefined {
  const failure = check.failure;
  if (check.status !== 'failed' || !failure) return undefined;
  if (failure.expected === undefined || failure.found === undefined) return JSON.stringify([check.id]);
  if (failure.defect !== undefined) return JSON.stringify(['defect', failure.defect]);
  return JSON.stringify([failure.request.method, targetAsWritten(failure.request.url).path, failure.found]);
}

/** The failures of one root cause, as they are gathered. */
interface Group {
  /** What was found, when the failures said it; else the one failure's first line (`alone`). */
  found?: string;
  alone?: string;
  defect?: string;
  requests: Array<{ method: string; path: string }>;
  expected: string[];
  checks: string[];
  rank: number;
}

/** A group as a finding: `F3`, and its one-line summary (`POST /v1/categories, GET /v1/categories → …, expected …`). */
function findingOf(group: Group, index: number): Finding {
  const id = `F${index + 1}`;
  if (group.found === undefined) return { id, summary: group.alone!, checks: group.checks };
  const where = group.requests.map(({ method, path }) => `${method} ${path}`).join(', ');
  return {
    id,
    summary: `${where} → ${group.found}, expected ${group.expected.join('; ')}`,
    checks: group.checks,
    request: group.requests[0]!,
    found: group.found,
    expected: group.expected,
    ...(group.defect !== undefined ? { defect: group.defect } : {}),
    ...(group.requests.length > 1 ? { requests: group.requests } : {}),
  };
}

/** Severity of a level, most severe first. */
const LEVEL_RANK: Record<CheckResult['level'], number> = { must: 0, should: 1, info: 2 };

/** The request each capability rests on (CheckDefinition.needs): a finding there blocks the checks that need it. */
const CAPABILITY_REQUEST: Record<Capability, { method: string; path: string }> = {
  create: { method: 'POST', path: '/categories' },
  list: { method: 'GET', path: '/categories' },
};

/** Whether a finding was made on the request a capability rests on (the path below the base URL), among the requests it folds. */
function blocks(finding: Finding, need: Capability): boolean {
  const { method, path } = CAPABILITY_REQUEST[need];
  return (finding.requests ?? (finding.request ? [finding.request] : [])).some((request) => request.method === method && request.path.endsWith(path));
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
