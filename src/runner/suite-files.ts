import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent } from '../core/build-state.js';
import { packageRoot } from '../core/package-info.js';

/** Where the suite's files are, and how vitest must load them. */
export interface SuiteFiles {
  /** Absolute folder of the suite files (vitest resolves a relative `dir` against the working directory). */
  dir: string;
  /** Glob of the suite's test files under `dir` (one file: it loads every conformance class). */
  include: string;
  /**
   * Whether the files are plain JavaScript that Node imports natively. When true, vitest's
   * module runner (a Vite transform per module, served over RPC by the main thread) is
   * skipped: that saves about 200 ms of a run's start on a 2-core machine.
   */
  native: boolean;
  /**
   * A module the worker imports before vitest's own code (`--import`, a file URL), with the
   * compiled suite only: it spares Node 20 vitest's loader-hooks thread (see worker-preload.ts).
   */
  preload?: string;
}

/**
 * The suite files a run loads: the compiled bundle when the package is built and current,
 * else the TypeScript sources through vitest's transform. The CLI runs from `dist/`, so
 * it always gets the compiled files; the project's own tests (which import `src/`) get
 * them too after `npm run build`, so they prove the path users run, yet never a stale
 * build: a source newer than its compiled file selects the sources.
 * @param fromCompiledCode whether the caller runs from `dist/` (the CLI, the package).
 * @param root the package root (a parameter for tests).
 */
export function suiteFiles(fromCompiledCode: boolean = import.meta.url.includes('/dist/src/'), root = packageRoot): SuiteFiles {
  // The build bundles the compiled suite into one module (scripts/bundle-worker.ts).
  const compiled: SuiteFiles = {
    dir: join(root, 'dist/worker'),
    include: 'conformance.test.js',
    native: true,
    preload: pathToFileURL(join(root, 'dist/src/runner/worker-preload.js')).href,
  };
  if (fromCompiledCode || buildIsCurrent(root)) return compiled;
  return { dir: join(root, 'suites'), include: 'conformance.test.ts', native: false };
}
