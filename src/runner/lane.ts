import { broadcastStop } from '../core/stop-channel.js';
import { deadlineReached } from '../http/safety.js';
import type { RunOutcome } from './run.js';
import { startSuite } from './suite.js';
import { reportWriters, type TargetRun } from './target-run.js';

/**
 * Checks the targets of one lane in one suite worker, one target after another (the worker's
 * start is paid once per lane), and builds each target's report. The probes go out while the
 * worker starts; an unreachable target is told to stop at once, and when no target of the
 * lane is reachable the worker's run is cancelled.
 * @param stop cuts the lane short (a signal, the deadline): the checks under way are
 *   abandoned, and every report is still written.
 * @returns each target's outcome, in the order of `targets`.
 */
export async function runLane(targets: readonly TargetRun[], stop: AbortSignal | undefined): Promise<RunOutcome[]> {
  // The worker sends the requests: every target's checks are told at once, those under way included.
  const stopWorker = () => targets.forEach((target) => broadcastStop(target.settings.runId, String(stop!.reason)));
  stop?.addEventListener('abort', stopWorker, { once: true });
  const unreachable = new AbortController();
  const signals = [stop, unreachable.signal].filter((signal) => signal !== undefined);
  try {
    const suite = await startSuite(
      targets.map((target) => target.settings),
      targets.map((target) => target.collector),
      { signal: AbortSignal.any(signals) },
    );
    if (targets.some((target) => target.options.reportDir !== null || target.options.reportStream)) void reportWriters(); // loads while the worker starts
    const reached = await Promise.all(
      targets.map(async (target) => {
        const answered = await target.probe(stop);
        if (!answered) broadcastStop(target.settings.runId, 'the target is unreachable');
        return answered;
      }),
    );
    if (!reached.includes(true)) unreachable.abort('the target is unreachable');
    const aborted = await suite.finished;
    const outcomes: RunOutcome[] = [];
    // One after another: each target's summary is printed whole.
    for (const target of targets) outcomes.push(await target.finish(aborted));
    return outcomes;
  } finally {
    stop?.removeEventListener('abort', stopWorker);
  }
}

/**
 * The caller's abort signal, combined with the run's deadline when one is set: the same
 * instant (`deadlineAt`, ms since the epoch) the request guards read off the clock.
 */
export function withDeadline(signal: AbortSignal | undefined, deadlineAt: number | undefined, deadlineSeconds: number | undefined): AbortSignal | undefined {
  if (deadlineAt === undefined || deadlineSeconds === undefined) return signal;
  const deadline = AbortSignal.timeout(Math.max(0, Math.ceil(deadlineAt - Date.now())));
  const reason = deadlineReached(deadlineSeconds);
  const timed = new AbortController();
  deadline.addEventListener('abort', () => timed.abort(reason), { once: true });
  return signal ? AbortSignal.any([signal, timed.signal]) : timed.signal;
}
