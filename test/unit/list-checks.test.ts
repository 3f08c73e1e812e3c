/**
 * The check list is collected once per process (src/runner/list.ts), and a collection that
 * failed is not kept: the next call tries again. A build's stored list is read instead of
 * collecting, when there is one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, test, vi } from 'vitest';

const collectChecks = vi.hoisted(() => vi.fn());
const compiledModule = vi.hoisted(() => vi.fn());
vi.mock('../../src/runner/suite.js', () => ({ collectChecks }));
vi.mock('../../src/core/build-state.js', () => ({ compiledModule }));

beforeEach(() => {
  vi.resetModules();
  collectChecks.mockReset();
  compiledModule.mockReset();
});

test('a failed collection is tried again; a successful one is kept', async () => {
  compiledModule.mockReturnValue(undefined);
  const { listChecks } = await import('../../src/runner/list.js');
  collectChecks.mockRejectedValueOnce(new Error('the suite did not load')).mockResolvedValue([{ id: 'list-answers-200-array' }]);
  await expect(listChecks()).rejects.toThrow('the suite did not load');
  const again = await listChecks();
  expect(again.checks).toEqual([{ id: 'list-answers-200-array' }]);
  // Near miss: once collected, never again.
  expect(await listChecks()).toBe(again);
  expect(collectChecks).toHaveBeenCalledTimes(2);
});

test('the list a current build stored is read, and nothing collected; near miss: a build without one collects', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcs-list-checks-'));
  try {
    const file = join(dir, 'check-list.json');
    writeFileSync(file, JSON.stringify([{ id: 'stored-check' }]));
    compiledModule.mockImplementation((_caller: string, path: string) => (path === 'runner/check-list.json' ? file : undefined));
    expect((await (await import('../../src/runner/list.js')).listChecks()).checks).toEqual([{ id: 'stored-check' }]);
    expect(collectChecks).not.toHaveBeenCalled();

    vi.resetModules();
    compiledModule.mockImplementation(() => join(dir, 'absent.json'));
    collectChecks.mockResolvedValue([{ id: 'collected-check' }]);
    expect((await (await import('../../src/runner/list.js')).listChecks()).checks).toEqual([{ id: 'collected-check' }]);
    expect(collectChecks).toHaveBeenCalledTimes(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
