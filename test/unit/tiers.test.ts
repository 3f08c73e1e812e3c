/**
 * The tiers (test/tiers.ts) stay true to the files: every listed file exists, none is in two
 * lists, and every fast-tier file that mocks modules, timers or globals runs isolated, since
 * the others share one module graph per worker (vitest.config.ts).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GROUND_TESTS, ISOLATED_TESTS, SLOW_TESTS } from '../tiers.js';

/** What leaves state behind a file in a shared module graph. */
const MOCKS = /\bvi\.(mock|doMock|unmock|useFakeTimers|stubGlobal|stubEnv|spyOn|resetModules|hoisted)\b/;

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? testFiles(path) : path.endsWith('.test.ts') ? [path] : [];
  });

describe('the tiers', () => {
  test('every listed file exists, and none is listed twice', () => {
    const listed = [...SLOW_TESTS, ...GROUND_TESTS, ...ISOLATED_TESTS];
    expect(listed.filter((file) => !existsSync(file))).toEqual([]);
    expect(listed.length).toBe(new Set(listed).size);
  });

  test('every fast-tier file that mocks runs isolated', () => {
    // This file names the calls without making them.
    const slow = new Set<string>([...SLOW_TESTS, ...GROUND_TESTS, 'test/unit/tiers.test.ts']);
    const mocking = testFiles('test').filter((file) => !slow.has(file) && MOCKS.test(readFileSync(file, 'utf8')));
    expect(mocking.sort()).toEqual([...ISOLATED_TESTS].sort());
  });

  test.each([
    ['vi.mock(', true],
    ['vi.useFakeTimers()', true],
    ['vi.spyOn(process', true],
    ['near miss: vi.fn()', false],
    ['near miss: a word that ends in vi.mocked', false],
  ])('%s: %s', (text, mocks) => expect(MOCKS.test(text)).toBe(mocks));
});
