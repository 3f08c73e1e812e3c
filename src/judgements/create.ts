/**
 * Judgements of the createCategory class (spec 4.2/R1, section 2, and 4.1/R1 for what is
 * listed after): pure functions of recorded exchanges, each throwing a CheckFailure with
 * what it expected and found.
 */
import { ListedItems, expectCreated, expectErrorStatus, expectResponse, expectSameFields, expectThat, type CategoryView, type SentFields } from '../check/expect.js';
import type { CreatedCategory } from '../check/types.js';
import { CheckFailure } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';

/** create-name-only, create-with-description, create-unicode: 201 with the Category holding exactly the fields sent (4.2/R1). */
export function createdExactly(create: Exchange, fields: SentFields): CategoryView {
  const created = expectCreated(create);
  expectSameFields(create, created, fields);
  return created;
}

/** The answers a valid body with a deep or wide extra member may get: created, or refused (413: section 8's size limits). */
const DEEP_BODY_ANSWERS = [201, 400, 413];

/**
 * Why a crash on a body past the parsers' limits is no conformance failure, in the words
 * its should finding ends with (RFC 8259 §9; the defaults: request-variations.ts).
 */
export const PARSER_LIMITS_WORDS =
  'RFC 8259 §9 lets a parser limit nesting (by default Ruby’s json at 100 levels, PHP’s at 512, Python’s recursion near 1,000, Jackson 1,000): a robustness finding, not the verdict';

/**
 * create-deep-bodies (must), create-bodies-beyond-parser-limits (should): a valid body
 * whose extra member is nested deep or spread wide (spec section 2 does not forbid unknown
 * members) is created exactly (4.2/R1), or refused with 400 or 413 and an Error body
 * (section 7, section 8's limits); never left unanswered, never a 5xx (section 4). What
 * was found is the status alone, as the other create checks find it: one wrong status is
 * one root cause; the message names the member.
 * @param label the extra member in words: `an extra member nested 100,000 levels deep as arrays`.
 * @param limits for a body past the parsers' limits: the words that end its failure ({@link PARSER_LIMITS_WORDS}).
 * @throws CheckFailure with the status found (or no response), and `limits` after it.
 */
export function deepBodyAnswered(create: Exchange, fields: SentFields, label: string, limits?: string): void {
  try {
    const { status } = expectResponse(create);
    expectThat(DEEP_BODY_ANSWERS.includes(status), `Expected 201, or 400 or 413 with an Error body, to a valid body with ${label}, received ${status}`, create, {
      expected: 'status 201, 400 or 413',
      found: `status ${status}`,
    });
    if (status === 201) createdExactly(create, fields);
    else expectErrorStatus(create, status);
  } catch (error) {
    if (limits === undefined || !(error instanceof CheckFailure)) throw error;
    throw new CheckFailure(`${error.message}; ${limits}`, error.exchange, error.deviation);
  }
}

/**
 * create-ids-unique, create-valid-bodies: the id of each create is held by no other
 * category the run saw created (section 2: "Unique identifier").
 * @param created every category the run saw created so far, these included.
 */
export function idsFresh(creates: ReadonlyArray<{ exchange: Exchange; id: bigint }>, created: readonly CreatedCategory[]): void {
  for (const { id, exchange } of creates) {
    const holders = created.filter((category) => category.id === id.toString());
    expectThat(holders.length === 1, `Expected a fresh id, found id ${id} given to ${holders.length} categories (checks: ${holders.map((h) => h.checkId).join(', ')})`, exchange, {
      expected: 'a fresh id',
      found: 'an id given before',
    });
  }
}

/**
 * create-ids-unique-at-scale: no create of the run was given an id that another category
 * already had (section 2: "Unique identifier"): one of the run's own, or one a list held
 * before.
 * @param repeats the creates given an id seen before, in completion order (the first is shown).
 * @param holders every category known to hold an id: the run's creates, and the listed ones.
 */
export function idsNeverRepeated(repeats: readonly Exchange[], holders: readonly CreatedCategory[]): void {
  const first = repeats[0];
  if (first) idsFresh([{ exchange: first, id: expectCreated(first).id }], holders);
}

/**
 * create-ignores-client-id: an id the client supplied is not adopted (section 2: "assigned
 * by the service on creation. The client never supplies it"). Refusing the body (400) and
 * ignoring the field are both conformant.
 */
export function clientIdNotAdopted(create: Exchange, supplied: bigint): void {
  if (expectResponse(create).status === 400) return;
  const created = expectCreated(create);
  expectThat(created.id !== supplied, `Expected a service-assigned id, found the client-supplied id ${supplied}`, create, {
    expected: 'a service-assigned id',
    found: 'the client-supplied id',
  });
}

/** What a create sent and what came back, for judging a later list. */
export interface SentCategory {
  checkId: string;
  fields: SentFields;
  created: CategoryView;
}

/**
 * create-listed: every category created earlier is in the list with the same fields (4.1/R1).
 * @param listed the list's items, when the caller has read them already.
 */
export function createdListed(list: Exchange, sent: readonly SentCategory[], listed = new ListedItems(list)): void {
  for (const { checkId, fields, created } of sent) {
    const item = listed.get(created.id);
    expectThat(item !== undefined, `Expected id ${created.id} (created by ${checkId}) in the list of ${listed.size} items, not found`, list, {
      expected: 'a created category listed',
      found: 'it missing',
    });
    expectSameFields(list, item, fields, `listed id ${created.id}`);
  }
}

/**
 * create-same-name-twice: two creates of one name with different descriptions give two
 * categories, each with its own id and the fields sent, both listed (4.2/R1; section 2 makes
 * no name unique).
 */
export function sameNameTwice(creates: readonly [Exchange, Exchange], bodies: readonly [SentFields, SentFields], list: Exchange): void {
  const [first, second] = creates.map((create, i) => createdExactly(create, bodies[i]!)) as [CategoryView, CategoryView];
  expectThat(first.id !== second.id, `Expected two ids for two creates, found id ${first.id} for both`, creates[1], { expected: 'two ids', found: 'one id for both' });
  createdListed(list, [first, second].map((created, i) => ({ checkId: `create ${i + 1} of 2`, fields: bodies[i]!, created })));
}

/**
 * create-concurrent-ids-unique: creates sent at once all answer 201 with distinct ids, and
 * all are then listed with their fields (section 2, 4.1/R1).
 */
export function concurrentCreatesDistinct(creates: readonly Exchange[], bodies: readonly SentFields[], list: Exchange): void {
  const ids = new Map<bigint, number>();
  creates.forEach((create, i) => {
    const created = expectCreated(create);
    const first = ids.get(created.id);
    expectThat(first === undefined, `Expected ${creates.length} distinct ids, found id ${created.id} for creates ${first! + 1} and ${i + 1}`, create, {
      expected: 'distinct ids',
      found: 'a repeated id',
    });
    ids.set(created.id, i);
  });
  const listed = new ListedItems(list);
  for (const [id, i] of ids) {
    const item = listed.get(id);
    expectThat(item !== undefined, `Expected id ${id} (parallel create ${i + 1}) in the list, not found`, list, { expected: 'a created category listed', found: 'it missing' });
    expectSameFields(list, item, bodies[i]!, `listed id ${id}`);
  }
}

/**
 * list-not-paginated: one list holds every category the run saw created with an integer id
 * (4.1/R2: "the response is the whole array").
 */
export function allListed(list: Exchange, created: readonly CreatedCategory[]): void {
  const integerId = /^-?\d+$/;
  const expected = created.filter((category) => integerId.test(category.id));
  const listed = new ListedItems(list);
  const missing = expected.filter((category) => !listed.has(BigInt(category.id)));
  expectThat(
    missing.length === 0,
    `Expected all ${expected.length} categories of this run in one list of ${listed.size} items; ${missing.length} missing, first id ${missing[0]?.id} (by ${missing[0]?.checkId})`,
    list,
    { expected: 'every category of the run listed', found: `${missing.length} missing` },
  );
}
