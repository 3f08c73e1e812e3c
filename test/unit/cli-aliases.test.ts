import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import type { Report } from '../../src/report/model.js';

let server: ReferenceServer;
let dir: string;
beforeAll(async () => {
  server = await startReferenceServer();
  dir = await mkdtemp(join(tmpdir(), 'pcs-aliases-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI in this process with `args` (no check selected: the probe alone) and returns its exit code, stderr and report. */
async function cli(args: string[]): Promise<{ code: number; stderr: string; report?: Report }> {
  const out = join(dir, String(Math.random()).slice(2));
  let stderr = '';
  const err = new PassThrough().on('data', (chunk) => (stderr += chunk));
  const code = await main(['run', ...args, '--checks', '^nothing$', '--report-dir', out, '--format', 'json', '--quiet'], {
    stdout: new PassThrough().resume(),
    stderr: err,
    env: { PETSTORE_API_KEY: server.apiKey },
    cwd: dir,
  });
  const report = await readFile(join(out, 'report.json'), 'utf8').then((text) => JSON.parse(text) as Report, () => undefined);
  return { code, stderr, report };
}

describe('the flags users of neighbouring tools type', () => {
  test('-u and --url (Schemathesis) name the base URL, as --base-url does', async () => {
    for (const flag of ['--base-url', '--url', '-u']) {
      const { report } = await cli([flag, server.baseUrl]);
      expect(report?.target, flag).toEqual({ baseUrl: server.baseUrl, kind: 'external' });
    }
  });

  test('--url beside --base-url is a usage error (exit 2), not a silent choice', async () => {
    const { code, stderr, report } = await cli(['--url', server.baseUrl, '--base-url', server.baseUrl]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^petstore-conformance: error: --url and --base-url name the same setting: give one/);
    expect(report).toBeUndefined();
  });

  test('-k (curl) is --insecure, recorded in report.json; without it, verification stays on', async () => {
    for (const flag of ['-k', '--insecure']) expect((await cli(['-u', server.baseUrl, flag])).report?.settings.insecure, flag).toBe(true);
    expect((await cli(['-u', server.baseUrl])).report?.settings.insecure).toBe(false);
  });

  test('-H (curl, httpie, Schemathesis) adds a header as --header does, and both together add both', async () => {
    const { report } = await cli(['-u', server.baseUrl, '-H', 'X-Tenant: blue', '--header', 'X-Team: red']);
    expect(report?.settings.headers).toEqual(['X-Tenant: blue', 'X-Team: red']);
  });
});

describe('judge and proxy take the base URL as run does', () => {
  test('--url and -u stand for --base-url; none of them is a usage error naming the flag', async () => {
    const judge = async (args: string[]) => {
      let stderr = '';
      const code = await main(['judge', join(dir, 'no-such.har'), ...args], {
        stdout: new PassThrough().resume(),
        stderr: new PassThrough().on('data', (chunk) => (stderr += chunk)),
        env: {},
        cwd: dir,
      });
      return { code, stderr };
    };
    // Given: the capture is read (and is missing), so the base URL was taken.
    for (const flag of ['--base-url', '--url', '-u']) expect(await judge([flag, 'http://127.0.0.1:9/v1'])).toEqual({ code: 2, stderr: expect.stringMatching(/cannot read the capture .*no-such\.har/) });
    expect(await judge([])).toEqual({ code: 2, stderr: "petstore-conformance: error: required option '-u, --base-url <url>' not specified\n" });
  });
});
