import { rootCertificates } from 'node:tls';
import { isUtf8 } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';
import pThrottle from 'p-throttle';
import type { Redactor } from '../secrets/redactor.js';
import type { Credential } from './credential.js';
import type { Exchange, RecordedRequest, RecordedResponse } from './exchange.js';
import { RequestGuard, TargetHealth } from './safety.js';
import { toTransportError } from './transport-error.js';
import { Agent, request, type Dispatcher, type UndiciAgent } from './undici.js';

/** A request body: a JSON value serialized by the client, or text sent verbatim. */
export type RequestBody = { json: unknown } | { text: string };

/** One request to send, relative to the target's base URL. */
export interface RequestSpec {
  method: string;
  /** Path below the base URL, starting with `/` (e.g. `/categories`). */
  path: string;
  credential: Credential;
  /** Absent: no body and no Content-Type. Present: sent with `Content-Type: application/json`. */
  body?: RequestBody;
}

/** Settings of the HTTP client. */
export interface ClientOptions {
  /** The target's base URL, ending with `/v1` and without a trailing slash (spec 9/R2). */
  baseUrl: string;
  /** Deadline for a whole exchange (connect, headers and body), in ms. */
  timeoutMs: number;
  /** Largest response body accepted, in bytes; a larger one is a RESPONSE_TOO_LARGE finding. */
  maxResponseBytes: number;
  /** Keep-alive connections to the target at most. */
  connections: number;
  /** Applied to every response before anyone sees it: a server echoing the key leaks nothing. */
  redactor: Redactor;
  /** Sent as User-Agent. */
  userAgent: string;
  /** Called with every finished exchange, in completion order. */
  onExchange?: (exchange: Exchange) => void;
  /** Admits or refuses each request (profile, budgets, stop); none: everything is sent. */
  guard?: RequestGuard;
  /** Requests per second at most, shared by every caller of this client; none: unpaced. */
  rateLimit?: number;
  /** Extra trusted CA certificates (PEM), for targets behind a private CA. */
  caPem?: string;
}

/**
 * The one HTTP client every request of a run goes through (undici, keep-alive pool).
 * Redirects are never followed (a 3xx is a finding and the key never travels to another
 * origin); each exchange has a deadline and a response size cap; transport failures
 * come back as exchanges with an `error`, never as exceptions.
 */
export class HttpClient {
  readonly #options: ClientOptions;
  readonly #agent: UndiciAgent;
  readonly #health: TargetHealth | undefined;
  readonly #pace: (run: () => Promise<Exchange>) => Promise<Exchange>;
  readonly #slots: LimitFunction;
  #seq = 0;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#health = options.guard ? new TargetHealth(options.guard) : undefined;
    // p-throttle's strict mode spaces calls evenly: one per 1000/rate ms, fractions too.
    this.#pace = options.rateLimit
      ? pThrottle({ limit: 1, interval: 1000 / options.rateLimit, strict: true })((run: () => Promise<Exchange>) => run())
      : (run) => run();
    // Requests wait here for a connection, not in undici's queue: the guard then decides on
    // each one when it can go out, so a run that stops sends at most `connections` more,
    // and an exchange's recorded duration is its time on the wire.
    this.#slots = pLimit(options.connections);
    this.#agent = new Agent({
      connections: options.connections,
      ...(options.caPem ? { connect: { ca: [...rootCertificates, options.caPem] } } : {}),
      maxResponseSize: options.maxResponseBytes,
      // Backstops only: the abort signal enforces the precise deadline.
      headersTimeout: options.timeoutMs + 1000,
      bodyTimeout: options.timeoutMs + 1000,
      keepAliveTimeout: 4000,
    });
  }

  /** Requests sent so far. */
  get sent(): number {
    return this.#seq;
  }

  /**
   * Sends one request on behalf of `checkId` (paced by the rate limit, a 429 retried
   * after its Retry-After) and returns the final exchange. The target's failures come
   * back as exchanges, never as exceptions.
   * @param onAttempt called with every exchange, retried 429s included.
   * @throws ProfileViolation or RunStopped when the guard refuses the request.
   */
  async send(spec: RequestSpec, checkId: string, onAttempt?: (exchange: Exchange) => void): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      const hold = this.#health?.holdMs() ?? 0;
      if (hold > 0) await sleep(hold);
      const exchange = await this.#slots(() => {
        this.#options.guard?.admit(spec);
        return this.#pace(() => this.#exchange(spec, checkId));
      });
      onAttempt?.(exchange);
      this.#health?.observe(exchange);
      const delay = this.#health?.retryDelay(exchange, attempt);
      if (delay === undefined) return exchange;
      await sleep(delay);
    }
  }

  async #exchange(spec: RequestSpec, checkId: string): Promise<Exchange> {
    const seq = ++this.#seq;
    const url = this.#options.baseUrl + spec.path;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#options.userAgent };
    const shownHeaders: Record<string, string> = { ...headers };
    if (spec.credential.header !== undefined) {
      headers.authorization = spec.credential.header;
      shownHeaders.authorization = spec.credential.shown ?? '<redacted>';
    }
    let body: string | undefined;
    if (spec.body) {
      body = 'json' in spec.body ? JSON.stringify(spec.body.json) : spec.body.text;
      headers['content-type'] = shownHeaders['content-type'] = 'application/json';
    }
    const recorded: RecordedRequest = { method: spec.method, url, headers: shownHeaders };
    if (body !== undefined) recorded.body = this.#options.redactor.body(body);

    const startedAt = new Date();
    const started = performance.now();
    const finish = (part: Pick<Exchange, 'response' | 'error'>): Exchange => {
      const exchange: Exchange = {
        seq,
        checkId,
        request: recorded,
        ...part,
        startedAt: startedAt.toISOString(),
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
      this.#options.onExchange?.(exchange);
      return exchange;
    };

    try {
      const target = new URL(url);
      const res = await request.call(this.#agent, {
        origin: target.origin,
        path: target.pathname + target.search,
        method: spec.method as Dispatcher.HttpMethod,
        headers,
        body,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      const bytes = new Uint8Array(await res.body.arrayBuffer());
      return finish({ response: this.#record(res.statusCode, res.headers, bytes) });
    } catch (error) {
      return finish({ error: toTransportError(error, this.#options.timeoutMs) });
    }
  }

  /** Closes every connection; pending requests fail. */
  async close(): Promise<void> {
    await this.#agent.destroy();
  }

  #record(status: number, raw: Record<string, string | string[] | undefined>, bytes: Uint8Array): RecordedResponse {
    const redact = this.#options.redactor;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined) headers[name.toLowerCase()] = redact.text(Array.isArray(value) ? value.join(', ') : value);
    }
    // One validity pass (isUtf8: about 3 µs per 45 KB) and one decode, whatever the bytes;
    // invalid sequences decode to U+FFFD, as a non-fatal TextDecoder would.
    const utf8Valid = isUtf8(bytes);
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    return { status, headers, body: redact.body(text), bodyBytes: bytes.byteLength, utf8Valid };
  }
}
