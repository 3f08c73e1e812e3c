/**
 * Root causes: failures grouped by their deviation. A server that answers 200 instead of
 * 201 is one finding with the checks it fails, shown first.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import createAnswers200 from '../faults/create-answers-200.js';
import idsAsStrings from '../faults/ids-as-strings.js';
import listHangs from '../faults/list-hangs.js';
import anyBearerToken from '../faults/any-bearer-token.js';
import { LET_THROUGH } from '../../src/judgements/auth.js';
import { runAgainst } from '../support/targets.js';

test('200 instead of 201 is one root cause holding every check it fails, first in the console and summary.md', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-findings-'));
  const outcome = await runAgainst({ variations: [createAnswers200.variation] }, { reportDir: dir });
  const failed = outcome.report.checks.filter((c) => c.status === 'failed').map((c) => c.id);
  expect(outcome.report.findings).toHaveLength(1);
  const [finding] = outcome.report.findings;
  expect(finding!.summary).toMatch(/^POST \/v1\/categories → status 200, expected status 201(; |$)/);
  expect(finding!.checks.sort()).toEqual(failed.sort());
  expect(failed).toEqual(expect.arrayContaining(['create-name-only', 'create-valid-bodies', 'model-based-sequences']));
  // Before the counts in the console, before the failed checks in summary.md: once, its checks under it, and the curl line of a counterexample.
  expect(outcome.console).toContain('\n  F1   POST /v1/categories → status 200, expected status 201');
  expect(outcome.console).toMatch(new RegExp(`\\n {7}${failed.length} checks: `));
  expect(outcome.console.match(/^ {7}Reproduce: export PETSTORE_API_KEY="\$\{PETSTORE_API_KEY:\?set PETSTORE_API_KEY\}" && \\\n {9}curl /gm)).toHaveLength(1);
  expect(outcome.console.indexOf('Root causes')).toBeLessThan(outcome.console.indexOf('\nChecks\n'));
  // Live, the evidence is printed once: every later check of the cause names the first instead.
  expect(outcome.console.match(/^ {8}the same root cause as [\w-]+: status 200$/gm)).toHaveLength(failed.length - 1);
  const md = await readFile(join(dir, 'summary.md'), 'utf8');
  expect(md.indexOf('### Root causes')).toBeGreaterThan(-1);
  expect(md.indexOf('### Root causes')).toBeLessThan(md.indexOf('### Failed checks that decide the verdict'));
  const html = await readFile(join(dir, 'report.html'), 'utf8');
  expect(html).toContain(`<h2 id="root-causes">Root causes (1) and failures (${failed.length})</h2>`);
  expect(html.match(/<section class="cause" id="F\d+">/g)).toHaveLength(1);
  expect(html).toContain(`<summary>the evidence of the ${failed.length - 1} other checks</summary>`);
  // The check whose precondition (a 201 create) the finding broke says so first.
  expect(outcome.report.checks.find((c) => c.id === 'create-listed')?.reason).toMatch(/^blocked by F1 \(POST \/v1\/categories → status 200, expected status 201.*\): no create of the example checks answered 201/);
  // So does its live console line, citing the deviation seen so far (ids follow the final counts).
  // (the words as they read, the lines wrapped to the console's width)
  expect(outcome.console).toMatch(/create-listed .*\n {8}error: blocked by POST \/v1\/categories → status 200, expected status 201[^]*?: no create of the example\s+checks answered 201/);
});

test('ids written as strings: one defect, one root cause, and only the rules it breaks fail (none of section 5 or the key rule)', async () => {
  const outcome = await runAgainst({ variations: [idsAsStrings.variation] });
  const failed = outcome.report.checks.filter((c) => c.status === 'failed');
  expect(failed.length).toBeGreaterThanOrEqual(10);
  expect(outcome.report.findings).toHaveLength(1);
  const [finding] = outcome.report.findings;
  expect(finding).toMatchObject({ defect: 'a Category: /id must be integer (found string)', requests: [{ method: 'POST', path: '/v1/categories' }, { method: 'GET', path: '/v1/categories' }] });
  expect(finding!.checks.sort()).toEqual(failed.map((c) => c.id).sort());
  // A sequence that also serves the key rule failed on the id: the key rule holds, as every one of its key checks said.
  expect(failed.map((c) => c.id)).toContain('model-based-sequences');
  const byOutcome = (outcome_: string) => outcome.report.requirements.filter((r) => r.outcome === outcome_).map((r) => r.id).sort();
  expect(byOutcome('failed')).toEqual(['R-2-CATEGORY', 'R-4.1-200', 'R-4.2-R1']);
  for (const id of ['R-4.2-R3', 'R-5-R1', 'R-5-R2', 'R-5-SCOPE', 'R-4-AUTH']) expect(outcome.report.requirements.find((r) => r.id === id)?.outcome, id).toBe('passed');
  // The matrix says why a failed check gave no verdict on a rule it serves.
  const keyRule = outcome.report.requirements.find((r) => r.id === 'R-4.2-R3')!;
  expect(keyRule.checks.find((c) => c.id === 'model-based-sequences')).toEqual({ id: 'model-based-sequences', level: 'must', status: 'failed', reason: 'failed on R-2-CATEGORY, R-4.2-R1, not on this rule' });
});

test('a list that never answers is one root cause, every check it stopped under it, and no keyed request on its route waits out a deadline of its own or is sent again', async () => {
  // The checks a hung list stops, and the keyed-scheme check on its route: enough to hold the one cause, in a second.
  const outcome = await runAgainst({ variations: [listHangs.variation] }, { timeoutMs: 1_000, checkFilter: '^(list-answers-200-array|list-items-are-categories|list-ids-unique|auth-scheme-case-insensitive)$' });
  const failed = outcome.report.checks.filter((c) => c.status === 'failed' && c.level === 'must').map((c) => c.id);
  expect(failed.sort()).toEqual(['list-answers-200-array', 'list-ids-unique', 'list-items-are-categories']);
  const must = outcome.report.findings.filter((finding) => finding.checks.some((id) => failed.includes(id)));
  expect(must.map((finding) => finding.summary)).toEqual(['GET /v1/categories → no response (TIMEOUT), expected a response']);
  expect(must[0]!.checks.sort()).toEqual(failed);
  // The key under another spelling of the scheme is on the hung route: abandoned or blocked with it (error), never its own timeout, never sent again.
  expect(outcome.report.checks.find((c) => c.id === 'auth-scheme-case-insensitive')).toMatchObject({ status: 'error', reason: expect.stringMatching(/^RouteHung: blocked: GET \/v1\/categories with the key hangs: #\d+ \(sent by [\w-]+\)/) });
  expect(outcome.exchanges.filter((e) => e.credential.startsWith('valid-') && (e.superseded !== undefined || e.error?.code === 'TIMEOUT'))).toEqual([]);
}, 60_000);

test('a server that takes any bearer token is one root cause: requests without a valid key let through, on every operation and path', async () => {
  const outcome = await runAgainst({ variations: [anyBearerToken.variation] }, { checkFilter: '^(create-401-unknown-key|list-401-unknown-key|auth-rejects-generated-credentials|pets-requires-auth|orders-requires-auth|unauthorized-invalid-token)$' });
  const failedMust = outcome.report.checks.filter((c) => c.status === 'failed' && c.level === 'must').map((c) => c.id);
  const [first, ...others] = outcome.report.findings;
  expect(first!.defect).toBe(LET_THROUGH);
  expect(first!.checks).toEqual(expect.arrayContaining(failedMust));
  expect(first!.requests!.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(['GET /v1/categories', 'GET /v1/pets/1', 'GET /v1/store/orders', 'POST /v1/categories']);
  expect(others.filter((finding) => finding.checks.some((id) => failedMust.includes(id)))).toEqual([]);
}, 60_000);
