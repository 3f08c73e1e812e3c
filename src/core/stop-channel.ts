import { BroadcastChannel } from 'node:worker_threads';

/**
 * The run's stop, from the thread that owns it (signals, the deadline) to the suite's
 * worker, which owns the requests. vitest's own cancel only keeps checks from starting;
 * a check under way (a property of 30 runs) would go on sending. A BroadcastChannel
 * reaches every thread of the process without passing through vitest.
 */
/** `run`: the run's name on its channels (config/settings.ts `channelOf`), unique in the process. */
const channelName = (run: string) => `petstore-conformance/stop/${run}`;

/** What travels on a run's channel: a stop with its reason, or a listener asking whether one came before it listened. */
type StopMessage = { stop: string } | { ask: true };

/**
 * Tells the run `run` to stop sending, for `reason` (e.g. `interrupted by the user`). The
 * channel stays open (unref'd: it never keeps the process alive) and answers a listener
 * that starts later: a signal that comes while the worker starts is not lost.
 * @returns a function that closes the channel, once the run has ended.
 */
export function broadcastStop(run: string, reason: string): () => void {
  const channel = new BroadcastChannel(channelName(run));
  channel.unref();
  channel.onmessage = (message) => {
    if ('ask' in ((message as MessageEvent).data as StopMessage)) channel.postMessage({ stop: reason } satisfies StopMessage);
  };
  channel.postMessage({ stop: reason } satisfies StopMessage);
  return () => channel.close();
}

/**
 * Calls `onStop` with the reason when the run `run` is told to stop, or was told before
 * this listener started (it asks once). The channel never keeps the process alive.
 * @returns a function that stops listening.
 */
export function listenForStop(run: string, onStop: (reason: string) => void): () => void {
  const channel = new BroadcastChannel(channelName(run));
  channel.unref();
  channel.onmessage = (message) => {
    const data = (message as MessageEvent).data as StopMessage;
    if ('stop' in data) onStop(data.stop);
  };
  channel.postMessage({ ask: true } satisfies StopMessage);
  return () => channel.close();
}
