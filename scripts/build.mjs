#!/usr/bin/env node
/**
 * `npm run build`: compiles into a fresh folder, `dist.next/`, then swaps it in for `dist/`,
 * so that the CLI of this checkout keeps working while it builds (tsc, the spec shapes'
 * validators and the worker bundle take a minute on a loaded machine), and a build that
 * fails leaves `dist/` as it was. The swap is two renames; bin/petstore-conformance.js waits
 * out the instant between them. Plain JavaScript: it runs before anything is compiled.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [dist, next, old] = ['dist', 'dist.next', 'dist.old'].map((name) => join(root, name));
const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

try {
  rmSync(next, { recursive: true, force: true });
  node(createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--outDir', next);
  node(join(next, 'scripts/compile-schemas.js'), next);
  node(join(next, 'scripts/bundle-worker.js'), next);
} catch {
  // The step's own output said why; dist/ is untouched.
  process.stderr.write('build: failed; dist/ is left as it was\n');
  process.exit(1);
}
rmSync(old, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
