/**
 * The suite's thread: runs the conformance suite's file with vitest's own runner
 * (`@vitest/runner`, the engine of vitest's workers, which the suite's `test`, `describe`
 * and `afterAll` belong to), and posts each check's result to the runner's thread as soon
 * as it ends (see suite.ts). The runner's thread loads neither vite nor vitest's pool:
 * vitest's Node API started a Vite server and a worker that loaded vitest's whole runtime
 * (expect, chai, snapshots) before the first check: about 0.2 s and 40 MiB of a 1 s run.
 *
 * The thread gets its run ({@link SuiteThreadData}) as its first message, `{ type: 'start',
 * data }`: it may be opened before the runner knows its targets, and loads its modules
 * meanwhile (suite.ts). It answers with {@link FromSuiteThread} messages; `{ type:
 * 'cancel', reason }` cancels the run as vitest's own cancel does: checks under way see
 * their context's signal abort, the others do not start.
 */
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { collectTests, startTests, type CancelReason, type VitestRunner, type VitestRunnerConfig } from '@vitest/runner';
import type { File, Suite, Test } from '@vitest/runner';
import { getTestName, getTests } from '@vitest/runner/utils';
import { withCauses } from '../core/tool-failure.js';
import pLimit from 'p-limit';
import { PREFLIGHTS_AT_ONCE, probe } from './probe.js';
import { openPreflight } from '../check/preflight.js';
import type { SuiteTest, SuiteThreadData, FromSuiteThread, ToSuiteThread } from './suite-protocol.js';
import { setThreadData } from './thread-data.js';

// The run comes first, once; the cancel listener below hears what comes after it.
const data = await new Promise<SuiteThreadData>((resolve) => parentPort!.once('message', (message: ToSuiteThread) => message.type === 'start' && resolve(message.data)));
setThreadData(data);
const post = (message: FromSuiteThread) => parentPort!.postMessage(message);

/** Errors nobody caught while the checks ran: reported with the run, as vitest reports them. */
const unhandled: string[] = [];
const recordUnhandled = (error: unknown) => void unhandled.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
process.on('unhandledRejection', recordUnhandled);
process.on('uncaughtException', recordUnhandled);

/** vitest's defaults for what a run configures (vitest 4, `resolveConfig`); the suite sets its own timeouts per check. */
const config: VitestRunnerConfig = {
  root: data.root,
  setupFiles: [],
  name: undefined,
  passWithNoTests: false,
  testNamePattern: undefined,
  allowOnly: false,
  sequence: { shuffle: false, concurrent: false, seed: 0, hooks: 'stack', setupFiles: 'list' },
  chaiConfig: undefined,
  maxConcurrency: data.maxConcurrency,
  testTimeout: 5_000,
  hookTimeout: 10_000,
  retry: 0,
  includeTaskLocation: false,
  tags: [],
  tagsFilter: undefined,
  strictTags: false,
};

/** When each check started (ms, `performance.now()`): a check skipped while it ran has no duration of its own. */
const started = new WeakMap<Test, number>();
let cancelled = false;

const runner: VitestRunner = {
  config,
  importFile: async (filepath) => {
    await import(pathToFileURL(filepath).href);
  },
  onCollected: (files) => post({ type: 'collected', tests: getTests(files).map((test) => record(test)) }),
  // A cancel that comes while no check runs (the file is being collected) skips every block
  // not yet started; one that comes while checks run also marks every check not yet started
  // (@vitest/runner's startTests does that).
  onBeforeRunSuite: (suite) => {
    if (cancelled) suite.mode = 'skip';
  },
  onBeforeRunTask: (test) => {
    if (test.mode === 'run' || test.mode === 'queued') started.set(test, performance.now());
    else report(test, 'skipped', 0);
  },
  // A check that skipped itself (or was cancelled while it ran) ends here: the runner's next hook is for those that passed or failed.
  onAfterRetryTask: (test) => {
    if (test.result?.state === 'skip') report(test, 'skipped', performance.now() - (started.get(test) ?? performance.now()));
  },
  onAfterRunTask: (test) => report(test, test.result?.state === 'pass' ? 'passed' : 'failed', test.result?.duration ?? 0),
  onAfterRunSuite: (suite) => {
    if (isTargetBlock(suite)) post({ type: 'block-end', tests: getTests(suite).map((test) => record(test)) });
  },
  cancel: () => {
    cancelled = true;
  },
};

parentPort!.on('message', (message: ToSuiteThread) => {
  if (message.type === 'cancel') runner.cancel?.(message.reason as CancelReason);
});

/** A test's record as it crosses to the runner's thread. */
function record(test: Test, state: SuiteTest['state'] = stateOf(test), durationMs = test.result?.duration ?? 0): SuiteTest {
  const errors = (test.result?.errors ?? []).map((error) => error.message);
  return { name: test.name, fullName: getTestName(test, ' '), meta: test.meta.check, state, durationMs, ...(errors.length > 0 ? { errors } : {}) };
}

/** Posts a finished check; its exchanges are the runner's from then on, and this thread lets go of them. */
function report(test: Test, state: SuiteTest['state'], durationMs: number): void {
  post({ type: 'result', test: record(test, state, durationMs) });
  if (test.meta.check) test.meta.check.exchanges = [];
}

/** vitest reporters' names for a test's state. */
function stateOf(test: Test): SuiteTest['state'] {
  switch (test.result?.state) {
    case 'pass':
      return 'passed';
    case 'fail':
      return 'failed';
    case 'skip':
    case 'todo':
      return 'skipped';
    default:
      return test.mode === 'skip' || test.mode === 'todo' ? 'skipped' : 'pending';
  }
}

/** A target's block: a describe at the top of the suite's file (conformance.test.ts declares one per target). */
function isTargetBlock(suite: Suite): boolean {
  return suite !== suite.file && suite.suite === undefined;
}

/** Errors of a file that did not load or collect (a conformance class that threw). */
function fileErrors(files: File[]): string[] {
  return files.flatMap((file) => (file.result?.errors ?? []).map((error) => `${file.filepath}: ${error.message}`));
}

// Each target's preflight goes out before its checks send (check/preflight.ts): the probe tells an unreachable target, the keyed list a key the target refuses or a wrong base URL.
// In the lane's order, a few at a time (PREFLIGHTS_AT_ONCE); each is open at once, for its target's checks to wait on.
const preflightTurns = pLimit(PREFLIGHTS_AT_ONCE);
const probes = data.collectOnly
  ? []
  : data.provide.runs.map((run) => {
      let start!: () => void;
      const flight = probe(run, new Promise<void>((resolve) => (start = resolve)));
      void preflightTurns(() => (start(), flight.done)).catch(() => {}); // its failure is told through `probes` below
      openPreflight(run.runId, flight.open);
      const failed = (error: unknown) => post({ type: 'probe', runId: run.runId, answer: { error: withCauses(error) } });
      return Promise.all([
        flight.probe.then((exchange) => post({ type: 'probe', runId: run.runId, answer: { exchange } }), failed),
        flight.keyed.then((keyed) => post({ type: 'preflight', runId: run.runId, ...keyed }), failed),
        flight.done,
      ]);
    });
const files = data.collectOnly ? await collectTests([data.file], runner) : await startTests([data.file], runner);
await Promise.all(probes);
// A rejection nobody awaited is told after the task it happened in: one more turn hears of those the run left.
await new Promise((resolve) => setImmediate(resolve));
post({ type: 'end', tests: getTests(files).map((test) => record(test)), fileErrors: fileErrors(files), unhandled, cancelled });
