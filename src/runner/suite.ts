import { Worker } from 'node:worker_threads';
import type { RunSettings } from '../config/settings.js';
import { toolFailure } from '../core/tool-failure.js';
import { packageRoot } from '../core/package-info.js';
import type { CheckDefinition } from '../check/types.js';
import type { Exchange } from '../core/exchange.js';
import { laneListener, type CheckCollector } from './collector.js';
import { suiteFiles, type SuiteFiles } from './suite-files.js';
import type { FromSuiteThread, SuiteTest, SuiteThreadData, ToSuiteThread } from './suite-protocol.js';

/** A suite run under way: its thread is starting or running checks. */
export interface SuiteRun {
  /** Settles when the run is over: why it was cut short, or undefined when it ran to the end. Never rejects. */
  finished: Promise<string | undefined>;
}

/** How a suite run is steered. */
export interface SuiteOptions {
  /** Cancels the run: checks under way finish their request, the others do not start. */
  signal?: AbortSignal;
  /** The bundles to load (default: {@link suiteFiles}); the benchmark loads an empty suite. */
  files?: SuiteFiles;
  /** Called when a target's checks have all ended, with its collector (before the thread's run ends, for all but the last). */
  onTargetEnd?: (collector: CheckCollector) => void;
  /** Called with each target's probe (probe.ts) as the thread sends it. */
  onProbe?: (runId: string, answer: { exchange: Exchange } | { error: string }) => void;
  /** Called with each target's keyed list and its diagnosis (check/preflight.ts), after its probe. */
  onPreflight?: (runId: string, preflight: { exchange: Exchange; diagnosis?: string }) => void;
}

/**
 * Starts the suite for `targets`, checked one after another, in a thread of its own
 * (suite-thread.ts: vitest's runner, the targets' checks sharing each target's state);
 * the targets' `collectors` (one each, same order) hear of every check as it ends.
 * Resolves once the thread is starting, so the caller can use this thread meanwhile.
 */
export async function startSuite(targets: readonly RunSettings[], collectors: readonly CheckCollector[], options: SuiteOptions): Promise<SuiteRun> {
  const { signal } = options;
  const stopped = () => String(signal!.reason ?? 'interrupted');
  // Stopped before the thread was asked for (a signal 0.3 s after start): no check starts.
  if (signal?.aborted) return { finished: Promise.resolve(stopped()) };
  const files = options.files ?? (await suiteFiles());
  const toCollectors = laneListener(collectors, options.onTargetEnd);
  const onMessage = (message: FromSuiteThread) => {
    if (message.type === 'probe') return options.onProbe?.(message.runId, message.answer);
    if (message.type === 'preflight') return options.onPreflight?.(message.runId, message);
    toCollectors(message);
  };
  const thread = startThread(files, { provide: { runs: [...targets] }, maxConcurrency: Math.max(...targets.map((target) => target.concurrency)) }, onMessage);
  const onAbort = () => {
    for (const collector of collectors) collector.interrupted = true;
    thread.cancel(stopped());
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const finished = thread.ended.then(({ failure, output }) => {
    signal?.removeEventListener('abort', onAbort);
    if (failure) for (const collector of collectors) collector.runErrors.push(`the suite did not run: ${failure}`);
    if (signal?.aborted) return stopped();
    for (const collector of collectors) {
      if (!failure && collector.results.length === 0 && output) collector.runErrors.push(`the suite did not run: ${output.split('\n')[0]}`);
    }
    return undefined;
  });
  return { finished };
}

/**
 * Every check the suite declares, as declared (id, clause, level, title, requirements),
 * in declaration order: the suite's file is collected, not run (no request is sent).
 * `settings` are what the declarations read (a run's defaults do).
 * @throws Error with the first error when the suite cannot be collected.
 */
export async function collectChecks(settings: RunSettings): Promise<CheckDefinition[]> {
  let tests: SuiteTest[] = [];
  let errors: string[] = [];
  const thread = startThread(await suiteFiles(), { provide: { runs: [settings] }, maxConcurrency: 1, collectOnly: true }, (message) => {
    if (message.type === 'end') [tests, errors] = [message.tests, [...message.fileErrors, ...message.unhandled]];
  });
  const { failure } = await thread.ended;
  const first = failure ?? errors[0];
  if (first !== undefined) throw new Error(`the suite could not be collected: ${first}`);
  return tests.flatMap((test) => (test.meta ? [definitionOf(test.meta)] : []));
}

/** The declaration of a check, without what a run adds to its meta. */
function definitionOf({ id, title, clause, level, requirements, reference, needs, writes, coverage }: CheckDefinition): CheckDefinition {
  return { id, title, clause, level, requirements, ...(reference ? { reference } : {}), ...(needs ? { needs } : {}), ...(writes ? { writes } : {}), ...(coverage ? { coverage } : {}) };
}

/** The suite's thread, started. */
interface SuiteThread {
  /** Asks the thread to cancel its run. */
  cancel(reason: string): void;
  /**
   * Settles once the thread has ended and is gone: with why it failed when it ended
   * without its run's end (an error it died of, an exit), and what it wrote to its stdout
   * and stderr (which never mix with the run's lines). Never rejects.
   */
  ended: Promise<{ failure?: string; output: string }>;
}

/** What the thread may write to its stdout and stderr that is kept (characters): the first line says why a suite did not run. */
const OUTPUT_KEPT = 64 * 1024;

/**
 * The suite thread's young generation (MB): V8's default for a thread let a run's peak
 * RSS reach 185 MiB in 11 runs where 16 MB kept it at 154 MiB, with the same wall time
 * (809 against 820 ms median, interleaved); 8 MB saved no more.
 */
const YOUNG_GENERATION_MB = 16;

/**
 * Threads opened ahead of their runs ({@link openSuiteThread}), not yet started. A run
 * takes one whose bundles are its own, or opens a thread then.
 */
const spares: OpenThread[] = [];

/** A suite thread opened ahead of its run. */
export interface OpenedThread {
  /** Its `threadId` (node:worker_threads), as the thread itself sees it. */
  threadId: number;
  /** Settles once the thread has ended (its run's end, or {@link closeSpareThreads}). */
  gone: Promise<void>;
}

/**
 * Opens a suite thread now, before the caller knows its run: the thread loads its modules
 * (worker start, @vitest/runner, undici's parts, the HTTP client's chunk: some 80 ms) on the
 * second core while this thread loads the run's and reads the configuration, then waits
 * for its run (suite-thread.ts). The next run with the same bundles takes it. One never
 * taken keeps no process alive; {@link closeSpareThreads} ends it.
 * @param files the bundles (default: {@link suiteFiles}).
 */
export async function openSuiteThread(files?: SuiteFiles): Promise<OpenedThread> {
  const thread = openThread(files ?? (await suiteFiles()));
  spares.push(thread);
  return { threadId: thread.threadId, gone: thread.gone };
}

/** Ends the threads opened ahead of a run that never took them (a usage error, a run that sends nothing); settles once they are gone. */
export async function closeSpareThreads(): Promise<void> {
  await Promise.all(spares.splice(0).map((spare) => spare.close()));
}

/** A suite thread whose modules load while it waits for its run. */
interface OpenThread extends OpenedThread {
  files: SuiteFiles;
  /** Hands the thread its run: `onMessage` hears everything it says from then on. */
  start(data: Omit<SuiteThreadData, 'root' | 'file'>, onMessage: (message: FromSuiteThread) => void): SuiteThread;
  close(): Promise<void>;
}

function startThread(files: SuiteFiles, data: Omit<SuiteThreadData, 'root' | 'file'>, onMessage: (message: FromSuiteThread) => void): SuiteThread {
  const spare = spares.findIndex((open) => open.files.thread === files.thread && open.files.suite === files.suite);
  const thread = spare >= 0 ? spares.splice(spare, 1)[0]! : openThread(files);
  return thread.start(data, onMessage);
}

function openThread(files: SuiteFiles): OpenThread {
  const worker = new Worker(files.thread, {
    // The host's own Node options are not the thread's: a host under --input-type, --eval,
    // --inspect or a loader (--import) would hand them on, and the thread needs none.
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  let output = '';
  const keep = (chunk: Buffer) => void (output.length < OUTPUT_KEPT && (output += chunk.toString()));
  let ranToEnd = false;
  let failure: string | undefined;
  let onMessage: (message: FromSuiteThread) => void = () => {};
  worker.on('message', (message: FromSuiteThread) => {
    if (message.type === 'end') ranToEnd = true;
    onMessage(message);
    // Once its run has ended the thread has nothing left to do: what it still holds (a timer, a socket) must not keep it.
    if (message.type === 'end') void worker.terminate();
  });
  // The error it died of (out of file descriptors or memory, a module that throws at load) is the tool's own failure, named as such.
  worker.on('error', (error) => void (failure ??= toolFailure(error, error).line));
  const ended = new Promise<{ failure?: string; output: string }>((resolve) => {
    worker.on('exit', (code) => {
      if (!ranToEnd) failure ??= `the tool failed: the suite's thread ended before its run did (exit code ${code})`;
      resolve({ ...(failure !== undefined ? { failure } : {}), output: output.trim() });
    });
  });
  // Until it has a run, the thread keeps no process alive. Its output is read from then on
  // (what it wrote before waits in its streams): reading it refs the thread's port again.
  worker.unref();
  return {
    files,
    threadId: worker.threadId,
    gone: ended.then(() => {}),
    start: (data, listener) => {
      onMessage = listener;
      worker.stdout.on('data', keep);
      worker.stderr.on('data', keep);
      worker.postMessage({ type: 'start', data: { ...data, root: packageRoot, file: files.suite } } satisfies ToSuiteThread);
      worker.ref();
      return {
        cancel: (reason) => worker.postMessage({ type: 'cancel', reason } satisfies ToSuiteThread),
        ended,
      };
    },
    close: async () => void (await worker.terminate()),
  };
}
