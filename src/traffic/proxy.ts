/**
 * The validating proxy's forwarding (`petstore-conformance proxy`): a reverse proxy in
 * front of the target that forwards every exchange unaltered (bodies streamed as they
 * arrive, header fields kept but the hop-by-hop ones, RFC 9110 §7.6.1) and hands each, as
 * it completes, to whoever judges it (proxy-judge.ts, in a thread of its own: see
 * proxy-session.ts). The client's exchange never waits on a judgement, and a judgement
 * that errs never touches it. The target is reached through undici, as a run reaches it
 * (http/dispatcher.ts).
 */
import { ANSWER_DEADLINE_MS } from './answer-deadline.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import { SETTINGS } from '../config/settings.js';
import { MAX_HEADER_BYTES, upstreamDispatcher, type UpstreamDispatcher } from '../http/dispatcher.js';
import type { HarPair } from './har-reader.js';

/**
 * One exchange as the proxy forwarded it, raw: what a judge reads (proxy-judge.ts). Plain
 * data and byte arrays, so that it crosses to the judge's thread without a copy.
 */
export interface ForwardedExchange {
  /** When the request arrived and when the answer was forwarded whole, in ms since the epoch. */
  startMs: number;
  endMs: number;
  method: string;
  /** The URL the target was asked for. */
  url: string;
  /** The client's header lines as it sent them (name, value, …): where secrets are found. */
  clientHeaders: string[];
  /** The header lines the target received (name, value, …): the end-to-end fields and the target's Host. */
  forwardedHeaders: string[];
  requestBody: ForwardedBody;
  status: number;
  responseHeaders: string[];
  responseBody: ForwardedBody;
  /** The HTTP version of the target's status line (`HTTP/1.0`), when undici saw it. */
  peerVersion?: string;
  /** Set when the target sent no answer by the deadline, and why (`status` is then 0, as browsers record a failed request): recorded, never judged. */
  unanswered?: string;
}

/** A body as it streamed through: its first bytes, up to the cap, and how many there were in all. */
export interface ForwardedBody {
  kept: Uint8Array;
  /** Bytes forwarded in all (more than `kept` holds when the body passed the cap). */
  bytes: number;
}

/** How the proxy listens, where it forwards, and whom it hands each exchange. */
export interface ProxyOptions {
  /** The target's base URL, ending with `/v1`: `/v1/…` on the proxy is forwarded to `<target>/…`. */
  target: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /**
   * Opens the connection to the target that stands for one client connection
   * (http/dispatcher.ts `upstreamDispatcher`: the environment's proxy, extra CAs, a client
   * certificate); default direct.
   */
  connectUpstream?: () => UpstreamDispatcher;
  /** Each exchange once its answer was forwarded whole, or the proxy's 504 sent in its place (`unanswered`). What it throws is counted by `onJudgeError`, never the client's. */
  onForwarded: (exchange: ForwardedExchange) => void;
  /**
   * Asked as each request arrives: a promise holds it, unread, until the promise settles
   * (the HAR's writer catching up: judging.ts), so that no exchange goes unrecorded and none
   * is held in memory; undefined forwards it at once.
   */
  admit?: () => Promise<void> | undefined;
  /** The target failed an exchange (refused, reset, timed out): the client's connection is closed, as the target's was. */
  onTargetError?: (error: Error, request: string) => void;
  /** `onForwarded` threw (a defect of the tool): counted, reported, never the client's. */
  onJudgeError?: (error: unknown) => void;
  /** How long the target has to send an answer's head (ms; default {@link ANSWER_DEADLINE_MS}): past it, the client gets the proxy's 504. */
  answerDeadlineMs?: number;
  /** The target had not answered `request` by the deadline: the client got a 504, the exchange is not judged. */
  onUnanswered?: (request: string, deadlineMs: number) => void;
  /** Body bytes kept for judging, per body (`--max-response-bytes`, and its default); a larger body is forwarded whole and judged as cut short. */
  maxBodyBytes?: number;
}

/** A running proxy. */
export interface RunningProxy {
  /** `http://127.0.0.1:PORT/v1`: where clients point. */
  baseUrl: string;
  /**
   * Stops accepting, gives the exchanges in flight `graceMs` to complete, then cuts the
   * rest (client and target connections alike) and closes every connection.
   * @returns how many exchanges in flight, or held unforwarded, were cut.
   */
  close(graceMs?: number): Promise<number>;
}

/**
 * The proxy's own answer when the target has not answered by the deadline: 504 with an
 * Error body (section 7's shape) and `Proxy-Status` (RFC 9209), which say it is the proxy's.
 */
function gatewayTimeout(deadlineMs: number): { headers: string[]; body: string } {
  const body = JSON.stringify({ code: 'gateway_timeout', message: `the target did not answer within ${deadlineMs / 1000} s (said by the petstore-conformance proxy, not the target)`, status: 504 });
  return { headers: ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body)), 'Proxy-Status', 'petstore-conformance; error=connection_timeout'], body };
}

/**
 * Header fields that belong to one connection, never forwarded (RFC 9110 §7.6.1); `host`,
 * which names the proxy (the target's is sent); and `expect`, which the proxy meets itself
 * (Node answers 100 Continue to the client, RFC 9110 §10.1.1), sending the body on at once.
 */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

/**
 * Starts the proxy. Each client connection gets a connection of its own to the target,
 * opened and closed with it: a connection the target closes while idle closes the
 * client's, so a client's kept-alive connection is stale exactly when the target's is,
 * and the client decides what to send again, as it would talking to the target. The proxy
 * sends nothing again (RFC 9110 §9.2.2: a proxy MUST NOT retry a non-idempotent request):
 * a failure of the target reaches the client as the broken connection it was.
 * @throws the listen error (EADDRINUSE, EACCES) when the port cannot be taken.
 */
export async function startValidatingProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  const connectUpstream = options.connectUpstream ?? (() => upstreamDispatcher({}));
  /** Each client connection's own connection to the target, and whether a request is under way on it. */
  const upstreams = new Map<Socket, { dispatcher: UpstreamDispatcher; busy: boolean; closed: boolean }>();
  const maxBody = options.maxBodyBytes ?? SETTINGS.maxResponseBytes.default;
  /** The exchanges in flight, each with what cuts it. */
  const inFlight = new Map<Promise<void>, () => void>();
  /** Requests held by `admit`, not yet forwarded. */
  let held = 0;
  const sockets = new Set<Socket>();

  const handle = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const startMs = Date.now();
    const room = options.admit?.();
    if (!room) return forward(incoming, outgoing, startMs);
    held++;
    // A client gone while its request was held (the proxy stopped) has nothing left to forward.
    void room.then(() => {
      held--;
      if (!incoming.socket.destroyed) forward(incoming, outgoing, startMs);
    });
  };

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse, startMs: number) => {
    const path = incoming.url ?? '/';
    // The proxy serves the interface at /v1: what is under it goes under the target's base path, anything else to the target's origin.
    const upstreamPath = path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?') ? `${basePath}${path.slice(3)}` : path;
    const method = incoming.method ?? 'GET';
    // What goes upstream, as the target receives it: the end-to-end fields in order, the target's Host.
    const fields = [...forwardedPairs(incoming.rawHeaders), 'host', target.host];
    const requestBody = new CappedBuffer(maxBody);
    const chunked = incoming.headers['content-length'] === undefined && incoming.headers['transfer-encoding'] !== undefined;
    const hasBody = chunked || (incoming.headers['content-length'] !== undefined && incoming.headers['content-length'] !== '0');
    // The body is kept as undici reads it on its way upstream, at the target's pace.
    const piped = hasBody ? incoming.pipe(new Transform({ transform: (chunk: Buffer, _encoding, done) => (requestBody.add(chunk), done(null, chunk)) })) : null;
    // A chunked body goes upstream chunked, as it came. undici frames a stream that has ended
    // by the time it writes with a Content-Length (util.bodyLength): the target would get one
    // framing or the other by timing (a 411 policy seen in one run of three under load). An
    // async iterable has no length: undici always sends it chunked.
    // (undici's dispatch reads async iterables, core/request.js; its types leave them out.)
    const body = (piped && chunked ? chunksOf(piped) : piped) as Dispatcher.DispatchOptions['body'];
    if (!hasBody) incoming.resume();
    let abortUpstream: ((error: Error) => void) | undefined;
    const upstream = upstreams.get(incoming.socket)!;
    // A request on a connection the target has closed meets a closed connection, as it would at the target.
    if (upstream.closed) {
      incoming.socket.destroy();
      return;
    }
    upstream.busy = true;
    const deadlineMs = options.answerDeadlineMs ?? ANSWER_DEADLINE_MS;
    let deadline: NodeJS.Timeout | undefined;
    const handOn = (exchange: ForwardedExchange) => {
      try {
        options.onForwarded(exchange);
      } catch (error) {
        options.onJudgeError?.(error);
      }
    };
    const asForwarded = (rest: Pick<ForwardedExchange, 'status' | 'responseHeaders' | 'responseBody' | 'unanswered'>): ForwardedExchange => ({
      startMs,
      endMs: Date.now(),
      method,
      url: `${target.origin}${upstreamPath}`,
      clientHeaders: incoming.rawHeaders,
      // What the target received: the chunked framing is the proxy's own hop, the same as the client's.
      forwardedHeaders: chunked ? [...fields, 'transfer-encoding', 'chunked'] : fields,
      requestBody: requestBody.taken(),
      ...rest,
      ...(upstream.dispatcher.peerVersion ? { peerVersion: upstream.dispatcher.peerVersion } : {}),
    });
    const done = new Promise<void>((resolve) => {
      let answer: { status: number; rawHeaders: string[]; body: CappedBuffer; framing: BodyFraming; received: number } | undefined;
      let unanswered = false;
      // No head from the target by the deadline: the client gets the proxy's 504, and the target's late answer goes nowhere.
      deadline = setTimeout(() => {
        unanswered = true;
        const { headers, body: text } = gatewayTimeout(deadlineMs);
        if (!outgoing.headersSent) outgoing.writeHead(504, [...headers, 'Connection', 'close']).end(text);
        options.onUnanswered?.(`${method} ${upstreamPath.split('?', 1)[0]}`, deadlineMs);
        // The 504 says Connection: close, so Node ends the client's connection after it, and the client's close ends the target's.
        abortUpstream?.(new Error(`no answer within ${deadlineMs} ms`));
        resolve();
        // Recorded as what it was, a request the target left unanswered; the 504 was the proxy's.
        handOn(asForwarded({ status: 0, responseHeaders: [], responseBody: new CappedBuffer(0).taken(), unanswered: `the target did not answer within ${deadlineMs / 1000} s; the client got the proxy's 504` }));
      }, deadlineMs);
      upstream.dispatcher.dispatch(
        { origin: target.origin, path: upstreamPath, method: method as Dispatcher.HttpMethod, headers: fields, body },
        {
          onConnect: (abort: (error?: Error) => void) => void (abortUpstream = abort),
          onHeaders: (status: number, raw: Buffer[], resume: () => void, statusText: string) => {
            clearTimeout(deadline);
            if (unanswered) return false;
            const rawHeaders = raw.map((field) => field.toString('latin1'));
            answer = { status, rawHeaders, body: new CappedBuffer(maxBody), framing: framingOf(rawHeaders), received: 0 };
            // The target closes its connection after this answer: so does the proxy, and says so, lest the client send another request on it.
            const closing = rawHeaders.some((field, i) => i % 2 === 0 && field.toLowerCase() === 'connection' && /(?:^|,)\s*close\s*(?:,|$)/i.test(rawHeaders[i + 1]!));
            outgoing.writeHead(status, statusText, [...forwardedPairs(rawHeaders), ...(closing ? ['Connection', 'close'] : [])]);
            outgoing.on('drain', resume);
            return true;
          },
          onData: (chunk: Buffer) => {
            answer!.body.add(chunk);
            answer!.received += chunk.length;
            // The client's pace is the target's: past the socket's buffer, the target is not read (unless that would crash undici, see mayPauseTarget).
            return outgoing.write(chunk) || !mayPauseTarget(answer!.framing, answer!.received);
          },
          onComplete: () => {
            outgoing.end();
            resolve();
            handOn(asForwarded({ status: answer!.status, responseHeaders: answer!.rawHeaders, responseBody: answer!.body.taken() }));
          },
          onError: (error: Error) => {
            clearTimeout(deadline);
            if (unanswered) return;
            // A failure of the target reaches the client as what it is, a broken connection,
            // never as an HTTP status the target did not send (a 502 would read as the server's 5xx).
            if (!answer) options.onTargetError?.(error, `${method} ${upstreamPath.split('?', 1)[0]}`);
            outgoing.destroy();
            resolve();
          },
        } as Dispatcher.DispatchHandler,
      );
    });
    void done.finally(() => {
      upstream.busy = false;
      // The target closed its connection after this answer: so does the proxy, once the answer is out.
      if (upstream.closed) incoming.socket.end();
    });
    inFlight.set(done, () => {
      clearTimeout(deadline);
      abortUpstream?.(new Error('the proxy stopped'));
      outgoing.destroy();
    });
    void done.finally(() => inFlight.delete(done));
  };

  // A client's header block as large as a target's may be (http/dispatcher.ts).
  const server: Server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, handle);
  // A client's connection lives as long as the target's (its 'disconnect' below): never
  // closed by Node's own idle timeout (5 s), which would make it stale where the target's is not.
  server.keepAliveTimeout = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const upstream = { dispatcher: connectUpstream(), busy: false, closed: false };
    upstreams.set(socket, upstream);
    // The target closed the connection: while it was idle, so does the client's, once what
    // was written to it is out (an answer followed by stray bytes completes before the
    // target's connection fails on them).
    upstream.dispatcher.on('disconnect', () => {
      upstream.closed = true;
      if (!upstream.busy) socket.end();
    });
    // A client that goes away takes its connection to the target with it, and so its request under way.
    socket.on('close', () => {
      sockets.delete(socket);
      upstreams.delete(socket);
      void upstream.dispatcher.destroy().catch(() => {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    baseUrl: `http://${shownHost}:${port}/v1`,
    async close(graceMs = 1_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(inFlight.keys()), graceOver]);
      clearTimeout(timer);
      const cut = inFlight.size + held;
      for (const cutOne of inFlight.values()) cutOne();
      for (const socket of sockets) socket.destroy();
      for (const { dispatcher } of upstreams.values()) void dispatcher.destroy().catch(() => {});
      await closed;
      return cut;
    },
  };
}

/** A body as it streams through: every byte counted, the first `cap` kept for judging. */
class CappedBuffer {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  bytes = 0;
  constructor(readonly cap: number) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.#kept >= this.cap) return;
    const part = chunk.length + this.#kept > this.cap ? chunk.subarray(0, this.cap - this.#kept) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  /**
   * The body as kept, in a byte array that owns its memory (never a view of Node's shared
   * pool), so it can be transferred to another thread; the chunks are let go. (Not shared
   * memory: one SharedArrayBuffer read by both threads, in place of a copy for each, raised
   * the proxy's peak RSS from some 240 MB to 274–291 MB at loopback speed; its memory
   * waits on both threads' collections.)
   */
  taken(): ForwardedBody {
    const kept = new Uint8Array(this.#kept);
    let at = 0;
    for (const chunk of this.#chunks) {
      kept.set(chunk, at);
      at += chunk.length;
    }
    this.#chunks.length = 0;
    return { kept, bytes: this.bytes };
  }
}

/** Raw header lines as name/value pairs, in order. */
export function pairs(raw: readonly string[]): HarPair[] {
  const result: HarPair[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) result.push({ name: raw[i]!, value: raw[i + 1]! });
  return result;
}

/**
 * The end-to-end fields of a message as flat pairs, names as sent, order and repetition
 * kept: without the hop-by-hop fields ({@link NOT_FORWARDED}) and without every field the
 * message's `Connection` names, in any of its lines (RFC 9110 §7.6.1).
 */
export function forwardedPairs(raw: readonly string[]): string[] {
  const fields = pairs(raw);
  const named = new Set(fields.filter(({ name }) => name.toLowerCase() === 'connection').flatMap(({ value }) => (value ?? '').split(',').map((option) => option.trim().toLowerCase())));
  const result: string[] = [];
  for (const { name, value } of fields) {
    const lower = name.toLowerCase();
    if (!NOT_FORWARDED.has(lower) && !named.has(lower)) result.push(name, value ?? '');
  }
  return result;
}

/** A stream's chunks as an async iterable: a body undici cannot measure, so sends chunked. */
async function* chunksOf(stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield* stream;
}

/** How an answer's body ends (RFC 9112 §6.3): at a length, at its last chunk, or at the connection's close. */
export type BodyFraming = { length: number } | 'chunked' | 'close';

/** The framing an answer's raw header fields (name, value, …) declare. */
export function framingOf(rawHeaders: readonly string[]): BodyFraming {
  let length: number | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (name === 'transfer-encoding' && /(?:^|,)\s*chunked\s*$/i.test(rawHeaders[i + 1]!)) return 'chunked';
    if (name === 'content-length' && /^\d+$/.test(rawHeaders[i + 1]!.trim())) length = Number(rawHeaders[i + 1]!.trim());
  }
  return length === undefined ? 'close' : { length };
}

/**
 * Whether the proxy may stop reading the target while a slow client catches up, after
 * `received` bytes of the body. undici 7 crashes the process (an uncatchable
 * `assert(!this.paused)` in the parser's `finish`, nodejs/undici#5360, fixed only in undici 8,
 * which needs Node 22) when the target closes the connection while its parser is paused with
 * nothing left to read: after the last bytes of a body with a length, or any bytes of one
 * that ends at the close. So the proxy never pauses there; elsewhere (a length not yet
 * reached, a chunked body, whose end is still to come) the rest stays on the socket and the
 * close waits for it.
 */
export function mayPauseTarget(framing: BodyFraming, received: number): boolean {
  if (framing === 'chunked') return true;
  if (framing === 'close') return false;
  return received < framing.length;
}
