import { channelOf } from '../config/settings.js';
import { broadcastStop } from '../core/stop-channel.js';
import { deadlineReached } from '../http/safety.js';
import type { RunOutcome } from './options.js';
import { startSuite } from './suite.js';
import { reportWriters, type TargetRun } from './target-run.js';

/**
 * Checks the targets of one lane in one suite thread, one target after another (the thread's
 * start is paid once per lane), and builds each target's report. The thread sends the probes
 * as it starts; an unreachable target is told to stop at once, and when no target of the
 * lane is reachable the thread's run is cancelled.
 * @param stop cuts the lane short (a signal, the deadline): the checks under way are
 *   abandoned, and every report is still written.
 * @param keepExchanges whether each outcome holds its exchanges (see TargetRun.finish).
 * @returns each target's outcome, in the order of `targets`.
 */
export async function runLane(
  targets: readonly TargetRun[],
  stop: AbortSignal | undefined,
  onOutcome: (target: TargetRun, outcome: RunOutcome) => void = () => {},
  keepExchanges = true,
): Promise<RunOutcome[]> {
  // The worker sends the requests: every target's checks are told at once, those under way included.
  const stops: Array<() => void> = [];
  const stopRun = (target: TargetRun, reason: string) => void stops.push(broadcastStop(channelOf(target.settings), reason));
  const stopWorker = () => targets.forEach((target) => stopRun(target, String(stop!.reason)));
  stop?.addEventListener('abort', stopWorker, { once: true });
  const unreachable = new AbortController();
  const signals = [stop, unreachable.signal].filter((signal) => signal !== undefined);
  // A target whose checks have all ended is reported at once, while the lane goes on (its
  // collected data let go); one cut short by a stop is reported at the lane's end, with
  // the stop's reason.
  const finishing = new Map<TargetRun, Promise<RunOutcome>>();
  const finish = (target: TargetRun, aborted: string | undefined) => {
    const outcome = target.finish(aborted, keepExchanges).then((result) => (onOutcome(target, result), result));
    finishing.set(target, outcome);
    return outcome;
  };
  const byCollector = new Map(targets.map((target) => [target.collector, target]));
  const byRunId = new Map(targets.map((target) => [target.settings.runId, target]));
  try {
    const suite = await startSuite(
      targets.map((target) => target.settings),
      targets.map((target) => target.collector),
      {
        signal: AbortSignal.any(signals),
        onTargetEnd: (collector) => {
          // The last target ends with the run, whose end brings the run's own errors too.
          const target = byCollector.get(collector)!;
          if (!stop?.aborted && target !== targets.at(-1)) void finish(target, undefined).catch(() => {}); // awaited below
        },
        onProbe: (runId, answer) => byRunId.get(runId)?.probed(answer),
        onPreflight: (runId, preflight) => byRunId.get(runId)?.preflighted(preflight),
      },
    );
    // A thread that ends without a probe (it failed, or never started: a stop before it) sends none.
    void suite.finished.then(() => targets.forEach((target) => target.probed(undefined)));
    if (targets.some((target) => target.options.reportDir !== undefined || target.options.reportStream)) void reportWriters(); // loads while the thread starts
    const reached = await Promise.all(
      targets.map(async (target) => {
        const answered = await target.reached;
        if (!answered) stopRun(target, 'the target is unreachable');
        return answered;
      }),
    );
    if (!reached.includes(true)) unreachable.abort('the target is unreachable');
    // A stopped worker ends within moments; one that died or hangs (the tool's own failure)
    // must not hold the report back.
    const aborted = await Promise.race([suite.finished, graceAfter(stop)]);
    const outcomes: RunOutcome[] = [];
    // One after another: each target's summary is printed whole.
    for (const target of targets) outcomes.push(await (finishing.get(target) ?? finish(target, aborted)));
    return outcomes;
  } finally {
    stop?.removeEventListener('abort', stopWorker);
    for (const close of stops) close();
  }
}

/** How long a stopped suite may take to end before its targets are reported with what was collected (ms). */
export const STOP_GRACE_MS = 2_000;

/** Resolves to the stop's reason {@link STOP_GRACE_MS} after `stop` aborts; never, without a stop. */
function graceAfter(stop: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve) => {
    const after = () => setTimeout(() => resolve(String(stop!.reason)), STOP_GRACE_MS).unref();
    if (stop?.aborted) after();
    else stop?.addEventListener('abort', after, { once: true });
  });
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
