/**
 * `npm run bench`: performance of the suite, measured (never asserted in tests).
 * (a) the default full run against the embedded reference server; (b) the same against a
 * loopback server that adds 30 ms to every response; (c) the list checks against a list
 * of 100,000 categories (about 10 MB); (d) a bare undici loop sending (a)'s request count,
 * as the floor for (a); then (a) with three --num-runs budgets, to show cost grows
 * linearly. Each scenario runs 5 times (wall time median and range, peak RSS of the CLI
 * process). Prints a table and writes reports/bench.json.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceServer } from '../src/reference/server.js';
import type { Report } from '../src/report/model.js';
import { delayedBy } from '../test/support/targets.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'bin/petstore-conformance.js');
const RUNS = 5;
const LATENCY_MS = 30;

interface Sample {
  wallMs: number;
  peakRssMb: number;
  requests: number;
  report?: Report;
  har?: { log: { entries: Array<{ startedDateTime: string; time: number }> } };
}

/** Runs a command under GNU time, returning its wall time and peak RSS. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ wallMs: number; peakRssMb: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile('/usr/bin/time', ['-f', '%M', ...args], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const wallMs = performance.now() - started;
      const rss = Number(stderr.trim().split('\n').pop());
      if (error && error.code !== 1) return reject(new Error(`${args.join(' ')} failed: ${stderr.slice(-400)}`));
      resolve({ wallMs, peakRssMb: rss / 1024, stdout });
    });
  });
}

/** One CLI run; reads back its report and HAR. */
async function cliRun(extra: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-'));
  const { wallMs, peakRssMb } = await timed([process.execPath, CLI, 'run', '--report-dir', dir, '--format', 'json,har', ...extra], env);
  const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
  const har = JSON.parse(await readFile(join(dir, 'exchanges.har'), 'utf8'));
  return { wallMs, peakRssMb, requests: report.summary.requests, report, har };
}

/**
 * The longest chain of exchanges in which each started after the previous one ended: the
 * requests on the critical path as the run scheduled them.
 */
function criticalPath(har: NonNullable<Sample['har']>): number {
  const spans = har.log.entries
    .map((e) => ({ start: Date.parse(e.startedDateTime), end: Date.parse(e.startedDateTime) + e.time }))
    .sort((a, b) => a.start - b.start);
  const chain: number[] = [];
  spans.forEach((span, i) => {
    let best = 0;
    for (let j = 0; j < i; j++) if (spans[j]!.end <= span.start && chain[j]! > best) best = chain[j]!;
    chain.push(best + 1);
  });
  return Math.max(0, ...chain);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

async function scenario(name: string, run: () => Promise<Sample>, times = RUNS) {
  const samples: Sample[] = [];
  for (let i = 0; i < times; i++) samples.push(await run());
  const wall = samples.map((s) => s.wallMs);
  const requests = median(samples.map((s) => s.requests));
  const result = {
    name,
    runs: times,
    wallMsMedian: Math.round(median(wall)),
    wallMsRange: range(wall),
    requests,
    requestsPerSecond: Math.round(requests / (median(wall) / 1000)),
    peakRssMb: Math.round(Math.max(...samples.map((s) => s.peakRssMb))),
    samples,
  };
  console.error(`  ${name}: ${result.wallMsMedian} ms median`);
  return result;
}

console.error(`Benchmark on ${cpus().length} cores, Node ${process.version}, ${RUNS} runs per scenario`);

// `npm run bench -- c` runs only the scenarios named (a, b, c, d, n for the --num-runs budgets).
const only = process.argv.slice(2);
const wanted = (id: string) => only.length === 0 || only.includes(id);
const skipped = { name: 'skipped', runs: 0, wallMsMedian: 0, wallMsRange: '-', requests: 0, requestsPerSecond: 0, peakRssMb: 0, samples: [] as Sample[] };

const a = wanted('a') || wanted('d') ? await scenario('(a) full run, embedded server', () => cliRun([])) : skipped;

let b = skipped;
let bCritical = 0;
if (wanted('b')) {
  const slowServer = await startReferenceServer({ variations: [delayedBy(LATENCY_MS)] });
  b = await scenario(`(b) full run, loopback +${LATENCY_MS} ms`, () => cliRun(['--base-url', slowServer.baseUrl], { PETSTORE_API_KEY: slowServer.apiKey }));
  await slowServer.close();
  bCritical = median(b.samples.map((s) => criticalPath(s.har!)));
}

let c = skipped;
let listBytes = 0;
let listCheckMs = 0;
if (wanted('c')) {
  const bigServer = await startReferenceServer();
  for (let i = 0; i < 100_000; i++) bigServer.store.create({ name: `category ${i} ${'x'.repeat(40)}`, description: `description of category number ${i}` });
  c = await scenario('(c) list checks, 100,000 categories', () =>
    cliRun(['--base-url', bigServer.baseUrl, '--checks', '^list-'], { PETSTORE_API_KEY: bigServer.apiKey }),
  );
  listBytes = Buffer.byteLength(JSON.stringify(bigServer.store.list().map((x) => ({ ...x, id: Number(x.id) }))));
  await bigServer.close();
  const listChecks = (s: Sample) => s.report!.checks.filter((k) => k.id.startsWith('list-') && k.status !== 'skipped');
  listCheckMs = median(c.samples.map((s) => Math.max(...listChecks(s).map((k) => k.durationMs))));
}

let d = skipped;
if (wanted('d')) {
  const loop = join(ROOT, 'dist/scripts/bare-loop.js');
  d = await scenario('(d) bare undici loop, same request count', async () => {
    const { wallMs, peakRssMb } = await timed([process.execPath, loop, String(a.requests)]);
    return { wallMs, peakRssMb, requests: a.requests };
  });
}

const budgets = [];
if (wanted('n')) {
  for (const numRuns of [10, 50, 200]) {
    budgets.push(await scenario(`(a) with --num-runs ${numRuns}`, () => cliRun(['--num-runs', String(numRuns), '--seed', '1']), 3));
  }
}

const rows = [a, b, c, d, ...budgets].filter((row) => row.runs > 0);
console.log('\nScenario                                   Wall median  Range (ms)    Requests  Req/s   Peak RSS');
for (const r of rows) {
  console.log(`${r.name.padEnd(43)}${`${r.wallMsMedian} ms`.padEnd(13)}${r.wallMsRange.padEnd(14)}${String(r.requests).padEnd(10)}${String(r.requestsPerSecond).padEnd(8)}${r.peakRssMb} MB`);
}
const ratios = {
  aOverD: +(a.wallMsMedian / d.wallMsMedian).toFixed(2),
  bCriticalPathRequests: bCritical,
  bLatencyFloorMs: bCritical * LATENCY_MS,
  bOverLatencyFloor: +(b.wallMsMedian / (bCritical * LATENCY_MS)).toFixed(2),
  cListBytes: listBytes,
  cListCheckMsMedian: listCheckMs,
  numRunsMsPerRequest: budgets.map((r) => +(r.wallMsMedian / r.requests).toFixed(2)),
};
console.log(`
(a) ÷ (d): ${ratios.aOverD}
(b) critical path: ${bCritical} requests × ${LATENCY_MS} ms = ${ratios.bLatencyFloorMs} ms floor; (b) ÷ floor: ${ratios.bOverLatencyFloor}
(c) list of ${(listBytes / 1e6).toFixed(1)} MB: slowest list check ${listCheckMs} ms, peak RSS ${c.peakRssMb} MB
--num-runs 10 / 50 / 200: ${budgets.map((r) => `${r.requests} requests in ${r.wallMsMedian} ms`).join('; ')}`);

await mkdir(join(ROOT, 'reports'), { recursive: true });
const strip = (r: (typeof rows)[number]) => ({ ...r, samples: r.samples.map(({ wallMs, peakRssMb, requests }) => ({ wallMs: Math.round(wallMs), peakRssMb: Math.round(peakRssMb), requests })) });
await writeFile(join(ROOT, 'reports/bench.json'), `${JSON.stringify({ machine: { cores: cpus().length, node: process.version }, scenarios: rows.map(strip), ratios }, null, 2)}\n`);
console.log('\nWritten: reports/bench.json');
