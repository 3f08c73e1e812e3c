/**
 * Judgements of the edge cases the spec leaves open (level info): pure functions of
 * recorded exchanges.
 */
import { expectCreated, expectResponse, expectSameFields, expectThat, type SentFields } from '../check/expect.js';
import type { Exchange } from '../core/exchange.js';

/**
 * edge-*: a value the spec leaves open is refused with 400 (or a status in `alsoAccepted`,
 * such as 413 for size, section 8) or stored exactly (201 with exactly the fields sent).
 */
export function storedExactlyOrRefused(create: Exchange, fields: SentFields, alsoAccepted: readonly number[] = []): void {
  const { status } = expectResponse(create);
  if (status === 400 || alsoAccepted.includes(status)) return;
  const accepted = ['201', '400', ...alsoAccepted.map(String)].join(' or ');
  expectThat(status === 201, `Expected ${accepted}, received ${status}`, create, { expected: `status ${accepted}`, found: `status ${status}` });
  expectSameFields(create, expectCreated(create), fields);
}
