import fc from 'fast-check';
import { schemas } from '../schema/validators.js';
import { schemaValue } from './schema-value.js';
import { fieldText } from './field-text.js';

/** A NewCategory as sent: `name`, and `description` when present (spec section 2). */
export interface NewCategoryValue {
  name: string;
  description?: string;
}

/**
 * Valid NewCategory bodies, derived from `schemas/new-category.schema.json`: every string
 * field is {@link fieldText} (everyday text and the values that break storage layers);
 * `description` present or absent.
 */
export function newCategory(): fc.Arbitrary<NewCategoryValue> {
  return schemaValue(schemas.NewCategory, { text: fieldText() }) as fc.Arbitrary<NewCategoryValue>;
}
