/**
 * Property-based checking end to end: reproducibility from the seed, what a failure
 * reports, and shrinking to a minimal counterexample.
 */
import { describe, expect, test } from 'vitest';
import type { RunOptions } from '../../src/runner/run.js';
import { runAgainst } from '../support/targets.js';
import longNamesTruncated from '../faults/long-names-truncated.js';
import quoteInNameCrashes from '../faults/quote-in-name-crashes.js';
import type { Variation } from '../../src/reference/behaviour.js';

const KEY = 'Property-Key_0123456789abcdefXYZ';

/** Runs the suite against a fresh reference server with `variations` and this file's key. */
const runFresh = (variations: Variation[], options: Partial<RunOptions>) => runAgainst({ variations, apiKey: KEY }, options);

describe('the seed', () => {
  test('two runs with the same seed against fresh servers send identical requests', async () => {
    const [a, b] = await Promise.all([runFresh([], { seed: 4242 }), runFresh([], { seed: 4242 })]);
    const requests = (outcome: typeof a) =>
      outcome.exchanges
        .map((e) => JSON.stringify([e.checkId, e.request.method, new URL(e.request.url).pathname, e.request.headers.authorization ?? '', e.request.body ?? '']))
        .sort();
    expect(a.report.settings.seed).toBe(4242);
    expect(a.exchanges.length).toBeGreaterThan(200);
    expect(requests(a)).toEqual(requests(b));
  });

  test('another seed sends other generated bodies', async () => {
    const bodies = async (seed: number) =>
      (await runFresh([], { seed, checkFilter: '^create-valid-bodies$' })).exchanges.map((e) => e.request.body).join('\n');
    expect(await bodies(1)).not.toBe(await bodies(2));
  });
});

describe('a failing property', () => {
  test('reports seed, path, runs, shrinks, the shrunk counterexample, its exchange, and a replay that reproduces it', async () => {
    const outcome = await runFresh([quoteInNameCrashes.variation], { seed: 7, checkFilter: '^create-valid-bodies$' });
    const check = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!;
    expect(check.status).toBe('failed');
    expect(check.property).toMatchObject({ numRuns: expect.any(Number), numShrinks: expect.any(Number), path: expect.any(String) });
    const { counterexample, replay } = check.property!;
    expect(JSON.parse(counterexample!).name).toContain('"');
    expect(check.failure!.message).toContain(`Counterexample: ${counterexample}`);
    expect(check.failure!.message).toMatch(/run seed 7, check seed \d+, path [\d:]+/);
    // Every setting that changes what is sent, the profile included: off loopback the default is read-only.
    expect(replay).toMatch(/^petstore-conformance run --base-url http:\/\/127\.0\.0\.1:\d+\/v1 --profile full --seed 7 --checks '\^create-valid-bodies\$'$/);
    // The exchange of the shrunk counterexample: the body sent is the counterexample.
    expect(check.failure!.response?.status).toBe(500);
    expect(JSON.parse(check.failure!.request.body!)).toEqual(JSON.parse(counterexample!));

    const replayed = await runFresh([quoteInNameCrashes.variation], { seed: 7, checkFilter: '^create-valid-bodies$' });
    const again = replayed.report.checks.find((c) => c.id === 'create-valid-bodies')!;
    expect(again.property?.counterexample).toBe(counterexample);
    expect(again.failure?.request.body).toBe(check.failure!.request.body);
  });

  test('truncated names shrink to the shortest name that is cut: 33 code points', async () => {
    const outcome = await runFresh([longNamesTruncated.variation], {
      seed: 20261121,
      checkFilter: '^create-valid-bodies$',
      shrinkBudget: 5_000, // full shrinking of a long string takes fast-check about 2,000 attempts
    });
    const property = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!.property!;
    expect(property.shrinkStopped).toBeUndefined();
    expect([...(JSON.parse(property.counterexample!) as { name: string }).name]).toHaveLength(33);
  });

  test('a spent shrink budget is reported, with the smallest failure found so far', async () => {
    const outcome = await runFresh([longNamesTruncated.variation], { seed: 20261121, checkFilter: '^create-valid-bodies$', shrinkBudget: 20 });
    const check = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!;
    expect(check.property?.shrinkStopped).toBe('shrinking stopped at its budget of 20 requests');
    expect(check.requests).toBeLessThan(60);
    expect(check.failure?.message).toContain('shrinking stopped at its budget of 20 requests');
    expect(check.property?.replay).toContain('--shrink-budget 20');
  });
});
