import pLimit, { type LimitFunction } from 'p-limit';
import { HeapPacer } from '../core/heap-pacer.js';
import { LARGE_BODY_BYTES, LargeBodyLeases } from './large-body-leases.js';

/** Large bodies read at once. */
export const LARGE_LANES = 2;
/** Bytes of a body that is not UTF-8 kept for its preview. */
export const PREVIEW_BYTES = 48;

/** A body as read: its text when it is UTF-8, else only its first bytes. */
export type ReadBody = { bytes: number } & ({ text: string } | { preview: Buffer });

/**
 * A deadline that can be paused: the time a request waits on the client itself (for a
 * large lane) is not the server's, and must not turn into a TIMEOUT finding.
 */
export class PausableDeadline {
  readonly #controller = new AbortController();
  #remaining: number;
  #since = 0;
  #timer: NodeJS.Timeout | undefined;

  /** @param ms the deadline, in ms from now. */
  constructor(ms: number) {
    this.#remaining = ms;
    this.resume();
  }

  /** Aborts, with a TimeoutError as AbortSignal.timeout does, when the time runs out. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  pause(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#remaining -= performance.now() - this.#since;
  }

  resume(): void {
    if (this.#timer !== undefined || this.#controller.signal.aborted) return;
    this.#since = performance.now();
    const timer = setTimeout(() => {
      // Decided after the loop's poll phase, not in its timers phase: when the thread was busy
      // (judging a list, collecting) past the deadline, its expired timers run before it reads
      // what arrived meanwhile, and an answer that came in time would be taken for a timeout.
      // Read then, it ends the request (clear), and the deadline has nothing to abort.
      setImmediate(() => {
        if (this.#timer === timer) this.#controller.abort(new DOMException('the request deadline passed', 'TimeoutError'));
      });
    }, Math.max(0, this.#remaining));
    this.#timer = timer;
  }

  /** Stops the timer for good. */
  clear(): void {
    this.pause();
  }
}

/** Decodes a body as it arrives, keeping text while it is UTF-8 and only a preview once it is not. */
class Decoding {
  // A byte order mark is kept: RFC 8259 §8.1 forbids adding one, and a should check says so.
  readonly #decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  #pieces: string[] | undefined = [];
  #preview = Buffer.alloc(0);
  bytes = 0;

  push(chunk: Buffer): void {
    if (this.#preview.byteLength < PREVIEW_BYTES) this.#preview = Buffer.concat([this.#preview, chunk.subarray(0, PREVIEW_BYTES - this.#preview.byteLength)]);
    this.bytes += chunk.byteLength;
    if (!this.#pieces) return;
    try {
      this.#pieces.push(this.#decoder.decode(chunk, { stream: true }));
    } catch {
      this.#pieces = undefined; // not UTF-8: from here on only the size counts
    }
  }

  done(): ReadBody {
    try {
      if (this.#pieces) return { bytes: this.bytes, text: this.#pieces.join('') + this.#decoder.decode() };
    } catch {
      // a truncated sequence at the end
    }
    return { bytes: this.bytes, preview: this.#preview };
  }
}

/** Thrown by {@link BodyReader.read} when a request gives way to the checks holding large-body leases. */
export class GaveWay extends Error {
  constructor(readonly bytes: number) {
    super(`the client stopped reading after ${bytes} bytes: a large body, and every large-body lease was taken; sent again once its check holds one`);
  }
}

/** Who a body is read for, and what is known of it before it is read. */
export interface BodyOwner {
  /** The check that sent the request. */
  owner: string;
  /** Its Content-Length, in bytes, else its cap. */
  expected: number;
  /** Whether the request may be sent again (RFC 9110 §9.2.2): it may then give way. */
  idempotent: boolean;
  /** The most bytes this response may have (see responseCap). */
  cap: number;
}

/**
 * The body grew past its cap (reading stopped there), or its Content-Length said it would.
 * The caller aborts the request, which closes its connection.
 */
export class BodyTooLarge extends Error {
  constructor(readonly cap: number) {
    super(`the body exceeded ${cap} bytes, the most this request's answer may have here`);
  }
}

/** Slack (bytes) an answer may have over what it echoes: headers of an Error, an id. */
export const ECHO_SLACK_BYTES = 64 * 1024;

/**
 * The most bytes the answer to a request may have. A list is as large as the store, up to
 * `maxResponseBytes`; any other answer is one Category echoing the body sent, or one Error,
 * so it is held to 8 times the body (`\uXXXX` escapes of every character at most sextuple
 * it) plus {@link ECHO_SLACK_BYTES}. Checks send creates in parallel (26 at once) and hold
 * their answers to judge them together: 26 answers of 16 MiB were 416 MB of strings.
 * @param method a method the request may be answered as: its own, or the one its override
 *   names (http/method-override.ts), which a server that honours it answers as (the client
 *   takes the larger cap of the two).
 * @param bodyBytes the request body, in bytes.
 */
export function responseCap(method: string, bodyBytes: number, maxResponseBytes: number): number {
  return method.toUpperCase() === 'GET' ? maxResponseBytes : Math.min(maxResponseBytes, ECHO_SLACK_BYTES + 8 * bodyBytes);
}

/**
 * Reads response bodies so that memory stays bounded whatever the target sends. The bytes
 * are decoded as they arrive (the raw bytes are never kept), a body that is not UTF-8 keeps
 * only its size and first bytes, and none is read past its cap ({@link responseCap}). Small bodies are read freely. Past
 * {@link LARGE_BODY_BYTES}, a body needs its check to hold a lease ({@link LargeBodyLeases};
 * else it gives way: {@link GaveWay}) and one of {@link LARGE_LANES} read lanes; while it
 * waits for a lane (another large body being read, a few ms), its socket is left unread
 * and its deadline paused. Once large bodies are seen, the heap is paced (HeapPacer) after
 * every large read, before every request and every 20 ms: judging them (text, parse
 * trees) makes garbage faster than V8 collects it on its own.
 */
export class BodyReader {
  readonly leases = new LargeBodyLeases();
  readonly #lanes: LimitFunction = pLimit(LARGE_LANES);

  /** @param pacer collects garbage when the heap has grown. */
  constructor(private readonly pacer = new HeapPacer()) {}

  /**
   * Resolves when `owner` may send a request (see LargeBodyLeases.admit); paces the heap
   * first once large bodies were seen.
   */
  admit(owner: string, signal?: AbortSignal): Promise<void> {
    if (this.leases.limit !== Infinity) this.pacer.pace();
    return this.leases.admit(owner, signal);
  }

  /**
   * Reads `body` whole.
   * @throws GaveWay when it must give way (the body is then destroyed); whatever reading
   *   the body throws (a reset, the deadline, the size cap).
   */
  async read(body: AsyncIterable<Buffer>, deadline: PausableDeadline, { owner, expected, idempotent, cap }: BodyOwner): Promise<ReadBody> {
    const decoding = new Decoding();
    const iterator = body[Symbol.asyncIterator]();
    const push = async (chunk: Buffer) => {
      decoding.push(chunk);
      if (decoding.bytes <= cap) return;
      await iterator.return?.();
      throw new BodyTooLarge(cap);
    };
    // Its Content-Length says it is too large: not a byte is read (the caller aborts the
    // request; ending an iterator that never started waited forever on undici's body).
    if (expected > cap) throw new BodyTooLarge(cap);
    for (;;) {
      const next = await iterator.next();
      if (next.done) return decoding.done();
      await push(next.value);
      if (decoding.bytes > LARGE_BODY_BYTES) break;
    }
    this.pacer.watch(20); // judging (parse trees) makes garbage between reads too
    const done = this.leases.large(owner, Math.max(expected, decoding.bytes), !idempotent);
    if (!done) {
      await iterator.return?.(); // destroys the body, and its connection with it
      throw new GaveWay(decoding.bytes);
    }
    deadline.pause();
    try {
      return await this.#lanes(async () => {
        deadline.resume();
        // Bounded by the size cap and the deadline, which abort the iteration.
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) await push(next.value);
        return decoding.done();
      });
    } finally {
      done(decoding.bytes);
      this.pacer.pace();
    }
  }
}
