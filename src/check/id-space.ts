/**
 * What the ids a run saw say about how a server draws them (spec section 2: the id is a
 * "Unique identifier, assigned by the service"). A sequence (a counter, a database
 * sequence, time-ordered ids such as Snowflake's) follows the order of creation; ids drawn
 * at random do not, and ids drawn from a small space repeat by the birthday bound long
 * before the space is used up. A run's few hundred creates cannot see a repeat in 2^16,
 * so the space is estimated, as in the German tank problem, and the creates that would
 * show a repeat with {@link REPEAT_CONFIDENCE} are counted.
 */

/** Ids known before the space is judged: fewer say too little about their order. */
export const MIN_IDS = 32;

/** The share of consecutive creates whose ids rise, under which ids are taken as not following creation: a sequence under concurrency stays near 1, a random draw near 0.5. */
export const ORDERED_SHARE = 0.75;

/** How far ids spread beyond their count, past which a random draw is told from a sequence with gaps: at most this many times the count. */
export const SPREAD_PER_ID = 4;

/** How likely a repeat must be, in a space of the estimated size, before the run stops looking for one. */
export const REPEAT_CONFIDENCE = 0.9999;

/** {@link REPEAT_CONFIDENCE} as the report writes it. */
export const REPEAT_CONFIDENCE_WORDS = '99.99 %';

/** The space the ids of a run come from, as far as they tell. */
export interface IdSpace {
  /** Ids judged (distinct exact integers, in creation order). */
  count: number;
  /** The share of consecutive ids, in creation order, that rise (0 to 1). */
  orderedShare: number;
  /** Whether the ids look drawn at random: they neither follow creation nor stay close together. */
  random: boolean;
  /** The size of the space they are drawn from: their range widened by the expected gap at each end ((max − min)·(n + 1)/(n − 1), the minimum-variance unbiased estimate for a uniform draw). */
  size: number;
}

/**
 * Reads a space from ids in the order their creates completed.
 * @param ids exact integer ids; repeats count once (a repeat is judged elsewhere).
 */
export function idSpaceOf(ids: readonly bigint[]): IdSpace {
  const distinct = [...new Set(ids)];
  const count = distinct.length;
  if (count < 2) return { count, orderedShare: 1, random: false, size: count };
  let rising = 0;
  for (let i = 1; i < count; i++) if (distinct[i]! > distinct[i - 1]!) rising++;
  const orderedShare = rising / (count - 1);
  let min = distinct[0]!;
  let max = distinct[0]!;
  for (const id of distinct) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  const range = Number(max - min);
  const size = range * ((count + 1) / (count - 1));
  return { count, orderedShare, random: orderedShare < ORDERED_SHARE && range > SPREAD_PER_ID * count, size };
}

/** The probability (0 to 1) that `n` ids drawn uniformly from a space of `size` hold a repeat (the birthday bound, 1 − e^(−n(n−1)/2N)). */
export function repeatProbability(n: number, size: number): number {
  return size <= 0 ? 1 : -Math.expm1((-n * (n - 1)) / (2 * size));
}

/** The fewest ids drawn from a space of `size` among which a repeat has probability `confidence` or more: n(n − 1) ≥ 2N·ln(1/(1 − confidence)). */
export function idsForRepeat(size: number, confidence = REPEAT_CONFIDENCE): number {
  const product = 2 * size * -Math.log1p(-confidence);
  return Math.ceil((1 + Math.sqrt(1 + 4 * product)) / 2);
}

/** A space's size as a power of two for people: `2^16`. */
export function powerOfTwo(size: number): string {
  return `2^${Math.max(0, Math.round(Math.log2(Math.max(1, size))))}`;
}
