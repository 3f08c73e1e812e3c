/**
 * What the suite's files import from 'vitest', in the suite's thread: the bundle maps
 * 'vitest' to this module (suite-bundle.ts). `test`, `describe` and `afterAll` are
 * vitest's own, from its runner (`@vitest/runner`, which the thread runs them with);
 * `inject` reads what the runner provides in the thread's run (thread-data.ts), as vitest's
 * `inject` reads its `provide`. The suite's files stay vitest files: vitest itself runs
 * them as they are.
 */
import type { ProvidedContext } from 'vitest';
import { threadData } from './thread-data.js';

export { afterAll, describe, test } from '@vitest/runner';

/** The value the runner provides under `key` (vitest's `inject`). */
export function inject<K extends keyof ProvidedContext>(key: K): ProvidedContext[K] {
  return threadData().provide[key];
}
