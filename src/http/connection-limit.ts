/**
 * How many connections the run holds open to its target at once, found by measuring, as
 * TCP's congestion control (RFC 5681) and Envoy's adaptive concurrency find a peer's
 * limit: gateways cap connections per client (nginx `limit_conn`, HAProxy `maxconn`, a
 * cloud load balancer) and reset the ones beyond. The limit starts at `--connections`;
 * a connection reset before any response while others were open lowers it to the
 * connections the target held open at that moment (never more than one fewer than
 * before), and each answer raises it by one connection per round of answers (additive
 * increase). A limit the run meets is the target's policy, never its fault.
 *
 * Past a reset, a connection beyond the most the target was seen to hold is a probe: the
 * target may reset it again. Only a request that may be lost to a reset and sent again goes
 * out as one (ConnectionPool's `mayProbe`); the others stay within {@link ConnectionLimit.ceiling}.
 * At a cap of 1, additive increase probes after every answer: without this, one create was
 * the probe six times running and its sixth reset was taken for its answer.
 */

/** What the run learnt of the target's limit, for the report. */
export interface ConnectionLimitRecord {
  /** Connections reset (or refused) before any response while others were open, whose request was answered when sent again: the limit, confirmed. */
  resets: number;
  /** The most connections the target held open at once while it answered. */
  mostHeld: number;
  /** The most connections the run held open at once while answered, after its first reset: what it used. */
  used: number;
}

export class ConnectionLimit {
  #value: number;
  /** Decreases so far: a reset of a connection opened before the latest one does not lower the limit again. */
  #epoch = 0;
  #resets = 0;
  #mostHeld = 0;
  #usedAfterReset = 0;
  /** Whether a reset lowered the limit: answers from then on show what the run used. */
  #met = false;
  /** The most connections the target is known to hold since the latest reset (Infinity before any). */
  #ceiling = Infinity;

  /** @param max the connections the run may open at most (`--connections`). */
  constructor(readonly max: number) {
    this.#value = max;
  }

  /** Connections the run may hold open now (1 at least). */
  get current(): number {
    return Math.max(1, Math.floor(this.#value));
  }

  /**
   * The most connections the target is known to hold at once: the limit a reset lowered it
   * to, raised by each answer that came while the target held more (Infinity before any reset).
   * A connection beyond it is a probe.
   */
  get ceiling(): number {
    return this.#ceiling;
  }

  /** The count of decreases so far, as an attempt notes it when it starts (see {@link reset}). */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Notes a connection reset before any response while others were open.
   * @param heldOpen the other connections open at that moment: what the target holds.
   * @param epochAtStart {@link epoch} when the attempt started: one that started before the
   *   latest decrease was sent at the old limit and lowers it no further.
   * @returns whether the limit fell.
   */
  reset(heldOpen: number, epochAtStart: number): boolean {
    if (epochAtStart < this.#epoch) return false;
    this.#value = Math.max(1, Math.min(this.current - 1, heldOpen));
    this.#ceiling = this.current;
    this.#epoch++;
    this.#met = true;
    return true;
  }

  /**
   * Notes an answer: the limit grows by 1 ÷ limit (one connection per round of answers).
   * @returns records the connections the target held as it answered, once they are known
   *   (ConnectionPool counts them a turn of the event loop later): the most held, what the
   *   run used when the answer came after a reset, and a ceiling the answer proved too low.
   */
  answered(): (heldOpen: number) => void {
    const afterReset = this.#met;
    const epoch = this.#epoch;
    this.#value = Math.min(this.max, this.#value + 1 / this.current);
    return (heldOpen) => {
      this.#mostHeld = Math.max(this.#mostHeld, heldOpen);
      // An answer from before the latest reset proves nothing against it.
      if (epoch === this.#epoch) this.#ceiling = Math.max(this.#ceiling, heldOpen);
      if (afterReset) this.#usedAfterReset = Math.max(this.#usedAfterReset, heldOpen);
    };
  }

  /** Notes a request answered after `resets` of its connections were reset: those resets were the limit, confirmed. */
  confirmed(resets: number): void {
    this.#resets += resets;
  }

  /** What the run learnt, once it met a limit; undefined when no reset was confirmed. */
  record(): ConnectionLimitRecord | undefined {
    return this.#resets === 0 ? undefined : { resets: this.#resets, mostHeld: this.#mostHeld, used: this.#usedAfterReset };
  }
}
