import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { derivedHex, freshSeed } from '../check/seed.js';
import { assertSendableKey } from '../config/api-key.js';
import { extraHeaders, secretHeaders } from '../config/extra-headers.js';
import { loadKnownFailures, type KnownFailure } from '../config/known-failures.js';
import { DIRECT, proxyEnvironment } from '../config/proxy.js';
import { checkValues } from '../config/setting-values.js';
import { channelOf, connectionsFor, defaultProfile, SETTING_LIST, withDefaults, type RunSettings, type SettingValues } from '../config/settings.js';
import { UsageError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import { toolVersion } from '../core/package-info.js';
import type { ReferenceServer } from '../reference/server.js';
import { buildReport } from '../report/build.js';
import { unreachable } from '../check/preflight.js';
import { ConsoleFormat, PLAIN_WIDTH } from '../report/console.js';
import { causeKey, findingsOf, withBlocker } from '../report/findings.js';
import { exitCodeOf } from '../report/gate.js';
import { redactExchange, redactReport } from '../report/redact.js';
import { linkLatest, writtenLines } from '../report/report-dir.js';
import { StatusLine, type Terminal } from '../report/status-line.js';
import { listenForProgress } from '../core/progress-channel.js';
import { KEY_PLACEHOLDER, Redactor, shortSecretNotice } from '../secrets/redactor.js';
import { CheckCollector } from './collector.js';
import { given, type Given } from './given.js';
import type { RunOptions, RunOutcome } from './options.js';
import type { JudgedTraffic } from '../traffic/judge-capture.js';
import { joinTraffic } from '../traffic/join.js';
import { checkIds, listChecks } from './list.js';
import { toolFailureIn } from '../core/tool-failure.js';

/**
 * One target's part of a run, from its options to its report: the settings, the redactor,
 * the collector of its checks and its console lines. The suite's worker checks one or
 * several targets (see lane.ts); each is prepared before any request, probed by the
 * suite's thread as it starts, and finished into its report when the thread is done.
 */
export class TargetRun {
  readonly collector: CheckCollector;
  /** Whether the probe reached the target; undefined until it answered. */
  #reached: boolean | undefined;
  #preflight: Exchange | undefined;
  /** The keyed list of the preflight, once answered, and why the run could not go on (check/preflight.ts). */
  #keyed: Exchange | undefined;
  #setupProblem: string | undefined;
  /** Whether a check's line was printed yet (the first comes after a blank line). */
  #checkPrinted = false;
  /** The check that first showed each root cause printed so far (findings.ts causeKey → check id). */
  readonly #causes = new Map<string, string>();
  /** Settles with whether the probe reached the target, once the suite's thread sends its answer (see {@link probed}). */
  readonly reached: Promise<boolean>;
  #settleProbe!: { resolve: (reached: boolean) => void; reject: (error: Error) => void };
  /** Prints a line: `own`, one of the tool's own words and the user's values alone (Redactor.own). */
  readonly #print: (text: string | undefined, own?: boolean) => void;
  readonly #format: ConsoleFormat;
  /** The status line, on a terminal (see report/status-line.ts), and how it stops hearing the worker's count. */
  readonly #status: StatusLine | undefined;
  #stopProgress: (() => void) | undefined;

  private constructor(
    readonly options: Given<RunOptions>,
    readonly settings: RunSettings,
    readonly redactor: Redactor,
    readonly startedAt: Date,
    private readonly knownFailures: KnownFailure[] | undefined,
    private readonly embedded: ReferenceServer | undefined,
    /** What the user is told about the run's own limits (see shortSecretNotice), in the report too. */
    private readonly notices: string[],
    /** The capture judged with the run (`--traffic`), when one was given. */
    readonly traffic?: JudgedTraffic,
  ) {
    this.reached = new Promise<boolean>((resolve, reject) => (this.#settleProbe = { resolve, reject }));
    const terminal = options.out as { isTTY?: boolean; columns?: number } | null | undefined;
    this.#format = new ConsoleFormat(options.color ?? Boolean(terminal?.isTTY), settings.strict, (terminal?.isTTY && terminal.columns) || PLAIN_WIDTH);
    this.#status = settings.progress && options.out ? new StatusLine(options.out as Terminal, startedAt.getTime()) : undefined;
    // What holds the server's words is redacted of every piece of a secret; the tool's own lines (the header, where the reports went) of whole secrets only.
    // The user's own values as the console shows them: a piece of a secret inside one is theirs, not an echo.
    const values = [settings.baseUrl, ...(options.reportDir ? [options.reportDir] : [])];
    this.#print = (text, own = false) => {
      if (text === undefined) return;
      const shown = own ? redactor.own(text) : redactor.mixed(text, values);
      if (this.#status) this.#status.print(shown);
      else options.out?.write(`${shown}\n`);
    };
    this.collector = new CheckCollector(
      (result, exchanges) => {
        this.#status?.update({ checksDone: this.collector.results.length, ...(this.collector.total !== undefined ? { checksTotal: this.collector.total } : {}) });
        // Nothing to print (a fleet's targets print no check lines): no finding to work out either.
        if (this.#reached === false || this.#setupProblem !== undefined || options.quiet || !options.out) return;
        // A check blocked by a deviation seen so far says so at once, as the report will.
        // A failure whose root cause was printed already names the check that showed it, not its evidence again.
        const cause = causeKey(result);
        const sameAs = cause === undefined ? undefined : this.#causes.get(cause);
        if (cause !== undefined && sameAs === undefined) this.#causes.set(cause, result.id);
        const line = this.#format.check(withBlocker(result, findingsOf(this.collector.results), false), { first: !this.#checkPrinted, ...(sameAs ? { sameAs } : {}) });
        if (line !== undefined) this.#checkPrinted = true;
        this.#print(line);
        if (options.verbose && exchanges.length > 0) this.#print(this.#format.exchanges(exchanges));
      },
      (secrets) => redactor.addDerived(secrets),
      settings.runId,
    );
  }

  /**
   * Checks the options (every usage error before any request), reads the known failures,
   * starts the embedded reference server when no base URL is given, and prints the header.
   * @param startedAt when the run began: the deadline counts from it.
   * @param otherSecrets keys of the other targets of a fleet, redacted here too, so that no
   *   target's key appears in another target's report.
   * @throws UsageError for bad options.
   */
  static async prepare(asGiven: RunOptions, startedAt: Date, otherSecrets: ReadonlyArray<{ value: string; shown: string }> = []): Promise<TargetRun> {
    const options = given(asGiven);
    if (options.baseUrl && !options.apiKey) throw new UsageError('an API key is required with a base URL');
    if (options.quiet && options.verbose) throw new UsageError('--quiet and --verbose exclude each other');
    if (options.reportStream && (options.reportDir !== undefined || options.formats?.length !== 1)) {
      throw new UsageError('a report goes to stdout alone: --report-dir - takes exactly one --format (json, junit, html, md or har)');
    }
    if (options.baseUrl) assertSendableKey(options.apiKey!, options.keySource ?? 'the caller');
    checkValues(Object.fromEntries(SETTING_LIST.filter(([name]) => name !== 'reportDir').map(([name]) => [name, (options as SettingValues)[name]])), 'runConformance');
    // node:tls is loaded only for a run with a client certificate: not on every run's start.
    if (options.clientCertPem !== undefined || options.clientKeyPem !== undefined) {
      (await import('../config/client-certificate.js')).assertClientCertificate(options.clientCertPem, options.clientKeyPem);
    }
    const env = options.env ?? process.env;
    const network = { extraHeaders: extraHeaders(options.headers, options.headerEnv, env), proxy: options.baseUrl ? proxyEnvironment(env) : DIRECT };
    // Read before anything starts: a malformed file is a usage error (exit 2), not a finding.
    const knownFailures = options.knownFailures ? await loadKnownFailures(options.knownFailures, await checkIds()) : undefined;

    const embedded = options.baseUrl ? undefined : await (await import('../reference/server.js')).startReferenceServer();
    try {
      return await TargetRun.#prepared(options, startedAt, otherSecrets, embedded, knownFailures, network);
    } catch (error) {
      // A capture that cannot be read is refused after the embedded server started: it must not keep the process alive.
      await embedded?.close();
      throw error;
    }
  }

  /** The rest of {@link prepare}, once the embedded server (if any) runs. */
  static async #prepared(
    options: Given<RunOptions>,
    startedAt: Date,
    otherSecrets: ReadonlyArray<{ value: string; shown: string }>,
    embedded: ReferenceServer | undefined,
    knownFailures: KnownFailure[] | undefined,
    network: Pick<RunSettings, 'extraHeaders' | 'proxy'>,
  ): Promise<TargetRun> {
    const settings = { ...settingsFor(options, embedded, startedAt), ...network };
    // The key and the secret headers; every credential derived from the key arrives with the result of the check that sent it.
    const redactor = new Redactor().add(settings.apiKey, KEY_PLACEHOLDER).addAll(secretHeaders(network.extraHeaders)).addAll(otherSecrets);
    const notices = [
      shortSecretNotice('the key', settings.apiKey),
      ...secretHeaders(network.extraHeaders).map((header) => shortSecretNotice(`the value of ${header.name}`, header.value)),
    ].filter((notice) => notice !== undefined);
    // Judged before any request: a capture that cannot be read is a usage error, and its secrets are known before anything is printed.
    const traffic = options.traffic?.length
      ? await (await import('../traffic/judge-capture.js')).judgeTraffic(
          { checks: (await listChecks()).checks, files: options.traffic, baseUrl: settings.baseUrl, apiKey: settings.apiKey, secretHeaders: secretHeaders(network.extraHeaders).map((header) => header.name.toLowerCase()), maxBodyBytes: settings.maxResponseBytes },
          redactor,
          options.signal ? { signal: options.signal } : {},
        )
      : undefined;
    if (traffic?.nothingJudged && !traffic.stopped) throw new UsageError(`--traffic: ${traffic.nothingJudged}`);
    const run = new TargetRun(options, settings, redactor, startedAt, knownFailures, embedded, [...notices, ...(traffic?.notices ?? [])], traffic);
    for (const notice of notices) options.err?.write(`petstore-conformance: warning: ${notice}\n`);
    for (const notice of traffic?.notices ?? []) options.err?.write(`petstore-conformance: notice: ${redactor.text(notice)}\n`);
    if (!options.quiet) run.#print(run.#format.header(settings, toolVersion), true);
    if (run.#status) {
      run.#status.start();
      run.#stopProgress = listenForProgress(channelOf(settings), (requests) => run.#status!.update({ requests }));
    }
    return run;
  }

  /**
   * The probe's answer (probe.ts), sent by the suite's thread: its exchange, or the defect
   * of the tool that kept it from being sent (then {@link reached} rejects). An unreachable
   * target is judged by the probe alone. A thread that ends without a probe (it failed)
   * sends none: its report stands on its run errors.
   */
  probed(answer: { exchange: Exchange } | { error: string } | undefined): void {
    if (this.#reached !== undefined) return; // answered already: the thread's end adds nothing
    if (answer && 'error' in answer) return this.#settleProbe.reject(new Error(`the probe failed: ${answer.error}`));
    this.#preflight = answer?.exchange;
    this.#reached = !unreachable(this.#preflight);
    this.#settleProbe.resolve(this.#reached);
  }

  /**
   * The preflight's keyed list (check/preflight.ts), sent by the suite's thread after the
   * probe, with the diagnosis that stops the run when the key or the base URL is wrong:
   * then no check is judged, and none is printed.
   */
  preflighted(preflight: { exchange: Exchange; diagnosis?: string }): void {
    this.#keyed = preflight.exchange;
    this.#setupProblem = preflight.diagnosis;
  }

  /**
   * Builds the target's report once the worker is done with it, writes its files and
   * prints its summary.
   * @param laneAborted why the worker's run was cut short (a signal, the deadline), if it was.
   * @param keepExchanges whether the outcome holds the exchanges (a fleet keeps none: its
   *   targets' HAR files hold them, and 50 targets' exchanges would weigh on memory).
   * @throws Error when the report directory cannot be written (a failure of the tool).
   */
  async finish(laneAborted: string | undefined, keepExchanges = true): Promise<RunOutcome> {
    const { collector, settings, options, redactor } = this;
    const reached = this.#reached !== false;
    const setup = reached ? this.#setupProblem : undefined;
    const aborted = laneAborted ?? collector.stopped ?? (collector.interrupted ? 'interrupted' : undefined);
    const keyed = this.#keyed ? [this.#keyed] : [];
    // An unreachable target is judged by the probe alone, one whose key or base URL is wrong by the preflight alone: checks that raced them judged nothing.
    const judged =
      reached && !setup
        ? { results: collector.results, exchanges: [...keyed, ...collector.exchanges], runErrors: collector.runErrors }
        : { results: [], exchanges: reached ? keyed : [], runErrors: [] };
    const report = buildReport({
      settings,
      startedAt: this.startedAt,
      durationMs: Date.now() - this.startedAt.getTime(),
      checks: this.traffic ? joinTraffic(judged.results, this.traffic.checks) : judged.results,
      exchanges: judged.exchanges,
      created: collector.created,
      preflight: this.#preflight,
      runErrors: judged.runErrors,
      aborted: reached && !setup ? aborted : undefined,
      ...(setup ? { unassessable: setup } : {}),
      // Where the key came from, for a key the target refuses (an embedded server takes its own).
      ...(options.keySource ? { keySource: options.keySource } : {}),
      ...(this.knownFailures ? { knownFailures: this.knownFailures } : {}),
      notices: this.notices,
      ...(this.traffic ? { traffic: this.traffic.summary } : {}),
    });
    const exchanges = [...(this.#preflight ? [this.#preflight] : []), ...judged.exchanges];
    this.#stopProgress?.();
    this.#status?.stop();
    // The tool's own failure, once, where errors go (unless the caller stopped the run for it, and said so): the check lines only say they did not run.
    const failure = [aborted, ...judged.runErrors].map(toolFailureIn).find((line) => line !== undefined);
    if (failure && !options.signal?.aborted) (options.err ?? options.out)?.write(`petstore-conformance: ${failure}\n`);
    // The verdict first: a report that cannot be written (a full disk) never hides it.
    const reportFile = options.reportDir !== undefined && settings.formats.includes('json') ? join(options.reportDir, 'report.json') : undefined;
    this.#print(options.quiet ? this.#format.verdict(report) : this.#format.summary(report, reportFile));
    const files = options.reportDir === undefined ? { written: [], failed: [] } : await (await reportWriters()).writeReports(report, exchanges, options.reportDir, settings.formats, redactor);
    if (options.reportStream) options.reportStream.write(await (await reportWriters()).renderReport(report, exchanges, settings.formats[0]!, redactor));
    if (files.written.length > 0 && options.linkLatest) await linkLatest(options.reportDir!).catch(() => {});
    this.#print(writtenLines(files.written).join('\n') || undefined, true);
    for (const { path, reason } of files.failed) (options.err ?? options.out)?.write(`petstore-conformance: could not write ${path}: ${reason}\n`);
    if (files.failed.length > 0) (options.err ?? options.out)?.write(`petstore-conformance: the reports are incomplete (${files.failed.length} of ${settings.formats.length} not written); the verdict above stands\n`);
    collector.release();
    redactor.forgetTexts();
    // Only what the outcome may give is held: a fleet keeps no exchanges (50 targets' would weigh on memory).
    const kept = keepExchanges ? judged.exchanges : [];
    return withRedactedOnRead({ exitCode: exitCodeOf(report.verdict, report.gate), written: files.written, ...(files.failed.length > 0 ? { unwritten: files.failed } : {}) }, {
      report: () => redactReport(report, redactor),
      exchanges: () => kept.map((exchange) => redactExchange(exchange, redactor)),
    });
  }

  /** Stops the embedded reference server, if the run started one. */
  async close(): Promise<void> {
    await this.embedded?.close();
  }
}


/**
 * The outcome, its report and exchanges redacted when first read (then kept): the CLI reads
 * neither, and redacting every exchange again was about 20 ms of a run's end in a CPU
 * profile (`node --cpu-prof`); 11 interleaved runs: 0.98 s before, 0.95 s after. A library
 * caller gets them as before.
 */
function withRedactedOnRead(outcome: Omit<RunOutcome, 'report' | 'exchanges'>, redacted: { report: () => RunOutcome['report']; exchanges: () => RunOutcome['exchanges'] }): RunOutcome {
  for (const [name, redact] of Object.entries(redacted)) {
    let value: unknown;
    Object.defineProperty(outcome, name, { enumerable: true, get: () => (value ??= redact()) });
  }
  return outcome as RunOutcome;
}

/** The report writers (renderers for every format), loaded only when a run writes reports; loading starts early, while the worker starts. */
export const reportWriters = () => import('../report/write.js');

/**
 * The run's settings: the options, their defaults, the embedded server when there is one,
 * and when the deadline falls (`deadlineSeconds` from `startedAt`). A named target's run
 * id derives from its name too, so the targets of a fleet (one seed) do not share one.
 */
function settingsFor(options: RunOptions, embedded: ReferenceServer | undefined, startedAt: Date): RunSettings {
  const seed = options.seed ?? freshSeed();
  const { reportDir: _reportDir, targetName, ...values } = options;
  const target = embedded ? undefined : options.baseUrl;
  const profile = options.profile ?? defaultProfile(target);
  return {
    ...withDefaults(values),
    connections: connectionsFor(values, target, profile),
    baseUrl: embedded?.baseUrl ?? options.baseUrl!,
    apiKey: embedded?.apiKey ?? options.apiKey ?? '',
    ...(targetName ? { targetName } : {}),
    ...(options.keySource ? { keySource: options.keySource } : {}),
    targetKind: embedded ? 'embedded' : 'external',
    seed,
    // A fleet's targets share one seed and one worker: ten hex characters keep a thousand of them apart (a clash is refused, fleet.ts).
    runId: targetName ? derivedHex(seed, `run-id/${targetName}`, 10) : derivedHex(seed, 'run-id', 6),
    channel: randomUUID(),
    userAgent: `petstore-conformance/${toolVersion}`,
    ...(options.command ? { command: options.command } : {}),
    profile,
    profileSource: options.profile ? 'explicit' : 'default',
    // Node reads NODE_TLS_REJECT_UNAUTHORIZED=0 as turning verification off: the run says so, as it says --insecure.
    insecure: Boolean(options.insecure) || (options.env ?? process.env).NODE_TLS_REJECT_UNAUTHORIZED === '0',
    // A status line on a terminal (a fleet's targets print nothing: their out is null).
    ...(options.out && (options.out as { isTTY?: boolean }).isTTY && !options.quiet ? { progress: true } : {}),
    ...(options.caPem ? { caPem: options.caPem } : {}),
    // Both or neither: prepare() refused one alone.
    ...(options.clientCertPem !== undefined ? { clientCertPem: options.clientCertPem, clientKeyPem: options.clientKeyPem! } : {}),
    ...(options.deadlineSeconds ? { deadlineAt: startedAt.getTime() + options.deadlineSeconds * 1000 } : {}),
  };
}
