#!/usr/bin/env node
// The CI gate's step, as action.yml and the GitLab component run it: the pipeline's inputs
// (PCS_* environment variables) into one run of the tool, its outcome into the pipeline's
// terms (src/ci/gate.ts). Any failure of the gate itself is exit 3 with one line, never 0.
try {
  const { runGate } = await import(new URL('../dist/src/ci/gate.js', import.meta.url).href);
  process.exitCode = await runGate({ err: process.stderr, env: process.env });
} catch (error) {
  process.stderr.write(`petstore-conformance gate: the gate failed: ${String(error?.message ?? error).split('\n')[0]}\n`);
  process.exitCode = 3;
}
