/**
 * `judge` and `proxy` as users run them: the compiled CLI in a child process, its exit
 * codes (0, 1, 2, 3 as `run`'s), its one-line errors, its findings as they happen, and
 * its files.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.js';
import missingHeaderAccepted from '../faults/missing-header-accepted.js';
import { BASE, entry, harSchemaErrors, writeHar } from '../support/har.js';
import { startRawServer } from '../support/raw-server.js';
import { startCli as start, tempDir, unwrapped } from '../support/cli-child.js';

describe('judge', () => {
  test('exit 0 within the traffic, 1 for a broken rule (its finding printed as found), 3 for a capture of another target', async () => {
    const dir = await tempDir();
    const fine = await writeHar(dir, 'fine.har', [entry({ status: 200, responseBody: '[]' })]);
    const broken = await writeHar(dir, 'broken.har', [entry({ status: 200, responseBody: '[]', authorization: null })]);
    const conformant = await start(['judge', fine, '--base-url', BASE, '--report-dir', join(dir, 'a')]).result;
    expect(conformant.code).toBe(0);
    expect(unwrapped(conformant.stdout)).toMatch(/Verdict: CONFORMANT on what the capture shows: \d+ of \d+ must checks judged, \d+ untested/);
    expect(conformant.stdout).toMatch(/^Must checks judged \(\d+ of \d+\): [a-z-]+/m);
    // A gate on coverage: fewer must checks judged than asked is not assessable, naming those that were.
    const gated = await start(['judge', fine, '--base-url', BASE, '--min-must-checks', '40', '--report-dir', join(dir, 'g')]).result;
    expect(gated.code).toBe(3);
    expect(unwrapped(gated.stdout)).toMatch(/Verdict: ERROR: only \d+ must checks ran or were judged on the captured traffic, fewer than --min-must-checks 40: [a-z-]+/);
    const nonconformant = await start(['judge', broken, '--base-url', BASE, '--report-dir', join(dir, 'b')]).result;
    expect(nonconformant.code).toBe(1);
    expect(nonconformant.stdout).toMatch(/✗ must {3}list-401-missing #1 GET \/v1\/categories → 200: Expected status 401, received 200/);
    expect(await readdir(join(dir, 'b'))).toEqual(expect.arrayContaining(['report.json', 'junit.xml', 'report.html', 'summary.md']));
    const elsewhere = await start(['judge', fine, '--base-url', 'https://other.example/v1', '--report-dir', join(dir, 'c')]).result;
    expect(elsewhere.code).toBe(3);
    expect(unwrapped(elsewhere.stdout)).toMatch(/Verdict: ERROR: no exchange of the interface at https:\/\/other.example\/v1/);
  });

  test('judge --help and proxy --help say that --base-url is required', async () => {
    for (const command of ['judge', 'proxy']) {
      const { code, stdout } = await start([command, '--help']).result;
      expect(code).toBe(0);
      expect(stdout.replace(/\s+/g, " ")).toMatch(/--base-url <url> required: the base URL of the interface the traffic went to/);
    }
  });

  test.each([
    [['judge', 'x.har'], /^petstore-conformance: error: required option '-u, --base-url <url>' not specified\n$/],
    [['judge', '/no/such/capture.har', '--base-url', BASE], /cannot read the capture \/no\/such\/capture\.har: ENOENT/],
    [['judge', fileURLToPath(new URL('../../package.json', import.meta.url)), '--base-url', BASE], /is not a HAR: no log\.entries/],
    [['judge', 'x.har', '--base-url', BASE, '--api-key-env', 'NO_SUCH_VARIABLE_SET'], /--api-key-env NO_SUCH_VARIABLE_SET: the variable is not set/],
    [['run', '--traffic', '/no/such/capture.har', '--base-url', 'http://127.0.0.1:9/v1'], /cannot read the capture \/no\/such\/capture\.har: ENOENT/, { PETSTORE_API_KEY: 'some-key-1234567890' }],
  ] as Array<[string[], RegExp, Record<string, string>?]>)('bad input %j: one line, exit 2', async (args, message, env) => {
    const { code, stderr, stdout } = await start(args, env).result;
    expect(code).toBe(2);
    expect(`${stderr}${stdout}`).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('proxy', () => {
  test('forwards, prints each finding as its exchange completes, and on SIGTERM writes the report and a redacted HAR; exit 1 for a broken rule', async () => {
    const server = await startReferenceServer({ variations: [missingHeaderAccepted.variation] });
    const dir = await tempDir();
    try {
      const proxy = start(['proxy', '--base-url', server.baseUrl, '--port', '0', '--har', join(dir, 'traffic.har'), '--report-dir', join(dir, 'report'), '--api-key-env', 'KEY'], { KEY: server.apiKey });
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      const authorized = await request(`${url}/categories`, { headers: { authorization: `Bearer ${server.apiKey}` } });
      expect(authorized.statusCode).toBe(200);
      await authorized.body.text();
      const created = await request(`${url}/categories`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body: '{"name":"Cats"}' });
      expect(created.statusCode).toBe(201);
      await created.body.text();
      const open = await request(`${url}/categories`);
      await open.body.text();
      // The finding is printed while the proxy runs, before any report.
      await proxy.until(/list-401-missing #3/);
      proxy.child.kill('SIGTERM');
      const { code, stdout, stderr } = await proxy.result;
      expect(code, stderr).toBe(1);
      expect(stdout).toMatch(/✗ must {3}list-401-missing #3 GET \/v1\/categories → 200/);
      const report = JSON.parse(await readFile(join(dir, 'report', 'report.json'), 'utf8'));
      expect(report.target.kind).toBe('traffic');
      expect(report.traffic).toMatchObject({ judged: 3, files: [] });
      const har = await readFile(join(dir, 'traffic.har'), 'utf8');
      expect(JSON.parse(har).log.entries).toHaveLength(3);
      expect(await harSchemaErrors(JSON.parse(har))).toEqual([]);
      expect(har).toContain('Bearer ${PETSTORE_API_KEY}');
      for (const text of [har, stdout, ...(await Promise.all((await readdir(join(dir, 'report'))).map((file) => readFile(join(dir, 'report', file), 'utf8'))))]) {
        expect(text).not.toContain(server.apiKey);
      }
    } finally {
      await server.close();
    }
  });

  test('recording never waits on judging: 60 exchanges of a 227 KB list reach the HAR whole, and a SIGKILL then leaves all 60, the file JSON', async () => {
    // 270 categories with long descriptions: a list each judgement takes a while over.
    const list = JSON.stringify(Array.from({ length: 270 }, (_, i) => ({ id: i + 1, name: `Category ${i + 1}`, description: 'd'.repeat(820) })));
    expect(list.length).toBeGreaterThan(227_000);
    const target = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(list));
    const dir = await tempDir();
    try {
      const har = join(dir, 'killed.har');
      const proxy = start(['proxy', '--base-url', target.baseUrl, '--port', '0', '--har', har, '--report-dir', join(dir, 'report'), '--api-key-env', 'KEY'], { KEY: 'k'.repeat(24) });
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      for (let i = 0; i < 60; i++) {
        const answer = await request(`${url}/categories`, { headers: { authorization: `Bearer ${'k'.repeat(24)}` } });
        await answer.body.text();
      }
      // Each entry is written as its exchange is handed over, the file closed after each: no clock is asserted (a loaded
      // machine sets the pace), only that all 60 arrive while the proxy runs, and that a kill takes none back.
      const entries = async () => (JSON.parse(await readFile(har, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length;
      for (let polls = 0; polls < 600 && (await entries()) < 60; polls++) await new Promise((resolve) => setTimeout(resolve, 50));
      proxy.child.kill('SIGKILL');
      await proxy.result;
      expect(JSON.parse(await readFile(har, 'utf8')).log.entries).toHaveLength(60);
    } finally {
      await target.close();
    }
  });

  test('--answer-deadline: a target silent past it gets the client the proxy\'s 504, one line as it happens, a notice in the report, and an unanswered entry in the HAR; near misses of its bounds are usage errors', async () => {
    const silent = await startRawServer(() => {});
    const dir = await tempDir();
    try {
      const proxy = start(['proxy', '--base-url', silent.baseUrl, '--port', '0', '--answer-deadline', '1', '--report-dir', join(dir, 'report'), '--har', join(dir, 'p.har')]);
      const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
      const answer = await request(`${url}/categories`);
      expect(answer.statusCode).toBe(504);
      await answer.body.text();
      await proxy.until(/did not answer/);
      proxy.child.kill('SIGTERM');
      const { stdout } = await proxy.result;
      expect(stdout).toContain("  ! the target did not answer GET /v1/categories within 1 s: the client got the proxy's 504");
      const report = JSON.parse(await readFile(join(dir, 'report', 'report.json'), 'utf8'));
      expect(report.notices).toContain("1 exchanges got no answer from the target within 1 s: each client got the proxy's 504 (Proxy-Status: petstore-conformance), and they are not judged");
      // Recorded as browsers record a request that got no answer: status 0, and why.
      const [entry] = JSON.parse(await readFile(join(dir, 'p.har'), 'utf8')).log.entries;
      expect([entry.request.url, entry.response.status, entry.comment]).toEqual([`${silent.baseUrl}/categories`, 0, "traffic: no response: TIMEOUT: the target did not answer within 1 s; the client got the proxy's 504; fresh connection"]);
      expect(report.traffic.entries).toBe(0);
    } finally {
      await silent.close();
    }
    for (const value of ['0', '3601', '1.5']) {
      const refused = await start(['proxy', '--base-url', 'http://127.0.0.1:9/v1', '--answer-deadline', value]).result;
      expect([refused.code, refused.stderr]).toEqual([2, `petstore-conformance: error: option '--answer-deadline <seconds>' argument '${value}' is invalid. expected whole seconds, 1 to 3600. (see --help)\n`]);
    }
  });

  test('a port that is taken: one line, exit 2', async () => {
    const server = await startReferenceServer();
    try {
      const port = new URL(server.baseUrl).port;
      const { code, stderr } = await start(['proxy', '--base-url', server.baseUrl, '--port', port]).result;
      expect(code).toBe(2);
      expect(stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/);
    } finally {
      await server.close();
    }
  });
});
