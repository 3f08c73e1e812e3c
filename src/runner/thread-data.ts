/**
 * The suite thread's run (suite-protocol.ts), once its `start` message has come. Kept on
 * the thread's global object, so that every copy of this module in the thread reads it:
 * the thread's bundle and the suite's `inject` (suite-api.ts) may each hold one (a suite
 * file outside the bundle imports the compiled module).
 */
import type { SuiteThreadData } from './suite-protocol.js';

const KEY = Symbol.for('petstore-conformance.suite-thread-data');
const holder = globalThis as { [KEY]?: SuiteThreadData };

/** Keeps the run the thread was given. */
export function setThreadData(given: SuiteThreadData): void {
  holder[KEY] = given;
}

/**
 * The run the thread was given.
 * @throws Error before the thread's `start` message (the suite's file is imported only after it).
 */
export function threadData(): SuiteThreadData {
  const data = holder[KEY];
  if (data === undefined) throw new Error("the suite's thread has not been given its run");
  return data;
}
