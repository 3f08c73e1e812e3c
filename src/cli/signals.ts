/*
 * Loaded by the entry point before anything else (bin/petstore-conformance.js): it imports
 * nothing, so a signal that arrives while the tool loads is already caught.
 */

/**
 * Turns SIGINT and SIGTERM into an abort from now on; a second one quits at once (exit
 * 130), as a second Ctrl-C does in most tools.
 * @returns the signal that aborts, its reason `interrupted by SIGINT` (or SIGTERM).
 */
export function interruptOnSignals(): AbortSignal {
  const interrupt = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(130);
    interrupt.abort(`interrupted by ${signal}`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return interrupt.signal;
}
