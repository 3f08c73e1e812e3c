/**
 * Invariants over every exchange the run recorded (this file runs last): section 4 for
 * every answer (no server error) and every success, section 7 for every error response,
 * RFC 9110 for every 401. A sample would miss the one handler that answers differently;
 * the whole record does not. Exchanges of `info` checks (edge cases the spec leaves open)
 * are observations only and never judged by a `must` invariant, with one exception: a
 * server error answers no request the spec describes, so it is judged wherever it occurs.
 * Attempts that were sent again (a 429 waited out, a stale connection) are not answers
 * and are never judged.
 */
import { check } from '../src/check/define.js';
import { CheckFailure } from '../src/core/errors.js';
import { runState } from '../src/check/run-state.js';
import type { CheckDefinition, CheckLevel } from '../src/check/types.js';
import { requestLine, type Exchange, type RecordedResponse } from '../src/core/exchange.js';
import { isJsonMediaType } from '../src/http/media-type.js';
import { exactInteger, lexemeOf, parseJson } from '../src/json/lossless.js';
import { violations } from '../src/schema/validators.js';

type Answered = Exchange & { response: RecordedResponse };

/** An invariant judges the exchanges of checks at its own level or a stricter one. */
const STRICTNESS: Record<CheckLevel, number> = { info: 0, should: 1, must: 2 };

/**
 * Declares a check that `problem` finds nothing in any recorded exchange `applies` to.
 * `problem` returns undefined when the exchange is fine, `null` when it cannot be judged
 * (left to another invariant), or a description of what is wrong.
 */
function invariant(
  definition: CheckDefinition,
  kind: string,
  applies: (response: RecordedResponse, exchange: Answered) => boolean,
  problem: (response: RecordedResponse) => string | null | undefined,
  options: { everyLevel?: boolean } = {},
): void {
  check(
    definition,
    async (_t, skip) => {
      const judged: Answered[] = [];
      const offenders: Array<{ exchange: Answered; problem: string }> = [];
      const run = runState();
      for (const exchange of run.exchanges) {
        if (!exchange.response || exchange.superseded || !applies(exchange.response, exchange as Answered)) continue;
        // An info probe of behaviour the spec leaves open must not weigh on a must rule.
        if (!options.everyLevel && STRICTNESS[run.levels.get(exchange.checkId) ?? 'info'] < STRICTNESS[definition.level]) continue;
        const found = problem(exchange.response);
        if (found === null) continue;
        judged.push(exchange as Answered);
        if (found !== undefined) offenders.push({ exchange: exchange as Answered, problem: found });
      }
      if (judged.length === 0) skip(`no ${kind} was recorded that this invariant can judge`);
      if (offenders.length > 0) {
        const { exchange, problem: first } = offenders[0]!;
        throw new CheckFailure(
          `${offenders.length} of ${judged.length} ${kind}s broke the rule; first: ${requestLine(exchange)} ` +
            `(check ${exchange.checkId}) answered ${exchange.response.status}: ${first}`,
          exchange,
        );
      }
    },
    { sequential: true },
  );
}

const isError = (response: RecordedResponse) => response.status >= 400;

invariant(
  {
    id: 'no-server-error',
    title: 'no request of the run is answered with a server error (5xx), info probes included',
    clause: '4',
    level: 'must',
    requirements: ['R-4-ANSWERS'],
  },
  'response of listCategories or createCategory',
  // Only the two specified operations: the status codes of the others are not shown (4.3).
  (_response, exchange) => new URL(exchange.request.url).pathname.endsWith('/v1/categories'),
  // A refusal of any value is a 4xx answer; a 5xx answers nothing the spec describes.
  (response) => (response.status >= 500 ? `a server error (${response.status})` : undefined),
  { everyLevel: true },
);

/** The error body as an object, or null when it is not a JSON object (judged by error-body-is-error). */
function errorObject(response: RecordedResponse): { tree: Record<string, unknown> } | null {
  const parsed = parseJson(response.body);
  if (!parsed.ok || parsed.json.value === null || typeof parsed.json.value !== 'object' || Array.isArray(parsed.json.value)) {
    return null;
  }
  return { tree: parsed.json.tree as Record<string, unknown> };
}

invariant(
  { id: 'error-body-is-error', title: 'every error response has an Error body (code, message, status)', clause: '7', level: 'must', requirements: ['R-7-SHAPE', 'R-2-ERROR'] },
  'error response',
  isError,
  (response) => {
    if (!response.utf8Valid) return 'the body is not valid UTF-8';
    const parsed = parseJson(response.body);
    if (!parsed.ok) return `the body is not JSON (${parsed.reason})`;
    const problems = violations('Error', parsed.json.value);
    return problems.length > 0 ? `not an Error: ${problems.join('; ')}` : undefined;
  },
);

invariant(
  { id: 'error-status-matches-http', title: 'the status field of every Error equals the HTTP status', clause: '7', level: 'must', requirements: ['R-7-STATUS'] },
  'error response with a JSON object body',
  isError,
  (response) => {
    const body = errorObject(response);
    if (!body || !('status' in body.tree)) return null;
    const status = exactInteger(body.tree.status);
    return status === BigInt(response.status) ? undefined : `status field is ${lexemeOf(body.tree.status)}`;
  },
);

invariant(
  { id: 'error-content-type-json', title: 'every error response is application/json', clause: '7', level: 'must', requirements: ['R-7-SHAPE'] },
  'error response',
  isError,
  (response) => (isJsonMediaType(response.headers['content-type']) ? undefined : `Content-Type is ${response.headers['content-type'] ?? 'absent'}`),
);

invariant(
  { id: 'success-content-type-json', title: 'every success response is application/json', clause: '4', level: 'must', requirements: ['R-4-JSON'] },
  'success response',
  (response) => response.status >= 200 && response.status < 300,
  (response) => (isJsonMediaType(response.headers['content-type']) ? undefined : `Content-Type is ${response.headers['content-type'] ?? 'absent'}`),
);

invariant(
  {
    id: 'unauthorized-has-challenge',
    title: 'every 401 carries a WWW-Authenticate challenge for the Bearer scheme',
    clause: '5',
    level: 'should', requirements: ['H-401-CHALLENGE'],
    reference: 'RFC 9110 §11.6.1, RFC 6750 §3',
  },
  '401 response',
  (response) => response.status === 401,
  (response) => {
    const challenge = response.headers['www-authenticate'];
    if (challenge === undefined) return 'no WWW-Authenticate header';
    return /(^|,)\s*bearer\b/i.test(challenge) ? undefined : `WWW-Authenticate is ${challenge}, without the Bearer scheme`;
  },
);
