/**
 * Conformance class listCategories (spec 4.1): GET /categories with a valid key. The
 * checks run one after another: a list can be 100,000 items, and three parsed at once
 * would triple the memory for no gain on a normal list. Judgements: src/judgements/list.ts.
 */
import { check } from '../src/check/define.js';
import { settleAll } from '../src/check/settle.js';
import { CheckError } from '../src/core/errors.js';
import { expectResponse } from '../src/check/expect.js';
import { listAnswers200Array, listIdsUnique, listItemsAreCategories } from '../src/judgements/list.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  check(
    { id: 'list-answers-200-array', title: 'an authorized list answers 200 with a JSON array, before the run writes anything and after', clause: '4.1', level: 'must', requirements: ['R-4.1-200'], needs: ['list'] },
    async (t) => {
      // First before anything is written: a store that starts empty is seen empty (Go's nil slice marshals as null).
      listAnswers200Array(await t.firstLook());
      // Then with an item of this run in it (its answer is judged by the create class, but it must have one); a read-only run judges what exists.
      if (t.readOnly) return;
      expectResponse(await t.create({ json: { name: t.name() } }));
      listAnswers200Array(await t.list());
    },
    { sequential: true, firstLook: true, serialRequests: 3 },
  );

  check(
    { id: 'list-items-are-categories', title: 'every listed item is a Category with an int64 id', clause: '4.1', level: 'must', requirements: ['R-4.1-200', 'R-2-CATEGORY'], needs: ['list'] },
    async (t, skip) => {
      // One category of this run guarantees an item to judge; a read-only run judges what exists.
      if (!t.readOnly) await t.create({ json: { name: t.name() } });
      if (listItemsAreCategories(await t.list()).length > 0) return;
      if (t.readOnly) skip('the list is empty and a read-only run adds nothing to judge');
      throw new CheckError('the list is empty, so no item can be judged');
    },
    { sequential: true, serialRequests: 2 },
  );

  check(
    { id: 'list-ids-unique', title: 'ids in a list are unique, compared as exact integers', clause: '2', level: 'must', requirements: ['R-2-ID-UNIQUE'], needs: ['list'] },
    async (t, skip) => {
      // Two categories of this run guarantee at least two ids to compare; a read-only run compares what exists.
      if (!t.readOnly) await settleAll(['a', 'b'].map((label) => t.create({ json: { name: t.name(label) } })));
      const items = listIdsUnique(await t.list());
      if (items >= 2) return;
      if (t.readOnly) skip(`the list holds ${items} item(s) and a read-only run adds none to compare`);
      throw new CheckError(`the list holds ${items} item(s); uniqueness needs two`);
    },
    { sequential: true, serialRequests: 2 },
  );
}
