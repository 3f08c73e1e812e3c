import type { Exchange } from './exchange.js';

/**
 * Every error the tool throws, each with a stable `code` that callers match on (as undici's
 * `lib/core/errors.js` does): messages may be reworded, codes may not.
 */
export type ErrorCode =
  | 'PCS_USAGE'
  | 'PCS_PROFILE_VIOLATION'
  | 'PCS_RUN_STOPPED'
  | 'PCS_ROUTE_HUNG'
  | 'PCS_TARGET_REFUSED'
  | 'PCS_CHECK_FAILURE'
  | 'PCS_CHECK_ERROR';

/** The base of the tool's errors. */
export abstract class PetstoreConformanceError extends Error {
  abstract readonly code: ErrorCode;
}

/**
 * Bad input to the tool (flags, environment, configuration): printed as one line and
 * ending the process with exit code 2, never with a stack trace.
 */
export class UsageError extends PetstoreConformanceError {
  override readonly name = 'UsageError';
  readonly code = 'PCS_USAGE';
}

/** A check tried to send what the run's profile forbids: a defect of the suite, never sent. */
export class ProfileViolation extends PetstoreConformanceError {
  override readonly name = 'ProfileViolation';
  readonly code = 'PCS_PROFILE_VIOLATION';
}

/** The run stopped sending: a budget is spent, the deadline passed, or the target refused or failed repeatedly. */
export class RunStopped extends PetstoreConformanceError {
  override readonly name = 'RunStopped';
  readonly code = 'PCS_RUN_STOPPED';
}

/**
 * The request was not sent, or no longer waited for, because its route hangs: an earlier
 * request on the same route got no response on an established connection, and nothing
 * on that route was answered since it was sent. `identical` says whether that earlier
 * request was this very request (method, path, credential and body): then its timeout is
 * evidence about this one too.
 */
export class RouteHung extends PetstoreConformanceError {
  override readonly name = 'RouteHung';
  readonly code = 'PCS_ROUTE_HUNG';
  constructor(
    message: string,
    /** The exchange that timed out first on the route. */
    readonly evidence: Exchange,
    readonly identical: boolean,
  ) {
    super(message);
  }
}

/** The target refused one request (429, 503 with Retry-After) for longer than the run's patience. */
export class TargetRefused extends PetstoreConformanceError {
  override readonly name = 'TargetRefused';
  readonly code = 'PCS_TARGET_REFUSED';
}

/** What a failed judgement expected and what it found, in a few words each (`status 201`, `status 200`). */
export interface Deviation {
  expected: string;
  found: string;
  /**
   * The requirements (catalogue ids, `R-2-CATEGORY`) this evidence breaks, when the
   * judgement knows them: the failure then counts against these alone, not against every
   * requirement its check serves (report/traceability.ts). A Category with a string id
   * breaks section 2's shape, never the key rule a sequence of requests also served.
   */
  breaks?: readonly string[];
  /**
   * The defect as data, the same wherever it shows (`a Category: /id must be integer
   * (found string)` in a create's answer and in a listed item): root causes fold on it
   * (report/findings.ts). Absent: the request and `found` identify the cause.
   */
  defect?: string;
  /** Where in the response body the deviation lies, as a JSON Pointer (`/0/id`): the body shown marks it. */
  pointer?: string;
}

/**
 * The target broke the rule a check enforces. Carries the exchange that shows it, which
 * the report quotes (request, response or transport error), and, when the judgement can
 * say it in a few words, what it expected and what it found (as Schemathesis' failures do).
 */
export class CheckFailure extends PetstoreConformanceError {
  override readonly name = 'CheckFailure';
  readonly code = 'PCS_CHECK_FAILURE';
  constructor(
    message: string,
    readonly exchange: Exchange,
    readonly deviation?: Deviation,
  ) {
    super(message);
  }
}

/**
 * The check could not be evaluated, for a reason that is not a verdict on its rule
 * (e.g. a precondition made by another check failed). Reported with status `error`.
 */
export class CheckError extends PetstoreConformanceError {
  override readonly name = 'CheckError';
  readonly code = 'PCS_CHECK_ERROR';
}

/** Each code's error class, for {@link hasCode}. */
interface ErrorsByCode {
  PCS_USAGE: UsageError;
  PCS_PROFILE_VIOLATION: ProfileViolation;
  PCS_RUN_STOPPED: RunStopped;
  PCS_ROUTE_HUNG: RouteHung;
  PCS_TARGET_REFUSED: TargetRefused;
  PCS_CHECK_FAILURE: CheckFailure;
  PCS_CHECK_ERROR: CheckError;
}

/**
 * Whether `error` is the tool's error of that code. Callers match on codes, as undici's
 * users do, not on classes: an error that crossed a module boundary twice (two copies of
 * the package, the worker's bundle and the CLI) is still recognised.
 */
export function hasCode<C extends ErrorCode>(error: unknown, code: C): error is ErrorsByCode[C] {
  return error instanceof Error && (error as { code?: unknown }).code === code;
}
