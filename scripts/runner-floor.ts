/**
 * Benchmark scenario (e): the suite runner's fixed start cost. Starts the suite's thread
 * (the build's, with vitest's runner) on a suite of one empty test and exits: process
 * start, the thread's start and stop, nothing else.
 * Usage: node dist/scripts/runner-floor.js
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunSettings } from '../src/config/settings.js';
import { packageRoot } from '../src/core/package-info.js';
import { CheckCollector } from '../src/runner/collector.js';
import { startSuite } from '../src/runner/suite.js';

// Inside the package, so that the test file's `import '@vitest/runner'` resolves the thread's.
await mkdir(join(packageRoot, 'reports'), { recursive: true });
const dir = await mkdtemp(join(packageRoot, 'reports', '.runner-floor-'));
// One test that sends nothing, with the metadata the collector expects of a check.
const meta = { check: { id: 'nothing', title: 'sends nothing', clause: '0', level: 'info', requirements: [], exchanges: [], created: [] } };
await writeFile(join(dir, 'empty.test.js'), `import { test } from '@vitest/runner';\ntest('nothing', { meta: ${JSON.stringify(meta)} }, () => {});\n`);
const settings = { concurrency: 16 } as RunSettings; // the empty file reads none of it
const collector = new CheckCollector();
const suite = await startSuite([settings], [collector], { files: { thread: join(packageRoot, 'dist/worker/suite-thread.js'), suite: join(dir, 'empty.test.js') } });
const aborted = await suite.finished;
await rm(dir, { recursive: true, force: true });
if (aborted || collector.results.length !== 1) {
  console.error(`the empty suite did not run: ${aborted ?? collector.runErrors.join('; ')}`);
  process.exitCode = 1;
}
