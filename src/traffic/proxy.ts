/**
 * The validating proxy (`petstore-conformance proxy`): a reverse proxy in front of the
 * target that forwards every exchange unaltered (bodies streamed, header fields kept but
 * the hop-by-hop ones, RFC 9110 §7.6.1) and judges each as it completes (judge.ts). The
 * client's request never waits on a judgement, and a judgement that errs never touches it.
 */
import { request as httpRequest, createServer, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
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

/** Header fields that belong to one connection, never forwarded (RFC 9110 §7.6.1), and `host`, which names the proxy: the target's is sent. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Starts the proxy.
 * @throws the listen error (EADDRINUSE, EACCES) when the port cannot be taken.
 */
export async function startValidatingProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const basePath = target.pathname.replace(/\/+$/, '');
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
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
    const requestBody = new CappedBuffer(maxBody);
    const received = new Promise<void>((resolve) => incoming.once('end', resolve));
    incoming.on('data', (chunk: Buffer) => requestBody.add(chunk));
    let upstream: ClientRequest | undefined;
    const done = new Promise<void>((resolve) => {
      /** Sends the request to the target: the first attempt streams the client's body, a retry sends the bytes kept. */
      const attempt = (first: boolean) => {
        const sending = send({
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port || undefined,
          method: incoming.method,
          path: upstreamPath,
          headers: { ...forwardedFields(incoming.rawHeaders), host: target.host },
        });
        upstream = sending;
        sending.on('response', (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedPairs(answer.rawHeaders));
          const responseBody = new CappedBuffer(maxBody);
          answer.on('data', (chunk: Buffer) => responseBody.add(chunk));
          answer.pipe(outgoing);
          answer.on('end', () => {
            record(incoming, `${target.origin}${upstreamPath}`, startMs, requestBody, { status: answer.statusCode ?? 0, httpVersion: answer.httpVersion, rawHeaders: answer.rawHeaders, body: responseBody });
            resolve();
          });
          answer.on('error', () => {
            outgoing.destroy();
            resolve();
          });
        });
        sending.on('error', (error) => {
          // A kept-alive connection the target closed while idle: sent again on a new one, as
          // browsers and the suite's own client do (RFC 9112 §9.3.1). The body is whole once the client sent it.
          if (first && sending.reusedSocket && !outgoing.headersSent && requestBody.whole && !outgoing.destroyed) {
            void received.then(() => {
              if (requestBody.whole) return attempt(false);
              outgoing.destroy();
              resolve();
            });
            return;
          }
          // Any other failure of the target reaches the client as what it is, a broken connection,
          // never as an HTTP status the target did not send (a 502 would read as the server's 5xx).
          options.onTargetError?.(error, `${incoming.method} ${upstreamPath}`);
          outgoing.destroy();
          resolve();
        });
        if (first) incoming.pipe(sending);
        else sending.end(requestBody.bytesKept());
      };
      attempt(true);
    });
    // A client that goes away takes its request to the target with it.
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream?.destroy();
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };

  /** Judges and records one completed exchange; whatever happens here stays here. */
  const record = (incoming: IncomingMessage, url: string, startMs: number, requestBody: CappedBuffer, answer: { status: number; httpVersion: string; rawHeaders: string[]; body: CappedBuffer }) => {
    try {
      const requestPairs = pairs(incoming.rawHeaders);
      const responsePairs = pairs(answer.rawHeaders);
      registerCaptureSecrets({ request: { headers: requestPairs }, response: { headers: responsePairs } }, options.redactor, options.secretHeaders ?? [], secretsSeen);
      const requestHeaders = headerFields(requestPairs);
      const responseHeaders = headerFields(responsePairs);
      const missing: string[] = [];
      const sent = requestBody.text('request body', requestHeaders['content-encoding'], missing);
      const received = answer.body.text('response body', responseHeaders['content-encoding'], missing);
      const endMs = Date.now();
      const version = normalVersion(`HTTP/${answer.httpVersion}`);
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
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
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

/** The end-to-end fields of a message as Node takes them for a request, names as sent. */
function forwardedFields(raw: readonly string[]): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const { name, value } of pairs(raw)) {
    if (NOT_FORWARDED.has(name.toLowerCase())) continue;
    const previous = result[name];
    result[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return result;
}

/** The end-to-end fields of a response as flat pairs, order and repetition kept (writeHead takes an array). */
function forwardedPairs(raw: readonly string[]): string[] {
  const result: string[] = [];
  for (const { name, value } of pairs(raw)) if (!NOT_FORWARDED.has(name.toLowerCase())) result.push(name, value);
  return result;
}
