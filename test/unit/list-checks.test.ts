/**
 * The check list is collected once per process (src/runner/list.ts), and a collection that
 * failed is not kept: the next call tries again.
 */
import { expect, test, vi } from 'vitest';

const collectChecks = vi.hoisted(() => vi.fn());
vi.mock('../../src/runner/suite.js', () => ({ collectChecks }));

test('a failed collection is tried again; a successful one is kept', async () => {
  const { listChecks } = await import('../../src/runner/list.js');
  collectChecks.mockRejectedValueOnce(new Error('the suite did not load')).mockResolvedValue([{ id: 'list-answers-200-array' }]);
  await expect(listChecks()).rejects.toThrow('the suite did not load');
  const again = await listChecks();
  expect(again.checks).toEqual([{ id: 'list-answers-200-array' }]);
  // Near miss: once collected, never again.
  expect(await listChecks()).toBe(again);
  expect(collectChecks).toHaveBeenCalledTimes(2);
});
