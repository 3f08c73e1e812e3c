import fc from 'fast-check';
import { newCategory, type NewCategoryValue } from './new-category.js';

/** The largest body drawn: about 1 MiB, past the usual proxy and framework body limits (64 KiB, 100 KiB, 1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Valid NewCategory bodies of every size from a few bytes up to {@link MAX_BODY_BYTES},
 * spread over the scales (log-uniform), half of them past 64 KiB where body limits sit,
 * the bulk in the name. For requests that must be refused with 401 whatever their body
 * (4.2/R3): a server that checks the body's size before the key answers 413 instead.
 */
export function sizedNewCategory(): fc.Arbitrary<NewCategoryValue> {
  const scale = (min: number, max: number) => fc.integer({ min, max }).chain((exponent) => fc.integer({ min: 2 ** (exponent - 1), max: 2 ** exponent }));
  const size = fc.oneof(scale(4, 16), scale(17, 20));
  return fc.tuple(newCategory(), size).map(([fields, bytes]) => ({ ...fields, name: fields.name + 'x'.repeat(Math.max(0, bytes - Buffer.byteLength(fields.name))) }));
}
