/**
 * The project's tests in two tiers. `npm test` runs the fast one: every judgement, rule,
 * renderer and unit with its near misses, and the run, judge and proxy end to end on a
 * few servers, in under 2 minutes on 2 cores. `npm run test:slow` runs the files that start
 * a server, the CLI or a browser for every case: the fault matrix (every fault and variant,
 * judged actively and on its own capture), 20 seeds per policy, the CLI's every exit path,
 * the proxy in front of every variant, hostile captures and targets. CI (`.ci/run`) runs
 * both; together they are the whole suite.
 */
export const SLOW_TESTS = [
  'test/suite/matrix.test.ts',
  'test/suite/seeds.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/hostile-traffic.test.ts',
  'test/traffic/proxy-matrix.test.ts',
  'test/suite/safety.test.ts',
  'test/suite/fleet.test.ts',
  'test/suite/verdicts.test.ts',
  'test/cli/traffic.test.ts',
  'test/suite/hostile-bodies.test.ts',
  'test/suite/properties.test.ts',
  'test/traffic/real-clients.test.ts',
  'test/traffic/recorders.test.ts',
  'test/cli/build.test.ts',
  'test/cli/secret-pieces.test.ts',
  'test/cli/early-signals.test.ts',
  'test/docs/snippets.test.ts',
  'test/suite/ci-gate-profiles.test.ts',
  'test/suite/connection-caps.test.ts',
  'test/cli/shell-replay.test.ts',
  'test/suite/ci-gate.test.ts',
  'test/suite/networks.test.ts',
  'test/suite/tool-trouble.test.ts',
];

/**
 * The proving ground (test/suite/real-stacks.test.ts): correct servers on real stacks, each a
 * process of its own (a JVM, `go run`, gunicorn). It is part of the slow tier, run after the
 * rest of it and one file at a time (vitest.ground.config.ts), so that compiling and starting
 * the stacks never loads the machine under the other slow files' runs.
 */
export const GROUND_TESTS = ['test/suite/real-stacks.test.ts'];

/**
 * Fast-tier files that mock modules, timers or globals (`vi.mock`, `vi.useFakeTimers`,
 * `vi.spyOn` …): each runs in a module graph of its own. The rest share one per worker
 * (vitest.config.ts); a test there leaves no module state behind it.
 */
export const ISOLATED_TESTS = [
  'test/unit/large-bodies.test.ts',
  'test/unit/list-checks.test.ts',
  'test/unit/property.test.ts',
  'test/unit/rate-ceiling.test.ts',
  'test/unit/signals.test.ts',
  'test/unit/status-line.test.ts',
  'test/unit/suite-thread.test.ts',
];

/** Set by `npm run mutations`: every test file is eligible, whichever tier it is in. */
export const ALL_TIERS = process.env.PCS_ALL_TESTS === '1';
