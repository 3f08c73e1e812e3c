/**
 * Build step (`npm run build`): bundles the code the suite's worker runs, the compiled
 * conformance classes and everything they import (undici, fast-check, lossless-json, the
 * p-* helpers), into one ES module, `dist/worker/conformance.test.js`, with the spec
 * shapes' precompiled validators beside it. vitest stays outside: the suite must use the
 * runner's own instance. On Node 20, vitest's native runner sends every module the worker
 * resolves and loads to a loader-hooks thread and back; one module instead of some 150
 * of our own and undici's hundreds of files makes a run about 0.5 s faster on this
 * project's 2-core machine (`npm run bench`), and loads undici through its public entry.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { packageRoot } from '../src/package-info.js';
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
  external: ['vitest', 'ajv', 'ajv-formats'],
  // CommonJS dependencies (undici) require Node's built-in modules: ESM has no require.
  banner: { js: "import { createRequire as __pcsCreateRequire } from 'node:module'; const require = __pcsCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
// The validators module requires its precompiled code beside itself.
copyFileSync(join(packageRoot, 'dist/src/schema', PRECOMPILED_FILE), join(out, PRECOMPILED_FILE));
