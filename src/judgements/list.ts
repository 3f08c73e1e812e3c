/**
 * Judgements of the listCategories class (spec 4.1): pure functions of recorded exchanges,
 * each throwing a CheckFailure with what it expected and found, or returning what the check
 * needs next.
 */
import { expectCategory, expectCategoryList, expectListArray, expectThat, type CategoryView } from '../check/expect.js';
import type { Exchange } from '../core/exchange.js';
import { exactInteger } from '../json/lossless.js';

/** list-answers-200-array: an authorized list answers 200 with a JSON array (4.1). */
export function listAnswers200Array(list: Exchange): void {
  expectListArray(list);
}

/** list-items-are-categories: every listed item is a Category with an int64 id (4.1, 2). @returns the items. */
export function listItemsAreCategories(list: Exchange): CategoryView[] {
  return expectCategoryList(list);
}

/**
 * list-ids-unique: the ids of a list are unique, compared as exact integers (2). Only the
 * ids are judged: the rest of each item is list-items-are-categories', and an item whose
 * id cannot be compared fails as that check fails on it (expectCategory): one defect, one
 * root cause.
 * @returns how many items the list holds.
 */
export function listIdsUnique(list: Exchange): number {
  const json = expectListArray(list);
  const items = json.tree as unknown[];
  const seen = new Map<bigint, number>();
  // The messages are built only on failure: a list may hold 100,000 items.
  items.forEach((item, index) => {
    const node = (item as { id?: unknown } | null)?.id;
    const id = exactInteger(node);
    if (id === undefined) {
      // An item whose id is no exact integer is no Category: expectCategory throws.
      expectCategory(list, item, json.value[index], () => `item ${index} of the list: `, index);
      return;
    }
    const first = seen.get(id);
    if (first !== undefined) expectThat(false, `Expected unique ids, found id ${id} at items ${first} and ${index}`, list, { expected: 'unique ids', found: 'a repeated id' });
    seen.set(id, index);
  });
  return items.length;
}
