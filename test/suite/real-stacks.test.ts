/**
 * A correct server on a real asyncio stack (aiohttp, from Debian): its authentication
 * middleware answers 401 before the handler reads the body, with keep-alive on, and a
 * kept-alive connection may then go unanswered. The run's own concurrency and connection
 * reuse are never the server's fault: conformant in 20 runs of 20, alone and with another
 * run beside each (issue 44). Skipped where Debian's python3-aiohttp is absent; CI installs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { runConformance } from '../../src/runner/run.js';

const PYTHON = '/usr/bin/python3';
const AIOHTTP = '/usr/lib/python3/dist-packages/aiohttp';
const missing = [PYTHON, AIOHTTP].find((path) => !existsSync(path));
if (missing) console.log(`real stacks: aiohttp skipped, not installed at ${missing}; CI installs it`);

const KEY = 'Aiohttp-Key_0123456789abcdefGHIJ';
const RUNS = 20;
const SCRIPT = fileURLToPath(new URL('../support/servers/aiohttp_petstore.py', import.meta.url)).replace('/dist/test/', '/test/');

/** Starts the aiohttp server on a free loopback port: its base URL and how to stop it. */
async function startAiohttp(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(PYTHON, [SCRIPT, KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the aiohttp server ended (${code}) before it listened`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** The first line of each must failure, for a run that was not conformant. */
const failures = (report: Report) => report.checks.filter((check) => check.level === 'must' && check.failure).map((check) => `${check.id}: ${check.failure!.message.split('\n', 1)[0]}`).join('; ');

/** One run as a user runs it (the default request deadline: a loaded machine slows a Python server). */
const runOnce = (baseUrl: string, seed: number) => runConformance({ baseUrl, apiKey: KEY, seed, reportDir: null, out: null });

describe.skipIf(missing !== undefined)('aiohttp 3.8, an auth middleware answering before the body is read', () => {
  let server: Awaited<ReturnType<typeof startAiohttp>>;
  beforeAll(async () => void (server = await startAiohttp()));
  afterAll(() => server?.stop());

  test(`conformant in ${RUNS} runs of ${RUNS}, one at a time`, async () => {
    const wrong: string[] = [];
    for (let seed = 1; seed <= RUNS; seed++) {
      const { report } = await runOnce(server.baseUrl, seed);
      if (report.verdict !== 'conformant') wrong.push(`run ${seed}: ${report.verdict}: ${report.verdictReason}: ${failures(report)}`);
    }
    expect(wrong).toEqual([]);
  }, 400_000);

  test(`conformant in ${RUNS} runs of ${RUNS}, each with another run beside it`, async () => {
    const wrong: string[] = [];
    for (let seed = 1; seed <= RUNS; seed += 2) {
      const pair = await Promise.all([runOnce(server.baseUrl, seed), runOnce(server.baseUrl, seed + 1)]);
      pair.forEach(({ report }, i) => report.verdict !== 'conformant' && wrong.push(`run ${seed + i}: ${report.verdict}: ${report.verdictReason}: ${failures(report)}`));
    }
    expect(wrong).toEqual([]);
  }, 400_000);
});
