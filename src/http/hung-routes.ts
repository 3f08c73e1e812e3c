import { RouteHung } from '../core/errors.js';
import { requestLine, type Exchange } from '../core/exchange.js';
import { BASELINE_FORM } from './client-form.js';
import { bodyText, type RequestSpec } from './request.js';

/** The error for a request on a hung route, saying what hung and whether it was this very request. */
function routeHung(evidence: Exchange, identical: boolean): RouteHung {
  const message = identical
    ? `the same request (#${evidence.seq}, sent by ${evidence.checkId}) got no response: ${evidence.error?.message}`
    : `blocked: ${describeRoute(evidence)} hangs: #${evidence.seq} (sent by ${evidence.checkId}) got no response: ${evidence.error?.message}`;
  return new RouteHung(message, evidence, identical);
}

/**
 * A route: method, path, and whether the request carries the configured key, under any
 * spelling of the scheme (`bearer KEY` is the keyed route too: a server that takes it
 * takes it to the handler that hangs).
 */
function routeOf(spec: Pick<RequestSpec, 'method' | 'path' | 'credential'>): string {
  return `${spec.method} ${spec.path} ${carriesKey(spec.credential.name) ? 'with the key' : 'without a valid key'}`;
}

/** Whether a credential is the configured key, under any spelling of the scheme. */
export function carriesKey(credential: string): boolean {
  return credential === 'valid' || credential.startsWith('valid-');
}

/** What makes two requests on a route the same request: the Authorization header, the body, and how it is written. */
function identityOf(spec: RequestSpec): string {
  const form = spec.form ?? BASELINE_FORM;
  return JSON.stringify([spec.credential.header ?? null, bodyText(spec.body, form.json) ?? null, form]);
}

function describeRoute(exchange: Exchange): string {
  return `${requestLine(exchange)} ${carriesKey(exchange.credential) ? 'with the key' : 'without a valid key'}`;
}

interface InFlight {
  spec: RequestSpec;
  abandon(reason: RouteHung): void;
}

/**
 * Routes of the target that hang. A route hangs when a request on it got no response
 * within the request deadline on a connection it established itself (a kept-alive one may
 * be what was not served: its request goes again on a new connection, and that
 * attempt's timeout counts), and no request on the route was answered after that request
 * was sent. From then on, the requests on the route that
 * are still waiting are abandoned and later ones are not sent: a server whose
 * `GET /categories` never answers is judged in about one request deadline, not one per
 * check, while a server that hangs on one input alone keeps being tested with others.
 */
export class HungRoutes {
  /** When each route last answered, in ms (performance.now()). */
  readonly #lastAnswer = new Map<string, number>();
  /** The first timeout on each hung route, with what identifies the request (kept in memory only). */
  readonly #hung = new Map<string, { evidence: Exchange; identity: string }>();
  readonly #inFlight = new Map<string, Set<InFlight>>();

  /** @throws RouteHung when the request's route hangs. */
  assertOpen(spec: RequestSpec): void {
    const hung = this.#hung.get(routeOf(spec));
    if (hung) throw routeHung(hung.evidence, hung.identity === identityOf(spec));
  }

  /**
   * Tracks a request under way, so that it can be abandoned if its route turns out to hang.
   * @returns the function to call when it ends.
   */
  track(spec: RequestSpec, abandon: (reason: RouteHung) => void): () => void {
    const route = routeOf(spec);
    const entry: InFlight = { spec, abandon };
    let set = this.#inFlight.get(route);
    if (!set) this.#inFlight.set(route, (set = new Set()));
    set.add(entry);
    return () => set.delete(entry);
  }

  /** Notes an answer on the request's route. */
  answered(spec: RequestSpec): void {
    this.#lastAnswer.set(routeOf(spec), performance.now());
  }

  /**
   * Notes a request that got no response within its deadline on an established
   * connection, sent at `sentAt` (ms, performance.now()). Declares its route hung when
   * nothing on it was answered since, and abandons the requests still waiting on it.
   */
  timedOut(spec: RequestSpec, sentAt: number, exchange: Exchange): void {
    const route = routeOf(spec);
    if (this.#hung.has(route) || (this.#lastAnswer.get(route) ?? -Infinity) >= sentAt) return;
    const identity = identityOf(spec);
    this.#hung.set(route, { evidence: exchange, identity });
    for (const waiting of this.#inFlight.get(route) ?? []) waiting.abandon(routeHung(exchange, identityOf(waiting.spec) === identity));
  }
}
