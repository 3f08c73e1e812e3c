import type { RequestSpec } from './client.js';
import type { Exchange } from './exchange.js';

/**
 * What a run may do to its target. `read-only` sends nothing that could create a
 * category, even on a server that ignores authentication and validation.
 */
export type Profile = 'full' | 'read-only';

/**
 * The only POST bodies a read-only run may send: text no JSON parser (strict or lenient)
 * can complete into an object, so no server can turn it into a category.
 */
export const UNPARSEABLE_BODIES: readonly string[] = ['{"name": '];

/** A check tried to send what the profile forbids: a defect of the suite, never sent. */
export class ProfileViolation extends Error {
  override readonly name = 'ProfileViolation';
}

/** The run stopped sending: a budget is spent or the target asked (429) or failed (5xx) repeatedly. */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}

/** Whether a request could write: any method but GET, HEAD and OPTIONS. */
export function mayWrite(spec: Pick<RequestSpec, 'method'>): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(spec.method.toUpperCase());
}

/** Limits of a run, each optional (absent: no limit). */
export interface Budgets {
  profile: Profile;
  /** Requests the run may send at most. */
  maxRequests?: number;
  /** Requests that could write (see {@link mayWrite}) the run may send at most. */
  maxWrites?: number;
}

/**
 * Decides before each request whether it may be sent: the profile (read-only sends no
 * write but the registered unparseable probes), the request and write budgets, and
 * whether the run has been stopped. Counts what it lets through.
 */
export class RequestGuard {
  #requests = 0;
  #writes = 0;
  #stopped: string | undefined;

  constructor(private readonly budgets: Budgets) {}

  /** Why the run stopped sending, if it did. */
  get stopped(): string | undefined {
    return this.#stopped;
  }

  /** Requests and writes let through so far. */
  get counts(): { requests: number; writes: number } {
    return { requests: this.#requests, writes: this.#writes };
  }

  /** Stops every later request, for `reason`. */
  stop(reason: string): void {
    this.#stopped ??= reason;
  }

  /**
   * Lets a request through or throws.
   * @throws ProfileViolation for a write a read-only run may not send.
   * @throws RunStopped when the run stopped or a budget is spent.
   */
  admit(spec: RequestSpec): void {
    const write = mayWrite(spec);
    if (write && this.budgets.profile === 'read-only') {
      const text = spec.body && 'text' in spec.body ? spec.body.text : undefined;
      if (spec.method.toUpperCase() !== 'POST' || text === undefined || !UNPARSEABLE_BODIES.includes(text)) {
        throw new ProfileViolation(`the read-only profile forbids ${spec.method} ${spec.path} with this body`);
      }
    }
    if (this.#stopped) throw new RunStopped(`not sent: ${this.#stopped}`);
    const { maxRequests, maxWrites } = this.budgets;
    if (maxRequests !== undefined && this.#requests >= maxRequests) {
      this.stop(`the request budget (--max-requests ${maxRequests}) is spent`);
      throw new RunStopped(`not sent: ${this.#stopped}`);
    }
    if (write && maxWrites !== undefined && this.#writes >= maxWrites) {
      throw new RunStopped(`not sent: the write budget (--max-writes ${maxWrites}) is spent`);
    }
    this.#requests++;
    if (write) this.#writes++;
  }
}

/** How long to honour a 429's Retry-After at most, in ms; longer asks stop the run. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** Retries of one request answered 429. */
export const MAX_429_RETRIES = 3;
/** Consecutive 5xx answers after which the run stops rather than hammer a failing target. */
export const FIVE_XX_BURST = 50;
/**
 * Consecutive 429 answers, across every request in flight, after which the run stops:
 * more than one answer per default connection, so a limiter that refuses one burst of
 * concurrent requests is waited out, and one that refuses everything is not hammered.
 */
export const PERSISTENT_429 = 20;

/**
 * Watches answers for a target that is overloaded or failing. A 429 is retried after its
 * Retry-After (RFC 9110 §10.2.3) when that is short, and holds back every request of the
 * run meanwhile: it says the client as a whole sent too many (RFC 6585 §4). 429s that
 * persist, and a burst of consecutive 5xx answers, stop the run.
 */
export class TargetHealth {
  #consecutive5xx = 0;
  #consecutive429 = 0;
  /** Until when (epoch ms) the target asked the run to hold back. */
  #holdUntil = 0;

  constructor(private readonly guard: RequestGuard) {}

  /**
   * How long to wait before retrying a 429, in ms, or undefined when the exchange is not
   * a 429 to retry (the run is stopped when retrying is not reasonable).
   * @param attempt retries already made for this request.
   */
  retryDelay(exchange: Exchange, attempt: number): number | undefined {
    if (exchange.response?.status !== 429) return undefined;
    const wait = retryAfterMs(exchange.response.headers['retry-after']) ?? 1_000;
    if (attempt >= MAX_429_RETRIES || wait > MAX_RETRY_AFTER_MS || this.#consecutive429 >= PERSISTENT_429) {
      this.guard.stop(`the target kept answering 429 Too Many Requests (Retry-After ${exchange.response.headers['retry-after'] ?? 'absent'}); lower --rate-limit`);
      return undefined;
    }
    this.#holdUntil = Math.max(this.#holdUntil, Date.now() + wait);
    return wait;
  }

  /** How long every request must still wait before it is sent, in ms (0 when the target asked for no pause). */
  holdMs(now = Date.now()): number {
    return Math.max(0, this.#holdUntil - now);
  }

  /** Notes an exchange's outcome; stops the run after a burst of consecutive 5xx. */
  observe(exchange: Exchange): void {
    const status = exchange.response?.status;
    if (status === undefined) return;
    this.#consecutive429 = status === 429 ? this.#consecutive429 + 1 : 0;
    this.#consecutive5xx = status >= 500 ? this.#consecutive5xx + 1 : 0;
    if (this.#consecutive5xx >= FIVE_XX_BURST) {
      this.guard.stop(`the target answered ${FIVE_XX_BURST} requests in a row with 5xx`);
    }
  }
}

/** A Retry-After value (delay-seconds or an HTTP-date) in ms from now, or undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether a URL's host is on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The profile of a run that chose none: `full` for the embedded server (`undefined`) and
 * loopback targets, `read-only` for every other, so no run writes to a remote target
 * unless a profile that allows it was chosen explicitly.
 */
export function defaultProfile(baseUrl: string | undefined): Profile {
  return baseUrl === undefined || isLoopback(baseUrl) ? 'full' : 'read-only';
}
