/**
 * Property-based checking end to end: reproducibility from the seed, what a failure
 * reports, and shrinking to a minimal counterexample.
 */
import { describe, expect, test } from 'vitest';
import type { RunOptions } from '../../src/runner/run.js';
import { runAgainst } from '../support/targets.js';
import quoteInNameCrashes from '../faults/quote-in-name-crashes.js';
import type { Variation } from '../../src/reference/behaviour.js';

const KEY = 'Property-Key_0123456789abcdefXYZ';

/** A name holding a combining diacritical mark (U+0300 to U+036F), which no coverage input holds: only the fuzzing phase finds what breaks on it. */
const COMBINING_MARK = /[\u0300-\u036f]/;

/** Crashes (500) on a name holding a combining mark, as a normalisation library with a bug would. */
const crashesOnCombiningMark: Variation = (base) => ({
  validateNewCategory(value) {
    const result = base.validateNewCategory(value);
    if (result.ok && COMBINING_MARK.test(result.value.name)) throw new Error('normalization failed');
    return result;
  },
});

/** Cuts a name holding a combining mark to 32 code points (a column sized for normalised text). */
const truncatesMarkedNames: Variation = (base) => ({
  validateNewCategory(value) {
    const result = base.validateNewCategory(value);
    if (!result.ok || !COMBINING_MARK.test(result.value.name)) return result;
    return { ok: true, value: { ...result.value, name: [...result.value.name].slice(0, 32).join('') } };
  },
});

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
  test('a known trigger is found by the coverage phase in every run, whatever the seed, and reported as that input', async () => {
    const outcomes = await Promise.all([1, 2, 3].map((seed) => runFresh([quoteInNameCrashes.variation], { seed, checkFilter: '^create-valid-bodies$' })));
    for (const outcome of outcomes) {
      const check = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!;
      expect(check.status).toBe('failed');
      expect(check.property).toMatchObject({ numRuns: 0, numShrinks: 0, coverage: expect.any(Number) });
      expect(check.property!.counterexample).toMatch(/^name: quotes, a backslash and markup: /);
      expect(check.failure!.message).toContain('a known trigger, sent in every run whatever the seed');
      expect(JSON.parse(check.failure!.request.body!).name).toContain('"');
    }
  });

  test('fuzzing reports seed, path, runs, shrinks, the shrunk counterexample and its form, its exchange, and a replay that reproduces it', async () => {
    const outcome = await runFresh([crashesOnCombiningMark], { seed: 7, checkFilter: '^create-valid-bodies$' });
    const check = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!;
    expect(check.status).toBe('failed');
    expect(check.property).toMatchObject({ numRuns: expect.any(Number), numShrinks: expect.any(Number), path: expect.any(String) });
    const { counterexample, replay } = check.property!;
    const [fields, form] = JSON.parse(counterexample!) as [{ name: string; description?: string }, { json: string }];
    // Shrunk to a mark on a character or two, no description, and the suite's own way of writing.
    expect([...fields.name].length).toBeLessThanOrEqual(3);
    expect(fields.name).toMatch(COMBINING_MARK);
    expect(fields.description).toBeUndefined();
    expect(form.json).toBe('compact');
    expect(check.failure!.message).toContain(`Counterexample: ${counterexample}`);
    expect(check.failure!.message).toMatch(/run seed 7, check seed \d+, path [\d:]+/);
    // Every setting that changes what is sent, the profile included: off loopback the default is read-only.
    expect(replay).toMatch(/^npx petstore-conformance run --base-url http:\/\/127\.0\.0\.1:\d+\/v1 --profile full --checks '\^create-valid-bodies\$' --seed 7$/);
    // The exchange of the shrunk counterexample: the body sent is the counterexample.
    expect(check.failure!.response?.status).toBe(500);
    expect(JSON.parse(check.failure!.request.body!)).toEqual(fields);

    const replayed = await runFresh([crashesOnCombiningMark], { seed: 7, checkFilter: '^create-valid-bodies$' });
    const again = replayed.report.checks.find((c) => c.id === 'create-valid-bodies')!;
    expect(again.property?.counterexample).toBe(counterexample);
    expect(again.failure?.request.body).toBe(check.failure!.request.body);
  });

  test('truncated names shrink to the shortest name that is cut: 33 code points', async () => {
    const outcome = await runFresh([truncatesMarkedNames], {
      seed: 20261121,
      checkFilter: '^create-valid-bodies$',
      shrinkBudget: 5_000, // full shrinking of a long string takes fast-check about 2,000 attempts
    });
    const property = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!.property!;
    expect(property.shrinkStopped).toBeUndefined();
    expect([...(JSON.parse(property.counterexample!) as [{ name: string }])[0].name]).toHaveLength(33);
  });

  test('a spent shrink budget is reported, with the smallest failure found so far', async () => {
    const outcome = await runFresh([truncatesMarkedNames], { seed: 20261121, checkFilter: '^create-valid-bodies$', shrinkBudget: 20 });
    const check = outcome.report.checks.find((c) => c.id === 'create-valid-bodies')!;
    expect(check.property?.shrinkStopped).toBe('shrinking stopped at its budget of 20 requests');
    expect(check.failure?.message).toContain('shrinking stopped at its budget of 20 requests');
    expect(check.property?.replay).toContain('--shrink-budget 20');
  });
});
