/** Findings are data: grouped and matched on defect, request, found and expected, never on their summary's words; requirements fail by the evidence that breaks them. */
import { describe, expect, test } from 'vitest';
import { findingsOf, withBlocker } from '../../src/report/findings.js';
import { traceRequirements } from '../../src/report/traceability.js';
import type { CheckResult, Finding } from '../../src/report/model.js';

const failed = (id: string, method: string, found: string, expected: string): CheckResult => ({
  id, title: id, clause: '4.2', level: 'must', requirements: [], status: 'failed', durationMs: 1, requests: 1,
  failure: { message: `Expected ${expected}, received ${found}`, expected, found, request: { method, url: 'http://127.0.0.1:9/v1/categories', headers: {} } },
});
const blocked: CheckResult = { id: 'create-listed', title: 't', clause: '4.1/R1', level: 'must', requirements: [], status: 'error', durationMs: 1, requests: 1, needs: ['create'], reason: 'no create succeeded' };

test('one finding per request and what was found there, carrying both as data', () => {
  const findings = findingsOf([failed('a', 'POST', 'status 200', 'status 201'), failed('b', 'POST', 'status 200', 'status 201 or 400'), failed('c', 'GET', 'status 200', 'an array')]);
  expect(findings).toEqual([
    { id: 'F1', summary: 'POST /v1/categories → status 200, expected status 201; status 201 or 400', checks: ['a', 'b'], request: { method: 'POST', path: '/v1/categories' }, found: 'status 200', expected: ['status 201', 'status 201 or 400'] },
    { id: 'F2', summary: 'GET /v1/categories → status 200, expected an array', checks: ['c'], request: { method: 'GET', path: '/v1/categories' }, found: 'status 200', expected: ['an array'] },
  ]);
});

test('"blocked by" matches the request, whatever the summary says', () => {
  const reworded: Finding = { id: 'F1', summary: 'creating answered 200', checks: ['a'], request: { method: 'POST', path: '/v1/categories' }, found: 'status 200', expected: ['status 201'] };
  expect(withBlocker(blocked, [reworded]).reason).toBe('blocked by F1 (creating answered 200): no create succeeded');
  // Near miss: the words of a create, the request of a list.
  const listed: Finding = { id: 'F1', summary: 'POST /v1/categories → status 200', checks: ['a'], request: { method: 'GET', path: '/v1/categories' }, found: 'status 200', expected: ['x'] };
  expect(withBlocker(blocked, [listed]).reason).toBe('no create succeeded');
  // A blocked check that gave no reason of its own: not evaluated, said so.
  const { reason: _none, ...silent } = blocked;
  expect(withBlocker(silent, [reworded]).reason).toBe('blocked by F1 (creating answered 200): not evaluated');
  // The live line cites the summary alone.
  expect(withBlocker(blocked, [reworded], false).reason).toBe('blocked by creating answered 200: no create succeeded');
});

test('ordered by the most severe level among a finding\'s checks, then by how many checks it fails (issue 36: an info cause sat above a must cause)', () => {
  const at = (level: CheckResult['level'], id: string, path: string): CheckResult => {
    const check = failed(id, 'GET', 'status 200', 'x');
    return { ...check, level, failure: { ...check.failure!, request: { ...check.failure!.request, url: `http://127.0.0.1:9/v1/${path}` } } };
  };
  const order = (checks: CheckResult[]) => findingsOf(checks).map((finding) => finding.checks.join('+'));
  // An info cause of three checks, a should cause of two, a must cause of one: must first.
  expect(order([at('info', 'i1', 'a'), at('info', 'i2', 'a'), at('info', 'i3', 'a'), at('should', 's1', 'b'), at('should', 's2', 'b'), at('must', 'm1', 'c')])).toEqual(['m1', 's1+s2', 'i1+i2+i3']);
  // Near miss: one must check among info ones makes the cause a must cause, ranked by its count among must causes.
  expect(order([at('must', 'm1', 'c'), at('info', 'i1', 'a'), at('must', 'm2', 'a')])).toEqual(['i1+m2', 'm1']);
  // Same level: the cause failing more checks first.
  expect(order([at('must', 'm1', 'c'), at('must', 'm2', 'a'), at('must', 'm3', 'a')])).toEqual(['m2+m3', 'm1']);
});

/** A failed check whose judgement named its defect, the rules it breaks and where (Deviation). */
const defective = (id: string, method: string, found: string, more: { defect?: string; breaks?: string[]; level?: CheckResult['level']; requirements?: string[] } = {}): CheckResult => {
  const check = failed(id, method, found, 'a Category');
  return {
    ...check,
    level: more.level ?? 'must',
    requirements: more.requirements ?? [],
    failure: { ...check.failure!, ...(more.defect ? { defect: more.defect } : {}), ...(more.breaks ? { breaks: more.breaks } : {}) },
  };
};

test('one defect is one finding, on whatever requests it showed; near misses: another defect, or none named', () => {
  const defect = 'a Category: /id must be integer (found string)';
  const findings = findingsOf([
    defective('a', 'POST', '/id must be integer (found string)', { defect }),
    defective('b', 'GET', '/id must be integer (found string)', { defect }),
    defective('c', 'POST', '/name must be string (found integer)', { defect: 'a Category: /name must be string (found integer)' }),
    // The same words found, no defect named: grouped by its request with nothing else.
    defective('d', 'GET', '/id must be integer (found string)'),
  ]);
  expect(findings.map((f) => f.checks)).toEqual([['a', 'b'], ['c'], ['d']]);
  expect(findings[0]).toEqual({
    id: 'F1',
    summary: 'POST /v1/categories, GET /v1/categories → /id must be integer (found string), expected a Category',
    checks: ['a', 'b'],
    request: { method: 'POST', path: '/v1/categories' },
    found: '/id must be integer (found string)',
    expected: ['a Category'],
    defect,
    requests: [{ method: 'POST', path: '/v1/categories' }, { method: 'GET', path: '/v1/categories' }],
  });
  // One request: no list of requests.
  expect(findings[1]).not.toHaveProperty('requests');
  // "Blocked by" looks at every request a finding folds: the list of F1 blocks a check that needs the list.
  expect(withBlocker({ ...blocked, needs: ['list'] }, findings).reason).toBe(`blocked by F1 (${findings[0]!.summary}): no create succeeded`);
});

describe('traceRequirements: a requirement fails only by evidence that breaks it', () => {
  const outcomeOf = (checks: CheckResult[], id: string) => traceRequirements(checks).find((r) => r.id === id)!;
  const passing = (id: string, requirements: string[], level: CheckResult['level'] = 'must'): CheckResult => ({ id, title: id, clause: '2', level, requirements, status: 'passed', durationMs: 1, requests: 1 });

  test.each([
    ['a failure that names the rule it breaks fails it', [defective('s', 'POST', 'x', { breaks: ['R-4.2-R3'], requirements: ['R-4.2-R3'] })], 'failed'],
    ['near miss: a failure that breaks another rule gives no verdict on this one (untested)', [defective('s', 'POST', 'x', { breaks: ['R-2-CATEGORY'], requirements: ['R-4.2-R3'] })], 'untested'],
    ['… and the rule stands on the checks that passed it', [defective('s', 'POST', 'x', { breaks: ['R-2-CATEGORY'], requirements: ['R-4.2-R3'] }), passing('k', ['R-4.2-R3'])], 'passed'],
    ['a failure that names none counts against every rule its check serves', [defective('s', 'POST', 'x', { requirements: ['R-4.2-R3'] }), passing('k', ['R-4.2-R3'])], 'failed'],
    ['a failure breaks a rule its check does not serve', [defective('s', 'POST', 'x', { breaks: ['R-4.2-R3'], requirements: [] })], 'failed'],
    ['near miss: an info check never decides a must rule, whatever it breaks', [defective('s', 'POST', 'x', { breaks: ['R-4.2-R3'], level: 'info' }), passing('k', ['R-4.2-R3'])], 'passed'],
  ] as const)('%s', (_what, checks, outcome) => expect(outcomeOf([...checks], 'R-4.2-R3').outcome).toBe(outcome));

  test('the matrix lists the check whose evidence broke a rule, and why a failed check gave no verdict on another', () => {
    const checks = [defective('s', 'POST', 'x', { breaks: ['R-2-CATEGORY'], requirements: ['R-4.2-R3'] })];
    expect(outcomeOf(checks, 'R-2-CATEGORY').checks).toEqual([{ id: 's', level: 'must', status: 'failed' }]);
    expect(outcomeOf(checks, 'R-4.2-R3').checks).toEqual([{ id: 's', level: 'must', status: 'failed', reason: 'failed on R-2-CATEGORY, not on this rule' }]);
  });
});
