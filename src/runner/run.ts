import { derivedHex, freshSeed } from '../check/seed.js';
import { assertSendableKey } from '../config/api-key.js';
import { assertClientCertificate } from '../config/client-certificate.js';
import { extraHeaders, secretHeaders } from '../config/extra-headers.js';
import { DIRECT, proxyEnvironment } from '../config/proxy.js';
import { checkValues } from '../config/setting-values.js';
import { defaultProfile, SETTING_LIST, withDefaults, type RunSettings, type SettingValues } from '../config/settings.js';
import type { Credential } from '../http/credential.js';
import type { Exchange } from '../core/exchange.js';
import { toolVersion } from '../package-info.js';
import type { ReferenceServer } from '../reference/server.js';
import { buildReport } from '../report/build.js';
import { findingsOf, withBlocker } from '../report/findings.js';
import { ConsoleFormat } from '../report/console.js';
import type { Report } from '../report/model.js';
import { exitCodeOf } from '../report/gate.js';
import { loadKnownFailures } from '../config/known-failures.js';
import { linkLatest } from '../report/report-dir.js';
import { UNREACHABLE } from '../report/build.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { RunStopped, UsageError } from '../core/errors.js';
import { broadcastStop } from '../core/stop-channel.js';
import { deadlineReached, RequestGuard } from '../http/safety.js';
import { CheckCollector } from './collector.js';
import { startSuite } from './suite.js';

/**
 * What to run against, and how: any setting of the table (config/settings.ts, each with its
 * bounds and default; `baseUrl` already normalized, absent: an embedded reference server),
 * and what only code can give.
 */
export interface RunOptions extends Omit<SettingValues, 'reportDir'> {
  /** The key for `baseUrl`; ignored for the embedded server, which makes its own. */
  apiKey?: string;
  /** Where the key came from, named in messages about a refused key (e.g. `the environment variable PETSTORE_API_KEY`). */
  keySource?: string;
  /** Extra trusted CA certificates (PEM) for the target's TLS (the CLI reads them from `caFile`). */
  caPem?: string;
  /** The certificate and key (PEM) for mutual TLS (the CLI reads them from `clientCert` and `clientKey`). */
  clientCertPem?: string;
  clientKeyPem?: string;
  /**
   * Where `headerEnv`'s variables and the proxy variables (HTTP_PROXY, HTTPS_PROXY,
   * NO_PROXY) are read; default: `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** Where the report files go; `null` writes nothing. */
  reportDir: string | null;
  /** Whether to point `<reportDir>/../latest` at this run (for the default directory). */
  linkLatest?: boolean;
  /** Console output; `null` prints nothing. */
  out?: NodeJS.WritableStream | null;
  /**
   * Where to write the one report format asked for (`formats`), instead of files: the
   * CLI's `--report-dir -` (stdout, the console then going to stderr). Needs `reportDir: null`.
   */
  reportStream?: NodeJS.WritableStream;
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
 * embedded reference server when no base URL is given, starts the suite's checks with
 * vitest (one worker, shared run state), probes the target once while the worker starts
 * (an unreachable target cancels the run: its report holds no check), then writes the report.
 * Failures of the target are findings in the report; this function throws only for
 * failures of the tool itself (e.g. the report directory cannot be written), and a
 * UsageError for a base URL without a key.
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  if (options.baseUrl && !options.apiKey) throw new UsageError('an API key is required with a base URL');
  if (options.quiet && options.verbose) throw new UsageError('--quiet and --verbose exclude each other');
  if (options.reportStream && (options.reportDir !== null || options.formats?.length !== 1)) {
    throw new UsageError('a report goes to stdout alone: --report-dir - takes exactly one --format (json, junit, html, md or har)');
  }
  if (options.baseUrl) assertSendableKey(options.apiKey!, options.keySource ?? 'the caller');
  // reportDir is the one option that may also be null (write nothing).
  checkValues(Object.fromEntries(SETTING_LIST.filter(([name]) => name !== 'reportDir').map(([name]) => [name, (options as SettingValues)[name]])), 'runConformance');
  assertClientCertificate(options.clientCertPem, options.clientKeyPem);
  const env = options.env ?? process.env;
  const network = { extraHeaders: extraHeaders(options.headers, options.headerEnv, env), proxy: options.baseUrl ? proxyEnvironment(env) : DIRECT };

  // Read before anything starts: a malformed file is a usage error (exit 2), not a finding.
  const knownFailures = options.knownFailures ? await loadKnownFailures(options.knownFailures) : undefined;
  let embedded: ReferenceServer | undefined;
  if (!options.baseUrl) embedded = await (await import('../reference/server.js')).startReferenceServer();
  const settings = { ...settingsFor(options, embedded, startedAt), ...network };
  // The key and the secret headers; every credential derived from the key arrives with the result of the check that sent it.
  const redactor = new Redactor().add(settings.apiKey, KEY_PLACEHOLDER).addAll(secretHeaders(network.extraHeaders));
  const format = new ConsoleFormat(options.color ?? Boolean((options.out as { isTTY?: boolean } | null)?.isTTY));
  const print = (text: string | undefined) => text !== undefined && options.out?.write(`${redactor.text(text)}\n`);
  let reached: boolean | undefined;

  try {
    if (!options.quiet) print(format.header(settings, toolVersion));
    const collector = new CheckCollector(
      (result, exchanges) => {
        if (reached === false || options.quiet) return;
        // A check blocked by a deviation seen so far says so at once, as the report will.
        print(format.check(withBlocker(result, findingsOf(collector.results), false)));
        if (options.verbose && exchanges.length > 0) print(format.exchanges(exchanges));
      },
      (secrets) => redactor.addAll(secrets),
    );
    // The suite's worker starts first, and the probe goes out while it starts: the worker
    // takes longest to start, and an unreachable target cancels the run before any check.
    const unreachable = new AbortController();
    const stop = withDeadline(options, settings);
    // The worker sends the requests: it is told at once, checks under way included.
    const stopWorker = () => broadcastStop(settings.runId, String(stop!.reason));
    stop?.addEventListener('abort', stopWorker, { once: true });
    const signals = [stop, unreachable.signal].filter((signal) => signal !== undefined);
    const suite = await startSuite(settings, collector, { signal: AbortSignal.any(signals) });
    if (options.reportDir !== null || options.reportStream) void reportWriters(); // loads while the worker starts, when this thread is idle
    const preflight = await probe(settings, redactor, stop);

    reached = !preflight.error || !UNREACHABLE.includes(preflight.error.code);
    if (!reached) unreachable.abort('the target is unreachable');
    const aborted = await suite.finished;
    stop?.removeEventListener('abort', stopWorker);
    // An unreachable target is judged by the probe alone: checks that raced it judged nothing.
    const judged = reached ? collector : { results: [], exchanges: [], runErrors: [] };
    const report = buildReport({
      settings,
      startedAt,
      durationMs: performance.now() - started,
      checks: judged.results,
      exchanges: judged.exchanges,
      created: collector.created,
      preflight,
      runErrors: judged.runErrors,
      aborted: reached ? aborted : undefined,
      ...(options.keySource && !embedded ? { keySource: options.keySource } : {}),
      ...(knownFailures ? { knownFailures } : {}),
    });
    const exchanges = [preflight, ...judged.exchanges];
    const written = options.reportDir === null ? [] : await (await reportWriters()).writeReports(report, exchanges, options.reportDir, settings.formats, redactor);
    if (options.reportStream) options.reportStream.write((await reportWriters()).renderReport(report, exchanges, settings.formats[0]!, redactor));
    if (options.reportDir !== null && options.linkLatest) await linkLatest(options.reportDir);
    print(options.quiet ? format.verdict(report, written) : format.summary(report, written));
    return { report: redactor.value(report), exitCode: exitCodeOf(report.verdict, report.gate), written, exchanges: judged.exchanges };
  } finally {
    await embedded?.close();
  }
}

/**
 * The run's settings: the options, their defaults, the embedded server when there is one,
 * and when the deadline falls (`deadlineSeconds` from `startedAt`).
 */
function settingsFor(options: RunOptions, embedded: ReferenceServer | undefined, startedAt: Date): RunSettings {
  const seed = options.seed ?? freshSeed();
  const { reportDir: _reportDir, ...values } = options;
  return {
    ...withDefaults(values),
    baseUrl: embedded?.baseUrl ?? options.baseUrl!,
    apiKey: embedded?.apiKey ?? options.apiKey ?? '',
    targetKind: embedded ? 'embedded' : 'external',
    seed,
    runId: derivedHex(seed, 'run-id', 6),
    userAgent: `petstore-conformance/${toolVersion}`,
    profile: options.profile ?? defaultProfile(embedded ? undefined : options.baseUrl),
    profileSource: options.profile ? 'explicit' : 'default',
    ...(options.caPem ? { caPem: options.caPem } : {}),
    ...(options.clientCertPem && options.clientKeyPem ? { clientCertPem: options.clientCertPem, clientKeyPem: options.clientKeyPem } : {}),
    ...(options.deadlineSeconds ? { deadlineAt: startedAt.getTime() + options.deadlineSeconds * 1000 } : {}),
  };
}

const NO_CREDENTIAL: Credential = { name: 'missing', description: 'no Authorization header' };

/**
 * The caller's abort signal, combined with the run's deadline when one is set: the same
 * instant (`deadlineAt`) the request guard reads off the clock.
 */
function withDeadline(options: RunOptions, { deadlineAt, deadlineSeconds }: RunSettings): AbortSignal | undefined {
  if (deadlineAt === undefined || deadlineSeconds === undefined) return options.signal;
  const deadline = AbortSignal.timeout(Math.max(0, Math.ceil(deadlineAt - Date.now())));
  const reason = deadlineReached(deadlineSeconds);
  const timed = new AbortController();
  deadline.addEventListener('abort', () => timed.abort(reason), { once: true });
  return options.signal ? AbortSignal.any([options.signal, timed.signal]) : timed.signal;
}

/**
 * One GET /categories without credentials, sent while the suite's worker starts: tells an
 * unreachable target (exit 3, no check judged) from one that answers, whatever it answers. Unauthenticated,
 * it sends no key and is answered before any handler logic that might hang.
 */
async function probe(settings: RunSettings, redactor: Redactor, stop: AbortSignal | undefined): Promise<Exchange> {
  const { HttpClient } = await import('../http/client.js'); // not on the path to the worker's start
  const guard = new RequestGuard(settings);
  const stopProbe = () => guard.stop(String(stop!.reason));
  if (stop?.aborted) stopProbe();
  stop?.addEventListener('abort', stopProbe, { once: true });
  const client = new HttpClient({ ...settings, redactor, guard });
  const request = { method: 'GET', path: '/categories', credential: NO_CREDENTIAL } as const;
  let last: Exchange | undefined;
  try {
    return await client.send(request, 'preflight', (attempt) => (last = attempt));
  } catch (error) {
    if (!(error instanceof RunStopped)) throw error;
    // Stopped before or while it was sent: no answer, and no finding either.
    return last ?? notSent(`${settings.baseUrl}${request.path}`, error.message);
  } finally {
    stop?.removeEventListener('abort', stopProbe);
    await client.close();
  }
}

/** The probe's record when the run stopped before it was sent. */
function notSent(url: string, message: string): Exchange {
  return {
    seq: 0,
    checkId: 'preflight',
    credential: NO_CREDENTIAL.name,
    request: { method: 'GET', url, headers: {} },
    error: { code: 'ABANDONED', message, phase: 'headers' },
    startedAt: new Date().toISOString(),
    durationMs: 0,
    connection: 'fresh',
  };
}

/** The report writers (renderers for every format), loaded only when a run writes reports. */
const reportWriters = () => import('../report/write.js');
