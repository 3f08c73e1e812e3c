/**
 * Judgements of HTTP transport features the interface does not rely on
 * (http/request-variations.ts, kind `transport`): each by its own RFC, never at must. The
 * must part of a transport exchange is what holds for any request: a body the server
 * accepts is stored exactly (4.2/R1), and nothing is answered with a 5xx (the invariants').
 */
import { expectThat } from '../check/expect.js';
import { CheckFailure } from '../core/errors.js';
import { requestLine, type Exchange } from '../core/exchange.js';
import type { ConnectionLimitRecord } from '../http/connection-limit.js';
import { createdExactly, type SentCategory } from './create.js';

/** The status that refuses a chunked body honestly: 411 Length Required (RFC 9110 §15.5.12). */
export const LENGTH_REQUIRED = 411;

/** Why no chunked body is sent to a peer: it answers in HTTP/1.0, which has no chunked coding; undefined for HTTP/1.1 and later. */
export function chunkedNotAsked(peerVersion: string | undefined): string | undefined {
  return peerVersion === 'HTTP/1.0'
    ? 'not asked: the target answers in HTTP/1.0, and a client sends chunked framing only to a server known to speak HTTP/1.1 (RFC 9112 §7.1)'
    : undefined;
}

/**
 * chunked-body-answered (should, RFC 9112 §7.1: "A recipient MUST be able to parse the
 * chunked transfer coding"): a valid create whose body is framed chunked is answered, and
 * either accepted (201) or refused with 411 Length Required, the honest refusal of a
 * server that will not read it. A 5xx fails here too, and at must in no-server-error.
 * @returns the transport policy to observe, for a 411.
 * @throws CheckFailure for no answer, a 400 (the body read as missing or broken), or any other status.
 */
export function chunkedBodyAnswered(create: Exchange): { policy?: string } {
  const framed = 'a valid body framed with Transfer-Encoding: chunked (RFC 9112 §7.1)';
  const response = create.response;
  expectThat(response !== undefined, `Expected an answer to ${framed}, received none: ${create.error?.code}: ${create.error?.message}`, create, {
    expected: 'an answer to a chunked body',
    found: `no response (${create.error?.code})`,
  });
  if (response.status === LENGTH_REQUIRED) return { policy: 'request bodies sent chunked are refused (411 Length Required): a transport policy (RFC 9110 §15.5.12)' };
  expectThat(
    response.status !== 400,
    `Expected ${framed} to be read ("a recipient MUST be able to parse the chunked transfer coding"), received 400: a server that will not read chunked bodies refuses them honestly with 411 Length Required`,
    create,
    { expected: 'status 201, or 411 Length Required', found: 'status 400' },
  );
  expectThat(response.status === 201, `Expected 201 or 411 Length Required to ${framed}, received ${response.status}`, create, { expected: 'status 201, or 411 Length Required', found: `status ${response.status}` });
  return {};
}

/**
 * chunked-body-created-exactly (must, 4.2/R1): a valid body that the server accepted, framed
 * chunked, is created exactly as sent. A refusal is not this rule's (see
 * {@link chunkedBodyAnswered}); a 5xx is the invariants'.
 * @returns what was created, for the list that must hold it; `refused` when the body was
 *   not accepted; `unanswered` when no answer came (nothing to hold to the rule).
 * @throws CheckFailure when an acceptance is not the 201 of 4.2/R1, or carries other fields than were sent (damaged or dropped).
 */
export function chunkedCreatedExactly(create: Exchange, fields: SentCategory['fields'], checkId: string): SentCategory | 'refused' | 'unanswered' {
  const status = create.response?.status;
  if (status === undefined) return 'unanswered';
  // Any 2xx accepted the body: it must be the 201 with the Category (a 200 is no refusal).
  if (status < 200 || status >= 300) return 'refused';
  return { checkId, fields, created: createdExactly(create, fields) };
}

/**
 * connections-answered (should, RFC 9112 §9.3: a persistent connection carries request
 * after request): no request went unanswered on a kept-alive connection and was then
 * answered when sent again on a new one. The connection was not served (an unread
 * body left on it, a request lost under concurrency), not the operation: a finding, never
 * at must; a real client would have waited there too, so it is shown.
 * @param answeredOnNew the first attempt of each such request (no response), in order.
 * @throws CheckFailure naming how many, with the first.
 */
export function answeredOnTheirConnections(answeredOnNew: readonly Exchange[]): void {
  const first = answeredOnNew[0];
  if (!first) return;
  const count = answeredOnNew.length;
  throw new CheckFailure(
    `${count} request${count === 1 ? '' : 's'} went unanswered on a reused connection and ${count === 1 ? 'was' : 'were'} answered when sent again on a new one; first: ${requestLine(first)} (check ${first.checkId}): ${first.error?.code}: ${first.error?.message}`,
    first,
    { expected: 'an answer on the connection it went out on', found: `${count} unanswered on a reused connection, answered on a new one` },
  );
}

/**
 * The target's limit on connections, as a policy in words (section 8: limits are not
 * shown): `the target held 8 connections at once and reset those beyond (240 resets, each
 * request sent again): a limit on connections; the run used 8`.
 */
export function connectionLimitPolicy(limit: ConnectionLimitRecord): string {
  return `the target held ${limit.mostHeld} connection${limit.mostHeld === 1 ? '' : 's'} at once and reset those beyond (${limit.resets} reset${limit.resets === 1 ? '' : 's'}, each request sent again): a limit on connections (section 8); the run used ${limit.used}`;
}
