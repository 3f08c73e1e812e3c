import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-info.js';

/**
 * True when the build (`dist/`, the worker bundle its last step) is at least as new as
 * every .ts file under suites/ and src/: code run from the sources may then start
 * compiled modules in threads of their own, never a stale one.
 */
export function buildIsCurrent(root = packageRoot): boolean {
  const bundleTime = statSync(join(root, 'dist/worker/conformance.test.js'), { throwIfNoEntry: false })?.mtimeMs;
  if (bundleTime === undefined) return false;
  return sources(root).every((source) => statSync(source).mtimeMs <= bundleTime);
}

/**
 * Where a compiled module of src/ is, for a thread of its own to load: under the caller's
 * own dist/src/ when it runs compiled; else, run from the sources, dist's copy while the
 * build is current; undefined when it is stale (the caller then works in its own thread:
 * stale code must never judge).
 * @param callerUrl the caller's `import.meta.url`.
 * @param path the module's path under src/, named as compiled (`traffic/judge-thread.js`).
 */
export function compiledModule(callerUrl: string, path: string, root = packageRoot): URL | string | undefined {
  const at = callerUrl.indexOf('/dist/src/');
  if (at >= 0) return new URL(path, callerUrl.slice(0, at + '/dist/src/'.length));
  return buildIsCurrent(root) ? join(root, 'dist/src', path) : undefined;
}

/**
 * A name for the sources as they are now (16 hex characters): it changes when a .ts file
 * under suites/ or src/ is added, removed or written (its path, size and mtime).
 */
export function sourcesStamp(root = packageRoot): string {
  const hash = createHash('sha256');
  for (const source of sources(root).sort()) {
    const { size, mtimeMs } = statSync(source);
    hash.update(`${source}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

function sources(root: string): string[] {
  return ['suites', 'src'].flatMap((folder) => typescriptFiles(join(root, folder)));
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}
