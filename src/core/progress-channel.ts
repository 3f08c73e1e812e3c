import { BroadcastChannel } from 'node:worker_threads';

/**
 * A run's count of requests sent, live, from the suite's worker (which sends them) to the
 * thread that prints the status line. A BroadcastChannel, as the stop is (stop-channel.ts):
 * it reaches every thread of the process without passing through vitest, which reports a
 * check only when it ends (a property of 40 inputs at 5 requests/s is a silence of 8 s).
 */
/** `run`: the run's name on its channels (config/settings.ts `channelOf`), unique in the process. */
const channelName = (run: string) => `petstore-conformance/progress/${run}`;

/** How often the worker posts at most (ms): a status line redrawn 4 times a second. */
export const PROGRESS_INTERVAL_MS = 250;

/** The worker's side: call `sent` with the count after each request; `close` once the run ends. */
export interface ProgressReporter {
  sent(requests: number): void;
  close(): void;
}

/**
 * Posts the run's request count at most every {@link PROGRESS_INTERVAL_MS}, the latest one
 * last (a count that changed within an interval is posted when it ends). Never keeps the
 * process alive.
 * @param now the clock (ms), a parameter for tests.
 */
export function progressReporter(run: string, now: () => number = Date.now): ProgressReporter {
  const channel = new BroadcastChannel(channelName(run));
  channel.unref();
  let latest = 0;
  let posted = 0;
  let lastPostAt = -Infinity;
  let trailing: NodeJS.Timeout | undefined;
  const post = () => {
    trailing = undefined;
    if (latest === posted) return;
    posted = latest;
    lastPostAt = now();
    channel.postMessage({ requests: latest });
  };
  return {
    sent(requests) {
      latest = requests;
      if (now() - lastPostAt >= PROGRESS_INTERVAL_MS) post();
      else trailing ??= setTimeout(post, PROGRESS_INTERVAL_MS - (now() - lastPostAt)).unref();
    },
    close() {
      if (trailing) clearTimeout(trailing);
      post();
      channel.close();
    },
  };
}

/**
 * Calls `onRequests` with each count the run `run` posts.
 * @returns a function that stops listening.
 */
export function listenForProgress(run: string, onRequests: (requests: number) => void): () => void {
  const channel = new BroadcastChannel(channelName(run));
  channel.unref();
  channel.onmessage = (message) => onRequests(((message as MessageEvent).data as { requests: number }).requests);
  return () => channel.close();
}
