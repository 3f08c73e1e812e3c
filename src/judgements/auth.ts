/**
 * Judgements of authentication (spec 5, 4.2/R3): pure functions of recorded exchanges.
 */
import { expectListArray, expectThat } from '../check/expect.js';
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
