/**
 * Judgements of authentication (spec 5, 4.2/R3): pure functions of recorded exchanges.
 */
import { expectListArray, expectResponse, expectStatus, expectThat } from '../check/expect.js';
import { variationOf } from '../check/premises.js';
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

/**
 * auth-key-outside-authorization: a request that carries the key (or a server's cookies)
 * anywhere but the Authorization header has a missing key (5/R1: "A request carries the
 * header Authorization with the bearer scheme followed by the API key") and is answered
 * 401 (5/R2). A request outside the interface (a form post: its media type) may be refused
 * before the key is looked at, as the active run allows (check/premises.ts): only a 2xx
 * fails it. A 5xx is no-server-error's.
 * @param where where the request carried it, in words (key-placement.ts `placementWords`).
 */
export function keyElsewhereRefused(exchange: Exchange, where: string): void {
  const status = expectResponse(exchange).status;
  if (status >= 500) return;
  const accepted = status >= 200 && status < 300;
  const found = `status ${status}${accepted ? `: authenticated by ${where}` : ''}`;
  const outside = variationOf(exchange.request);
  if (outside) {
    expectThat(!accepted, `Expected a request carrying the key only in ${where} to be refused, received ${status}: the server authenticated it by ${where}`, exchange, { expected: 'no 2xx without Authorization', found });
    return;
  }
  expectThat(status === 401, `Expected 401 to a request carrying ${where} and no Authorization header (5/R1: the key goes in Authorization), received ${status}${accepted ? `: the server authenticated it by ${where}` : ''}`, exchange, { expected: 'status 401', found });
}
