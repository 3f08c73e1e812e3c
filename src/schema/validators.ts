import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageRoot } from '../package-info.js';

/** The shapes of spec section 2, by schema title. */
export type SchemaName = 'NewCategory' | 'Category' | 'Error';

const FILES: Record<SchemaName, string> = {
  NewCategory: 'new-category.schema.json',
  Category: 'category.schema.json',
  Error: 'error.schema.json',
};

/** The JSON Schema documents in `schemas/`, read once (they drive validation and generation). */
export const schemas: Record<SchemaName, Record<string, unknown>> = Object.fromEntries(
  Object.entries(FILES).map(([name, file]) => [
    name,
    JSON.parse(readFileSync(join(packageRoot, 'schemas', file), 'utf8')) as Record<string, unknown>,
  ]),
) as Record<SchemaName, Record<string, unknown>>;

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

// verbose: errors carry the offending value, which messages quote.
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: true, verbose: true }));
for (const schema of Object.values(schemas)) ajv.addSchema(schema);

const compiled = new Map<SchemaName, ValidateFunction>();

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.getSchema(schemas[name].$id as string) as ValidateFunction;
    compiled.set(name, validate);
  }
  return validate;
}

/**
 * Validates a plain JSON value against one of the section-2 schemas.
 * @returns the violations as readable lines (`/0/id must be integer`), empty when valid.
 */
export function violations(name: SchemaName, value: unknown): string[] {
  const validate = validator(name);
  if (validate(value)) return [];
  // Category repeats NewCategory's keywords through $ref: report each violation once.
  return [...new Set((validate.errors ?? []).map(describe))];
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const extra =
    error.keyword === 'required' ? '' : error.keyword === 'type' ? ` (found ${typeName(error.data)})` : '';
  return `${where} ${error.message ?? error.keyword}${extra}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
