import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../package-info.js';

/** Where the suite's files are, and how vitest must load them. */
export interface SuiteFiles {
  /** Absolute folder of the suite files (vitest resolves a relative `dir` against the working directory). */
  dir: string;
  /** Glob of the suite files under `dir`. */
  include: string;
  /**
   * Whether the files are plain JavaScript that Node imports natively. When true, vitest's
   * module runner (a Vite transform per module, served over RPC by the main thread) is
   * skipped: that saves about 200 ms of a run's start on a 2-core machine.
   */
  native: boolean;
}

const COMPILED: SuiteFiles = { dir: join(packageRoot, 'dist/suites'), include: '**/*.test.js', native: true };
const SOURCES: SuiteFiles = { dir: join(packageRoot, 'suites'), include: '**/*.test.ts', native: false };

/**
 * The suite files a run loads: the compiled ones when the package is built and current,
 * else the TypeScript sources through vitest's transform. The CLI runs from `dist/`, so
 * it always gets the compiled files; the project's own tests (which import `src/`) get
 * them too after `npm run build`, so they prove the path users run, yet never a stale
 * build: a source newer than its compiled file selects the sources.
 */
export function suiteFiles(fromCompiledCode: boolean = import.meta.url.includes('/dist/src/')): SuiteFiles {
  if (fromCompiledCode) return COMPILED;
  return compiledIsCurrent() ? COMPILED : SOURCES;
}

/** True when every .ts file under suites/ and src/ has a compiled .js at least as new. */
function compiledIsCurrent(): boolean {
  for (const folder of ['suites', 'src']) {
    for (const source of typescriptFiles(join(packageRoot, folder))) {
      const compiled = join(packageRoot, 'dist', relative(packageRoot, source)).replace(/\.ts$/, '.js');
      const compiledTime = statSync(compiled, { throwIfNoEntry: false })?.mtimeMs;
      if (compiledTime === undefined || compiledTime < statSync(source).mtimeMs) return false;
    }
  }
  return true;
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(dir, name));
}
