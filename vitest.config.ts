import { defineConfig } from 'vitest/config';

/**
 * The project's own tests (test/). The conformance suite itself (suites/) is not run
 * from here: the runner starts it through vitest's Node API with its own settings.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Most of the tests wait on sockets and timers (stalls, deadlines, rate limiters), not
    // on the CPU: three files at once on two cores keep both busy. No test asserts wall time.
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
