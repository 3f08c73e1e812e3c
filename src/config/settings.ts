/**
 * Everything a run needs to know about its target and limits. The runner builds it and
 * hands it to the suite's worker through vitest's `provide`; checks read it with
 * `inject('run')`.
 */
export interface RunSettings {
  /** The target's base URL, ending with `/v1`, no trailing slash (spec 9/R2). */
  baseUrl: string;
  /** The API key (secret: shown only as a placeholder). */
  apiKey: string;
  /** `embedded` when the runner started its own reference server for this run. */
  targetKind: 'embedded' | 'external';
  /** Deadline of one exchange, in ms. */
  timeoutMs: number;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: number;
  /** Keep-alive connections to the target at most. */
  connections: number;
  /** The run's seed: every generated input and random choice derives from it (`--seed`). */
  seed: number;
  /** Short tag derived from the seed, put in the names of created categories to find them. */
  runId: string;
  /** Runs of every property, overriding each property's own default (`--num-runs`). */
  numRuns?: number;
  /** Creates sent at once by the concurrency check (`--parallel-creates`). */
  parallelCreates: number;
  /** Requests a failing property may spend shrinking its counterexample (`--shrink-budget`). */
  shrinkBudget: number;
  /**
   * Independent work in flight at once (`--concurrency`): checks that run concurrently,
   * and the generated inputs of one property. Requests in flight stay bounded by
   * `connections`; dependent requests (create, then list) stay in order.
   */
  concurrency: number;
  /** Sent as User-Agent: `petstore-conformance/<version>`. */
  userAgent: string;
  /** What the run may do to the target; `read-only` sends nothing that could create a category. */
  profile: Profile;
  /** Whether the profile was chosen explicitly (flag or configuration) or by default. */
  profileSource: 'explicit' | 'default';
  /** Requests per second at most, shared by every check. */
  rateLimit?: number;
  /** How long the run waits on a target that refuses every request (429, 503 with Retry-After), in ms. */
  patienceMs: number;
  /** Requests the run may send at most. */
  maxRequests?: number;
  /** Requests that could write the run may send at most. */
  maxWrites?: number;
  /** Extra trusted CA certificates (PEM) for the target's TLS. */
  caPem?: string;
}

import { isLoopback } from './base-url.js';

/**
 * What a run may do to its target. `read-only` sends nothing that could create a
 * category, even on a server that ignores authentication and validation.
 */
export type Profile = 'full' | 'read-only';

/**
 * The profile of a run that chose none: `full` for the embedded server (`undefined`) and
 * loopback targets, `read-only` for every other, so no run writes to a remote target
 * unless a profile that allows it was chosen explicitly.
 */
export function defaultProfile(baseUrl: string | undefined): Profile {
  return baseUrl === undefined || isLoopback(baseUrl) ? 'full' : 'read-only';
}

/** Default deadline of one exchange, in ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Default cap on a response body: 16 MiB, far above any sane category list. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Default keep-alive connections to the target. */
export const DEFAULT_CONNECTIONS = 16;
/**
 * Default concurrency: as many as the default connections, so that on a remote target
 * independent requests share round trips instead of queueing behind each other.
 */
export const DEFAULT_CONCURRENCY = 16;
/** Default requests a failing property may spend on shrinking. */
export const DEFAULT_SHRINK_BUDGET = 500;
/** Default number of creates the concurrency check sends at once. */
export const DEFAULT_PARALLEL_CREATES = 16;

declare module 'vitest' {
  export interface ProvidedContext {
    run: RunSettings;
    /** Only checks whose id matches this regular expression run (`--checks`); null: all. */
    checkFilter: string | null;
  }
}
