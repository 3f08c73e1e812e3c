/**
 * The invariants judged over every exchange a run recorded (sections 4 and 7, RFC 9110 for
 * every 401), as data and one pure judgement. A sample would miss the one handler that
 * answers differently; the whole record does not.
 */
import { CheckFailure } from '../core/errors.js';
import { requestLine, withBodyCapped, type Exchange, type RecordedResponse } from '../core/exchange.js';
import { premiseOf, variationOf } from '../check/premises.js';
import { isJsonMediaType } from '../http/media-type.js';
import { BYTE_ORDER_MARK, exactInteger, lexemeOf, parseJson, type JsonParseResult } from '../json/lossless.js';
import type { CheckLevel } from '../requirements/catalogue.js';
import { violations } from '../schema/validators.js';
import { onOperationPath, spellingOf } from '../http/path-spellings.js';

/** One invariant: the responses it judges, and what is wrong with one. */
export interface Invariant {
  /** What it judges, in the plural words of its messages: `error responses` ("1 of 3 error responses broke the rule"). */
  kinds: string;
  /** What holds when it passes, in a few words: the `expected` of its failures. */
  rule: string;
  /** Whether it judges the exchanges of checks at every level: info probes included. */
  everyLevel?: boolean;
  applies(response: RecordedResponse, exchange: Exchange): boolean;
  /**
   * Undefined when the response is fine, null when this invariant cannot judge it (another
   * does), else what is wrong. `parsedBody` parses the body on first call.
   */
  problem(response: RecordedResponse, parsedBody: ParsedBody, exchange: Exchange): string | null | undefined;
}

/** The operation a request is of: listCategories or createCategory, by method and path as written; undefined for any other (another spelling of the path included). */
function operationOf(exchange: Exchange): 'list' | 'create' | undefined {
  if (!onOperationPath(exchange.request.url)) return undefined;
  return exchange.request.method === 'GET' ? 'list' : exchange.request.method === 'POST' ? 'create' : undefined;
}

/** The statuses each operation may answer (4.1, 4.2; 413: section 8's size limits). */
export const ALLOWED_STATUSES: Readonly<Record<'list' | 'create', readonly number[]>> = { list: [200, 401], create: [201, 400, 401, 413] };

/**
 * The statuses a request of an operation may be answered with: those of the spec, and the
 * honest refusal of a transport feature it used (411 to a chunked body, 417 to an
 * expectation: http/request-variations.ts).
 */
export function allowedStatuses(exchange: Exchange, operation: 'list' | 'create'): readonly number[] {
  const variation = variationOf(exchange.request);
  const honest = variation?.kind === 'transport' && variation.honestRefusal ? [variation.honestRefusal.status] : [];
  return [...ALLOWED_STATUSES[operation], ...honest];
}

const isError = (response: RecordedResponse) => response.status >= 400;

/** A 5xx in words, or undefined. */
const serverError = (response: RecordedResponse) => (response.status >= 500 ? `a server error (${response.status})` : undefined);

/** The body parsed, at most once per judgement: two invariants read it, and it may be 16 MiB. */
type ParsedBody = () => JsonParseResult;

/** The error body as an object, or null when it is not a JSON object (judged by error-body-is-error). */
function errorObject(parsedBody: ParsedBody): Record<string, unknown> | null {
  const parsed = parsedBody();
  if (!parsed.ok || parsed.json.value === null || typeof parsed.json.value !== 'object' || Array.isArray(parsed.json.value)) return null;
  return parsed.json.tree as Record<string, unknown>;
}

const contentType = (response: RecordedResponse) =>
  isJsonMediaType(response.headers['content-type']) ? undefined : `Content-Type is ${response.headers['content-type'] ?? 'absent'}`;

/** The invariants, by the id of the check that judges each. */
export const INVARIANTS = {
  'answers-allowed-status': {
    kinds: 'answers to listCategories or createCategory',
    rule: 'a status the spec lists (a list 200 or 401; a create 201, 400, 401 or 413)',
    // A 5xx is no-server-error's; the others are the table of 4.1 and 4.2. The problem is the status alone: one root cause with every check a wrong status fails.
    applies: (response, exchange) => response.status < 500 && operationOf(exchange) !== undefined,
    problem: (response, _parsed, exchange) => (allowedStatuses(exchange, operationOf(exchange)!).includes(response.status) ? undefined : `status ${response.status}`),
  },
  'no-server-error': {
    kinds: 'responses of listCategories or createCategory',
    rule: 'no server error',
    everyLevel: true,
    // Only the two specified operations: the status codes of the others are not shown (4.3), and another method on their path is outside the interface.
    applies: (_response, exchange) => operationOf(exchange) !== undefined,
    // A refusal of any value is a 4xx answer; a 5xx answers nothing the spec describes (R-4-ANSWERS).
    problem: serverError,
  },
  'path-spellings-no-server-error': {
    kinds: 'answers to other spellings of an operation’s path, and to other methods on it',
    rule: 'no server error',
    everyLevel: true,
    // Outside the interface (http/path-spellings.ts, other methods): only what holds for any request, that it is answered
    // without a 5xx; 501 is the honest answer to a method a server does not implement (RFC 9110 §15.6.2).
    applies: (response, exchange) => spellingOf(exchange.request.url) !== undefined || (onOperationPath(exchange.request.url) && operationOf(exchange) === undefined && response.status !== 501),
    problem: serverError,
  },
  'error-body-is-error': {
    kinds: 'error responses',
    rule: 'an Error body',
    applies: isError,
    problem: (response, parsedBody) => {
      if (!response.utf8Valid) return 'the body is not valid UTF-8';
      const parsed = parsedBody();
      if (!parsed.ok) return `the body is not JSON (${parsed.reason})`;
      const problems = violations('Error', parsed.json.value);
      return problems.length > 0 ? `not an Error: ${problems.join('; ')}` : undefined;
    },
  },
  'error-status-matches-http': {
    kinds: 'error responses with a JSON object body',
    rule: 'the status field equal to the HTTP status',
    applies: isError,
    problem: (response, parsedBody) => {
      const body = errorObject(parsedBody);
      if (!body || !('status' in body)) return null;
      return exactInteger(body.status) === BigInt(response.status) ? undefined : `status field is ${lexemeOf(body.status)}`;
    },
  },
  'error-content-type-json': { kinds: 'error responses', rule: 'application/json', applies: isError, problem: contentType },
  'success-content-type-json': { kinds: 'success responses', rule: 'application/json', applies: (response) => response.status >= 200 && response.status < 300, problem: contentType },
  'json-without-byte-order-mark': {
    kinds: 'response bodies',
    rule: 'no byte order mark',
    applies: (response) => response.utf8Valid && response.body !== '',
    // RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF)"; the value after it is judged as usual.
    problem: (response) =>
      response.body.startsWith(BYTE_ORDER_MARK) ? `a byte order mark (U+FEFF) before the body ${JSON.stringify(response.body.slice(1, 61))}${response.body.length > 61 ? '…' : ''}` : undefined,
  },
  'unauthorized-has-challenge': {
    kinds: '401 responses',
    rule: 'a Bearer challenge',
    applies: (response) => response.status === 401,
    problem: (response) => {
      const challenge = response.headers['www-authenticate'];
      if (challenge === undefined) return 'no WWW-Authenticate header';
      // RFC 9110 §11.6.1: a list of challenges, the scheme case-insensitive.
      return /(^|,)\s*bearer\b/i.test(challenge) ? undefined : `WWW-Authenticate is ${challenge}, without the Bearer scheme`;
    },
  },
} as const satisfies Record<string, Invariant>;

export type InvariantId = keyof typeof INVARIANTS;

/**
 * One exchange as the invariants keep it for the end of the run: its body capped, and what
 * each invariant that applies found in the whole body as it arrived (undefined: nothing
 * wrong; null: this invariant cannot judge it). A run keeps hundreds of error bodies, and a
 * hostile target can make each 16 MiB.
 */
export interface InvariantRecord {
  exchange: Exchange;
  problems: ReadonlyMap<InvariantId, string | null | undefined>;
}

/**
 * Judges an exchange by every invariant that applies to it and whose premise it meets, as
 * it arrives. Attempts sent again (superseded) are not answers: no invariant applies.
 */
export function invariantRecord(exchange: Exchange): InvariantRecord {
  const problems = new Map<InvariantId, string | null | undefined>();
  const response = exchange.response;
  if (response && !exchange.superseded) {
    // Parsed here and dropped on return: the tree of a 16 MiB body is ten times its size.
    let parsed: JsonParseResult | undefined;
    const parsedBody = () => (parsed ??= parseJson(response.body));
    for (const [id, invariant] of Object.entries(INVARIANTS) as Array<[InvariantId, Invariant]>) {
      // Its premise first (check/premises.ts): a 411 to a chunked body, a 415 to a form post, is no Error the interface defines.
      if (invariant.applies(response, exchange) && premiseOf(id).holds(exchange.request, response.status)) problems.set(id, invariant.problem(response, parsedBody, exchange));
    }
  }
  return { exchange: withBodyCapped(exchange), problems };
}

/** An invariant judges the exchanges of checks at its own level or a stricter one. */
const STRICTNESS: Record<CheckLevel, number> = { info: 0, should: 1, must: 2 };

/**
 * Judges every exchange of a run by one invariant: skips exchanges it does not apply to
 * and, unless the invariant judges every level, exchanges of checks at a laxer level than
 * `level` (an info probe must not weigh on a must rule).
 * @param levelOf the level of the check that made an exchange.
 * @returns how many exchanges it judged (0: nothing it can judge was recorded).
 * @throws CheckFailure naming how many broke the rule and quoting the first.
 */
export function judgeInvariant(id: InvariantId, level: CheckLevel, records: readonly InvariantRecord[], levelOf: (checkId: string) => CheckLevel): number {
  const invariant: Invariant = INVARIANTS[id];
  let judged = 0;
  const offenders: Array<{ exchange: Exchange; problem: string }> = [];
  for (const { exchange, problems } of records) {
    if (!problems.has(id)) continue;
    if (!invariant.everyLevel && STRICTNESS[levelOf(exchange.checkId)] < STRICTNESS[level]) continue;
    const problem = problems.get(id);
    if (problem === null) continue;
    judged++;
    if (problem !== undefined) offenders.push({ exchange, problem });
  }
  const first = offenders[0];
  if (first) {
    throw new CheckFailure(
      `${offenders.length} of ${judged} ${invariant.kinds} broke the rule; first: ${requestLine(first.exchange)} ` +
        `(check ${first.exchange.checkId}${first.exchange.label ? `: ${first.exchange.label}` : ''}) answered ${first.exchange.response!.status}: ${first.problem}`,
      first.exchange,
      { expected: invariant.rule, found: first.problem },
    );
  }
  return judged;
}
