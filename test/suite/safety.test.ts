/**
 * Safe to point at production: the read-only profile, budgets, pacing, deadlines and
 * transport, proven at the level of whole runs against local servers.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { SETTINGS } from '../../src/config/settings.js';
import { UNTESTED_READ_ONLY } from '../../src/check/reasons.js';
import { targetAsWritten, type Exchange } from '../../src/core/exchange.js';
import { overriddenMethod } from '../../src/http/method-override.js';
import { RequestGuard } from '../../src/http/safety.js';
import type { RequestSpec } from '../../src/http/request.js';
import type { Reply, Variation } from '../../src/reference/behaviour.js';
import { runConformance } from '../../src/runner/run.js';
import { startRawServer } from '../support/raw-server.js';
import { missingFromRecord } from '../support/in-record.js';
import { delayedBy, HARNESS_DEADLINE_MS, runAgainst, whyNotPassed } from '../support/targets.js';
import { unwrapped } from '../support/cli-child.js';

describe('the read-only profile', () => {
  test('sends no POST at all: a server that stores every POST, whatever its body or header, stores nothing', async () => {
    // Stores first and parses later: any POST, even an unparseable body without a key, becomes a category.
    let posts = 0;
    // It honours every method override too (http/method-override.ts), as Express's method-override and Rails do.
    const storesEveryPost: Variation = (base, { store }) => ({
      async respond(req) {
        const override = overriddenMethod(req.headers as Record<string, string>, req.query.toString());
        if (req.method !== 'POST' && override !== 'POST') return base.respond(req);
        posts++;
        return { status: 201, body: base.represent(store.create({ name: req.body.toString('latin1') })) };
      },
    });
    const outcome = await runAgainst({ variations: [storesEveryPost] }, { profile: 'read-only' });
    expect(posts).toBe(0);
    expect(outcome.created).toBe(0);
    // GET, HEAD and OPTIONS alone, none of them overridden to another method.
    expect(outcome.exchanges.filter(({ request }) => !['GET', 'HEAD', 'OPTIONS'].includes(request.method) || !['GET', 'HEAD', 'OPTIONS', undefined].includes(overriddenMethod(request.headers, targetAsWritten(request.url).query)))).toEqual([]);
    expect(outcome.exchanges.some(({ request }) => request.method === 'HEAD') && outcome.exchanges.some(({ request }) => overriddenMethod(request.headers, targetAsWritten(request.url).query) === 'GET')).toBe(true);
    expect(outcome.report.created).toEqual([]);
  });

  test('the request guard refuses, in a read-only run, a GET whose method override names a write', () => {
    const guard = new RequestGuard({ profile: 'read-only' });
    const overridden = (name: string, value: string, query?: string): RequestSpec => ({ method: 'GET', path: '/categories', credential: { name: 'missing', description: '', placed: { headers: { [name]: { sent: value, shown: value } }, ...(query ? { query: { sent: query, shown: query } } : {}) } } });
    expect(() => guard.admit(overridden('x-http-method-override', 'POST'))).toThrow('the read-only profile forbids GET /categories');
    expect(() => guard.admit(overridden('x-method-override', 'delete'))).toThrow('the read-only profile forbids GET /categories');
    expect(() => guard.admit(overridden('x-other', 'x', '_method=PUT'))).toThrow('the read-only profile forbids GET /categories');
    // Near misses: an override naming a safe method, and a header that overrides nothing.
    expect(() => guard.admit(overridden('x-http-method', 'GET'))).not.toThrow();
    expect(() => guard.admit(overridden('x-forwarded-for', 'POST'))).not.toThrow();
    expect(guard.counts).toEqual({ requests: 2, writes: 0 });
  });

  test('against a correct server: conformant on what it tests, every write check untested', async () => {
    const outcome = await runAgainst({}, { profile: 'read-only' });
    expect(outcome.created).toBe(0);
    expect(outcome.report.verdict).toBe('conformant');
    expect(outcome.report.settings).toMatchObject({ profile: 'read-only', profileSource: 'explicit' });
    const untested = outcome.report.checks.filter((c) => c.reason === UNTESTED_READ_ONLY).map((c) => c.id);
    expect(untested).toContain('create-name-only');
    expect(untested).toContain('model-based-sequences');
    expect(untested).toContain('create-rejects-missing-name');
    expect(untested).toContain('create-401-missing');
    expect(outcome.report.checks.find((c) => c.id === 'list-401-missing')?.status).toBe('passed');
    // The headline states the coverage: a read-only pass is not a full one.
    const must = outcome.report.checks.filter((c) => c.level === 'must');
    const untestedMust = must.filter((c) => c.reason === UNTESTED_READ_ONLY).length;
    const ran = must.filter((c) => c.status !== 'skipped').length;
    expect(untestedMust).toBeGreaterThan(0);
    // The numbers add up: every must check that did not run is untested, whatever kept it (issue 25: 18 ran and 27 untested, of 47).
    expect(outcome.report.coverage).toEqual({ must: must.length, ran, untested: must.length - ran });
    expect(outcome.report.headline).toBe(`CONFORMANT within the read-only profile: ${ran} of ${must.length} must checks ran, ${must.length - ran} untested`);
  });

  test('a partial run (--checks) states its coverage in every headline, never a plain pass (issue 25: it printed CONFORMANT with 1 of 47 run)', async () => {
    const outcome = await runAgainst({}, { checkFilter: '^list-answers' });
    const { must, ran, untested } = outcome.report.coverage;
    expect(ran).toBe(1);
    expect(ran + untested).toBe(must);
    const headline = `CONFORMANT within the checks selected (--checks ^list-answers): 1 of ${must} must checks ran, ${must - 1} untested`;
    expect(outcome.report.headline).toBe(headline);
    expect(unwrapped(outcome.console)).toContain(`Verdict: ${headline}`);
    const { renderSummary } = await import('../../src/report/summary-md.js');
    // A verdict on part of the interface is never green.
    expect(renderSummary(outcome.report).split('\n')[0]).toBe(`## 🟡 Pet Store conformance: ${headline}`);
    const readOnly = await runAgainst({}, { checkFilter: '^list-', profile: 'read-only' });
    expect(readOnly.report.headline).toMatch(/^CONFORMANT within the read-only profile and the checks selected \(--checks \^list-\): \d+ of \d+ must checks ran, \d+ untested$/);
  });

  test('loopback targets default to full, and the report says it was a default', async () => {
    const outcome = await runAgainst({}, { checkFilter: '^create-name-only$' });
    expect(outcome.report.settings).toMatchObject({ profile: 'full', profileSource: 'default' });
    expect(outcome.created).toBe(1);
  });
});

describe('budgets and pacing', () => {
  test('--max-requests stops the run cleanly: exit 3, no request beyond the budget', async () => {
    const outcome = await runAgainst({}, { maxRequests: 30 });
    expect(outcome.exitCode).toBe(3);
    expect(outcome.report.verdictReason).toMatch(/aborted: the request budget \(--max-requests 30\) is spent/);
    expect(outcome.exchanges.length).toBeLessThanOrEqual(30);
    expect(outcome.report.settings.maxRequests).toBe(30);
  });

  test('--max-writes caps what could write, and the server stores no more', async () => {
    const outcome = await runAgainst({}, { maxWrites: 5 });
    expect(outcome.exchanges.filter((e) => e.request.method === 'POST').length).toBeLessThanOrEqual(5);
    expect(outcome.created).toBeLessThanOrEqual(5);
    expect(outcome.report.checks.some((c) => /--max-writes 5/.test(c.reason ?? ''))).toBe(true);
  });

  test('--rate-limit spaces requests, shared across concurrent checks', async () => {
    const outcome = await runAgainst({}, { rateLimit: 20, checkFilter: '^list-401-' });
    const starts = outcome.exchanges.map((e) => Date.parse(e.startedAt)).sort((a, b) => a - b);
    // The checks' eight, and the preflight's two (keyless and keyed, at once).
    expect(starts.length).toBe(10);
    // Eight gaps of 50 ms. A start is stamped after its admission, so on a loaded machine the
    // first may be stamped late: one gap of slack. Unthrottled, the nine take a few ms.
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(7 * 50);
    expect(outcome.report.settings.rateLimit).toBe(20);
  });

  test('the whole-run deadline aborts a slow run: exit 3, and no request starts after it', async () => {
    const outcome = await runAgainst({ variations: [delayedBy(150)] }, { deadlineSeconds: 1 });
    expect(outcome.exitCode).toBe(3);
    expect(outcome.report.verdictReason).toBe("the run was aborted: the run's deadline of 1 s was reached");
    // The guard reads the clock before every request: a late timer lets none through. (An
    // exchange's startedAt is taken just after its admission: 100 ms of slack for a busy loop.)
    // A request the run stopped before it went out is recorded when it was given up: on a
    // loaded machine the preflight itself may come after the deadline, and is not sent.
    const deadline = Date.parse(outcome.report.startedAt) + 1000 + 100;
    const sent = outcome.exchanges.filter((e) => !(e.error?.code === 'ABANDONED' && e.error.message.startsWith('not sent')));
    expect(sent.filter((e) => Date.parse(e.startedAt) >= deadline)).toEqual([]);
  });

  test('a 429 is waited out (Retry-After) and retried', async () => {
    let keyed = 0;
    const throttled: Variation = (base) => ({
      async respond(req) {
        // The preflight's keyed list passes; the next request with the key meets the rate limiter once.
        if (req.headers.authorization !== undefined && ++keyed === 2) return { ...base.error(429, 'rate_limited', 'slow down'), headers: { 'retry-after': '0' } };
        return base.respond(req);
      },
    });
    const outcome = await runAgainst({ variations: [throttled] }, { checkFilter: '^list-answers-200-array$' });
    // The first look (429, then its retry), a create, and the list after it.
    expect(outcome.report.checks.find((c) => c.id === 'list-answers-200-array')).toMatchObject({ status: 'passed', requests: 4 });
    expect(outcome.report.verdict).toBe('conformant');
  });

  test('persistent 429s stop the run: exit 3, no hammering', async () => {
    const overloaded: Variation = (base) => {
      let calls = 0;
      return {
        async respond(req) {
          if (++calls === 1) return base.respond(req); // the preflight
          return { ...base.error(429, 'rate_limited', 'slow down'), headers: { 'retry-after': '0' } };
        },
      };
    };
    // A short patience: the run waits that long on a target that accepts nothing, then stops.
    const outcome = await runAgainst({ variations: [overloaded] }, { patienceSeconds: 2 });
    expect(outcome.exitCode).toBe(3);
    expect(outcome.report.verdictReason).toMatch(/refused every request \(429 or 503\) for .* past the run's patience of 2 s/);
    // Paced down to the floor of the adaptive rate, not hammered.
    expect(outcome.exchanges.length).toBeLessThan(100);
    expect(outcome.report.checks.filter((c) => c.status === 'failed')).toEqual([]);
  });
});

describe('transport', () => {
  test('TLS is verified: a private CA without --ca-file is unreachable, with it the run proceeds', async () => {
    const [key, cert] = await Promise.all(['key', 'cert'].map((f) => readFile(new URL(`../fixtures/tls/${f}.pem`, import.meta.url), 'utf8')));
    const without = await runAgainst({ variations: [], tls: { key: key!, cert: cert! } }, { checkFilter: '^list-answers-200-array$' });
    expect(without.exitCode).toBe(3);
    // The cause, and the fix: the private CA's file, or curl's -k.
    expect(without.report.verdictReason).toMatch(/unreachable: TLS: .*\. A private CA: --ca-file FILE \(or NODE_EXTRA_CA_CERTS\); to skip verification as curl -k does: --insecure, said in every report$/);
    expect(without.report.settings.insecure).toBe(false);
    const withCa = await runAgainst({ variations: [], tls: { key: key!, cert: cert! } }, { checkFilter: '^list-answers-200-array$', caPem: cert });
    expect(withCa.report.verdict).toBe('conformant');
    expect(withCa.report.headline).not.toMatch(/TLS not verified/);
  });

  test.each([
    ['--insecure', { insecure: true }],
    ['NODE_TLS_REJECT_UNAUTHORIZED=0, counted as --insecure', { env: { NODE_TLS_REJECT_UNAUTHORIZED: '0' } }],
  ])('%s: the run proceeds, and the console header, the headline, report.json and summary.md say TLS was not verified', async (_what, options) => {
    const [key, cert] = await Promise.all(['key', 'cert'].map((f) => readFile(new URL(`../fixtures/tls/${f}.pem`, import.meta.url), 'utf8')));
    const dir = await mkdtemp(join(tmpdir(), 'pcs-insecure-'));
    try {
      const outcome = await runAgainst({ variations: [], tls: { key: key!, cert: cert! } }, { checkFilter: '^list-answers-200-array$', ...options, reportDir: dir, formats: ['json', 'md'] });
      expect(outcome.report.verdict).toBe('conformant');
      expect(outcome.report.headline).toMatch(/ \(TLS not verified: --insecure\)$/);
      expect(outcome.report.settings.insecure).toBe(true);
      expect(outcome.console.split('\n').slice(0, 2).join(' ').replace(/ +/g, ' ')).toContain(', TLS not verified (--insecure)');
      expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('(TLS not verified: --insecure)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('near miss: NODE_TLS_REJECT_UNAUTHORIZED set to anything but 0 verifies', async () => {
    const [key, cert] = await Promise.all(['key', 'cert'].map((f) => readFile(new URL(`../fixtures/tls/${f}.pem`, import.meta.url), 'utf8')));
    const outcome = await runAgainst({ variations: [], tls: { key: key!, cert: cert! } }, { checkFilter: '^list-answers-200-array$', env: { NODE_TLS_REJECT_UNAUTHORIZED: '1' } });
    expect(outcome.exitCode).toBe(3);
    expect(outcome.report.settings.insecure).toBe(false);
  });

  test('a redirect to another origin is a finding, and that origin receives nothing', async () => {
    const other = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    try {
      const redirect: Variation = (base) => ({
        async listCategories(req) {
          void base;
          void req;
          return { status: 302, headers: { location: `${other.baseUrl}/categories` } };
        },
      });
      const outcome = await runAgainst({ variations: [redirect] });
      expect(other.received).toEqual([]);
      expect(outcome.report.checks.find((c) => c.id === 'list-answers-200-array')?.failure?.message).toBe(`Expected status 200, received 302, a redirect to ${other.baseUrl}/categories`);
      expect(outcome.exitCode).toBe(1);
    } finally {
      await other.close();
    }
  });
});

/** A variation that misbehaves on authorized list responses only, so the rest can be judged. */
function onLists(misbehave: (res: ServerResponse, reply: Reply) => void): Variation {
  return (base) => ({
    write(res, reply) {
      if (reply.status === 200 && Array.isArray(reply.body)) misbehave(res, reply);
      else base.write(res, reply);
    },
  });
}

describe('hostile or broken servers: findings, never crashes or hangs', () => {
  /**
   * For servers that stall on purpose: the request deadline is what is tested. 3 s, not
   * less: the routes that do answer must answer within it on a loaded CI machine.
   */
  const fast = { timeoutMs: 3000, deadlineSeconds: 120 };

  test('headers then a stall on every list: list checks fail with TIMEOUT, the rest is judged', async () => {
    const stall = onLists((res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('['));
    const outcome = await runAgainst({ variations: [stall] }, fast);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.report.checks.find((c) => c.id === 'list-answers-200-array')?.failure?.message).toMatch(/no response \(TIMEOUT/);
    expect(outcome.report.checks.find((c) => c.id === 'create-name-only')?.status).toBe('passed');
  });

  test('bytes dripped slowly: a TIMEOUT finding at the request deadline', async () => {
    const drip = onLists((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
      res.on('close', () => clearInterval(timer));
    });
    const outcome = await runAgainst({ variations: [drip] }, fast);
    expect(outcome.report.checks.find((c) => c.id === 'list-answers-200-array')?.failure?.message).toMatch(/TIMEOUT/);
    expect(outcome.exitCode).toBe(1);
  });

  test('a 100 MB list: not judged (RESPONSE_TOO_LARGE, a limit of the tool), read no further than the cap', async () => {
    let written = 0;
    const huge = (declared: boolean) =>
      onLists((res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(100 * 1024 * 1024) } : {}) });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 100 && !res.destroyed) {
            sent++;
            written += chunk.byteLength;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
    for (const declared of [true, false]) {
      written = 0;
      // The harness's deadline: this server writes its lists on the test's thread, which a loaded machine starves (HARNESS_DEADLINE_MS).
      const outcome = await runAgainst({ variations: [huge(declared)] }, { maxResponseBytes: 2 * 1024 * 1024, timeoutMs: HARNESS_DEADLINE_MS });
      const list = outcome.report.checks.find((c) => c.id === 'list-answers-200-array');
      expect(list?.status).toBe('error');
      expect(list?.reason).toMatch(/RESPONSE_TOO_LARGE/);
      expect(outcome.exitCode, whyNotPassed(outcome.report)).toBe(3);
      // The server stopped when the client stopped reading: what it wrote fits the lists
      // the run asked for, each read to the cap at most (plus what the sockets buffer).
      const lists = outcome.exchanges.filter((e) => e.request.method === 'GET' && e.credential === 'valid').length;
      expect(written).toBeLessThan(lists * 2 * 1024 * 1024 + lists * 8 * 1024 * 1024);
    }
  });

  test('invalid UTF-8 and HTML instead of JSON: readable failures', async () => {
    const html = onLists((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Categories</body></html>'));
    const garbled = onLists((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x5b, 0xc3, 0x28, 0x5d])));
    const [a, b] = await Promise.all([runAgainst({ variations: [html] }), runAgainst({ variations: [garbled] })]);
    expect(a.report.checks.find((c) => c.id === 'list-answers-200-array')?.failure?.message).toMatch(/not JSON/);
    expect(b.report.checks.find((c) => c.id === 'list-answers-200-array')?.failure?.message).toBe('Expected a UTF-8 JSON body, received invalid UTF-8');
  });

  test('5xx to everything: the run stops after a burst, exit 3, without hammering', async () => {
    const server = await startRawServer((_req, res) => res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Unavailable</h1>'));
    try {
      // Answered at once: no short client deadline, which a loaded machine could miss.
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'k'.repeat(20), reportDir: null, out: null });
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdictReason).toMatch(/50 requests in a row with 5xx/);
      // The burst, then at most one request per connection already on its way, and the probe.
      expect(server.received.length).toBeLessThanOrEqual(50 + SETTINGS.connections.default + 1);
    } finally {
      await server.close();
    }
  });

  test('a server that accepts connections and never answers: exit 3, each route waited for once, every request it received in the record', async () => {
    /** What the server received, bodies included (read as they come, never answered). */
    const requests: Array<{ method: string; url: string; body: string }> = [];
    const server = await startRawServer((req) => {
      const request = { method: req.method!, url: req.url!, body: '' };
      requests.push(request);
      req.setEncoding('utf8').on('data', (chunk: string) => (request.body += chunk));
    });
    try {
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'k'.repeat(20), reportDir: null, out: null, ...fast });
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdictReason).toMatch(/every request failed, first with TIMEOUT/);
      // Reached (it accepted the connections), so judged; but once a route hangs, nothing more is sent on it.
      expect(outcome.report.preflight?.error?.code).toBe('TIMEOUT');
      const route = (e: Exchange) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.credential === 'valid'}`;
      const hungAt = new Map<string, number>();
      // A route hangs at its first timeout on a new connection (a kept-alive one may be what was not served: its request goes again alone on a new one).
      // The preflight is its own: a single timeout there under a loaded machine must not close a route to the checks.
      for (const e of outcome.exchanges.filter((x) => x.error?.code === 'TIMEOUT' && x.connection === 'fresh' && x.checkId !== 'preflight')) {
        const end = Date.parse(e.startedAt) + e.durationMs;
        hungAt.set(route(e), Math.min(hungAt.get(route(e)) ?? Infinity, end));
      }
      expect(hungAt.size).toBeGreaterThan(0);
      // The route is declared hung when its timeout is handled, a moment after the deadline
      // (later on a loaded machine): a request that started in that moment is abandoned then,
      // as blocked. Any other after the deadline would wait for one more.
      const blockedInFlight = (e: Exchange) => e.error?.code === 'ABANDONED' && /^abandoned after \d+ ms: blocked: /.test(e.error.message);
      const sentAfter = outcome.exchanges.filter((e) => e.checkId !== 'preflight' && Date.parse(e.startedAt) > (hungAt.get(route(e)) ?? Infinity) && !blockedInFlight(e));
      expect(sentAfter).toEqual([]);
      // Every request the server received is in the record, told apart from one abandoned before it left.
      expect(requests.length).toBeGreaterThan(10);
      expect(missingFromRecord(requests, outcome, 'k'.repeat(20))).toEqual([]);
      expect(outcome.report.checks.filter((c) => c.level === 'must' && c.status === 'passed')).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
