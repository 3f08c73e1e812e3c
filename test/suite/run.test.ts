import { readFile, readlink } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import type { Report } from '../../src/report/model.js';
import { deriveSeed } from '../../src/check/seed.js';
import { defaultReportDir } from '../../src/report/report-dir.js';
import { runConformance } from '../../src/runner/run.js';
import { countingRequests, delayedBy, runAgainst } from '../support/targets.js';
import { unwrapped } from '../support/cli-child.js';
import { missingFromRecord } from '../support/in-record.js';

/** Collects console output. */
function sink(): PassThrough & { text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(stream, { text: () => text });
}

describe('a run against the embedded reference server', async () => {
  const dir = defaultReportDir(await mkdtemp(join(tmpdir(), 'pcs-')), new Date());
  const out = sink();
  const outcome = await runConformance({ reportDir: dir, linkLatest: true, out });
  const onDisk = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;

  test('is conformant with every check passed, exit 0', () => {
    expect(outcome.exitCode).toBe(0);
    expect(outcome.report.verdict).toBe('conformant');
    expect(outcome.report.checks.filter((c) => c.status !== 'passed')).toEqual([]);
  });

  test('stops the embedded server it started: its port refuses connections once the run has ended', async () => {
    const { connect } = await import('node:net');
    const { hostname, port } = new URL(onDisk.target.baseUrl);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => (socket.destroy(), resolve('connected')));
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  test('each property-based check reports its property: the seed it drew from, its runs and shrinks', () => {
    const properties = onDisk.checks.filter((check) => check.property).map((check) => [check.id, check.property]);
    expect(properties.map(([id]) => id).sort()).toEqual(['auth-rejects-generated-credentials', 'create-rejects-invalid-bodies', 'create-valid-bodies', 'model-based-sequences']);
    // Each check's own seed, derived from the run's: `--seed` with `--checks` replays it.
    for (const [id, property] of properties) expect(property).toMatchObject({ seed: deriveSeed(onDisk.settings.seed, id as string), numRuns: expect.any(Number), numShrinks: 0 });
  });

  test('writes report.json with the contract fields', () => {
    expect(onDisk.verdict).toBe('conformant');
    expect(onDisk.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(new Date(onDisk.startedAt).toISOString()).toBe(onDisk.startedAt);
    expect(onDisk.durationMs).toBeGreaterThan(0);
    // Where the time went: the start cost, then the requests, within the run's duration.
    expect(onDisk.timing!.firstCheckRequestMs).toBeGreaterThan(0);
    expect(onDisk.timing!.requestsMs).toBeGreaterThan(0);
    expect(onDisk.timing!.firstCheckRequestMs + onDisk.timing!.requestsMs).toBeLessThanOrEqual(onDisk.durationMs + 1);
    expect(onDisk.checks.length).toBeGreaterThanOrEqual(40);
    for (const check of onDisk.checks) {
      expect(check.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(check.clause).toMatch(/^\d+(\.\d+)?(\/R\d+)?$/);
      expect(['must', 'should', 'info']).toContain(check.level);
      expect(['passed', 'failed', 'skipped', 'error']).toContain(check.status);
      expect(check.durationMs).toBeGreaterThanOrEqual(0);
      expect(check.title.length).toBeGreaterThan(10);
    }
    expect(new Set(onDisk.checks.map((c) => c.id)).size).toBe(onDisk.checks.length);
  });

  test('lists every category it created, with exact ids', () => {
    expect(onDisk.created.length).toBeGreaterThanOrEqual(50);
    for (const category of onDisk.created) expect(category.id).toMatch(/^\d+$/);
    expect(new Set(onDisk.created.map((c) => c.id)).size).toBe(onDisk.created.length);
    // Example checks tag their names with the run id; generated names are free text.
    expect(onDisk.created.filter((c) => c.name.startsWith(`pcs-${onDisk.settings.runId} `)).length).toBeGreaterThanOrEqual(20);
  });

  test('counts requests, checks by level, and links reports/latest', async () => {
    // The checks' requests, the probe and the preflight's keyed list.
    expect(onDisk.summary.requests).toBe(onDisk.checks.reduce((n, c) => n + c.requests, 0) + 2);
    expect(onDisk.summary.byLevel.must.passed).toBe(onDisk.checks.filter((c) => c.level === 'must').length);
    expect(await readlink(join(dir, '..', 'latest'))).toBe(dir.split('/').pop());
  });

  test('prints each check and a summary with verdict and report path', () => {
    const text = out.text();
    for (const check of onDisk.checks) expect(text).toContain(check.id);
    expect(text).toMatch(/must\s+\d+ passed/);
    // No base URL: the embedded server was checked, and the headline says so (no green badge).
    expect(text).toContain('Verdict: SELF-TEST (embedded reference server): CONFORMANT');
    expect(onDisk.headline).toBe('SELF-TEST (embedded reference server): CONFORMANT');
    // Where the reports went, in one line, and the page to open last.
    expect(text.trimEnd().split('\n').slice(-2)).toEqual([`Reports: ${dir} (report.json, junit.xml, report.html, summary.md, exchanges.har)`, `Open ${join(dir, 'report.html')}`]);
  });
});

describe('the API key', () => {
  test('never appears in the report or console, even when the server echoes it', async () => {
    // Conformant behaviour (messages are free text), and every credential sent comes back.
    const echo: Variation = (base) => ({
      unauthorized(req) {
        const reply = base.unauthorized(req);
        const body = { ...(reply.body as object), message: `rejected ${req.headers.authorization}` };
        return { ...reply, body, headers: { ...reply.headers, 'x-seen': String(req.headers.authorization) } };
      },
      // Fails list checks on purpose, so failure records quote these echoes too.
      async listCategories(req) {
        return { status: 200, headers: { 'x-key': String(req.headers.authorization) }, body: { echoed: req.headers.authorization } };
      },
    });
    const key = 'EchoedSecretKey0123456789abcdef';
    const { report, console: text } = await runAgainst({ variations: [echo], apiKey: key });
    expect(report.verdict).toBe('nonconformant');
    const written = JSON.stringify(report) + text;
    for (const fragment of [key, key.slice(0, -1), key.slice(0, 12), key.toLowerCase(), key.toUpperCase()]) {
      expect(written).not.toContain(fragment);
    }
    expect(written).toContain('${PETSTORE_API_KEY}');
  });
});

describe('a check never passes on an exchange it did not make', () => {
  // One connection puts every create's reset in a row: a streak, which a keyless list then shows to be the target's answer.
  test.each([{ connections: 1 }, {}])('connections reset on every POST fail every check that posts, whatever the connections (%o); every request the server received is in the record', async (options) => {
    const resetPosts: Variation = (base) => ({
      async respond(req) {
        if (req.method === 'POST') throw Object.assign(new Error('reset'), { reset: true });
        return base.respond(req);
      },
      write(res, reply) {
        if (reply.status === 500) res.socket?.destroy();
        else base.write(res, reply);
      },
    });
    const outcome = await runAgainst({ variations: [resetPosts] }, options);
    const { report, exchanges } = outcome;
    // The streak's keyless list (with one connection) among them.
    expect(missingFromRecord(outcome.heard, outcome, outcome.apiKey)).toEqual([]);
    // auth-path-spellings judges its keyless creates by the keyed list after them, which answers: a reset creates nothing.
    const posting = new Set(exchanges.filter((e) => e.request.method === 'POST' && e.checkId !== 'auth-path-spellings').map((e) => e.checkId));
    expect(posting.size).toBeGreaterThan(20);
    for (const check of report.checks.filter((c) => posting.has(c.id))) {
      expect(check.status, check.id).not.toBe('passed');
    }
    const failure = report.checks.find((c) => c.id === 'create-name-only')?.failure;
    expect(failure?.message).toMatch(/Expected a response, received no response \(CONNECTION_RESET/);
    expect(report.verdict, report.verdictReason).toBe('nonconformant');
    expect(report.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(report.checks.filter((c) => posting.has(c.id) && c.status === 'failed').map((c) => c.id));
  });
});

describe('the first look at the target', () => {
  test('is taken by the check that judges it: with that check filtered out, a create goes out without a list before it', async () => {
    // What the server received: a look sent for a check the filter skipped is in no report.
    const received: string[] = [];
    const heard: Variation = (base) => ({ respond: (req) => (received.push(`${req.method}${req.headers.authorization ? '' : ' keyless'}`), base.respond(req)) });
    const { exchanges } = await runAgainst({ variations: [heard] }, { checkFilter: '^create-name-only$' });
    expect(exchanges.map((exchange) => `${exchange.checkId} ${exchange.request.method}`)).toEqual(['preflight GET', 'create-name-only POST']);
    // The preflight's two (without the key, then with it), then the create.
    expect(received).toEqual(['GET keyless', 'GET', 'POST']);
    // near miss: with it selected, its list goes out before the create
    const both = await runAgainst({}, { checkFilter: '^(create-name-only|list-answers-200-array)$' });
    expect(both.exchanges.filter((exchange) => exchange.checkId !== 'preflight').map((exchange) => exchange.request.method)[0]).toBe('GET');
  });
});

describe('on a terminal', () => {
  test('the status line counts the checks done of the checks the run declares', async () => {
    const out = Object.assign(sink(), { isTTY: true, columns: 120 });
    const { report } = await runConformance({ checkFilter: '^list-401-', reportDir: null, out, color: false });
    const total = report.checks.length;
    expect(total).toBeGreaterThan(3);
    const lines = out.text().split(/\r\u001b\[2K|\n/);
    // Each check's end shows the count of those done, of all: the last shows them all.
    expect(lines.filter((line) => line.startsWith(`1 of ${total} checks · `))).not.toEqual([]);
    expect(lines.filter((line) => line.startsWith(`${total} of ${total} checks · `))).not.toEqual([]);
  });
});

describe('aborting', () => {
  test('an aborted run ends with verdict error and exit 3, with what ran so far; no check sends on', async () => {
    const counting = countingRequests({ holdFrom: 20 });
    // One connection, and the 20th request held: nothing else is on its way when the run is
    // aborted, so any request the server receives after was sent after the abort.
    const server = await startReferenceServer({ variations: [counting.variation] });
    try {
      const abort = new AbortController();
      void counting.reached(20).then(() => abort.abort('interrupted by the user'));
      // Everything but the scope checks of the pets and orders routes and the spellings' invariant, which the filter leaves out.
      const checkFilter = '^[^po]';
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, checkFilter, connections: 1, reportDir: null, out: null, signal: abort.signal });
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdict).toBe('error');
      expect(outcome.report.verdictReason).toBe('the run was aborted: interrupted by the user');
      // The held request was abandoned, and no check under way sent on (a property check
      // would otherwise send its remaining runs).
      expect(counting.received()).toBe(20);
      expect(outcome.exchanges.filter((e) => e.error?.code === 'ABANDONED').map((e) => e.superseded)).toEqual(['abandoned: interrupted by the user']);
      const skipped = outcome.report.checks.filter((c) => c.status === 'skipped');
      const unrun = skipped.filter((c) => !/^(pets|orders|path)-/.test(c.id));
      expect(unrun.length).toBeGreaterThan(0);
      for (const check of unrun) expect(check.reason, check.id).toBe('not run: the run was interrupted');
      expect(skipped.filter((c) => /^(pets|orders|path)-/.test(c.id)).map((c) => c.reason)).toEqual(['not selected', 'not selected', 'not selected', 'not selected']);
    } finally {
      counting.release();
      await server.close();
    }
  });
});

describe('runs at once in one process, with one seed (one run id)', () => {
  test("one's stop is its own: the other, held meanwhile at its 20th request, ends conformant with every check run", async () => {
    // Two servers: the first run's holds its 20th request on, the second's holds every one.
    const [first, second] = [countingRequests({ holdFrom: 20 }), countingRequests({ holdFrom: 1 })];
    const servers = await Promise.all([first, second].map((counting) => startReferenceServer({ variations: [counting.variation] })));
    try {
      const run = (server: ReferenceServer, signal?: AbortSignal) => runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, seed: 7, reportDir: null, out: null, signal });
      const other = run(servers[0]!);
      await first.reached(20);
      const abort = new AbortController();
      const stopping = run(servers[1]!, abort.signal);
      // Stopped once under way (its probe is held), so its stop goes out to its threads: on a channel a run with its id shared.
      await second.reached(1);
      abort.abort('interrupted by the user');
      const stopped = await stopping;
      expect(stopped.report.verdictReason).toBe('the run was aborted: interrupted by the user');
      first.release();
      const { report } = await other;
      expect(report.settings.runId).toBe(stopped.report.settings.runId);
      expect([report.verdict, report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.reason}`)]).toEqual(['conformant', []]);
    } finally {
      for (const counting of [first, second]) counting.release();
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

describe('filters', () => {
  test('--checks runs the matching checks and reports the others skipped', async () => {
    const outcome = await runConformance({ checkFilter: '^list-401-', reportDir: null, out: null });
    const ran = outcome.report.checks.filter((c) => c.status !== 'skipped').map((c) => c.id);
    expect(ran.length).toBe(9);
    expect(ran.every((id) => id.startsWith('list-401-'))).toBe(true);
    expect(outcome.report.checks.find((c) => c.id === 'create-name-only')).toMatchObject({ status: 'skipped', reason: 'not selected' });
    expect(outcome.report.verdict).toBe('conformant');
  });
});

describe('what a check observed', () => {
  test('is in the report only when there is something: no check carries an empty list', async () => {
    const { report } = await runConformance({ checkFilter: '^(list-401-missing|edge-long-name|no-server-error)$', reportDir: null, out: null, seed: 1 });
    const ran = report.checks.filter((check) => check.status !== 'skipped');
    expect(ran.map((check) => check.id).sort()).toEqual(['edge-long-name', 'list-401-missing', 'no-server-error']);
    expect(ran.filter((check) => check.observations !== undefined && check.observations.length === 0).map((check) => check.id)).toEqual([]);
    expect(report.checks.find((check) => check.id === 'list-401-missing')).not.toHaveProperty('observations');
  });
});

describe('--verbose', () => {
  test('prints each exchange under its check; a check that sent none (judged on the run\'s exchanges) gets nothing under it, not a blank line', async () => {
    const { PassThrough } = await import('node:stream');
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk) => (text += chunk));
    await runConformance({ checkFilter: '^(list-401-missing|no-server-error)$', reportDir: null, out, color: false, verbose: true, seed: 1 });
    const lines = text.split('\n');
    const at = (id: string) => lines.findIndex((line) => line.includes(` ${id} `));
    expect(lines[at('list-401-missing') + 1]).toMatch(/^\s+GET \/v1\/categories \[missing\] → 401 /);
    // The check line, then the summary's blank line and "Checks": nothing in between.
    expect(lines.slice(at('no-server-error') + 1, at('no-server-error') + 3)).toEqual(['', 'Checks']);
  });
});

describe('docs/checks.md', () => {
  test('documents every check the suite has', async () => {
    const readme = await readFile(new URL('../../docs/checks.md', import.meta.url), 'utf8');
    const { report } = await runConformance({ checkFilter: '^$', reportDir: null, out: null });
    const documented = (id: string) =>
      readme.includes(`\`${id}\``) || (/^(create|list)-401-/.test(id) && readme.includes(`\`${id.replace(/^(create|list)-401-/, '')}\``));
    expect(report.checks.length).toBeGreaterThan(40);
    expect(report.checks.map((c) => c.id).filter((id) => !documented(id))).toEqual([]);
  });
});

describe('the request budget of a full run', () => {
  /**
   * Requests a full run sends against the embedded server, declared: 411–446 over seeds
   * (2026-11-25), then some 25 more for the path spellings and the deep bodies (issue 44),
   * then 49 more for the grammar of bypasses (issue 57): 514–535 over seeds 1–8.
   * A change that sends more than 10 % more, or 10 % fewer (coverage lost), fails here
   * until the budget is changed with it, on purpose.
   */
  const FULL_RUN_REQUESTS = 525;
  test('seed 1: within 10 % of the budget', async () => {
    const seed = 1;
    const outcome = await runConformance({ reportDir: null, seed, out: null });
    expect(outcome.report.summary.requests).toBeGreaterThanOrEqual(Math.floor(FULL_RUN_REQUESTS * 0.9));
    expect(outcome.report.summary.requests).toBeLessThanOrEqual(Math.ceil(FULL_RUN_REQUESTS * 1.1));
  });
});

describe('the probe, sent by the suite\'s thread', () => {
  test('answers before the run ends, even a run with no check to send: its exchange is the report\'s preflight', async () => {
    // Every check skipped at once, the probe answered 300 ms later: the run waits for it.
    const outcome = await runAgainst({ variations: [delayedBy(300)] }, { checkFilter: '^nothing$' });
    expect(outcome.report.checks.every((check) => check.status === 'skipped')).toBe(true);
    expect(outcome.report.preflight?.response?.status).toBe(401);
    expect(outcome.report.summary.requests).toBe(2); // the probe and the preflight's keyed list
  });
});

describe('the preflight names the user\'s own mistake, in a few lines, before any check sends', () => {
  const KEY = 'the-right-key-0123456789';

  test('a key the target refuses: exit 3, at most 5 lines, no check line, the fix named; near miss: the right key runs', async () => {
    const server = await startReferenceServer({ apiKey: KEY, configure: (http) => void http.on('request', () => received++) });
    let received = 0;
    try {
      const out = sink();
      const refused = await runConformance({ baseUrl: server.baseUrl, apiKey: 'a-wrong-key-0123456789', keySource: 'the environment variable PETSTORE_API_KEY', reportDir: null, out });
      expect(refused.exitCode).toBe(3);
      const lines = out.text().trimEnd().split('\n');
      expect(lines.length).toBeLessThanOrEqual(5);
      expect(out.text()).not.toMatch(/^ {2}[✓✗!i?] /m);
      expect(unwrapped(out.text())).toContain("Verdict: ERROR: the target refuses the key (401 with an Error body): check the environment variable PETSTORE_API_KEY, and that it is this target's key");
      // The probe and the keyed list: nothing else was sent.
      expect(received).toBe(2);
      expect(refused.report.checks).toEqual([]);
      const right = await runConformance({ baseUrl: server.baseUrl, apiKey: KEY, checkFilter: '^list-answers-200-array$', reportDir: null, out: null });
      expect(right.exitCode).toBe(0);
    } finally {
      await server.close();
    }
  });

  test('the wrong service (404 with a web page): exit 3 with the base-URL question, nothing judged', async () => {
    const { startRawServer } = await import('../support/raw-server.js');
    const page = await startRawServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not Found</h1>'));
    try {
      const out = sink();
      const outcome = await runConformance({ baseUrl: page.baseUrl, apiKey: KEY, reportDir: null, out });
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdictReason).toBe(`is the base URL right? GET ${page.baseUrl}/categories answered 404 text/html; charset=utf-8: the base URL ends with the version segment /v1 where the service mounts it`);
      expect(out.text().trimEnd().split('\n').length).toBeLessThanOrEqual(5);
      expect(page.received).toHaveLength(2);
    } finally {
      await page.close();
    }
  });
});

describe('a fleet interrupted', () => {
  test('the checks a stop kept from starting say so, on every target, never "not selected"', async () => {
    const { runFleet } = await import('../../src/runner/fleet.js');
    // Each target's 20th request is held: both are under way when the stop comes.
    const counts = [countingRequests({ holdFrom: 20 }), countingRequests({ holdFrom: 20 })];
    const servers = await Promise.all(counts.map((counting) => startReferenceServer({ variations: [counting.variation] })));
    try {
      const abort = new AbortController();
      void Promise.all(counts.map((counting) => counting.reached(20))).then(() => abort.abort('interrupted by the user'));
      const outcome = await runFleet(
        servers.map((server, i) => ({ targetName: `t${i}`, baseUrl: server.baseUrl, apiKey: server.apiKey, connections: 1 })),
        { reportDir: null, targetConcurrency: 2, signal: abort.signal },
      );
      for (const name of ['t0', 't1']) {
        const reasons = new Set(outcome.reports.get(name)!.checks.filter((check) => check.status === 'skipped').map((check) => check.reason));
        expect([name, [...reasons]]).toEqual([name, ['not run: the run was interrupted']]);
      }
    } finally {
      for (const counting of counts) counting.release();
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});
