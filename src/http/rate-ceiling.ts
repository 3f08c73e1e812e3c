import pThrottle from 'p-throttle';
import { RunStopped } from '../core/errors.js';
import type { RequestGuard } from './safety.js';

/** Runs `run` when its turn comes. */
export type Turn = <T>(run: () => Promise<T>) => Promise<T>;

/**
 * The user's ceiling on requests (`--rate-limit`, requests/s): p-throttle's strict mode
 * spaces calls evenly, one per 1000/rate ms. A stop (the deadline, a signal, a budget)
 * drops the calls still waiting for their turn at once: at 5 requests/s, a queue of 16
 * would otherwise hold the stopped run 3 s more. Without a rate, every call goes at once.
 * @throws RunStopped (from a waiting call) when the guard stops the run.
 */
export function rateCeiling(rate: number | undefined, guard?: RequestGuard): Turn {
  if (!rate) return (run) => run();
  const throttled = pThrottle({ limit: 1, interval: 1000 / rate, strict: true, ...(guard ? { signal: guard.signal } : {}) })((run: () => Promise<unknown>) => run());
  return <T>(run: () => Promise<T>) =>
    (throttled(run) as Promise<T>).catch((reason: unknown) => {
      // p-throttle rejects the waiting calls with the signal's reason.
      if (guard?.signal.aborted) throw new RunStopped(`not sent: ${guard.stopped}`);
      throw reason;
    });
}
