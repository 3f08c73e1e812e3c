/**
 * `replay`: a failure that depends on how its body was framed reproduces when its
 * Reproduce line is pasted. A server that decodes each chunk of a chunked body on its own
 * (the fault chunked-chunks-decoded-apart) damages é when the run sends it split; the
 * Reproduce line is the tool's replay, which sends the same chunks and gets the same
 * damage, while curl's line (one chunk) does not. And every way replay is misused ends in
 * one line and exit 2; a target gone, exit 3.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { cli } from '../support/cli-in-process.js';
import { loadCatalogue } from '../support/matrix.js';

const KEY = 'Replay-Key_0123456789abcdef';
const { faults } = await loadCatalogue();
let server: ReferenceServer;
let dir: string;
let console: string;

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY, configure: faults.get('chunked-chunks-decoded-apart')!.server });
  dir = await mkdtemp(join(tmpdir(), 'pcs-replay-'));
  // Run as `node bin/petstore-conformance.js` from the project's folder: the replay commands start so.
  const ran = await cli(['run', '--base-url', server.baseUrl, '--seed', '3', '--checks', '^chunked-', '--report-dir', join(dir, 'run')], { env: { PETSTORE_API_KEY: KEY }, cwd: packageRoot, script: 'bin/petstore-conformance.js' });
  expect(ran.code).toBe(1);
  console = ran.stdout;
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The console's lines of a root cause after `label`, their ` \` continuations joined: one sh command. */
const commandAfter = (label: string) => new RegExp(`${label}((?:.* \\\\\\n)*.*)`).exec(console)![1]!.replace(/ \\\n\s*/g, ' ');

describe('a failure that depends on its framing', () => {
  test('the evidence names the split, and the Reproduce line is the tool\'s replay of it', () => {
    const unwrapped = console.replace(/\s+/g, ' ');
    expect(unwrapped).toMatch(/U\+00E9 came back as U\+FFFD U\+FFFD; the body was sent in 3 chunks \(\d+, 2 and \d+ bytes\), split inside U\+00E9 \(after byte 1 of 2\)/);
    expect(commandAfter('Reproduce: ')).toBe(`node bin/petstore-conformance.js replay ${join(dir, 'run', 'report.json')} F1`);
    expect(console).toMatch(/With curl \(one chunk, not 3\): export PETSTORE_API_KEY=/);
  });

  test('pasted, the Reproduce line sends the same chunks and the server damages é again', async () => {
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', commandAfter('Reproduce: ')], { cwd: packageRoot, env: { ...process.env, PETSTORE_API_KEY: KEY } });
    expect(stdout).toMatch(/^Replaying F1 \(chunked-body-created-exactly\): POST http:\/\/127\.0\.0\.1:\d+\/v1\/categories, the body sent in 3 chunks \(\d+, 2 and \d+ bytes\), split inside U\+00E9 \(after byte 1 of 2\)\n/);
    expect(stdout).toMatch(/^HTTP 201 \(as recorded\)$/m);
    expect(stdout).toContain('Caf\ufffd\ufffd');
    expect(stdout).not.toContain(KEY);
  });

  test('near miss: curl\'s line, pasted, sends one chunk and the name comes back whole', async () => {
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', commandAfter('With curl \\(one chunk, not 3\\): ')], { env: { ...process.env, PETSTORE_API_KEY: KEY } });
    expect(stdout).toMatch(/^HTTP\/1\.1 201/);
    expect(stdout).toContain('Café');
    expect(stdout).not.toContain('\ufffd');
  });

  test('report.json holds the replay, run from the report\'s folder, and the chunks', async () => {
    const report = JSON.parse(await readFile(join(dir, 'run', 'report.json'), 'utf8')) as { checks: Array<{ id: string; failure?: { replay?: string; request: { chunks?: number[] } } }> };
    const failure = report.checks.find((check) => check.id === 'chunked-body-created-exactly')!.failure!;
    expect(failure.replay).toBe('node bin/petstore-conformance.js replay report.json chunked-body-created-exactly');
    expect(failure.request.chunks).toHaveLength(3);
  });
});

describe('replay, its inputs', () => {
  const replay = (args: string[], env: NodeJS.ProcessEnv = { PETSTORE_API_KEY: KEY }) => cli(['replay', ...args], { env, cwd: dir });

  test('the folder for its report.json, and a check\'s id for a root cause\'s', async () => {
    const ended = await replay([join(dir, 'run'), 'chunked-body-created-exactly']);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^Replaying chunked-body-created-exactly: POST /);
  });

  test.each([
    ['a root cause the report does not hold', ['run', 'F9'], { PETSTORE_API_KEY: KEY }, /^petstore-conformance: error: the report holds no failure F9 with a request to replay \(its root causes: F1; or give a failed check's id\)\n$/],
    ['a check that passed', ['run', 'chunked-body-answered'], { PETSTORE_API_KEY: KEY }, /^petstore-conformance: error: the report holds no failure chunked-body-answered/],
    ['no key in the environment: nothing sent', ['run', 'F1'], {}, /^petstore-conformance: error: set PETSTORE_API_KEY: the request carries it/],
    ['a file that is no report', ['not-a-report.json', 'F1'], { PETSTORE_API_KEY: KEY }, /^petstore-conformance: error: .*not-a-report\.json is not a report\.json of petstore-conformance\n$/],
    ['no file', ['missing.json', 'F1'], { PETSTORE_API_KEY: KEY }, /^petstore-conformance: error: .*missing\.json/],
  ] as const)('%s: exit 2, one line', async (_what, args, env, line) => {
    await writeFile(join(dir, 'not-a-report.json'), '{"verdict":"x"}');
    const ended = await replay([...args], { ...env });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(line);
    expect(ended.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(ended.stdout).toBe('');
  });

  test('a body recorded truncated cannot be sent as it went: exit 2, naming the run\'s replay', async () => {
    const report = JSON.parse(await readFile(join(dir, 'run', 'report.json'), 'utf8')) as { checks: Array<{ failure?: { request: { bodyBytes?: number } } }> };
    for (const check of report.checks) if (check.failure) check.failure.request.bodyBytes = 5_000_000;
    await writeFile(join(dir, 'cut.json'), JSON.stringify(report));
    const ended = await replay(['cut.json', 'F1']);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/F1 \(chunked-body-created-exactly\)'s body was recorded truncated \(5000000 bytes sent\)/);
  });

  test('near miss of "(as recorded)": an answer that differs from the recorded one names the recorded status', async () => {
    const report = JSON.parse(await readFile(join(dir, 'run', 'report.json'), 'utf8')) as { checks: Array<{ failure?: { response?: { status: number } } }> };
    for (const check of report.checks) if (check.failure?.response) check.failure.response.status = 500;
    await writeFile(join(dir, 'other.json'), JSON.stringify(report));
    const ended = await replay(['other.json', 'F1']);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/^HTTP 201 \(recorded: 500\)$/m);
  });

  test('a target gone: exit 3, no answer said', async () => {
    const report = (await readFile(join(dir, 'run', 'report.json'), 'utf8')).replaceAll(new URL(server.baseUrl).host, '127.0.0.1:9');
    await writeFile(join(dir, 'gone.json'), report);
    const ended = await replay(['gone.json', 'F1']);
    expect(ended.code).toBe(3);
    expect(ended.stdout).toMatch(/^no answer: ECONNREFUSED: /m);
  });
});
