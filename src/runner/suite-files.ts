import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildIsCurrent, sourcesStamp } from '../core/build-state.js';
import { packageRoot } from '../core/package-info.js';
import { bundleSuite } from './suite-bundle.js';

/** The two bundles a run loads (absolute paths; see suite-bundle.ts). */
export interface SuiteFiles {
  /** The suite's thread (suite-thread.ts). */
  thread: string;
  /** The conformance suite's one test file. */
  suite: string;
}

/** The bundles in `dir`. */
export function bundlesIn(dir: string): SuiteFiles {
  return { thread: join(dir, 'suite-thread.js'), suite: join(dir, 'conformance.test.js') };
}

/**
 * The bundles a run loads: the build's (`dist/worker/`) when the package is built and
 * current, else bundles of the TypeScript sources as they are now. The CLI runs from
 * `dist/`, so it always gets the build's; the project's own tests (which import `src/`)
 * get them too after `npm run build`, so they prove what users run, yet never a stale
 * build: a source newer than the build selects the sources.
 * @param fromCompiledCode whether the caller runs from `dist/` (the CLI, the package).
 * @param root the package root (a parameter for tests).
 * @throws Error when the sources must be bundled and esbuild (a development dependency) is missing or fails.
 */
export async function suiteFiles(fromCompiledCode: boolean = import.meta.url.includes('/dist/src/'), root = packageRoot): Promise<SuiteFiles> {
  if (fromCompiledCode || buildIsCurrent(root)) return bundlesIn(join(root, 'dist/worker'));
  return sourceBundles(root);
}

/**
 * Bundles of the sources, one folder per state of the sources under the package's
 * `node_modules/.cache/` (where the bundles resolve the packages they leave out), made
 * once: processes that need the same ones at once each bundle into a folder of their own
 * and keep the first that lands.
 */
async function sourceBundles(root: string): Promise<SuiteFiles> {
  const cache = join(root, 'node_modules/.cache/petstore-conformance');
  const dir = join(cache, `suite-${sourcesStamp(root)}`);
  if (!existsSync(join(dir, 'suite-thread.js'))) {
    await mkdir(cache, { recursive: true });
    const building = await mkdtemp(`${dir}.`);
    await bundleSuite(root, 'ts', building);
    // A folder that landed meanwhile is the same bundles: ours goes.
    await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
  }
  return bundlesIn(dir);
}
