/**
 * Luck never decides a verdict (the coverage phase, src/check/property.ts): every fault of
 * test/faults that a property-based check is expected to fail, that check fails with each
 * of the seeds 1 to 20; and every correct variant of test/variants with a policy to find
 * (its `observes`) passes create-valid-bodies with each of them, every policy found. One
 * fleet run: every target × seed is a target of its own (its own store) behind one
 * loopback port, only the checks in question selected.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { listChecks } from '../../src/runner/list.js';
import { runFleet, type FleetMember } from '../../src/runner/fleet.js';
import type { Report } from '../../src/report/model.js';
import { loadCatalogue } from '../support/matrix.js';
import { startSharedServer } from '../support/shared-server.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const KEY = 'Seeds-Key_0123456789abcdefGHIJ';

const { faults, variants } = await loadCatalogue();
const declared = (await listChecks()).checks;
/** The property-based checks: those with a coverage phase. */
const properties = new Set(declared.filter((check) => check.coverage !== undefined && check.id !== 'client-forms-equivalent').map((check) => check.id));
/**
 * Each fault whose listed failures hold a property check, with those checks. A check that
 * fails because the fault breaks a capability it needs (`broken`) fails whatever its inputs
 * are, so luck has no part in it (the matrix asserts those); timing-dependent ones aside.
 */
const caught = [...faults].flatMap(([name, fault]) => {
  const checks = fault.expected.failed.filter((id) => properties.has(id) && !(fault.expected.mayFail ?? []).includes(id));
  return checks.length > 0 ? [{ name, fault, checks }] : [];
});

/** The correct variants whose refusals create-valid-bodies must find to be policies or limits, by name. */
const policies = [...variants].filter(([, variant]) => (variant.observes ?? []).length > 0 && variant.observedBy === undefined);

const reports = new Map<string, Report>();
beforeAll(async () => {
  const targets = [...caught.map(({ name, fault }) => ({ name, variation: fault.variation })), ...policies.map(([name, variant]) => ({ name, variation: variant.variation }))].flatMap(({ name, variation }) =>
    SEEDS.map((seed) => ({ prefix: `${name}-s${seed}`, variations: [variation], apiKey: KEY })),
  );
  const server = await startSharedServer(targets);
  try {
    const policyMembers: FleetMember[] = policies.flatMap(([name]) =>
      SEEDS.map((seed) => ({ targetName: `${name}-s${seed}`, baseUrl: server.baseUrl(`${name}-s${seed}`), apiKey: KEY, seed, checkFilter: '^create-valid-bodies$' })),
    );
    const members: FleetMember[] = caught.flatMap(({ name, fault, checks }) =>
      SEEDS.map((seed) => ({
        // A route that never answers fails whatever the inputs: its deadline need not be waited out in full.
        ...(fault.hangs ? { timeoutMs: 1_000 } : {}),
        targetName: `${name}-s${seed}`,
        baseUrl: server.baseUrl(`${name}-s${seed}`),
        apiKey: KEY,
        seed,
        checkFilter: `^(${checks.join('|')})$`,
        // What is asserted is that the check fails, not how far its counterexample shrinks; one
        // input at a time, a property stops at its first failure rather than with a batch in flight.
        shrinkBudget: 0,
        concurrency: 1,
      })),
    );
    const outcome = await runFleet([...members, ...policyMembers], { reportDir: null, out: null });
    for (const [name, report] of outcome.reports) reports.set(name, report);
  } finally {
    await server.close();
  }
}, 600_000);

test('the property checks are the four with a coverage phase', () => {
  expect([...properties].sort()).toEqual(['auth-rejects-generated-credentials', 'create-rejects-invalid-bodies', 'create-valid-bodies', 'model-based-sequences']);
  expect(caught.length).toBeGreaterThan(30);
});

describe('each fault a property check catches is caught with every seed from 1 to 20', () => {
  test.each(caught.map(({ name, checks }) => [name, checks] as const))('%s: %s', (name, checks) => {
    const missed = SEEDS.flatMap((seed) => {
      const report = reports.get(`${name}-s${seed}`)!;
      return checks.filter((id) => report.checks.find((c) => c.id === id)?.status !== 'failed').map((id) => `seed ${seed}: ${id} ${report.checks.find((c) => c.id === id)?.status}`);
    });
    expect(missed).toEqual([]);
  });
});

describe('each correct variant with a policy passes create-valid-bodies with every seed from 1 to 20, its policies found', () => {
  test.each(policies.map(([name]) => name))('%s', (name) => {
    const patterns = variants.get(name)!.observes!;
    const missed = SEEDS.flatMap((seed) => {
      const check = reports.get(`${name}-s${seed}`)!.checks.find((c) => c.id === 'create-valid-bodies')!;
      if (check.status !== 'passed') return [`seed ${seed}: ${check.status}: ${check.failure?.message.split('\n', 1)[0] ?? check.reason}`];
      return patterns.filter((pattern) => !(check.observations ?? []).some((text) => pattern.test(text))).map((pattern) => `seed ${seed}: no observation matches ${pattern}`);
    });
    expect(missed).toEqual([]);
  });
});
