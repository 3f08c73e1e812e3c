import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createVitest } from 'vitest/node';
import { invalidCredentials } from '../check/credentials.js';
import { derivedHex, freshSeed } from '../check/seed.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_CONNECTIONS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_PARALLEL_CREATES,
  DEFAULT_SHRINK_BUDGET,
  DEFAULT_TIMEOUT_MS,
  type RunSettings,
} from '../config/settings.js';
import { HttpClient } from '../http/client.js';
import type { Credential } from '../http/credential.js';
import type { Exchange } from '../http/exchange.js';
import { packageRoot, toolVersion } from '../package-info.js';
import { startReferenceServer, type ReferenceServer } from '../reference/server.js';
import { buildReport } from '../report/build.js';
import { ConsoleFormat } from '../report/console.js';
import type { Report } from '../report/model.js';
import { exitCodeFor } from '../report/verdict.js';
import { FORMATS, linkLatest, writeReports, type Format } from '../report/write.js';
import { defaultProfile, type Profile } from '../http/safety.js';
import { UNREACHABLE } from '../report/build.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { UsageError } from '../config/usage-error.js';
import { CheckCollector } from './collector.js';
import { SuiteSequencer } from './sequencer.js';

/** What to run against, and how. */
export interface RunOptions {
  /** The target, already normalized (see normalizeBaseUrl); absent: an embedded reference server. */
  baseUrl?: string;
  /** The key for `baseUrl`; ignored for the embedded server, which makes its own. */
  apiKey?: string;
  /** Deadline of one exchange, in ms (default 10 000). */
  timeoutMs?: number;
  /** Largest response body accepted, in bytes (default 16 MiB). */
  maxResponseBytes?: number;
  /** Keep-alive connections to the target (default 8). */
  connections?: number;
  /** The run's seed (default: a fresh one, recorded in the report); the same seed replays the same requests. */
  seed?: number;
  /** Runs of every property, overriding each property's own default. */
  numRuns?: number;
  /** Creates the concurrency check sends at once (default 16). */
  parallelCreates?: number;
  /** Requests a failing property may spend on shrinking (default 500). */
  shrinkBudget?: number;
  /** Generated inputs a property sends at once (default 8). */
  concurrency?: number;
  /**
   * What the run may do to the target. Default: `full` for the embedded server and
   * loopback targets, `read-only` for any other (no surprise writes).
   */
  profile?: Profile;
  /** Requests per second at most, shared by every check. */
  rateLimit?: number;
  /** Requests the run may send at most. */
  maxRequests?: number;
  /** Requests that could write the run may send at most. */
  maxWrites?: number;
  /** Wall time the whole run may take, in ms; past it the run is aborted (exit 3). */
  deadlineMs?: number;
  /** Extra trusted CA certificates (PEM) for the target's TLS. */
  caPem?: string;
  /** Only checks whose id matches this regular expression run; the others are reported skipped. */
  checkFilter?: string;
  /** Where the report files go; `null` writes nothing. */
  reportDir: string | null;
  /** Which report files to write (default: every format). */
  formats?: Format[];
  /** Whether to point `<reportDir>/../latest` at this run (for the default directory). */
  linkLatest?: boolean;
  /** Console output; `null` prints nothing. */
  out?: NodeJS.WritableStream | null;
  /** Colour console output (default: when `out` is a TTY). */
  color?: boolean;
  /** Aborts the run (e.g. on SIGINT); the report then has verdict `error`. */
  signal?: AbortSignal;
}

/** The result of a run. */
export interface RunOutcome {
  report: Report;
  /** 0 conformant, 1 nonconformant, 3 could not assess (2 is the CLI's, for usage errors). */
  exitCode: number;
  /** Files written, in the order of the formats asked for. */
  written: string[];
  /** Every exchange the checks made (redacted), for callers that inspect traffic. */
  exchanges: Exchange[];
}

/**
 * Runs the conformance suite against one target and builds its report: starts the
 * embedded reference server when no base URL is given, probes the target once, runs the
 * suite's checks with vitest (one worker, shared run state), then writes the report.
 * Failures of the target are findings in the report; this function throws only for
 * failures of the tool itself (e.g. the report directory cannot be written), and a
 * UsageError for a base URL without a key.
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  if (options.baseUrl && !options.apiKey) throw new UsageError('an API key is required with a base URL');

  let embedded: ReferenceServer | undefined;
  if (!options.baseUrl) embedded = await startReferenceServer();
  const settings = settingsFor(options, embedded);
  const { seed } = settings;
  // The same secrets the worker redacts: the key and every credential derived from it.
  const redactor = new Redactor().add(settings.apiKey, KEY_PLACEHOLDER);
  invalidCredentials(settings.apiKey, redactor, seed);
  const format = new ConsoleFormat(options.color ?? Boolean((options.out as { isTTY?: boolean } | null)?.isTTY));
  const print = (text: string | undefined) => text !== undefined && options.out?.write(`${redactor.text(text)}\n`);

  try {
    print(format.header(settings, toolVersion));
    const preflight = await probe(settings, redactor);
    const collector = new CheckCollector((result) => print(format.check(result)));
    let aborted: string | undefined;
    if (!preflight.error || !UNREACHABLE.includes(preflight.error.code)) {
      aborted = await runSuite(settings, collector, { ...options, signal: withDeadline(options) });
    }
    const report = buildReport({
      settings,
      startedAt,
      durationMs: performance.now() - started,
      checkFilter: options.checkFilter,
      deadlineMs: options.deadlineMs,
      checks: collector.results,
      exchanges: collector.exchanges,
      created: collector.created,
      preflight,
      runErrors: collector.runErrors,
      aborted,
    });
    const exchanges = [preflight, ...collector.exchanges];
    const formats = options.formats ?? (Object.keys(FORMATS) as Format[]);
    const written = options.reportDir === null ? [] : await writeReports(report, exchanges, options.reportDir, formats, redactor);
    if (options.reportDir !== null && options.linkLatest) await linkLatest(options.reportDir);
    print(format.summary(report, written));
    return { report: redactor.value(report), exitCode: exitCodeFor(report.verdict), written, exchanges: collector.exchanges };
  } finally {
    await embedded?.close();
  }
}

/** The run's settings: the options, their defaults, and the embedded server when there is one. */
function settingsFor(options: RunOptions, embedded: ReferenceServer | undefined): RunSettings {
  const seed = options.seed ?? freshSeed();
  return {
    baseUrl: embedded?.baseUrl ?? options.baseUrl!,
    apiKey: embedded?.apiKey ?? options.apiKey ?? '',
    targetKind: embedded ? 'embedded' : 'external',
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    connections: options.connections ?? DEFAULT_CONNECTIONS,
    seed,
    runId: derivedHex(seed, 'run-id', 6),
    ...(options.numRuns ? { numRuns: options.numRuns } : {}),
    parallelCreates: options.parallelCreates ?? DEFAULT_PARALLEL_CREATES,
    shrinkBudget: options.shrinkBudget ?? DEFAULT_SHRINK_BUDGET,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    userAgent: `petstore-conformance/${toolVersion}`,
    profile: options.profile ?? defaultProfile(embedded ? undefined : options.baseUrl),
    profileSource: options.profile ? 'explicit' : 'default',
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(options.maxRequests ? { maxRequests: options.maxRequests } : {}),
    ...(options.maxWrites !== undefined ? { maxWrites: options.maxWrites } : {}),
    ...(options.caPem ? { caPem: options.caPem } : {}),
  };
}

const NO_CREDENTIAL: Credential = { name: 'missing', description: 'no Authorization header' };

/** The caller's abort signal, combined with the run's deadline when one is set. */
function withDeadline(options: RunOptions): AbortSignal | undefined {
  if (!options.deadlineMs) return options.signal;
  const deadline = AbortSignal.timeout(options.deadlineMs);
  const reason = `the run's deadline of ${options.deadlineMs / 1000} s was reached`;
  const timed = new AbortController();
  deadline.addEventListener('abort', () => timed.abort(reason), { once: true });
  return options.signal ? AbortSignal.any([options.signal, timed.signal]) : timed.signal;
}

/**
 * One GET /categories without credentials before any check: tells an unreachable target
 * (exit 3, no checks run) from one that answers, whatever it answers. Unauthenticated,
 * it sends no key and is answered before any handler logic that might hang.
 */
async function probe(settings: RunSettings, redactor: Redactor): Promise<Exchange> {
  const client = new HttpClient({ ...settings, redactor });
  try {
    return await client.send({ method: 'GET', path: '/categories', credential: NO_CREDENTIAL }, 'preflight');
  } finally {
    await client.close();
  }
}

/**
 * Runs the suite files with vitest's Node API: one worker without isolation (the checks
 * share the run's state), invariants last, our collector as the only reporter.
 * @returns why the run was aborted, or undefined when it ran to the end.
 */
async function runSuite(settings: RunSettings, collector: CheckCollector, options: RunOptions): Promise<string | undefined> {
  const vitestOutput = new CapturedOutput();
  const exitCode = process.exitCode;
  const signalListeners = SIGNALS.map((signal) => process.listeners(signal));
  const vitest = await createVitest(
    'test',
    {
      root: packageRoot,
      config: false,
      watch: false,
      // The compiled suites when the package is built (no TypeScript transform at run time),
      // else the sources (under the project's own tests); `dir` keeps the search to them.
      dir: join(packageRoot, SUITES_DIR), // absolute: vitest resolves `dir` against the working directory
      include: [`**/*.test.${SUITES_DIR.startsWith('dist') ? 'js' : 'ts'}`],
      reporters: [collector],
      pool: 'threads',
      maxWorkers: 1,
      fileParallelism: false,
      isolate: false,
      sequence: { sequencer: SuiteSequencer },
      provide: { run: settings },
      ...(options.checkFilter ? { testNamePattern: options.checkFilter } : {}),
    },
    { logLevel: 'silent' },
    { stdout: vitestOutput, stderr: vitestOutput },
  );
  // vitest's logger exits the process on SIGINT/SIGTERM; the caller owns signals (and
  // turns them into an abort that still writes the report), so drop what vitest added.
  SIGNALS.forEach((signal, i) => {
    for (const listener of process.listeners(signal)) {
      if (!signalListeners[i]!.includes(listener)) process.off(signal, listener);
    }
  });
  const onAbort = () => {
    collector.interrupted = true;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await vitest.start();
  } catch (error) {
    collector.runErrors.push(`the suite did not run: ${(error as Error).message}`);
  } finally {
    await vitest.close();
    options.signal?.removeEventListener('abort', onAbort);
    // vitest sets the exit code for its own verdict; the caller decides ours.
    process.exitCode = exitCode;
  }
  if (options.signal?.aborted) return String(options.signal.reason ?? 'interrupted');
  if (collector.stopped) return collector.stopped;
  if (collector.interrupted) return 'interrupted';
  const text = vitestOutput.text.trim();
  if (collector.results.length === 0 && text) collector.runErrors.push(`the suite did not run: ${text.split('\n')[0]}`);
  return undefined;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Where the suite files are: compiled next to this module when it runs from dist/. */
const SUITES_DIR = import.meta.url.includes('/dist/src/') ? 'dist/suites' : 'suites';

/** Collects vitest's own console output, so it never mixes with the run's lines. */
class CapturedOutput extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}
