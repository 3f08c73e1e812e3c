/**
 * Every report format from one run against a broken server that echoes the credentials
 * it receives: each file validated against its schema or by its consumer, and the key in
 * none of them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { junitSchemaErrors } from '../support/xml.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import type { Report } from '../../src/report/model.js';
import { runConformance, type RunOutcome } from '../../src/runner/run.js';
import { violations } from '../../src/schema/validators.js';
import validationBeforeAuth from '../faults/validation-before-auth.js';
import { harSchemaErrors } from '../support/har.js';

const run = promisify(execFile);
const KEY = 'Reports-Key_0123456789abcdefXYZ';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the screenshot of the failing run's HTML report is kept (git ignores reports/). */
export const SCREENSHOT = join(ROOT, 'reports', 'screenshots', 'failing-run.png');

/** Echoes every Authorization header it receives in its error messages and headers. */
const echoesCredentials: Variation = (base) => ({
  unauthorized(req) {
    const reply = base.unauthorized(req);
    return {
      ...reply,
      headers: { ...reply.headers, 'x-received-authorization': String(req.headers.authorization) },
      body: { ...(reply.body as object), message: `rejected credentials: ${req.headers.authorization}` },
    };
  },
});

let server: ReferenceServer;
let outcome: RunOutcome;
let dir: string;
const file = (name: string) => readFile(join(dir, name), 'utf8');

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY, variations: [validationBeforeAuth.variation, echoesCredentials] });
  dir = await mkdtemp(join(tmpdir(), 'pcs-reports-'));
  outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: KEY, reportDir: dir, out: null, seed: 11 });
}, 60_000);

afterAll(async () => {
  await server.close();
});

test('one run writes every format', async () => {
  expect((await readdir(dir)).sort()).toEqual(['exchanges.har', 'junit.xml', 'report.html', 'report.json', 'summary.md']);
  expect(outcome.report.verdict).toBe('nonconformant');
});

test('the key appears in no file, though the server echoed every credential back', async () => {
  const fragments = [KEY, KEY.slice(0, 12), KEY.slice(-12), KEY.slice(0, -1), KEY.toLowerCase()];
  for (const name of await readdir(dir)) {
    const text = await file(name);
    for (const fragment of fragments) expect(text, `${name} holds key material`).not.toContain(fragment);
  }
  expect(await file('exchanges.har')).toContain('rejected credentials: Bearer ${PETSTORE_API_KEY');
});

test('report.json is valid against its own schema, with a requirement matrix and the out-of-scope list', async () => {
  const report = JSON.parse(await file('report.json')) as Report;
  expect(violations('Report', report)).toEqual([]);
  expect(report.reportVersion).toMatch(/^1\./);
  expect(report.requirements.find((r) => r.id === 'R-4.2-R3')?.outcome).toBe('failed');
  expect(report.requirements.find((r) => r.id === 'R-9-R2')?.outcome).toBe('inapplicable');
  expect(report.outOfScope.map((o) => o.clause)).toEqual(['1', '2', '3', '4.3', '5', '6', '7', '8']);
  expect(report.settings).toMatchObject({ seed: 11, profile: 'full' });
});

// In CI (.ci/run sets CI and installs Chromium) a missing browser fails, never skips.
test.runIf(process.env.CI)('CI has the browser the screenshot test needs: Chromium', () => {
  expect(existsSync('/usr/bin/chromium')).toBe(true);
});

test('junit.xml is valid against the JUnit XSD, with CI conventions', async () => {
  const xml = await file('junit.xml');
  expect(await junitSchemaErrors(xml)).toEqual([]);
  expect(xml.match(/<testcase /g)?.length).toBe(outcome.report.checks.length);
  expect(xml).toMatch(/<testcase name="create-401-missing \(4\.2\/R3\)" classname="petstore_conformance\.section_4_2" time="\d+\.\d{3}">/);
  expect(xml).toContain('<failure message="with a body lacking name: Expected status 401, received 400');
  expect(xml).toContain('Reproduce: curl -sS -i');
  expect(xml).toMatch(/<testsuite name="section 7" tests="3" failures="0"/);
});

test('exchanges.har is valid HAR 1.2 holding every exchange', async () => {
  const har = JSON.parse(await file('exchanges.har'));
  expect(await harSchemaErrors(har)).toEqual([]);
  expect(har.log.entries.length).toBe(outcome.report.summary.requests);
});

test('summary.md states the verdict and the failed must checks', async () => {
  const md = await file('summary.md');
  expect(md).toMatch(/^## ❌ Pet Store conformance: NONCONFORMANT\n/);
  expect(md).toContain('| `create-401-missing` | must | 4.2/R3 |');
  // The replay carries what changes what is sent: off loopback the default profile is read-only.
  expect(md).toMatch(/Replay: `petstore-conformance run --base-url \S+ --profile full --seed 11`/);
  expect(md).toContain('--seed 11');
});

test("a failure's curl command reproduces it", async () => {
  const failure = outcome.report.checks.find((c) => c.id === 'create-401-unknown-key')!.failure!;
  const { stdout } = await run('bash', ['-c', failure.curl!], { env: { ...process.env, PETSTORE_API_KEY: KEY } });
  expect(stdout).toMatch(new RegExp(`^HTTP/1\\.1 ${failure.response!.status} `));
});

test('a curl command with a derived credential replays it exactly, as bash expands it', async () => {
  const check = outcome.report.checks.find((c) => c.id === 'create-401-key-char-removed')!;
  const curl = check.failure!.curl!;
  expect(curl).toContain('"authorization: Bearer ${PETSTORE_API_KEY%?}"');
  const { stdout } = await run('bash', ['-c', `${curl} -o /dev/null -w '%{http_code}'`], { env: { ...process.env, PETSTORE_API_KEY: KEY } });
  expect(stdout).toBe(String(check.failure!.response!.status));
});

describe('report.html', () => {
  const browser = '/usr/bin/chromium';
  const available = existsSync(browser);

  // Outside CI, a machine without Chromium skips this one test, and says so.
  if (!available) console.log(`report.html screenshot test skipped: no Chromium at ${browser} (apt-get install chromium); CI installs it`);
  test.skipIf(!available)('loads with no console errors and no outgoing requests, and is screenshot', async () => {
    const instance = await chromium.launch({
      executablePath: browser,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await instance.newPage({ viewport: { width: 1200, height: 1400 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('request', (request) => requests.push(request.url()));
      const url = `file://${join(dir, 'report.html')}`;
      await page.goto(url, { waitUntil: 'load' });
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      expect(await page.locator('h1').first().textContent()).toBe('NONCONFORMANT');
      // Navigable: a table of contents whose every link has its target, root causes first.
      const anchors = await page.locator('nav.toc a').evaluateAll((links) => links.map((a) => (a as unknown as { hash: string }).hash));
      expect(anchors[0]).toBe('#root-causes');
      for (const hash of anchors) expect(await page.locator(hash).count(), hash).toBe(1);
      // must, should and info in distinct colours; the received status highlighted in each failure.
      const colour = (level: string) =>
        page.locator(`.lv-${level}`).first().evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
      expect(new Set([await colour('must'), await colour('should'), await colour('info')]).size).toBe(3);
      expect(await page.locator('.card .status').first().textContent()).toMatch(/^HTTP \d{3}$/);
      expect(await page.locator('#failures ~ .card').count()).toBe(outcome.report.checks.filter((c) => c.status === 'failed').length + outcome.report.checks.filter((c) => c.status === 'error' && c.level === 'must').length);
      await mkdir(join(ROOT, 'reports', 'screenshots'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      expect(existsSync(SCREENSHOT)).toBe(true);
    } finally {
      await instance.close();
    }
  }, 60_000);
});

test('--format writes only the formats asked for', async () => {
  const only = await mkdtemp(join(tmpdir(), 'pcs-formats-'));
  const result = await runConformance({ reportDir: only, formats: ['json', 'md'], out: null, checkFilter: '^list-answers' });
  expect((await readdir(only)).sort()).toEqual(['report.json', 'summary.md']);
  expect(result.written.map((p) => p.split('/').pop())).toEqual(['report.json', 'summary.md']);
});

describe('traceability', () => {
  test('every must requirement that can be tested has a must check, and every check names a requirement', () => {
    const reference = outcome.report;
    for (const requirement of reference.requirements.filter((r) => r.level === 'must' && !r.inapplicable)) {
      expect(requirement.checks.filter((c) => c.level === 'must').length, requirement.id).toBeGreaterThan(0);
    }
    for (const check of reference.checks) expect(check.requirements.length, check.id).toBeGreaterThan(0);
  });
});

describe('the CI examples', () => {
  const RUNS_SUITE = /petstore-conformance(\.js)? run --base-url/;

  test('the GitHub Actions workflow runs the suite\'s own action at a ref, publishes JUnit, and the action writes the summary, keeps the reports and tells exit 3 apart', async () => {
    const workflow = parseYaml(await readFile(join(ROOT, 'examples/ci/github-actions.yml'), 'utf8'));
    const steps = workflow.jobs.conformance.steps as Array<Record<string, unknown> & { with?: Record<string, unknown> }>;
    const suite = steps.find((step) => /\/petstore-conformance@/.test(String(step.uses)))!;
    expect(String(suite.uses)).toMatch(/@[\w.-]+$/);
    expect(suite.with?.['api-key']).toBe('${{ secrets.PETSTORE_API_KEY }}');
    expect(workflow.permissions.checks).toBe('write');
    expect(steps.find((step) => String(step.uses).startsWith('mikepenz/action-junit-report@'))?.with?.report_paths).toBe('${{ steps.conformance.outputs.report-dir }}/junit.xml');
    const action = await readFile(join(ROOT, 'action.yml'), 'utf8');
    expect(action).toMatch(/if \[ "\$code" -eq 3 \] && \[ "\$NOT_ASSESSABLE_FAILS" != "true" \]/);
    expect(action).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(action).toMatch(/uses: actions\/upload-artifact@v\d+/);
    expect(Number(/node-version: (\d+)/.exec(action)?.[1])).toBeGreaterThanOrEqual(22);
  });

  test('the action\'s run step, run by bash as a runner runs it: without a base URL, a conformant self-test (exit 0) with its outputs and job summary', async () => {
    const action = parseYaml(await readFile(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Array<{ id?: string; run?: string; env?: Record<string, string> }> } };
    const step = action.runs.steps.find((candidate) => candidate.id === 'run')!;
    const dir = await mkdtemp(join(tmpdir(), 'pcs-action-'));
    try {
      const inputs: Record<string, string> = { 'api-key': '', 'base-url': '', profile: '', 'known-failures': '', strict: 'false', args: '--seed 1', 'report-dir': join(dir, 'reports'), 'not-assessable-fails': 'false' };
      const env = Object.fromEntries(Object.entries(step.env!).map(([name, value]) => [name, inputs[/inputs\.([\w-]+)/.exec(value)![1]!]!]));
      const code = await new Promise<number>((resolve) =>
        execFile('bash', ['-e', '-c', step.run!], { env: { ...process.env, ...env, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') } }, (error) => resolve(error ? Number(error.code) : 0)),
      );
      expect(code).toBe(0);
      expect(await readFile(join(dir, 'output'), 'utf8')).toBe('exit-code=0\nverdict=conformant\n');
      expect(await readFile(join(dir, 'summary'), 'utf8')).toContain('CONFORMANT');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the GitLab CI job runs the suite at a ref on a supported Node, allows exit 3 as its own outcome, keeps JUnit and the reports', async () => {
    const pipeline = parseYaml(await readFile(join(ROOT, 'examples/ci/gitlab-ci.yml'), 'utf8'));
    const job = pipeline.conformance;
    expect(job.script.join('\n')).toMatch(RUNS_SUITE);
    expect(job.variables.SUITE_REF).toMatch(/^[\w./-]+$/);
    expect(Number(/^node:(\d+)/.exec(job.image)?.[1])).toBeGreaterThanOrEqual(22);
    expect(job.allow_failure).toEqual({ exit_codes: [3] });
    expect(job.artifacts.reports.junit).toBe('reports/ci/junit.xml');
    expect(job.artifacts.when).toBe('always');
  });

  test('the GitHub Actions fleet workflow: a matrix of shards, each keeping its reports, and a merge job that gates on the fleet', async () => {
    const workflow = parseYaml(await readFile(join(ROOT, 'examples/ci/github-actions-fleet.yml'), 'utf8'));
    const { shard, merge } = workflow.jobs;
    const shards = shard.strategy.matrix.shard as number[];
    expect(shard.strategy['fail-fast']).toBe(false);
    const check = (shard.steps as Array<{ run?: string }>).find((step) => /run --targets all/.test(String(step.run)))!;
    expect(check.run).toContain(`--shard "\${{ matrix.shard }}/${shards.length}"`);
    expect(JSON.stringify(shard.steps)).toContain('conformance-shard-${{ matrix.shard }}');
    expect(merge.needs).toBe('shard');
    expect(merge.if).toBe('always()');
    const steps = merge.steps as Array<Record<string, unknown> & { with?: Record<string, unknown> }>;
    expect(steps.find((step) => String(step.uses).startsWith('actions/download-artifact@'))?.with?.pattern).toBe('conformance-shard-*');
    expect(String(steps.find((step) => String(step.run).includes(' merge '))?.run)).toMatch(/merge reports\/shards\/\* --report-dir reports\/fleet[\s\S]*if \[ "\$code" -eq 3 \]/);
    expect(steps.find((step) => String(step.uses).startsWith('mikepenz/action-junit-report@'))?.with?.report_paths).toBe('reports/fleet/junit.xml');
    expect(workflow.permissions.checks).toBe('write');
  });

  test('the GitLab fleet pipeline: parallel: matrix shards, then a gate job that merges them, exit 3 allowed', async () => {
    const pipeline = parseYaml(await readFile(join(ROOT, 'examples/ci/gitlab-ci-fleet.yml'), 'utf8'));
    const shard = pipeline['conformance-shard'];
    const indexes = shard.parallel.matrix[0].SHARD_INDEX as string[];
    expect(shard.script.join('\n')).toContain(`--shard "$SHARD_INDEX/${indexes.length}"`);
    const gate = pipeline['conformance-gate'];
    expect(gate.needs).toEqual(['conformance-shard']);
    expect(gate.when).toBe('always');
    expect(gate.script.join('\n')).toMatch(/merge reports\/shard-\* --report-dir reports\/fleet/);
    expect(gate.allow_failure).toEqual({ exit_codes: [3] });
    expect(gate.artifacts.reports.junit).toBe('reports/fleet/junit.xml');
    expect(Number(/^node:(\d+)/.exec(pipeline['.suite'].image)?.[1])).toBeGreaterThanOrEqual(22);
  });
});
