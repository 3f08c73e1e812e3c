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

test('a stop sent after the listener started is heard', async () => {
  const listener = heard('stop-after');
  const close = broadcastStop('stop-after', 'interrupted by SIGINT');
  expect(await listener.reason).toBe('interrupted by SIGINT');
  listener.stop();
  close();
});

test('a stop sent before the listener started is heard too: the listener asks, the sender answers', async () => {
  const close = broadcastStop('stop-before', 'the deadline of 5 s passed');
  const listener = heard('stop-before');
  expect(await listener.reason).toBe('the deadline of 5 s passed');
  listener.stop();
  close();
});

test("near miss: another run's stop is not heard, whichever came first", async () => {
  const close = broadcastStop('stop-other-a', 'a');
  const other = heard('stop-other-b');
  const mine = heard('stop-other-a');
  const closeB = broadcastStop('stop-other-b', 'b');
  expect(await Promise.all([mine.reason, other.reason])).toEqual(['a', 'b']);
  for (const done of [other.stop, mine.stop, close, closeB]) done();
});
