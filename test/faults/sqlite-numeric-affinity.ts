import type { Fault } from '../support/fault.js';

/** SQLite's NUMERIC affinity: text that reads as a number is stored as one (`'007'` → 7, `'1e3'` → 1000.0). */
function withAffinity(text: string): string | number {
  const trimmed = text.trim();
  if (trimmed === '' || !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return text;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : text;
}

/**
 * Breaks 4.2/R1 and section 2: the columns are declared NUMERIC in SQLite (or without a
 * type, as an ORM migration may leave them), so a name or description that reads as a
 * number comes back as a JSON number: `"123"` is returned as `123`, `"1e3"` as `1000`.
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    represent(category) {
      const shown: Record<string, unknown> = { ...base.represent(category), name: withAffinity(category.name) };
      if (category.description !== undefined) shown.description = withAffinity(category.description);
      return shown;
    },
  }),
  expected: {
    failed: ['create-valid-bodies', 'model-based-sequences'],
    // The list check, when it reads the list after a number-named category was stored (the classes run concurrently).
    mayFail: ['list-items-are-categories'],
  },
} satisfies Fault;
