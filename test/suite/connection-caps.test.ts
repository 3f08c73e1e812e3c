/**
 * A cap of 1 or 2 connections is a policy, in every seed (issue 59): additive increase probes
 * past the cap after nearly every answer there, so a request that cannot be sent again must
 * never be the probe, and a close the cap has not seen yet must not turn its reset into the
 * target's answer. One seed per cap runs in the fast tier (test/suite/load.test.ts); this is
 * the sweep. Before the change, 5 runs of 7 at these caps ended NONCONFORMANT (exit 1).
 */
import { describe, expect, test } from 'vitest';
import { startConnectionCap, type ConnectionCap } from '../support/connection-cap.js';
import { runAgainst } from '../support/targets.js';

const SEEDS = [1, 2, 3, 4, 5, 6];

describe.each([1, 2])('a front that caps connections at %i before a correct server', (cap) => {
  test.each(SEEDS)('seed %i: conformant, never more than the cap at once', async (seed) => {
    let front!: ConnectionCap;
    const { report, exitCode } = await runAgainst({ front: async ({ baseUrl }) => (front = await startConnectionCap(baseUrl, cap)).baseUrl }, { seed });
    await front.close();
    const failed = report.checks.filter((check) => check.status === 'failed' || check.status === 'error').map((check) => `${check.id}: ${check.failure?.message ?? check.reason}`);
    expect(failed).toEqual([]);
    expect(exitCode, report.verdictReason).toBe(0);
    expect(front.counts()).toMatchObject({ mostAtOnce: cap });
    expect(front.counts().reset).toBeGreaterThan(0);
  }, 60_000);
});
