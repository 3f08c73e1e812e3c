/**
 * The suite thread's run as its `start` message gives it (src/runner/thread-data.ts):
 * asked for before it came, it is a defect, said in words; once kept, every reader gets it.
 */
import { expect, test } from 'vitest';
import type { SuiteThreadData } from '../../src/runner/suite-protocol.js';
import { setThreadData, threadData } from '../../src/runner/thread-data.js';

test('read before the start message, the run is a defect that says so; once given, it is what was given', () => {
  expect(() => threadData()).toThrow("the suite's thread has not been given its run");
  const run: SuiteThreadData = { root: '/r', file: '/r/suite.js', provide: { runs: [] }, maxConcurrency: 1 };
  setThreadData(run);
  expect(threadData()).toBe(run);
});
