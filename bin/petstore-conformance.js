#!/usr/bin/env node
// Entry point of the `petstore-conformance` command: loads the compiled CLI (npm run build).
// Signals from the first line on: held here until the CLI's own handlers take them (below),
// so that one during start-up ends the run with its report (exit 3), never with the signal.
const early = [];
const hold = (signal) => early.push(signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, hold);
const { existsSync } = await import('node:fs');

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
// A build swaps a fresh dist/ in with two renames (scripts/build.mjs): the instant between them, when
// dist.old/ stands alone, is waited out (bounded), never read as a CLI that is not built.
for (let waited = 0; !existsSync(entry) && existsSync(new URL('../dist.old', import.meta.url)) && waited < 2_000; waited += 20) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
if (!existsSync(entry)) {
  process.stderr.write('petstore-conformance: error: the CLI is not built; run `npm run build` (npm install does it)\n');
  process.exit(2);
}
// A reader that goes away (`run | head`) must not end the run: its reports are still written.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
/** The tool could not load its own modules (file descriptors exhausted, a broken install): exit 3 with the cause, never 0 or 1. */
function failedToLoad(error) {
  const cause = error?.code === 'EMFILE' ? 'too many open files: raise ulimit -n' : String(error?.message ?? error).split('\n')[0];
  process.stderr.write(`petstore-conformance: the tool failed: it could not load: ${cause}\n`);
  process.exit(3);
}
// Signals are caught before anything loads: one 0.3 s after start still gets a report.
const { interruptOnSignals } = await import(new URL('../dist/src/cli/signals.js', import.meta.url).href).catch(failedToLoad);
// A failure of the tool itself exits 3 (not assessable), never 1: see src/core/tool-failure.ts.
const interrupt = interruptOnSignals(3);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(signal, hold);
// A signal held during start-up is handed on: the run stops before it begins, with a report that says so.
if (early.length > 0) process.emit(early[0], early[0]);
const { main, defaultIo } = await import(entry.href).catch(failedToLoad);
const code = await main(process.argv.slice(2), defaultIo(interrupt));
// The exit code is the one main decided, whatever a library still running sets after it
// (vitest sets its own when a worker it no longer waits for ends).
process.exitCode = code;
process.on('exit', () => (process.exitCode = code));
// A run cut short (a signal, the tool's own failure) may leave a worker that never ends:
// once the report is written, nothing else is awaited.
if (interrupt.aborted) setTimeout(() => process.exit(code), 1000).unref();
