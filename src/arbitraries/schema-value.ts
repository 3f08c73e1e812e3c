import fc from 'fast-check';
import { schemas } from '../schema/validators.js';

/** A JSON Schema document or subschema, as stored in `schemas/`. */
export type Schema = Record<string, unknown>;

/** Options of {@link schemaValue}. */
export interface SchemaValueConstraints {
  /** Arbitrary for every `type: "string"` (the schemas set no length or pattern). */
  text: fc.Arbitrary<string>;
}

/**
 * Values valid against a JSON Schema of this project, derived from the schema itself, so
 * a change to a schema changes what is generated. Supports what `schemas/` uses: `$ref`
 * to a sibling file (merged with the referring schema's keywords), objects with
 * `properties` and `required` (optional properties present or absent), and the scalar
 * types. Unknown properties are never added: extra fields are an edge case of their own.
 * @throws Error for a keyword it does not know, so a schema change cannot silently
 *   generate invalid values.
 */
export function schemaValue(schema: Schema, constraints: SchemaValueConstraints): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  switch (resolved.type) {
    case 'object': {
      const properties = (resolved.properties ?? {}) as Record<string, Schema>;
      const record = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, schemaValue(property, constraints)]),
      );
      return fc.record(record, { requiredKeys: (resolved.required ?? []) as string[] });
    }
    case 'string':
      return constraints.text;
    case 'integer':
      return fc.maxSafeInteger();
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    default:
      throw new Error(`schemaValue: unsupported schema type ${JSON.stringify(resolved.type)}`);
  }
}

/**
 * The schema with `$ref` replaced by the referenced schema's keywords, merged with its own
 * (`properties` and `required` combined), as draft 2020-12 evaluates both.
 */
export function resolve(schema: Schema): Schema {
  if (typeof schema.$ref !== 'string') return schema;
  const target = Object.values(schemas).find((candidate) => String(candidate.$id).endsWith(`/${schema.$ref}`));
  if (!target) throw new Error(`schemaValue: unresolved $ref ${schema.$ref}`);
  const base = resolve(target);
  const { $ref: _ref, ...own } = schema;
  return {
    ...base,
    ...own,
    properties: { ...(base.properties as object), ...(own.properties as object) },
    required: [...new Set([...((base.required ?? []) as string[]), ...((own.required ?? []) as string[])])],
  };
}
