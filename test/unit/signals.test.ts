/**
 * What the entry point does after the tool fails (src/cli/signals.ts): the run is aborted
 * so that its report is written, and a report that is not written within the grace period
 * ends the process with the tool's exit code and the failure's line. Time is faked; the
 * handlers under test are called directly (vitest has its own for uncaught errors).
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { interruptOnSignals } from '../../src/cli/signals.js';
import { ToolFailure } from '../../src/core/tool-failure.js';

const EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection', 'worker'] as const;
let before: Map<string, Function[]>;
let exits: Array<number | undefined>;
let written: string[];

beforeEach(() => {
  before = new Map(EVENTS.map((event) => [event, process.listeners(event as 'SIGINT')]));
  exits = [];
  written = [];
  vi.useFakeTimers();
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => void exits.push(code)) as never);
  vi.spyOn(process.stderr, 'write').mockImplementation(((text: string) => written.push(text)) as never);
});

afterEach(() => {
  for (const event of EVENTS) for (const listener of process.listeners(event as 'SIGINT')) if (!before.get(event)!.includes(listener)) process.off(event, listener as never);
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The handler interruptOnSignals added for `event`. */
const added = (event: (typeof EVENTS)[number]) => process.listeners(event as 'SIGINT').find((listener) => !before.get(event)!.includes(listener)) as (value: unknown) => void;

test('a failure aborts the run; a report unfinished after 15 s ends the process with exit 3 and why', () => {
  const signal = interruptOnSignals(3);
  added('uncaughtException')(new Error('boom'));
  expect(signal.reason).toBeInstanceOf(ToolFailure);
  vi.advanceTimersByTime(14_999);
  expect([exits, written]).toEqual([[], []]);
  vi.advanceTimersByTime(1);
  expect(exits).toEqual([3]);
  expect(written).toEqual([expect.stringMatching(/^petstore-conformance: the tool failed: .*boom.*; the report could not be finished\n$/)]);
});

test('near miss: a second failure is the first one\'s consequence: still one exit, with the first line', () => {
  interruptOnSignals(3);
  added('unhandledRejection')(new Error('first'));
  added('uncaughtException')(new Error('second'));
  vi.advanceTimersByTime(15_000);
  expect([exits, written.length, written[0]]).toEqual([[3], 1, expect.stringContaining('first')]);
});

test('a signal aborts with its name; a second one quits at once with 130', () => {
  const signal = interruptOnSignals(3);
  added('SIGTERM')('SIGTERM');
  expect([signal.reason, exits]).toEqual(['interrupted by SIGTERM', []]);
  added('SIGTERM')('SIGTERM');
  expect(exits).toEqual([130]);
});
