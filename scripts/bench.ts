/**
 * `npm run bench`: performance of the suite, measured (never asserted in tests).
 * (a) the default full run against the embedded reference server; (b) the same against a
 * loopback server that adds 30 ms to every response; (c) the list class's three checks
 * (one after another, so each one's time is its own) against a list of 100,000 categories
 * (about 13 MB), beside its floor: the same three reads, bare; (d) a bare undici loop sending (a)'s request count, the floor for (a);
 * (e) the suite runner's fixed start (its thread and vitest's runner, one empty test); then (a)
 * with three --num-runs budgets, to show that cost follows the work; (f) fleets of 1, 6, 10
 * and 50 targets in one process (`run --targets all`); (g) the full run in each profile against
 * targets holding 100, 1,000, 10,000 and 100,000 categories: time, peak RSS and their slope. (a), (d) and (e) run
 * interleaved, 11 times each, and (b) 11 times interleaved with (e) again, so that a noisy
 * machine weighs on what is compared alike. (judge) `judge` of a 100,000-exchange HAR of about
 * 300 MB: wall time and peak RSS, the median of three runs; (judge-cookies) the same, each answer setting a fresh session
 * cookie (100,000 secrets of the capture). (proxy) the validating proxy in its own process: its RSS
 * from 10,000 to 100,000 proxied exchanges, and at 500, 2,000 and 5,000 requests/s
 * (autocannon) with a 10 KB and a 227 KB list, recording a HAR: the latency it adds (p50,
 * p99, p99.9, against the same rate sent directly), the share judged and its peak RSS.
 * Prints a table and writes reports/bench.json.
 * (dredd) the full run beside Dredd, whole processes in interleaved pairs (bench-dredd.ts).
 * Usage: npm run bench [-- a b c d e f g n dredd judge judge-cookies proxy] (scenarios to run; default all).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../src/config/settings.js';
import { startReferenceServer } from '../src/reference/server.js';
import type { Report } from '../src/report/model.js';
import { delayedBy } from '../test/support/targets.js';
import { serveProcess } from './bench-serve.js';

const DEFAULT_CONNECTIONS = SETTINGS.connections.default;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'bin/petstore-conformance.js');
const LATENCY_MS = 30;

interface HarLog {
  log: { entries: Array<{ startedDateTime: string; time: number; response: { bodySize: number } }> };
}

interface Sample {
  wallMs: number;
  peakRssMb: number;
  requests: number;
  report?: Report;
  har?: HarLog;
}

/** Runs a command under GNU time: its wall time (ms) and peak RSS (MB). Exit 1 (nonconformant) is a result, not a failure. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ wallMs: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile('/usr/bin/time', ['-f', '%M', ...args], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      const wallMs = performance.now() - started;
      if (error && error.code !== 1) return reject(new Error(`${args.join(' ')} failed: ${stderr.slice(-400)}`));
      resolve({ wallMs, peakRssMb: Number(stderr.trim().split('\n').pop()) / 1024 });
    });
  });
}

/** One CLI run; reads back its report and HAR. */
async function cliRun(extra: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-'));
  const { wallMs, peakRssMb } = await timed([process.execPath, CLI, 'run', '--report-dir', dir, '--format', 'json,har', ...extra], env);
  const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
  const har = JSON.parse(await readFile(join(dir, 'exchanges.har'), 'utf8')) as HarLog;
  await rm(dir, { recursive: true, force: true });
  return { wallMs, peakRssMb, requests: report.summary.requests, report, har };
}

/** One run of a script from dist/scripts: wall time and peak RSS. */
async function scriptRun(script: string, args: string[], requests: number): Promise<Sample> {
  return { ...(await timed([process.execPath, join(ROOT, 'dist/scripts', script), ...args])), requests };
}

/** (c)'s floor: the three list reads of the list class, bare, in a process of their own (ms). */
function bareList(baseUrl: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [join(ROOT, 'dist/scripts/bare-list.js'), baseUrl], { env: { ...process.env, PETSTORE_API_KEY: apiKey } }, (error, stdout) =>
      error ? reject(error) : resolve(Number(stdout.trim())),
    ),
  );
}

/**
 * The longest chain of exchanges in which each started after the previous one ended: the
 * requests on the critical path as the run's dependencies and concurrency scheduled them.
 */
function criticalPath(har: HarLog): number {
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
const receivedMb = (har: HarLog) => har.log.entries.reduce((sum, e) => sum + Math.max(0, e.response.bodySize), 0) / 1e6;

interface Row {
  name: string;
  runs: number;
  wallMsMedian: number;
  wallMsRange: string;
  requests: number;
  requestsPerSecond: number;
  /** The highest of the samples' peak RSS (MiB). */
  peakRssMb: number;
  /** The median of the samples' peak RSS (MiB). */
  peakRssMbMedian?: number;
  samples: Sample[];
}

function row(name: string, samples: Sample[]): Row {
  const wall = samples.map((s) => s.wallMs);
  const requests = median(samples.map((s) => s.requests));
  return {
    name,
    runs: samples.length,
    wallMsMedian: Math.round(median(wall)),
    wallMsRange: range(wall),
    requests,
    requestsPerSecond: Math.round(requests / (median(wall) / 1000)),
    peakRssMb: Math.round(Math.max(...samples.map((s) => s.peakRssMb))),
    peakRssMbMedian: Math.round(median(samples.map((s) => s.peakRssMb))),
    samples,
  };
}

/** Runs each scenario `times` times, round-robin, so machine noise spreads over all of them. */
async function interleaved(times: number, scenarios: Record<string, () => Promise<Sample>>): Promise<Record<string, Sample[]>> {
  const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(scenarios).map((name) => [name, []]));
  for (let i = 0; i < times; i++) {
    for (const [name, run] of Object.entries(scenarios)) samples[name]!.push(await run());
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return samples;
}

const only = process.argv.slice(2);
const wanted = (id: string) => only.length === 0 || only.includes(id);
console.error(`Benchmark on ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
const rows: Row[] = [];
const ratios: Record<string, unknown> = {};

// (a), (d), (e): interleaved. (d) needs (a)'s request count: one (a) run first sets it.
if (wanted('a') || wanted('d') || wanted('e')) {
  const requests = (await cliRun([])).requests;
  const samples = await interleaved(11, {
    ...(wanted('a') || wanted('d') ? { a: () => cliRun([]) } : {}),
    ...(wanted('d') ? { d: () => scriptRun('bare-loop.js', [String(requests)], requests) } : {}),
    ...(wanted('e') || wanted('d') ? { e: () => scriptRun('runner-floor.js', [], 0) } : {}),
  });
  const a = samples.a ? row('(a) full run, embedded server', samples.a) : undefined;
  const d = samples.d ? row('(d) bare undici loop, same requests', samples.d) : undefined;
  const e = samples.e ? row("(e) the runner's fixed start, empty test", samples.e) : undefined;
  rows.push(...[a, d, e].filter((r) => r !== undefined));
  if (a) {
    const reports = a.samples.map((s) => s.report!);
    ratios.aStartBeforeRunMs = Math.round(median(a.samples.map((s) => s.wallMs - s.report!.durationMs)));
    ratios.aFirstCheckRequestMs = Math.round(median(a.samples.map((s) => s.wallMs - s.report!.durationMs + (s.report!.timing?.firstCheckRequestMs ?? 0))));
    ratios.aRequestsMs = Math.round(median(reports.map((r) => r.timing?.requestsMs ?? 0)));
    // Each phase as a share of the wall time: Node's own start (an empty script), the CLI's
    // imports up to the run's clock, the runner's start to the first check request, the
    // requests, and the rest (the reports, the worker's end).
    const nodeStarts: number[] = [];
    for (let i = 0; i < 5; i++) nodeStarts.push((await timed([process.execPath, '-e', '0'])).wallMs);
    const wall = a.wallMsMedian;
    const processStart = median(nodeStarts);
    const beforeRun = ratios.aStartBeforeRunMs as number;
    const firstRequest = median(reports.map((r) => r.timing?.firstCheckRequestMs ?? 0));
    const requestsMs = ratios.aRequestsMs as number;
    const phases: Array<[string, number]> = [
      ['process start', processStart],
      ['imports', beforeRun - processStart],
      ["the runner's start to the first request", firstRequest],
      ['requests', requestsMs],
      ['reports and the end', wall - beforeRun - firstRequest - requestsMs],
    ];
    ratios.aPhases = Object.fromEntries(phases.map(([name, ms]) => [name, { ms: Math.round(ms), share: +(ms / wall).toFixed(3) }]));
  }
  if (a && d) ratios.aOverD = +(a.wallMsMedian / d.wallMsMedian).toFixed(2);
  if (a && d && e) ratios.aMinusEOverD = +((a.wallMsMedian - e.wallMsMedian) / d.wallMsMedian).toFixed(2);
}

if (wanted('b')) {
  // A fresh server per sample, as (a) gets: the store, and so each list, starts empty. Interleaved
  // with (a), so that the ratio the issue bounds ((b) ÷ (a)) is of one sitting, and with (e).
  const slowRun = async () => {
    const slowServer = await startReferenceServer({ variations: [delayedBy(LATENCY_MS)] });
    try {
      return await cliRun(['--base-url', slowServer.baseUrl], { PETSTORE_API_KEY: slowServer.apiKey });
    } finally {
      await slowServer.close();
    }
  };
  const runs = await interleaved(11, {
    b: slowRun,
    a: () => cliRun([]),
    e: () => scriptRun('runner-floor.js', [], 0),
  });
  ratios.bOverA = +(median(runs.b!.map((s) => s.wallMs)) / median(runs.a!.map((s) => s.wallMs))).toFixed(2);
  ratios.bAlongsideAMs = Math.round(median(runs.a!.map((s) => s.wallMs)));
  const samples = runs.b!;
  const b = row(`(b) full run, loopback +${LATENCY_MS} ms`, samples);
  const fixedStart = median(runs.e!.map((s) => s.wallMs));
  rows.push(b);
  const critical = median(samples.map((s) => criticalPath(s.har!)));
  // No schedule beats the connections either: each carries one request per round trip.
  const rounds = Math.ceil(b.requests / DEFAULT_CONNECTIONS);
  const floor = Math.max(critical, rounds) * LATENCY_MS;
  ratios.bCriticalPathRequests = critical;
  ratios.bConnectionRounds = rounds;
  ratios.bLatencyFloorMs = floor;
  ratios.bOverFloor = +(b.wallMsMedian / floor).toFixed(2);
  ratios.bRequestsMs = Math.round(median(samples.map((s) => s.report!.timing?.requestsMs ?? 0)));
  ratios.bRequestsOverFloor = +((ratios.bRequestsMs as number) / floor).toFixed(2);
  // As for (a): the floor of a whole run also holds the runner's fixed start.
  ratios.bFixedStartMs = Math.round(fixedStart);
  ratios.bMinusEOverFloor = +((b.wallMsMedian - fixedStart) / floor).toFixed(2);
  ratios.bOverEPlusFloor = +(b.wallMsMedian / (fixedStart + floor)).toFixed(2);
}

if (wanted('c')) {
  const bigServer = await startReferenceServer();
  for (let i = 0; i < 100_000; i++) bigServer.store.create({ name: `category ${i} ${'x'.repeat(40)}`, description: `description of category number ${i}` });
  const samples: Sample[] = [];
  const listClass = '^list-(answers-200-array|items-are-categories|ids-unique)$';
  // Interleaved with the floor: the same three reads, bare (fetch and one JSON.parse each).
  const bare: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(await cliRun(['--base-url', bigServer.baseUrl, '--checks', listClass], { PETSTORE_API_KEY: bigServer.apiKey }));
    bare.push(await bareList(bigServer.baseUrl, bigServer.apiKey));
  }
  await bigServer.close();
  // The same count, every name written as JSON escapes (control characters: JSON.stringify writes each as \uXXXX).
  const escapedServer = await startReferenceServer();
  for (let i = 0; i < 100_000; i++) escapedServer.store.create({ name: [...`category ${i}`].map((c) => String.fromCharCode(c.charCodeAt(0) % 32)).join(''), description: `description of category number ${i}` });
  const escaped: Sample[] = [];
  for (let i = 0; i < 5; i++) escaped.push(await cliRun(['--base-url', escapedServer.baseUrl, '--checks', listClass], { PETSTORE_API_KEY: escapedServer.apiKey }));
  await escapedServer.close();
  rows.push(row('(c) the same, every name JSON escapes', escaped));
  const c = row('(c) list class, 100,000 categories', samples);
  rows.push(c);
  const listChecks = (s: Sample) => s.report!.checks.filter((k) => k.status !== 'skipped');
  ratios.cListMb = +Math.max(...samples[0]!.har!.log.entries.map((e) => e.response.bodySize / 1e6)).toFixed(1);
  ratios.cSlowestListCheckMs = median(samples.map((s) => Math.max(...listChecks(s).map((k) => k.durationMs))));
  ratios.cListChecksMs = median(samples.map((s) => listChecks(s).reduce((sum, k) => sum + k.durationMs, 0)));
  ratios.cBareReadsMs = median(bare);
  ratios.cChecksOverBare = +((ratios.cListChecksMs as number) / (ratios.cBareReadsMs as number)).toFixed(2);
  ratios.cPeakRssMb = c.peakRssMb;
  const escapedChecksMs = median(escaped.map((s) => listChecks(s).reduce((sum, k) => sum + k.durationMs, 0)));
  ratios.cEscapedListChecksMs = escapedChecksMs;
  ratios.cEscapedOverPlain = +(escapedChecksMs / (ratios.cListChecksMs as number)).toFixed(2);
}

/**
 * (f) A fleet of `n` targets (reference servers on loopback, in this process) checked by
 * one CLI process with `run --targets all`: wall time, peak RSS and the targets' requests.
 */
async function fleetRun(size: number): Promise<Sample> {
  // Fresh servers for every sample: a store that grew over earlier samples would lengthen every list.
  const apiKey = 'bench-fleet-key-0123456789abcdef';
  const servers = await Promise.all(Array.from({ length: size }, () => startReferenceServer({ apiKey })));
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-fleet-'));
  const config = join(dir, 'fleet.yaml');
  await writeFile(config, `targets:\n${servers.map((server, i) => `  t${String(i).padStart(3, '0')}:\n    baseUrl: ${server.baseUrl}\n`).join('')}`);
  const { wallMs, peakRssMb } = await timed([process.execPath, CLI, 'run', '--targets', 'all', '--config', config, '--report-dir', join(dir, 'out'), '--format', 'json'], {
    PETSTORE_API_KEY: servers[0]!.apiKey,
  });
  const fleet = JSON.parse(await readFile(join(dir, 'out', 'fleet.json'), 'utf8')) as { targets: Array<{ verdict: string; summary: { requests: number } }> };
  await rm(dir, { recursive: true, force: true });
  await Promise.all(servers.map((server) => server.close()));
  if (fleet.targets.some((target) => target.verdict !== 'conformant')) throw new Error('a fleet target of the bench was not conformant');
  return { wallMs, peakRssMb, requests: fleet.targets.reduce((sum, target) => sum + target.summary.requests, 0) };
}

if (wanted('f')) {
  const sizes = [1, 6, 10, 50];
  const samples = await interleaved(3, Object.fromEntries(sizes.map((n) => [n, () => fleetRun(n)])));
  const fleetRows = sizes.map((n) => row(`(f) fleet of ${n} target${n === 1 ? '' : 's'}`, samples[n]!));
  rows.push(...fleetRows);
  const [one, six, , fifty] = fleetRows as [Row, Row, Row, Row];
  ratios.fSixOverOne = +(six.wallMsMedian / one.wallMsMedian).toFixed(2);
  ratios.fMarginalMsPerTarget = Math.round((fifty.wallMsMedian - one.wallMsMedian) / 49);
  ratios.fRequestsPerTarget = Math.round(fifty.requests / 50);
  ratios.fPeakRssMb50 = fifty.peakRssMb;
}

/** (g)'s sizes: categories the target holds before the run. */
const LIST_SIZES = [100, 1_000, 10_000, 100_000];

/** (g) One whole run, `profile`, against a fresh server in a process of its own holding `size` categories. */
async function sizedRun(size: number, profile: 'full' | 'read-only'): Promise<Sample> {
  const apiKey = 'bench-sized-key-0123456789abcdef';
  const server = await serveProcess([join(ROOT, 'dist/scripts/serve-sized.js'), String(size)], apiKey);
  try {
    return await cliRun(['--base-url', server.baseUrl, '--profile', profile], { PETSTORE_API_KEY: apiKey });
  } finally {
    await server.stop();
  }
}

if (wanted('g')) {
  const sized: Record<string, unknown> = {};
  for (const profile of ['read-only', 'full'] as const) {
    const samples = await interleaved(3, Object.fromEntries(LIST_SIZES.map((n) => [n, () => sizedRun(n, profile)])));
    const sizeRows = LIST_SIZES.map((n) => row(`(g) ${profile}, ${n.toLocaleString('en')} categories`, samples[n]!));
    rows.push(...sizeRows);
    const [least, , , most] = sizeRows as [Row, Row, Row, Row];
    const per1000 = (from: number, to: number) => +(((to - from) / (LIST_SIZES.at(-1)! - LIST_SIZES[0]!)) * 1000).toFixed(3);
    sized[profile] = {
      wallMs: Object.fromEntries(sizeRows.map((r, i) => [LIST_SIZES[i], r.wallMsMedian])),
      peakRssMb: Object.fromEntries(sizeRows.map((r, i) => [LIST_SIZES[i], r.peakRssMbMedian])),
      msPer1000Categories: per1000(least.wallMsMedian, most.wallMsMedian),
      rssMbPer1000Categories: per1000(least.peakRssMbMedian!, most.peakRssMbMedian!),
      rssMostOverLeast: +(most.peakRssMbMedian! / least.peakRssMbMedian!).toFixed(2),
    };
  }
  ratios.listSizes = sized;
}

if (wanted('n')) {
  const budgets = [];
  for (const numRuns of [10, 50, 200]) {
    const samples: Sample[] = [];
    for (let i = 0; i < 3; i++) samples.push(await cliRun(['--num-runs', String(numRuns), '--seed', '1']));
    const budget = row(`(a) with --num-runs ${numRuns}`, samples);
    rows.push(budget);
    const mb = receivedMb(samples[0]!.har!);
    budgets.push({ numRuns, requests: budget.requests, receivedMb: +mb.toFixed(1), wallMs: budget.wallMsMedian, msPerRequest: +(budget.wallMsMedian / budget.requests).toFixed(2) });
  }
  ratios.numRuns = budgets;
}

if (wanted('dredd')) {
  const { benchDredd } = await import('./bench-dredd.js');
  const samples = await benchDredd(CLI, ROOT, timed);
  if (samples) {
    const [dredd, suite] = [samples.dredd, samples.suite].map((runs) => ({ wallMs: Math.round(median(runs.map((r) => r.wallMs))), range: range(runs.map((r) => r.wallMs)), peakRssMb: Math.round(median(runs.map((r) => r.peakRssMb))), highestRssMb: Math.round(Math.max(...runs.map((r) => r.peakRssMb))) }));
    ratios.dredd = { pairs: samples.dredd.length, dredd, suite, suiteOverDredd: +(suite!.wallMs / dredd!.wallMs).toFixed(2) };
  } else ratios.dredd = { skipped: 'Dredd is not installed: npm install --no-save dredd@14.1.0, or set DREDD to its executable' };
}

if (wanted('judge')) {
  const { benchJudge } = await import('./bench-traffic.js');
  const result = await benchJudge(CLI, timed);
  rows.push({ name: '(judge) HAR of 100,000 exchanges', runs: result.runs, wallMsMedian: Math.round(result.wallMs), wallMsRange: result.wallMsRange, requests: result.exchanges, requestsPerSecond: Math.round(result.exchanges / (result.wallMs / 1000)), peakRssMb: Math.round(result.peakRssMb), samples: [] });
  ratios.judge = result;
}

if (wanted('judge-cookies')) {
  const { benchJudge } = await import('./bench-traffic.js');
  const result = await benchJudge(CLI, timed, { freshCookies: true });
  rows.push({ name: '(judge) the same, fresh cookies', runs: result.runs, wallMsMedian: Math.round(result.wallMs), wallMsRange: result.wallMsRange, requests: result.exchanges, requestsPerSecond: Math.round(result.exchanges / (result.wallMs / 1000)), peakRssMb: Math.round(result.peakRssMb), samples: [] });
  ratios.judgeCookies = result;
}

if (wanted('judge-huge-body')) {
  const { benchHugeBody } = await import('./bench-traffic.js');
  ratios.judgeHugeBody = await benchHugeBody(CLI, timed);
}

if (wanted('proxy')) {
  const { benchProxy } = await import('./bench-traffic.js');
  ratios.proxy = await benchProxy(CLI);
}

if (wanted('proxy-catalogue')) {
  const { benchProxyCatalogue } = await import('./bench-traffic.js');
  ratios.proxyCatalogue = await benchProxyCatalogue(CLI);
}

console.log('\nScenario                                   Wall median  Range (ms)    Requests  Req/s   Peak RSS (MiB: median / highest)');
for (const r of rows) {
  console.log(`${r.name.padEnd(43)}${`${r.wallMsMedian} ms`.padEnd(13)}${r.wallMsRange.padEnd(14)}${String(r.requests).padEnd(10)}${String(r.requestsPerSecond).padEnd(8)}${r.peakRssMbMedian !== undefined && r.samples.length > 1 ? `${r.peakRssMbMedian} / ` : ''}${r.peakRssMb}`);
}
const lines: string[] = [];
if (ratios.aFirstCheckRequestMs !== undefined) {
  lines.push(`(a): process start to the run's start ${ratios.aStartBeforeRunMs} ms; to the first check request ${ratios.aFirstCheckRequestMs} ms; requests ${ratios.aRequestsMs} ms`);
  const phases = ratios.aPhases as Record<string, { ms: number; share: number }>;
  lines.push(`(a) phases of the wall time: ${Object.entries(phases).map(([name, { ms, share }]) => `${name} ${ms} ms (${(share * 100).toFixed(0)} %)`).join(', ')}`);
}
if (ratios.aOverD !== undefined) lines.push(`(a) ÷ (d): ${ratios.aOverD}`);
if (ratios.aMinusEOverD !== undefined) lines.push(`((a) − (e)) ÷ (d), the run beyond the runner's fixed start against the bare loop: ${ratios.aMinusEOverD}`);
if (ratios.bLatencyFloorMs !== undefined) {
  lines.push(`(b) ÷ (a), interleaved: ${ratios.bOverA} ((a) alongside: ${ratios.bAlongsideAMs} ms)`);
  lines.push(
    `(b) floor: max(critical path ${ratios.bCriticalPathRequests} requests, ${ratios.bConnectionRounds} rounds of ${DEFAULT_CONNECTIONS} connections) × ${LATENCY_MS} ms = ${ratios.bLatencyFloorMs} ms; (b) ÷ floor ${ratios.bOverFloor}; ` +
      `its requests phase (${ratios.bRequestsMs} ms) ÷ floor ${ratios.bRequestsOverFloor}` +
      `; with (e) = ${ratios.bFixedStartMs} ms measured alongside: ((b) − (e)) ÷ floor ${ratios.bMinusEOverFloor}, (b) ÷ ((e) + floor) ${ratios.bOverEPlusFloor}`,
  );
}
if (ratios.fSixOverOne !== undefined) {
  lines.push(
    `(f) six targets ÷ one: ${ratios.fSixOverOne}; marginal cost per target (50 vs 1): ${ratios.fMarginalMsPerTarget} ms for ${ratios.fRequestsPerTarget} requests; peak RSS at 50 targets ${ratios.fPeakRssMb50} MB`,
  );
}
if (ratios.cPeakRssMb !== undefined) {
  lines.push(
    `(c) list of ${ratios.cListMb} MB: the three list checks ${ratios.cListChecksMs} ms (slowest ${ratios.cSlowestListCheckMs} ms), the same three reads bare ${ratios.cBareReadsMs} ms (÷ ${ratios.cChecksOverBare}), peak RSS ${ratios.cPeakRssMb} MB`,
  );
}
if (ratios.numRuns) {
  for (const b of ratios.numRuns as Array<Record<string, number>>) {
    lines.push(`--num-runs ${b.numRuns}: ${b.requests} requests, ${b.receivedMb} MB received, ${b.wallMs} ms (${b.msPerRequest} ms per request)`);
  }
}
if (ratios.judge) {
  const j = ratios.judge as Awaited<ReturnType<typeof import('./bench-traffic.js').benchJudge>>;
  lines.push(`(judge) ${j.exchanges} exchanges, ${j.harMb} MB of HAR: ${Math.round(j.wallMs)} ms, the median of ${j.runs} (${j.wallMsRange}) (${j.exchangesPerMinute.toLocaleString('en')} exchanges a minute), peak RSS ${Math.round(j.peakRssMb)} MB, verdict ${j.verdict}`);
  lines.push(`(judge) shares of the wall time: the CLI's fixed cost ${(j.shares.fixed * 100).toFixed(0)} %, reading and parsing ${(j.shares.reading * 100).toFixed(0)} %, judging ${(j.shares.judging * 100).toFixed(0)} %`);
}
if (ratios.proxy) {
  const p = ratios.proxy as { rssMbAt: Record<number, number>; cappedRssMbAt: Record<number, number>; rates: Array<Record<string, number | string>> };
  lines.push(`(proxy) RSS at 10k/25k/50k/75k/100k exchanges: ${Object.values(p.rssMbAt).join(' / ')} MB; with the old space capped at 64 MB: ${Object.values(p.cappedRssMbAt).join(' / ')} MB`);
  lines.push('(proxy) list    rate/s  achieved direct/proxied  direct p99  added p50 / p99 / p99.9 (ms)  judged  errors  peak RSS (MB)');
  for (const r of p.rates) {
    lines.push(`        ${String(r.list).padEnd(8)}${String(r.rate).padEnd(8)}${`${r.achievedDirect} / ${r.achievedProxied}`.padEnd(25)}${String(r.directP99).padEnd(12)}${`${r.addedP50} / ${r.addedP99} / ${r.addedP999}`.padEnd(30)}${`${(Number(r.judgedShare) * 100).toFixed(1)} %`.padEnd(8)}${String(r.errors).padEnd(8)}${r.peakRssMb}`);
  }
}
if (ratios.dredd) {
  const d = ratios.dredd as { skipped?: string; pairs: number; suiteOverDredd: number; dredd: Record<string, number | string>; suite: Record<string, number | string> };
  lines.push(
    d.skipped
      ? `(dredd) skipped: ${d.skipped}`
      : `(dredd) ${d.pairs} interleaved pairs, whole processes, a fresh server each: this suite ${d.suite.wallMs} ms (${d.suite.range}), Dredd ${d.dredd.wallMs} ms (${d.dredd.range}): ${d.suiteOverDredd}× Dredd's wall time; peak RSS ${d.suite.peakRssMb} MiB (highest ${d.suite.highestRssMb}) against Dredd's ${d.dredd.peakRssMb} MiB`,
  );
}
if (ratios.judgeCookies) {
  const j = ratios.judgeCookies as Awaited<ReturnType<typeof import('./bench-traffic.js').benchJudge>>;
  lines.push(`(judge) the same with a fresh cookie per answer: ${Math.round(j.wallMs)} ms, the median of ${j.runs} (${j.wallMsRange}) (${j.exchangesPerMinute.toLocaleString('en')} exchanges a minute), peak RSS ${Math.round(j.peakRssMb)} MB, verdict ${j.verdict}`);
}
if (ratios.judgeHugeBody) {
  const h = ratios.judgeHugeBody as { harMb: number; wallMs: number; peakRssMb: number; notKept: number };
  lines.push(`(judge) 2 entries, one a list body of 15 million items (${h.harMb} MB of HAR): ${h.wallMs} ms, peak RSS ${h.peakRssMb} MB; bodies not kept: ${h.notKept}`);
}
if (ratios.listSizes) {
  for (const [profile, figures] of Object.entries(ratios.listSizes as Record<string, { msPer1000Categories: number; rssMbPer1000Categories: number; rssMostOverLeast: number }>)) {
    lines.push(`(g) ${profile}: ${figures.msPer1000Categories} ms and ${figures.rssMbPer1000Categories} MiB of peak RSS more per 1,000 categories; peak RSS at 100,000 is ${figures.rssMostOverLeast}× that at 100`);
  }
}
if (ratios.proxyCatalogue) {
  const c = ratios.proxyCatalogue as { categories: number; listMb: number; proxiedP50: number; directP50: number; p50AddedMs: number; rssMb: number };
  lines.push(`(proxy) a catalogue of ${c.categories} categories (${c.listMb} MB list): added latency p50 ${c.p50AddedMs} ms (direct ${c.directP50} ms, proxied ${c.proxiedP50} ms); RSS ${c.rssMb} MB`);
}
console.log(`\n${lines.join('\n')}`);

await mkdir(join(ROOT, 'reports'), { recursive: true });
const strip = (r: Row) => ({ ...r, samples: r.samples.map(({ wallMs, peakRssMb, requests }) => ({ wallMs: Math.round(wallMs), peakRssMb: Math.round(peakRssMb), requests })) });
const machine = { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version };
await writeFile(join(ROOT, 'reports/bench.json'), `${JSON.stringify({ machine, scenarios: rows.map(strip), ratios }, null, 2)}\n`);
console.log('\nWritten: reports/bench.json');
