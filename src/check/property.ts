import { countOf } from '../core/words.js';
import fc from 'fast-check';
import type { CoverageInput } from '../arbitraries/coverage.js';
import { replayCommand } from '../config/replay.js';
import type { CheckContext } from './context.js';
import { CheckError, CheckFailure, hasCode } from '../core/errors.js';
import { deriveSeed } from './seed.js';
import type { PropertyRecord } from './types.js';

/** Defaults of one property: its own budget of runs (overridden by `--num-runs`), and its coverage phase. */
export interface PropertyDefaults<T> {
  numRuns: number;
  /** Inputs sent first in every run (Schemathesis's coverage phase): what the generators know breaks servers. */
  coverage?: ReadonlyArray<CoverageInput<T>>;
}

/** Characters of a failing coverage input's value shown in its counterexample. */
const SHOWN_COVERAGE_CHARS = 2_000;

/**
 * Wall time the replay of a failed property may take, runs and shrinking together, in ms.
 * Past it fast-check stops: a failure found so far is reported with its best shrink, and
 * a replay cut short before any failure reports the first pass's failure unshrunk.
 */
export const PROPERTY_TIME_LIMIT_MS = 60_000;

/**
 * Checks that `predicate` holds for values of `arbitrary` (fast-check), with the check's
 * own seed derived from the run seed, so `--seed` (with `--checks`) replays it exactly.
 *
 * Two phases share one pass, `--connections` inputs at a time (a remote target pays round
 * trips, not CPU), stopping at the first failure: the coverage phase sends every coverage
 * input, whatever the seed, so a known trigger is found in every run, and a failing one is
 * reported as it is, a minimal known trigger; the inputs the seed generates follow, each
 * launched only after every coverage input was. Only then does
 * fast-check replay the same seed one input at a time to find and shrink the
 * counterexample; a failure that only concurrency shows (a race) is reported unshrunk.
 * The predicate asserts with the `expect*` helpers and gets a label of its input that does
 * not depend on timing (`c3` for coverage input 3, `7` for generated input 7). The failure
 * reports the counterexample, its exchange, the seed, the path, the numbers of runs and
 * shrinks, and a replay command. A failure outweighs an error: an input that could not be
 * judged (a CheckError) neither stops the pass nor counts as a counterexample, and a
 * replay that stops (a hung route, a stopped run) leaves the first pass's failure standing.
 * @throws CheckFailure when the property fails; CheckError when no input failed and one
 *   could not be judged; RouteHung, RunStopped or a defect when no input failed and the
 *   pass stopped on it.
 */
export async function assertProperty<T>(
  t: CheckContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T, run: string) => Promise<void>,
  defaults: PropertyDefaults<T>,
): Promise<void> {
  const { settings, redactor } = t.run;
  const seed = deriveSeed(settings.seed, t.checkId);
  const numRuns = settings.numRuns ?? defaults.numRuns;
  const coverage = defaults.coverage ?? [];
  // One pass over the coverage inputs, then the generated ones: every coverage input is
  // launched before any generated one, so a failing one is always found and always wins.
  const generated = fc.sample(arbitrary, { seed, numRuns });
  const label = (i: number) => (i < coverage.length ? `c${i}` : `${i - coverage.length}`);
  const concurrent = await runConcurrently([...coverage.map(({ value }) => value), ...generated], settings.connections, (value, i) => predicate(value, label(i)));
  if (concurrent && concurrent.index < coverage.length) {
    const input = coverage[concurrent.index]!;
    const shown = fc.stringify(input.value);
    // A coverage input is known by its label; a long value (a sequence of commands) is shown in part: the replay sends it whole.
    const value = shown.length > SHOWN_COVERAGE_CHARS ? `${shown.slice(0, SHOWN_COVERAGE_CHARS)}…` : shown;
    // An input that prints as its own words is named by its label alone.
    const named = input.label === value || input.label.endsWith(`, ${value}`) ? input.label : `${input.label}: ${value}`;
    const record: PropertyRecord = { seed, numRuns: 0, numShrinks: 0, coverage: coverage.length, counterexample: redactor.text(named) };
    record.replay = replayOf(t);
    t.property = record;
    throw new CheckFailure(
      `${concurrent.error.message}\nCoverage input: ${record.counterexample}\n` +
        `(a known trigger, sent in every run whatever the seed; run seed ${settings.seed})\n` +
        `Replay: ${record.replay}`,
      concurrent.error.exchange,
      concurrent.error.deviation,
    );
  }
  if (!concurrent) {
    t.property = { seed, numRuns, numShrinks: 0, coverage: coverage.length };
    return;
  }
  let replayRun = numRuns;
  let sentAtFirstFailure: number | undefined;
  let stopShrinking: string | undefined;
  let shrinkStopped: string | undefined;
  let undecided = 0;
  const budgeted = async (value: T): Promise<void> => {
    // Past the shrink budget, remaining candidates count as passing without a request, so
    // fast-check ends at once with the smallest failure found so far: shrinking a long
    // input takes it thousands of attempts, which a remote target pays in round trips.
    if (sentAtFirstFailure !== undefined && t.exchanges.length - sentAtFirstFailure >= settings.shrinkBudget) {
      stopShrinking ??= `shrinking stopped at its budget of ${settings.shrinkBudget} requests`;
    }
    if (stopShrinking) {
      shrinkStopped = stopShrinking;
      return;
    }
    try {
      await predicate(value, `r${replayRun++}`);
    } catch (error) {
      // An input that could not be judged is no counterexample: it counts as passing, and the replay goes on.
      if (hasCode(error, 'PCS_CHECK_ERROR')) {
        undecided++;
        return;
      }
      if (!hasCode(error, 'PCS_CHECK_FAILURE')) {
        // The replay only shrinks: a hung route, a stopped run or a defect ends it, and the first pass's failure stands.
        stopShrinking = `the replay stopped: ${error instanceof Error ? error.message : String(error)}`;
        shrinkStopped = stopShrinking;
        return;
      }
      sentAtFirstFailure ??= t.exchanges.length;
      // Each attempt would cost a whole request deadline, and a hang says nothing about input shape.
      if (error.exchange.error?.code === 'TIMEOUT') stopShrinking = 'not shrunk: the failure is a timeout';
      throw error;
    }
  };
  const details = await fc.check(fc.asyncProperty(arbitrary, budgeted), {
    seed,
    numRuns,
    interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS,
    markInterruptAsFailure: false,
  });
  const record: PropertyRecord = { seed, numRuns: details.numRuns, numShrinks: details.numShrinks, coverage: coverage.length };
  t.property = record;
  if (!details.failed) {
    // No input failed when replayed: the first pass's failure is reported as it happened.
    record.counterexample = redactor.text(fc.stringify(concurrent.value));
    const why = details.interrupted
      ? `not shrunk: the replay was cut short after ${countOf(details.numRuns, 'run')} of ${numRuns} (time limit ${PROPERTY_TIME_LIMIT_MS} ms)`
      : shrinkStopped;
    record.shrinkStopped = why ?? 'not shrunk: the failure appeared only with inputs sent concurrently';
    const replayed =
      why ?? (undecided > 0 ? `sent one at a time, no input failed (${countOf(undecided, 'input')} not judged)` : 'sent one at a time, every input passed: a race');
    record.replay = replayOf(t);
    throw new CheckFailure(
      `${concurrent.error.message}\nCounterexample: ${record.counterexample}\n` +
        `(with ${settings.connections} inputs at a time; ${replayed}; run seed ${settings.seed}, check seed ${seed})\n` +
        `Replay: ${record.replay}`,
      concurrent.error.exchange,
      concurrent.error.deviation,
    );
  }
  record.path = details.counterexamplePath ?? undefined;
  if (shrinkStopped) record.shrinkStopped = shrinkStopped;
  record.counterexample = redactor.text(fc.stringify(details.counterexample?.[0]));
  record.replay = replayOf(t);
  // budgeted throws nothing but a CheckFailure.
  const error = details.errorInstance as CheckFailure;
  throw new CheckFailure(
    `${error.message}\nCounterexample: ${record.counterexample}\n` +
      `(after ${countOf(details.numRuns, 'run')} and ${countOf(details.numShrinks, 'shrink')}${shrinkStopped ? `, ${shrinkStopped}` : ''}; ` +
      `run seed ${settings.seed}, check seed ${seed}, path ${record.path})\n` +
      `Replay: ${record.replay}`,
    error.exchange,
    error.deviation,
  );
}

/**
 * Runs the predicate on every value, `limit` at a time, launching none after the first
 * failure or stopping error (a hanging target then costs one batch of timeouts, not all
 * of them); an input that could not be judged (a CheckError) does not stop the pass, as
 * another may still fail. Every input under way finishes before this returns or throws,
 * so each request the check sent is in its record.
 * @returns the failing value of the lowest index, its index and its CheckFailure (the same
 *   whatever the timing, for a target that answers alike), or undefined when all passed.
 * @throws when no input failed: the first stopping error a predicate threw (a hung route, a
 *   stopped run, a defect of the suite), else the CheckError of the lowest index.
 */
async function runConcurrently<T>(
  values: readonly T[],
  limit: number,
  predicate: (value: T, index: number) => Promise<void>,
): Promise<{ value: T; index: number; error: CheckFailure } | undefined> {
  let next = 0;
  let failed: { value: T; index: number; error: CheckFailure } | undefined;
  let undecided: { index: number; error: CheckError } | undefined;
  let thrown: { error: unknown } | undefined;
  const worker = async () => {
    while (next < values.length && !failed && !thrown) {
      const index = next++;
      try {
        await predicate(values[index]!, index);
      } catch (error) {
        // The lowest index is reported: every lower input was launched before it, so it is the same in every run.
        if (hasCode(error, 'PCS_CHECK_FAILURE')) {
          // (Read through a cast: TypeScript narrows `failed` by the loop's test and misses the other workers.)
          const earlier = failed as { index: number } | undefined;
          if (!earlier || index < earlier.index) failed = { value: values[index]!, index, error };
        } else if (hasCode(error, 'PCS_CHECK_ERROR')) {
          if (!undecided || index < undecided.index) undecided = { index, error };
        } else {
          thrown ??= { error };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
  if (failed) return failed;
  if (thrown) throw thrown.error;
  if (undecided) throw undecided.error;
  return undefined;
}

/** The command line that runs this one check again with the same inputs (config/replay.ts). */
function replayOf(t: CheckContext): string {
  const { settings } = t.run;
  return replayCommand(settings, settings.targetKind === 'external' ? settings.baseUrl : undefined, { checkFilter: `^${t.checkId}$` }, settings.command);
}
