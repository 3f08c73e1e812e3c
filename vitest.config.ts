import { configDefaults, defineConfig } from 'vitest/config';
import { ALL_TIERS, GROUND_TESTS, SLOW_TESTS } from './test/tiers.js';

/** What both tiers share (test/tiers.ts). */
export const SHARED = {
  pool: 'forks',
  // Most of the tests wait on sockets and timers (stalls, deadlines, rate limiters), not
  // on the CPU: three files at once on two cores keep both busy. No test asserts wall time.
  maxWorkers: 3,
  testTimeout: 60_000,
  hookTimeout: 30_000,
} as const;

/**
 * The project's own tests (test/), the fast tier: `npm test`. The slow tier is
 * vitest.slow.config.ts. The conformance suite itself (suites/) is not run from here: the
 * runner starts it through vitest's Node API with its own settings.
 */
export default defineConfig({
  test: {
    ...SHARED,
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(ALL_TIERS ? [] : [...SLOW_TESTS, ...GROUND_TESTS])],
  },
});
