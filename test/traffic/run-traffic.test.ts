/**
 * `run --traffic`: an active run and a judged capture in one report, coverage the union of
 * both, for an auditor whose read-only key cannot create.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { runConformance } from '../../src/runner/run.js';
import { violations } from '../../src/schema/validators.js';
import { entry, writeHar } from '../support/har.js';

let dir: string;
let server: ReferenceServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-run-traffic-'));
  server = await startReferenceServer();
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A capture of the server's own clients: a create, then a list that shows (or, when `lost`, lacks) it. */
async function capture(name: string, lost: boolean): Promise<string> {
  const url = `${server.baseUrl}/categories`;
  const authorization = `Bearer ${server.apiKey}`;
  const created = { id: 9001, name: 'Made by a client', description: 'through the shop' };
  return writeHar(dir, name, [
    entry({ url, authorization, requestBody: JSON.stringify({ name: created.name, description: created.description }), status: 201, responseBody: JSON.stringify(created), startMs: 0 }),
    entry({ url, authorization, status: 200, responseBody: JSON.stringify(lost ? [] : [created]), startMs: 100 }),
  ]);
}

test('read-only and a capture: the headline states both parts, their numbers add up, and report.json is valid', async () => {
  const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, profile: 'read-only', traffic: [await capture('fine.har', false)], reportDir: join(dir, 'fine'), formats: ['json'], out: null });
  const { report } = outcome;
  expect(outcome.exitCode).toBe(0);
  const { must, ran, untested, traffic } = report.coverage;
  expect(ran + untested).toBe(must);
  expect(traffic).toBeGreaterThan(0);
  expect(report.headline).toBe(`CONFORMANT: ${ran - traffic!} must checks ran actively, ${traffic} more were judged on 2 captured exchanges, ${untested} untested`);
  const listed = report.checks.find((check) => check.id === 'create-listed')!;
  expect(listed).toMatchObject({ status: 'passed', traffic: { exchanges: 1, failures: 0, alone: true } });
  const both = report.checks.find((check) => check.id === 'list-answers-200-array')!;
  expect(both.traffic?.alone).toBe(false);
  expect(report.settings.traffic).toHaveLength(1);
  expect(violations('Report', JSON.parse(await readFile(join(dir, 'fine', 'report.json'), 'utf8')))).toEqual([]);
});

test('a capture showing a lost create makes a read-only run that passed actively nonconformant (exit 1)', async () => {
  const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, profile: 'read-only', traffic: [await capture('lost.har', true)], reportDir: null, out: null });
  expect(outcome.exitCode).toBe(1);
  expect(outcome.report.checks.find((check) => check.id === 'create-listed')).toMatchObject({ status: 'failed', failure: { message: expect.stringMatching(/Expected id 9001 .* not found/) } });
});

test('a capture of another target is refused before anything is sent', async () => {
  const elsewhere = await writeHar(dir, 'elsewhere.har', [entry({ status: 200, responseBody: '[]' })]);
  await expect(runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, traffic: [elsewhere], reportDir: null, out: null })).rejects.toMatchObject({
    code: 'PCS_USAGE',
    message: expect.stringMatching(/^--traffic: no exchange of the interface at .* they went to https:\/\/petstore\.example\/v1 \(1\): check --base-url$/),
  });
});
