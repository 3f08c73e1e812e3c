/**
 * Small decisions with nothing else to hold them: each beside its near miss.
 * - settleAll (src/check/settle.ts): every request a check started has ended before it throws.
 * - seeds (src/check/seed.ts): 31-bit, stable, distinct per label.
 * - buildIsCurrent (src/core/build-state.ts): the bundle at least as new as every source.
 * - shards (src/config/shard.ts): k of n from 1 to n, slices that hold every name once.
 * - trafficSettings (src/traffic/judge-capture.ts): a judged capture's settings say nothing was sent or generated.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { settleAll } from '../../src/check/settle.js';
import { deriveSeed, derivedHex } from '../../src/check/seed.js';
import { buildIsCurrent, sourcesStamp } from '../../src/core/build-state.js';
import { parseShard, shardOf } from '../../src/config/shard.js';
import { trafficSettings } from '../../src/traffic/judge-capture.js';
import { isToolFailureLine, toolFailureIn } from '../../src/core/tool-failure.js';

describe('settleAll', () => {
  test('throws the first rejection in order, only once every promise has settled', async () => {
    const ended: string[] = [];
    let finishSlow!: () => void;
    const slow = new Promise<string>((resolve) => (finishSlow = () => (ended.push('slow'), resolve('slow'))));
    const settled = settleAll([Promise.reject(new Error('first')), slow, Promise.reject(new Error('second'))]).catch((error: Error) => (ended.push('thrown'), error.message));
    // Every microtask and a turn of the event loop: a rejection not held back would have been thrown by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual([]);
    finishSlow();
    expect([await settled, ended]).toEqual(['first', ['slow', 'thrown']]);
  });

  test('near miss: none rejected: the values in order', async () => {
    expect(await settleAll([Promise.resolve(1), new Promise((resolve) => setImmediate(() => resolve(2))), Promise.resolve(3)])).toEqual([1, 2, 3]);
  });
});

describe('seeds', () => {
  test('derived seeds are 31-bit, stable, and differ by label and by run seed', () => {
    const seeds = Array.from({ length: 200 }, (_, i) => deriveSeed(7, `label-${i}`));
    expect(seeds.every((seed) => Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31)).toBe(true);
    // About half of 200 SHA-256 prefixes have their top bit set: masked, not dropped.
    expect(seeds.some((seed) => seed >= 2 ** 30)).toBe(true);
    expect(deriveSeed(7, 'a')).toBe(deriveSeed(7, 'a'));
    expect(new Set([deriveSeed(7, 'a'), deriveSeed(7, 'b'), deriveSeed(8, 'a')]).size).toBe(3);
  });

  test('derived hex has the length asked for', () => {
    expect([derivedHex(1, 'run-id', 6), derivedHex(1, 'run-id', 10)].map((hex) => hex.length)).toEqual([6, 10]);
    expect(derivedHex(1, 'run-id', 10).startsWith(derivedHex(1, 'run-id', 6))).toBe(true);
  });
});

describe('buildIsCurrent', () => {
  let root: string;
  const BUNDLE = 'dist/worker/conformance.test.js';
  const at = (file: string) => join(root, file);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pcs-build-state-'));
    for (const dir of ['dist/worker', 'suites', 'src/deep']) mkdirSync(at(dir), { recursive: true });
    for (const file of ['suites/a.ts', 'src/deep/b.ts', 'src/deep/c.d.ts', BUNDLE]) writeFileSync(at(file), '');
    for (const file of ['suites/a.ts', 'src/deep/b.ts', BUNDLE]) utimesSync(at(file), 1000, 1000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('a bundle exactly as new as the newest source is current', () => expect(buildIsCurrent(root)).toBe(true));
  test('near miss: a source under src/ a second newer is not', () => {
    utimesSync(at('src/deep/b.ts'), 1001, 1001);
    expect(buildIsCurrent(root)).toBe(false);
  });
  test('near miss: a source under suites/ a second newer is not', () => {
    utimesSync(at('suites/a.ts'), 1001, 1001);
    expect(buildIsCurrent(root)).toBe(false);
  });
  test('a declaration file newer than the bundle does not count', () => {
    utimesSync(at('src/deep/c.d.ts'), 5000, 5000);
    expect(buildIsCurrent(root)).toBe(true);
  });
  test('no bundle: not current', () => {
    rmSync(at(BUNDLE));
    expect(buildIsCurrent(root)).toBe(false);
  });

  test('sourcesStamp: 16 hex characters, the same for the same sources, another when one is written', () => {
    const stamp = sourcesStamp(root);
    expect(stamp).toMatch(/^[0-9a-f]{16}$/);
    expect(sourcesStamp(root)).toBe(stamp);
    utimesSync(at('src/deep/b.ts'), 1001, 1001);
    expect(sourcesStamp(root)).not.toBe(stamp);
    // A declaration file is no source.
    const again = sourcesStamp(root);
    utimesSync(at('src/deep/c.d.ts'), 7000, 7000);
    expect(sourcesStamp(root)).toBe(again);
  });
});

describe('trafficSettings', () => {
  test('a judged capture reports no key, no seed, read-only, and the options given', () => {
    const settings = trafficSettings({ baseUrl: 'https://x.example/v1', formats: ['json'], strict: true, acceptTruncated: true, minMustChecks: 3 });
    expect(settings).toMatchObject({ baseUrl: 'https://x.example/v1', apiKey: '', targetKind: 'traffic', seed: 0, runId: 'traffic', profile: 'read-only', formats: ['json'], strict: true, acceptTruncated: true, minMustChecks: 3 });
  });

  test('near miss: options not given keep the table’s defaults', () => {
    const settings = trafficSettings({ baseUrl: 'https://x.example/v1', formats: ['json'], strict: false, acceptTruncated: false });
    expect(settings).toMatchObject({ strict: false, acceptTruncated: false });
    expect(settings.minMustChecks).toBe(trafficSettings({ baseUrl: 'https://y.example/v1', formats: [], strict: false }).minMustChecks);
  });
});

describe('shards', () => {
  test.each(['1/1', '1/2', '2/2', '3/7'])('--shard %s is a slice', (text) => {
    const [index, count] = text.split('/').map(Number);
    expect(parseShard(text)).toEqual({ index, count });
  });

  test.each(['0/2', '3/2', '2/1'])('near miss: --shard %s is none', (text) => {
    expect(() => parseShard(text)).toThrow(`--shard ${text}: expected k/n with 1 ≤ k ≤ n`);
  });

  test('the slices of 5 names in 3: by name, sizes 1, 2, 2, each name once; more shards than names leave some empty', () => {
    const names = ['e', 'B', 'a', 'd', 'c'];
    const slices = [1, 2, 3].map((index) => shardOf(names, { index, count: 3 }));
    expect(slices).toEqual([['B'], ['a', 'c'], ['d', 'e']]);
    expect([1, 2, 3].map((index) => shardOf(['only'], { index, count: 3 }))).toEqual([[], [], ['only']]);
  });
});

describe('a failure of the tool, told apart in a reason (core/tool-failure.ts)', () => {
  test.each([
    ['the tool failed: out of memory: raise ulimit -v or the memory limit', true, 'the tool failed: out of memory: raise ulimit -v or the memory limit'],
    ['the suite did not run: the tool failed: the suite\'s worker failed: x', false, 'the tool failed: the suite\'s worker failed: x'],
    ['near miss: the tool failed without its colon', false, undefined],
    ['interrupted by SIGTERM', false, undefined],
    [undefined, false, undefined],
  ] as const)('%s: a line of its own %s, told of %s', (reason, line, told) => {
    expect(isToolFailureLine(reason)).toBe(line);
    expect(toolFailureIn(reason)).toBe(told);
  });
});
