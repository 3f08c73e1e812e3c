/**
 * The run's stop between threads (src/core/stop-channel.ts): a listener hears a stop sent
 * after it started, and one sent before it started (it asks).
 */
import { expect, test } from 'vitest';
import { broadcastStop, listenForStop } from '../../src/core/stop-channel.js';

const heard = (runId: string) => {
  let stop!: () => void;
  const reason = new Promise<string>((resolve) => (stop = listenForStop(runId, resolve)));
  return { reason, stop: () => stop() };
};

test.each([
  ['after the listener started', false],
  ['before the listener started (the listener asks, the sender answers)', true],
])('a stop sent %s is heard', async (_d, stopFirst) => {
  const runId = `stop-${stopFirst ? 'before' : 'after'}`;
  const close = stopFirst ? broadcastStop(runId, 'interrupted by SIGINT') : undefined;
  const listener = heard(runId);
  const closeAfter = stopFirst ? undefined : broadcastStop(runId, 'interrupted by SIGINT');
  expect(await listener.reason).toBe('interrupted by SIGINT');
  listener.stop();
  (close ?? closeAfter)!();
});

test("near miss: another run's stop is not heard, whichever came first", async () => {
  const close = broadcastStop('stop-other-a', 'a');
  const other = heard('stop-other-b');
  const mine = heard('stop-other-a');
  const closeB = broadcastStop('stop-other-b', 'b');
  expect(await Promise.all([mine.reason, other.reason])).toEqual(['a', 'b']);
  for (const done of [other.stop, mine.stop, close, closeB]) done();
});
