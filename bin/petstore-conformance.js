#!/usr/bin/env node
// Entry point of the `petstore-conformance` command: loads the compiled CLI (npm run build).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
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
// Signals are caught before anything loads: one 0.3 s after start still gets a report.
const { interruptOnSignals } = await import(new URL('../dist/src/cli/signals.js', import.meta.url).href);
const interrupt = interruptOnSignals();
const { main, defaultIo } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), defaultIo(interrupt));
