/**
 * The remaining judgements on small recorded exchanges: authentication, the edge cases,
 * the model of the stateful checks, refusals and length limits.
 */
import { describe, expect, test } from 'vitest';
import { bisectLimit, codePoints, explainingMeasures, mayExceedLimit, measuresFromProbes, type LengthObservation } from '../../src/check/length-limit.js';
import type { CheckContext } from '../../src/check/context.js';
import type { Exchange } from '../../src/core/exchange.js';
import { classesOf, isRefusal, judgeLengthLimits, judgeRefusals, mayBeRefused, policyWords, type RefusalObservation } from '../../src/check/refusal.js';
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
    ['NUL is a class of its own', { name: 'a\u0000b' }, ['name nul']],
    ['ESC in the description', { name: 'ok', description: 'a\u001b[31m' }, ['description control']],
    ['U+001F, the last C0 control', { name: 'a\u001fb' }, ['name control']],
    ['DEL is a class of its own: C0 validators accept it', { name: 'a\u007fb' }, ['name del']],
    ['U+0080, past DEL, is everyday', { name: 'a\u0080b' }, []],
    ['a line break', { name: 'a\nb' }, ['name tab-or-line-break']],
    ['a tab', { name: 'a\tb' }, ['name tab-or-line-break']],
    ['an astral character', { name: 'a😀' }, ['name outside-bmp']],
    ['a BMP character beside it is everyday', { name: 'a中' }, []],
    ['U+10000, the first character past the BMP', { name: 'a\u{10000}' }, ['name outside-bmp']],
    ['U+FFFF, the last of the BMP, is everyday', { name: 'a\uffff' }, []],
    ['a space at the end', { name: 'a ' }, ['name edge-whitespace']],
    ['a space inside is everyday', { name: 'a b' }, []],
    ['a leading tab is two classes', { name: '\ta' }, ['name tab-or-line-break', 'name edge-whitespace']],
    ['the empty name', { name: '' }, ['name empty']],
    ['an everyday value holds none', { name: 'Dogs', description: 'Chats' }, []],
  ])('%s', (_d, fields, classes) => expect(classesOf(fields).map(({ field, valueClass }) => `${field} ${valueClass}`)).toEqual(classes));

  test.each([
    ['a class may be refused', { name: 'a\u0000b' }, true],
    ['a value past 64 UTF-8 bytes may be a length limit', { name: 'x'.repeat(65) }, true],
    ['22 astral characters are 88 bytes: may be a length limit, and a class', { name: '😀'.repeat(22) }, true],
    ['an everyday value of 64 characters may not', { name: 'x'.repeat(64) }, false],
    ['an everyday name of several scripts may not', { name: 'Собаки и кошки', description: '犬と猫' }, false],
  ])('%s', (_d, fields, outcome) => expect(mayBeRefused(fields)).toBe(outcome));

  test.each([
    ['every control class: one phrase', ['nul', 'control', 'tab-or-line-break', 'del'], 'names holding a control character, tab or line break included, are refused (400)'],
    ['every C0 class, DEL accepted', ['nul', 'control', 'tab-or-line-break'], 'names holding a C0 control character, tab or line break included, are refused (400)'],
    ['NUL, controls and DEL, not tab', ['nul', 'control', 'del'], 'names holding a control character (tab and line breaks accepted) are refused (400)'],
    ['NUL and C0 controls, not tab nor DEL', ['nul', 'control'], 'names holding a C0 control character (tab and line breaks accepted) are refused (400)'],
    ['DEL alone', ['del'], 'names holding DEL (U+007F) are refused (400)'],
    ['NUL alone', ['nul'], 'names holding NUL are refused (400)'],
    ['two unrelated classes', ['outside-bmp', 'empty'], 'names holding a character outside the BMP, or that are empty are refused (400)'],
    ['every control class and another: the comma only after "included" at the end', ['nul', 'control', 'tab-or-line-break', 'outside-bmp'], 'names holding a C0 control character, tab or line break included, or holding a character outside the BMP are refused (400)'],
  ] as const)('%s', (_d, classes, words) => {
    expect(policyWords('name', classes.map((valueClass) => ({ valueClass, statuses: [400] })))).toBe(`${words}: a policy (4.2 leaves "invalid values" open)`);
  });
});

const refusal = { code: 'invalid', message: 'invalid name', status: 400 };
/** A check context whose creates the server answers by `refuses` (400, else 201): what it sent, its exchanges, and what it observed. */
function context(refuses: (name: string) => boolean) {
  const sent: string[] = [];
  const observed: string[] = [];
  const exchanges: Exchange[] = [];
  const t = {
    exchanges,
    name: (label = '') => `pcs-test ${label}`.trim(),
    observe: (text: string) => observed.push(text),
    create: async (body: { json: { name: string } }) => {
      sent.push(body.json.name);
      const exchange = refuses(body.json.name) ? answered(400, refusal, { method: 'POST' }) : answered(201, { id: sent.length, ...body.json }, { method: 'POST' });
      exchanges.push(exchange);
      return exchange;
    },
  } as unknown as CheckContext;
  return { t, sent, observed };
}

describe('judgeRefusals: a consistent refusal is a policy', () => {
  const seen = (name: string, accepted: boolean): RefusalObservation => ({ fields: { name }, accepted, exchange: accepted ? answered(201, { id: 1, name }) : answered(400, refusal) });
  const controls = (name: string) => /[\u0000-\u001f]/.test(name);

  test('controls refused, everyday names accepted: a policy, observed, the smallest value of each class confirmed once', async () => {
    const { t, sent, observed } = context(controls);
    await judgeRefusals(t, [seen('Dogs', true), seen('a\u0000b', false), seen('line\nbreak', false), seen('longer \u0007 bell', false)]);
    expect(observed).toEqual(['names holding a C0 control character, tab or line break included, are refused (400): a policy (4.2 leaves "invalid values" open)']);
    expect(sent).toEqual(['a\u0000b', 'line\nbreak', 'longer \u0007 bell']);
  });

  test('a C0 policy with DEL accepted: a value holding both is explained by its C0 control (seeds 1, 5, 16, 17 once failed on it)', async () => {
    const { t, observed } = context(controls);
    await judgeRefusals(t, [seen('Dogs', true), seen('del \u007f alone', true), seen('bell \u0007 and del \u007f', false), seen('a\u0000b', false), seen('tab\there', false)]);
    expect(observed).toEqual(['names holding a C0 control character, tab or line break included, are refused (400): a policy (4.2 leaves "invalid values" open)']);
  });

  test('near miss: the same class accepted in another create is no policy', async () => {
    const { t } = context(controls);
    const outcome = await judgeRefusals(t, [seen('a\u0000b', true), seen('c\u0000d', false)]).then(() => 'passed', (error: Error) => error.message);
    expect(outcome).toMatch(/^Expected 201 for a valid body \(name [^)]*NUL\), received 400: values of its kind were accepted in other creates/);
  });

  test('near miss: a refused value accepted when sent again is no policy', async () => {
    const { t } = context(() => false);
    const outcome = await judgeRefusals(t, [seen('a\u0000b', false)]).then(() => 'passed', (error: Error) => error.message);
    expect(outcome).toMatch(/found the same body refused \(400\) and then accepted \(201\): no consistent policy/);
  });

  test('near miss: an everyday name refused is a failure, whatever else is refused', async () => {
    const { t } = context(() => true);
    const outcome = await judgeRefusals(t, [seen('a\u0000b', false), seen('Dogs', false)]).then(() => 'passed', (error: Error) => error.message);
    expect(outcome).toMatch(/^Expected 201 for a valid body \(\), received 400/);
  });
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

  test('the refusal reported is the first that no limit in characters explains, not the first refusal', () => {
    // 300 ASCII characters are over 255 in every measure; 200 emoji are 200 characters (within) but 400 UTF-16 units (over).
    const overEverywhere = seen({ name: 'x'.repeat(300) }, false);
    const withinCharacters = seen({ name: '😀'.repeat(200) }, false);
    // Accepted: 128 emoji (256 units, 512 bytes) rule out UTF-16 units and bytes, so no measure explains all.
    const observations = [overEverywhere, withinCharacters, seen({ name: '😀'.repeat(128) }, true)];
    expect(explainingMeasures(observations, { name: 255 })).toEqual({ unexplained: withinCharacters });
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

  /** A check context whose target refuses names longer than `limit` characters (code points). */
  const limitedTo = (limit: number) => context((name) => codePoints(name) > limit);

  test('one refusal past 64 characters: its limit found by probes and observed; nothing refused: nothing sent', async () => {
    const limited = limitedTo(255);
    await judgeLengthLimits(limited.t, [seen({ name: 'x'.repeat(10) }, true), seen({ name: 'x'.repeat(300) }, false)]);
    expect(limited.observed).toEqual(['names longer than 255 characters are refused (400): a length limit (section 8)']);

    const none = limitedTo(255);
    await judgeLengthLimits(none.t, [seen({ name: 'x'.repeat(300) }, true)]);
    expect([none.sent, none.observed]).toEqual([[], []]);
  });

  test('a refusal of 65 characters is sought as a limit of 64; one of exactly 64 is explained by no limit', async () => {
    const limited = limitedTo(64);
    await judgeLengthLimits(limited.t, [seen({ name: 'x'.repeat(65) }, false)]);
    expect(limited.observed).toEqual([expect.stringMatching(/^names longer than 64 characters are refused \(400\)/)]);

    const everyday = limitedTo(63);
    await expect(judgeLengthLimits(everyday.t, [seen({ name: 'x'.repeat(64) }, false)])).rejects.toThrow(/no length limit explains the refusals \(longest accepted by probes: name unlimited, description unlimited\)/);
    expect(everyday.sent).toEqual([]);
  });

  test('a limit below 64 characters refuses everyday values; a length accepted after all is no limit', async () => {
    expect(await bisectLimit(async (length) => (length <= 32 ? 'accepted' : 'refused'), 4096)).toEqual({ everyday: true });
    expect(await bisectLimit(async () => 'accepted', 4096)).toBeUndefined();
  });
});
