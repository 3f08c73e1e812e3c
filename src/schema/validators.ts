import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { packageRoot } from '../core/package-info.js';

/** The shapes of spec section 2, and the tool's own files, by schema title. */
export type SchemaName = 'NewCategory' | 'Category' | 'Error' | 'Config' | 'KnownFailures' | 'Report' | 'Fleet' | 'HarEntry';

const FILES: Record<SchemaName, string> = {
  NewCategory: 'new-category.schema.json',
  Category: 'category.schema.json',
  Error: 'error.schema.json',
  Config: 'config.schema.json',
  KnownFailures: 'known-failures.schema.json',
  Report: 'report.schema.json',
  Fleet: 'fleet.schema.json',
  HarEntry: 'har-entry.schema.json',
};

/** The JSON Schema documents in `schemas/`, read once (they drive validation and generation). */
export const schemas: Record<SchemaName, Record<string, unknown>> = Object.fromEntries(
  Object.entries(FILES).map(([name, file]) => [
    name,
    JSON.parse(readFileSync(join(packageRoot, 'schemas', file), 'utf8')) as Record<string, unknown>,
  ]),
) as Record<SchemaName, Record<string, unknown>>;

/** The options every validator of ours is compiled with. */
export const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  // The report schema requires keys that `additionalProperties` describes.
  strictRequired: false,
  // Errors carry the offending value, which messages quote.
  verbose: true,
  // The schemas ship with the tool and are checked against the 2020-12 meta-schema by its
  // own tests (test/unit/schemas.test.ts); checking them again at every start costs about
  // 50 ms in each thread that loads them. Strict mode still rejects unknown keywords.
  validateSchema: false,
} as const;

/** The shapes of spec section 2, which every check and the reference server validate. */
export const SPEC_SHAPES = ['NewCategory', 'Category', 'Error'] as const;

/** The file, beside this module once built, of the spec shapes' validators as ajv standalone code. */
export const PRECOMPILED_FILE = 'spec-validators.cjs';

const require = createRequire(import.meta.url);

/**
 * ajv with every schema added (compiled on first use). Loaded on demand: the spec shapes
 * come precompiled in the build, and loading and compiling ajv costs about 110 ms of a
 * suite worker's start; the configuration file and the report schema still need it.
 */
export function runtimeAjv(): Ajv2020 {
  if (!ajv) {
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
    ajv = addFormats(new Ajv2020(AJV_OPTIONS));
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  }
  return ajv;
}
let ajv: Ajv2020 | undefined;

type Validators = Partial<Record<SchemaName, ValidateFunction>>;

/**
 * The build's standalone validators of the spec shapes (scripts/compile-schemas.ts); none
 * when running from the TypeScript sources, which then compile them with ajv.
 */
function precompiled(): Validators {
  try {
    return require(`./${PRECOMPILED_FILE}`) as Validators;
  } catch (error) {
    // Only our own file may be missing: a module it requires must not be, silently.
    const missing = (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && (error as Error).message.split('\n')[0]!.includes(PRECOMPILED_FILE);
    if (missing) return {};
    throw error;
  }
}
let prebuilt: Validators | undefined;

const compiled = new Map<SchemaName, ValidateFunction>();

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    prebuilt ??= precompiled();
    validate = prebuilt[name] ?? (runtimeAjv().getSchema(schemas[name].$id as string) as ValidateFunction);
    compiled.set(name, validate);
  }
  return validate;
}

/**
 * Validates a plain JSON value against one of the schemas.
 * @returns the violations as readable lines (`/0/id must be integer`), empty when valid.
 */
export function violations(name: SchemaName, value: unknown): string[] {
  if (validator(name)(value)) return []; // the common case, allocation-free: lists validate 100,000 items
  // Category repeats NewCategory's keywords through $ref: report each violation once.
  return [...new Set(violationDetails(name, value).map(({ text }) => text))];
}

/** ajv's errors for a value, as they are (empty when valid): for callers that word them their own way. */
export function schemaErrors(name: SchemaName, value: unknown): ErrorObject[] {
  const validate = validator(name);
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** One violation: where (a JSON Pointer into the value) and what, as a readable line. */
export interface Violation {
  pointer: string;
  /** True when the property's name is at fault (an unknown property), not its value. */
  atKey: boolean;
  text: string;
}

/** The violations of a value with their locations, for callers that map them back to a source. */
export function violationDetails(name: SchemaName, value: unknown): Violation[] {
  const validate = validator(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => ({
    pointer: pointerOf(error),
    atKey: error.keyword === 'additionalProperties',
    text: describe(error),
  }));
}

/** The JSON Pointer of what an error is about: the offending property itself when ajv names it. */
function pointerOf(error: ErrorObject): string {
  const property = (error.params as { additionalProperty?: string }).additionalProperty;
  return property === undefined ? error.instancePath : `${error.instancePath}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const property = (error.params as { additionalProperty?: string }).additionalProperty;
  const extra = error.keyword === 'type' ? ` (found ${typeName(error.data)})` : property !== undefined ? `: ${property}` : '';
  return `${where} ${error.message ?? error.keyword}${extra}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
