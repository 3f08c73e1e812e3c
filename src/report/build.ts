import type { CheckLevel, CheckStatus, CreatedCategory, FailureRecord } from '../check/types.js';
import { shownProxy } from '../config/proxy.js';
import { reportedValues, type RunSettings } from '../config/settings.js';
import type { Exchange } from '../core/exchange.js';
import { unreachable } from '../check/preflight.js';
import { specVersion, toolVersion } from '../core/package-info.js';
import { REPORT_VERSION, type CheckResult, type Report, type RunTiming, type StatusCounts, type TrafficSummary } from './model.js';
import { curlCommand } from './curl.js';
import { DEFAULT_COMMAND } from '../config/replay.js';
import { OUT_OF_SCOPE, traceRequirements } from './traceability.js';
import { coverageOf, coverageShortfall, decideVerdict, headline, truncationShortfall } from './verdict.js';
import { gateOf } from './gate.js';
import { findingsOf, withBlockers } from './findings.js';
import type { KnownFailure } from '../config/known-failures.js';

/** What one run produced, as the runner collected it. */
export interface RunRecord {
  settings: RunSettings;
  startedAt: Date;
  durationMs: number;
  checks: CheckResult[];
  exchanges: Exchange[];
  created: CreatedCategory[];
  preflight?: Exchange;
  runErrors: string[];
  /** Set when the run was cut short (signal, deadline). */
  aborted?: string;
  /** Where the key came from, for messages (`the environment variable PETSTORE_API_KEY`). */
  keySource?: string;
  /** The accepted failures (`--known-failures`): the report then has a `gate`. */
  knownFailures?: KnownFailure[];
  /** What the user should know about the run's own limits (a short key's redaction). */
  notices?: string[];
  /** The captured traffic judged with (or instead of) the run: its checks' outcomes are already joined into `checks`. */
  traffic?: TrafficSummary;
  /** Why the target cannot be assessed, when the caller knows (a capture without one exchange of the interface). */
  unassessable?: string;
}

/** Builds report.json's content from a run record; pure (writers only render it). */
export function buildReport(record: RunRecord): Report {
  const { settings } = record;
  const answered = record.exchanges.filter((exchange) => exchange.response).length;
  const facts = assessability(record, answered);
  const probes = record.preflight ? 1 : 0;
  const probesAnswered = record.preflight?.response ? 1 : 0;
  const decided = decideVerdict(record.checks, { ...facts, runErrors: record.runErrors, strict: settings.strict });
  // A gate on coverage (--min-must-checks) stops a verdict that stands on too little; a must failure stands whatever the coverage.
  // So does a capture cut short, unless the cut is expected (--accept-truncated).
  const shortfall = decided.verdict === 'nonconformant' || !facts.assessable ? undefined : (coverageShortfall(record.checks, settings.minMustChecks, settings) ?? truncationShortfall(record.traffic, settings.acceptTruncated));
  const { verdict, reason } = shortfall ? { verdict: 'error' as const, reason: shortfall } : decided;
  const proxy = shownProxy(settings);
  const report: Report = {
    reportVersion: REPORT_VERSION,
    tool: { name: 'petstore-conformance', version: toolVersion, ...(settings.command ? { command: settings.command } : {}) },
    spec: { title: 'Pet Store Service: Categories Interface', version: specVersion },
    verdict,
    verdictReason: reason,
    headline: '',
    coverage: coverageOf(record.checks),
    findings: [],
    target: { baseUrl: settings.baseUrl, kind: settings.targetKind, ...(proxy ? { proxy } : {}) },
    startedAt: record.startedAt.toISOString(),
    durationMs: Math.round(record.durationMs),
    ...timing(record),
    settings: { ...reportedValues(settings), seed: settings.seed, runId: settings.runId, profile: settings.profile, profileSource: settings.profileSource, strict: settings.strict },
    summary: {
      byLevel: countByLevel(record.checks),
      requests: record.exchanges.length + probes,
      requestsAnswered: answered + probesAnswered,
    },
    checks: record.checks.map((check) => (check.failure ? { ...check, failure: withReproduction(check.failure, check.id, settings.command) } : check)),
    requirements: traceRequirements(record.checks),
    outOfScope: OUT_OF_SCOPE,
    created: record.created,
    runErrors: record.runErrors,
    ...(record.notices?.length ? { notices: record.notices } : {}),
    ...(record.traffic ? { traffic: record.traffic } : {}),
  };
  report.headline = headline(report);
  report.findings = findingsOf(report.checks);
  report.checks = withBlockers(report.checks, report.findings);
  if (record.knownFailures) report.gate = gateOf(record.checks, record.knownFailures, record.startedAt.toISOString().slice(0, 10), settings.strict);
  if (record.preflight) {
    const { request, response, error } = record.preflight;
    report.preflight = { request, ...(response ? { response } : {}), ...(error ? { error } : {}) };
  }
  return report;
}

/** The run's timing, from the checks' exchanges (the preflight probe is part of the start cost). */
function timing(record: RunRecord): { timing?: RunTiming } {
  // The keyed list of the preflight is part of the start cost, as the probe is.
  const sent = record.exchanges.filter((exchange) => exchange.checkId !== 'preflight');
  if (sent.length === 0) return {};
  let first = Infinity;
  let last = -Infinity;
  for (const exchange of sent) {
    const start = Date.parse(exchange.startedAt);
    first = Math.min(first, start);
    last = Math.max(last, start + exchange.durationMs);
  }
  return { timing: { firstCheckRequestMs: Math.max(0, first - record.startedAt.getTime()), requestsMs: Math.round(last - first) } };
}

function assessability(record: RunRecord, answered: number): { assessable: boolean; unassessableReason?: string } {
  if (record.unassessable) return { assessable: false, unassessableReason: record.unassessable };
  // A run stopped because the target refuses the key says so, with what to check.
  if (record.aborted) return { assessable: false, unassessableReason: setupProblem(record) ?? `the run was aborted: ${record.aborted}` };
  const probe = record.preflight;
  if (probe?.error && unreachable(probe)) {
    const proxy = shownProxy(record.settings);
    const via = proxy ? ` (through the proxy ${proxy.url} from ${proxy.variable}, unless NO_PROXY matches)` : '';
    // A certificate the run does not trust: the fix, with the cause.
    const tls = probe.error.code === 'TLS' && !/plain HTTP/.test(probe.error.message) ? '. A private CA: --ca-file FILE (or NODE_EXTRA_CA_CERTS); to skip verification as curl -k does: --insecure, said in every report' : '';
    return { assessable: false, unassessableReason: `the target is unreachable${via}: ${probe.error.code}: ${probe.error.message}${tls}` };
  }
  if (record.exchanges.length > 0 && answered === 0) {
    // An abandoned request is a consequence (its route hung): cite the failure that caused it.
    const first = (record.exchanges.find((exchange) => exchange.error?.code !== 'ABANDONED') ?? record.exchanges[0]!).error;
    // TLS 1.3 ends a handshake without the certificate a server asked for by closing the connection.
    const mutualTls =
      first?.code === 'CONNECTION_RESET' && record.settings.baseUrl.startsWith('https:') && !record.settings.clientCertPem
        ? '; a TLS server that closes every connection before answering may require a client certificate (--client-cert and --client-key)'
        : '';
    return { assessable: false, unassessableReason: `every request failed, first with ${first?.code}: ${first?.message}${mutualTls}` };
  }
  const setup = setupProblem(record);
  return setup ? { assessable: false, unassessableReason: setup } : { assessable: true };
}

/**
 * A wrong key or a wrong base URL, told from a broken server (Schemathesis warns alike,
 * its PRs #1572, #1578): every answered request that carried the configured key got the
 * same 401, 403 or 404. A server cannot be judged through a key it refuses or at a path
 * where it is not served, so the run is not assessable rather than nonconformant.
 */
function setupProblem(record: RunRecord): string | undefined {
  const refusedHeaders = headersRefused(record);
  if (refusedHeaders) return refusedHeaders;
  const withKey = record.exchanges.filter((exchange) => exchange.credential === 'valid' && exchange.response && !exchange.superseded);
  const status = withKey[0]?.response?.status;
  if (status === undefined || !withKey.every((exchange) => exchange.response!.status === status)) return undefined;
  const seen = `every request with the configured key (${withKey.length}) was answered ${status}`;
  const key = record.keySource ?? 'the API key';
  const base = record.settings.baseUrl;
  if (status === 401) return `${seen}: the target refuses the key. Check ${key}, and that the key belongs to ${base}`;
  if (status === 403) return `${seen}: the key is not allowed to use the categories interface. Check ${key} and its permissions at ${base}`;
  if (status === 404) return `${seen}: nothing is served at ${base}/categories. Check the base URL: it ends with the version segment /v1 where the service mounts it`;
  return undefined;
}

/**
 * Extra headers the target refuses: every answered request, whatever its credential,
 * carried them and got the same 4xx (but 401 and 404, which say more about the key and
 * the base URL). No conformant server answers a valid create and an
 * invalid credential alike, so the refusal is of what every request shares (a header
 * field too large: 431, RFC 6585 §5; a gateway's rule), not a finding about the interface.
 */
function headersRefused(record: RunRecord): string | undefined {
  const headers = record.settings.extraHeaders ?? [];
  if (headers.length === 0) return undefined;
  const answered = [...(record.preflight ? [record.preflight] : []), ...record.exchanges].filter((exchange) => exchange.response && !exchange.superseded);
  const status = answered[0]?.response?.status;
  // 401 and 404 to everything name the key and the base URL (setupProblem), headers or not.
  if (status === undefined || status < 400 || status > 499 || status === 401 || status === 404) return undefined;
  if (answered.length < 2 || !answered.every((exchange) => exchange.response!.status === status)) return undefined;
  const named = headers.map((header) => `${header.name} (${Buffer.byteLength(header.value)} bytes)`).join(', ');
  return `every request (${answered.length}) was answered ${status}, each carrying the configured header${headers.length > 1 ? 's' : ''} ${named}: the target refuses what they share. Check --header and --header-env`;
}

function countByLevel(checks: readonly CheckResult[]): Record<CheckLevel, StatusCounts> {
  const empty = (): StatusCounts => ({ passed: 0, failed: 0, skipped: 0, error: 0 });
  const counts: Record<CheckLevel, StatusCounts> = { must: empty(), should: empty(), info: empty() };
  for (const check of checks) counts[check.level][check.status as CheckStatus] += 1;
  return counts;
}

/**
 * A failure with the commands that send its request again: curl's, and, when the framing
 * matters (a body sent in more than one chunk, which curl sends in one), the tool's own
 * replay, run in the report's folder (`<command> replay report.json <check>`).
 */
function withReproduction(failure: FailureRecord, checkId: string, command = DEFAULT_COMMAND): FailureRecord {
  const framed = (failure.request.chunks?.length ?? 0) > 1;
  return { ...failure, curl: curlCommand(failure.request), ...(framed ? { replay: `${command} replay report.json ${checkId}` } : {}) };
}
