/**
 * The space a run's ids come from (src/check/id-space.ts): sequences told from random
 * draws, each boundary beside its near miss; the space estimated as in the German tank
 * problem; the creates a repeat needs by the birthday bound.
 */
import { describe, expect, test } from 'vitest';
import { idSpaceOf, idsForRepeat, ORDERED_SHARE, powerOfTwo, REPEAT_CONFIDENCE, repeatProbability, SPREAD_PER_ID } from '../../src/check/id-space.js';

const range = (n: number, from = 1n, step = 1n) => Array.from({ length: n }, (_, i) => from + BigInt(i) * step);

describe('idSpaceOf', () => {
  test('a sequence, even from 2^62 + 1 or counting in steps, follows creation: not random', () => {
    expect(idSpaceOf(range(100))).toMatchObject({ count: 100, orderedShare: 1, random: false });
    expect(idSpaceOf(range(100, 2n ** 62n + 1n)).random).toBe(false);
    expect(idSpaceOf(range(100, 1n, 1000n)).random).toBe(false);
  });

  test('two ids are already read as a space: their order, whether they look drawn at random, their range widened (3 times it); one id, or the same id twice, is not', () => {
    expect(idSpaceOf([100n, 5n])).toEqual({ count: 2, orderedShare: 0, random: true, size: 285 });
    expect(idSpaceOf([5n, 100n])).toMatchObject({ orderedShare: 1, size: 285 });
    expect(idSpaceOf([7n])).toEqual({ count: 1, orderedShare: 1, random: false, size: 1 });
    expect(idSpaceOf([7n, 7n])).toEqual({ count: 1, orderedShare: 1, random: false, size: 1 });
  });

  test('a sequence completed out of order under concurrency (pairs swapped) is still one', () => {
    const swapped = range(100).map((id, i, all) => (i % 8 === 0 && i + 1 < all.length ? all[i + 1]! : i % 8 === 1 ? all[i - 1]! : id));
    expect(idSpaceOf(swapped).orderedShare).toBeGreaterThan(ORDERED_SHARE);
    expect(idSpaceOf(swapped).random).toBe(false);
  });

  test('ids that rise in just under the share and spread past the bound are random; at the share, not', () => {
    // 100 ids, 99 pairs: 74 rising (under 0.75) against 75 (at it), each spread over 10,000.
    const withRises = (rises: number) => {
      const ids: bigint[] = [5_000n];
      for (let i = 1; i < 100; i++) ids.push(i <= rises ? ids[i - 1]! + 50n : ids[i - 1]! - 3_000n + BigInt(i));
      return ids;
    };
    expect(idSpaceOf(withRises(74))).toMatchObject({ random: true });
    expect(idSpaceOf(withRises(75)).orderedShare).toBeGreaterThanOrEqual(ORDERED_SHARE);
    expect(idSpaceOf(withRises(75)).random).toBe(false);
  });

  test('exactly the ordered share is a sequence; a rise fewer, spread as far, a random draw', () => {
    // Five ids, four pairs: three rising is 0.75, the share itself.
    expect(idSpaceOf([100n, 200n, 300n, 400n, 50n])).toMatchObject({ orderedShare: ORDERED_SHARE, random: false });
    expect(idSpaceOf([100n, 200n, 300n, 40n, 50n].reverse())).toMatchObject({ orderedShare: 0.25, random: true });
  });

  test('out of order and spread exactly as far as the bound is no random draw; one further is', () => {
    // Five ids, two of four pairs rising; a range of 20 is 4 × 5.
    expect(idSpaceOf([20n, 0n, 10n, 5n, 15n])).toMatchObject({ orderedShare: 0.5, random: false });
    expect(idSpaceOf([21n, 0n, 10n, 5n, 15n])).toMatchObject({ orderedShare: 0.5, random: true });
  });

  test('ids out of order but close together (blocks of two workers) are no random draw; a range one past the bound is', () => {
    const n = 40;
    const within = Array.from({ length: n }, (_, i) => BigInt(i % 2 === 0 ? i : SPREAD_PER_ID * n - i));
    expect(Number(within.reduce((a, b) => (b > a ? b : a)) - within.reduce((a, b) => (b < a ? b : a)))).toBe(SPREAD_PER_ID * n - 1);
    expect(idSpaceOf(within).random).toBe(false);
    const past = [...within.slice(0, -1), BigInt(SPREAD_PER_ID * n + 1)];
    expect(idSpaceOf(past).random).toBe(true);
  });

  test('the space of a uniform draw from [1, 65535] is estimated within a few percent from 200 ids', () => {
    let state = 7;
    const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const ids = Array.from({ length: 200 }, () => BigInt(1 + Math.floor(random() * 65_535)));
    const space = idSpaceOf(ids);
    expect(space.random).toBe(true);
    expect(space.size).toBeGreaterThan(65_535 * 0.95);
    expect(space.size).toBeLessThan(65_535 * 1.05);
    expect(powerOfTwo(space.size)).toBe('2^16');
  });

  test('repeats count once; one id or none says nothing', () => {
    expect(idSpaceOf([3n, 3n, 3n]).count).toBe(1);
    expect(idSpaceOf([])).toEqual({ count: 0, orderedShare: 1, random: false, size: 0 });
  });
});

describe('the birthday bound', () => {
  test.each([65_535, 1_000_000, 2 ** 32])('idsForRepeat(%d) is the fewest ids whose repeat reaches the confidence', (size) => {
    const n = idsForRepeat(size);
    expect(repeatProbability(n, size)).toBeGreaterThanOrEqual(REPEAT_CONFIDENCE);
    expect(repeatProbability(n - 1, size)).toBeLessThan(REPEAT_CONFIDENCE);
  });

  test('16 bits need about 1,100 ids at 99.99 %, 8 bits about 70; 63 bits billions', () => {
    expect(idsForRepeat(65_535)).toBe(1_100);
    expect(idsForRepeat(255)).toBe(70);
    expect(idsForRepeat(2 ** 63)).toBeGreaterThan(1e10);
  });

  test('probabilities: none with one id, certain in an empty space', () => {
    expect(repeatProbability(1, 100)).toBe(0);
    expect(repeatProbability(2, 0)).toBe(1);
    expect(repeatProbability(156, 65_535)).toBeCloseTo(0.17, 2);
  });
});
