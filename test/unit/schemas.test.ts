import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { invalidBody } from '../../src/arbitraries/invalid-body.js';
import { newCategory } from '../../src/arbitraries/new-category.js';
import { packageRoot } from '../../src/core/package-info.js';
import { AJV_OPTIONS, PRECOMPILED_FILE, runtimeAjv, schemas, SPEC_SHAPES, violations } from '../../src/schema/validators.js';

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

describe('the validators the build precompiles (ajv standalone code)', () => {
  const built = join(packageRoot, 'dist/src/schema');

  test('judge every value exactly as ajv compiling the schemas at run time, errors included', () => {
    const precompiled = createRequire(import.meta.url)(join(built, PRECOMPILED_FILE)) as Record<string, ValidateFunction>;
    const json = (body: { json: unknown } | { text: string }) => ('json' in body ? body.json : body.text);
    const values = fc.oneof(
      newCategory(),
      newCategory().map((fields) => ({ id: 1, ...fields })),
      invalidBody(schemas.NewCategory, newCategory()).map(({ body }) => json(body)),
      fc.record({ id: fc.oneof(fc.integer(), fc.double(), fc.string()), name: fc.oneof(fc.string(), fc.integer(), fc.constant(null)), description: fc.anything() }, { requiredKeys: [] }),
      fc.record({ code: fc.oneof(fc.string(), fc.integer()), message: fc.anything(), status: fc.oneof(fc.integer(), fc.string()) }, { requiredKeys: [] }),
      fc.anything(),
    );
    let invalid = 0;
    fc.assert(
      fc.property(fc.constantFrom(...SPEC_SHAPES), values, (shape, value) => {
        const fromBuild = precompiled[shape]!;
        const atRunTime = runtimeAjv().getSchema(schemas[shape].$id as string)!;
        const valid = atRunTime(value);
        if (!valid) invalid++;
        expect(fromBuild(value)).toBe(valid);
        expect(fromBuild.errors ?? null).toEqual(atRunTime.errors ?? null);
      }),
      { numRuns: 1000, seed: 20261121 },
    );
    expect(invalid).toBeGreaterThan(300); // the values exercise the error paths, not only the valid one
  });

  test('are what a built run uses: the validators module then never loads ajv', async () => {
    const script = `
      const { violations } = await import(${JSON.stringify(join(built, 'validators.js'))});
      const problems = ['NewCategory', 'Category', 'Error'].flatMap((shape) => violations(shape, { id: 1.5 }));
      const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ problems: problems.length, ajv: loaded.filter((path) => path.includes('/node_modules/ajv/')).length }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const { problems, ajv } = JSON.parse(stdout) as { problems: number; ajv: number };
    expect(problems).toBeGreaterThan(0);
    expect(ajv).toBe(0);
  });
});
