/** Findings are data: grouped and matched on request, found and expected, never on their summary's words. */
import { expect, test } from 'vitest';
import { findingsOf, withBlocker } from '../../src/report/findings.js';
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
