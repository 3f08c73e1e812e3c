/**
 * Whether a create that got no response was applied (src/check/applied.ts): the list is
 * read, and only a category with exactly the fields sent, that the run had not seen
 * created, says yes.
 */
import { describe, expect, test } from 'vitest';
import { wasCreateApplied } from '../../src/check/applied.js';
import { validCredential } from '../../src/http/credential.js';
import type { RequestSpec } from '../../src/http/request.js';
import { answered } from '../support/exchanges.js';

const valid = validCredential('k');
const create = (json: unknown): RequestSpec => ({ method: 'POST', path: '/categories', credential: valid, body: { json } });
/** wasCreateApplied against a list answered `status` with `body`; how many lists it sent. */
async function applied(spec: RequestSpec, body: unknown, { status = 200, known = [] as string[] } = {}) {
  let lists = 0;
  const result = await wasCreateApplied(
    spec,
    async (lookup) => {
      lists++;
      expect([lookup.method, lookup.path, lookup.credential]).toEqual(['GET', '/categories', valid]);
      return answered(status, body);
    },
    valid,
    new Set(known),
  );
  return { result, lists };
}

describe('a category with the fields sent is listed', () => {
  test.each([
    ['the name alone', { name: 'a' }, [{ id: 1, name: 'a' }], true],
    ['name and description', { name: 'a', description: 'd' }, [{ id: 1, name: 'a', description: 'd' }], true],
    ['near miss: another name', { name: 'a' }, [{ id: 1, name: 'b' }], false],
    ['near miss: the name, another description', { name: 'a', description: 'd' }, [{ id: 1, name: 'a', description: 'e' }], false],
    ['near miss: the name, a description not sent', { name: 'a' }, [{ id: 1, name: 'a', description: 'd' }], false],
    ['a null item beside it', { name: 'a' }, [null, { id: 2, name: 'a' }], true],
  ])('%s', async (_d, json, list, result) => expect(await applied(create(json), list)).toEqual({ result, lists: 1 }));

  test('near miss: the only such category is one the run saw created (id 9007199254740993, exactly)', async () => {
    const listed = '[{"id":9007199254740993,"name":"a"}]';
    expect(await applied(create({ name: 'a' }), listed, { known: ['9007199254740993'] })).toEqual({ result: false, lists: 1 });
    expect(await applied(create({ name: 'a' }), listed, { known: ['9007199254740992'] })).toEqual({ result: true, lists: 1 });
  });
});

describe('what it cannot tell, and what it knows without asking', () => {
  test.each([
    ['the list answered 500', { status: 500 }, [], undefined],
    ['the list is no array', {}, { items: [] }, undefined],
    ['the list is no JSON', {}, 'oops', undefined],
  ] as const)('%s: undefined', async (_d, options, body, result) => expect(await applied(create({ name: 'a' }), body, options)).toEqual({ result, lists: 1 }));

  test.each([
    ['a body without a string name creates nothing', create({ name: 5 }), false],
    ['a GET is no create', { method: 'GET', path: '/categories', credential: valid } as RequestSpec, undefined],
    ['a POST elsewhere is no create', { ...create({ name: 'a' }), path: '/pets' }, undefined],
  ] as const)('%s: %s, no list sent', async (_d, spec, result) => expect(await applied(spec, [])).toEqual({ result, lists: 0 }));
});
