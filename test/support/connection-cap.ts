import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { runAgainst } from './targets.js';

/** A front that caps connections, as a gateway does per client (nginx limit_conn, HAProxy maxconn, a cloud load balancer). */
export interface ConnectionCap {
  /** The front's base URL: the target's path on the front's port. */
  baseUrl: string;
  /** Connections accepted and passed on, and connections reset, so far. */
  counts(): { accepted: number; reset: number; mostAtOnce: number };
  close(): Promise<void>;
}

/**
 * A TCP front on a free loopback port before `baseUrl`'s server: while `cap` connections
 * are open, a new one is reset at once (RST, before any byte is read from it); the others
 * are piped through unaltered. `cap` 0 resets every connection.
 */
export async function startConnectionCap(baseUrl: string, cap: number): Promise<ConnectionCap> {
  const target = new URL(baseUrl);
  const open = new Set<Socket>();
  let accepted = 0;
  let reset = 0;
  let mostAtOnce = 0;
  const server = createServer((client) => {
    if (open.size >= cap) {
      reset++;
      client.resetAndDestroy();
      return;
    }
    accepted++;
    open.add(client);
    mostAtOnce = Math.max(mostAtOnce, open.size);
    const upstream = connect(Number(target.port), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    counts: () => ({ accepted, reset, mostAtOnce }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs the suite, with `seed`, against a correct server behind a front capped at `cap`
 * connections, and holds the run to it: exit 0, no failed or errored check, resets met, never
 * more than `cap` at once, and the limit reported as a policy the run kept to.
 */
export async function expectCapKept(cap: number, seed?: number): Promise<void> {
  let front!: ConnectionCap;
  const { report, exitCode } = await runAgainst({ front: async ({ baseUrl }) => (front = await startConnectionCap(baseUrl, cap)).baseUrl }, seed === undefined ? {} : { seed });
  await front.close();
  expect(report.checks.filter((check) => check.status === 'failed' || check.status === 'error').map((check) => `${check.id}: ${check.failure?.message ?? check.reason}`)).toEqual([]);
  expect(exitCode, report.verdictReason).toBe(0);
  expect(front.counts().reset).toBeGreaterThan(0);
  expect(front.counts().mostAtOnce).toBe(cap);
  const observed = report.checks.find((check) => check.id === 'connections-answered')!;
  expect(observed.status).toBe('passed');
  const [policy] = observed.observations!;
  const [, held, used] = /^the target held (\d+) connections? at once and reset those beyond \(\d+ resets?, each request sent again\): a limit on connections \(section 8\); the run used (\d+)$/.exec(policy!) ?? [];
  expect(Number(held)).toBeLessThanOrEqual(cap);
  expect(Number(held)).toBeGreaterThanOrEqual(cap / 2);
  expect(Number(used)).toBeLessThanOrEqual(cap);
}
