/**
 * `petstore-conformance judge FILE.har…`: a capture of traffic the suite did not send,
 * judged by the suite's rules (judge.ts) into the same report, formats and exit codes as
 * a run. Nothing is sent. The files are read as streams, one entry at a time.
 */
import { countOf } from '../core/words.js';
import { withDefaults, type Format, type RunSettings, type SettingValues } from '../config/settings.js';
import { toolVersion } from '../core/package-info.js';
import { buildReport } from '../report/build.js';
import { ConsoleFormat } from '../report/console.js';
import { writtenLines } from '../report/report-dir.js';
import type { CheckDefinition } from '../check/types.js';
import type { CheckResult, Report, TrafficSummary } from '../report/model.js';
import { visible } from '../report/visible.js';
import { exitCodeOf } from '../report/gate.js';
import type { KnownFailure } from '../config/known-failures.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { capturedExchange } from './capture.js';
import { credentialName, knownKey, registerCaptureSecrets } from './credentials.js';
import { CaptureCut, readHarEntries, type HarCreator } from './har-reader.js';
import { TrafficJudge, type Judgement, type TrafficFinding } from './judge.js';

/** What `judge` reads and writes. */
export interface JudgeOptions {
  /** The suite's checks (runner/list.ts): a judged rule reports under its check's definition. */
  checks: readonly CheckDefinition[];
  /** HAR 1.2 files, judged in the order given as one capture. */
  files: readonly string[];
  /** The interface's base URL, ending with `/v1`: exchanges elsewhere are counted and left alone. */
  baseUrl: string;
  /** The valid key, when the user knows it: a valid key answered 401 is then judged too (secret). */
  apiKey?: string;
  /** Lower-case names of header fields whose values are secret (`--header-env`'s names). */
  secretHeaders?: readonly string[];
  /** Where the report files go; null writes none. */
  reportDir: string | null;
  formats: readonly Format[];
  strict?: boolean;
  /** Fewest must checks judged for a verdict (`--min-must-checks`: a number, `all` or `profile`): fewer is not assessable (exit 3). */
  minMustChecks?: SettingValues['minMustChecks'];
  /** A capture cut short still gives a verdict on what it holds (`--accept-truncated`); else exit 3. */
  acceptTruncated?: boolean;
  /** Largest body kept per entry, in bytes (`--max-response-bytes`; default 16 MiB): a larger one is counted, not judged. */
  maxBodyBytes?: number;
  /** Ends the judging (the CLI's SIGINT, SIGTERM, SIGHUP): the report holds what was judged, exit 3. */
  signal?: AbortSignal;
  knownFailures?: KnownFailure[];
  /** Findings as they happen, then the summary; null prints nothing. */
  out: NodeJS.WritableStream | null;
  err?: NodeJS.WritableStream | null;
  color?: boolean;
  quiet?: boolean;
}

/** The judged capture: its report (redacted), exit code and files. */
export interface JudgeOutcome {
  report: Report;
  exitCode: number;
  written: string[];
}

/** The capture's judgement, before a report is built: for `judge` alone and for `run --traffic`. */
export interface JudgedTraffic {
  checks: CheckResult[];
  summary: TrafficSummary;
  notices: string[];
  /** Why the judgement cannot stand, when the tool failed while judging (the proxy's session ended by a failure of its own). */
  stopped?: string;
  /** Set when no exchange of the interface was found: why, and where the traffic went (a wrong --base-url). */
  nothingJudged?: string;
}

/** What follows a capture's judging as it happens, and what stops it. */
export interface JudgeHooks {
  /** Each failed judgement as it happens (printed by the CLI). */
  onFinding?: (finding: TrafficFinding) => void;
  /** Every judgement, passed or failed, as it is made. */
  onJudgement?: (judgement: Judgement) => void;
  /** Ends the judging after the entry at hand (a signal): what was judged is returned, `stopped` says why. */
  signal?: AbortSignal;
}

/**
 * Reads every file of a capture, registers the secrets it holds with `redactor`, and
 * judges each exchange of the interface. An entry without the shape the judge reads is
 * counted and named (`traffic.invalid`), and the rest judged; a file that ends early is
 * judged up to its last whole entry (`traffic.truncated`).
 * @throws UsageError when a file cannot be read, is not a regular file, or is not a HAR
 *   (not JSON from its start, or JSON without log.entries).
 */
export async function judgeTraffic(
  options: Pick<JudgeOptions, 'checks' | 'files' | 'baseUrl' | 'apiKey' | 'secretHeaders' | 'maxBodyBytes'>,
  redactor: Redactor,
  hooks: JudgeHooks = {},
): Promise<JudgedTraffic> {
  const judge = new TrafficJudge(options.baseUrl, options.checks, hooks.onJudgement);
  const secrets = new Map<string, string>();
  const truncated: NonNullable<TrafficSummary['truncated']> = [];
  let seq = 0;
  for (const file of options.files) {
    let creator: HarCreator | undefined;
    const reading = { onCreator: (found: HarCreator) => (creator = found), ...(hooks.signal ? { signal: hooks.signal } : {}), ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}) };
    try {
      for await (const item of readHarEntries(file, reading)) {
        if ('problem' in item) {
          judge.skipInvalid(file, item.index, item.problem);
          continue;
        }
        const { entry } = item;
        registerCaptureSecrets(entry, redactor, options.secretHeaders ?? [], secrets);
        const known = knownKey(options.apiKey, creator?.name);
        const exchange = capturedExchange(entry, ++seq, (authorization) => credentialName(authorization, known));
        if (!exchange) judge.skipUnreadable();
        else for (const finding of judge.judge(exchange)) hooks.onFinding?.(finding);
      }
    } catch (error) {
      if (!(error instanceof CaptureCut)) throw error;
      truncated.push({ file, entries: error.entries, reason: error.reason });
    }
    if (hooks.signal?.aborted) break;
  }
  const { entries, judged } = judge.counts;
  const seen = judge.otherOrigins();
  const stopped = hooks.signal?.aborted ? `${String(hooks.signal.reason)} while judging the capture, after ${countOf(entries, 'entry', 'entries')}` : undefined;
  return {
    checks: judge.results(),
    summary: { files: [...options.files], ...judge.counts, ...(truncated.length > 0 ? { truncated } : {}) },
    notices: [...truncated.map(({ file, entries: read, reason }) => `the capture ${file} ${reason}: judged up to its last whole entry (${read} entries)`), ...judge.notices()],
    ...(stopped !== undefined ? { stopped } : {}),
    ...(judged === 0 && stopped === undefined ? { nothingJudged: `no exchange of the interface at ${options.baseUrl} among the ${countOf(entries, 'entry', 'entries')} of the capture${seen.length > 0 ? `; they went to ${seen.slice(0, 3).join(', ')}` : ''}: check --base-url` } : {}),
  };
}

/**
 * Judges a capture and writes its report. Exit codes as `run`: 0 conformant within the
 * traffic, 1 a must rule broken by an exchange, 3 when no exchange of the interface was
 * found (nothing to judge), the capture ends early (without `--accept-truncated`), or a
 * signal stopped the judging (the report holds what was judged).
 * @throws UsageError for a file that cannot be read or is not HAR.
 */
export async function judgeCapture(options: JudgeOptions): Promise<JudgeOutcome> {
  const startedAt = new Date();
  const redactor = new Redactor();
  if (options.apiKey) redactor.add(options.apiKey, KEY_PLACEHOLDER);
  if (!options.quiet) options.out?.write(`petstore-conformance ${toolVersion}: judging ${options.files.length === 1 ? options.files[0] : `${options.files.length} captures`} as traffic of ${options.baseUrl}; nothing is sent\n`);
  const printFinding = findingPrinter((line) => options.out?.write(`${redactor.text(line)}\n`));
  const traffic = await judgeTraffic(options, redactor, { ...(options.quiet ? {} : { onFinding: printFinding }), ...(options.signal ? { signal: options.signal } : {}) });
  return reportTraffic(traffic, options, startedAt, redactor);
}

/**
 * Builds, prints and writes the report of judged traffic (judge, proxy): the console's
 * summary, then the report files (no HAR: `judge` holds the capture, the proxy writes its
 * own with `--har`).
 * @returns the report (redacted), the exit code (3 when no exchange of the interface was judged), the files written.
 */
export async function reportTraffic(traffic: JudgedTraffic, options: Omit<JudgeOptions, 'files'>, startedAt: Date, redactor: Redactor): Promise<JudgeOutcome> {
  const print = (text: string) => options.out?.write(`${text}\n`);
  const report = buildReport({
    settings: trafficSettings(options),
    startedAt,
    durationMs: Date.now() - startedAt.getTime(),
    checks: traffic.checks,
    exchanges: [],
    created: [],
    runErrors: [],
    notices: traffic.notices,
    traffic: traffic.summary,
    ...(options.knownFailures ? { knownFailures: options.knownFailures } : {}),
    ...(traffic.stopped !== undefined
      ? { unassessable: traffic.stopped }
      : traffic.nothingJudged !== undefined
        ? { unassessable: traffic.nothingJudged }
        : {}),
  });
  // Notices go to stderr as well: a capture cut short must not hide inside report.json.
  for (const notice of traffic.notices) options.err?.write(`petstore-conformance: notice: ${redactor.text(notice)}\n`);
  const format = new ConsoleFormat(options.color === true, report.settings.strict);
  print(redactor.text(options.quiet ? format.verdict(report) : format.summary(report)));
  const { writeReports } = await import('../report/write.js');
  const files = options.reportDir === null ? { written: [], failed: [] } : await writeReports(report, [], options.reportDir, options.formats.filter((f) => f !== 'har'), redactor);
  if (files.written.length > 0) print(writtenLines(files.written).join('\n'));
  for (const { path, reason } of files.failed) (options.err ?? options.out)?.write(`petstore-conformance: could not write ${path}: ${reason}\n`);
  if (files.failed.length > 0) (options.err ?? options.out)?.write(`petstore-conformance: the reports are incomplete (${files.failed.length} not written); the verdict above stands\n`);
  const { redactReport } = await import('../report/redact.js');
  return { report: redactReport(report, redactor), exitCode: exitCodeOf(report.verdict, report.gate), written: files.written };
}

/** Findings printed per check at most: a rule broken by every exchange of a gigabyte capture is one line of the report, not a million of the console. */
export const PRINTED_FINDINGS_PER_CHECK = 10;

/**
 * Prints each finding the moment it is found, one line with its exchange:
 * `✗ must   create-valid-bodies #12 POST /v1/categories → 400: Expected …`; past
 * {@link PRINTED_FINDINGS_PER_CHECK} of one check, one line says the rest are counted in the report.
 * @param print writes one line (redacted by the caller's redactor).
 */
export function findingPrinter(print: (line: string) => void): (finding: TrafficFinding) => void {
  const printed = new Map<string, number>();
  return (finding) => {
    const count = (printed.get(finding.checkId) ?? 0) + 1;
    printed.set(finding.checkId, count);
    if (count <= PRINTED_FINDINGS_PER_CHECK) print(`  ✗ ${finding.level.padEnd(6)} ${finding.checkId} #${finding.seq} ${finding.exchange}: ${visible(finding.message.split('\n', 1)[0]!)}`);
    else if (count === PRINTED_FINDINGS_PER_CHECK + 1) print(`  … ${finding.checkId}: further findings are counted in the report, not printed`);
  };
}

/** The settings a judged capture reports: the defaults, the base URL, and nothing sent. */
export function trafficSettings(options: Pick<JudgeOptions, 'baseUrl' | 'formats' | 'strict' | 'minMustChecks' | 'acceptTruncated'>): RunSettings {
  return {
    ...withDefaults({
      formats: [...options.formats],
      ...(options.strict ? { strict: true } : {}),
      ...(options.acceptTruncated ? { acceptTruncated: true } : {}),
      ...(options.minMustChecks !== undefined ? { minMustChecks: options.minMustChecks } : {}),
    }),
    baseUrl: options.baseUrl,
    apiKey: '',
    targetKind: 'traffic',
    seed: 0,
    runId: 'traffic',
    userAgent: `petstore-conformance/${toolVersion}`,
    profile: 'read-only',
    profileSource: 'default',
  };
}
