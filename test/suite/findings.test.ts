/**
 * Root causes: failures grouped by their deviation. A server that answers 200 instead of
 * 201 is one finding with the checks it fails, shown first.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import createAnswers200 from '../faults/create-answers-200.js';
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
  // Before the counts in the console, before the failed checks in summary.md.
  expect(outcome.console.indexOf(`F1   ${failed.length} checks: POST /v1/categories → status 200`)).toBeGreaterThan(-1);
  expect(outcome.console.indexOf('Root causes')).toBeLessThan(outcome.console.indexOf('\nChecks\n'));
  const md = await readFile(join(dir, 'summary.md'), 'utf8');
  expect(md.indexOf('### Root causes')).toBeGreaterThan(-1);
  expect(md.indexOf('### Root causes')).toBeLessThan(md.indexOf('### Failed checks that decide the verdict'));
  expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('<h2 id="root-causes">Root causes (1)</h2>');
  // The check whose precondition (a 201 create) the finding broke says so first.
  expect(outcome.report.checks.find((c) => c.id === 'create-listed')?.reason).toMatch(/^blocked by F1 \(POST \/v1\/categories → status 200, expected status 201.*\): no create of the example checks answered 201/);
  // So does its live console line, citing the deviation seen so far (ids follow the final counts).
  expect(outcome.console).toMatch(/create-listed .*\n\s+error: blocked by POST \/v1\/categories → status 200, expected status 201.*: no create of the example checks answered 201/);
});
