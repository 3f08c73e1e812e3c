#!/usr/bin/env node
/**
 * `npm run build`: compiles into a fresh folder, `dist.next/`, then swaps it in for `dist/`,
 * so that the CLI of this checkout keeps working while it builds (tsc, the spec shapes'
 * validators and the worker bundle take a minute on a loaded machine), and a build that
 * fails leaves `dist/` as it was. The swap is two renames; bin/petstore-conformance.js waits
 * out the instant between them. Plain JavaScript: it runs before anything is compiled.
 *
 * A build whose inputs are unchanged since the last one is skipped: `npm ci` builds (its
 * `prepare`), and `npm test` right after it would compile the same again (11 s of its 2
 * minutes). The inputs are named by a hash of their contents, kept in `dist/.inputs`.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [dist, next, old] = ['dist', 'dist.next', 'dist.old'].map((name) => join(root, name));
const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

/** What the build reads: every file under these folders, and these files. */
const INPUT_FOLDERS = ['src', 'suites', 'test', 'scripts', 'schemas', 'templates'];
const INPUT_FILES = ['tsconfig.json', 'package.json', 'package-lock.json', 'vitest.config.ts', 'vitest.slow.config.ts', 'vitest.ground.config.ts'];

/** A hash of every input's path and contents (hex). */
function inputsHash() {
  const hash = createHash('sha256');
  const files = [...INPUT_FILES, ...INPUT_FOLDERS.filter((folder) => existsSync(join(root, folder))).flatMap((folder) => readdirSync(join(root, folder), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(root.length)))];
  for (const file of files.sort()) hash.update(`${file}\0`).update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '').update('\0');
  return hash.digest('hex');
}

const inputs = inputsHash();
const stamp = join(dist, '.inputs');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs) {
  // Sources touched but unchanged: the build is as new as they are (src/core/build-state.ts compares times).
  const now = new Date();
  utimesSync(join(dist, 'worker/conformance.test.js'), now, now);
  process.stdout.write('build: dist/ is current\n');
  process.exit(0);
}

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
try {
  // The checks, collected from dist's own suite once it is in place (the CLI collects them itself while they are not there).
  node(join(dist, 'scripts/check-list.js'));
} catch {
  process.stderr.write('build: the suite\'s checks could not be collected\n');
  process.exit(1);
}
// Last: a build whose steps did not all end is not taken for current.
writeFileSync(join(dist, '.inputs'), inputs);
