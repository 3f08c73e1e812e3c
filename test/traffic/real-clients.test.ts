/**
 * Real clients through the validating proxy, in front of correct servers: each request
 * they write that the suite never sends (a form post from httpie and Python requests, a
 * keyless upload past the largest body from curl, a browser's CORS preflight) is held only
 * to what holds for any request (src/check/premises.ts), so every verdict is conformant.
 * Each client skips where it is not installed, saying so; CI installs them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LARGEST_BODY_BYTES } from '../../src/http/request-variations.js';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer } from '../../src/reference/server.js';
import type { JudgeOutcome } from '../../src/traffic/judge-capture.js';
import { runProxySession } from '../../src/traffic/proxy-session.js';
import { CHECKS } from '../support/checks.js';
import { loadCatalogue } from '../support/matrix.js';

const run = promisify(execFile);
/** A client: the program it runs (Python requests: the Debian package's module), and whether it is installed here. */
const CLIENTS = { curl: '/usr/bin/curl', httpie: '/usr/bin/http', requests: '/usr/lib/python3/dist-packages/requests', chromium: '/usr/bin/chromium' } as const;
const installed = (client: keyof typeof CLIENTS) => existsSync(CLIENTS[client]);
for (const client of Object.keys(CLIENTS) as Array<keyof typeof CLIENTS>) {
  if (!installed(client)) console.log(`real clients: ${client} skipped, not installed at ${CLIENTS[client]}; CI installs it`);
}

let dir: string;
let upload: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-clients-'));
  // One and a half MB of JSON: past the largest body the suite sends.
  upload = join(dir, 'upload.json');
  await writeFile(upload, JSON.stringify({ name: 'x'.repeat(Math.ceil(LARGEST_BODY_BYTES * 1.5)) }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each client's requests, sent to `url` (the proxy's base URL) with the key in `PETSTORE_API_KEY`: the key never in argv. */
async function clients(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const opts = { env, maxBuffer: 8 * 1024 * 1024 };
  const sh = (script: string) => run('bash', ['-c', script], opts);
  if (installed('curl')) {
    await sh(`curl -sS -o /dev/null -H "Authorization: Bearer $PETSTORE_API_KEY" '${url}/categories'`);
    await sh(`curl -sS -o /dev/null -H "Authorization: Bearer $PETSTORE_API_KEY" -H 'Content-Type: application/json' -d '{"name":"Cats from curl"}' '${url}/categories'`);
    // Keyless, 1.5 MB: a server may refuse the size (413) before it looks at the key.
    await sh(`curl -sS -o /dev/null -H 'Content-Type: application/json' --data-binary @'${upload}' '${url}/categories'`);
  }
  if (installed('httpie')) {
    await sh(`http --ignore-stdin --print= --form POST '${url}/categories' name='Cats from httpie' "Authorization:Bearer $PETSTORE_API_KEY"`);
    await sh(`http --ignore-stdin --print= --form POST '${url}/categories' name='Cats from httpie'`);
  }
  if (installed('requests')) {
    const python = `import os, requests
u = '${url}/categories'
k = {'Authorization': 'Bearer ' + os.environ['PETSTORE_API_KEY']}
requests.post(u, data={'name': 'Cats from requests'}, headers=k)
requests.post(u, data={'name': 'Cats from requests'})
requests.get(u, headers=k)`;
    await run('/usr/bin/python3', ['-c', python], opts); // Debian's, which reads dist-packages
  }
  if (installed('chromium')) await preflights(url, env.PETSTORE_API_KEY!);
}

/** A page on another origin calls the API with the key: the browser sends a CORS preflight first (Fetch standard §4.8). */
async function preflights(url: string, key: string): Promise<void> {
  const { chromium } = await import('playwright-core');
  const page = `<!doctype html><script>fetch(${JSON.stringify(`${url}/categories`)}, { headers: { authorization: 'Bearer ' + ${JSON.stringify(key)} } }).catch(() => {}).finally(() => (document.title = 'done'));</script>`;
  const app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({ executablePath: CLIENTS.chromium, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'] });
  try {
    const tab = await browser.newPage();
    // Another origin than the proxy's: localhost against 127.0.0.1.
    await tab.goto(`http://localhost:${(app.address() as AddressInfo).port}/`);
    await tab.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title === 'done');
  } finally {
    await browser.close();
    await new Promise((resolve) => app.close(resolve));
  }
}

/** The clients through a proxy session in front of a reference server shaped by `variations`; the session's outcome. */
async function throughProxy(variations: Variation[]): Promise<JudgeOutcome> {
  const server = await startReferenceServer({ variations });
  const stop = new AbortController();
  try {
    let listening!: (url: string) => void;
    const url = new Promise<string>((resolve) => (listening = resolve));
    const session = runProxySession({ checks: CHECKS, baseUrl: server.baseUrl, apiKey: server.apiKey, host: '127.0.0.1', port: 0, stop: stop.signal, reportDir: null, formats: ['json'], out: null, onListening: (proxy) => listening(proxy.baseUrl) });
    await clients(await url, { PATH: process.env.PATH, HOME: dir, PETSTORE_API_KEY: server.apiKey });
    stop.abort('the clients are done');
    return await session;
  } finally {
    await server.close();
  }
}

describe.skipIf(!installed('curl'))('real clients through the proxy, in front of correct servers', async () => {
  const { variants } = await loadCatalogue();
  test.each([
    ['the reference server', []],
    ['a server that refuses other media types with 415 before the key', [variants.get('refuses-other-media-types')!.variation]],
    ["a server behind nginx's default body limit, 413 before the key", [variants.get('size-limit-before-auth')!.variation]],
  ] as const)('%s: conformant', async (_name, variations) => {
    const { report } = await throughProxy([...variations]);
    expect(report.verdict, report.verdictReason).toBe('conformant');
    expect(report.checks.filter((check) => check.level === 'must' && check.status === 'failed')).toEqual([]);
    if (installed('chromium')) expect(report.checks.find((check) => check.id === 'cors-preflight-answered')!.failure?.message).toMatch(/An OPTIONS preflight was answered 401: a page on another origin cannot call the API/);
  }, 60_000);
});
