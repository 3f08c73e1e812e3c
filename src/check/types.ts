// Imported so that the `declare module 'vitest'` below augments vitest's types, never shadows them.
import type {} from 'vitest';
import type { Exchange, RecordedRequest, RecordedResponse, TransportError } from '../core/exchange.js';

/** How much a check's outcome weighs (see the requirements catalogue). */
export type { CheckLevel } from '../requirements/catalogue.js';
import type { CheckLevel, RequirementId } from '../requirements/catalogue.js';

/** Outcome of one check. `error`: the check could not be evaluated (not a verdict on the rule). */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error';

/**
 * What a check relies on the target to do, beyond what it judges: `create`, that a valid
 * everyday create is answered 201 with its Category; `list`, that an authorized list is
 * answered 200 with a JSON array. A target that breaks one fails every check that needs it.
 */
export type Capability = 'create' | 'list';

/** What a check declares about itself; every field reaches the report. */
export interface CheckDefinition {
  /** Stable kebab-case id, unique in the suite (e.g. `create-rejects-missing-name`). */
  id: string;
  /** What holds when the check passes, as a short declarative sentence. */
  title: string;
  /** The spec clause enforced, as section and rule: `4.2/R2`, `5/R2`, `7`, `2`. */
  clause: string;
  level: CheckLevel;
  /** For `should` checks: the external standard enforced, e.g. `RFC 9110 §11.6.1`. */
  reference?: string;
  /** Ids of the requirements (src/requirements/catalogue.ts) the check tests. */
  requirements: RequirementId[];
  /**
   * The check sends bodies a server could turn into categories: a read-only run reports
   * it untested. Checks without it must keep to what the read-only profile lets through.
   */
  writes?: boolean;
  /**
   * The check sends the real key in a URL (a query parameter): against a target off
   * loopback it does not run unless `allowKeyInUrl` (servers, gateways and CDNs log URLs).
   */
  keyInUrl?: boolean;
  /** What it relies on the target to do (see {@link Capability}). */
  needs?: Capability[];
  /**
   * For property-based checks: the inputs of the coverage phase, in words, sent in every run
   * whatever the seed (an auditor sees what every run sends: `list --format json`).
   */
  coverage?: string[];
}

/** The exchange a failure is about, in the report's shape (secrets already redacted). */
export interface FailureRecord {
  message: string;
  /** What the judgement expected, in a few words (`status 201`), when it can say. */
  expected?: string;
  /** What it found instead (`status 200`). */
  found?: string;
  /** The requirements this evidence breaks, when the judgement knows them (Deviation.breaks): the failure counts against these alone (since 1.4). */
  breaks?: readonly string[];
  /** The defect, the same words wherever it shows: root causes fold on it (Deviation.defect; since 1.4). */
  defect?: string;
  /** Where in the response body the deviation lies, a JSON Pointer (`/0/id`; since 1.4). */
  pointer?: string;
  /** The check that made the exchange, when it is not the failing check itself (invariants). */
  checkId?: string;
  request: RecordedRequest;
  response?: RecordedResponse;
  error?: TransportError;
  /** A curl command that sends the request again, the key as `$PETSTORE_API_KEY` (added by the report). */
  curl?: string;
  /**
   * When the request's framing matters (a body sent in chunks, which curl sends in one):
   * the tool's replay of it, `<command> replay report.json <check>` (added by the report).
   */
  replay?: string;
}

/** A category the run created (there is no delete operation: users must know what was written). */
export interface CreatedCategory {
  /** The exact id as a decimal string (int64 does not fit a JS number); a malformed id as its JSON text; `unknown` when none came back. */
  id: string;
  name: string;
  checkId: string;
  /** Found in a list with the key, and told of by no create's answer: a refused create the server stored, or one whose answer was lost. */
  unannounced?: true;
}

/** How a property-based check ran (fast-check), for the report and for replay. */
export interface PropertyRecord {
  /** The check's own seed, derived from the run seed and the check id. */
  seed: number;
  /** Generated runs performed (up to the first failure). */
  numRuns: number;
  /** Coverage inputs the property has (each sent before the generated ones, in every run). */
  coverage?: number;
  numShrinks: number;
  /** fast-check's path to the shrunk counterexample. */
  path?: string;
  /** The shrunk counterexample, as fast-check prints it (secrets redacted). */
  counterexample?: string;
  /** A command line that replays the check with the same inputs. */
  replay?: string;
  /** Why shrinking stopped before a minimal input (its request budget, a timeout). */
  shrinkStopped?: string;
}

/** What a check hands to the runner, through vitest's `task.meta`. */
export interface CheckMeta extends CheckDefinition {
  /** The run (target) the check was registered for: a fleet's lane runs several in one worker. */
  runId: string;
  /** Set when the check did not end as plain pass/fail. */
  outcome?: { status: 'error' | 'skipped'; reason: string };
  failure?: FailureRecord;
  /** Set by property-based checks. */
  property?: PropertyRecord;
  /** Set when the run stopped sending while this check ran (budget, 429s, 5xx burst). */
  stopped?: string;
  /** Every exchange the check made, bodies capped for transport. */
  exchanges: Exchange[];
  /**
   * How many exchanges the check recorded, counted where it made them: a result that
   * reaches the runner with fewer has lost its evidence, and cannot pass (collector.ts).
   */
  recorded?: number;
  /** What the check observed beyond its verdict, e.g. a length limit found (section 8). */
  observations?: string[];
  /**
   * The key material of the credentials the check sent, for the runner's redactor, which
   * writes the files and the console: never itself written or printed.
   */
  secrets?: Array<{ value: string; shown: string }>;
  created: CreatedCategory[];
}

declare module 'vitest' {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
