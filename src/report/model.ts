import type { ShownProxy } from '../config/proxy.js';
import type { RecordedRequest, RecordedResponse, TransportError } from '../core/exchange.js';
import type { RunSettings, SettingValues } from '../config/settings.js';
import type { Requirement } from '../requirements/catalogue.js';
import type { Capability, CheckLevel, CheckStatus, CreatedCategory, FailureRecord, PropertyRecord } from '../check/types.js';

/** Version of the report.json layout; bumped on incompatible change. */
export const REPORT_VERSION = '1.5';

/** The run's verdict: every `must` check passed, one failed, or the target could not be assessed. */
export type Verdict = 'conformant' | 'nonconformant' | 'error';

/** One check's outcome, as report.json holds it. */
export interface CheckResult {
  id: string;
  title: string;
  /** Spec clause as section and rule: `4.2/R2`, `5/R2`, `7`, `2`. */
  clause: string;
  level: CheckLevel;
  /** External standard for `should` checks, e.g. `RFC 9110 §11.6.1`. */
  reference?: string;
  /** Ids of the requirements the check tests (see `requirements` in the report). */
  requirements: string[];
  /** What it relies on the target to do: `create` (a valid create answered 201 with its Category), `list` (an authorized list answered 200 with an array). */
  needs?: Capability[];
  status: CheckStatus;
  /** Wall time of the check, in ms. */
  durationMs: number;
  /** Requests the check sent. */
  requests: number;
  /** Why the check was skipped or could not be evaluated. */
  reason?: string;
  /** The failing exchange, key redacted. */
  failure?: FailureRecord;
  /** Seed, runs, shrinks, and on failure the counterexample and replay command. */
  property?: PropertyRecord;
  /** What the check observed beyond its verdict, e.g. a length limit found (section 8). */
  observations?: string[];
  /** Its judgement of captured traffic (judge, proxy, run --traffic): exchanges judged, and how many broke its rule (since 1.2). */
  traffic?: { exchanges: number; failures: number; alone: boolean };
}

/**
 * Settings the report records: those the table declares `reported` (config/settings.ts),
 * and what the run derived from them (the seed, its run id, the profile and where it came from).
 */
export type ReportedSettings = Partial<SettingValues> & Pick<RunSettings, 'seed' | 'runId' | 'profile' | 'profileSource' | 'strict'>;

/** Counts of checks by status. */
export type StatusCounts = Record<CheckStatus, number>;

/** Where a run's time went: its fixed start cost, then its requests. */
export interface RunTiming {
  /** From the run's start to the first request a check sent, in ms: the start cost (the target's probe, the suite's worker, module loading). */
  firstCheckRequestMs: number;
  /** From the first check request's start to the last response's end, in ms. */
  requestsMs: number;
}

/**
 * The must checks: in all, those that ran (passed, failed or error: actively or on captured
 * traffic), those that did not (`untested`, so `ran + untested = must`), and of those that
 * ran, how many on captured traffic alone.
 */
export interface Coverage {
  must: number;
  ran: number;
  untested: number;
  /** Must checks judged on captured traffic alone, not actively (since 1.2); absent without traffic. */
  traffic?: number;
}

/** The captured traffic a report judged (judge, proxy, run --traffic), since 1.2. */
export interface TrafficSummary {
  /** The HAR files read (the proxy: none). */
  files: string[];
  /** Entries read. */
  entries: number;
  /** Exchanges of the interface judged. */
  judged: number;
  /** Entries left alone: another origin, path or method; no response; a refusal to wait out (429). */
  other: number;
  /** Judged exchanges whose body the capture did not keep, by which body. */
  missing: Record<string, number>;
  /** The first bodies not kept (at most 100), each with why: never judged, never guessed (since 1.2). */
  dropped?: Array<{ exchange: number; body: string; reason: string }>;
  /** Entries without the shape the judge reads (schemas/har-entry.schema.json): how many, and the first (at most 100) with why; the rest of the capture was judged (since 1.3). */
  invalid?: { entries: number; listed: Array<{ file: string; entry: number; reason: string }> };
  /** Captures that end before their JSON does, or break midway: judged up to their last whole entry (since 1.3). */
  truncated?: Array<{ file: string; entries: number; reason: string }>;
  /** What the reader read in place of what a recorder wrote amiss, by what (`a header field without a value, read as empty`): judged, and counted (since 1.4). */
  repaired?: Record<string, number>;
}

/** The gate of a run with known failures (`--known-failures`): which failures were accepted, which not. */
export interface Gate {
  /** Whether the gate lets the target through: no failure outside the known ones, no expired entry. */
  passed: boolean;
  /** Failed must checks listed as known failures that have not expired. */
  known: string[];
  /** Failed must checks no unexpired entry lists: these fail the gate. */
  new: string[];
  /** Unexpired entries whose check did not fail: reported, never failing the gate. */
  stale: string[];
  /** Entries past their day: each fails the gate until it is renewed or removed. */
  expired: Array<{ check: string; expires: string }>;
}

/** One root cause: the checks that failed with the same defect, or the same deviation on the same request. */
export interface Finding {
  /** `F1`, `F2`, … most checks first. */
  id: string;
  /** The deviation in one line: `POST /v1/categories → status 200, expected status 201`. */
  summary: string;
  /** The failed checks it explains. */
  checks: string[];
  /** The request the deviation was found on (since 1.1): grouping and "blocked by" match on it, never on `summary`'s words. */
  request?: { method: string; path: string };
  /** What was found there, in a few words (`status 200`). */
  found?: string;
  /** What each check expected instead. */
  expected?: string[];
  /** The defect the checks share, wherever it showed (`a Category: /id must be integer (found string)`; since 1.4). */
  defect?: string;
  /** Every request it was found on, when it folds several (since 1.4); `request` is the first. */
  requests?: Array<{ method: string; path: string }>;
}

/** The whole report.json. */
export interface Report {
  reportVersion: string;
  /** The tool, and how the user who ran it runs it (`npx petstore-conformance`): replay commands start with it (since 1.4). */
  tool: { name: string; version: string; command?: string };
  spec: { title: string; version: string };
  verdict: Verdict;
  /** One sentence saying why the verdict is what it is. */
  verdictReason: string;
  /**
   * The verdict as every headline shows it, with what it covers: `SELF-TEST (embedded
   * reference server): CONFORMANT`, `CONFORMANT within the read-only profile: 28 of 45 must
   * checks ran, 17 untested`, or the verdict alone (since 1.1).
   */
  headline: string;
  /** The must checks: in all, those that ran, those the profile left untested (since 1.1). */
  coverage: Coverage;
  /** With known failures only: what the gate made of the run (since 1.1). */
  gate?: Gate;
  /** The failures grouped by deviation, most checks first (since 1.1). */
  findings: Finding[];
  /**
   * What was checked; `proxy`: the proxy the environment names for it (credentials removed).
   * Kind `traffic`: judged from captured traffic alone, nothing sent (judge, proxy; since 1.2).
   */
  target: { baseUrl: string; kind: 'embedded' | 'external' | 'traffic'; proxy?: ShownProxy };
  /** ISO 8601. */
  startedAt: string;
  /** Wall time of the run, from its start to the report, in ms. */
  durationMs: number;
  /** Where the run's time went, in ms from its start (absent when no check sent a request). */
  timing?: RunTiming;
  /** The run's settings (the seed replays it), without the target and its secrets. */
  settings: ReportedSettings;
  /** Counts of checks by level and status; requests include the preflight probe. */
  summary: { byLevel: Record<CheckLevel, StatusCounts>; requests: number; requestsAnswered: number };
  checks: CheckResult[];
  /** The traceability matrix: every requirement of the spec → its checks → its outcome. */
  requirements: TracedRequirement[];
  /** What the spec marks "not shown": out of scope, so silence is not taken for coverage. */
  outOfScope: ReadonlyArray<{ clause: string; what: string }>;
  /** Categories the target reported as created during the run (no delete operation exists). */
  created: CreatedCategory[];
  /** The runner's reachability probe, before any check. */
  preflight?: { request: RecordedRequest; response?: RecordedResponse; error?: TransportError };
  /** Problems of the run itself (aborts, suite errors), not findings about the target. */
  runErrors: string[];
  /** Limits of the run the user should know, e.g. a key too short to redact inside text (since 1.1). */
  notices?: string[];
  /** The captured traffic judged, when there was some (since 1.2). */
  traffic?: TrafficSummary;
}

/** A requirement's outcome in a run. */
export type RequirementOutcome = 'passed' | 'failed' | 'untested' | 'inapplicable';

/** One row of the traceability matrix: requirement → checks → outcome. */
export interface TracedRequirement extends Requirement {
  outcome: RequirementOutcome;
  /** The checks that test it, with their statuses (and why they did not run, if they did not). */
  checks: Array<{ id: string; level: CheckResult['level']; status: CheckResult['status']; reason?: string }>;
}
