/**
 * A fleet's own decisions (src/runner/fleet.ts), on runs that send the probe alone (no
 * check selected): names refused before any request, lanes as many as targets at most,
 * each target's report.json whatever formats it asked for, the header and the closing
 * lines. The slow tier runs whole fleets of faulty and correct targets.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { runFleet, type FleetMember, type FleetOptions } from '../../src/runner/fleet.js';
import { PREFLIGHTS_AT_ONCE } from '../../src/runner/probe.js';
import type { Variation } from '../../src/reference/behaviour.js';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'pcs-fleet-options-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Members of the one reference server, each sending its probe alone. */
const members = (...names: string[]): FleetMember[] => names.map((targetName) => ({ targetName, baseUrl: server.baseUrl, apiKey: server.apiKey, checkFilter: '^nothing$', formats: ['md'] }));

/** Runs the fleet and returns what it printed, line by line, with its outcome. */
async function fleet(names: string[], options: Omit<FleetOptions, 'out'>) {
  let printed = '';
  const out = new PassThrough().on('data', (chunk) => (printed += chunk));
  const outcome = await runFleet(members(...names), { ...options, out });
  return { outcome, lines: printed.trimEnd().split('\n') };
}

describe('names refused before any request', () => {
  test('one name twice', async () => {
    await expect(runFleet(members('a', 'b', 'a'), { reportDir: null })).rejects.toThrow('the fleet names the target a twice');
  });

  test('a name that cannot be a report folder', async () => {
    await expect(runFleet(members('ok', '..'), { reportDir: null })).rejects.toThrow('the fleet target ".." cannot name its report folder: it is empty, . or ..');
  });
});

describe('a fleet of probes', () => {
  test('two targets in at most two lanes; each target writes report.json beside the formats it asked for; the fleet files last', async () => {
    const out = join(dir, 'two');
    const { outcome, lines } = await fleet(['b', 'a'], { reportDir: out, targetConcurrency: 5 });
    expect(lines[0]).toMatch(/^petstore-conformance \S+: checking 2 targets, 2 at once$/);
    expect(lines.filter((line) => /^ {2}\S (a|b): /.test(line))).toHaveLength(2);
    expect(lines.at(-2)).toBe(`Fleet: exit ${outcome.exitCode}`);
    expect(lines.at(-1)).toBe(`Reports: ${out} (fleet.json, summary.md, junit.xml)`);
    expect(outcome.fleet.targets.map(({ name }) => name)).toEqual(['a', 'b']);
    expect((await readdir(join(out, 'a'))).sort()).toEqual(['report.json', 'summary.md']);
  });

  test('three targets, two lanes, a shard named in the header; no report folder: nothing written, no Report line', async () => {
    const { outcome, lines } = await fleet(['c', 'a', 'b'], { reportDir: null, targetConcurrency: 2, shard: { index: 2, count: 3 } });
    expect(lines[0]).toMatch(/: checking 3 targets, 2 at once \(shard 2\/3\)$/);
    expect(lines.at(-1)).toBe(`Fleet: exit ${outcome.exitCode}`);
    expect(outcome.written).toEqual([]);
    expect(outcome.fleet.targets.every(({ reportDir }) => reportDir === null)).toBe(true);
    expect(outcome.fleet.shard).toEqual({ index: 2, count: 3 });
  });

  test('twelve targets listen to the one stop: no warning of a listener leak (Node warns past 10)', async () => {
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.name);
    process.on('warning', warned);
    try {
      await fleet(Array.from({ length: 12 }, (_, i) => `t${i}`), { reportDir: null, targetConcurrency: 1, signal: new AbortController().signal });
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', warned);
    }
    expect(warnings.filter((name) => name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  test('a lane sends its preflights a few at a time: twelve targets in one lane, each preflight two lists, four preflights at once, never more', async () => {
    // The first lists are held until four preflights' are in flight together (its own
    // clock only guards against a lane that never sends so many), and every list a moment
    // more, so that preflights sent together are seen together.
    const AT_ONCE = 2 * PREFLIGHTS_AT_ONCE;
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    const held: Variation = (base) => ({
      async respond(req) {
        most = Math.max(most, ++inFlight);
        if (inFlight >= AT_ONCE) release();
        await Promise.race([together, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight--;
        return base.respond(req);
      },
    });
    const slow = await startReferenceServer({ variations: [held] });
    try {
      const twelve = Array.from({ length: 12 }, (_, i): FleetMember => ({ targetName: `t${i}`, baseUrl: slow.baseUrl, apiKey: slow.apiKey, checkFilter: '^nothing$' }));
      const outcome = await runFleet(twelve, { reportDir: null, out: null, targetConcurrency: 1 });
      expect(outcome.fleet.targets).toHaveLength(12);
    } finally {
      release();
      await slow.close();
    }
    // Both sides at once: four preflights' lists together, and never a fifth's.
    expect(most).toBe(AT_ONCE);
    expect(PREFLIGHTS_AT_ONCE).toBe(4);
  });
});
