/**
 * The premise of every judgement, stated once: which requests (and answers) its rule holds
 * for. The active checks send only requests their premise admits (context.ts asks
 * before each is sent), and the traffic judge applies a rule to a captured exchange only
 * when its premise holds (traffic/judge.ts), so a capture's request that no active check
 * would send is never held to a rule written for the suite's own. After Hypothesis's
 * `assume` and HTTPolice's stance on erratic captures: outside a premise, not judged.
 */
import type { RecordedRequest } from '../core/exchange.js';
import { isJsonMediaType } from '../http/media-type.js';
import { LARGEST_BODY_BYTES, PARSER_DEPTH_FLOOR, PARSER_WIDTH_FLOOR, requestVariation, type RequestVariation } from '../http/request-variations.js';
import { exceedsExtent } from '../json/extent.js';
import { spellingOf } from '../http/path-spellings.js';
import { targetAsWritten } from '../core/exchange.js';

/** The statuses the interface defines for errors (4.1, 4.2, section 7): their Error shape holds for any request. */
export const INTERFACE_ERROR_STATUSES: readonly number[] = [400, 401];

/**
 * The variation that sets a request apart from the interface's own requests
 * (http/request-variations.ts), the one that weighs most first (outside, then transport);
 * undefined for a request as the suite writes it.
 */
export function variationOf(request: PremiseRequest): RequestVariation | undefined {
  const known = variations.get(request);
  if (known !== undefined) return known ?? undefined;
  const found = variationFound(request);
  variations.set(request, found ?? null);
  return found;
}

/**
 * Each request's variation, once found (null: none): a captured exchange's premises ask
 * for it some twenty times. A recorded request is never changed after.
 */
const variations = new WeakMap<PremiseRequest, RequestVariation | null>();

function variationFound(request: PremiseRequest): RequestVariation | undefined {
  const method = request.method.toUpperCase();
  const { headers } = request;
  if (request.url !== undefined && spellingOf(request.url)) return requestVariation('path-spelling');
  // Every path of the service is below a base URL ending in /v1 (9/R2): one without that segment is another resource's.
  if (request.url !== undefined && !/\/v1(\/|$)/.test(targetAsWritten(request.url).path)) return requestVariation('other-path');
  if (method === 'OPTIONS' && headers['access-control-request-method'] !== undefined) return requestVariation('cors-preflight');
  if (method !== 'GET' && method !== 'POST') return requestVariation('other-method');
  const chunked = /(^|,)\s*chunked\s*$/i.test(headers['transfer-encoding'] ?? '');
  const bytes = request.bodyBytes ?? (request.body === undefined ? 0 : Buffer.byteLength(request.body));
  const hasBody = bytes > 0 || chunked || Number(headers['content-length'] ?? 0) > 0;
  if (hasBody && !isJsonMediaType(headers['content-type'])) return requestVariation('other-media-type');
  if (bytes > LARGEST_BODY_BYTES) return requestVariation('oversized-body');
  if (chunked) return requestVariation('chunked-framing');
  if (/^\s*100-continue\s*$/i.test(headers.expect ?? '')) return requestVariation('expect-continue');
  if (beyondParserLimits(request.body)) return requestVariation('beyond-parser-limits');
  return undefined;
}

/** The shortest text that can nest past the floor: that many brackets, opened and closed. */
const SHORTEST_BEYOND = 2 * (PARSER_DEPTH_FLOOR + 1);

/**
 * Whether a body nests or spreads past every mainstream parser's default limits
 * (http/request-variations.ts). Asked once per judgement of every request, so it is cheap:
 * a count of brackets and commas (native), and a walk only of a text that has enough of
 * them, which stops at the first container past a bound (json/extent.ts).
 */
function beyondParserLimits(body: string | undefined): boolean {
  return body !== undefined && body.length >= SHORTEST_BEYOND && exceedsExtent(body, PARSER_DEPTH_FLOOR, PARSER_WIDTH_FLOOR);
}

/** What a premise reads of a request: its method, header fields and body, and its URL as written when it is known. */
export type PremiseRequest = Pick<RecordedRequest, 'method' | 'headers' | 'body' | 'bodyBytes'> & { url?: string };

/** What a request and its answer must be for a rule to hold. */
export interface Premise {
  /** The premise in words, as `list --format json` shows it. */
  words: string;
  /** Whether the rule holds for this request (answered with `status`, when it was). */
  holds(request: PremiseRequest, status?: number): boolean;
}

const kindOf = (request: Parameters<Premise['holds']>[0]) => variationOf(request)?.kind;

/**
 * Whether a request is the interface's own: no variation, or an expectation (Expect:
 * 100-continue) the server went on past, which changes when the body is sent, not what it is.
 */
function isInterfaceRequest(request: Parameters<Premise['holds']>[0], status: number | undefined): boolean {
  const variation = variationOf(request);
  return variation === undefined || (variation.id === 'expect-continue' && status !== variation.honestRefusal?.status);
}

/**
 * Whether a capture did not keep a request body long enough to nest past the parsers'
 * limits: whether it is the interface's own request or `beyond-parser-limits` cannot be
 * told, so no rule that tells them apart (a 5xx, an error page past a parser's limit) is
 * judged on it (HTTPolice's stance). The rules that hold for both (401 without the key,
 * an Error body on a 400) still are.
 */
function bodyUntold(request: PremiseRequest): boolean {
  return request.body === undefined && (request.bodyBytes ?? 0) >= SHORTEST_BEYOND;
}

/** Variations whose request may reach another resource than the interface's (a static handler, a firewall, the root): its errors are its own. */
const OTHER_RESOURCE: ReadonlySet<string> = new Set(['path-spelling', 'other-path']);

/** The premises, by name. */
export const PREMISES = {
  interface: {
    words: `a request of the interface as the suite writes it: no body, or an application/json body (any parameters) of at most ${LARGEST_BODY_BYTES} bytes framed by Content-Length (an Expect: 100-continue the server went on past included)`,
    holds: isInterfaceRequest,
  },
  'same-request': {
    words: 'a request of the interface, whatever HTTP transport features frame it (chunked, Expect: 100-continue)',
    holds: (request) => kindOf(request) !== 'outside',
  },
  'interface-error': {
    words: `a request of the interface as the suite writes it, or any request but HEAD on its paths as written answered ${INTERFACE_ERROR_STATUSES.join(' or ')} (the errors the interface defines)`,
    // Another spelling of a path, or another path, may reach another route (a static handler, a firewall): its errors are its own.
    // An answer to HEAD has no content (RFC 9110 §9.3.2): no Error body to judge.
    holds: (request, status) => (isInterfaceRequest(request, status) && !bodyUntold(request)) || (status !== undefined && INTERFACE_ERROR_STATUSES.includes(status) && !OTHER_RESOURCE.has(variationOf(request)?.id ?? '') && request.method.toUpperCase() !== 'HEAD'),
  },
  'chunked-create': {
    words: 'a valid create whose body is framed with Transfer-Encoding: chunked, to a server that answers in HTTP/1.1',
    holds: (request) => variationOf(request)?.id === 'chunked-framing',
  },
  'within-parser-limits': {
    words: 'any request to the interface’s paths but a body past the limits RFC 8259 §9 lets a parser set (those are create-bodies-beyond-parser-limits’, at should), or a body a capture did not keep that is long enough to be one',
    holds: (request) => variationOf(request)?.id !== 'beyond-parser-limits' && !bodyUntold(request),
  },
  'beyond-parser-limits': {
    words: 'a create whose body nests or spreads past the limits RFC 8259 §9 lets a parser set, or a request of the interface as the suite writes it (a body of the largest size)',
    holds: (request, status) => variationOf(request)?.id === 'beyond-parser-limits' || isInterfaceRequest(request, status),
  },
  any: { words: 'any request to the interface’s paths', holds: () => true },
} as const satisfies Record<string, Premise>;

export type PremiseId = keyof typeof PREMISES;

/** The premise of each check that is not {@link PREMISES.interface}, the premise of every other. */
const CHECK_PREMISES: Readonly<Record<string, PremiseId>> = {
  'no-server-error': 'within-parser-limits',
  'create-bodies-beyond-parser-limits': 'beyond-parser-limits',
  'unauthorized-has-challenge': 'any',
  'error-body-is-error': 'interface-error',
  'error-status-matches-http': 'interface-error',
  'error-content-type-json': 'interface-error',
  'success-content-type-json': 'same-request',
  'json-without-byte-order-mark': 'same-request',
  'answers-allowed-status': 'same-request',
  'chunked-body-answered': 'chunked-create',
  'chunked-body-created-exactly': 'chunked-create',
  'auth-key-outside-authorization': 'any',
  'auth-key-in-query': 'any',
  // Its judgement tells them apart: 401 with an Error body to the interface's requests, nothing revealed to any other (judgements/auth.ts).
  'auth-rejects-generated-credentials': 'any',
  'auth-path-spellings': 'any',
  'path-spellings-no-server-error': 'any',
  'cors-preflight-answered': 'any',
};

/** The premise of a check (by id), and its name. */
export function premiseOf(checkId: string): Premise & { id: PremiseId } {
  const id = CHECK_PREMISES[checkId] ?? 'interface';
  return NAMED_PREMISES[id];
}

/** Each premise with its name, made once: asked for each judgement of each exchange. */
const NAMED_PREMISES = Object.fromEntries(Object.entries(PREMISES).map(([id, premise]) => [id, Object.freeze({ id, ...premise })])) as unknown as Record<PremiseId, Premise & { id: PremiseId }>;
