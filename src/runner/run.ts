import { runLane, withDeadline } from './lane.js';
import type { RunOptions, RunOutcome } from './options.js';
import { TargetRun } from './target-run.js';

export type { RunOptions, RunOutcome } from './options.js';

/**
 * Runs the conformance suite against one target and builds its report: starts the
 * embedded reference server when no base URL is given, runs the suite's checks in a
 * thread of their own (vitest's runner, shared run state), which probes the target once
 * as it starts (an unreachable target cancels the run: its report holds no check), then
 * writes the report.
 * Failures of the target are findings in the report; this function throws only for
 * failures of the tool itself (e.g. the report directory cannot be written), and a
 * UsageError for bad options (e.g. a base URL without a key).
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const target = await TargetRun.prepare(options, new Date());
  try {
    // A signal while the capture was judged: its report holds what was judged, and nothing is sent.
    if (target.traffic?.stopped !== undefined) return await target.finish(target.traffic.stopped);
    const { deadlineAt, deadlineSeconds } = target.settings;
    const [outcome] = await runLane([target], withDeadline(options.signal, deadlineAt, deadlineSeconds));
    return outcome!;
  } finally {
    await target.close();
  }
}
