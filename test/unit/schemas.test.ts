import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { AJV_OPTIONS, schemas, violations } from '../../src/schema/validators.js';

describe('the section-2 schemas', () => {
  test('each is valid against the 2020-12 meta-schema (the runtime skips that check)', () => {
    const metaChecking = new Ajv2020({ ...AJV_OPTIONS, validateSchema: true, strict: false });
    for (const schema of Object.values(schemas)) {
      expect(metaChecking.validateSchema(schema), `${String(schema.$id)}: ${metaChecking.errorsText()}`).toBe(true);
    }
    // The check can fail: a keyword given a value of the wrong type.
    expect(metaChecking.validateSchema({ ...schemas.Category, required: 'id' })).toBe(false);
  });

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
