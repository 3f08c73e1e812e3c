import type { RequestSpec } from './request.js';
import { placedOverride } from './method-override.js';
import { requestLine, type Exchange } from '../core/exchange.js';
import { ProfileViolation, RunStopped } from '../core/errors.js';
import { keyMayGoInUrl, type RunSettings } from '../config/settings.js';

/** Methods that cannot write (RFC 9110 §9.2.1: safe), but TRACE, which no check sends. */
const SAFE = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Whether a request could write: any method but GET, HEAD and OPTIONS, and any request
 * whose method override (http/method-override.ts) names another, which a server that
 * honours it carries out instead.
 */
export function mayWrite(spec: Pick<RequestSpec, 'method'> & { credential?: Pick<RequestSpec['credential'], 'placed'> }): boolean {
  const override = placedOverride(spec.credential?.placed);
  return !SAFE.includes(spec.method.toUpperCase()) || (override !== undefined && !SAFE.includes(override));
}

/**
 * Limits of a run (settings of config/settings.ts), each optional but the profile (absent:
 * no limit); with the key and the target, the key is kept out of URLs off loopback.
 */
export type Budgets = Pick<RunSettings, 'profile' | 'maxRequests' | 'maxWrites' | 'deadlineSeconds' | 'deadlineAt'> & Partial<Pick<RunSettings, 'apiKey' | 'baseUrl' | 'allowKeyInUrl'>>;

/** Whether the URL `spec` is sent to (its path and the query its credential places) holds `apiKey`, as written or percent-encoded. */
function keyInUrl(spec: RequestSpec, apiKey: string): boolean {
  const url = spec.path + (spec.credential.placed?.query?.sent ?? '');
  return url.includes(apiKey) || url.includes(encodeURIComponent(apiKey));
}

/** Why a run stopped at its deadline (`deadlineSeconds`). */
export const deadlineReached = (seconds: number) => `the run's deadline of ${seconds} s was reached`;

/**
 * Decides before each request whether it may be sent: the profile (read-only sends no
 * request that could write, whatever its body), the request and write budgets, and
 * whether the run has been stopped. Counts what it lets through.
 */
export class RequestGuard {
  #requests = 0;
  #writes = 0;
  #stopped: string | undefined;
  readonly #stop = new AbortController();

  constructor(private readonly budgets: Budgets) {}

  /** Aborts when the run stops: waits for the target's pace end at once. */
  get signal(): AbortSignal {
    return this.#stop.signal;
  }

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
    this.#stop.abort(reason);
  }

  /**
   * Lets a request through or throws.
   * @throws ProfileViolation for a write a read-only run may not send, or the key in a URL to a target off loopback unasked.
   * @throws RunStopped when the run stopped or a budget is spent.
   */
  admit(spec: RequestSpec): void {
    const write = mayWrite(spec);
    // No body is safe to send: a server may store first and parse later, or count requests.
    if (write && this.budgets.profile === 'read-only') throw new ProfileViolation(`the read-only profile forbids ${spec.method} ${spec.path}`);
    // A backstop behind the checks' own (CheckDefinition.keyInUrl): no key reaches a remote target's access logs unasked.
    const { apiKey, baseUrl, allowKeyInUrl } = this.budgets;
    if (apiKey && baseUrl && !keyMayGoInUrl({ baseUrl, allowKeyInUrl }) && keyInUrl(spec, apiKey)) {
      throw new ProfileViolation(`the key goes in no URL to a target off loopback without --allow-key-in-url: ${spec.method} ${spec.path}`);
    }
    // Read off the clock, not only from the deadline's timer, which a busy loop fires late.
    const { maxRequests, maxWrites, deadlineAt, deadlineSeconds } = this.budgets;
    if (deadlineAt !== undefined && Date.now() >= deadlineAt) this.stop(deadlineReached(deadlineSeconds!));
    if (this.#stopped) throw new RunStopped(`not sent: ${this.#stopped}`);
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

  /**
   * Counts a connection a request opened beyond its first (undici connecting again after a
   * failed one) against the request budget: the target, or a proxy in front of it, sees
   * each as traffic.
   * @returns false when the budget is spent: the run is stopped, and the request should end.
   */
  countConnection(): boolean {
    const { maxRequests } = this.budgets;
    if (this.#stopped) return false;
    if (maxRequests !== undefined && this.#requests >= maxRequests) {
      this.stop(`the request budget (--max-requests ${maxRequests}) is spent (connections count too)`);
      return false;
    }
    this.#requests++;
    return true;
  }
}

/** Consecutive 5xx answers after which the run stops rather than hammer a failing target. */
export const FIVE_XX_BURST = 50;

/**
 * Answers to the configured key, each a 401 (or each a 403), after which the target is
 * taken to refuse the key and the run stops: every later request would be judged through
 * a key the target does not take, and the report would say "not assessable" anyway (a
 * key the target refuses, report/build.ts), after some 200 requests more.
 */
export const KEY_REFUSED_AFTER = 8;

/**
 * Watches answers for a target that is failing as a whole: a burst of consecutive 5xx
 * answers (an outage behind a gateway) stops the run, while isolated server errors among
 * normal answers are findings; so does a key refused from the first answers on.
 */
export class TargetHealth {
  #consecutive5xx = 0;
  /** Answers to the key so far, while every one was the same refusal; undefined once one was not. */
  #keyRefusals: { status: number; count: number } | undefined = { status: 0, count: 0 };
  /** Once the key has worked: the refusals of it in a row since its last other answer, how many to lists, and the first. */
  #revoked: { status: number; count: number; lists: number; first: string } | undefined;

  constructor(private readonly guard: RequestGuard) {}

  /** Notes an answer; stops the run after a burst of consecutive 5xx, or after the key's first answers all refused it. */
  observe(exchange: Exchange): void {
    const status = exchange.response?.status;
    if (status === undefined) return;
    this.#consecutive5xx = status >= 500 ? this.#consecutive5xx + 1 : 0;
    if (this.#consecutive5xx >= FIVE_XX_BURST) {
      this.guard.stop(`the target answered ${FIVE_XX_BURST} requests in a row with 5xx`);
    }
    if (exchange.credential === 'valid' && !exchange.superseded) this.#observeKey(status, exchange);
  }

  #observeKey(status: number, exchange: Exchange): void {
    const refusals = this.#keyRefusals;
    if (refusals === undefined) return this.#observeWorkingKey(status, exchange);
    if ((status !== 401 && status !== 403) || (refusals.count > 0 && status !== refusals.status)) {
      this.#keyRefusals = undefined; // the key works: refusals from now on are findings
      return;
    }
    this.#keyRefusals = { status, count: refusals.count + 1 };
    if (refusals.count + 1 >= KEY_REFUSED_AFTER) this.guard.stop(`the first ${KEY_REFUSED_AFTER} requests with the configured key were all answered ${status}: the target refuses the key`);
  }

  /**
   * After the key has worked: {@link KEY_REFUSED_AFTER} answers to it in a row that refuse it
   * alike, lists among them ({@link REVOKED_LISTS}), and nothing else between, are the key
   * revoked or changed while the run went on (a rotation, a gateway's quota): the user's or
   * the operator's change, not the server's nonconformance, so the run stops (exit 3) and
   * names the first request refused. A server that refuses the key to creates alone keeps
   * answering lists, and is judged.
   */
  #observeWorkingKey(status: number, exchange: Exchange): void {
    const streak = this.#revoked;
    if ((status !== 401 && status !== 403) || (streak !== undefined && status !== streak.status)) {
      this.#revoked = undefined;
      return;
    }
    const list = exchange.request.method === 'GET' ? 1 : 0;
    const now = streak ? { ...streak, count: streak.count + 1, lists: streak.lists + list } : { status, count: 1, lists: list, first: requestLine(exchange) };
    this.#revoked = now;
    if (now.count >= KEY_REFUSED_AFTER && now.lists >= REVOKED_LISTS) {
      this.guard.stop(`the target began refusing the key after it had worked: the last ${now.count} requests with it were answered ${status}, lists among them, the first ${now.first}; the key was revoked or changed while the run went on`);
    }
  }
}

/** Keyed lists among the refusals that take a key that had worked for revoked: a list is what every keyed request relies on. */
export const REVOKED_LISTS = 2;
