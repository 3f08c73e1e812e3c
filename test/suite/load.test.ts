/**
 * The suite's own load is never a fault (issue 44): a gateway's cap on connections is
 * measured, kept to and reported as a policy; a front that resets every connection stops
 * the run (exit 3), never nonconformant; a read-only run of a remote target opens 4
 * connections and a rate-limited one no more than its rate needs, counted at the server.
 */
import { execFile } from 'node:child_process';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.js';
import { runConformance } from '../../src/runner/run.js';
import { expectCapKept, startConnectionCap, type ConnectionCap } from '../support/connection-cap.js';
import { claimVeth, netnsUnavailable, startRemoteServer } from '../support/netns.js';
import { runAgainst } from '../support/targets.js';

const execFileAsync = promisify(execFile);

describe('a front that caps connections before a correct server', () => {
  // Caps of 2, 3, 16 and 32, and of 1 and 2 in six seeds: test/suite/connection-caps.test.ts (slow tier).
  test.each([1, 8])('at %i: conformant, the limit observed as a policy and kept to', (cap) => expectCapKept(cap), 60_000);

  test('a front that resets every connection: the run stops (exit 3) and names the resets, never nonconformant', async () => {
    let front!: ConnectionCap;
    const { report, exitCode } = await runAgainst({ front: async ({ baseUrl }) => (front = await startConnectionCap(baseUrl, 0)).baseUrl });
    await front.close();
    expect(exitCode).toBe(3);
    expect(report.verdictReason).toMatch(/^the run was aborted: the target reset \d+ connections in a row before any response, the last with 1 open at most: the run cannot go on$/);
    expect(front.counts().accepted).toBe(0);
  }, 60_000);
});

describe('connections that fit the target, counted at the server', () => {
  test('--rate-limit 10 opens no more connections than the rate needs', async () => {
    let open = 0;
    let most = 0;
    const server = await startReferenceServer({
      configure: (srv) =>
        srv.on('connection', (socket: Socket) => {
          most = Math.max(most, ++open);
          socket.on('close', () => open--);
        }),
    });
    try {
      const { report } = await runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, rateLimit: 10, checkFilter: '^(list-401-|pets-|orders-)', reportDir: null, out: null });
      expect(report.verdict).toBe('conformant');
      expect(report.settings.connections).toBe(10);
      expect(most).toBeLessThanOrEqual(10);
    } finally {
      await server.close();
    }
  }, 60_000);

  describe('a read-only run of a target on another host (a network namespace of its own)', async () => {
    const unavailable = await netnsUnavailable();
    if (unavailable) console.log(`remote target skipped: ${unavailable}`);
    let remote: Awaited<ReturnType<typeof startRemoteServer>>;
    beforeAll(async () => {
      if (!unavailable) remote = await startRemoteServer('Remote-Key_0123456789abcdefGHIJ');
    });
    afterAll(() => remote?.close());

    test.skipIf(unavailable !== undefined)('a veth pair another process holds is skipped: two npm test runs side by side never share a subnet', async () => {
      const n = Number(/10\.249\.(\d+)\./.exec(remote.baseUrl)![1]);
      // Searching from the held pair claims another (the one after it, unless a run beside this one holds that too).
      const next = await claimVeth(n - 1);
      try {
        expect(next).not.toBe(n);
        expect((await execFileAsync('ip', ['link', 'show', `pcsa${next}`])).stdout).toContain(`pcsa${next}@pcsb${next}`);
      } finally {
        await execFileAsync('ip', ['link', 'del', `pcsa${next}`]).catch(() => {});
      }
    }, 60_000);

    test.skipIf(unavailable !== undefined)('opens 4 connections at most, unless told otherwise', async () => {
      const outcome = await runConformance({ baseUrl: remote.baseUrl, apiKey: remote.apiKey, allowInsecureHttp: true, reportDir: null, out: null });
      expect(outcome.report.verdict).toBe('conformant');
      expect(outcome.report.settings).toMatchObject({ profile: 'read-only', connections: 4 });
      expect(remote.mostAtOnce()).toBeLessThanOrEqual(4);
      expect(remote.mostAtOnce()).toBeGreaterThan(1);
    }, 60_000);
  });
});
