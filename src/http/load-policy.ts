/**
 * The run's own load is never the target's fault: whether an attempt that got
 * no response is explained by it, decided from facts alone, so that the client acts on one
 * answer and a test can hold every edge.
 *
 * - `limit`: a new connection reset (or refused) before any response while other
 *   connections counted at the target (requests on the wire, or one just closed to make
 *   way, whose close may reach it later): a gateway's cap on connections. The request goes again once the
 *   limit fell, as long as it cannot have been applied. One that provably never left (its
 *   head was never written) goes again however often: the target never saw it. One that
 *   was written goes again at most {@link MAX_LIMIT_RESETS} times: a request reset again and
 *   again at a falling limit is the target's answer after all. A connection the target held
 *   (reused) is not reset by a limit: that is the stale-connection race (RFC 9112 §9.3.1),
 *   decided elsewhere.
 * - `unanswered-on-reused`: no response within the deadline on a kept-alive connection (a
 *   server that leaves an unread body on the connection, or loses it under the run's
 *   concurrency): sent again once, on a new connection of its own. Answered then, the timeout is
 *   a should finding about the connection (connections-answered, RFC 9112 §9.3), not a must
 *   failure of the operation; a hang that repeats stays one.
 * - A probe: past a reset, a connection beyond the most the target is known to hold
 *   (ConnectionLimit.ceiling) may be reset in turn. Only a request that may be sent again
 *   whatever came of it goes out as one, and only before any reset of it was taken for the
 *   limit ({@link mayProbe}): at a cap of 1 the run probes after nearly every answer, and a
 *   create with the key reset as a probe could not be sent again.
 * - `streak`: so many connections reset in a row, with no answer between, that the target
 *   refuses every connection: the run stops (exit 3), never ending with exit 1.
 */
import type { Exchange } from '../core/exchange.js';
import { carriesKey } from './hung-routes.js';
import { isIdempotent, type RequestSpec } from './request.js';

/** Times a request that was written is sent again after a new connection of its was reset amid others: past it, the reset is the target's answer. */
export const MAX_LIMIT_RESETS = 6;

/** Resets in a row, beyond two bursts of every connection at once, after which the run stops. */
export const RESETS_BEYOND_BURSTS = 8;

/** How a superseded attempt says it went unanswered on a kept-alive connection. */
export const UNANSWERED_ON_REUSED = 'no response on a reused connection';

/** What the run's load explains of an attempt, if anything. */
export type LoadCause = 'limit' | 'unanswered-on-reused' | 'streak';

/** What the client knows of an attempt and of the request's attempts before it. */
export interface LoadFacts {
  /** Whether other connections counted at the target when it started or when it ended: on the wire, or closed to make way for it (ConnectionPool.othersOpen). */
  crowded: boolean;
  /** Attempts of this request, written before their reset, already taken for the target's limit. */
  limitResets: number;
  /** Whether this attempt's head was written on its connection (if not, it provably never left). */
  written: boolean;
  /** Whether an attempt of this request already went unanswered on a reused connection (this one went out again on a new one). */
  sentAgain: boolean;
  /** Connections failed in a row before any response, this one included. */
  resetsInARow: number;
  /** The run's `--connections`: a burst of resets as large as every connection at once is no streak. */
  connections: number;
}

/**
 * A connection that failed before any byte of a response: reset or refused (RFC 9112
 * §9.6). Amid other connections, the target's limit on connections; alone, its answer.
 */
export function isConnectionFailure(exchange: Pick<Exchange, 'error'>): boolean {
  return (exchange.error?.code === 'CONNECTION_RESET' || exchange.error?.code === 'CONNECTION_REFUSED') && exchange.error.phase === 'headers';
}

/** The cause of an attempt's failure the run's own load explains (see the module), or undefined: the target's answer. */
export function loadCause(exchange: Pick<Exchange, 'error' | 'connection'>, facts: LoadFacts): LoadCause | undefined {
  if (isConnectionFailure(exchange)) {
    if (facts.resetsInARow >= 2 * facts.connections + RESETS_BEYOND_BURSTS) return 'streak';
    return facts.crowded && exchange.connection === 'fresh' && (!facts.written || facts.limitResets < MAX_LIMIT_RESETS) ? 'limit' : undefined;
  }
  // No answer on a kept-alive connection: none in time, or bytes where a status line belongs (what a server left
  // there, the unread body of a request it refused, read as the next request: Django's runserver).
  const unanswered = exchange.error?.code === 'TIMEOUT' || (exchange.error?.code === 'INVALID_HTTP' && exchange.error.phase === 'headers');
  return unanswered && exchange.connection === 'reused' && !facts.sentAgain ? 'unanswered-on-reused' : undefined;
}

/**
 * Whether `spec` may go out beyond the connections the target is known to hold, where it may
 * be reset (see the module): idempotent, or without the valid key (a create without it must
 * create nothing, 4.2/R3), and no attempt of it taken for the limit yet.
 * @param takenForLimit attempts of this request already reset and taken for the target's limit.
 */
export function mayProbe(spec: Pick<RequestSpec, 'method' | 'credential'>, takenForLimit: number): boolean {
  return takenForLimit === 0 && harmlessToRepeat(spec);
}

/**
 * Whether `spec` may be sent again whatever came of it: idempotent (RFC 9110 §9.2.2), or
 * without the valid key, so that it must have created nothing (4.2/R3).
 */
export function harmlessToRepeat(spec: Pick<RequestSpec, 'method' | 'credential'>): boolean {
  return isIdempotent(spec) || !carriesKey(spec.credential.name);
}
