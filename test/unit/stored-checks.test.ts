/**
 * The checks the build stored (scripts/check-list.ts), which `judge`, `proxy` and `list`
 * read instead of collecting: the same as a collection of the suite now.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildIsCurrent } from '../../src/core/build-state.js';
import { packageRoot } from '../../src/core/package-info.js';
import { collect, STORED_CHECKS } from '../../src/runner/list.js';

// The stored list is the build's, read only while the build is current (`npm test` builds first); a source changed since is read live.
test.skipIf(!buildIsCurrent())('the stored checks are the suite’s as collected now, every field as declared', async () => {
  const stored: unknown = JSON.parse(await readFile(join(packageRoot, 'dist/src', STORED_CHECKS), 'utf8'));
  const { checks } = await collect();
  expect(checks.length).toBeGreaterThan(50);
  expect(stored).toEqual(checks);
});
