import { configDefaults, defineConfig } from 'vitest/config';
import { ALL_TIERS, GROUND_TESTS, ISOLATED_TESTS, SLOW_TESTS } from './test/tiers.js';

/** What both tiers share (test/tiers.ts). */
export const SHARED = {
  pool: 'forks',
  // Most of the tests wait on sockets and timers (stalls, deadlines, rate limiters), not
  // on the CPU: three files at once on two cores keep both busy. No test asserts wall time.
  maxWorkers: 3,
  testTimeout: 60_000,
  hookTimeout: 30_000,
} as const;

const include = ['test/**/*.test.ts'];
const exclude = [...configDefaults.exclude, ...(ALL_TIERS ? [] : [...SLOW_TESTS, ...GROUND_TESTS])];

/**
 * The project's own tests (test/), the fast tier: `npm test`. The slow tier is
 * vitest.slow.config.ts. The conformance suite itself (suites/) is not run from here: the
 * runner starts it through vitest's Node API with its own settings.
 *
 * Files that mock modules, timers or globals run each in a fresh module graph; the others
 * share one per worker (`isolate: false`), which spares each file importing the tool anew:
 * a third of the tier's CPU time went to imports.
 */
export default defineConfig({
  test: {
    ...SHARED,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED_TESTS, exclude } },
      { extends: true, test: { name: 'shared', include, exclude: [...exclude, ...ISOLATED_TESTS], isolate: false } },
    ],
  },
});
