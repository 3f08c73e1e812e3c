/** The user's ceiling on requests (src/http/rate-ceiling.ts), on a clock the test controls. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { rateCeiling } from '../../src/http/rate-ceiling.js';
import { RequestGuard } from '../../src/http/safety.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Asks for `count` turns at once; the times (ms from the start) at which each came. */
function turns(turn: ReturnType<typeof rateCeiling>, count: number) {
  const started = Date.now();
  const at: number[] = [];
  const all = Array.from({ length: count }, () => turn(async () => void at.push(Date.now() - started)));
  return { at, all };
}

test('at 10 requests/s, one turn every 100 ms: not a ms sooner', async () => {
  const { at } = turns(rateCeiling(10), 3);
  await vi.advanceTimersByTimeAsync(0);
  expect(at).toEqual([0]);
  await vi.advanceTimersByTimeAsync(99);
  expect(at).toEqual([0]);
  await vi.advanceTimersByTimeAsync(1);
  expect(at).toEqual([0, 100]);
  await vi.advanceTimersByTimeAsync(100);
  expect(at).toEqual([0, 100, 200]);
});

test('at 10 requests/s, ten turns after the first take 1 s: the eleventh comes at 1,000 ms, not a ms sooner nor later', async () => {
  const { at } = turns(rateCeiling(10), 11);
  await vi.advanceTimersByTimeAsync(999);
  expect(at).toHaveLength(10);
  await vi.advanceTimersByTimeAsync(1);
  expect(at).toHaveLength(11);
  expect(at.at(-1)).toBe(1_000);
});

test('near miss: without a rate, every turn at once', async () => {
  const { at } = turns(rateCeiling(undefined), 3);
  await vi.advanceTimersByTimeAsync(0);
  expect(at).toEqual([0, 0, 0]);
});

test('a stop drops the turns still waiting: they end as the run stopped, and never run', async () => {
  const guard = new RequestGuard({ profile: 'full' });
  const { at, all } = turns(rateCeiling(5, guard), 3);
  const ended = all.map((turn) => turn.then(() => 'ran', (error: Error) => `${error.name}: ${error.message}`));
  await vi.advanceTimersByTimeAsync(0);
  guard.stop('interrupted by the user');
  await vi.advanceTimersByTimeAsync(1_000);
  expect(await Promise.all(ended)).toEqual(['ran', 'RunStopped: not sent: interrupted by the user', 'RunStopped: not sent: interrupted by the user']);
  expect(at).toEqual([0]);
});
