/**
 * Invariants over every exchange the run recorded (this file runs last): section 4 for
 * every answer (no server error) and every success, section 7 for every error response,
 * RFC 9110 for every 401. Exchanges of `info` checks (edge cases the spec leaves open) are
 * observations only and never judged by a `must` invariant, with one exception: a server
 * error answers no request the spec describes, so it is judged wherever it occurs.
 * Attempts that were sent again (a 429 waited out, a stale connection) are not answers
 * and are never judged. The rules and their judgement: src/judgements/invariants.ts.
 */
import { check, isSelected } from '../src/check/define.js';
import { runState } from '../src/check/run-state.js';
import type { CheckDefinition } from '../src/check/types.js';
import { INVARIANTS, invariantRecord, judgeInvariant, type InvariantRecord } from '../src/judgements/invariants.js';
import { answeredOnTheirConnections, connectionLimitPolicy } from '../src/judgements/transport.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  /** Every exchange of the run, judged as it arrives (checks of every file run after this one is loaded). */
  const run = runState();
  const records: InvariantRecord[] = [];
  // Judged as they arrive, and only when some invariant is selected: each record parses its body.
  if (Object.keys(INVARIANTS).some((id) => isSelected(run.settings, id))) run.observe((exchange) => records.push(invariantRecord(exchange)));

  /** Declares the check that judges the run's whole record by the invariant of its id. */
  function invariant(definition: CheckDefinition & { id: keyof typeof INVARIANTS }): void {
    check(
      definition,
      async (_t, skip) => {
        const judged = judgeInvariant(definition.id, definition.level, records, (checkId) => run.levels.get(checkId) ?? 'info');
        if (judged === 0) skip(`no ${INVARIANTS[definition.id].kinds} were recorded that this invariant can judge`);
      },
      { sequential: true },
    );
  }

  invariant({
    id: 'answers-allowed-status',
    title: 'every answer to a list is 200 or 401, to a create 201, 400 or 401 (413 for a size limit, section 8; the honest refusal of a transport feature it used)',
    clause: '4',
    level: 'must',
    requirements: ['R-4-ANSWERS'],
  });

  invariant({
    id: 'no-server-error',
    title: 'no request of the run is answered with a server error (5xx), info probes included',
    clause: '4',
    level: 'must',
    requirements: ['R-4-ANSWERS'],
  });

  invariant({
    id: 'path-spellings-no-server-error',
    title: 'no request on another spelling of an operation’s path (a trailing slash, //, /./, %63, other case, ;x=1, an empty query), nor another method on its path (HEAD, OPTIONS), is answered with a server error (5xx; 501 to a method not implemented aside)',
    clause: '5',
    level: 'should',
    requirements: ['H-ANY-REQUEST-NO-5XX'],
    reference: 'RFC 9110 §15.6',
  });

  invariant({ id: 'error-body-is-error', title: 'every error response has an Error body (code, message, status)', clause: '7', level: 'must', requirements: ['R-7-SHAPE', 'R-2-ERROR'] });

  invariant({ id: 'error-status-matches-http', title: 'the status field of every Error equals the HTTP status', clause: '7', level: 'must', requirements: ['R-7-STATUS'] });

  invariant({ id: 'error-content-type-json', title: 'every error response is application/json', clause: '7', level: 'must', requirements: ['R-7-SHAPE'] });

  invariant({ id: 'success-content-type-json', title: 'every success response is application/json', clause: '4', level: 'must', requirements: ['R-4-JSON'] });

  invariant({
    id: 'json-without-byte-order-mark',
    title: 'no response body starts with a byte order mark',
    clause: '4',
    level: 'should',
    requirements: ['H-JSON-NO-BOM'],
    reference: 'RFC 8259 §8.1',
  });

  check(
    {
      id: 'connections-answered',
      title: 'every request is answered on the connection it went out on: none goes unanswered on a kept-alive connection and is answered when sent again on a new one (a limit on connections is observed, never a fault)',
      clause: '4',
      level: 'should',
      requirements: ['H-PERSISTENT-CONNECTIONS'],
      reference: 'RFC 9112 §9.3',
    },
    async (t) => {
      const { limit, answeredOnNew } = await run.client.connections();
      if (limit) t.observe(connectionLimitPolicy(limit));
      answeredOnTheirConnections(answeredOnNew);
    },
    { sequential: true },
  );

  invariant({
    id: 'unauthorized-has-challenge',
    title: 'every 401 carries a WWW-Authenticate challenge for the Bearer scheme',
    clause: '5',
    level: 'should',
    requirements: ['H-401-CHALLENGE'],
    reference: 'RFC 9110 §11.6.1, RFC 6750 §3',
  });
}
