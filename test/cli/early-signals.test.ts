/**
 * Signals from the first instant (issue 46): SIGTERM, SIGINT and SIGHUP at 0, 10, 50 and
 * 200 ms after spawn. From the entry point's first line on, each ends the run with exit 3
 * and a valid report.json that says it was stopped before it began; only a signal that
 * comes while Node itself is still starting, before the tool runs a line, ends it as the
 * signal does (128 + its number), having printed and written nothing (docs/running.md).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/petstore-conformance.js', import.meta.url));

/** The CLI's end after `signal` at `ms` after spawn: its exit code or the signal it died of, its output, its report if any. */
async function signalledAt(signal: NodeJS.Signals, ms: number) {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-early-'));
  const child = spawn(process.execPath, [BIN, 'run', '--report-dir', join(dir, 'r')], { env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  await new Promise((resolve) => setTimeout(resolve, ms));
  child.kill(signal);
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [code, killedBy] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  clearTimeout(kill);
  const file = join(dir, 'r', 'report.json');
  return { code, killedBy, output, report: existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : undefined };
}

test.each((['SIGTERM', 'SIGINT', 'SIGHUP'] as const).flatMap((signal) => [0, 10, 50, 200].map((ms) => [signal, ms] as const)))(
  '%s at %i ms: exit 3 with a report of a run stopped before it began; or, inside Node\'s own start, the signal\'s end with nothing said or written',
  async (signal, ms) => {
    const ended = await signalledAt(signal, ms);
    if (ended.killedBy !== null) {
      expect(ended.killedBy).toBe(signal);
      expect([ended.output, ended.report]).toEqual(['', undefined]);
      return;
    }
    expect(ended.code, ended.output).toBe(3);
    expect(ended.report.verdict).toBe('error');
    expect(ended.report.verdictReason).toMatch(new RegExp(`interrupted by ${signal}`));
    expect(ended.output).toContain(`interrupted by ${signal}`);
  },
  90_000,
);
