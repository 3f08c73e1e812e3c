import type { Variation } from '../../src/reference/behaviour.js';

/**
 * A store that alters every string field of a valid create before keeping it (a trimming
 * binder, a column's character set): the created and listed Category then differ from
 * what was sent. For faults of 4.2/R1.
 */
export function storedAs(alter: (text: string) => string): Variation {
  return (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (!result.ok) return result;
      const { name, description } = result.value;
      return { ok: true, value: description === undefined ? { name: alter(name) } : { name: alter(name), description: alter(description) } };
    },
  });
}
