import { BroadcastChannel } from 'node:worker_threads';

/**
 * The run's stop, from the thread that owns it (signals, the deadline) to the suite's
 * worker, which owns the requests. vitest's own cancel only keeps checks from starting;
 * a check under way (a property of 30 runs) would go on sending. A BroadcastChannel
 * reaches every thread of the process without passing through vitest.
 */
const channelName = (runId: string) => `petstore-conformance/stop/${runId}`;

/** Tells the run `runId` to stop sending, for `reason` (e.g. `interrupted by the user`). */
export function broadcastStop(runId: string, reason: string): void {
  const channel = new BroadcastChannel(channelName(runId));
  channel.postMessage(reason);
  channel.close();
}

/**
 * Calls `onStop` with the reason when the run `runId` is told to stop. The channel never
 * keeps the process alive.
 * @returns a function that stops listening.
 */
export function listenForStop(runId: string, onStop: (reason: string) => void): () => void {
  const channel = new BroadcastChannel(channelName(runId));
  channel.unref();
  channel.onmessage = (message) => onStop(String((message as MessageEvent).data));
  return () => channel.close();
}
