/**
 * assertProperty (src/check/property.ts) on its own: the coverage phase before the
 * generated inputs, the failure of the lowest index, the shrink budget counted in
 * requests, a timeout not shrunk, a race reported unshrunk, and the record and message
 * each failure leaves. The fault matrix reaches it only end to end.
 */
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { assertProperty, PROPERTY_TIME_LIMIT_MS, type PropertyDefaults } from '../../src/check/property.js';
import type { CheckContext } from '../../src/check/context.js';
import { deriveSeed } from '../../src/check/seed.js';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { CheckError, CheckFailure } from '../../src/core/errors.js';
import type { Exchange } from '../../src/core/exchange.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { answered, unanswered } from '../support/exchanges.js';

// fast-check reads the clock through the Date.now it found when it loaded: a fake Date must come first.
// It stands still unless a test moves it.
vi.hoisted(() => vi.useFakeTimers({ toFake: ['Date'] }));

const CHECK = 'property-under-test';
const RUN_SEED = 7;

/** A check context holding only what assertProperty reads; the exchanges a predicate sends are pushed to it. */
function context(settings: Partial<RunSettings> = {}): CheckContext {
  const full = { ...withDefaults({}), seed: RUN_SEED, targetKind: 'embedded', profile: 'full', connections: 1, ...settings } as RunSettings;
  return { checkId: CHECK, run: { settings: full, redactor: new Redactor() }, exchanges: [] as Exchange[], property: undefined } as unknown as CheckContext;
}

/** Every call of the predicate, in call order: its value and label. */
interface Call<T> {
  value: T;
  run: string;
}

/**
 * A predicate that sends one exchange per call (so the shrink budget counts it) and fails
 * when `fails` says so, with the exchange `failure` builds.
 */
function predicate<T>(t: CheckContext, fails: (value: T, run: string) => boolean, failure: () => Exchange = () => answered(500, 'broken')) {
  const calls: Array<Call<T>> = [];
  const check = async (value: T, run: string) => {
    calls.push({ value, run });
    const exchange = fails(value, run) ? failure() : answered(200, []);
    t.exchanges.push(exchange);
    if (exchange.response?.status !== 200) throw new CheckFailure(`fails for ${String(value)}`, exchange);
  };
  return { calls, check };
}

/** What assertProperty threw. */
async function thrown(promise: Promise<void>): Promise<Error> {
  return promise.then(
    () => expect.unreachable('the property passed'),
    (error: Error) => error,
  );
}

const defaults = (coverage: number[] = [], numRuns = 5): PropertyDefaults<number> => ({ numRuns, coverage: coverage.map((value) => ({ label: `known-${value}`, value })) });
const small = fc.integer({ min: 0, max: 1_000 });

describe('a property that holds', () => {
  test('the coverage inputs go first, labelled c0, c1 …, then the generated ones 0, 1 …; nothing is replayed', async () => {
    const t = context();
    const { calls, check } = predicate<number>(t, () => false);
    await assertProperty(t, small, check, defaults([11, 22], 4));
    expect(calls.map(({ run }) => run)).toEqual(['c0', 'c1', '0', '1', '2', '3']);
    expect(calls.slice(0, 2).map(({ value }) => value)).toEqual([11, 22]);
    expect(t.property).toEqual({ seed: deriveSeed(RUN_SEED, CHECK), numRuns: 4, numShrinks: 0, coverage: 2 });
  });

  test('--num-runs overrides the property’s own budget; the same seed generates the same inputs', async () => {
    const first = context({ numRuns: 3 });
    const a = predicate<number>(first, () => false);
    await assertProperty(first, small, a.check, defaults([], 9));
    const second = context({ numRuns: 3 });
    const b = predicate<number>(second, () => false);
    await assertProperty(second, small, b.check, defaults([], 9));
    expect(a.calls).toHaveLength(3);
    expect(b.calls).toEqual(a.calls);
    expect(first.property?.numRuns).toBe(3);
  });

  test('without coverage inputs the record says 0 of them', async () => {
    const t = context();
    await assertProperty(t, small, predicate<number>(t, () => false).check, { numRuns: 2 });
    expect(t.property?.coverage).toBe(0);
  });
});

describe('a failing coverage input', () => {
  test('is reported as it is: its label and value, no shrinking, a replay of this check alone; nothing after it is launched', async () => {
    const t = context();
    const { calls, check } = predicate<number>(t, (value) => value === 22);
    const error = await thrown(assertProperty(t, small, check, defaults([11, 22, 33])));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(error.message).toContain('Coverage input: known-22: 22\n');
    expect(error.message).toContain(`(a known trigger, sent in every run whatever the seed; run seed ${RUN_SEED})`);
    expect((error as CheckFailure).exchange).toBe(t.exchanges[1]);
    expect(calls.map(({ run }) => run)).toEqual(['c0', 'c1']);
    expect(t.property).toMatchObject({ numRuns: 0, numShrinks: 0, coverage: 3, counterexample: 'known-22: 22' });
    expect(t.property?.replay).toContain(`--checks '^${CHECK}$'`);
  });

  test('the last coverage input failing is still one; the first generated input failing is not', async () => {
    const last = context();
    await thrown(assertProperty(last, small, predicate<number>(last, (_, run) => run === 'c1').check, defaults([11, 22])));
    expect(last.property?.counterexample).toBe('known-22: 22');

    const generated = context();
    await thrown(assertProperty(generated, small, predicate<number>(generated, (_, run) => run === '0').check, defaults([11, 22])));
    expect(generated.property?.counterexample).not.toMatch(/^known-/);
  });

  test(`a value of ${2_000} characters as printed is shown whole, one more is cut with an ellipsis`, async () => {
    // fc.stringify quotes a string: 1,998 characters print as 2,000.
    const shown = async (length: number) => {
      const t = context();
      const coverage = [{ label: 'long', value: 'x'.repeat(length) }];
      await thrown(assertProperty(t, fc.string(), predicate<string>(t, () => true).check, { numRuns: 1, coverage }));
      return t.property!.counterexample!;
    };
    expect(await shown(1_998)).toBe(`long: "${'x'.repeat(1_998)}"`);
    expect(await shown(1_999)).toBe(`long: "${'x'.repeat(1_999)}…`);
  });

  test('among inputs under way at once, the lowest failing index is reported, whichever finished first', async () => {
    const t = context({ connections: 4 });
    const finished: string[] = [];
    const check = async (value: number, run: string) => {
      // c1 fails last: c3 fails at once.
      await new Promise((resolve) => setTimeout(resolve, run === 'c1' ? 20 : 0));
      finished.push(run);
      if (run === 'c1' || run === 'c3') throw new CheckFailure(`fails for ${value}`, answered(500, run));
    };
    const error = await thrown(assertProperty(t, small, check, defaults([0, 1, 2, 3])));
    expect(finished.indexOf('c3')).toBeLessThan(finished.indexOf('c1'));
    expect(error.message).toContain('Coverage input: known-1: 1');
  });
});

describe('a failing generated input', () => {
  test('is replayed one at a time and shrunk to the smallest failure, with runs, shrinks, seeds and path in the message', async () => {
    const t = context();
    const { calls, check } = predicate<number>(t, (value) => value >= 100);
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    const record = t.property!;
    expect(record.counterexample).toBe('100');
    expect(record.numShrinks).toBeGreaterThan(0);
    expect(record.path).toMatch(/^\d+(:\d+)*$/);
    expect(record.shrinkStopped).toBeUndefined();
    expect(error.message).toContain('fails for 100\nCounterexample: 100\n');
    expect(error.message).toContain(`shrinks; run seed ${RUN_SEED}, check seed ${deriveSeed(RUN_SEED, CHECK)}, path ${record.path})`);
    expect(calls.some(({ run }) => run.startsWith('r'))).toBe(true);
    expect(record.replay).toBe(`npx petstore-conformance run --profile full --connections 1 --checks '^${CHECK}$' --seed ${RUN_SEED}`);
    expect(error.message).toContain(`\nReplay: ${record.replay}`);
  });

  test('the replay of an external target names it; the embedded one is started again', async () => {
    const t = context({ targetKind: 'external', baseUrl: 'http://127.0.0.1:9/v1' });
    await thrown(assertProperty(t, small, predicate<number>(t, (value) => value >= 100).check, defaults([], 50)));
    expect(t.property?.replay).toMatch(/^npx petstore-conformance run --base-url http:\/\/127\.0\.0\.1:9\/v1 /);
  });

  test('one run and no shrink are singular; two runs are plural', async () => {
    const once = context();
    const error = await thrown(assertProperty(once, fc.constant(5), predicate<number>(once, () => true).check, { numRuns: 3 }));
    expect(error.message).toContain('(after 1 run and 0 shrinks; ');
    const twice = context();
    const second = await thrown(assertProperty(twice, fc.constant(5), predicate<number>(twice, (_, run) => run !== 'r3').check, { numRuns: 3 }));
    expect(second.message).toContain('(after 2 runs and 0 shrinks; ');
  });

  test.each([0, 1, 3])('shrinking spends at most its budget of %i requests after the first failure it replays', async (budget) => {
    const t = context({ shrinkBudget: budget });
    const { calls, check } = predicate<number>(t, (value) => value >= 100);
    await thrown(assertProperty(t, small, check, defaults([], 50)));
    const replays = calls.filter(({ run }) => run.startsWith('r'));
    const firstFailure = replays.findIndex(({ value }) => value >= 100);
    expect(replays.length - firstFailure - 1).toBe(budget);
    expect(t.property?.shrinkStopped).toBe(`shrinking stopped at its budget of ${budget} requests`);
  });

  test('a budget the shrink does not reach leaves it minimal and says nothing', async () => {
    const t = context({ shrinkBudget: 10_000 });
    await thrown(assertProperty(t, small, predicate<number>(t, (value) => value >= 100).check, defaults([], 50)));
    expect(t.property).toMatchObject({ counterexample: '100' });
    expect(t.property?.shrinkStopped).toBeUndefined();
  });

  test('a timeout is not shrunk: no request follows the first failure replayed; another transport error is shrunk', async () => {
    const timedOut = context();
    const hung = predicate<number>(timedOut, (value) => value >= 100, () => unanswered('TIMEOUT'));
    const error = await thrown(assertProperty(timedOut, small, hung.check, defaults([], 50)));
    const replays = hung.calls.filter(({ run }) => run.startsWith('r'));
    expect(replays.at(-1)!.value).toBeGreaterThanOrEqual(100);
    expect(replays.filter(({ value }) => value >= 100)).toHaveLength(1);
    expect(timedOut.property?.shrinkStopped).toBe('not shrunk: the failure is a timeout');
    expect(error.message).toContain(', not shrunk: the failure is a timeout; run seed');

    const reset = context();
    await thrown(assertProperty(reset, small, predicate<number>(reset, (value) => value >= 100, () => unanswered('CONNECTION_RESET')).check, defaults([], 50)));
    expect(reset.property).toMatchObject({ counterexample: '100' });
    expect(reset.property?.shrinkStopped).toBeUndefined();
  });

  test('a failure only inputs sent at once show (a race) is reported unshrunk, as it happened', async () => {
    const t = context({ connections: 2 });
    const { check } = predicate<number>(t, (value, run) => value >= 100 && !run.startsWith('r'));
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(t.property?.shrinkStopped).toBe('not shrunk: the failure appeared only with inputs sent concurrently');
    expect(Number(t.property?.counterexample)).toBeGreaterThanOrEqual(100);
    expect(error.message).toContain('(with 2 inputs at a time; sent one at a time, every input passed: a race;');
    expect(error.message).toContain(`\nReplay: ${t.property?.replay}`);
    expect(t.property?.replay).toContain(`--checks '^${CHECK}$'`);
  });

  test('an input the replay cannot judge counts as passing: the replay goes on and shrinks past it', async () => {
    const t = context();
    const check = async (value: number, run: string) => {
      if (run.startsWith('r') && value >= 50 && value < 100) throw new CheckError('not judged');
      if (value >= 100) throw new CheckFailure('fails', answered(500));
    };
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(t.property).toMatchObject({ counterexample: '100' });
  });

  test('a race whose replays could not all be judged says how many were not, rather than that every input passed', async () => {
    const count = async (undecided: number) => {
      const t = context({ connections: 2 });
      let left = undecided;
      const check = async (value: number, run: string) => {
        if (!run.startsWith('r')) {
          if (value >= 100) throw new CheckFailure('fails', answered(500));
        } else if (left > 0) {
          left--;
          throw new CheckError('not judged');
        }
      };
      return thrown(assertProperty(t, small, check, defaults([], 50)));
    };
    expect((await count(1)).message).toContain('; sent one at a time, no input failed (1 input not judged); run seed');
    expect((await count(2)).message).toContain('; sent one at a time, no input failed (2 inputs not judged); run seed');
    expect((await count(0)).message).toContain('; sent one at a time, every input passed: a race; run seed');
  });

  test('a replay that stops (a hung route, a stopped run, a defect) ends there, and the first pass’s failure stands unshrunk', async () => {
    const t = context();
    const replays: number[] = [];
    const check = async (value: number, run: string) => {
      if (run.startsWith('r')) {
        replays.push(value);
        throw new TypeError('a defect of the suite');
      }
      if (value >= 100) throw new CheckFailure('fails', answered(500));
    };
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(replays).toHaveLength(1);
    expect(t.property?.shrinkStopped).toBe('the replay stopped: a defect of the suite');
    expect(error.message).toContain('(with 1 inputs at a time; the replay stopped: a defect of the suite; run seed');
    expect(Number(t.property?.counterexample)).toBeGreaterThanOrEqual(100);
  });

  test('a replay that stops once a failure was found keeps the smallest failure found so far', async () => {
    const t = context();
    let failures = 0;
    const check = async (value: number, run: string) => {
      if (value < 100) return;
      if (run.startsWith('r') && ++failures > 1) throw new Error('the run was stopped');
      throw new CheckFailure('fails', answered(500));
    };
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(error.message).toContain(', the replay stopped: the run was stopped; run seed');
    expect(t.property?.shrinkStopped).toBe('the replay stopped: the run was stopped');
    expect(t.property?.numShrinks).toBe(0);
  });
});

describe('an error other than a check failure in the first pass', () => {
  test('is thrown once every input under way has finished, and no input is launched after it', async () => {
    const t = context({ connections: 2 });
    const stopped = new Error('the run was stopped');
    const finished: string[] = [];
    const check = async (_value: number, run: string) => {
      if (run === 'c0') throw stopped;
      await new Promise((resolve) => setTimeout(resolve, 10));
      finished.push(run);
    };
    expect(await thrown(assertProperty(t, small, check, defaults([0, 1, 2, 3])))).toBe(stopped);
    expect(finished).toEqual(['c1']);
  });

  test('is outweighed by a failure of an input under way with it', async () => {
    const t = context({ connections: 2 });
    const check = async (_value: number, run: string) => {
      if (run === 'c0') throw new Error('the run was stopped');
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (run === 'c1') throw new CheckFailure('fails', answered(500));
    };
    const error = await thrown(assertProperty(t, small, check, defaults([0, 1, 2, 3])));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(t.property?.counterexample).toBe('known-1: 1');
  });

  test('an input that cannot be judged does not stop the pass: a later failure is reported, in either order of finishing', async () => {
    for (const connections of [1, 2]) {
      const t = context({ connections });
      const runs: string[] = [];
      const check = async (_value: number, run: string) => {
        runs.push(run);
        if (run === 'c0') throw new CheckError('not judged');
        if (run === 'c2') throw new CheckFailure('fails', answered(500));
      };
      const error = await thrown(assertProperty(t, small, check, defaults([0, 1, 2, 3])));
      expect(error).toBeInstanceOf(CheckFailure);
      expect(t.property?.counterexample).toBe('known-2: 2');
      expect(runs.slice(0, 3)).toEqual(['c0', 'c1', 'c2']);
    }
  });

  test('with no failure, the pass runs every input and throws the CheckError of the lowest index', async () => {
    const t = context({ connections: 2 });
    const runs: string[] = [];
    const check = async (_value: number, run: string) => {
      runs.push(run);
      // The lower index errs last.
      if (run === 'c1') await new Promise((resolve) => setTimeout(resolve, 10));
      if (run === 'c1' || run === '2') throw new CheckError(`not judged ${run}`);
    };
    const error = await thrown(assertProperty(t, small, check, defaults([0, 1], 4)));
    expect(error).toBeInstanceOf(CheckError);
    expect(error.message).toBe('not judged c1');
    expect(runs).toHaveLength(6);
    expect(t.exchanges).toHaveLength(0);
  });
});

describe('the time limit', () => {
  test(`a replay cut short at ${PROPERTY_TIME_LIMIT_MS} ms before any failure reports the first pass’s failure unshrunk`, async () => {
    const t = context();
    const check = async (value: number, run: string) => {
      if (!run.startsWith('r')) {
        if (value >= 100) throw new CheckFailure('fails', answered(500));
        return;
      }
      // Sent one at a time, every input passes, and the first replay takes the whole limit.
      vi.setSystemTime(Date.now() + PROPERTY_TIME_LIMIT_MS);
    };
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(t.property?.shrinkStopped).toBe(`not shrunk: the replay was cut short after 1 run of 50 (time limit ${PROPERTY_TIME_LIMIT_MS} ms)`);
    expect(error.message).toContain(`; not shrunk: the replay was cut short after 1 run of 50 (time limit ${PROPERTY_TIME_LIMIT_MS} ms); run seed`);
  });

  test('a property whose replays end just inside the limit passes them all and reports the race', async () => {
    const t = context();
    let replays = 0;
    const check = async (value: number, run: string) => {
      if (!run.startsWith('r')) {
        if (value >= 100) throw new CheckFailure('fails', answered(500));
        return;
      }
      replays++;
      vi.setSystemTime(Date.now() + Math.floor((PROPERTY_TIME_LIMIT_MS - 1) / 50));
    };
    const error = await thrown(assertProperty(t, small, check, defaults([], 50)));
    expect(error).toBeInstanceOf(CheckFailure);
    expect(replays).toBe(50);
  });
});
