import pLimit, { type LimitFunction } from 'p-limit';
import type { Dispatcher } from 'undici';

/** A dispatcher a slot can watch: undici's Agent emits `connect` and `disconnect` for its sockets. */
export type WatchedDispatcher = Dispatcher & {
  on(event: 'connect' | 'disconnect', listener: () => void): unknown;
  /** The HTTP version of the first status line of the connection (dispatcher.ts). */
  on(event: 'peerVersion', listener: (version: string | undefined) => void): unknown;
  destroy(): Promise<void>;
};

/**
 * One of the pool's connections: its own single-connection dispatcher, so the pool
 * knows whether a request goes out on a connection kept alive from an earlier exchange
 * (RFC 9112 §9.3) or on a new one.
 */
export class ConnectionSlot {
  #dispatcher: WatchedDispatcher | undefined;
  #open = false;
  #connects = 0;
  #peerVersion: string | undefined;
  readonly #onConnect = new Set<() => void>();

  constructor(
    /** The slot's number in its pool, from 1. */
    readonly index: number,
    private readonly make: () => WatchedDispatcher,
  ) {}

  /** `<slot>.<connection>` of the connection open now, or of the next one. */
  get connectionId(): string {
    return `${this.index}.${this.#open ? this.#connects : this.#connects + 1}`;
  }

  /** Whether a connection is open now (kept alive, or established by the request under way). */
  get open(): boolean {
    return this.#open;
  }

  /** The HTTP version the open connection's peer answers in (`HTTP/1.0`, `HTTP/1.1`), once it has answered. */
  get peerVersion(): string | undefined {
    return this.#peerVersion;
  }

  /** Connections established so far: a request that saw it grow reached the server. */
  get connects(): number {
    return this.#connects;
  }

  /**
   * Calls `listener` at each connection the slot establishes from now on.
   * @returns a function that stops calling it.
   */
  onConnect(listener: () => void): () => void {
    this.#onConnect.add(listener);
    return () => this.#onConnect.delete(listener);
  }

  /** The slot's dispatcher; with `fresh`, one that holds no kept-alive connection. */
  dispatcher(fresh: boolean): WatchedDispatcher {
    if (fresh && this.#open) this.discard();
    if (!this.#dispatcher) {
      const dispatcher = this.make();
      // Events of a discarded dispatcher no longer describe this slot.
      dispatcher.on('connect', () => {
        if (this.#dispatcher !== dispatcher) return;
        this.#open = true;
        this.#connects++;
        this.#peerVersion = undefined;
        for (const listener of this.#onConnect) listener();
      });
      dispatcher.on('peerVersion', (version) => {
        if (this.#dispatcher === dispatcher) this.#peerVersion = version;
      });
      dispatcher.on('disconnect', () => {
        if (this.#dispatcher === dispatcher) this.#open = false;
      });
      this.#dispatcher = dispatcher;
    }
    return this.#dispatcher;
  }

  /** Drops the dispatcher and its connection; the next request connects anew. */
  discard(): void {
    const old = this.#dispatcher;
    this.#dispatcher = undefined;
    this.#open = false;
    void old?.destroy().catch(() => {});
  }

  async close(): Promise<void> {
    const old = this.#dispatcher;
    this.#dispatcher = undefined;
    this.#open = false;
    await old?.destroy();
  }
}

/**
 * `size` connections to one target, each used by one request at a time. Requests wait
 * here for a slot, not in undici's queue: the caller decides on each request when it
 * goes out, and its recorded duration is its time on the wire.
 */
export class ConnectionPool {
  readonly #slots: ConnectionSlot[];
  /** Idle slots, most recently used last: a request takes the warmest connection. */
  readonly #idle: ConnectionSlot[];
  readonly #limit: LimitFunction;

  /** @param make builds a slot's single-connection dispatcher (connections: 1). */
  constructor(size: number, make: () => WatchedDispatcher) {
    this.#slots = Array.from({ length: size }, (_, i) => new ConnectionSlot(i + 1, make));
    this.#idle = [...this.#slots].reverse();
    this.#limit = pLimit(size);
  }

  /** Runs `fn` with a slot of its own, waiting for one to be free. */
  use<T>(fn: (slot: ConnectionSlot) => Promise<T>): Promise<T> {
    return this.#limit(async () => {
      const slot = this.#idle.pop()!; // the limit guarantees one is idle
      try {
        return await fn(slot);
      } finally {
        this.#idle.push(slot);
      }
    });
  }

  /** Closes every connection; requests under way fail. */
  async close(): Promise<void> {
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }
}
