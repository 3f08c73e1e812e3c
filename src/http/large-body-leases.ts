/** A body past this many bytes is large: reading it needs a lease (and a read lane). */
export const LARGE_BODY_BYTES = 1024 * 1024;
/**
 * Bytes of large bodies the checks holding leases are expected to keep at once. A check
 * keeps a body it judges as text and as a parse tree (about three times its size), so
 * 40 MiB of bodies is about 120 MB of heap: two checks at a time when the target sends
 * 16 MiB, 16 at once while its bodies stay under 2.5 MiB. Memory bounds this, not the
 * connections: 48 by default, so a target whose bodies pass 1 MiB is read by fewer.
 */
export const LARGE_BODIES_BUDGET_BYTES = 40 * 1024 * 1024;

/**
 * Which checks may receive large bodies. A check keeps the bodies it receives until it has
 * judged them, which the client cannot see; so once the target has sent a large body, a
 * check needs a lease before it sends anything, and keeps it until it ends (`release`).
 * There are as many leases as bodies of the largest size seen fit in
 * {@link LARGE_BODIES_BUDGET_BYTES}, at least one. Until a large body is seen, nobody waits.
 *
 * A request already under way when the first large body arrives cannot wait for a lease
 * on its connection (the lease holders could then lack connections), nor pause its read
 * (a server's write timeout would turn the client's wait into a reset). It gets a lease if
 * one is free; otherwise a GET is abandoned and sent again once its check holds a lease
 * (idempotent: RFC 9110 §9.2.2), and any other request reads on, over the budget.
 */
export class LargeBodyLeases {
  /** Bytes of the largest large body read whole. */
  #largestRead = 0;
  /** The sizes expected of the large bodies being read. */
  readonly #reading = new Set<{ expected: number }>();
  readonly #holders = new Set<string>();
  readonly #waiting: Array<() => void> = [];

  /** Leases in all: every check until a large body is seen. */
  get limit(): number {
    const largest = Math.max(this.#largestRead, ...[...this.#reading].map((body) => body.expected));
    return largest === 0 ? Infinity : Math.max(1, Math.floor(LARGE_BODIES_BUDGET_BYTES / largest));
  }

  /** Checks holding a lease now. */
  get holders(): number {
    return this.#holders.size;
  }

  /**
   * Resolves when `owner` may send a request: at once while no large body was seen or when
   * it holds a lease; else once it holds one. Ends its wait, without a lease, when `signal`
   * aborts (the run stopped: the request guard then refuses the request).
   */
  async admit(owner: string, signal?: AbortSignal): Promise<void> {
    // Each pass waits for a release, a change of the limit or the signal.
    while (!this.#tryHold(owner) && !signal?.aborted) {
      await new Promise<void>((wake) => {
        const done = () => (signal?.removeEventListener('abort', done), wake());
        this.#waiting.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /**
   * Notes a body for `owner` that has passed {@link LARGE_BODY_BYTES} and is expected to be
   * `expected` bytes long (its Content-Length, else the size cap).
   * @param mustRead the request is not idempotent: it reads on, with a lease over the limit.
   * @returns the function to call with the body's size once read (or given up), or
   *   undefined when the request must give way: no lease was free.
   */
  large(owner: string, expected: number, mustRead: boolean): ((bytes: number) => void) | undefined {
    const body = { expected };
    this.#reading.add(body);
    if (!this.#tryHold(owner)) {
      if (!mustRead) {
        this.#reading.delete(body);
        return undefined;
      }
      this.#holders.add(owner);
    }
    return (bytes) => {
      this.#reading.delete(body);
      this.#largestRead = Math.max(this.#largestRead, bytes);
      this.#wake(); // the limit may have grown back
    };
  }

  /** Ends `owner`'s lease, if it holds one, and lets the waiting checks try again. */
  release(owner: string): void {
    if (this.#holders.delete(owner)) this.#wake();
  }

  #tryHold(owner: string): boolean {
    if (this.limit === Infinity || this.#holders.has(owner)) return true;
    if (this.#holders.size >= this.limit) return false;
    this.#holders.add(owner);
    return true;
  }

  #wake(): void {
    for (const wake of this.#waiting.splice(0)) wake();
  }
}
