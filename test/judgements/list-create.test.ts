/**
 * Judgements of the list and create classes (src/judgements/list.ts, create.ts), one case
 * per condition each distinguishes, on small recorded exchanges.
 */
import { describe, expect, test } from 'vitest';
import type { CreatedCategory } from '../../src/check/types.js';
import {
  deepBodyAnswered,
  idsNeverRepeated,
  allListed,
  clientIdNotAdopted,
  concurrentCreatesDistinct,
  createdExactly,
  createdListed,
  idsFresh,
  sameNameTwice,
} from '../../src/judgements/create.js';
import { listAnswers200Array, listIdsUnique, listItemsAreCategories } from '../../src/judgements/list.js';
import { answered, judged, unanswered } from '../support/exchanges.js';

const cats = { id: 1, name: 'Cats' };
const dogs = { id: 2, name: 'Dogs', description: 'Canines' };


/** What a listed item that is no Category breaks (spec 2 and 4.1). */
const LISTED = { breaks: ['R-2-CATEGORY', 'R-4.1-200'] };
describe('list-answers-200-array', () => {
  test.each([
    ['200 with an array passes', answered(200, [cats]), 'passed'],
    ['200 with an empty array passes', answered(200, []), 'passed'],
    ['200 with an object fails', answered(200, { items: [cats] }), { expected: 'a JSON array', found: 'an object' }],
    ['another status fails', answered(206, [cats]), { expected: 'status 200', found: 'status 206' }],
    ['text that is not JSON fails', answered(200, '<html>'), { expected: 'a JSON body', found: expect.stringMatching(/^not JSON/) }],
  ])('%s', (_d, list, outcome) => expect(judged(() => listAnswers200Array(list))).toEqual(outcome));
});

describe('list-items-are-categories', () => {
  test.each([
    ['Categories pass', answered(200, [cats, dogs]), 'passed'],
    // A listed item that is no Category breaks section 2's shape and 4.1's array of Categories; the body shown marks the item's field.
    ['an item without an id fails', answered(200, [cats, { name: 'Fish' }]), { ...LISTED, expected: 'a Category', found: "(root) must have required property 'id'", defect: "a Category: (root) must have required property 'id'", pointer: '/1' }],
    ['an item whose name is a number fails', answered(200, [{ id: 3, name: 123 }]), { ...LISTED, expected: 'a Category', found: '/name must be string (found integer)', defect: 'a Category: /name must be string (found integer)', pointer: '/0/name' }],
    ['an id past int64 fails', answered(200, '[{"id":18446744073709551616,"name":"x"}]'), { ...LISTED, expected: 'an int64 id', found: 'id 18446744073709551616', defect: 'a Category: an id outside int64', pointer: '/0/id' }],
  ])('%s', (_d, list, outcome) => expect(judged(() => listItemsAreCategories(list))).toEqual(outcome));
});

describe('list-ids-unique', () => {
  test.each([
    ['distinct ids pass', answered(200, [cats, dogs]), 'passed'],
    ['a repeated id fails', answered(200, [cats, { ...dogs, id: 1 }]), { expected: 'unique ids', found: 'a repeated id' }],
    ['ids that a double would merge stay distinct', answered(200, '[{"id":9007199254740993,"name":"a"},{"id":9007199254740992,"name":"b"}]'), 'passed'],
    ['ids equal as exact integers fail', answered(200, '[{"id":9007199254740993,"name":"a"},{"id":9007199254740993,"name":"b"}]'), { expected: 'unique ids', found: 'a repeated id' }],
    // The same defect as list-items-are-categories finds on the item: one root cause.
    ['an id that is not an integer fails', answered(200, [cats, { id: 'x', name: 'y' }]), { ...LISTED, expected: 'a Category', found: '/id must be integer (found string)', defect: 'a Category: /id must be integer (found string)', pointer: '/1/id' }],
  ])('%s', (_d, list, outcome) => expect(judged(() => listIdsUnique(list))).toEqual(outcome));
});

describe('create-ignores-client-id', () => {
  test.each([
    ['refusing the body (400) passes', answered(400, { code: 'x', message: 'y', status: 400 }), 'passed'],
    ['a service-assigned id passes', answered(201, { id: 12, name: 'n' }), 'passed'],
    ['adopting the supplied id fails', answered(201, { id: 7000000000001, name: 'n' }), { expected: 'a service-assigned id', found: 'the client-supplied id' }],
    ['refusing with another status fails', answered(422, {}), { expected: 'status 201', found: 'status 422' }],
  ])('%s', (_d, create, outcome) => expect(judged(() => clientIdNotAdopted(create, 7000000000001n))).toEqual(outcome));
});

describe('createdExactly and idsFresh', () => {
  const created = (id: string, checkId = 'c'): CreatedCategory => ({ id, name: 'n', checkId });
  test('the exact fields pass, an altered one fails', () => {
    expect(judged(() => createdExactly(answered(201, dogs), { name: 'Dogs', description: 'Canines' }))).toBe('passed');
    expect(judged(() => createdExactly(answered(201, dogs), { name: 'Dogs ', description: 'Canines' }))).toEqual({ expected: 'the name sent', found: 'another name' });
  });
  test('an id held once passes, an id held twice fails', () => {
    expect(judged(() => idsFresh([{ exchange: answered(201, dogs), id: 2n }], [created('1'), created('2')]))).toBe('passed');
    expect(judged(() => idsFresh([{ exchange: answered(201, dogs), id: 2n }], [created('2', 'a'), created('2', 'b')]))).toEqual({ expected: 'a fresh id', found: 'an id given before' });
  });
});

describe('create-deep-bodies: created exactly, or refused with 400 or 413 and an Error body', () => {
  const deep = 'an extra member nested 100,000 levels deep as arrays';
  const post = (status: number, body: unknown) => answered(status, body, { method: 'POST' });
  const error = (status: number, field = status) => ({ code: 'x', message: 'y', status: field });
  test.each([
    ['201 with the name sent', post(201, { id: 1, name: 'Cats' }), 'passed'],
    ['400 with an Error body', post(400, error(400)), 'passed'],
    ['413 with an Error body (section 8)', post(413, error(413)), 'passed'],
    ['near miss: 201 with another name', post(201, { id: 1, name: 'cats' }), { expected: 'the name sent', found: 'another name' }],
    ['near miss: 400 whose Error says 500', post(400, error(400, 500)), { expected: 'status field 400', found: 'status field 500', breaks: ['R-7-STATUS'], pointer: '/status' }],
    ['near miss: 413 with an HTML page', post(413, '<h1>413</h1>'), { expected: 'a JSON body', found: 'not JSON (Unexpected token \'<\', "<h1>413</h1>" is not valid JSON)' }],
    ['near miss: 500', post(500, error(500)), { expected: 'status 201, 400 or 413', found: 'status 500' }],
    ['near miss: 414, one past 413', post(414, error(414)), { expected: 'status 201, 400 or 413', found: 'status 414' }],
    ['near miss: 200 with the category', post(200, { id: 1, name: 'Cats' }), { expected: 'status 201, 400 or 413', found: 'status 200' }],
    ['near miss: no answer', unanswered('CONNECTION_RESET', { method: 'POST' }), { expected: 'a response', found: 'no response (CONNECTION_RESET)' }],
  ] as const)('%s', (_what, exchange, outcome) => expect(judged(() => deepBodyAnswered(exchange, { name: 'Cats' }, deep))).toEqual(outcome));

  test('past the parsers’ limits, a failure ends with why it is a robustness finding; the evidence is the same', () => {
    const limits = 'RFC 8259 §9 lets a parser limit nesting';
    expect(() => deepBodyAnswered(post(500, error(500)), { name: 'Cats' }, deep, limits)).toThrow(`Expected 201, or 400 or 413 with an Error body, to a valid body with ${deep}, received 500; ${limits}`);
    expect(() => deepBodyAnswered(unanswered('CONNECTION_RESET', { method: 'POST' }), { name: 'Cats' }, deep, limits)).toThrow(/^Expected a response, received no response \(CONNECTION_RESET: .*\); RFC 8259 §9 lets a parser limit nesting$/);
    expect(judged(() => deepBodyAnswered(post(500, error(500)), { name: 'Cats' }, deep, limits))).toEqual({ expected: 'status 201, 400 or 413', found: 'status 500' });
    // Near miss: an answer that is right stays right.
    expect(judged(() => deepBodyAnswered(post(400, error(400)), { name: 'Cats' }, deep, limits))).toBe('passed');
  });

  test('the messages name the member', () => {
    expect(() => deepBodyAnswered(post(500, error(500)), { name: 'Cats' }, deep)).toThrow(`Expected 201, or 400 or 413 with an Error body, to a valid body with ${deep}, received 500`);
  });
});

describe('create-ids-unique-at-scale: no create was given an id held before', () => {
  const created = (id: number, checkId = 'c') => ({ id: String(id), name: `n${id}`, checkId });
  test.each([
    ['no repeat', [], [created(1), created(2)], 'passed'],
    ['near miss: a create given the id of an earlier one', [answered(201, { id: 2, name: 'n2' }, { method: 'POST' })], [created(1), created(2, 'a'), created(2, 'b')], { expected: 'a fresh id', found: 'an id given before' }],
    ['near miss: a create given an id the list held before', [answered(201, { id: 7, name: 'n7' }, { method: 'POST' })], [created(7), created(7, 'the list before these creates')], { expected: 'a fresh id', found: 'an id given before' }],
  ] as const)('%s', (_what, repeats, holders, outcome) => expect(judged(() => idsNeverRepeated(repeats, holders))).toEqual(outcome));

  test('the message names the id and the checks that were given it', () => {
    expect(() => idsNeverRepeated([answered(201, { id: 2, name: 'n2' }, { method: 'POST' })], [created(2, 'create-name-only'), created(2, 'create-ids-unique-at-scale')])).toThrow(
      'Expected a fresh id, found id 2 given to 2 categories (checks: create-name-only, create-ids-unique-at-scale)',
    );
  });
});

describe('create-listed', () => {
  const sent = [{ checkId: 'create-name-only', fields: { name: 'Cats' }, created: { id: 1n, name: 'Cats' } }];
  test.each([
    ['listed with its fields passes', answered(200, [dogs, cats]), 'passed'],
    ['missing fails', answered(200, [dogs]), { expected: 'a created category listed', found: 'it missing' }],
    ['listed altered fails', answered(200, [{ id: 1, name: 'cats' }]), { expected: 'the name sent', found: 'another name' }],
    ['listed as something other than a Category fails', answered(200, [{ id: 1, name: ['Cats'] }]), { ...LISTED, expected: 'a Category', found: '/name must be string (found array)', defect: 'a Category: /name must be string (found array)', pointer: '/0/name' }],
  ])('%s', (_d, list, outcome) => expect(judged(() => createdListed(list, sent))).toEqual(outcome));
});

describe('create-same-name-twice', () => {
  const bodies = [{ name: 'N', description: 'first' }, { name: 'N', description: 'second' }] as const;
  const first = answered(201, { id: 1, ...bodies[0] });
  test.each([
    ['two ids, both listed, passes', answered(201, { id: 2, ...bodies[1] }), answered(200, [{ id: 1, ...bodies[0] }, { id: 2, ...bodies[1] }]), 'passed'],
    ['an upsert (the same id again) fails', answered(201, { id: 1, ...bodies[1] }), answered(200, [{ id: 1, ...bodies[1] }]), { expected: 'two ids', found: 'one id for both' }],
    ['the first overwritten in the list fails', answered(201, { id: 2, ...bodies[1] }), answered(200, [{ id: 1, ...bodies[1] }, { id: 2, ...bodies[1] }]), { expected: 'the description sent', found: 'another description' }],
    ['a unique index refusing the second fails', answered(409, {}), answered(200, []), { expected: 'status 201', found: 'status 409' }],
  ])('%s', (_d, second, list, outcome) => expect(judged(() => sameNameTwice([first, second], bodies, list))).toEqual(outcome));
});

describe('create-concurrent-ids-unique', () => {
  const bodies = [{ name: 'a' }, { name: 'b' }];
  test.each([
    ['distinct ids, all listed, passes', [answered(201, { id: 1, name: 'a' }), answered(201, { id: 2, name: 'b' })], [{ id: 1, name: 'a' }, { id: 2, name: 'b' }], 'passed'],
    ['a shared id fails', [answered(201, { id: 1, name: 'a' }), answered(201, { id: 1, name: 'b' })], [{ id: 1, name: 'a' }], { expected: 'distinct ids', found: 'a repeated id' }],
    ['one not listed fails', [answered(201, { id: 1, name: 'a' }), answered(201, { id: 2, name: 'b' })], [{ id: 1, name: 'a' }], { expected: 'a created category listed', found: 'it missing' }],
  ])('%s', (_d, creates, items, outcome) => expect(judged(() => concurrentCreatesDistinct(creates, bodies, answered(200, items)))).toEqual(outcome));
});

describe('list-not-paginated', () => {
  const created: CreatedCategory[] = [{ id: '1', name: 'a', checkId: 'x' }, { id: '2', name: 'b', checkId: 'y' }, { id: '"3"', name: 'c', checkId: 'z' }];
  test.each([
    ['every category with an integer id listed passes', [{ id: 1, name: 'a' }, { id: 2, name: 'b' }], 'passed'],
    ['a first page only fails', [{ id: 1, name: 'a' }], { expected: 'every category of the run listed', found: '1 missing' }],
  ])('%s', (_d, items, outcome) => expect(judged(() => allListed(answered(200, items), created))).toEqual(outcome));
});
