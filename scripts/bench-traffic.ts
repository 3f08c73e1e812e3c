/**
 * The traffic scenarios of `npm run bench` (bench.ts): `judge` of a large HAR, and the
 * validating proxy's added latency and memory. Measured, never asserted.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import type autocannon from 'autocannon';
import { startReferenceServer } from '../src/reference/server.js';

const BASE = 'https://petstore.example/v1';
const KEY = 'bench-traffic-key-0123456789abcdef';
const T0 = Date.parse('2026-11-24T00:00:00.000Z');

/**
 * Writes a conformant HAR of `count` exchanges, as production traffic looks: mostly
 * authorized lists of a catalogue that grows by fifty creates, unauthenticated lists,
 * refused bodies, and lookups of a pet. One entry at a time, with the file's backpressure.
 * @param freshCookies each answer sets a session cookie of its own (`Set-Cookie`), as a
 *   server that starts a session per request does: every value a secret of the capture.
 */
export async function writeBenchHar(path: string, count: number, { freshCookies = false } = {}): Promise<void> {
  const file = createWriteStream(path);
  const write = async (text: string) => {
    if (!file.write(text)) await once(file, 'drain');
  };
  const catalogue = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Category ${i + 1}`, description: `The ${i + 1}th category of the shop.` }));
  const error = (status: number) => JSON.stringify({ code: status === 401 ? 'unauthorized' : 'bad_request', message: 'refused', status });
  const entry = (i: number, method: string, authorized: boolean, requestBody: string | undefined, status: number, responseBody: string) =>
    JSON.stringify({
      startedDateTime: new Date(T0 + i * 20).toISOString(),
      time: 5,
      request: {
        method,
        url: `${BASE}/categories`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'Accept', value: 'application/json' }, ...(authorized ? [{ name: 'Authorization', value: `Bearer ${KEY}` }] : []), ...(requestBody ? [{ name: 'Content-Type', value: 'application/json' }] : [])],
        queryString: [],
        ...(requestBody ? { postData: { mimeType: 'application/json', text: requestBody } } : {}),
        headersSize: -1,
        bodySize: requestBody ? Buffer.byteLength(requestBody) : 0,
      },
      response: {
        status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          ...(status === 401 ? [{ name: 'WWW-Authenticate', value: 'Bearer error="invalid_token"' }] : []),
          ...(freshCookies ? [{ name: 'Set-Cookie', value: `session=${createHash('sha256').update(String(i)).digest('hex').slice(0, 32)}; Path=/; HttpOnly` }] : []),
        ],
        content: { size: Buffer.byteLength(responseBody), mimeType: 'application/json', text: responseBody },
        redirectURL: '',
        headersSize: -1,
        bodySize: Buffer.byteLength(responseBody),
      },
      cache: {},
      timings: { send: 0, wait: 5, receive: 0 },
    });
  await write('{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"pages":[],"entries":[\n');
  for (let i = 0; i < count; i++) {
    let text: string;
    if (i % 2000 === 500) {
      const fields = { name: `Created ${i}`, description: `Created by exchange ${i}.` };
      const created = { id: catalogue.length + 1, ...fields };
      catalogue.push(created);
      text = entry(i, 'POST', true, JSON.stringify(fields), 201, JSON.stringify(created));
    } else if (i % 10 === 7) text = entry(i, 'POST', true, '{"description":"no name"}', 400, error(400));
    else if (i % 10 === 8) text = entry(i, 'GET', false, undefined, 401, error(401));
    else text = entry(i, 'GET', true, undefined, 200, JSON.stringify(catalogue));
    await write(`${i > 0 ? ',\n' : ''}${text}`);
  }
  await write('\n]}}\n');
  file.end();
  await once(file, 'close');
}

/** Runs of `judge` on the large capture, of which the median is reported. */
const JUDGE_RUNS = 3;

/** The run of median wall time (its peak RSS with it). */
const median = <T extends { wallMs: number }>(runs: T[]): T => [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;

/** Runs one process under GNU time (bench.ts `timed`): its wall time (ms) and peak RSS (MiB). */
export type Timed = (args: string[], env?: NodeJS.ProcessEnv) => Promise<{ wallMs: number; peakRssMb: number }>;

/**
 * `judge` of a 100,000-exchange HAR (with `freshCookies`, each answer setting a session
 * cookie of its own: 100,000 secrets), the median of {@link JUDGE_RUNS} runs: wall time (ms), exchanges a minute, peak RSS (MB), the
 * HAR's size (MB), the verdict, and where the time goes: the CLI's fixed cost (the same
 * command on a capture of one exchange), reading and parsing the capture (the reader alone,
 * in this process, each entry parsed and dropped), and judging (the rest).
 */
export async function benchJudge(cli: string, timed: Timed, { freshCookies = false } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-judge-'));
  try {
    const har = join(dir, 'traffic.har');
    const exchanges = 100_000;
    await writeBenchHar(har, exchanges, { freshCookies });
    const one = join(dir, 'one.har');
    await writeBenchHar(one, 1);
    const harMb = +((await stat(har)).size / 1e6).toFixed(0);
    const judge = (file: string) => timed([process.execPath, cli, 'judge', file, '--base-url', BASE, '--api-key-env', 'BENCH_KEY', '--report-dir', join(dir, 'out'), '--format', 'json', '--quiet'], { BENCH_KEY: KEY });
    const fixedMs = (await judge(one)).wallMs;
    // The median of three: on a shared machine, one run's wall time strays by a third either way.
    const runs: Array<{ wallMs: number; peakRssMb: number }> = [];
    for (let i = 0; i < JUDGE_RUNS; i++) runs.push(await judge(har));
    const { wallMs, peakRssMb } = median(runs);
    const report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as { verdict: string };
    const { readHarEntries } = await import('../src/traffic/har-reader.js');
    const started = performance.now();
    let read = 0;
    for await (const item of readHarEntries(har)) read += 'entry' in item ? 1 : 0;
    const readingMs = performance.now() - started;
    if (read !== exchanges) throw new Error(`the reader read ${read} of ${exchanges} entries`);
    const share = (ms: number) => +(ms / wallMs).toFixed(3);
    return {
      exchanges,
      harMb,
      wallMs: Math.round(wallMs),
      exchangesPerMinute: Math.round(exchanges / (wallMs / 60_000)),
      peakRssMb: Math.round(peakRssMb),
      runs: runs.length,
      wallMsRange: `${Math.round(Math.min(...runs.map((run) => run.wallMs)))}–${Math.round(Math.max(...runs.map((run) => run.wallMs)))}`,
      verdict: report.verdict,
      shares: { fixed: share(fixedMs), reading: share(readingMs), judging: share(wallMs - fixedMs - readingMs) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Resident memory of a process, in MB (Linux /proc): now (`VmRSS`), or its peak (`VmHWM`). */
async function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024);
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The CLI's proxy in its own process in front of `targetUrl`, with `extra` arguments; resolves once it listens. */
async function startProxy(cli: string, targetUrl: string, reportDir: string, nodeOptions = '', extra: string[] = []) {
  const proxy = spawn(process.execPath, [cli, 'proxy', '--base-url', targetUrl, '--port', '0', '--api-key-env', 'BENCH_KEY', '--report-dir', reportDir, '--format', 'json', '--quiet', ...extra], {
    env: { ...process.env, BENCH_KEY: KEY, NO_COLOR: '1', NODE_OPTIONS: nodeOptions },
  });
  let printed = '';
  const url = await new Promise<string>((resolve, reject) => {
    proxy.stdout.on('data', (chunk) => {
      printed += chunk;
      const match = /listening on (http:\/\/\S+\/v1):/.exec(printed);
      if (match) resolve(match[1]!);
    });
    proxy.on('close', () => reject(new Error(`the proxy ended: ${printed}`)));
  });
  const pool = new Pool(new URL(url).origin, { connections: 16 });
  return {
    url,
    pool,
    path: `${new URL(url).pathname}/categories`,
    rssMb: () => rssMb(proxy.pid!),
    peakRssMb: () => rssMb(proxy.pid!, 'VmHWM'),
    async stop() {
      await pool.close();
      proxy.kill('SIGTERM');
      await once(proxy, 'close');
    },
  };
}

/**
 * One request of the bench's traffic, timed (ms): mostly authorized lists, every 10th a
 * refused body, every 10th unauthenticated. No category is stored, so lists keep their size.
 */
async function send(pool: Pool, path: string, i: number): Promise<number> {
  const started = performance.now();
  const authorization = { authorization: `Bearer ${KEY}` };
  const response =
    i % 10 === 7
      ? await pool.request({ path, method: 'POST', headers: { ...authorization, 'content-type': 'application/json' }, body: '{"description":"no name"}' })
      : await pool.request({ path, method: 'GET', headers: i % 10 === 8 ? {} : authorization });
  await response.body.dump();
  return performance.now() - started;
}

/** The proxy's RSS (MB) after 10,000, 25,000, 50,000, 75,000 and 100,000 exchanges, sent 16 at a time. */
async function memoryCurve(proxy: Awaited<ReturnType<typeof startProxy>>, alreadySent: number): Promise<Record<number, number>> {
  let sent = alreadySent;
  const rssMbAt: Record<number, number> = {};
  for (const count of [10_000, 25_000, 50_000, 75_000, 100_000]) {
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (sent < count) await send(proxy.pool, proxy.path, sent++);
    }));
    rssMbAt[count] = await proxy.rssMb();
  }
  return rssMbAt;
}

/**
 * The proxy in its own process, in front of a reference server: its RSS from 10,000 to
 * 100,000 proxied exchanges, with V8's default heap (which grows lazily), and with the old
 * space capped at 64 MB, where a leak of a few hundred bytes per exchange would show as a
 * slope and end in a crash.
 */
export async function benchProxy(cli: string) {
  const server = await startReferenceServer({ apiKey: KEY });
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-proxy-'));
  try {
    const proxy = await startProxy(cli, server.baseUrl, join(dir, 'out'));
    const rssMbAt = await memoryCurve(proxy, 0);
    await proxy.stop();
    const capped = await startProxy(cli, server.baseUrl, join(dir, 'capped'), '--max-old-space-size=64');
    const cappedRssMbAt = await memoryCurve(capped, 0);
    await capped.stop();
    return { rssMbAt, cappedRssMbAt, rates: await benchProxyRates(cli, dir) };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Seconds each rate is held, direct and through the proxy. */
const RATE_SECONDS = 5;

/**
 * The proxy at a real service's rates (issue 46 §4, issue 48 §3): a target in a process of
 * its own answering every list with the same body (10 KB, 227 KB), driven by autocannon at
 * a fixed overall rate (500, 2,000, 5,000 requests/s, 16 connections) for
 * {@link RATE_SECONDS} s, first directly, then through the proxy recording a HAR. Latencies
 * are each response's own (ms, from autocannon's `response` events); the added latency is
 * the proxied percentile less the direct one. The share judged is the report's judged
 * exchanges over those and the ones its notice counts as not judged.
 */
export async function benchProxyRates(cli: string, dir: string) {
  const { default: autocannon } = await import('autocannon');
  const rows: Array<Record<string, number | string>> = [];
  for (const [label, categories, description] of [['10 KB', 60, 100], ['227 KB', 270, 820]] as const) {
    const target = await startListTarget(categories, description);
    try {
      for (const rate of [500, 2_000, 5_000]) {
        const load = async (url: string) => {
          const latencies: number[] = [];
          const result = await new Promise<autocannon.Result>((resolve, reject) => {
            const instance = autocannon({ url, connections: 16, overallRate: rate, duration: RATE_SECONDS, headers: { authorization: `Bearer ${KEY}` } }, (error, done) => (error ? reject(error) : resolve(done)));
            instance.on('response', (_client, status, _bytes, ms) => void (status === 200 && latencies.push(ms)));
          });
          return { latencies: latencies.sort((a, b) => a - b), achieved: Math.round(result.requests.total / RATE_SECONDS), errors: result.errors + result.non2xx };
        };
        const direct = await load(`${target.url}/categories`);
        const reportDir = join(dir, `rates-${categories}-${rate}`);
        const proxy = await startProxy(cli, target.url, reportDir, '', ['--har', join(reportDir, 'traffic.har')]);
        const proxied = await load(`${proxy.url}/categories`);
        const peakRssMb = await proxy.peakRssMb();
        await proxy.stop();
        const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as { traffic: { judged: number }; notices?: string[] };
        const notJudged = Number(/^(\d+) exchanges were forwarded but not judged/m.exec((report.notices ?? []).join('\n'))?.[1] ?? 0);
        await rm(reportDir, { recursive: true, force: true });
        const added = (p: number) => +(percentile(proxied.latencies, p) - percentile(direct.latencies, p)).toFixed(2);
        rows.push({
          list: label,
          rate,
          achievedDirect: direct.achieved,
          achievedProxied: proxied.achieved,
          directP99: +percentile(direct.latencies, 99).toFixed(2),
          addedP50: added(50),
          addedP99: added(99),
          addedP999: added(99.9),
          judgedShare: +(report.traffic.judged / Math.max(1, report.traffic.judged + notJudged)).toFixed(3),
          errors: proxied.errors,
          peakRssMb,
        });
      }
    } finally {
      await target.stop();
    }
  }
  return rows;
}

/**
 * A target in a process of its own that answers every request with one list (200, JSON) of
 * `categories` whose descriptions are `description` characters long: the load generator and
 * the target never share a thread.
 */
async function startListTarget(categories: number, description: number) {
  const source = `const body = JSON.stringify(Array.from({ length: ${categories} }, (_, i) => ({ id: i + 1, name: 'Category ' + (i + 1), description: 'd'.repeat(${description}) }))); require('node:http').createServer((q, s) => { q.resume(); s.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body); }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source]);
  const [port] = (await once(child.stdout, 'data')) as [Buffer];
  return {
    url: `http://127.0.0.1:${String(port).trim()}/v1`,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'close');
    },
  };
}

/**
 * The proxy in front of a real catalogue: 60,000 categories (a list of about 4.8 MB), one
 * request at a time, proxied and direct in turn (60 of each after 5 of warm-up): the
 * latency the proxy adds at p50 (ms), which streaming the body beside its judgement keeps
 * near the direct time.
 */
export async function benchProxyCatalogue(cli: string) {
  const server = await startReferenceServer({ apiKey: KEY });
  for (let i = 0; i < 60_000; i++) server.store.create({ name: `Category ${i}`, description: `The ${i}th category of a real shop's catalogue.` });
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-catalogue-'));
  const direct = new Pool(new URL(server.baseUrl).origin, { connections: 1 });
  const directPath = `${new URL(server.baseUrl).pathname}/categories`;
  try {
    const proxy = await startProxy(cli, server.baseUrl, join(dir, 'out'));
    const get = async (pool: Pool, path: string) => {
      const started = performance.now();
      const response = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${KEY}` } });
      const bytes = (await response.body.arrayBuffer()).byteLength;
      return { ms: performance.now() - started, bytes };
    };
    const latencies = { proxied: [] as number[], direct: [] as number[] };
    let listBytes = 0;
    for (let i = 0; i < 65; i++) {
      const viaProxy = await get(proxy.pool, proxy.path);
      const straight = await get(direct, directPath);
      listBytes = straight.bytes;
      if (i < 5) continue;
      latencies.proxied.push(viaProxy.ms);
      latencies.direct.push(straight.ms);
    }
    const peakRss = await proxy.rssMb();
    await proxy.stop();
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const round = (ms: number) => +ms.toFixed(2);
    const [p, d] = [sorted(latencies.proxied), sorted(latencies.direct)];
    return { categories: 60_000, listMb: +(listBytes / 1e6).toFixed(1), proxiedP50: round(percentile(p, 50)), directP50: round(percentile(d, 50)), p50AddedMs: round(percentile(p, 50) - percentile(d, 50)), rssMb: peakRss };
  } finally {
    await direct.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `judge` of a capture of 2 entries, one of them a list of 15 million items (about 300 MB
 * in one string): wall time (ms) and peak RSS (MB), bounded by --max-response-bytes
 * (16 MiB by default), not by the body.
 */
export async function benchHugeBody(cli: string, timed: Timed) {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-huge-'));
  try {
    const har = join(dir, 'huge.har');
    const file = createWriteStream(har);
    const write = async (text: string) => {
      if (!file.write(text)) await once(file, 'drain');
    };
    const entry = (i: number, text: string, size: number) =>
      `{"startedDateTime":"${new Date(T0 + i * 1000).toISOString()}","time":5,"request":{"method":"GET","url":"${BASE}/categories","headers":[{"name":"Authorization","value":"Bearer ${KEY}"}]},"response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"}],"content":{"size":${size},"mimeType":"application/json","text":"${text}`;
    await write(`{"log":{"version":"1.2","creator":{"name":"bench"},"entries":[${entry(0, '[]', 2)}"}}},`);
    const item = '{\\"id\\":1,\\"name\\":\\"n\\"},';
    const items = 15_000_000;
    await write(entry(1, '[', items * 20));
    const block = item.repeat(10_000);
    for (let i = 0; i < items / 10_000; i++) await write(block);
    await write('{\\"id\\":2,\\"name\\":\\"m\\"}]"}}}]}}');
    file.end();
    await once(file, 'close');
    const harMb = +((await stat(har)).size / 1e6).toFixed(0);
    const { wallMs, peakRssMb } = await timed([process.execPath, cli, 'judge', har, '--base-url', BASE, '--report-dir', join(dir, 'out'), '--format', 'json', '--quiet']);
    const report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as { traffic: { missing: Record<string, number> } };
    return { harMb, wallMs: Math.round(wallMs), peakRssMb: Math.round(peakRssMb), notKept: report.traffic.missing['response body'] ?? 0 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
