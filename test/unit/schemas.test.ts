import { describe, expect, test } from 'vitest';
import { schemas, violations } from '../../src/schema/validators.js';

describe('the section-2 schemas', () => {
  test('each has a draft 2020-12 $schema and an $id', () => {
    for (const schema of Object.values(schemas)) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toMatch(/^https:\/\/.+\.schema\.json$/);
    }
  });

  test.each([
    [{ id: 1, name: 'dog' }, []],
    [{ id: 1, name: 'cat', description: 'Felines', extra: true }, []],
    [{ name: 'dog' }, ["(root) must have required property 'id'"]],
    [{ id: '1', name: 'dog' }, ['/id must be integer (found string)']],
    [{ id: 1.5, name: 'dog' }, ['/id must be integer (found number)', '/id must match format "int64"']],
    [{ id: 1, name: null }, ['/name must be string (found null)']],
    [{ id: 1, name: 'dog', description: null }, ['/description must be string (found null)']],
    [[], ['(root) must be object (found array)']],
  ])('Category %j: %j', (value, expected) => {
    expect(violations('Category', value)).toEqual(expected);
  });

  test.each([
    [{ code: 'unauthorized', message: 'no key', status: 401 }, []],
    [{ code: 'unauthorized', message: 'no key', status: '401' }, ['/status must be integer (found string)']],
    [{ statusCode: 401, error: 'Unauthorized', message: 'no key' }, ["(root) must have required property 'code'", "(root) must have required property 'status'"]],
  ])('Error %j: %j', (value, expected) => {
    expect(violations('Error', value)).toEqual(expected);
  });

  test('NewCategory requires name and allows description', () => {
    expect(violations('NewCategory', { name: 'x', description: 'y' })).toEqual([]);
    expect(violations('NewCategory', { description: 'y' })).toEqual(["(root) must have required property 'name'"]);
  });
});
