import fc from 'fast-check';
import type { RequestBody } from '../http/request.js';
import { covers, type CoverageInput } from './coverage.js';
import { resolve, type Schema } from './schema-value.js';

/** A request body that must be refused with 400, with what makes it invalid. */
export interface InvalidBody {
  /** E.g. `without name`, `description as null`, `truncated to 7 characters`. */
  label: string;
  body: RequestBody;
}

/**
 * A way to turn a valid body into an invalid one. Kept apart from the body so that the
 * stateful checks can apply the same mutation to a body they tag at run time.
 */
export interface BodyMutation {
  label: string;
  apply(valid: Record<string, unknown>): RequestBody;
}

const JSON_TYPES = ['string', 'number', 'boolean', 'null', 'array', 'object'] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** A value of a JSON type (small, so counterexamples stay readable). */
function valueOfType(type: JsonType): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null));
  switch (type) {
    case 'string':
      return fc.string({ maxLength: 8 });
    case 'number':
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(leaf, { maxLength: 3 });
    case 'object':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), leaf, { maxKeys: 3 });
  }
}

/** The JSON type name a schema type admits ("integer" is a kind of "number"). */
const admitted = (schemaType: unknown): JsonType => (schemaType === 'integer' ? 'number' : (schemaType as JsonType));

const mutation = (label: string, apply: BodyMutation['apply']): BodyMutation => ({ label, apply });

/**
 * Mutations derived from an object schema, each yielding a body the schema (or JSON
 * itself) rejects: every required property removed; every property given each JSON type
 * its schema does not admit (null included); roots that are not objects; malformed JSON
 * text made from the valid body (truncated, a trailing comma, single quotes, unquoted
 * keys, NaN); and an empty body.
 */
export function bodyMutation(schema: Schema): fc.Arbitrary<BodyMutation> {
  const resolved = resolve(schema);
  const properties = Object.entries((resolved.properties ?? {}) as Record<string, Schema>);
  const required = (resolved.required ?? []) as string[];
  const omit = (value: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

  const missing = required.map((key) => fc.constant(mutation(`without ${key}`, (v) => ({ json: omit(v, key) }))));
  const wrongTypes = properties.flatMap(([key, property]) =>
    JSON_TYPES.filter((type) => type !== admitted(resolve(property).type)).map((type) =>
      valueOfType(type).map((wrong) => mutation(`${key} as ${type} ${JSON.stringify(wrong)}`, (v) => ({ json: { ...v, [key]: wrong } }))),
    ),
  );
  const roots = [
    fc.constant(mutation('root is an array holding the body', (v) => ({ json: [v] }))),
    fc.constant(mutation('root is an array of [key, value] pairs', (v) => ({ json: Object.entries(v) }))),
    fc.constant(mutation('the body nested under a key', (v) => ({ json: { category: v } }))),
    ...(['string', 'number', 'boolean', 'null'] as const).map((type) =>
      valueOfType(type).map((root) => mutation(`root is ${type} ${JSON.stringify(root)}`, () => ({ json: root }))),
    ),
  ];
  const malformed = [
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }).map((fraction) =>
      mutation(`truncated JSON (${Math.round(fraction * 100)}% kept)`, (v) => {
        const text = JSON.stringify(v);
        return { text: text.slice(0, 1 + Math.floor(fraction * (text.length - 1))) };
      }),
    ),
    fc.constant(mutation('trailing comma', (v) => ({ text: JSON.stringify(v).replace(/}$/, ',}') }))),
    fc.constant(mutation('single quotes', (v) => ({ text: JSON.stringify(v).replaceAll('"', "'") }))),
    fc.constant(
      mutation('unquoted keys', (v) => ({ text: `{${Object.entries(v).map(([k, x]) => `${k}:${JSON.stringify(x)}`).join(',')}}` })),
    ),
    ...properties.map(([key]) =>
      fc.constant(mutation(`${key} as NaN`, (v) => ({ text: JSON.stringify({ ...v, [key]: 0 }).replace(new RegExp(`("${key}":)0`), '$1NaN') }))),
    ),
    fc.constant(mutation('empty body', () => ({ text: '' }))),
  ];
  return fc.oneof({ withCrossShrink: true }, ...missing, ...wrongTypes, ...roots, ...malformed);
}

/** Invalid bodies: a valid value from `valid`, then one {@link bodyMutation} of `schema`. */
export function invalidBody(schema: Schema, valid: fc.Arbitrary<object>): fc.Arbitrary<InvalidBody> {
  return fc.tuple(valid, bodyMutation(schema)).map(([value, { label, apply }]) => {
    const body = apply(value as Record<string, unknown>);
    const text = 'json' in body ? JSON.stringify(body.json) : body.text;
    return { label, body, [fc.toStringMethod]: () => `${label}: ${text}` };
  });
}

/** One value of each JSON type, for the coverage phase: what a wrong-typed field is sent as. */
const REPRESENTATIVE: Readonly<Record<JsonType, unknown>> = { string: 'Cats', number: 42, boolean: true, null: null, array: ['Cats'], object: { value: 'Cats' } };

/**
 * The coverage phase of invalid bodies, derived from an object schema and one valid body:
 * every shape the generators know, each sent in every run. Each required property removed;
 * each property as every JSON type its schema does not admit; roots that are not objects
 * (an array holding the body, an array of [key, value] pairs as some binders coerce into
 * an object, a string, a number, a boolean, null); the body nested under a key; a
 * required property given twice, each time with a wrong type (duplicate keys, RFC 8259
 * §4: whichever a parser keeps, the body is invalid); and malformed JSON text.
 */
export function invalidBodyCoverage(schema: Schema, valid: Record<string, unknown>): Array<CoverageInput<InvalidBody>> {
  const resolved = resolve(schema);
  const properties = Object.entries((resolved.properties ?? {}) as Record<string, Schema>);
  const required = (resolved.required ?? []) as string[];
  const json = (label: string, value: unknown) => covers(label, { label, body: { json: value } });
  const text = (label: string, raw: string) => covers(label, { label, body: { text: raw } });
  const compact = JSON.stringify(valid);
  const members = (value: Record<string, unknown>, except: string) => Object.entries(value).filter(([k]) => k !== except).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return [
    ...required.map((key) => json(`without ${key}`, Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key)))),
    ...properties.flatMap(([key, property]) =>
      JSON_TYPES.filter((type) => type !== admitted(resolve(property).type)).map((type) => json(`${key} as ${type}`, { ...valid, [key]: REPRESENTATIVE[type] })),
    ),
    json('root is an array holding the body', [valid]),
    json('root is an array of [key, value] pairs', Object.entries(valid)),
    ...(['string', 'number', 'boolean', 'null'] as const).map((type) => json(`root is ${type}`, REPRESENTATIVE[type])),
    json('the body nested under a key', { category: valid }),
    ...required.map((key) => text(`${key} given twice, as a number and as a boolean`, `{${[`"${key}":42`, ...members(valid, key), `"${key}":true`].join(',')}}`)),
    text('truncated JSON', compact.slice(0, Math.floor(compact.length / 2))),
    text('trailing comma', compact.replace(/}$/, ',}')),
    text('single quotes', compact.replaceAll('"', "'")),
    text('unquoted keys', `{${Object.entries(valid).map(([k, x]) => `${k}:${JSON.stringify(x)}`).join(',')}}`),
    ...required.map((key) => text(`${key} as NaN`, `{${[`"${key}":NaN`, ...members(valid, key)].join(',')}}`)),
    text('empty body', ''),
  ];
}
