/**
 * Build step (`npm run build`): bundles the code the suite's worker runs, the compiled
 * conformance classes and the small ES modules they import (fast-check, lossless-json, the
 * p-* helpers), into one ES module, `dist/worker/conformance.test.js`, with the spec
 * shapes' precompiled validators beside it. On Node 20, vitest's native runner sends every
 * ES module the worker resolves and loads to a loader-hooks thread and back (about 3 ms
 * each); one module instead of some 170 pays for loading undici through its public entry.
 * Outside the bundle: vitest (the suite must use the runner's own instance), ajv (loaded
 * on demand), and undici, loaded as published: bundled, its requests on reused
 * connections missed a 400 ms deadline against a server answering at once in 4 runs of 4
 * (0 of 4 unbundled); and shescape (replay commands), which requires Node's built-ins as
 * CommonJS does, which an ES module bundle cannot.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/core/package-info.js';
import { PRECOMPILED_FILE } from '../src/schema/validators.js';

const out = join(packageRoot, 'dist/worker');
await build({
  entryPoints: [join(packageRoot, 'dist/suites/conformance.test.js')],
  outfile: join(out, 'conformance.test.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // ajv loads on demand only (the validators come precompiled), through createRequire.
  external: ['vitest', 'ajv', 'ajv-formats', 'undici', 'shescape'],
  logLevel: 'warning',
});
// The validators module requires its precompiled code beside itself.
copyFileSync(join(packageRoot, 'dist/src/schema', PRECOMPILED_FILE), join(out, PRECOMPILED_FILE));
