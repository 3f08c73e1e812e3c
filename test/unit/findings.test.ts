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
