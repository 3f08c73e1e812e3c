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
import { runAgainst } from '../support/targets.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
/**
 * The request deadline of every answering target of the fleet (ms): six times the default.
 * The fleet's client and its hundreds of targets share one event loop while the rest of the
 * slow tier runs beside; at 30 s, one CI run of 2026-11-29 saw the first request of two
 * lanes unanswered, and with two vitest runs beside the slow tier, the targets that kept the
 * default of 10 s (those of the policies and of the ids drawn at random) had requests
 * unanswered. The deadline is the test's own clock, not a judgement: the matrix judges timeouts.
 */
const FLEET_DEADLINE_MS = 60_000;
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

/**
 * Faults whose ids come from the server's own random draws: caught by create-ids-unique-at-scale
 * in each of 20 runs, each server drawing a sequence of its own.
 */
const drawn = ['ids-random-16-bit'].map((name) => ({ name, fault: faults.get(name)! }));

/**
 * Faults of issue 44 caught by checks that send the same inputs in every run (the path's
 * spellings, deep bodies): caught with each seed, in each profile that sends what they need.
 */
const REACH = [
  { name: 'trailing-slash-outside-auth', profiles: ['full', 'read-only'] },
  { name: 'route-case-insensitive-outside-auth', profiles: ['full', 'read-only'] },
  { name: 'deep-nesting-crashes', profiles: ['full'] },
] as const;
const reach = REACH.flatMap(({ name, profiles }) => profiles.map((profile) => ({ name, profile, fault: faults.get(name)! })));

/** Correct variants of issue 44, each beside the fault it must not be taken for, with the checks that judge the difference: conformant with every seed. */
const REACH_VARIANTS = [
  { name: 'json-depth-limit-400', profiles: ['full'], checks: ['create-deep-bodies', 'no-server-error'] },
  { name: 'semicolon-firewall-500', profiles: ['full', 'read-only'], checks: ['auth-path-spellings', 'no-server-error', 'error-body-is-error'] },
] as const;
const reachVariants = REACH_VARIANTS.flatMap(({ name, profiles, checks }) => profiles.map((profile) => ({ name, profile, checks, variant: variants.get(name)! })));

/** The correct variants whose refusals create-valid-bodies must find to be policies or limits, by name. */
const policies = [...variants].filter(([, variant]) => (variant.observes ?? []).length > 0 && variant.observedBy === undefined);

const reports = new Map<string, Report>();
beforeAll(async () => {
  const targets = [
    ...caught.map(({ name, fault }) => ({ name, variation: fault.variation })),
    ...drawn.map(({ name, fault }) => ({ name: `${name}-drawn`, variation: fault.variation })),
    ...reach.map(({ name, profile, fault }) => ({ name: `${name}-${profile}`, variation: fault.variation })),
    ...reachVariants.map(({ name, profile, variant }) => ({ name: `${name}-${profile}`, variation: variant.variation })),
    ...policies.map(([name, variant]) => ({ name, variation: variant.variation })),
  ].flatMap(({ name, variation }) =>
    SEEDS.map((seed) => ({ prefix: `${name}-s${seed}`, variations: [variation], apiKey: KEY })),
  );
  const server = await startSharedServer(targets);
  try {
    /** One seed's member: the shared server's target of that name, its checks alone, the fleet's deadline unless told otherwise. */
    const member = (targetName: string, seed: number, checks: readonly string[], more: Partial<FleetMember> = {}): FleetMember => ({
      targetName,
      baseUrl: server.baseUrl(targetName),
      apiKey: KEY,
      seed,
      checkFilter: `^(${checks.join('|')})$`,
      timeoutMs: FLEET_DEADLINE_MS,
      ...more,
    });
    const policyMembers = policies.flatMap(([name]) => SEEDS.map((seed) => member(`${name}-s${seed}`, seed, ['create-valid-bodies'])));
    const members = caught.flatMap(({ name, fault, checks }) =>
      SEEDS.map((seed) =>
        member(`${name}-s${seed}`, seed, checks, {
          // A route that never answers fails whatever the inputs: its deadline need not be waited out in full.
          // Any other target answers: the deadline is the test's own clock, not a judgement, and the fleet's
          // first lanes share one in-process server with hundreds of targets while the fault matrix runs beside.
          ...(fault.hangs ? { timeoutMs: 1_000 } : {}),
          // What is asserted is that the check fails, not how far its counterexample shrinks; one
          // input at a time, a property stops at its first failure rather than with a batch in flight.
          shrinkBudget: 0,
          concurrency: 1,
        }),
      ),
    );
    const drawnMembers = drawn.flatMap(({ name }) => SEEDS.map((seed) => member(`${name}-drawn-s${seed}`, seed, ['create-ids-unique-at-scale'])));
    const reachMembers = reach.flatMap(({ name, profile, fault }) => SEEDS.map((seed) => member(`${name}-${profile}-s${seed}`, seed, fault.expected.failed, { profile })));
    const variantMembers = reachVariants.flatMap(({ name, profile, checks }) => SEEDS.map((seed) => member(`${name}-${profile}-s${seed}`, seed, checks, { profile })));
    const outcome = await runFleet([...members, ...drawnMembers, ...reachMembers, ...variantMembers, ...policyMembers], { reportDir: null, out: null });
    for (const [name, report] of outcome.reports) reports.set(name, report);
  } finally {
    await server.close();
  }
  // A guard against a hang, not a bound on speed: some 9.5 minutes alone on CI's 2 cores, past 10 with two other vitest runs beside it.
}, 2_400_000);

test('the property checks are the four with a coverage phase', () => {
  expect([...properties].sort()).toEqual(['auth-rejects-generated-credentials', 'create-rejects-invalid-bodies', 'create-valid-bodies', 'model-based-sequences']);
  expect(caught.length).toBeGreaterThan(30);
});

describe('each fault a property check catches is caught with every seed from 1 to 20', () => {
  test.each(caught.map(({ name, checks }) => [name, checks] as const))('%s: %s', (name, checks) => {
    const missed = SEEDS.flatMap((seed) => {
      const report = reports.get(`${name}-s${seed}`)!;
      return checks.flatMap((id) => {
        const check = report.checks.find((c) => c.id === id);
        return check?.status === 'failed' ? [] : [`seed ${seed}: ${id} ${check?.status}: ${check?.reason ?? ''}`];
      });
    });
    expect(missed).toEqual([]);
  });
});

describe('each fault whose ids repeat by chance is caught in 20 runs of 20, each server drawing its own ids', () => {
  test.each(drawn.map(({ name }) => name))('%s', (name) => {
    expect(drawn.length).toBeGreaterThan(0);
    const missed = SEEDS.flatMap((seed) => {
      const check = reports.get(`${name}-drawn-s${seed}`)!.checks.find((c) => c.id === 'create-ids-unique-at-scale')!;
      return check.status === 'failed' && /^Expected a fresh id, found id \d+ given to 2 categories/.test(check.failure!.message) ? [] : [`run ${seed}: ${check.status}: ${check.failure?.message ?? check.reason ?? check.observations}`];
    });
    expect(missed).toEqual([]);
  });
});

describe('each fault of issue 44 caught by inputs sent in every run is caught with every seed from 1 to 20, in each profile that sends them', () => {
  test.each(reach.map(({ name, profile, fault }) => [name, profile, fault.expected.failed] as const))('%s (%s): %s', (name, profile, checks) => {
    const missed = SEEDS.flatMap((seed) => {
      const report = reports.get(`${name}-${profile}-s${seed}`)!;
      return checks.flatMap((id) => {
        const check = report.checks.find((c) => c.id === id);
        return check?.status === 'failed' ? [] : [`seed ${seed}: ${id} ${check?.status}: ${check?.reason ?? ''}`];
      });
    });
    expect(missed).toEqual([]);
  });
});

describe('each correct variant of issue 44 is conformant with every seed from 1 to 20, in each profile that sends what it differs in', () => {
  test.each(reachVariants.map(({ name, profile }) => [name, profile] as const))('%s (%s)', (name, profile) => {
    const wrong = SEEDS.flatMap((seed) => {
      const report = reports.get(`${name}-${profile}-s${seed}`)!;
      return report.verdict === 'conformant' ? [] : [`seed ${seed}: ${report.verdict}: ${report.verdictReason}`];
    });
    expect(wrong).toEqual([]);
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

/**
 * The correct variants that live below the exchange, in how connections are held (a cap on
 * them, requests lost on kept-alive ones): conformant in 20 runs of 20 in both profiles,
 * each run against a server of its own (a fleet shares one).
 */
describe('each correct variant below the exchange is conformant in 20 runs of 20, in both profiles', () => {
  const BELOW = ['connection-cap-8'];
  test.each(BELOW.flatMap((name) => (['full', 'read-only'] as const).map((profile) => [name, profile] as const)))('%s (%s)', async (name, profile) => {
    const variant = variants.get(name)!;
    const wrong: string[] = [];
    for (const seed of SEEDS) {
      const { report } = await runAgainst({ variations: [variant.variation], server: variant.server }, { ...variant.options, profile, seed });
      const patterns = variant.observes ?? [];
      const observed = report.checks.find((c) => c.id === variant.observedBy)?.observations ?? [];
      if (report.verdict !== 'conformant') wrong.push(`run ${seed}: ${report.verdict}: ${report.verdictReason}`);
      for (const pattern of patterns) if (!observed.some((text) => pattern.test(text))) wrong.push(`run ${seed}: no observation matches ${pattern} in ${JSON.stringify(observed)}`);
    }
    expect(wrong).toEqual([]);
  }, 1_200_000);
});
