import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of this package's root (the folder holding its package.json).
 * Works from `src/` (run by vitest) and from `dist/src/` (the compiled CLI) alike.
 */
export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** This tool's version, from package.json. */
export const toolVersion: string = (
  JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }
).version;

/** The interface version this suite checks (spec section 9/R1). */
export const specVersion = '1.0.0';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'petstore-conformance') {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`package root not found above ${from}`);
  }
}
