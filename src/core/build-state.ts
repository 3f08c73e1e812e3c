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
  return ['suites', 'src'].every((folder) => typescriptFiles(join(root, folder)).every((source) => statSync(source).mtimeMs <= bundleTime));
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}
