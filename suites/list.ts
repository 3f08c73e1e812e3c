/**
 * Conformance class listCategories (spec 4.1): GET /categories with a valid key. The
 * checks run one after another: a list can be 100,000 items, and three parsed at once
 * would triple the memory for no gain on a normal list.
 */
import { check } from '../src/check/define.js';
import { expectCategoryList, expectJsonBody, expectListArray, expectStatus, expectThat, kindOf } from '../src/check/expect.js';
import { exactInteger, lexemeOf } from '../src/json/lossless.js';
import { CheckError } from '../src/core/errors.js';
import { settleAll } from '../src/check/settle.js';

check(
  { id: 'list-answers-200-array', title: 'an authorized list answers 200 with a JSON array', clause: '4.1', level: 'must', requirements: ['R-4.1-200'] },
  async (t) => {
    const exchange = await t.list();
    expectStatus(exchange, 200);
    const { value } = expectJsonBody(exchange);
    expectThat(Array.isArray(value), `Expected a JSON array, found ${kindOf(value)}`, exchange);
  },
  { sequential: true },
);

check(
  { id: 'list-items-are-categories', title: 'every listed item is a Category with an int64 id', clause: '4.1', level: 'must', requirements: ['R-4.1-200', 'R-2-CATEGORY'] },
  async (t, skip) => {
    // One category of this run guarantees an item to judge; a read-only run judges what exists.
    if (!t.readOnly) await t.create({ json: { name: t.name() } });
    const items = expectCategoryList(await t.list());
    if (items.length === 0) {
      if (t.readOnly) skip('the list is empty and a read-only run adds nothing to judge');
      throw new CheckError('the list is empty, so no item can be judged');
    }
  },
  { sequential: true, serialRequests: 2 },
);

check(
  { id: 'list-ids-unique', title: 'ids in a list are unique, compared as exact integers', clause: '2', level: 'must', requirements: ['R-2-ID-UNIQUE'] },
  async (t, skip) => {
    // Two categories of this run guarantee at least two ids to compare; a read-only run compares what exists.
    if (!t.readOnly) await settleAll(['a', 'b'].map((label) => t.create({ json: { name: t.name(label) } })));
    const exchange = await t.list();
    // Only the ids are judged here; the rest of each item is list-items-are-categories' to judge.
    const items = expectListArray(exchange).tree as unknown[];
    if (items.length < 2) {
      if (t.readOnly) skip(`the list holds ${items.length} item(s) and a read-only run adds none to compare`);
      throw new CheckError(`the list holds ${items.length} item(s); uniqueness needs two`);
    }
    const seen = new Map<bigint, number>();
    items.forEach((item, index) => {
      const node = (item as { id?: unknown } | null)?.id;
      const id = exactInteger(node);
      expectThat(id !== undefined, `Expected an integer id at item ${index} to compare, found ${lexemeOf(node)}`, exchange);
      const first = seen.get(id);
      expectThat(first === undefined, `Expected unique ids, found id ${id} at items ${first} and ${index}`, exchange);
      seen.set(id, index);
    });
  },
  { sequential: true, serialRequests: 2 },
);
