/**
 * The validating proxy (`petstore-conformance proxy`): a reverse proxy in front of the
 * target that forwards every exchange unaltered (bodies streamed, header fields kept but
 * the hop-by-hop ones, RFC 9110 §7.6.1) and judges each as it completes (judge.ts). The
 * client's request never waits on a judgement, and a judgement that errs never touches it.
 * The target is reached through undici, as a run reaches it (http/dispatcher.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import { upstreamDispatcher, type UpstreamDispatcher } from '../http/dispatcher.js';
import type { RecordedResponse } from '../core/exchange.js';
import type { Redactor } from '../secrets/redactor.js';
import { bodyText, headerFields, normalVersion, type CapturedExchange } from './capture.js';
import { credentialName, registerCaptureSecrets, type KnownKey } from './credentials.js';
import type { HarPair } from './har-reader.js';
import type { HarStreamWriter } from './har-writer.js';
import type { TrafficFinding, TrafficJudge } from './judge.js';

/** How the proxy listens, where it forwards, and what it does with each exchange. */
export interface ProxyOptions {
  /** The target's base URL, ending with `/v1`: `/v1/…` on the proxy is forwarded to `<target>/…`. */
  target: string;
  host: string;
  /** 0: any free port. */
  port: number;
  judge: TrafficJudge;
  known: KnownKey;
  /** Registers the secrets each exchange carries, and redacts what is printed and recorded. */
  redactor: Redactor;
  /**
   * Opens the connection to the target that stands for one client connection
   * (http/dispatcher.ts `upstreamDispatcher`: the environment's proxy, extra CAs, a client
   * certificate); default direct.
   */
  connectUpstream?: () => UpstreamDispatcher;
  /** Lower-case names of further secret header fields (`--header-env`'s names). */
  secretHeaders?: readonly string[];
  /** Records each exchange, redacted (`--har FILE`). */
  har?: HarStreamWriter;
  /** Each exchange as it completes, with its findings (the CLI prints them). */
  onExchange?: (exchange: CapturedExchange, findings: readonly TrafficFinding[]) => void;
  /** The target failed an exchange (refused, reset, timed out): the client's connection is closed, as the target's was. */
  onTargetError?: (error: Error, request: string) => void;
  /** A judgement that threw (a defect of the tool): counted, reported, never the client's. */
  onJudgeError?: (error: unknown) => void;
  /** Body bytes kept for judging, per body (default 16 MiB); a larger body is forwarded whole and judged as cut short. */
  maxBodyBytes?: number;
}

/** A running proxy. */
export interface RunningProxy {
  /** `http://127.0.0.1:PORT/v1`: where clients point. */
  baseUrl: string;
  /** Stops accepting, waits for the exchanges in flight, and closes every connection. */
  close(): Promise<void>;
}

/**
 * Header fields that belong to one connection, never forwarded (RFC 9110 §7.6.1); `host`,
 * which names the proxy (the target's is sent); and `expect`, which the proxy meets itself
 * (Node answers 100 Continue to the client, RFC 9110 §10.1.1), sending the body on at once.
 */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'expect']);

const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

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
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let seq = 0;
  const inFlight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  /** The secrets the traffic carried so far, each with its placeholder. */
  const secretsSeen = new Map<string, string>();

  const handle = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const startMs = Date.now();
    const path = incoming.url ?? '/';
    // The proxy serves the interface at /v1: what is under it goes under the target's base path, anything else to the target's origin.
    const upstreamPath = path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?') ? `${basePath}${path.slice(3)}` : path;
    const method = incoming.method ?? 'GET';
    // What goes upstream, as the target receives it: the end-to-end fields in order, the target's Host.
    const fields = [...forwardedPairs(incoming.rawHeaders), 'host', target.host];
    const requestBody = new CappedBuffer(maxBody);
    const hasBody = incoming.headers['content-length'] !== undefined ? incoming.headers['content-length'] !== '0' : incoming.headers['transfer-encoding'] !== undefined;
    // The body is kept as undici reads it on its way upstream, at the target's pace.
    const body = hasBody ? incoming.pipe(new Transform({ transform: (chunk: Buffer, _encoding, done) => (requestBody.add(chunk), done(null, chunk)) })) : null;
    if (!hasBody) incoming.resume();
    let abortUpstream: ((error: Error) => void) | undefined;
    const upstream = upstreams.get(incoming.socket)!;
    upstream.busy = true;
    const done = new Promise<void>((resolve) => {
      let answer: { status: number; rawHeaders: string[]; body: CappedBuffer } | undefined;
      upstream.dispatcher.dispatch(
        { origin: target.origin, path: upstreamPath, method: method as Dispatcher.HttpMethod, headers: fields, body },
        {
          onConnect: (abort: (error?: Error) => void) => void (abortUpstream = abort),
          onHeaders: (status: number, raw: Buffer[], resume: () => void, statusText: string) => {
            const rawHeaders = raw.map((field) => field.toString('latin1'));
            answer = { status, rawHeaders, body: new CappedBuffer(maxBody) };
            outgoing.writeHead(status, statusText, forwardedPairs(rawHeaders));
            outgoing.on('drain', resume);
            return true;
          },
          onData: (chunk: Buffer) => {
            answer!.body.add(chunk);
            // The client's pace is the target's: past the socket's buffer, the target is not read.
            return outgoing.write(chunk);
          },
          onComplete: () => {
            outgoing.end();
            record(incoming, `${target.origin}${upstreamPath}`, fields, startMs, requestBody, answer!, upstream.dispatcher.peerVersion);
            resolve();
          },
          onError: (error: Error) => {
            // A failure of the target reaches the client as what it is, a broken connection,
            // never as an HTTP status the target did not send (a 502 would read as the server's 5xx).
            if (!answer) options.onTargetError?.(error, `${method} ${upstreamPath}`);
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
    // A client that goes away takes its request to the target with it.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) abortUpstream?.(new Error('the client closed its connection'));
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };

  /** Judges and records one completed exchange, as the target received the request; whatever happens here stays here. */
  const record = (incoming: IncomingMessage, url: string, fields: readonly string[], startMs: number, requestBody: CappedBuffer, answer: { status: number; rawHeaders: string[]; body: CappedBuffer }, peerVersion: string | undefined) => {
    try {
      const requestPairs = pairs(fields);
      const responsePairs = pairs(answer.rawHeaders);
      registerCaptureSecrets({ request: { headers: pairs(incoming.rawHeaders) }, response: { headers: responsePairs } }, options.redactor, options.secretHeaders ?? [], secretsSeen);
      const requestHeaders = headerFields(requestPairs);
      const responseHeaders = headerFields(responsePairs);
      const missing: string[] = [];
      const sent = requestBody.text('request body', requestHeaders['content-encoding'], missing);
      const received = answer.body.text('response body', responseHeaders['content-encoding'], missing);
      const endMs = Date.now();
      const version = normalVersion(peerVersion);
      const response: RecordedResponse = { status: answer.status, ...(version ? { httpVersion: version } : {}), headers: responseHeaders, body: received?.text ?? '', bodyBytes: answer.body.bytes, utf8Valid: received?.utf8Valid ?? true };
      const exchange: CapturedExchange = {
        seq: ++seq,
        checkId: 'traffic',
        credential: credentialName(requestHeaders.authorization, options.known),
        request: { method: incoming.method ?? 'GET', url, headers: requestHeaders, ...(requestBody.bytes > 0 && sent ? { body: sent.text } : {}) },
        response,
        startedAt: new Date(startMs).toISOString(),
        durationMs: endMs - startMs,
        connection: 'fresh',
        startMs,
        endMs,
        missing,
      };
      const findings = options.judge.judge(exchange);
      options.har?.append(exchange, options.redactor);
      options.onExchange?.(exchange, findings);
    } catch (error) {
      options.onJudgeError?.(error);
    }
  };

  const server: Server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const upstream = { dispatcher: connectUpstream(), busy: false, closed: false };
    upstreams.set(socket, upstream);
    // The target closed the connection: while it was idle, so is the client's; under an answer, after it.
    upstream.dispatcher.on('disconnect', () => {
      upstream.closed = true;
      if (!upstream.busy) socket.destroy();
    });
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
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.all([...inFlight]);
      for (const socket of sockets) socket.destroy();
      await closed;
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

  /** Whether every byte was kept (a retry can send it again). */
  get whole(): boolean {
    return this.bytes === this.#kept;
  }

  /** The bytes kept, as one buffer. */
  bytesKept(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  /** The body decoded (inflated when its Content-Encoding says so); undefined, said in `missing`, when it was past the cap or does not inflate. */
  text(what: string, contentEncoding: string | undefined, missing: string[]): ReturnType<typeof bodyText> {
    if (this.bytes > this.#kept) {
      missing.push(`${what} (cut short: ${this.#kept} of ${this.bytes} bytes kept)`);
      return undefined;
    }
    return bodyText(Buffer.concat(this.#chunks), contentEncoding, what, missing);
  }
}

/** Raw header lines as name/value pairs, in order. */
function pairs(raw: readonly string[]): HarPair[] {
  const result: HarPair[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) result.push({ name: raw[i]!, value: raw[i + 1]! });
  return result;
}

/** The end-to-end fields of a message as flat pairs, names as sent, order and repetition kept. */
function forwardedPairs(raw: readonly string[]): string[] {
  const result: string[] = [];
  for (const { name, value } of pairs(raw)) if (!NOT_FORWARDED.has(name.toLowerCase())) result.push(name, value);
  return result;
}
