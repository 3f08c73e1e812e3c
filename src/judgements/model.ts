/**
 * Judgement of the stateful checks (spec 4.1/R1, 4.2): what a list must show after a
 * sequence of creates, as a pure function of the list and the model.
 */
import { ListedItems, expectSameFields, expectThat, type SentFields } from '../check/expect.js';
import type { Exchange } from '../core/exchange.js';

/** What the service must hold, as far as one sequence knows. */
export interface Model {
  /** Categories this sequence created, by exact id, with the fields sent. */
  created: Map<bigint, SentFields>;
  /** Tags of refused creates: no listed category may carry one. */
  refused: Set<string>;
}

/**
 * model-based-sequences: every category the sequence created is listed with the fields
 * sent (4.1/R1), and no category carries the tag of a create that was refused (4.2). The
 * target may be shared, so the list is judged for containment, never equality.
 */
export function listHoldsModel(list: Exchange, model: Model): void {
  const listed = new ListedItems(list);
  for (const [id, fields] of model.created) {
    const item = listed.get(id);
    expectThat(item !== undefined, `Expected id ${id}, created earlier in this sequence, in the list; not found`, list, { expected: 'a created category listed', found: 'it missing' });
    expectSameFields(list, item, fields, `listed id ${id}`);
  }
  // A refused create is found by its marker, whatever shape the server gave the item.
  const refused = (field: unknown) => typeof field === 'string' && model.refused.has(field);
  const intruder = listed.values.find((item) => {
    const { name, description } = (item ?? {}) as { name?: unknown; description?: unknown };
    return refused(name) || refused(description);
  }) as { id?: unknown; name?: unknown } | undefined;
  expectThat(intruder === undefined, `Expected refused creates to stay absent, found id ${String(intruder?.id)} (${String(intruder?.name)})`, list, {
    expected: 'refused creates absent',
    found: 'a refused create listed',
  });
}
