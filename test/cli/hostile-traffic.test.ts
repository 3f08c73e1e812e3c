/**
 * `judge`, `run --traffic` and `proxy` keep every promise `run` keeps, against hostile
 * captures and targets (issue 33): a signal ends them with the report of what was judged;
 * FIFOs and devices are refused; a capture cut short is no clean verdict; an entry of an
 * odd shape is named and the rest judged; a body past the bound is counted, not held; the
 * proxy's HAR stays valid JSON when a write fails or the proxy is killed.
 */
import { execFileSync } from 'node:child_process';
import { readFile, readdir, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.js';
import { startRawServer } from '../support/raw-server.js';
import missingHeaderAccepted from '../faults/missing-header-accepted.js';
import { startCli, tempDir, unwrapped } from '../support/cli-child.js';
import { BASE, entry, writeHar } from '../support/har.js';

/** The report.json a command wrote into `dir`. */
const reportIn = async (dir: string) => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));

/**
 * Resolves once the process `pid` holds `path` open (Linux's /proc), polled every 20 ms
 * and at most 3,000 times: the moment a signal reaches it mid-read.
 */
async function whenOpen(pid: number, path: string): Promise<void> {
  for (let i = 0; i < 3_000; i++) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    if (targets.includes(path)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} was never opened by ${pid}`);
}

const linux = process.platform === 'linux';

/** The entries a HAR holds now, or -1 while it does not parse. */
async function entriesIn(path: string): Promise<number> {
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length;
  } catch {
    return -1;
  }
}

describe.runIf(linux)('a signal ends judge and run --traffic while they read a capture', () => {
  let dir: string;
  let endless: string;
  beforeAll(async () => {
    dir = await tempDir();
    // One broken exchange, then a gigabyte of whitespace (8 KB on disk: gzip members, concatenated), then the end.
    const spaces = gzipSync(Buffer.alloc(8 << 20, ' '));
    const head = JSON.stringify({ log: { version: '1.2', creator: { name: 't' }, entries: [entry({ status: 200, responseBody: '[]', authorization: null })] } }).slice(0, -3);
    endless = join(dir, 'endless.har.gz');
    await writeFile(endless, Buffer.concat([gzipSync(head), ...Array.from({ length: 128 }, () => spaces), gzipSync(']}}')]));
  });

  test.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('judge, %s after the first finding: exit 3, and the report of what was judged', async (signal) => {
    const out = join(dir, `judge-${signal}`);
    const cli = startCli(['judge', endless, '--base-url', BASE, '--report-dir', out]);
    await cli.until(/list-401-missing #1/);
    cli.child.kill(signal);
    const { code, stderr } = await cli.result;
    expect(code, stderr).toBe(3);
    const report = await reportIn(out);
    expect(report.verdict).toBe('error');
    expect(report.verdictReason).toMatch(new RegExp(`interrupted by ${signal === 'SIGHUP' ? 'SIGHUP' : signal} while judging the capture, after 1 entry`));
    expect(report.checks.find((check: { id: string }) => check.id === 'list-401-missing').status).toBe('failed');
  });

  test('run --traffic, SIGTERM while the capture is read: exit 3 with a report, and nothing sent', async () => {
    const out = join(dir, 'run');
    const cli = startCli(['run', '--traffic', endless, '--report-dir', out]);
    await whenOpen(cli.child.pid!, endless);
    cli.child.kill('SIGTERM');
    const { code, stderr } = await cli.result;
    expect(code, stderr).toBe(3);
    const report = await reportIn(out);
    expect(report.verdictReason).toMatch(/interrupted by SIGTERM while judging the capture/);
    expect(report.summary.requests).toBe(0);
  });
});

describe.runIf(linux)('FIFOs and devices are refused, as captures and as --har (exit 2)', () => {
  let fifo: string;
  beforeAll(async () => {
    fifo = join(await tempDir(), 'capture.fifo');
    execFileSync('mkfifo', [fifo]);
  });
  test.each([
    ['a FIFO capture', () => ['judge', fifo, '--base-url', BASE], /the capture .*capture\.fifo is not a regular file \(a FIFO\)/],
    ['a device capture', () => ['judge', '/dev/zero', '--base-url', BASE], /the capture \/dev\/zero is not a regular file \(a device\)/],
    ['a FIFO --traffic', () => ['run', '--traffic', fifo], /the capture .*capture\.fifo is not a regular file \(a FIFO\)/],
    ['a FIFO --har', () => ['proxy', '--base-url', BASE, '--port', '0', '--har', fifo], /the HAR file .*capture\.fifo is not a regular file \(a FIFO\)/],
    ['a device --har', () => ['proxy', '--base-url', BASE, '--port', '0', '--har', '/dev/full'], /the HAR file \/dev\/full is not a regular file \(a device\)/],
  ] as Array<[string, () => string[], RegExp]>)('%s', async (_what, args, message) => {
    const { code, stderr } = await startCli(args()).result;
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a capture that cannot be read whole is no clean verdict', () => {
  let dir: string;
  let whole: string;
  beforeAll(async () => {
    dir = await tempDir();
    whole = await readFile(await writeHar(dir, 'whole.har', Array.from({ length: 10 }, (_, i) => entry({ status: 200, responseBody: '[]', startMs: i * 20 }))), 'utf8');
  });
  const cutAt = async (name: string, length: number) => {
    const path = join(dir, name);
    await writeFile(path, whole.slice(0, length));
    return path;
  };

  test.each([
    ['at 60 %', 0.6, 5],
    ['at 95 %', 0.95, 9],
    ['after its last entry (only the closing brackets lost)', -3, 10],
  ])('cut %s: exit 3, said in the headline and on stderr; --accept-truncated gives the verdict on what it holds', async (_where, at, entries) => {
    const file = await cutAt(`cut-${at}.har`, at < 0 ? whole.length + at : Math.floor(whole.length * at));
    const refused = await startCli(['judge', file, '--base-url', BASE, '--report-dir', join(dir, `r${at}`)]).result;
    expect(refused.code).toBe(3);
    expect(unwrapped(refused.stdout)).toMatch(new RegExp(`Verdict: ERROR: the capture \\S+ ends before its JSON does: judged up to its last whole entry \\(${entries} entries\\)`));
    expect(refused.stderr).toMatch(/petstore-conformance: notice: the capture \S+ ends before its JSON does/);
    expect((await reportIn(join(dir, `r${at}`))).traffic.truncated).toEqual([{ file, entries, reason: 'ends before its JSON does' }]);
    const accepted = await startCli(['judge', file, '--base-url', BASE, '--accept-truncated', '--report-dir', join(dir, `a${at}`)]).result;
    expect(accepted.code).toBe(0);
    expect(unwrapped(accepted.stdout)).toMatch(/CONFORMANT on what the capture shows \(the capture was cut short: judged up to its last whole entry\)/);
  });

  test('the near miss: the whole capture gives its verdict, and says nothing of a cut', async () => {
    const { code, stdout, stderr } = await startCli(['judge', await cutAt('whole.har', whole.length), '--base-url', BASE, '--report-dir', join(dir, 'whole')]).result;
    expect(code).toBe(0);
    expect(`${stdout}${stderr}`).not.toMatch(/cut short|ends before/);
  });

  test('an entry with status 1e400 is named and the rest judged, by judge and by run --traffic', async () => {
    const server = await startReferenceServer();
    try {
      const odd = join(dir, 'odd.har');
      const url = `${server.baseUrl}/categories`;
      const good = JSON.stringify(entry({ url, status: 200, responseBody: '[]', authorization: null }));
      const bad = JSON.stringify(entry({ url, status: 200, responseBody: '[]' })).replace('"status":200', '"status":1e400');
      await writeFile(odd, `{"log":{"version":"1.2","creator":{"name":"t"},"entries":[${good},${bad},${good}]}}`);
      const judged = await startCli(['judge', odd, '--base-url', server.baseUrl, '--report-dir', join(dir, 'odd')]).result;
      expect(judged.code, judged.stderr).toBe(1);
      expect(judged.stdout).toMatch(/not read: \S+odd\.har entry 2: response\.status is not an integer \(found Infinity\)/);
      expect((await reportIn(join(dir, 'odd'))).traffic).toMatchObject({ entries: 3, judged: 2, invalid: { entries: 1, listed: [{ file: odd, entry: 2, reason: 'response.status is not an integer (found Infinity)' }] } });
      const run = await startCli(['run', '--traffic', odd, '--base-url', server.baseUrl, '--report-dir', join(dir, 'odd-run')], { PETSTORE_API_KEY: server.apiKey }).result;
      expect(run.code, run.stderr).toBe(1);
      expect((await reportIn(join(dir, 'odd-run'))).traffic.invalid.entries).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('a body past --max-response-bytes is counted as not kept, with its reason; the near miss is judged', async () => {
    // 1 KiB bounds a string at 1,372 characters (the base64 of 1 KiB, and 4 more).
    const list = (chars: number) => `[{"id":1,"name":"${'n'.repeat(chars - 20)}"}]`;
    const file = await writeHar(dir, 'big.har', [entry({ status: 200, responseBody: list(1_373) }), entry({ status: 200, responseBody: list(1_372), startMs: 50 })]);
    const { code, stdout } = await startCli(['judge', file, '--base-url', BASE, '--max-response-bytes', '1024', '--report-dir', join(dir, 'big')]).result;
    expect(code).toBe(0);
    expect(stdout).toMatch(/not judged: #1 response body: not kept: 1373 characters, larger than --max-response-bytes/);
    const report = await reportIn(join(dir, 'big'));
    expect(report.traffic.dropped).toEqual([{ exchange: 1, body: 'response body', reason: 'not kept: 1373 characters, larger than --max-response-bytes' }]);
    expect(report.traffic.missing).toEqual({ 'response body': 1 });
  });
});

describe('the proxy under attack', () => {
  test.runIf(linux)('a HAR write that fails (ulimit -f) is one line and "the reports are incomplete"; the HAR stays valid JSON', async () => {
    const server = await startReferenceServer();
    const dir = await tempDir();
    const har = join(dir, 'traffic.har');
    try {
      // 16 blocks of 512 bytes: some exchanges fit, the rest do not.
      const proxy = startCli(['proxy', '--base-url', server.baseUrl, '--port', '0', '--har', har, '--report-dir', join(dir, 'report')], {}, 'ulimit -f 16');
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      for (let i = 0; i < 40; i++) await (await request(`${url}/categories`, { headers: { authorization: `Bearer ${server.apiKey}` } })).body.text();
      await proxy.untilErr(/could not write \S+traffic\.har: /);
      proxy.child.kill('SIGTERM');
      const { code, stderr } = await proxy.result;
      expect(code).toBe(0);
      expect(stderr).toMatch(/the reports are incomplete \(the HAR file \S+ holds \d+ of the exchanges\); the verdict above stands/);
      const entries = JSON.parse(await readFile(har, 'utf8')).log.entries;
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.length).toBeLessThan(40);
    } finally {
      await server.close();
    }
  });

  test('killed with SIGKILL, the proxy leaves a HAR that is valid JSON up to its last whole entry', async () => {
    const server = await startReferenceServer({ variations: [missingHeaderAccepted.variation] });
    const dir = await tempDir();
    const har = join(dir, 'traffic.har');
    try {
      const proxy = startCli(['proxy', '--base-url', server.baseUrl, '--port', '0', '--har', har, '--report-dir', join(dir, 'report')]);
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      for (let i = 0; i < 3; i++) await (await request(`${url}/categories`)).body.text();
      await proxy.until(/list-401-missing #3/);
      // The third entry is written beside its finding's line: killed once the file holds it (polled, at most 500 times).
      for (let i = 0; i < 500 && (await entriesIn(har)) < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      proxy.child.kill('SIGKILL');
      await proxy.result;
      expect(JSON.parse(await readFile(har, 'utf8')).log.entries).toHaveLength(3);
      const judged = await startCli(['judge', har, '--base-url', server.baseUrl, '--report-dir', join(dir, 'judged')]).result;
      expect(judged.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('SIGTERM while a response streams through it: the exchange is cut, the reports written, the HAR valid JSON', async () => {
    // The target sends its head and half a list, then holds.
    const target = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('[{"id":1,"name":"a"}');
    });
    const dir = await tempDir();
    const har = join(dir, 'traffic.har');
    try {
      const proxy = startCli(['proxy', '--base-url', target.baseUrl, '--port', '0', '--har', har, '--report-dir', join(dir, 'report')]);
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      const streaming = await request(`${url}/categories`);
      expect(streaming.statusCode).toBe(200);
      const body = streaming.body.text().catch((error: unknown) => error);
      proxy.child.kill('SIGTERM');
      const { code, stderr } = await proxy.result;
      expect(code, stderr).toBe(3);
      expect(stderr).toMatch(/notice: 1 exchanges in flight when the proxy stopped were cut, and not judged/);
      expect(await body).toBeInstanceOf(Error);
      expect((await reportIn(join(dir, 'report'))).verdict).toBe('error');
      expect(JSON.parse(await readFile(har, 'utf8')).log.entries).toEqual([]);
    } finally {
      await target.close();
    }
  });

  test('a key seen first in X-API-Key, echoed case-swapped in two headers and split across two JSON strings, is in no output', async () => {
    const key = 'sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB';
    const swapped = key.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    const target = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-e1': `Bearer ${swapped.slice(0, 12)}`, 'x-e2': swapped.slice(12) });
      res.end(JSON.stringify([{ id: 1, name: 'a', description: `${JSON.stringify({ echo1: `Bearer ${key.slice(0, 13)}`, echo2: key.slice(13) })}` }]));
    });
    const dir = await tempDir();
    const har = join(dir, 'traffic.har');
    try {
      const proxy = startCli(['proxy', '--base-url', target.baseUrl, '--port', '0', '--har', har, '--report-dir', join(dir, 'report')]);
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      await (await request(`${url}/categories`, { headers: { 'x-api-key': key } })).body.text();
      await (await request(`${url}/categories`, { headers: { authorization: `Bearer ${key}` } })).body.text();
      proxy.child.kill('SIGTERM');
      const { stdout, stderr } = await proxy.result;
      const files = await readdir(join(dir, 'report'));
      const outputs = [await readFile(har, 'utf8'), stdout, stderr, ...(await Promise.all(files.map((file) => readFile(join(dir, 'report', file), 'utf8'))))];
      expect(JSON.parse(outputs[0]!).log.entries).toHaveLength(2);
      // No run of 8 characters of the key, in any case, anywhere.
      const pieces = Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8).toLowerCase());
      for (const text of outputs) for (const piece of pieces) expect(text.toLowerCase()).not.toContain(piece);
    } finally {
      await target.close();
    }
  });
});
