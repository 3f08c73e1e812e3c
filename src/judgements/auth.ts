/**
 * Judgements of authentication (spec 5, 4.2/R3): pure functions of recorded exchanges.
 */
import { expectListArray, expectStatus, expectThat } from '../check/expect.js';
import type { Exchange } from '../core/exchange.js';

/**
 * auth-rejects-generated-credentials: no category in the list carries the tag that every
 * valid body sent without a valid key carried: nothing was created without the key
 * (4.2/R3). Only tagged items are judged: the others are the list checks'.
 */
export function noneCreatedWithoutKey(list: Exchange, tag: string): void {
  const leaked = expectListArray(list).value.filter((item) => (item as { description?: unknown } | null)?.description === tag);
  expectThat(leaked.length === 0, `Expected no category created without a valid key, found ${leaked.length} (first id ${String((leaked[0] as { id?: unknown } | undefined)?.id)})`, list, {
    expected: 'nothing created without a valid key',
    found: `${leaked.length} created`,
  });
}

/**
 * unauthorized-invalid-token: the 401 to an unknown key challenges with
 * `error="invalid_token"` (RFC 6750 §3.1). Auth-param values may be quoted or not, and
 * their names are case-insensitive (RFC 9110 §11.2).
 */
export function challengesInvalidToken(exchange: Exchange): void {
  const challenge = expectStatus(exchange, 401).headers['www-authenticate'];
  expectThat(/(^|[\s,])error\s*=\s*"?invalid_token"?/i.test(challenge ?? ''), `Expected a Bearer challenge with error="invalid_token", received ${challenge === undefined ? 'no WWW-Authenticate' : `WWW-Authenticate: ${challenge}`}`, exchange, {
    expected: 'error="invalid_token"',
    found: challenge ?? 'no WWW-Authenticate',
  });
}
