import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer } from '../../src/reference/server.js';
import type { Report } from '../../src/report/model.js';
import { runConformance, type RunOutcome } from '../../src/runner/run.js';

/** A fixed key keeps the matrix deterministic; the key-dependent logic is property-tested in test/unit. */
const MATRIX_KEY = 'Matrix-Key_0123456789abcdefGHIJKLmnopqrX';
/** A fixed seed: the same generated inputs on every run of the matrix. */
export const MATRIX_SEED = 20261121;

/**
 * Starts a reference server with `variations`, runs the whole suite against it as an
 * external target (no report files, no console), and stops the server.
 * @returns the run's outcome and `created`: how many categories the server stored during the run.
 */
export async function runAgainst(
  variations: Variation[],
  firstId?: bigint,
  configure?: (server: Server) => void,
): Promise<RunOutcome & { created: number }> {
  const server = await startReferenceServer({ variations, firstId, apiKey: MATRIX_KEY, configure });
  const before = server.store.size;
  try {
    const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, seed: MATRIX_SEED, reportDir: null, out: null });
    return { ...outcome, created: server.store.size - before };
  } finally {
    await server.close();
  }
}

/** The checks of a report that did not pass, by status, each list sorted. */
export function nonPassed(report: Report): { failed: string[]; error: string[]; skipped: string[] } {
  const ids = (status: string) => report.checks.filter((c) => c.status === status).map((c) => c.id).sort();
  return { failed: ids('failed'), error: ids('error'), skipped: ids('skipped') };
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
