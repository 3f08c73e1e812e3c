/**
 * A capture as a browser records it: Playwright's `recordHar` of a small page whose script
 * lists and creates categories, judged by `judge`. It runs where Chromium is installed (CI
 * installs it) and skips elsewhere with a line that says so.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { judgeCapture } from '../../src/traffic/judge-capture.js';
import { loadCatalogue } from '../support/matrix.js';
import { CHECKS } from '../support/checks.js';

const BROWSER = '/usr/bin/chromium';
const available = existsSync(BROWSER);
if (!available) console.log(`browser capture test skipped: no Chromium at ${BROWSER} (apt-get install chromium); CI installs it`);

/** The page's script: what a small frontend does with the interface. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>categories</title><script>
(async () => {
  const auth = { authorization: 'Bearer ' + window.KEY };
  const json = { ...auth, 'content-type': 'application/json' };
  // Each answer is read, as a frontend reads it: a browser keeps the bodies it read.
  const send = async (init) => (await fetch('/v1/categories', init)).text();
  await send({ headers: auth });
  await send({ method: 'POST', headers: json, body: JSON.stringify({ name: 'Chats 🐈', description: 'from the browser' }) });
  await send({ method: 'POST', headers: json, body: JSON.stringify({ description: 'no name' }) });
  await send({});
  await send({ headers: auth });
  // One answer left unread: its body is not in the capture, and the judge says so.
  await fetch('/v1/categories', { headers: auth });
  document.title = 'done';
})();
</script>`;

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'pcs-browser-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Records the page's traffic against a reference server shaped by `variations`; returns the HAR, the server's base URL and key. */
async function record(name: string, variations: Variation[] = []) {
  const server = await startReferenceServer({ variations });
  const har = join(dir, `${name}.har`);
  const browser = await chromium.launch({ executablePath: BROWSER, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'] });
  try {
    const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
    const page = await context.newPage();
    const origin = new URL(server.baseUrl).origin;
    // The page comes from the API's own origin (no CORS), served by the browser's router; the key reaches it as a global, never in a URL.
    await page.route(`${origin}/app.html`, (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
    await page.addInitScript((key) => ((globalThis as unknown as { KEY: string }).KEY = key), server.apiKey);
    await page.goto(`${origin}/app.html`);
    await page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title === 'done');
    await context.close();
    return { har, baseUrl: server.baseUrl, apiKey: server.apiKey };
  } finally {
    await browser.close();
    await server.close();
  }
}

describe.skipIf(!available)('a capture recorded by a browser (Playwright recordHar)', () => {
  test('of a correct server: conformant within the traffic, the page left alone, the key in no report', async () => {
    const { har, baseUrl, apiKey } = await record('correct');
    const reportDir = join(dir, 'correct-report');
    const outcome = await judgeCapture({ checks: CHECKS, files: [har], baseUrl, apiKey, reportDir, formats: ['json', 'junit', 'html', 'md'], out: null });
    expect(outcome.report.verdict, outcome.report.verdictReason).toBe('conformant');
    expect(outcome.report.traffic).toMatchObject({ judged: 6, other: 1 });
    const judged = new Map(outcome.report.checks.map((check) => [check.id, check.status]));
    expect([judged.get('create-unicode'), judged.get('create-rejects-missing-name'), judged.get('list-401-missing'), judged.get('create-listed')]).toEqual(['passed', 'passed', 'passed', 'passed']);
    for (const file of await readdir(reportDir)) expect(await readFile(join(reportDir, file), 'utf8'), file).not.toContain(apiKey);
  }, 60_000);

  test('of a server that drops descriptions: nonconformant, the create named; the list after it is not held to a create already wrong, as an active run holds it', async () => {
    const { faults } = await loadCatalogue();
    const { har, baseUrl } = await record('faulty', [faults.get('description-dropped')!.variation]);
    const outcome = await judgeCapture({ checks: CHECKS, files: [har], baseUrl, reportDir: null, formats: ['json'], out: null });
    expect(outcome.exitCode).toBe(1);
    const failed = outcome.report.checks.filter((check) => check.status === 'failed').map((check) => check.id);
    expect(failed).toEqual(expect.arrayContaining(['create-with-description']));
    expect(failed).not.toContain('create-listed');
  }, 60_000);
});
