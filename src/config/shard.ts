import { UsageError } from '../core/errors.js';

/** The k-th (`index`, from 1) of `count` slices of a fleet's targets. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * `--shard k/n`, as vitest and Playwright take it.
 * @throws UsageError when k is 0 or greater than n.
 */
export function parseShard(text: string): Shard {
  const [index, count] = text.split('/').map(Number) as [number, number];
  if (!(index >= 1 && index <= count)) throw new UsageError(`--shard ${text}: expected k/n with 1 ≤ k ≤ n`);
  return { index, count };
}

/**
 * The names of one shard: the names sorted (by UTF-16 code units, the same on every
 * machine), cut into `count` contiguous slices whose sizes differ by one at most. The
 * slices together hold every name exactly once; a slice may be empty when there are
 * fewer names than shards.
 */
export function shardOf(names: readonly string[], { index, count }: Shard): string[] {
  const sorted = [...names].sort(byName);
  const start = Math.floor(((index - 1) * sorted.length) / count);
  const end = Math.floor((index * sorted.length) / count);
  return sorted.slice(start, end);
}

/** The order of target names everywhere (shards, lanes, fleet reports): by UTF-16 code units, not the locale. */
export function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
