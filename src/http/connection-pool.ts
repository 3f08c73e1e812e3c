import type { Dispatcher } from 'undici';
import { ConnectionLimit } from './connection-limit.js';

/** A dispatcher a slot can watch: undici's Agent emits `connect` and `disconnect` for its sockets. */
export type WatchedDispatcher = Dispatcher & {
  on(event: 'connect' | 'disconnect', listener: () => void): unknown;
  /** The HTTP version of the first status line of the connection (dispatcher.ts). */
  on(event: 'peerVersion', listener: (version: string | undefined) => void): unknown;
  /** A request's head is being written on the connection (dispatcher.ts). */
  on(event: 'requestWritten', listener: () => void): unknown;
  destroy(): Promise<void>;
};

/**
 * Connections the client closed whose close the target may not have seen yet, shared by a
 * pool's slots: a close reaches the target after a new connection may (a FIN and a SYN on
 * two sockets, handled in either order, and later on a loaded machine), so a cap on
 * connections may still count it. A close is seen once a connection opened after it is
 * answered: until then, every reset of a new connection may be its doing (a written request
 * is still sent again no more than load-policy's MAX_LIMIT_RESETS times). Taken as seen at
 * the first reset after it instead, a cap of 1 on a loaded machine failed 5 runs of 36.
 */
export class UnseenCloses {
  #made = 0;
  #seen = 0;

  /** Closes made so far. */
  get made(): number {
    return this.#made;
  }

  /** Closes the target may still count. */
  get count(): number {
    return this.#made - this.#seen;
  }

  /** Notes a close by the client: one it made, or one it knew would follow an answer. */
  noteClose(): void {
    this.#made++;
  }

  /** Notes an answer on a connection opened after `madeBefore` closes: the target has let those go. */
  answeredAfter(madeBefore: number): void {
    this.#seen = Math.max(this.#seen, madeBefore);
  }
}

/**
 * One of the pool's connections: its own single-connection dispatcher, so the pool
 * knows whether a request goes out on a connection kept alive from an earlier exchange
 * (RFC 9112 §9.3) or on a new one.
 */
export class ConnectionSlot {
  #dispatcher: WatchedDispatcher | undefined;
  #open = false;
  #connects = 0;
  #written = 0;
  /** Whether the open connection has carried an answer: the target holds it. */
  #answered = false;
  /** Whether the open connection closes after its current answer. */
  #closing = false;
  /** Whether the open connection's latest answer refused a request that had a body, perhaps unread. */
  #refusedBody = false;
  #peerVersion: string | undefined;
  #peerCloses = 0;
  /** {@link UnseenCloses.made} when the open connection was established. */
  #closesBefore = 0;
  readonly #onConnect = new Set<() => void>();
  /** Waiting for the open connection to close ({@link closed}). */
  readonly #onClose: Array<() => void> = [];

  constructor(
    /** The slot's number in its pool, from 1. */
    readonly index: number,
    private readonly make: () => WatchedDispatcher,
    /** The pool's closes the target may not have seen: this slot's add to them. */
    private readonly closes = new UnseenCloses(),
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
   * Whether a connection is open now and has carried an answer: one the target holds. Not
   * one that is closing after its answer (a HEAD's, a `Connection: close`): the target may
   * have let it go before the client's close is seen here.
   */
  get held(): boolean {
    return this.#open && this.#answered && !this.#closing;
  }

  /**
   * Connections of the slot closed other than by {@link discard} or {@link close}: by the
   * target, or by the client after an answer (a HEAD's, an idle one timed out).
   */
  get peerCloses(): number {
    return this.#peerCloses;
  }

  /** Notes that the open connection closes after the answer under way (RFC 9112 §9.6): it no longer counts as held. */
  noteClosing(): void {
    this.#closing = this.#open;
  }

  /** Notes an answer on the open connection. */
  noteAnswer(): void {
    this.#answered = this.#open;
  }

  /**
   * Whether the open connection's latest answer refused a request that had a body without
   * judging it (any refusal but 400): a server that refuses before it reads may leave the
   * body on the connection (RFC 9112 §9.3 asks it to read or close), and the next request
   * there may go unanswered.
   */
  get mayHoldUnreadBody(): boolean {
    return this.#open && this.#refusedBody;
  }

  /** Notes an answer on the open connection, and whether it refused a request that had a body, unread. */
  noteBodyAnswered(refused: boolean): void {
    this.#refusedBody = refused;
  }

  /** The pool's closes made before the open connection was established: an answer on it shows the target let them go. */
  get closesBefore(): number {
    return this.#closesBefore;
  }

  /** Request heads written so far, on every connection of the slot: a request that did not see it grow never left. */
  get written(): number {
    return this.#written;
  }

  /**
   * Calls `listener` at each connection the slot establishes from now on.
   * @returns a function that stops calling it.
   */
  onConnect(listener: () => void): () => void {
    this.#onConnect.add(listener);
    return () => this.#onConnect.delete(listener);
  }

  /**
   * Resolves once the open connection has closed (at once when none is open): a request
   * after which the client closes it (undici closes after every HEAD, RFC 9110 §9.3.2 having
   * no content to frame) waits for it, so that the target never holds it beside the next.
   */
  closed(): Promise<void> {
    return this.#open ? new Promise((resolve) => this.#onClose.push(resolve)) : Promise.resolve();
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
        this.#answered = false;
        this.#closing = false;
        this.#refusedBody = false;
        this.#connects++;
        this.#closesBefore = this.closes.made;
        this.#peerVersion = undefined;
        for (const listener of this.#onConnect) listener();
      });
      dispatcher.on('requestWritten', () => {
        if (this.#dispatcher === dispatcher) this.#written++;
      });
      dispatcher.on('peerVersion', (version) => {
        if (this.#dispatcher === dispatcher) this.#peerVersion = version;
      });
      dispatcher.on('disconnect', () => {
        if (this.#dispatcher !== dispatcher) return;
        // A close that follows an answer by rule (a HEAD's, a Connection: close) may be the client's.
        if (this.#closing) this.closes.noteClose();
        this.#open = false;
        this.#peerCloses++;
        for (const closed of this.#onClose.splice(0)) closed();
      });
      this.#dispatcher = dispatcher;
    }
    return this.#dispatcher;
  }

  /** Drops the dispatcher and its connection; the next request connects anew. */
  discard(): void {
    const old = this.#dispatcher;
    this.#dispatcher = undefined;
    if (this.#open) this.closes.noteClose();
    this.#open = false;
    for (const closed of this.#onClose.splice(0)) closed();
    void old?.destroy().catch(() => {});
  }

  async close(): Promise<void> {
    const old = this.#dispatcher;
    this.#dispatcher = undefined;
    this.#open = false;
    for (const closed of this.#onClose.splice(0)) closed();
    await old?.destroy();
  }
}

/** A request waiting for a slot: whose it is, whether it may probe, and how it is handed one. */
interface Waiter {
  key: string;
  mayProbe: boolean;
  start: (slot: ConnectionSlot) => void;
}

/**
 * Up to `size` connections to one target, each used by one request at a time, and no more
 * at once than the target holds ({@link ConnectionLimit}: a gateway's cap on connections
 * lowers it, answers raise it again). Requests wait here for a slot, not in undici's
 * queue: the caller decides on each request when it goes out, and its recorded duration
 * is its time on the wire.
 *
 * A slot that frees goes to the waiting request whose key (its check) has the fewest
 * requests on the wire, the longest waiting first among equals: max-min fair sharing. A
 * check that sends one request after another (a model-based sequence, a create then its
 * list) then waits for a slot at most while each other check takes one, not behind every
 * input a property has queued. With 30 ms of latency and 48 connections, a run's last
 * model-based sequence ended 587 ms into its requests, where a first-come queue ended it
 * at 650 ms (one run each).
 */
export class ConnectionPool {
  readonly #slots: ConnectionSlot[];
  /** Idle slots, most recently used last: a request takes the warmest connection. */
  readonly #idle: ConnectionSlot[];
  /** Requests waiting for a slot, in arrival order. */
  readonly #waiting: Waiter[] = [];
  /** Requests holding a slot, per key. */
  readonly #busy = new Map<string, number>();
  #inUse = 0;
  /** Answers whose held connections are being counted ({@link counted}). */
  readonly #counting = new Set<Promise<void>>();
  /** How many connections the target holds at once, as measured. */
  readonly limit: ConnectionLimit;
  /** Closes the target may not have seen yet. */
  readonly #closes = new UnseenCloses();

  /** @param make builds a slot's single-connection dispatcher (connections: 1). */
  constructor(size: number, make: () => WatchedDispatcher) {
    this.#slots = Array.from({ length: size }, (_, i) => new ConnectionSlot(i + 1, make, this.#closes));
    this.#idle = [...this.#slots].reverse();
    this.limit = new ConnectionLimit(size);
  }

  /** Requests on the wire now. */
  get inUse(): number {
    return this.#inUse;
  }

  /** Connections open now, idle ones included. */
  get open(): number {
    return this.#slots.filter((slot) => slot.open).length;
  }

  /** Connections the client closed that the target may still count ({@link UnseenCloses}). */
  get unseenCloses(): number {
    return this.#closes.count;
  }

  /**
   * Runs `fn` with a slot of its own, waiting for one to be free and for the target's limit.
   * @param key whose request it is (a check id): slots are shared fairly between keys.
   * @param mayProbe whether the request may go out beyond the most connections the target is
   *   known to hold ({@link ConnectionLimit.ceiling}), where it may be reset: only one the
   *   client may lose to a reset and send again.
   */
  async use<T>(fn: (slot: ConnectionSlot) => Promise<T>, key = '', mayProbe = true): Promise<T> {
    const slot = await new Promise<ConnectionSlot>((start) => {
      this.#waiting.push({ key, mayProbe, start });
      this.#dispatch();
    });
    try {
      return await fn(slot);
    } finally {
      this.#count(key, -1);
      this.#inUse--;
      this.#idle.push(slot);
      this.#dispatch();
    }
  }

  /**
   * Whether connections other than a request's own count at the target now, as a cap on
   * connections counts them: requests on the wire, or ones the client closed whose close the
   * target may not have seen ({@link UnseenCloses}: one closed to make way for the request's, a
   * HEAD's). Idle connections do not: a target that resets beside idle ones alone shows no
   * limit the run reached.
   */
  othersOpen(): boolean {
    return this.#inUse > 1 || this.#closes.count > 0;
  }

  /**
   * Notes a connection of `slot` reset before any response while others were open: the
   * target's limit (see ConnectionLimit), counting those held and those closed that it may
   * not have seen close ({@link UnseenCloses}). When the limit falls, idle connections beyond it are closed, so the target sees
   * no more than it holds.
   * @param epochAtStart the limit's epoch when the attempt started.
   */
  reset(slot: ConnectionSlot, epochAtStart: number): void {
    const others = this.#slots.filter((other) => other !== slot && other.held).length + this.#closes.count;
    if (!this.limit.reset(others, epochAtStart)) return;
    // Least recently used first: the idle list keeps the warmest last.
    for (const idle of this.#idle) if (this.open > this.limit.current && idle.open) idle.discard();
  }

  /** Notes an answer on `slot`: the limit may grow, and waiting requests may go out. */
  answered(slot: ConnectionSlot): void {
    slot.noteAnswer();
    this.#closes.answeredAfter(slot.closesBefore);
    this.#countHeld(this.limit.answered());
    this.#dispatch();
  }

  /**
   * Counts the connections the target held as an answer arrived, a turn of the event loop
   * later: those held then, less those the target closed before it answered. Such a close
   * reaches this process no later than the answer, but is seen only in the loop's close
   * phase, after the answer is handled; counted at once, it made a cap of 8 read as 9 in 2
   * runs of 20 on a loaded machine.
   */
  #countHeld(record: (heldOpen: number) => void): void {
    const held = this.#slots.filter((slot) => slot.held).map((slot) => [slot, slot.peerCloses] as const);
    const counted = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => record(held.filter(([slot, closes]) => slot.peerCloses === closes).length));
    this.#counting.add(counted);
    void counted.then(() => this.#counting.delete(counted));
  }

  /** Resolves once every answer so far has its count of held connections in the limit's record. */
  async counted(): Promise<void> {
    await Promise.all(this.#counting);
  }

  #count(key: string, by: 1 | -1): void {
    this.#busy.set(key, (this.#busy.get(key) ?? 0) + by);
  }

  /** Connections a request may hold open at once with the others: within the ceiling unless it may probe. */
  #allowed(mayProbe: boolean): number {
    return mayProbe ? this.limit.current : Math.min(this.limit.current, this.limit.ceiling);
  }

  /**
   * The warmest idle slot with an open connection for `key`, or the warmest idle one; a cold
   * one closes the coldest idle connection first when it would open more than allowed.
   */
  #take(key: string, mayProbe: boolean): ConnectionSlot {
    let warmest = this.#idle.length - 1;
    while (warmest > 0 && !this.#idle[warmest]!.open) warmest--;
    const [slot] = this.#idle.splice(this.#idle[warmest]!.open ? warmest : this.#idle.length - 1, 1) as [ConnectionSlot];
    if (!slot.open && this.open >= this.#allowed(mayProbe)) this.#idle.find((idle) => idle.open)?.discard();
    this.#count(key, 1);
    this.#inUse++;
    return slot;
  }

  /** Hands idle slots to the waiting requests of the keys with the fewest slots held, while the limit allows. */
  #dispatch(): void {
    const held = (waiter: Waiter) => this.#busy.get(waiter.key) ?? 0;
    while (this.#idle.length > 0) {
      let chosen = -1;
      for (let i = 0; i < this.#waiting.length; i++) {
        const waiter = this.#waiting[i]!;
        if (this.#inUse < this.#allowed(waiter.mayProbe) && (chosen < 0 || held(waiter) < held(this.#waiting[chosen]!))) chosen = i;
      }
      if (chosen < 0) return;
      const [waiter] = this.#waiting.splice(chosen, 1) as [Waiter];
      waiter.start(this.#take(waiter.key, waiter.mayProbe));
    }
  }

  /** Closes every connection; requests under way fail. */
  async close(): Promise<void> {
    await Promise.all(this.#slots.map((slot) => slot.close()));
  }
}
