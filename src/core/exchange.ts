/**
 * One HTTP exchange as the suite saw it: the request as sent (with credentials shown as
 * placeholders, never raw) and the response as received, or the transport error that
 * prevented one. Exchanges are plain data: checks assert on them, reports render them.
 */
export interface Exchange {
  /** 1-based order in which the worker sent the request. */
  seq: number;
  /** Id of the check that made the request (`preflight` for the runner's probe). */
  checkId: string;
  /** Name of the credential the request carried: `valid` for the configured key, else the invalid variant's name. */
  credential: string;
  /** What the request is, in words, when the check that sent it says: `an extra member nested 1,000 levels deep`. */
  label?: string;
  request: RecordedRequest;
  /** Absent when no complete response arrived (see `error`). */
  response?: RecordedResponse;
  /** Why no response arrived: timeout, reset, refused, oversize, invalid HTTP. */
  error?: TransportError;
  /** ISO 8601 time the request was sent. */
  startedAt: string;
  /** Wall time from send to the end of the body or the error, in ms. */
  durationMs: number;
  /**
   * Whether the request went out on a new connection or on one kept alive from an earlier
   * exchange (RFC 9112 §9.3): a reset on a reused connection can be the client's race
   * with the server's idle close, a reset on a fresh one cannot.
   */
  connection: 'fresh' | 'reused';
  /** Which connection carried it: `<slot>.<connection of that slot>`, e.g. `3.2` (HAR's `connection`). */
  connectionId?: string;
  /**
   * Set when this attempt is not the answer to the request, and why: the request was sent
   * again (a 429 waited out, a stale connection). Judgements skip superseded attempts.
   */
  superseded?: string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  /** Lower-case names. `authorization` holds the credential's placeholder form. */
  headers: Record<string, string>;
  /** The body text as sent (capped at {@link RECORDED_BODY_CAP}, then marked `…[truncated]`); absent when the request had no body. */
  body?: string;
  /** Body length on the wire, in bytes, when the recorded body is truncated. */
  bodyBytes?: number;
  /** The byte length of each chunk, when the body was sent with chunked transfer coding (http/chunks.ts): `replay` sends the same pieces. */
  chunks?: number[];
}

export interface RecordedResponse {
  status: number;
  /** The HTTP version the server answered in (`HTTP/1.0`, `HTTP/1.1`), when it is known: absent, HTTP/1.1 is assumed. */
  httpVersion?: string;
  /** Lower-case names; repeated fields joined with ", " (RFC 9110 §5.3). */
  headers: Record<string, string>;
  /** The body decoded as UTF-8 (invalid sequences become U+FFFD; see `utf8Valid`). */
  body: string;
  /** Body length on the wire, in bytes. */
  bodyBytes: number;
  /** False when the body bytes are not valid UTF-8 (RFC 8259 §8.1 requires UTF-8). */
  utf8Valid: boolean;
}

/** Stable codes for transport failures, in the manner of undici's error codes. */
export type TransportErrorCode =
  | 'TIMEOUT'
  | 'CONNECT_TIMEOUT'
  | 'ABANDONED'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_RESET'
  | 'HOST_NOT_FOUND'
  | 'RESPONSE_TOO_LARGE'
  | 'INVALID_HTTP'
  | 'TLS'
  /** A proxy (HTTP_PROXY, HTTPS_PROXY) refused the tunnel to the target: the target was never reached. */
  | 'PROXY'
  | 'OTHER';

export interface TransportError {
  code: TransportErrorCode;
  /** One readable line, e.g. `no response within 10000 ms`. */
  message: string;
  /**
   * When it happened: before the status line (`headers`, so no byte of a response
   * arrived) or while the body was read (`body`).
   */
  phase?: 'headers' | 'body';
}

/**
 * The request target of a URL as it was written (RFC 9112 §3.2): its path, and its query
 * when it has a `?` (`''` for an empty one). `new URL` would remove dot segments and drop
 * an empty query, and a spelling of a path is what some checks are about. A URL without
 * a scheme and authority is read as a target itself.
 */
export function targetAsWritten(url: string): Readonly<{ path: string; query?: string }> {
  // Every premise asks it of every exchange, and a capture repeats a few URLs: 0.4 s of a 7.5 s judge of 100,000 exchanges, before.
  const known = WRITTEN.get(url);
  if (known) return known;
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split('#', 1)[0]!;
  const mark = rest.indexOf('?');
  const path = (mark < 0 ? rest : rest.slice(0, mark)) || '/';
  const written = Object.freeze(mark < 0 ? { path } : { path, query: rest.slice(mark + 1) });
  if (WRITTEN.size >= WRITTEN_URLS) WRITTEN.clear();
  WRITTEN.set(url, written);
  return written;
}

/** URLs whose target {@link targetAsWritten} keeps, at most: a run's or a capture's few, not every generated one. */
const WRITTEN_URLS = 256;
const WRITTEN = new Map<string, Readonly<{ path: string; query?: string }>>();

/** `GET /v1/categories` style label of an exchange's request: the path as written. */
export function requestLine(exchange: Pick<Exchange, 'request'>): string {
  return `${exchange.request.method} ${targetAsWritten(exchange.request.url).path}`;
}

/** The outcome of an exchange in a few words: `401`, or `no response (TIMEOUT: ...)`. */
export function outcomeLine(exchange: Exchange): string {
  if (exchange.response) return `${exchange.response.status}`;
  return `no response (${exchange.error?.code}: ${exchange.error?.message})`;
}

/** Body text kept in records and reports, at most (UTF-16 units; `bodyBytes` keeps the full size). */
export const RECORDED_BODY_CAP = 64 * 1024;

/** What ends a recorded body cut at {@link RECORDED_BODY_CAP}. */
export const TRUNCATION_MARK = '…[truncated]';

/**
 * The first `units` UTF-16 units of `text`, one fewer when the cut would fall between the
 * two halves of a character outside the BMP: a lone surrogate is no character, and a JSON
 * file holding one is refused by strict parsers (RFC 8259 §8.2; jq).
 */
export function cutBetweenCharacters(text: string, units: number): string {
  const end = units > 0 && units < text.length && /[\ud800-\udbff]/.test(text[units - 1]!) ? units - 1 : units;
  return text.slice(0, end);
}

/** The request as recorded: a body past {@link RECORDED_BODY_CAP} is cut (between characters) and its size kept. */
export function recordedRequest(request: RecordedRequest): RecordedRequest {
  const body = request.body;
  if (body === undefined || body.length <= RECORDED_BODY_CAP) return request;
  return { ...request, body: `${cutBetweenCharacters(body, RECORDED_BODY_CAP)}${TRUNCATION_MARK}`, bodyBytes: Buffer.byteLength(body) };
}

/** The exchange with its response body cut to {@link RECORDED_BODY_CAP} (between characters), marked {@link TRUNCATION_MARK}. */
export function withBodyCapped(exchange: Exchange): Exchange {
  const response = exchange.response;
  if (!response || response.body.length <= RECORDED_BODY_CAP) return exchange;
  return { ...exchange, response: { ...response, body: `${detached(cutBetweenCharacters(response.body, RECORDED_BODY_CAP))}${TRUNCATION_MARK}` } };
}

/**
 * A recorded body as a file of exchanges keeps it (HAR): the text kept, without the mark
 * of a cut, and whether it was cut: its bytes on the wire are more than the text kept. A
 * body just past the cap is shorter than the cut text with its mark, so the mark is never
 * written: a reader finds the text shorter than its size, as for any writer that cut one.
 * @param bytes the body's bytes on the wire, when known.
 */
export function keptText(body: string, bytes: number | undefined): { text: string; cut: boolean } {
  if (bytes === undefined || !body.endsWith(TRUNCATION_MARK)) return { text: body, cut: false };
  const text = body.slice(0, -TRUNCATION_MARK.length);
  return Buffer.byteLength(text) < bytes ? { text, cut: true } : { text: body, cut: false };
}

/**
 * A copy of `text` sharing no memory with the string it was cut from: V8 keeps a substring
 * as a view of its parent, so a capped excerpt of a 13 MB list would otherwise keep the
 * whole list alive for the rest of the run. (UTF-16 code units round-trip exactly.)
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}
