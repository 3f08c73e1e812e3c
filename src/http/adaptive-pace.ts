import { setTimeout as sleep } from 'node:timers/promises';

/** Requests per second the pace never falls below: a second per request bounds the cost of a lone early 429. */
export const MIN_RATE = 1;
/** After a refusal, the pace falls to this fraction of the rate the target accepted in the last second. */
export const DECREASE = 0.9;
/** What the pace decided about a refusal. */
export type RefusalDecision = { waitMs: number } | { stop: string };

/** Clock and timer of a pace (injectable, so tests control time). */
export interface PaceClock {
  /** Now, in ms. */
  now(): number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: PaceClock = {
  now: () => performance.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => {}),
};

/**
 * The run's pace toward a target that refuses requests sent too fast, shared by every
 * request. Unpaced until the first 429; then additive increase and multiplicative
 * decrease (AIMD): each accepted answer raises the rate by one request per second per
 * second, each 429 lowers it to {@link DECREASE} of what the target accepted in the
 * last second (once per refusal episode: requests already sent at the old pace do not
 * lower it again). Every refusal (a 429, or a 503 with Retry-After) also holds back every
 * request for its Retry-After: a 429 says the client as a whole sent too many (RFC 6585
 * §4), a 503 that the service is unavailable for that long. So the run settles near the
 * rate the target allows, and finishes in about its requests ÷ that rate.
 *
 * Patience bounds the waiting: a target that accepts nothing for longer than
 * `patienceMs`, or asks to wait longer than that, stops the run (not assessable).
 */
export class AdaptivePace {
  #rate = Infinity;
  #lastStart = -Infinity;
  #holdUntil = -Infinity;
  #decreasedAt = -Infinity;
  /** Start of the refusals since the last accepted answer. */
  #firstRefusalAt: number | undefined;
  /** Times of the answers accepted in the last second, oldest first. */
  readonly #accepted: number[] = [];

  /**
   * @param patienceMs how long the run waits on a target that accepts nothing, in ms.
   * @param signal ends every wait at once (the run stopped).
   */
  constructor(
    private readonly patienceMs: number,
    private readonly signal?: AbortSignal,
    private readonly clock: PaceClock = realClock,
  ) {}

  /** The current rate in requests per second; Infinity while the target refused nothing. */
  get rate(): number {
    return this.#rate;
  }

  /**
   * Waits until a request may start: after every hold, and one interval after the start
   * reserved before it. Returns at once while unpaced.
   */
  async ready(): Promise<void> {
    // Each pass either returns or waits for a hold that a new refusal set; refusals are
    // bounded by patience, and a stopped run ends every wait.
    while (!this.signal?.aborted) {
      const now = this.clock.now();
      const interval = Number.isFinite(this.#rate) ? 1000 / this.#rate : 0;
      const start = Math.max(now, this.#holdUntil, this.#lastStart + interval);
      this.#lastStart = start; // reserved: the next caller queues one interval behind
      if (start > now) await this.clock.sleep(start - now, this.signal);
      if (this.#holdUntil <= this.clock.now()) return;
    }
  }

  /** Notes an answer the target accepted (any status but a refusal): the rate grows. */
  accepted(): void {
    const now = this.clock.now();
    this.#firstRefusalAt = undefined;
    this.#accepted.push(now);
    this.#forget(now);
    if (Number.isFinite(this.#rate)) this.#rate += 1 / Math.max(1, this.#rate);
  }

  /**
   * Notes a refusal of a request sent at `sentAt` (ms, this pace's clock) that asked for
   * `waitMs`: holds every request back, and with `tooMany` (a 429) lowers the rate.
   */
  refused(sentAt: number, waitMs: number, tooMany = true): RefusalDecision {
    const now = this.clock.now();
    const waitedSince = (this.#firstRefusalAt ??= now);
    const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
    if (waitMs > this.patienceMs) {
      return { stop: `the target asked to wait ${seconds(waitMs)} (Retry-After), longer than the run's patience of ${seconds(this.patienceMs)}` };
    }
    if (now + waitMs - waitedSince > this.patienceMs) {
      return { stop: `the target refused every request (429 or 503) for ${seconds(now - waitedSince)}, past the run's patience of ${seconds(this.patienceMs)}` };
    }
    this.#holdUntil = Math.max(this.#holdUntil, now + waitMs);
    if (tooMany && sentAt >= this.#decreasedAt) {
      this.#forget(now);
      this.#rate = Math.max(MIN_RATE, Math.min(this.#rate, this.#accepted.length) * DECREASE);
      this.#decreasedAt = now;
    }
    return { waitMs };
  }

  /** Drops accepted answers older than one second. */
  #forget(now: number): void {
    while ((this.#accepted[0] ?? Infinity) <= now - 1000) this.#accepted.shift();
  }

  /** This pace's clock, for callers that stamp send times. */
  now(): number {
    return this.clock.now();
  }
}
