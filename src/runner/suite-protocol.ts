/**
 * What the runner's thread and the suite's thread (suite-thread.ts) say to each other:
 * plain data, copied by `postMessage` (the structured clone algorithm).
 */
import type { RunSettings } from '../config/settings.js';
import type { CheckMeta } from '../check/types.js';
import type { Exchange } from '../core/exchange.js';

/** The suite thread's run, as its `start` message gives it (the thread may open before its run is known: suite.ts). */
export interface SuiteThreadData {
  /** The package root (the runner's `root`). */
  root: string;
  /** Absolute path of the suite's file (the bundle, see suite-files.ts). */
  file: string;
  /** What the suite's `inject()` returns: the targets of the run, checked one after another. */
  provide: { runs: RunSettings[] };
  /** How many checks run at once at most (the busiest target's `concurrency`). */
  maxConcurrency: number;
  /** Collect the checks without running any (`list`): no request is sent. */
  collectOnly?: boolean;
}

/** One test of the suite as the runner's thread sees it; `state` uses vitest reporters' names. */
export interface SuiteTest {
  name: string;
  /** The names of its describe blocks and its own, space-separated. */
  fullName: string;
  /** What the check reported (check/define.ts); absent for a test not declared with check(). */
  meta: CheckMeta | undefined;
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  /** How long it ran (ms). */
  durationMs: number;
  /** The messages of the errors it failed with. */
  errors?: string[];
}

/**
 * From the suite's thread: each target's probe (probe.ts: its exchange, or the defect of
 * the tool that kept it from being sent), then its keyed list and the diagnosis it gave
 * (check/preflight.ts); the tests once the file is collected; each test
 * as it ends (its exchanges travel once, with it); a target's block as it ends; the run's
 * end (after every probe), with every test's final state, the errors of a file that did
 * not load, errors nobody caught, and whether the run was cancelled.
 */
export type FromSuiteThread =
  | { type: 'probe'; runId: string; answer: { exchange: Exchange } | { error: string } }
  | { type: 'preflight'; runId: string; exchange: Exchange; diagnosis?: string }
  | { type: 'collected'; tests: SuiteTest[] }
  | { type: 'result'; test: SuiteTest }
  | { type: 'block-end'; tests: SuiteTest[] }
  | { type: 'end'; tests: SuiteTest[]; fileErrors: string[]; unhandled: string[]; cancelled: boolean };

/** To the suite's thread: its run (the first message, once), or cancel the run (as vitest's cancel: checks not started do not start). */
export type ToSuiteThread = { type: 'start'; data: SuiteThreadData } | { type: 'cancel'; reason: string };
