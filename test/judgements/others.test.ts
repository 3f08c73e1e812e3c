/**
 * The remaining judgements on small recorded exchanges: authentication, the edge cases,
 * the model of the stateful checks, refusals and length limits.
 */
import { describe, expect, test } from 'vitest';
import { bisectLimit, codePoints, explainingMeasures, mayExceedLimit, measuresFromProbes, type LengthObservation } from '../../src/check/length-limit.js';
import { allowedRefusal, isRefusal } from '../../src/check/refusal.js';
import { noneCreatedWithoutKey } from '../../src/judgements/auth.js';
import { storedExactlyOrRefused } from '../../src/judgements/edge-cases.js';
import { listHoldsModel } from '../../src/judgements/model.js';
import { answered, judged } from '../support/exchanges.js';

describe('auth-rejects-generated-credentials: nothing created without a key', () => {
  test.each([
    ['no tagged category passes', [{ id: 1, name: 'a', description: 'other' }], 'passed'],
    ['a tagged category fails', [{ id: 1, name: 'a', description: 'TAG' }], { expected: 'nothing created without a valid key', found: '1 created' }],
  ])('%s', (_d, items, outcome) => expect(judged(() => noneCreatedWithoutKey(answered(200, items), 'TAG'))).toEqual(outcome));
});

describe('edge cases: refused or stored exactly', () => {
  const fields = { name: 'x'.repeat(10) };
  test.each([
    ['a 400 refusal passes', answered(400, {}), [], 'passed'],
    ['a 413 refusal passes where size is at stake', answered(413, {}), [413], 'passed'],
    ['a 413 elsewhere fails', answered(413, {}), [], { expected: 'status 201 or 400', found: 'status 413' }],
    ['stored exactly passes', answered(201, { id: 1, ...fields }), [], 'passed'],
    ['stored altered fails', answered(201, { id: 1, name: 'x' }), [], { expected: 'the name sent', found: 'another name' }],
    ['a crash fails', answered(500, {}), [413], { expected: 'status 201 or 400 or 413', found: 'status 500' }],
  ])('%s', (_d, create, also, outcome) => expect(judged(() => storedExactlyOrRefused(create, fields, also))).toEqual(outcome));
});

describe('model-based-sequences: the list holds the model', () => {
  const model = () => ({ created: new Map([[1n, { name: 'a' }]]), refused: new Set(['REFUSED']) });
  test.each([
    ['created listed, refused absent, others ignored', [{ id: 1, name: 'a' }, { id: 9, name: 'someone else' }], 'passed'],
    ['a created category missing fails', [{ id: 9, name: 'x' }], { expected: 'a created category listed', found: 'it missing' }],
    ['a refused create listed fails, whatever its shape', [{ id: 1, name: 'a' }, { id: 'x', description: 'REFUSED' }], { expected: 'refused creates absent', found: 'a refused create listed' }],
  ])('%s', (_d, items, outcome) => expect(judged(() => listHoldsModel(answered(200, items), model()))).toEqual(outcome));
});

describe('refusals of valid values', () => {
  test('400 and 413 are refusals; 201, 422 and no response are not', () => {
    expect([400, 413, 201, 422].map((status) => isRefusal(answered(status, {})))).toEqual([true, true, false, false]);
  });
  test.each([
    ['NUL may be refused', { name: 'a\u0000b' }, 'control'],
    ['ESC may be refused', { name: 'ok', description: 'a\u001b[31m' }, 'control'],
    ['a line break may not', { name: 'a\nb' }, undefined],
    ['a tab may not', { name: 'a\tb' }, undefined],
    ['a value past 64 UTF-8 bytes may be a length limit', { name: 'x'.repeat(65) }, 'length'],
    ['22 astral characters are 88 bytes: may be a length limit', { name: '😀'.repeat(22) }, 'length'],
    ['an everyday value may not', { name: 'x'.repeat(64) }, undefined],
  ])('%s', (_d, fields, outcome) => expect(allowedRefusal(fields)).toBe(outcome));
});

describe('length limits', () => {
  const seen = (fields: LengthObservation['fields'], accepted: boolean): LengthObservation => ({ fields, accepted, exchange: answered(accepted ? 201 : 400, {}) });

  test('code points count a surrogate pair once', () => {
    expect([codePoints('abc'), codePoints('😀😀'), codePoints('e\u0301')]).toEqual([3, 2, 2]);
    expect(mayExceedLimit({ name: 'x'.repeat(65) })).toBe(true);
  });

  test.each([
    ['characters (and UTF-16 units, for BMP text) explain a character limit', [seen({ name: '中'.repeat(255) }, true), seen({ name: 'x'.repeat(256) }, false)], { name: 255 }, ['characters', 'UTF-16 code units']],
    ['bytes alone explain refused wide characters within the character count', [seen({ name: '中'.repeat(86) }, false), seen({ name: 'x'.repeat(255) }, true)], { name: 255 }, ['UTF-8 bytes']],
    ['UTF-16 units explain refused astral characters within the character count', [seen({ name: '😀'.repeat(200) }, false), seen({ name: '中'.repeat(255) }, true)], { name: 255 }, ['UTF-16 code units']],
    ['ASCII alone leaves every measure possible', [seen({ name: 'x'.repeat(300) }, false)], { name: 255 }, ['characters', 'UTF-16 code units', 'UTF-8 bytes']],
  ] as const)('%s', (_d, observations, limits, measures) => {
    expect(explainingMeasures(observations, limits)).toEqual({ measures });
  });

  test('a refusal of a short value beside an accepted long one is explained by no limit: the refusal is reported', () => {
    const refused = seen({ name: 'x'.repeat(100) }, false);
    expect(explainingMeasures([seen({ name: 'x'.repeat(300) }, true), refused], { name: 255 })).toEqual({ unexplained: refused });
    expect(explainingMeasures([refused, seen({ name: 'x'.repeat(300) }, true)], { name: 255 })).toEqual({ unexplained: refused });
  });

  test.each([
    ['255 characters: a CJK probe accepted, an emoji probe accepted', 255, ['accepted', 'accepted'], ['characters']],
    ['255 UTF-16 units: the emoji probe refused', 255, ['accepted', 'refused'], ['UTF-16 code units']],
    ['255 bytes: both probes refused', 255, ['refused', 'refused'], ['UTF-8 bytes']],
  ] as const)('%s', (_d, limit, outcomes, measures) => expect(measuresFromProbes(limit, outcomes)).toEqual(measures));

  test('bisection finds the longest accepted length, in about log2 probes', async () => {
    const probes: number[] = [];
    const probe = async (length: number) => (probes.push(length), length <= 255 ? 'accepted' : 'refused') as 'accepted' | 'refused';
    expect(await bisectLimit(probe, 4096)).toBe(255);
    expect(probes.length).toBeLessThanOrEqual(2 + Math.ceil(Math.log2(4096)));
  });

  test('a limit below 64 characters refuses everyday values; a length accepted after all is no limit', async () => {
    expect(await bisectLimit(async (length) => (length <= 32 ? 'accepted' : 'refused'), 4096)).toEqual({ everyday: true });
    expect(await bisectLimit(async () => 'accepted', 4096)).toBeUndefined();
  });
});
