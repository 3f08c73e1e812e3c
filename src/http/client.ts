import type { Redactor } from '../secrets/redactor.js';
import { resourceExhausted } from '../core/tool-failure.js';
import type { RunSettings } from '../config/settings.js';
import { AdaptivePace } from './adaptive-pace.js';
import { refusalOf } from './retry-policy.js';
import { BodyReader, BodyTooLarge, GaveWay, PausableDeadline, responseCap, type ReadBody } from './body-reader.js';
import { ConnectionPool, type ConnectionSlot } from './connection-pool.js';
import type { ConnectionLimitRecord } from './connection-limit.js';
import { harmlessToRepeat, isConnectionFailure, loadCause, mayProbe, UNANSWERED_ON_REUSED } from './load-policy.js';
import { recordedRequest, requestLine, targetAsWritten, withBodyCapped, type Exchange, type RecordedResponse, type TransportError } from '../core/exchange.js';
import { HungRoutes } from './hung-routes.js';
import { rateCeiling, type Turn } from './rate-ceiling.js';
import { NO_CREDENTIAL } from './credential.js';
import { BASELINE_FORM } from './client-form.js';
import { chunkSizes, inChunks } from './chunks.js';
import { bodyText, isIdempotent, type RequestSpec } from './request.js';
import { RequestGuard, TargetHealth } from './safety.js';
import { overriddenMethod } from './method-override.js';
import { CheckError, RouteHung, RunStopped, TargetRefused, hasCode } from '../core/errors.js';
import { toTransportError } from './transport-error.js';
import type { Dispatcher } from 'undici';
import { CookieJar } from 'tough-cookie';
import { slotDispatcher, type DispatcherOptions } from './dispatcher.js';

/**
 * Settings of the HTTP client: the run's settings it uses (each declared, with its unit, in
 * config/settings.ts), and its collaborators.
 */
export interface ClientOptions
  extends Pick<RunSettings, 'baseUrl' | 'connections' | 'rateLimit' | 'patienceSeconds' | 'userAgent' | 'extraHeaders'>,
    DispatcherOptions {
  /** Applied to every response before anyone sees it: a server echoing the key leaks nothing. */
  redactor: Redactor;
  /** Called with every attempt of every request, superseded ones included, in completion order. */
  onExchange?: (exchange: Exchange) => void;
  /** Admits or refuses each request (profile, budgets, stop); none: everything is sent. */
  guard?: RequestGuard;
  /**
   * Whether a request that is not idempotent, reset before any response, was applied all
   * the same: `false` when known not applied (it may then be sent again, RFC 9112
   * §9.3.1), `true` or `undefined` otherwise. `send` makes the requests that find out;
   * none: such a request is never sent again.
   */
  wasApplied?: (spec: RequestSpec, send: (lookup: RequestSpec) => Promise<Exchange>) => Promise<boolean | undefined>;
  /** Settles when requests may go out (the run's preflight: check/preflight.ts); none: at once. */
  gate?: Promise<void>;
}

/** The outcome of one attempt, before the client decides whether it answers the request. */
interface Attempt {
  exchange: Exchange;
  /** When it was sent, in ms on the pace's clock. */
  sentAt: number;
  /** The slot it went out on. */
  slot: ConnectionSlot;
  /** Whether other connections counted at the target when it started or when it ended (ConnectionPool.othersOpen). */
  crowded: boolean;
  /** Whether its head was written on a connection (undici announced it): if not, it provably never left. */
  written: boolean;
  /** The connection limit's epoch when it started (ConnectionLimit.reset). */
  epoch: number;
  /** Set when the attempt was abandoned because its route hangs. */
  hung?: RouteHung;
  /** Set when the attempt gave way to the checks holding large-body leases. */
  gaveWay?: true;
  /** Why the run stopped, when that abandoned the attempt. */
  stopped?: string;
}

/** The request that asks, after a streak of resets, whether the target answers at all. */
const LIVENESS: RequestSpec = { method: 'GET', path: '/categories', credential: NO_CREDENTIAL };

/**
 * The one HTTP client every request of a run goes through (undici, keep-alive). Redirects
 * are never followed (a 3xx is a finding and the key never travels to another origin);
 * each exchange has a deadline and a response size cap; transport failures come back as
 * exchanges with an `error`, never as exceptions.
 *
 * The client's own trouble is never the target's fault: a refusal (429, 503 with
 * Retry-After) is waited out and the request sent again, at a pace that adapts to what the
 * target accepts; a reset on a reused connection before any response (the race with a
 * server's idle close, RFC 9112 §9.6) is sent again once on a fresh connection, a request
 * that is not idempotent only when known not to have been applied. Every attempt is
 * recorded; those that do not answer the request are marked `superseded`.
 */
export class HttpClient {
  readonly #options: ClientOptions;
  readonly #pool: ConnectionPool;
  readonly #health: TargetHealth | undefined;
  readonly #pace: AdaptivePace;
  readonly #throttle: Turn;
  readonly #hung = new HungRoutes();
  readonly #bodies = new BodyReader();
  readonly #patienceMs: number;
  /** The cookies the target set, kept as a client's jar keeps them (RFC 6265): only the key-placement check sends them back. */
  readonly #jar = new CookieJar();
  /** Which answer set each cookie, by name, in words. */
  readonly #cookieSetters = new Map<string, string>();
  #seq = 0;
  /** Connections reset (or refused) before any response since the last answer. */
  #resetsInARow = 0;
  /** Requests that went unanswered on a reused connection and were answered on a new one (their first attempts, capped). */
  readonly #answeredOnNew: Exchange[] = [];
  /** The liveness request under way, once a streak of resets asked whether the target still answers (see {@link #stillAnswers}). */
  #liveness: Promise<boolean> | undefined;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#patienceMs = options.patienceSeconds * 1000;
    this.#health = options.guard ? new TargetHealth(options.guard) : undefined;
    this.#pace = new AdaptivePace(this.#patienceMs, options.guard?.signal);
    this.#throttle = rateCeiling(options.rateLimit, options.guard);
    // One single-connection dispatcher per slot, so each request knows whether its connection is fresh.
    this.#pool = new ConnectionPool(options.connections, () => slotDispatcher(options));
  }

  /**
   * What the run's connections met (connections-answered judges it): the target's limit on
   * connections, when a reset showed one, and the requests that went unanswered on a
   * kept-alive connection and were answered when sent again on a new one.
   */
  async connections(): Promise<{ limit: ConnectionLimitRecord | undefined; answeredOnNew: readonly Exchange[] }> {
    await this.#pool.counted();
    return { limit: this.#pool.limit.record(), answeredOnNew: this.#answeredOnNew };
  }

  /** Requests sent so far (every attempt). */
  get sent(): number {
    return this.#seq;
  }

  /**
   * The cookies the target set that a client would send with a request to `path` (RFC 6265
   * §5.4: domain, path, expiry), and which answer set the first of them; undefined when it set none.
   */
  cookiesFor(path: string): { cookies: Array<{ name: string; value: string }>; setBy: string } | undefined {
    const cookies = this.#jar.getCookiesSync(this.#options.baseUrl + path).map((cookie) => ({ name: cookie.key, value: cookie.value }));
    if (cookies.length === 0) return undefined;
    return { cookies, setBy: this.#cookieSetters.get(cookies[0]!.name) ?? 'the target' };
  }

  /** Keeps the cookies an answer sets (RFC 6265 §5.3); a cookie the jar refuses (another domain, malformed) is dropped, as browsers drop it. */
  #keepCookies(setCookie: string | string[] | undefined, url: string, spec: RequestSpec, status: number): void {
    if (setCookie === undefined) return;
    const who = `the ${status} to a ${spec.credential.name === 'valid' ? 'keyed' : 'keyless'} ${spec.method === 'POST' && spec.path === '/categories' ? 'create' : spec.method === 'GET' && spec.path === '/categories' ? 'list' : `${spec.method} ${spec.path}`}`;
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const cookie = this.#jar.setCookieSync(line, url, { ignoreError: true });
      if (cookie) this.#cookieSetters.set(cookie.key, who);
    }
  }

  /**
   * Sends one request on behalf of `checkId` and returns the exchange that answers it.
   * The target's failures come back as exchanges, never as exceptions.
   * @param onAttempt called with every attempt, superseded ones included.
   * @throws ProfileViolation or RunStopped when the guard refuses the request; RouteHung
   *   when the request's route hangs; Error when the target kept refusing this request
   *   past the run's patience.
   */
  async send(spec: RequestSpec, checkId: string, onAttempt?: (exchange: Exchange) => void): Promise<Exchange> {
    const report = (exchange: Exchange) => {
      this.#options.onExchange?.(exchange);
      onAttempt?.(exchange);
    };
    await this.#options.gate;
    const firstSentAt = this.#pace.now();
    let fresh = false;
    /** Set once the request went unanswered on a reused connection: its next attempt goes out on a new one. */
    let unansweredOnReused: Exchange | undefined;
    /** Attempts of this request reset on a new connection amid others, taken for the target's limit: all, and those that were written (load-policy.ts bounds them). */
    let takenForLimit = 0;
    let limitResets = 0;
    // Bounded: refusals end at the run's patience, a stale connection and a timeout on a reused one
    // are sent again once, a reset taken for the target's limit a few times, and a
    // streak of resets stops the run (load-policy.ts).
    for (;;) {
      await this.#bodies.admit(checkId, this.#options.guard?.signal);
      // The user's ceiling first, then a connection: a request waiting for its turn holds none (a run at 5 requests/s opens a few, not 48).
      await this.#throttle(async () => undefined);
      const { exchange, sentAt, hung, gaveWay, stopped, slot, crowded, written, epoch } = await this.#pool.use(
        async (slot) => {
          await this.#pace.ready();
          // Decided as the request goes out: a route may have turned out to hang meanwhile.
          this.#hung.assertOpen(spec);
          this.#options.guard?.admit(spec);
          return this.#attempt(spec, checkId, slot, fresh);
        },
        checkId,
        mayProbe(spec, takenForLimit),
      );
      if (hung) {
        report(exchange);
        throw hung;
      }
      if (stopped) {
        report({ ...exchange, superseded: `abandoned: ${stopped}` });
        throw new RunStopped(`abandoned: ${stopped}`);
      }
      if (gaveWay) {
        report({ ...exchange, superseded: 'gave way to the checks holding large-body leases: sent again once its check held one' });
        continue;
      }
      const refusal = refusalOf(exchange.response);
      if (refusal !== undefined) {
        const decision = this.#pace.refused(sentAt, refusal.waitMs, refusal.tooMany);
        const status = exchange.response!.status;
        if ('stop' in decision) {
          report({ ...exchange, superseded: `refused with ${status}; the run stopped` });
          this.#options.guard?.stop(decision.stop);
          throw new RunStopped(`not sent again: ${decision.stop}`);
        }
        if (this.#pace.now() - firstSentAt + decision.waitMs > this.#patienceMs) {
          report({ ...exchange, superseded: `refused with ${status}; not sent again` });
          throw new TargetRefused(`the target refused this request (${status}) for longer than the run's patience of ${this.#patienceMs / 1000} s`);
        }
        report({ ...exchange, superseded: `refused with ${status}: sent again after ${decision.waitMs} ms` });
        continue;
      }
      if (exchange.response) {
        this.#pace.accepted();
        this.#health?.observe(exchange);
        this.#pool.answered(slot);
        this.#resetsInARow = 0;
        if (unansweredOnReused) this.#answeredOnNew.push(unansweredOnReused);
        if (takenForLimit > 0) this.#pool.limit.confirmed(takenForLimit);
      }
      // The request may be sent again if it cannot have been applied: idempotent, without a
      // valid key (it must create nothing, 4.2/R3), never written, or absent from a list.
      const mayResend = async () => {
        if (harmlessToRepeat(spec) || !written) return true;
        try {
          return (await this.#options.wasApplied?.(spec, (lookup) => this.send(lookup, checkId, onAttempt))) === false;
        } catch (error) {
          // The list that would tell could not be had (its route hangs, the run stopped): the attempt stands as its answer, in the record.
          report(exchange);
          throw error;
        }
      };
      if (isConnectionFailure(exchange)) this.#resetsInARow++;
      const cause = loadCause(exchange, { crowded, written, limitResets, sentAgain: unansweredOnReused !== undefined, resetsInARow: this.#resetsInARow, connections: this.#options.connections });
      // A streak stops the run only when the target answers nothing: one that resets every
      // create but answers a list gives its answer to these requests, judged as any other.
      if (cause === 'streak' && !(spec !== LIVENESS && (await this.#stillAnswers(checkId, onAttempt)))) {
        const why = `the target reset ${this.#resetsInARow} connections in a row before any response, the last with ${this.#pool.limit.current} open at most: the run cannot go on`;
        this.#options.guard?.stop(why);
        report(exchange);
        throw new RunStopped(why);
      }
      if (cause === 'limit') {
        takenForLimit++;
        if (written) limitResets++;
        this.#pool.reset(slot, epoch);
        if (await mayResend()) {
          report({ ...exchange, superseded: `${exchange.error!.code} before any response while other connections were open: taken for the target's limit on connections (${this.#pool.limit.current} now), and sent again` });
          continue;
        }
        report(exchange);
        throw new CheckError(`${requestLine(exchange)} got no response (${exchange.error!.code}) while other connections were open, and may have been applied, so it was not sent again: the target's limit on connections, not a finding`);
      }
      if (cause === 'unanswered-on-reused' && (await mayResend())) {
        // Answered on a new connection, it was the connection, not the interface (connections-answered).
        unansweredOnReused = withBodyCapped(exchange);
        report({ ...exchange, superseded: `${UNANSWERED_ON_REUSED}: sent again on a new connection` });
        fresh = true;
        continue;
      }
      if (!fresh && isStaleConnection(exchange)) {
        if (await mayResend()) {
          report({ ...exchange, superseded: 'reset on a reused connection before any response (RFC 9112 §9.3.1): sent again on a fresh connection' });
          fresh = true;
          continue;
        }
        exchange.error!.message += '; the request may have been applied, so it was not sent again';
      }
      report(exchange);
      return exchange;
    }
  }

  /**
   * Whether the target still answers a connection, asked once by every request that ends a
   * streak of resets at the same time: a keyless `GET /categories`, which writes nothing and
   * is answered before any handler logic (as the preflight's probe, runner/probe.ts). Its
   * answer, whatever its status, ends the streak. Its attempts are in the record of the
   * check whose request asked first (`onAttempt`).
   */
  #stillAnswers(checkId: string, onAttempt?: (exchange: Exchange) => void): Promise<boolean> {
    this.#liveness ??= this.send(LIVENESS, checkId, onAttempt)
      .then(
        (exchange) => exchange.response !== undefined,
        () => false,
      )
      .finally(() => (this.#liveness = undefined));
    return this.#liveness;
  }

  /** One attempt on `slot`: never throws for the target's failures. */
  async #attempt(spec: RequestSpec, checkId: string, slot: ConnectionSlot, fresh: boolean): Promise<Attempt> {
    const seq = ++this.#seq;
    const writtenBefore = slot.written;
    const epoch = this.#pool.limit.epoch;
    const outcome = (attempt: Omit<Attempt, 'slot' | 'crowded' | 'written' | 'epoch'>): Attempt => ({ ...attempt, slot, crowded: othersAtStart || this.#pool.othersOpen(), written: slot.written > writtenBefore, epoch });
    const placed = spec.credential.placed;
    const query = (text: string | undefined) => (text === undefined ? '' : `${spec.path.includes('?') ? '&' : '?'}${text}`);
    const base = spec.fromOrigin ? new URL(this.#options.baseUrl).origin : this.#options.baseUrl;
    const url = base + spec.path + query(placed?.query?.sent);
    const shownUrl = base + spec.path + query(placed?.query?.shown);
    const form = spec.form ?? BASELINE_FORM;
    const headers: Record<string, string> = { ...(form.accept !== null ? { accept: form.accept } : {}), 'user-agent': this.#options.userAgent };
    const shownHeaders: Record<string, string> = { ...headers };
    for (const extra of this.#options.extraHeaders ?? []) {
      headers[extra.name] = extra.value;
      shownHeaders[extra.name] = extra.shown;
    }
    if (spec.credential.header !== undefined) {
      headers.authorization = spec.credential.header;
      shownHeaders.authorization = spec.credential.shown ?? '<redacted>';
    }
    for (const [name, { sent, shown }] of Object.entries(placed?.headers ?? {})) {
      headers[name] = sent;
      shownHeaders[name] = shown;
    }
    // A form placement is the body: the key as a form field (RFC 6750 §2.2).
    const body = placed?.body?.sent ?? bodyText(spec.body, form.json);
    const contentType = placed?.body?.contentType ?? form.contentType;
    if (body !== undefined) headers['content-type'] = shownHeaders['content-type'] = contentType;
    // undici frames a body of unknown length as chunked (RFC 9112 §7.1), a chunk per piece; the record says so, for the replay.
    const chunked = body !== undefined && form.framing === 'chunked';
    if (chunked) shownHeaders['transfer-encoding'] = 'chunked';
    const shownBody = placed?.body?.shown ?? body;
    const chunks = chunked ? chunkSizes(body) : undefined;
    const recorded = recordedRequest({ method: spec.method, url: shownUrl, headers: shownHeaders, ...(shownBody !== undefined ? { body: shownBody } : {}), ...(chunks ? { chunks } : {}) });

    // No request goes out where an earlier body was refused unread (a 401 from a middleware
    // before the handler reads it): the server may have left it on the connection (RFC 9112
    // §9.3: a server that answers before it reads a body should close), and a request sent
    // there may wait on it; a create with the key could not even be sent again.
    const renew = fresh || slot.mayHoldUnreadBody;
    const keptAlive = !renew && slot.open;
    const dispatcher = slot.dispatcher(renew);
    const othersAtStart = this.#pool.othersOpen();
    const idAtStart = slot.connectionId;
    const connectsBefore = slot.connects;
    // Known once the request went out, not when the slot was handed over: the kept-alive
    // connection may have been closing then (the previous request's abort, whose
    // `disconnect` comes a moment later; the server's idle close), and undici connected anew.
    const wentOn = (): Pick<Exchange, 'connection' | 'connectionId'> =>
      keptAlive && slot.connects === connectsBefore ? { connection: 'reused', connectionId: idAtStart } : { connection: 'fresh', connectionId: slot.connects > connectsBefore ? `${slot.index}.${slot.connects}` : idAtStart };
    const abandon = new AbortController();
    const deadline = new PausableDeadline(this.#options.timeoutMs);
    const untrack = this.#hung.track(spec, (reason) => abandon.abort(reason));
    // undici connects again, at once and without end, when a connection fails before it
    // answers (a proxy that accepts the tunnel and then sends garbage: 300,000 CONNECTs in
    // 40 s). A request gets a few connections; past them, the target is not reached.
    const unwatch = slot.onConnect(() => {
      const connections = slot.connects - connectsBefore;
      if (connections > MAX_CONNECTS_PER_REQUEST) abandon.abort(new ConnectionsFailing(connections));
      else if (connections > 1 && this.#options.guard && !this.#options.guard.countConnection()) abandon.abort(this.#options.guard.stopped);
    });
    const startedAt = new Date();
    const sentAt = this.#pace.now();
    const started = performance.now();
    const finish = (part: Pick<Exchange, 'response' | 'error'>): Exchange => ({
      seq,
      checkId,
      credential: spec.credential.name,
      ...(spec.label ? { label: spec.label } : {}),
      request: recorded,
      ...part,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...wentOn(),
    });

    let phase: TransportError['phase'] = 'headers';
    try {
      const { origin } = new URL(url);
      // The target as written: undici's request(url) parses it, which resolves dot segments and drops an empty query.
      const asWritten = targetAsWritten(url);
      const path = asWritten.query === undefined ? asWritten.path : `${asWritten.path}?${asWritten.query}`;
      // A stopped run (a signal, the deadline) abandons what is under way too.
      const signal = AbortSignal.any([deadline.signal, abandon.signal, ...(this.#options.guard ? [this.#options.guard.signal] : [])]);
      const res = await untilAborted(
        dispatcher.request({ origin, path, method: spec.method as Dispatcher.HttpMethod, headers, body: chunks ? inChunks(body!, chunks) : body, signal }),
        signal,
      );
      phase = 'body';
      // undici closes the connection after a HEAD, and after an answer that says it closes (RFC 9112 §9.6).
      if (spec.method === 'HEAD' || /(^|,)\s*close\s*(,|$)/i.test(String(res.headers.connection ?? ''))) slot.noteClosing();
      this.#keepCookies(res.headers['set-cookie'], url, spec, res.statusCode);
      // Answered as its own method or as the one its override names, whichever a server honours: the larger cap of the two.
      const answeredAs = [spec.method, overriddenMethod(headers, asWritten.query) ?? spec.method];
      const cap = Math.max(...answeredAs.map((method) => responseCap(method, body === undefined ? 0 : Buffer.byteLength(body), this.#options.maxResponseBytes)));
      // A HEAD answer has no content, whatever length it tells (RFC 9110 §9.3.2: the GET's).
      const length = spec.method === 'HEAD' ? 0 : Number(res.headers['content-length'] ?? cap);
      const owner = { owner: checkId, expected: Number.isFinite(length) ? length : cap, idempotent: isIdempotent(spec), cap };
      const response = this.#record(res.statusCode, res.headers, await this.#bodies.read(res.body, deadline, owner), slot.peerVersion);
      // A 400 judged the body, so it was read; any other refusal (401 before the key is looked at, 413, 415) may leave it unread.
      slot.noteBodyAnswered(body !== undefined && response.status > 400);
      this.#hung.answered(spec);
      // undici closes the connection after a HEAD: the slot is free once it has (bounded by the deadline, as a stalled close would be).
      if (spec.method === 'HEAD') await closedOrAborted(slot, deadline.signal);
      return outcome({ exchange: finish({ response }), sentAt });
    } catch (error) {
      // The process ran out of file descriptors or memory: the tool's trouble, never the
      // target's. The run stops, and what it sent is abandoned, not judged.
      const exhausted = resourceExhausted(error);
      if (exhausted) this.#options.guard?.stop(exhausted.line);
      const stopped = this.#options.guard?.stopped ?? exhausted?.line;
      if (stopped) return outcome({ exchange: finish({ error: { code: 'ABANDONED', message: `abandoned: ${stopped}`, phase } }), sentAt, stopped });
      if (error instanceof BodyTooLarge) {
        abandon.abort(error); // the rest of the body is never read: its connection closes
        return outcome({ exchange: finish({ error: { code: 'RESPONSE_TOO_LARGE', message: error.message, phase } }), sentAt });
      }
      if (error instanceof ConnectionsFailing) {
        const proxy = this.#options.proxy?.httpProxy || this.#options.proxy?.httpsProxy ? 'PROXY' : 'CONNECTION_RESET';
        return outcome({ exchange: finish({ error: { code: proxy, message: error.message, phase } }), sentAt });
      }
      if (error instanceof GaveWay) return outcome({ exchange: finish({ error: { code: 'ABANDONED', message: error.message, phase } }), sentAt, gaveWay: true });
      if (hasCode(error, 'PCS_ROUTE_HUNG')) {
        const waited = Math.round(performance.now() - started);
        return outcome({ exchange: finish({ error: { code: 'ABANDONED', message: `abandoned after ${waited} ms: ${error.message}`, phase } }), sentAt, hung: error });
      }
      const transport: TransportError = { ...toTransportError(error, this.#options.timeoutMs), phase };
      // No connection was ever established: the target was not reached, it did not hang.
      const established = keptAlive || slot.connects > connectsBefore;
      if (transport.code === 'TIMEOUT' && !established) {
        return outcome({ exchange: finish({ error: { code: 'CONNECT_TIMEOUT', message: `could not connect within ${this.#options.timeoutMs} ms`, phase } }), sentAt });
      }
      const exchange = finish({ error: transport });
      // Only a new connection's timeout says the route hangs: a kept-alive one may be what was not served (load-policy.ts sends its request again on a new one).
      if (transport.code === 'TIMEOUT' && exchange.connection === 'fresh') this.#hung.timedOut(spec, started, exchange);
      return outcome({ exchange, sentAt });
    } finally {
      deadline.clear();
      untrack();
      unwatch();
    }
  }

  /**
   * Says that the check `checkId` has ended: the large-body lease it may hold passes on
   * (see LargeBodyLeases).
   */
  release(checkId: string): void {
    this.#bodies.leases.release(checkId);
  }

  /** Closes every connection; pending requests fail. */
  async close(): Promise<void> {
    await this.#pool.close();
  }

  /**
   * The response as received: judgements see what the target sent, and redaction happens
   * where a value is written (report/redact.ts). Only a binary body's preview, which no
   * judgement reads, is redacted here, on its bytes: a secret cut by its edge or held in
   * another encoding is found only there.
   */
  #record(status: number, raw: Record<string, string | string[] | undefined>, read: ReadBody, httpVersion: string | undefined): RecordedResponse {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const version = httpVersion && httpVersion !== 'HTTP/1.1' ? { httpVersion } : {};
    if ('text' in read) return { status, ...version, headers, body: read.text, bodyBytes: read.bytes, utf8Valid: true };
    const preview = this.#options.redactor.preview(read.preview);
    return { status, ...version, headers, body: binaryPreview({ bytes: read.bytes, preview }, headers), bodyBytes: read.bytes, utf8Valid: false };
  }
}

/** Connections a request may use before its target counts as not reached (a reused one that was closed, then a fresh one, then one more). */
export const MAX_CONNECTS_PER_REQUEST = 3;

/** A request's connections kept failing before any response: undici would go on connecting. */
class ConnectionsFailing extends Error {
  constructor(connections: number) {
    super(`${connections} connections in a row failed before a response (a proxy that accepts the tunnel and then breaks it, or a server that closes each connection unanswered): the target is not reached`);
  }
}

/**
 * The response, or the signal's reason as soon as it aborts. undici does not abort a request
 * while its connection is set up (a proxy that never answers CONNECT, a SYN never
 * answered): that wait ended only at its connect timeout, past the run's deadline. The
 * request left behind is ended by its own timeout or when the slot's connection is
 * destroyed; a response that still comes has its body discarded.
 */
/** Resolves when the slot's open connection has closed, or `signal` aborts, whichever comes first. */
function closedOrAborted(slot: ConnectionSlot, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void slot.closed().then(done);
  });
}

function untilAborted<T extends { body: { destroy(): unknown } }>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    void pending.then((late) => late.body.destroy(), () => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      void pending.then((late) => late.body.destroy(), () => {});
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

/**
 * A body that is not UTF-8 (binary, compressed without being asked, garbled) as it is
 * recorded: its size, media type and content encoding, and a short base64 preview, never
 * its bytes decoded as text. Judgements see `utf8Valid: false` first.
 */
function binaryPreview({ bytes, preview }: { bytes: number; preview: Buffer }, headers: Record<string, string>): string {
  const type = headers['content-type'] ?? 'no media type';
  const encoding = headers['content-encoding'] ? `, ${headers['content-encoding']}-encoded` : '';
  const more = bytes > preview.byteLength ? `… (first ${preview.byteLength})` : '';
  return `[binary body: ${bytes} bytes, ${type}${encoding}; base64 ${preview.toString('base64')}${more}]`;
}

/**
 * A reset on a connection kept alive from an earlier exchange, before any byte of a
 * response: the client's race with the server closing an idle connection (RFC 9112
 * §9.6), not an answer.
 */
function isStaleConnection(exchange: Exchange): boolean {
  return exchange.connection === 'reused' && exchange.error?.code === 'CONNECTION_RESET' && exchange.error.phase === 'headers';
}

