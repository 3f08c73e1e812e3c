/**
 * Known failures (`--known-failures`): a CI gate that accepts one defect until a day,
 * while the report still says what the server is.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import missingNameAccepted from '../faults/missing-name-accepted.js';
import { runAgainst } from '../support/targets.js';

/** One must failure (the fault) and one must pass, so that entries can be known, new or stale. */
const CHECKS = '^(create-rejects-missing-name|list-401-missing)$';

async function knownFailuresFile(yaml: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'pcs-known-')), 'known-failures.yaml');
  await writeFile(path, yaml);
  return path;
}

/** Runs the faulty server with a known-failures file (runAgainst captures the console). */
async function gated(yaml: string) {
  const outcome = await runAgainst({ variations: [missingNameAccepted.variation] }, { checkFilter: CHECKS, knownFailures: await knownFailuresFile(yaml) });
  return { outcome, console: outcome.console };
}

describe('known failures', () => {
  test('a listed failure that has not expired passes the gate (exit 0); the report still says nonconformant', async () => {
    const { outcome, console } = await gated('- check: create-rejects-missing-name\n  reason: accepted until PET-142 ships\n  expires: 2999-12-31\n');
    expect(outcome.report.verdict).toBe('nonconformant');
    expect(outcome.report.gate).toEqual({ passed: true, known: ['create-rejects-missing-name'], new: [], stale: [], expired: [] });
    expect(outcome.exitCode).toBe(0);
    expect(console).toContain('Gate: PASSED (1 known: create-rejects-missing-name)');
  });

  test('an unlisted failure fails the gate (exit 1); a listed check that passes is stale, reported only', async () => {
    const { outcome, console } = await gated('- check: list-401-missing\n  reason: flaky proxy\n  expires: 2999-12-31\n');
    expect(outcome.report.gate).toEqual({ passed: false, known: [], new: ['create-rejects-missing-name'], stale: ['list-401-missing'], expired: [] });
    expect(outcome.exitCode).toBe(1);
    expect(console).toContain('Gate: known failures that now pass (remove them): list-401-missing');
  });

  test('an expired entry fails the gate (exit 1), with a line naming it', async () => {
    const { outcome, console } = await gated('- check: create-rejects-missing-name\n  reason: was accepted\n  expires: 2020-01-31\n');
    expect(outcome.report.gate).toMatchObject({ passed: false, new: ['create-rejects-missing-name'], expired: [{ check: 'create-rejects-missing-name', expires: '2020-01-31' }] });
    expect(outcome.exitCode).toBe(1);
    expect(console).toContain('Gate: the known failure create-rejects-missing-name expired on 2020-01-31: renew it or remove it');
  });

  test('an entry for a check that does not exist is a usage error naming it, before any request (it would read as "now passes" forever)', async () => {
    const path = await knownFailuresFile('- check: create-rejects-missing-name\n  reason: real\n  expires: 2999-12-31\n- check: create-reject-missing-name\n  reason: a typo\n  expires: 2999-12-31\n');
    const run = runAgainst({ variations: [missingNameAccepted.variation] }, { checkFilter: CHECKS, knownFailures: path });
    await expect(run).rejects.toMatchObject({
      code: 'PCS_USAGE',
      message: expect.stringMatching(/entry 2 names the check "create-reject-missing-name", which does not exist \(did you mean create-rejects-missing-name[,?]/),
    });
  });

  test('a malformed file is a usage error naming file, line and column, before any request', async () => {
    const path = await knownFailuresFile('- check: create-rejects-missing-name\n  reason: no expiry given\n  expire: 2027-03-31\n');
    const run = runAgainst({ variations: [missingNameAccepted.variation] }, { checkFilter: CHECKS, knownFailures: path });
    await expect(run).rejects.toMatchObject({ code: 'PCS_USAGE' });
    await expect(run).rejects.toThrow(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:3: /0 must`));
  });
});

describe('--strict is one policy: every output agrees that a should failure fails the run', async () => {
  const { default: byteOrderMark } = await import('../variants/byte-order-mark.js');
  const { readFile } = await import('node:fs/promises');
  const dir = await mkdtemp(join(tmpdir(), 'pcs-strict-'));
  // An entry for an unrelated check: before, it turned the gate's count of must failures (none) into a pass.
  const knownFailures = await knownFailuresFile('- check: create-rejects-missing-name\n  reason: unrelated\n  expires: 2999-12-31\n');
  const outcome = await runAgainst({ variations: [byteOrderMark.variation] }, { strict: true, knownFailures, reportDir: dir, formats: ['json', 'junit', 'html', 'md'] });
  const file = (name: string) => readFile(join(dir, name), 'utf8');

  test('console and report.json: nonconformant, exit 1, the should check named', () => {
    expect(outcome.report.verdict).toBe('nonconformant');
    expect(outcome.report.verdictReason).toBe('1 should check (--strict) failed: json-without-byte-order-mark');
    expect(outcome.exitCode).toBe(1);
    expect(outcome.console).toMatch(/Verdict: NONCONFORMANT/);
  });

  test('the gate: the should failure is a new failure, the gate fails', () => {
    expect(outcome.report.gate).toMatchObject({ passed: false, new: ['json-without-byte-order-mark'], stale: ['create-rejects-missing-name'] });
  });

  test('junit.xml: a <failure>, counted in failures=', async () => {
    const junit = await file('junit.xml');
    expect(junit).toMatch(/<testsuites[^>]* failures="1"/);
    expect(junit).toMatch(/name="json-without-byte-order-mark \(4\)"[^>]*>\s*<failure /);
    expect(junit).not.toContain('not counted in the verdict');
  });

  test('summary.md and report.html: the should check listed as deciding the verdict', async () => {
    expect(await file('summary.md')).toMatch(/### Failed checks that decide the verdict \(--strict: should checks count\)[\s\S]*\| `json-without-byte-order-mark` \| should \|/);
    expect(await file('report.html')).toMatch(/<code>json-without-byte-order-mark<\/code>[^\n]*fails the run/);
    // The replay reproduces what decided the verdict: --strict and the known failures.
    expect(await file('summary.md')).toMatch(/Replay: `npx petstore-conformance run --base-url \S+ --profile full --strict --known-failures \S+ --seed \d+`/);
  });
});
