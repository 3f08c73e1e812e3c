/**
 * What each command prints (issue 47), held by snapshots of a small fixed run, with what
 * changes from run to run masked: times, ports, the temporary folder, the seed. A changed
 * word of any line a user reads fails here: `run`, `judge`, `proxy` (its HAR line
 * included), `merge`, `list` and every `--help`.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { fleetReport, fleetTarget } from '../../src/report/fleet.js';
import { exitCodeOf } from '../../src/report/gate.js';
import type { Report } from '../../src/report/model.js';
import { cli, type Ended } from '../support/cli-in-process.js';
import { BASE, entry, writeHar } from '../support/har.js';

let dir: string;
let server: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-outputs-'));
  server = await startReferenceServer({ apiKey: 'k3y-4f9Qz8Kx7mN2pL0vR5tW3yB' });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Output with what varies between runs masked: the folder, ports, durations and dates. */
function masked({ code, stdout, stderr }: Ended): string {
  const mask = (text: string) =>
    text
      .replaceAll(dir, '<dir>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/\d+(\.\d+)? ?(ms|s)\b/g, '<time>')
      // A check line's title is cut to fit 80 columns beside its time, whose width varies: its first 40 characters are held.
      .replace(/(— .{40}).*… \(<time>\)$/gm, '$1… (<time>)')
      .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<date>');
  return `exit ${code}\n--- stdout\n${mask(stdout)}--- stderr\n${mask(stderr)}`;
}

const env = { PETSTORE_API_KEY: 'k3y-4f9Qz8Kx7mN2pL0vR5tW3yB', NO_COLOR: '1' };

describe('each command\'s console output on a small fixed run', () => {
  test('run: one check against the reference server', async () => {
    const ended = await cli(['run', '-u', server.baseUrl, '--checks', '^list-answers-200-array$', '--seed', '1', '--report-dir', join(dir, 'run'), '--format', 'json'], { cwd: dir, env });
    await expect(masked(ended)).toMatchFileSnapshot('__snapshots__/outputs/run.txt');
  });

  test('run: the check lines follow one blank line, and none between them (a whole run, where no check is skipped)', async () => {
    const { stdout } = await cli(['run', '-u', server.baseUrl, '--report-dir', join(dir, 'run-all'), '--format', 'json'], { cwd: dir, env });
    const lines = stdout.split('\n');
    const [header, blank, ...rest] = lines;
    const checkLines = rest.slice(0, rest.indexOf(''));
    expect([header?.startsWith('petstore-conformance'), blank]).toEqual([true, '']);
    expect(checkLines.length).toBeGreaterThan(60);
    // A check's line, or what it observed below it: never a blank line.
    expect(checkLines.filter((line) => !/^ {2}[✓!i] |^ {8}\S/.test(line))).toEqual([]);
    expect(rest[checkLines.length + 1]).toBe('Checks');
  });

  test('judge: a capture of one list and one refused create', async () => {
    const har = await writeHar(dir, 'small.har', [entry({ status: 200, responseBody: '[]' }), entry({ method: 'POST', status: 201, requestBody: '{"name":"a"}', responseBody: '{"name":"a"}' })]);
    const ended = await cli(['judge', har, '-u', BASE, '--report-dir', join(dir, 'judge'), '--format', 'json,html'], { cwd: dir, env });
    await expect(masked(ended)).toMatchFileSnapshot('__snapshots__/outputs/judge.txt');
  });

  test('proxy: one list through it, then Ctrl-C: the listening line, the summary, the HAR line', async () => {
    const interrupt = new AbortController();
    let printed = '';
    const { PassThrough } = await import('node:stream');
    const stdout = new PassThrough().on('data', (chunk) => (printed += chunk));
    const ended = cli(['proxy', '-u', server.baseUrl, '--port', '0', '--har', join(dir, 'proxy.har'), '--report-dir', join(dir, 'proxy'), '--format', 'json'], { cwd: dir, env, interrupt: interrupt.signal, stdout });
    while (!/listening on (http:\/\/\S+\/v1):/.test(printed)) await new Promise((resolve) => setTimeout(resolve, 10));
    const url = /listening on (http:\/\/\S+\/v1):/.exec(printed)![1]!;
    const answer = await request(`${url}/categories`, { headers: { authorization: `Bearer ${env.PETSTORE_API_KEY}` } });
    await answer.body.dump();
    interrupt.abort('SIGINT');
    const { code, stderr } = await ended;
    await expect(masked({ code, stdout: printed, stderr })).toMatchFileSnapshot('__snapshots__/outputs/proxy.txt');
  });

  test('merge: two shards of a fleet, the run and the judged capture above as their targets', async () => {
    const shard = async (name: string, from: string) => {
      const report = JSON.parse(await readFile(join(dir, from, 'report.json'), 'utf8')) as Report;
      await mkdir(join(dir, `shard-${name}`, name), { recursive: true });
      await writeFile(join(dir, `shard-${name}`, name, 'report.json'), JSON.stringify(report));
      await writeFile(join(dir, `shard-${name}`, 'fleet.json'), JSON.stringify(fleetReport([fleetTarget(name, report, exitCodeOf(report.verdict, report.gate), name)], new Date(0).toISOString(), 1)));
      return join(dir, `shard-${name}`);
    };
    const ended = await cli(['merge', await shard('staging', 'run'), await shard('capture', 'judge'), '--report-dir', join(dir, 'merged')], { cwd: dir, env });
    await expect(masked(ended)).toMatchFileSnapshot('__snapshots__/outputs/merge.txt');
  });

  test.each([
    ['list', []],
    ['list-wide', ['--wide']],
    ['list-json', ['--format', 'json']],
    ['list-variations-json', ['--format', 'json', '--variations']],
  ])('%s', async (name, flags) => {
    await expect(masked(await cli(['list', ...flags], { cwd: dir, env }))).toMatchFileSnapshot(`__snapshots__/outputs/${name}.txt`);
  });

  test.each(['', 'run', 'judge', 'proxy', 'merge', 'list'])('%s --help', async (command) => {
    const ended = await cli([...(command ? [command] : []), '--help'], { cwd: dir, env });
    await expect(masked(ended)).toMatchFileSnapshot(`__snapshots__/outputs/help-${command || 'top'}.txt`);
  });
});

test('findings print as found: the first 10 of a check, then one line that the rest are counted; near miss: a 10th finding prints whole, another check keeps its own 10', async () => {
  const { findingPrinter, PRINTED_FINDINGS_PER_CHECK } = await import('../../src/traffic/judge-capture.js');
  expect(PRINTED_FINDINGS_PER_CHECK).toBe(10);
  const lines: string[] = [];
  const print = findingPrinter((line) => lines.push(line));
  const finding = (checkId: string, seq: number) => ({ checkId, level: 'must' as const, seq, exchange: 'GET /v1/categories → 500', message: `boom ${seq}` });
  for (let seq = 1; seq <= 12; seq++) print(finding('no-server-error', seq));
  print(finding('answers-allowed-status', 13));
  expect(lines).toHaveLength(12);
  expect(lines[9]).toBe('  ✗ must   no-server-error #10 GET /v1/categories → 500: boom 10');
  expect(lines[10]).toBe('  … no-server-error: further findings are counted in the report, not printed');
  expect(lines[11]).toBe('  ✗ must   answers-allowed-status #13 GET /v1/categories → 500: boom 13');
});
