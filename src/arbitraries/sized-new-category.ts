import fc from 'fast-check';
import { LARGEST_BODY_BYTES } from '../http/request-variations.js';
import { newCategory, type NewCategoryValue } from './new-category.js';

/**
 * Valid NewCategory bodies of every size from a few bytes up to {@link LARGEST_BODY_BYTES} as
 * compact JSON, spread over the scales (log-uniform), half of them past 64 KiB where body
 * limits sit, the bulk in the name. For requests that must be refused with 401 whatever
 * their body (4.2/R3): a server that checks the body's size before the key answers 413
 * instead.
 * @param fixed fields every body carries (a tag in the description): set before the name
 *   is padded, so the body stays within the largest.
 */
export function sizedNewCategory(fixed: Partial<NewCategoryValue> = {}): fc.Arbitrary<NewCategoryValue> {
  // A power of two and a fraction of the next, each shrinking on its own (a `chain` could not shrink
  // its exponent): a failure at some size shrinks to the smallest that fails, not to 2^16.
  const scale = (min: number, max: number) => fc.tuple(fc.integer({ min, max }), fc.integer({ min: 0, max: 1024 })).map(([exponent, share]) => 2 ** (exponent - 1) + Math.round((2 ** (exponent - 1) * share) / 1024));
  // 2^20 bytes: the largest; shrinking crosses from the large scales to the small.
  const size = fc.oneof({ withCrossShrink: true }, scale(4, 16), scale(17, Math.log2(LARGEST_BODY_BYTES)));
  // Each "x" adds one byte to the JSON text: the padded body is exactly `bytes` long, never past the largest.
  return fc.tuple(newCategory(), size).map(([drawn, bytes]) => {
    const fields = { ...drawn, ...fixed };
    return padded(fields, bytes);
  });
}

/**
 * A valid body of `bytes` of compact JSON, the bulk in the name (a tag in the description
 * stays whole): past the 64 KiB where fronts set body limits, for the coverage input every
 * run sends without a key, since 401 wins whatever the body's size (4.2/R3).
 * @param fields the body's fields before the name is padded.
 */
export function paddedNewCategory(fields: NewCategoryValue, bytes: number): NewCategoryValue {
  return padded(fields, bytes);
}

/** The fields with the name padded with "x" (one byte of JSON each) to `bytes` of compact JSON, or as they are when already longer. */
function padded(fields: NewCategoryValue, bytes: number): NewCategoryValue {
  return { ...fields, name: fields.name + 'x'.repeat(Math.max(0, bytes - Buffer.byteLength(JSON.stringify(fields)))) };
}
