/**
 * The suite proven against the reference server's deliberately broken variants (each
 * must fail exactly the checks it should) and its correct variants (none may fail a
 * must check). Runs every target in parallel, a few at a time.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RECORDED_BODY_CAP } from '../../src/core/exchange.js';
import { renderHar } from '../../src/report/har.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { judgeTraffic, type JudgedTraffic } from '../../src/traffic/judge-capture.js';
import type { Judgement } from '../../src/traffic/judge.js';
import { loadCatalogue, runMatrix, type Matrix } from '../support/matrix.js';
import { nonPassed, whyNotPassed } from '../support/targets.js';
import { expectedFailures } from '../support/fault.js';
import { CHECKS } from '../support/checks.js';
import { missingFromRecord } from '../support/in-record.js';

// Loaded at collection, so test.each can name one test per fault and variant.
const { faults, variants } = await loadCatalogue();

let matrix: Matrix;
beforeAll(async () => {
  matrix = await runMatrix({ faults, variants });
  // A guard against a hang, not a bound on speed: some 4 minutes alone on CI's 2 cores, past 5 with two other vitest runs beside it.
}, 1_200_000);

test('the reference server is conformant, every check passed', () => {
  expect(matrix.reference.report.verdict).toBe('conformant');
  expect(nonPassed(matrix.reference.report)).toEqual({ failed: [], error: [], skipped: [] });
});

describe('each fault fails exactly its checks', () => {
  test.each([...faults.keys()])('%s', (name) => {
    const fault = faults.get(name)!;
    const { expected, counterexamples = {} } = fault;
    const { report } = matrix.faultOutcomes.get(name)!;
    const actual = nonPassed(report);
    // A race may also trip the suite's own concurrent checks; only those listed may vary.
    const timingDependent = new Set(expected.mayFail ?? []);
    expect({ ...actual, failed: actual.failed.filter((id) => !timingDependent.has(id)) }).toEqual({
      failed: expectedFailures(fault, matrix.reference.report.checks).filter((id) => !timingDependent.has(id)),
      error: [...(expected.error ?? [])].sort(),
      skipped: [...(expected.skipped ?? [])].sort(),
    });
    for (const [checkId, isMinimal] of Object.entries(counterexamples)) {
      const shrunk = report.checks.find((c) => c.id === checkId)?.property?.counterexample;
      expect(shrunk, checkId).toBeDefined();
      expect(isMinimal(shrunk!), `${checkId} shrank to ${shrunk}`).toBe(true);
    }
    const mustFailed = report.checks.some((c) => c.level === 'must' && c.status === 'failed');
    expect(report.verdict).toBe(mustFailed ? 'nonconformant' : 'conformant');
    for (const check of report.checks.filter((c) => c.status === 'failed')) {
      expect(check.failure?.message, check.id).toBeTruthy();
      expect(check.failure?.request.url, check.id).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\//);
    }
  });
});

describe('each correct variant is conformant', () => {
  test.each([...variants.keys()])('%s', (name) => {
    const { report } = matrix.variantOutcomes.get(name)!;
    expect(report.verdict, `${report.verdictReason}\n${whyNotPassed(report)}`).toBe('conformant');
    const notPassed = report.checks.filter((c) => c.status !== 'passed');
    expect(notPassed.map((c) => c.id), whyNotPassed(report)).toEqual(variants.get(name)!.expectedNotPassed ?? []);
    const observed = report.checks.flatMap((c) => c.observations ?? []);
    for (const pattern of variants.get(name)!.observes ?? []) expect(observed.some((text) => pattern.test(text)), `${pattern} in ${JSON.stringify(observed)}`).toBe(true);
  });
});

test('every check of the suite is failed by at least one fault, or (a should or info check) by a correct variant', () => {
  // A correct variant fails only the non-must checks it lists (asserted above): that proves those checks can fail.
  const outcomes = [...matrix.faultOutcomes.values(), ...matrix.variantOutcomes.values()];
  const killed = new Set(outcomes.flatMap(({ report }) => nonPassed(report).failed));
  const unkilled = matrix.reference.report.checks.map((c) => c.id).filter((id) => !killed.has(id));
  expect(unkilled).toEqual([]);
});

test('every request a server received is in its report: the preflight, the exchanges, superseded attempts', () => {
  for (const [name, outcome] of [['reference', matrix.reference] as const, ...matrix.faultOutcomes, ...matrix.variantOutcomes]) {
    expect(outcome.heard.length, name).toBeGreaterThan(100);
    expect(missingFromRecord(outcome.heard, outcome, outcome.apiKey), name).toEqual([]);
  }
});

test('every category a server stored is accounted for in its report', () => {
  /** Targets that store what they refuse: the report holds what a later keyed list showed (`unannounced`), not what was stored after the run's last list. */
  const storesRefused = new Set(['refused-create-stored']);
  for (const [name, outcome] of [['reference', matrix.reference] as const, ...matrix.faultOutcomes, ...matrix.variantOutcomes]) {
    if (storesRefused.has(name)) continue;
    expect(outcome.report.created.length, name).toBeGreaterThanOrEqual(outcome.created);
  }
  // A correct server's every category was announced by its create's answer.
  for (const [name, outcome] of [['reference', matrix.reference] as const, ...matrix.variantOutcomes]) expect(outcome.report.created.filter((category) => category.unannounced), name).toEqual([]);
  // A 201 without a body: the lists give each create its id, and none is counted twice.
  const emptyBodies = matrix.faultOutcomes.get('create-answers-empty-body')!;
  expect(emptyBodies.report.created.filter((category) => category.id === 'unknown').length).toBeLessThan(emptyBodies.created / 2);
  expect(emptyBodies.report.created.length).toBeLessThanOrEqual(emptyBodies.created + emptyBodies.report.created.filter((category) => category.id === 'unknown').length);
  const refusedStored = matrix.faultOutcomes.get('refused-create-stored')!;
  const unannounced = refusedStored.report.created.filter((category) => category.unannounced);
  expect(unannounced.length).toBeGreaterThan(refusedStored.created - refusedStored.report.created.length);
  expect(refusedStored.report.created.length).toBeGreaterThan(refusedStored.created * 0.9);
  const stringIds = matrix.faultOutcomes.get('ids-as-strings')!.report.created;
  expect(stringIds.length).toBeGreaterThan(0);
  expect(stringIds.every((category) => /^"\d+"$/.test(category.id))).toBe(true);
});

test('every fault is caught by at least one check', () => {
  const uncaught = [...matrix.faultOutcomes].filter(([, { report }]) => nonPassed(report).failed.length === 0).map(([name]) => name);
  expect(uncaught).toEqual([]);
});

/**
 * The same catalogue judged passively: each target's own exchanges.har (as the run wrote
 * it, secrets as placeholders) fed to `judge`. A fault whose evidence a capture holds is
 * nonconformant there too; a correct variant never is.
 */
describe('each target judged passively from its own exchanges.har', () => {
  /** Faults a capture of their traffic cannot show, and why. */
  const PASSIVELY_INVISIBLE: Record<string, string> = {
    'list-hangs': 'its lists never answer: the capture holds requests without responses, and a missing answer is no status to judge',
  };
  const judged = new Map<string, JudgedTraffic>();
  /** Each target's passive judgements of each check on the exchanges that check sent itself (its HAR names the sender). */
  const ownJudgements = new Map<string, Map<string, { judged: number; failed: number }>>();
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pcs-passive-'));
    for (const [name, outcome] of [...matrix.faultOutcomes, ...matrix.variantOutcomes]) {
      const file = join(dir, `${name}.har`);
      const har = renderHar(outcome.report, outcome.exchanges);
      await writeFile(file, har);
      // Entry n's comment starts with the id of the check that sent it.
      const senders = (JSON.parse(har) as { log: { entries: Array<{ comment: string }> } }).log.entries.map((entry) => /^[\w-]+/.exec(entry.comment)![0]);
      const own = new Map<string, { judged: number; failed: number }>();
      const onJudgement = ({ checkId, seq, failed }: Judgement) => {
        if (senders[seq - 1] !== checkId) return;
        const tally = own.get(checkId) ?? { judged: 0, failed: 0 };
        own.set(checkId, { judged: tally.judged + 1, failed: tally.failed + (failed ? 1 : 0) });
      };
      judged.set(name, await judgeTraffic({ checks: CHECKS, files: [file], baseUrl: outcome.report.target.baseUrl }, new Redactor(), { onJudgement }));
      ownJudgements.set(name, own);
    }
    // A guard against a hang, not a bound on speed: judging some 75 captures is CPU work bounded by their size, and a loaded machine (CI beside other work) took past 120 s.
  }, 600_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const mustFailures = (name: string) => judged.get(name)!.checks.filter((c) => c.level === 'must' && c.status === 'failed').map((c) => c.id);

  test.each([...faults.keys()])('fault %s', (name) => {
    const activelyNonconformant = matrix.faultOutcomes.get(name)!.report.verdict === 'nonconformant';
    const visible = activelyNonconformant && !(name in PASSIVELY_INVISIBLE);
    expect(mustFailures(name).length > 0, `${name}: ${mustFailures(name).join(', ')}`).toBe(visible);
    expect(judged.get(name)!.summary.judged).toBeGreaterThan(0);
  });

  test.each([...variants.keys()])('correct variant %s', async (name) => {
    // A failure keeps the capture (one has been seen on a loaded machine alone) and says why.
    const kept = join(tmpdir(), `pcs-passive-failure-${name}-${process.pid}.har`);
    if (mustFailures(name).length > 0) await copyFile(join(dir, `${name}.har`), kept);
    expect(mustFailures(name), `${whyNotPassed(judged.get(name)!)}\nthe capture: ${kept}`).toEqual([]);
  });

  /**
   * The checks a capture judges across exchanges, each list held to every create before it
   * (the active ones hold a list to their own checks' creates, the model to its own
   * commands): compared by verdict only (above), never check by check.
   */
  const CROSS_EXCHANGE = new Set(['create-listed', 'create-ids-unique', 'model-based-sequences']);

  /**
   * One premise per judgement (src/check/premises.ts): a check judged passively on the very
   * exchanges it sent gives the outcome the active run gave. Never stricter: a passive
   * failure where the run passed would be a premise the two paths read differently. Never
   * laxer, but where the capture cannot hold the evidence or judges it under another id:
   * a capability the fault breaks (the check failed on a list or create it needs), a
   * request the capture holds without an answer (a hang) or with its body cut, and a later
   * list or a repeated id, which a capture judges across exchanges under create-listed and
   * create-ids-unique.
   */
  test.each([...faults.keys(), ...variants.keys()])('%s: each check judged on its own exchanges agrees with the active run', (name) => {
    const outcome = matrix.faultOutcomes.get(name) ?? matrix.variantOutcomes.get(name)!;
    const fault = faults.get(name);
    const derived = new Set(fault ? expectedFailures({ ...fault, expected: { ...fault.expected, failed: [] } }, matrix.reference.report.checks) : []);
    const stricter: string[] = [];
    const laxer: string[] = [];
    for (const [checkId, { failed }] of ownJudgements.get(name)!) {
      if (CROSS_EXCHANGE.has(checkId)) continue;
      const active = outcome.report.checks.find((check) => check.id === checkId)!;
      if (failed > 0 && active.status !== 'failed') stricter.push(`${checkId}: active ${active.status}, passive failed`);
      if (failed > 0 || active.status !== 'failed' || derived.has(checkId) || name in PASSIVELY_INVISIBLE) continue;
      const failure = active.failure!;
      // A request body past the capture's cut (RECORDED_BODY_CAP) is one the capture did not keep: never judged passively.
      const cut = (failure.request.bodyBytes ?? 0) > RECORDED_BODY_CAP;
      const elsewhere = failure.request.method === 'GET' || failure.expected === 'a fresh id' || failure.error !== undefined || cut;
      if (!elsewhere) laxer.push(`${checkId}: active failed (${failure.message.split('\n', 1)[0]}), passive passed`);
    }
    expect(stricter).toEqual([]);
    expect(laxer).toEqual([]);
  });

  test('the invisible faults are faults the active run catches', () => {
    for (const name of Object.keys(PASSIVELY_INVISIBLE)) expect(matrix.faultOutcomes.get(name)!.report.verdict).toBe('nonconformant');
  });
});
