import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer } from '../../src/reference/server.js';
import type { Report } from '../../src/report/model.js';
import { runConformance, type RunOptions, type RunOutcome } from '../../src/runner/run.js';
import { HEARD_BODY_BYTES, type Heard } from './in-record.js';

/** A fixed key keeps the matrix deterministic; the key-dependent logic is property-tested in test/unit. */
const MATRIX_KEY = 'Matrix-Key_0123456789abcdefGHIJKLmnopqrX';
/** A fixed seed: the same generated inputs on every run of the matrix. */
export const MATRIX_SEED = 20261121;

/**
 * A request deadline (ms) that is the test's own clock, not a judgement, for runs whose
 * server shares the run's process: three times the default. On a loaded machine (the slow
 * tier beside two other vitest runs) such requests waited past 10 s through the proxy
 * (proxy-matrix), and past 3 s with reused-connection-drops-requests two and three at a
 * time, and correct servers were judged nonconformant; a run against 100 MB lists
 * (safety.test.ts) exited 1, not 3. The matrix judges timeouts.
 */
export const HARNESS_DEADLINE_MS = 30_000;

/** A reference server, changed where a test needs it. */
export interface TargetShape {
  variations?: Variation[];
  /** Changes below the HTTP exchange: how connections are kept or closed. */
  server?: (server: Server) => void;
  /** First id the store assigns. */
  firstId?: bigint;
  /** The key the server accepts (default: the matrix's). */
  apiKey?: string;
  /** Serve HTTPS with this PEM key and certificate (and, with `clientCa`, to clients it signed only). */
  tls?: { key: string; cert: string; clientCa?: string };
  /** Something in front of the server the run goes through (the validating proxy): given the server's base URL and key, it returns its own base URL. */
  front?: (target: { baseUrl: string; apiKey: string }) => Promise<string>;
}

/**
 * The one way the project's tests run the suite against a server: starts a reference
 * server shaped as asked, runs the whole suite against it as an external target (no
 * report files, the console captured), and stops the server. The matrix's fixed key and
 * seed are the defaults, so a run is reproducible; `options` override any setting.
 * @returns the run's outcome, its console text, the key, `created`: how many categories
 *   the server stored during the run, and `heard`: every request that reached its behaviour.
 */
export async function runAgainst(
  shape: TargetShape = {},
  options: Partial<RunOptions> = {},
): Promise<RunOutcome & { created: number; console: string; apiKey: string; heard: Heard[] }> {
  const heard: Heard[] = [];
  // Outermost (variations apply in order): it hears each request before any variation answers it.
  const hearing: Variation = (base) => ({ respond: (req) => (heard.push({ method: req.method, url: req.path, body: req.body.subarray(0, HEARD_BODY_BYTES).toString() }), base.respond(req)) });
  const variations = [...(shape.variations ?? []), hearing];
  const server = await startReferenceServer({ variations, firstId: shape.firstId, apiKey: shape.apiKey ?? MATRIX_KEY, configure: shape.server, tls: shape.tls });
  const before = server.store.size;
  let console = '';
  const out = new Writable({ write: (chunk, _encoding, done) => void ((console += chunk), done()) });
  try {
    const baseUrl = shape.front ? await shape.front({ baseUrl: server.baseUrl, apiKey: server.apiKey }) : server.baseUrl;
    const outcome = await runConformance({ baseUrl, apiKey: server.apiKey, seed: MATRIX_SEED, reportDir: null, out, ...options });
    return { ...outcome, created: server.store.size - before, console, apiKey: server.apiKey, heard };
  } finally {
    await server.close();
  }
}

/** The checks of a report that did not pass, by status, each list sorted. */
export function nonPassed(report: Report): { failed: string[]; error: string[]; skipped: string[] } {
  const ids = (status: string) => report.checks.filter((c) => c.status === status).map((c) => c.id).sort();
  return { failed: ids('failed'), error: ids('error'), skipped: ids('skipped') };
}

/** Why each check of `report` did not pass, a line each (`id status: message or reason`): a rare failure is diagnosed from the log alone. */
export function whyNotPassed(report: Pick<Report, 'checks'>): string {
  return report.checks
    .filter((c) => c.status !== 'passed')
    .map((c) => `${c.id} ${c.status}: ${c.failure?.message ?? c.reason}`)
    .join('\n');
}

/** Default exports of every module in a folder of test/, by file name without extension. */
export async function loadFolder<T>(folder: string): Promise<Map<string, T>> {
  const dir = fileURLToPath(new URL(`../${folder}/`, import.meta.url));
  // Sources (.ts, under vitest) or compiled modules (.js, from dist/), never declarations.
  const files = (await readdir(dir)).filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts')).sort();
  const entries = await Promise.all(
    files.map(async (file) => [basename(file).replace(/\.(ts|js)$/, ''), ((await import(join(dir, file))) as { default: T }).default] as const),
  );
  return new Map(entries);
}

/** Maps with at most `limit` calls in flight (bounded, for parallel suite runs on 2 cores). */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A variation that answers every request `ms` later (for abort and deadline tests). */
export function delayedBy(ms: number): Variation {
  return (base) => ({
    async respond(req) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return base.respond(req);
    },
  });
}

/**
 * A variation that counts the requests the server receives and tells when the count
 * reaches a number: tests stop a run on the server's word, not after some milliseconds.
 * With `holdFrom`, the request of that number and every later one is held unanswered
 * until `release()`: over one connection, nothing else is then on its way, so any request
 * received after a stop was sent after it.
 */
export function countingRequests({ holdFrom = Infinity }: { holdFrom?: number } = {}): {
  variation: Variation;
  received: () => number;
  reached: (count: number) => Promise<void>;
  release: () => void;
} {
  let received = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const variation: Variation = (base) => ({
    async respond(req) {
      received++;
      for (const wait of waiting.filter((w) => w.count <= received)) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
      if (received >= holdFrom) await held;
      return base.respond(req);
    },
  });
  return {
    variation,
    received: () => received,
    reached: (count) => (received >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve }))),
    release,
  };
}
