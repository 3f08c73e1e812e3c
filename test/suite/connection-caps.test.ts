/**
 * A cap of 1 or 2 connections is a policy, in every seed (issue 59): additive increase probes
 * past the cap after nearly every answer there, so a request that cannot be sent again must
 * never be the probe, and a close the cap has not seen yet must not turn its reset into the
 * target's answer. The fast tier runs caps of 1 and 8 once (test/suite/load.test.ts); this is
 * the sweep, and the caps between. Before the change, 5 runs of 7 at these caps ended NONCONFORMANT (exit 1).
 */
import { describe, test } from 'vitest';
import { expectCapKept } from '../support/connection-cap.js';

const SEEDS = [1, 2, 3, 4, 5, 6];

describe.each([1, 2])('a front that caps connections at %i before a correct server', (cap) => {
  test.each(SEEDS)('seed %i: conformant, the limit kept to and reported as a policy', (seed) => expectCapKept(cap, seed), 60_000);
});

// The fast tier runs caps of 1 and 8 (test/suite/load.test.ts).
test.each([3, 16, 32])('a cap of %i: conformant, the limit kept to and reported as a policy', (cap) => expectCapKept(cap), 60_000);
