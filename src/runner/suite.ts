import { Writable } from 'node:stream';
import { createVitest, type Reporter, type Vitest } from 'vitest/node';
import type { RunSettings } from '../config/settings.js';
import { withCauses } from '../core/tool-failure.js';
import { packageRoot } from '../core/package-info.js';
import type { CheckDefinition } from '../check/types.js';
import { laneReporter, type CheckCollector } from './collector.js';
import { suiteFiles, type SuiteFiles } from './suite-files.js';

/** A suite run under way: its worker is starting or running checks. */
export interface SuiteRun {
  /** Settles when the run is over: why it was cut short, or undefined when it ran to the end. Never rejects. */
  finished: Promise<string | undefined>;
}

/** How a suite run is steered. */
export interface SuiteOptions {
  /** Cancels the run: checks under way finish their request, the others do not start. */
  signal?: AbortSignal;
  /** The suite files to load (default: {@link suiteFiles}); the benchmark loads an empty one. */
  files?: SuiteFiles;
  /** Called when a target's checks have all ended, with its collector (before the worker's run ends, for all but the last). */
  onTargetEnd?: (collector: CheckCollector) => void;
}

/**
 * Starts the suite with vitest's Node API for `targets`, checked one after another: one
 * worker without isolation (each target's checks share its state), the targets'
 * `collectors` (one each, same order) as the only reporters. Resolves once the worker is
 * being started, so the caller can use this thread meanwhile (the worker's start is the
 * longest part of a run's start), and hands back the run.
 */
export async function startSuite(targets: readonly RunSettings[], collectors: readonly CheckCollector[], options: SuiteOptions): Promise<SuiteRun> {
  const vitestOutput = new CapturedOutput();
  const suites = options.files ?? suiteFiles();
  const exitCode = process.exitCode;
  let workerStarting!: () => void;
  const starting = new Promise<void>((resolve) => (workerStarting = resolve));
  const startHook: Reporter = { onTestRunStart: () => workerStarting() };
  const vitest = await suiteVitest(targets, suites, [laneReporter(collectors, options.onTargetEnd), startHook], vitestOutput);
  const onAbort = () => {
    for (const collector of collectors) collector.interrupted = true;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const finished = (async () => {
    try {
      // Stopped while vitest was being set up (a signal 0.3 s after start): no check starts.
      if (!options.signal?.aborted) await vitest.start();
    } catch (error) {
      for (const collector of collectors) collector.runErrors.push(`the suite did not run: ${withCauses(error)}`);
    } finally {
      await vitest.close();
      options.signal?.removeEventListener('abort', onAbort);
      // vitest sets the exit code for its own verdict; the caller decides ours.
      process.exitCode = exitCode;
    }
    if (options.signal?.aborted) return String(options.signal.reason ?? 'interrupted');
    const text = vitestOutput.text.trim();
    for (const collector of collectors) {
      if (collector.results.length === 0 && text) collector.runErrors.push(`the suite did not run: ${text.split('\n')[0]}`);
    }
    return undefined;
  })();
  // A run that fails or stops before its worker starts must not leave the caller waiting.
  await Promise.race([starting, finished]);
  return { finished };
}

/**
 * vitest, set up to run the suite's files: one worker without isolation (the checks share
 * the run's state), `reporters` its only reporters, its own output captured.
 */
function suiteVitest(targets: readonly RunSettings[], suites: SuiteFiles, reporters: Reporter[], output: CapturedOutput): Promise<Vitest> {
  return withoutSignalListeners(() =>
    createVitest(
      'test',
      {
        root: packageRoot,
        config: false,
        watch: false,
        dir: suites.dir,
        include: [suites.include],
        reporters,
        pool: 'threads',
        // Compiled suites are imported natively (no per-module Vite transform over RPC).
        ...(suites.native ? { experimental: { viteModuleRunner: false, nodeLoader: false } } : {}),
        ...(suites.preload ? { execArgv: ['--import', suites.preload] } : {}),
        maxWorkers: 1,
        fileParallelism: false,
        isolate: false,
        // Targets run one after another: the busiest one's concurrency bounds the lane.
        maxConcurrency: Math.max(...targets.map((target) => target.concurrency)),
        // The `checkFilter` setting is applied by check() on the id alone: vitest's own pattern
        // would match "<class> <id>", so `^list-` would select nothing.
        provide: { runs: [...targets] },
      },
      { logLevel: 'silent' },
      { stdout: output, stderr: output },
    ),
  );
}

/**
 * Every check the suite declares, as declared (id, clause, level, title, requirements),
 * in declaration order: the suite's files are collected by vitest, not run (no request is
 * sent). `settings` are what the declarations read (a run's defaults do).
 * @throws Error with vitest's first line when the files cannot be collected.
 */
export async function collectChecks(settings: RunSettings): Promise<CheckDefinition[]> {
  const output = new CapturedOutput();
  const vitest = await suiteVitest([settings], suiteFiles(), [], output);
  try {
    const { testModules, unhandledErrors } = await vitest.collect();
    if (unhandledErrors.length > 0) throw new Error(`the suite could not be collected: ${String((unhandledErrors[0] as Error)?.message ?? unhandledErrors[0])}`);
    return testModules.flatMap((module) => [...module.children.allTests()].flatMap((test) => {
      const meta = test.meta().check;
      return meta ? [definitionOf(meta)] : [];
    }));
  } finally {
    await vitest.close();
  }
}

/** The declaration of a check, without what a run adds to its meta. */
function definitionOf({ id, title, clause, level, requirements, reference, needs, writes, coverage }: CheckDefinition): CheckDefinition {
  return { id, title, clause, level, requirements, ...(reference ? { reference } : {}), ...(needs ? { needs } : {}), ...(writes ? { writes } : {}), ...(coverage ? { coverage } : {}) };
}

const SIGNALS: ReadonlyArray<string | symbol> = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const FAILURES: ReadonlyArray<string | symbol> = ['unhandledRejection', 'uncaughtException'];

/** How many vitest set-ups are under way (a fleet's lanes start at once), and the `process.once` they replaced. */
let settingUp = 0;
let originalOnce: typeof process.once | undefined;
let originalOn: typeof process.on | undefined;

/**
 * Runs `start` while `process.once` ignores SIGINT, SIGTERM and SIGHUP, and `process.on`
 * unhandled rejections and uncaught exceptions. vitest's logger registers
 * listeners that exit the process on them; the caller owns signals (it turns them into an
 * abort that still writes the report). Removing them afterwards left a window in which a
 * signal killed the run without a report. Counted, so that overlapping set-ups restore
 * the original once the last one ends, whatever order they end in.
 */
async function withoutSignalListeners<T>(start: () => Promise<T>): Promise<T> {
  if (settingUp++ === 0) {
    const once = (originalOnce = process.once);
    const on = (originalOn = process.on);
    process.once = function (this: NodeJS.Process, event: string | symbol, listener: (...args: unknown[]) => void) {
      return SIGNALS.includes(event) ? this : once.call(this, event, listener);
    } as typeof process.once;
    // vitest's logger turns an unhandled rejection into exit 1 at once: a crash of the tool
    // would read as a nonconformant target. The caller owns those too (cli/signals.ts).
    process.on = function (this: NodeJS.Process, event: string | symbol, listener: (...args: unknown[]) => void) {
      return FAILURES.includes(event) ? this : on.call(this, event, listener);
    } as typeof process.on;
  }
  try {
    return await start();
  } finally {
    if (--settingUp === 0) {
      process.once = originalOnce!;
      process.on = originalOn!;
    }
  }
}

/** Collects vitest's own console output, so it never mixes with the run's lines. */
class CapturedOutput extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}
