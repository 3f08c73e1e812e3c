/**
 * The assertions every judgement is built from (src/check/expect.ts), one case per
 * condition each distinguishes.
 */
import { describe, expect, test } from 'vitest';
import { describeDifference, expectCreated, expectEachCase, expectErrorStatus, expectSameFields, expectStatus } from '../../src/check/expect.js';
import { answered, judged, unanswered } from '../support/exchanges.js';

const category = { id: 7, name: 'Cats', description: 'Felines' };

describe('expectStatus', () => {
  test.each([
    ['the expected status passes', answered(400), 'passed'],
    ['another status fails', answered(422), { expected: 'status 400', found: 'status 422' }],
    ['no response fails', unanswered('TIMEOUT'), { expected: 'a response', found: 'no response (TIMEOUT)' }],
  ])('%s', (_description, exchange, outcome) => {
    expect(judged(() => expectStatus(exchange, 400))).toEqual(outcome);
  });
});

/** What a create's Category that deviates breaks (spec 2 and 4.2/R1). */
const CREATED = { breaks: ['R-2-CATEGORY', 'R-4.2-R1'] };

describe('expectCreated', () => {
  test.each([
    ['201 with a Category passes', answered(201, category), 'passed'],
    ['200 fails', answered(200, category), { expected: 'status 201', found: 'status 200' }],
    ['an empty body fails', answered(201, ''), { expected: 'a JSON body', found: 'not JSON (the body is empty)' }],
    ['invalid UTF-8 fails', answered(201, category, { utf8Valid: false }), { expected: 'a UTF-8 JSON body', found: 'invalid UTF-8' }],
    // A Category that deviates breaks section 2's shape and the create's 4.2/R1, and names its defect (the fold of root causes) and where it lies.
    ['an id as a string fails', answered(201, { ...category, id: '7' }), { ...CREATED, expected: 'a Category', found: '/id must be integer (found string)', defect: 'a Category: /id must be integer (found string)', pointer: '/id' }],
    ['an id as a float fails', answered(201, '{"id":7.5,"name":"Cats"}'), { ...CREATED, expected: 'a Category', found: expect.stringMatching(/^\/id must be integer \(found number\)/), defect: expect.stringMatching(/^a Category: \/id must be integer \(found number\)/), pointer: '/id' }],
    ['near miss: an integer written 7.0 is the integer 7 (JSON Schema)', answered(201, '{"id":7.0,"name":"Cats"}'), 'passed'],
    ['an id past int64 fails, though a double would round it in', answered(201, '{"id":9223372036854775808,"name":"Cats"}'), { ...CREATED, expected: 'an int64 id', found: 'id 9223372036854775808', defect: 'a Category: an id outside int64', pointer: '/id' }],
    ['the largest int64 passes', answered(201, '{"id":9223372036854775807,"name":"Cats"}'), 'passed'],
    ['a name that is not a string fails', answered(201, { id: 7, name: 123 }), { ...CREATED, expected: 'a Category', found: '/name must be string (found integer)', defect: 'a Category: /name must be string (found integer)', pointer: '/name' }],
    ['no name fails', answered(201, { id: 7 }), { ...CREATED, expected: 'a Category', found: "(root) must have required property 'name'", defect: "a Category: (root) must have required property 'name'", pointer: '' }],
  ])('%s', (_description, exchange, outcome) => {
    expect(judged(() => expectCreated(exchange))).toEqual(outcome);
  });
});

describe('expectSameFields', () => {
  const exchange = answered(201, category);
  test.each([
    ['the same fields pass', { name: 'Cats', description: 'Felines' }, { name: 'Cats', description: 'Felines' }, 'passed'],
    ['a description that was not sent is not judged', { name: 'Cats', description: 'Felines' }, { name: 'Cats' }, 'passed'],
    ['a trimmed name fails', { name: 'Cats' }, { name: ' Cats' }, { expected: 'the name sent', found: 'another name' }],
    ['a case-folded name fails', { name: 'cats' }, { name: 'Cats' }, { expected: 'the name sent', found: 'another name' }],
    ['a dropped description fails', { name: 'Cats' }, { name: 'Cats', description: 'Felines' }, { expected: 'the description sent', found: 'no description' }],
    ['an altered description fails', { name: 'Cats', description: 'felines' }, { name: 'Cats', description: 'Felines' }, { expected: 'the description sent', found: 'another description' }],
  ])('%s', (_description, found, sent, outcome) => {
    expect(judged(() => expectSameFields(exchange, { id: 7n, ...found }, sent))).toEqual(outcome);
  });
});

/** What a 401 whose body is no Error breaks. */
const ERROR_401 = { expected: 'an Error body', breaks: ['R-7-SHAPE', 'R-2-ERROR', 'R-5-R2'] };

describe('expectErrorStatus', () => {
  test.each([
    [400, ['R-7-SHAPE', 'R-2-ERROR', 'R-4.2-400']],
    [401, ['R-7-SHAPE', 'R-2-ERROR', 'R-5-R2']],
    [403, ['R-7-SHAPE', 'R-2-ERROR']],
  ])('a %i whose body is no Error breaks the rule that names its Error body', (status, breaks) => {
    expect(judged(() => expectErrorStatus(answered(status, { error: 'x' }), status))).toMatchObject({ breaks });
  });

  const error = (status: unknown) => ({ code: 'unauthorized', message: 'no key', status });
  test.each([
    ['401 with an Error whose status is 401 passes', answered(401, error(401)), 'passed'],
    // A wrong status field breaks section 7's rule alone; a body that is no Error, 7's shape, 2's Error and 5/R2's Error body of a 401.
    ['a status field of another value fails', answered(401, error(400)), { expected: 'status field 401', found: 'status field 400', breaks: ['R-7-STATUS'], pointer: '/status' }],
    ['a status field as a string fails', answered(401, error('401')), { ...ERROR_401, found: '/status must be integer (found string)', defect: 'an Error body: /status must be integer (found string)', pointer: '/status' }],
    ['a body that is not an Error fails', answered(401, { error: 'no key' }), { ...ERROR_401, found: expect.stringContaining("required property 'code'"), defect: expect.stringMatching(/^an Error body: .*required property 'code'/), pointer: '' }],
    ['another status fails first', answered(403, error(403)), { expected: 'status 401', found: 'status 403' }],
  ])('%s', (_description, exchange, outcome) => {
    expect(judged(() => expectErrorStatus(exchange, 401))).toEqual(outcome);
  });
});

describe('describeDifference', () => {
  test.each([
    ['a surrogate pair decoded unit by unit', 'Cats 🐈!', 'Cats \ufffd\ufffd!', 'at character 6, U+1F408 came back as U+FFFD U+FFFD'],
    ['a dropped line break', 'a\nb', 'ab', 'at character 2, U+000A came back as nothing'],
    ['a cut end', 'abcdef', 'abc', 'at character 4, U+0064 U+0065 U+0066 came back as nothing'],
    ['a trimmed end', 'a ', 'a', 'at character 2, U+0020 came back as nothing'],
    ['trimmed at both ends: the whole span', ' a ', 'a', 'at character 1, U+0020 U+0061 U+0020 came back as U+0061'],
    ['a long difference is shortened', 'x'.repeat(10), 'y', 'at character 1, U+0078 U+0078 U+0078 U+0078 U+0078 U+0078 … (10 characters) came back as U+0079'],
  ])('%s', (_d, sent, found, words) => expect(describeDifference(sent, found)).toBe(words));
});

describe('expectEachCase: every case judged, the first failure reported with a tally when there were several', () => {
  const failing = (c: number) => Promise.resolve().then(() => void expectStatus(answered(c), 400));
  const message = async (cases: number[]) => {
    try {
      await expectEachCase(cases, (c) => `case ${c}`, failing);
      return 'passed';
    } catch (error) {
      return (error as Error).message;
    }
  };
  test('one case of one: no tally; near miss: one failing of two says so', async () => {
    expect(await message([422])).toBe('case 422: Expected status 400, received 422');
    expect(await message([400, 422])).toBe('case 422: Expected status 400, received 422 (1 of 2 cases failed)');
    expect(await message([400, 400])).toBe('passed');
  });

  test('a case that fails outweighs one that could not be judged, in either order; near miss: with none failing, the check errs', async () => {
    const { CheckError } = await import('../../src/core/errors.js');
    const erring = (c: number) => Promise.resolve().then(() => (c === 0 ? Promise.reject(new CheckError('not judged')) : failing(c)));
    const outcome = async (cases: number[]) => expectEachCase(cases, (c) => `case ${c}`, erring).then(() => 'passed', (error: { code: string; message: string }) => `${error.code}: ${error.message}`);
    expect(await outcome([0, 422])).toBe('PCS_CHECK_FAILURE: case 422: Expected status 400, received 422 (1 of 2 cases failed)');
    expect(await outcome([422, 0])).toBe('PCS_CHECK_FAILURE: case 422: Expected status 400, received 422 (1 of 2 cases failed)');
    expect(await outcome([0, 400])).toBe('PCS_CHECK_ERROR: not judged');
  });
});

describe('how a value is named in a message', async () => {
  const { kindOf, quote } = await import('../../src/check/expect.js');
  test.each([
    [null, 'null'],
    [[], 'an array'],
    [{}, 'an object'],
    ['x', 'a string'],
    [1, 'a number'],
    [true, 'a boolean'],
  ])('%j is %s', (value, kind) => expect(kindOf(value)).toBe(kind));

  test('a text of 80 characters is quoted whole; of 81, its first 80 and its length; absent is said', () => {
    expect(quote('q'.repeat(80))).toBe(JSON.stringify('q'.repeat(80)));
    expect(quote('q'.repeat(81))).toBe(JSON.stringify(`${'q'.repeat(80)}…(81 chars)`));
    expect(quote(undefined)).toBe('absent');
  });
});
