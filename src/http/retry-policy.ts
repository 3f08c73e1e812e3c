/**
 * The one answer to "do we wait, how long, and may the request be sent again", for the
 * suite's client (http/client.ts), the traffic judge (traffic/judge.ts) and the proxy
 * (traffic/proxy.ts), so that a run, a capture and the proxy read the same exchange alike.
 *
 * - A refusal is not an answer: 429 Too Many Requests (RFC 6585 §4), or 503 Service
 *   Unavailable with a Retry-After that parses (RFC 9110 §15.6.4, §10.2.3). The client
 *   waits it out and sends the request again; the judge leaves it alone. A 503 whose
 *   Retry-After does not parse is an answer, a server error, for both.
 * - A failure before any response may be sent again without knowing whether it was
 *   applied only for an idempotent method (RFC 9110 §9.2.2). The client asks the target
 *   for the others; a proxy cannot ask, so it never sends anything again (RFC 9110 §9.2.2:
 *   a proxy MUST NOT retry a non-idempotent request automatically).
 */

/** Wait after a 429 that names none, in ms. */
export const DEFAULT_REFUSAL_WAIT_MS = 1_000;

/** A refusal: how long it asks to wait (ms), and whether it says the client sent too many (429: only that lowers a pace). */
export interface Refusal {
  waitMs: number;
  tooMany: boolean;
}

/**
 * The refusal a response is, or undefined when it is an answer.
 * @param now the clock an HTTP-date Retry-After is read against (ms since the epoch).
 */
export function refusalOf(response: { status: number; headers: Record<string, string> } | undefined, now = Date.now()): Refusal | undefined {
  if (!response) return undefined;
  const retryAfter = retryAfterMs(response.headers['retry-after'], now);
  if (response.status === 429) return { waitMs: retryAfter ?? DEFAULT_REFUSAL_WAIT_MS, tooMany: true };
  if (response.status === 503 && retryAfter !== undefined) return { waitMs: retryAfter, tooMany: false };
  return undefined;
}

/** A Retry-After value (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) in ms from `now`, or undefined when it is neither. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  // An HTTP-date starts with its day name (IMF-fixdate, RFC 850, asctime: RFC 9110 §5.6.7); Date.parse alone would read `5.5` as a date.
  if (!/^(mon|tue|wed|thu|fri|sat|sun)/i.test(value.trim())) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether a request that failed before any response may be sent again without asking whether it was applied: idempotent methods (RFC 9110 §9.2.2). */
export function maySendAgainUnasked(method: string): boolean {
  return ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(method.toUpperCase());
}
