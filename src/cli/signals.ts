/*
 * Loaded by the entry point before anything else (bin/petstore-conformance.js): it imports
 * one small module (node:fs only), so a signal or a crash that comes while the tool loads
 * is already caught.
 */
import { ToolFailure, toolFailure } from '../core/tool-failure.js';

/** Signals that end a run with its report: Ctrl-C, a kill, a closed terminal or SSH session. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** How long a run may take to write its report after the tool failed, before it quits without one (ms). */
const FAILED_RUN_GRACE_MS = 15_000;

/**
 * Turns SIGINT, SIGTERM and SIGHUP, and any uncaught error or unhandled rejection, into
 * an abort from now on. A second signal quits at once (exit 130), as a second Ctrl-C does
 * in most tools. After a failure, the report of what ran is written; one that takes longer
 * than {@link FAILED_RUN_GRACE_MS}, or a failure while an interrupt's report is written,
 * quits with `failedExit` and the failure's line.
 * @param failedExit the exit code of a failure of the tool.
 * @returns the signal that aborts: its reason `interrupted by SIGINT` (or the signal's
 *   name), or a {@link ToolFailure}.
 */
export function interruptOnSignals(failedExit: number): AbortSignal {
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort(`interrupted by ${signal}`);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  // The error a worker thread dies of reaches only its Worker object: kept, to name the cause.
  let workerError: unknown;
  process.on('worker', (worker) => worker.on('error', (error) => (workerError = error)));
  const onFailure = (error: unknown) => {
    const failure = toolFailure(error, workerError);
    // Later failures are most often the first one's consequences (every connection
    // reserving the parser that could not be reserved): the report goes on being written.
    if (interrupt.signal.reason instanceof ToolFailure) return;
    // A crash while an interrupt's report is written: no report can be counted on any more.
    if (interrupt.signal.aborted) {
      process.stderr.write(`petstore-conformance: ${failure.line}\n`);
      process.exit(failedExit);
    }
    interrupt.abort(failure);
    setTimeout(() => {
      process.stderr.write(`petstore-conformance: ${failure.line}; the report could not be finished\n`);
      process.exit(failedExit);
    }, FAILED_RUN_GRACE_MS).unref();
  };
  process.on('uncaughtException', onFailure);
  process.on('unhandledRejection', onFailure);
  return interrupt.signal;
}
