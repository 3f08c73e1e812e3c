import { createHash, randomInt } from 'node:crypto';

/**
 * Seeds. A run has one seed (recorded in report.json, replayed with `--seed`); every
 * random choice of the run derives from it and a label, so a run with the same seed
 * sends the same requests whatever order concurrent checks finish in.
 */

/** A fresh run seed: a non-negative 31-bit integer, as fast-check accepts. */
export function freshSeed(): number {
  return randomInt(0, 2 ** 31);
}

/** The seed of one labelled stream of the run (e.g. a check id), a 31-bit integer. */
export function deriveSeed(runSeed: number, label: string): number {
  return digest(runSeed, label).readUInt32BE(0) & 0x7fffffff;
}

/** `length` hex characters (at most 64) derived from the run seed and a label. */
export function derivedHex(runSeed: number, label: string, length: number): string {
  return digest(runSeed, label).toString('hex').slice(0, length);
}

function digest(runSeed: number, label: string): Buffer {
  return createHash('sha256').update(`${runSeed}:${label}`).digest();
}
