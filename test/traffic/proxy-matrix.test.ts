/**
 * The validating proxy's slow tests. In front of every correct variant and a sample of
 * faults, with the suite's own active run going through it (a run per server): it finds
 * nothing in front of a correct server and what the run finds in front of a faulty one,
 * without changing the run's verdict. And a connection kept past Node's idle timeout. The
 * proxy's forwarding itself is test/traffic/proxy.test.ts.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Redactor } from '../../src/secrets/redactor.js';
import { judgeTraffic, type JudgeOutcome } from '../../src/traffic/judge-capture.js';
import { startValidatingProxy } from '../../src/traffic/proxy.js';
import { runProxySession } from '../../src/traffic/proxy-session.js';
import type { Fault, CorrectVariant } from '../support/fault.js';
import { loadCatalogue } from '../support/matrix.js';
import { HARNESS_DEADLINE_MS, mapBounded, runAgainst, type TargetShape } from '../support/targets.js';
import { CHECKS } from '../support/checks.js';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'pcs-proxy-matrix-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

let captures = 0;

// Every run through the proxy takes the harness's deadline (test/support/targets.ts), a variant's own included:
// the run, the proxy and the server share this process, four targets at once, 48 requests in flight each.

/**
 * Runs the suite against a server shaped as `shape`, through a proxy session; returns both
 * outcomes and the proxy's HAR. Properties run 3 times past their coverage inputs: the
 * proxy is on trial here, not the generated inputs (the matrix runs them all).
 */
async function throughProxy(shape: TargetShape) {
  const stop = new AbortController();
  let session: Promise<JudgeOutcome> | undefined;
  const har = join(dir, `capture-${++captures}.har`);
  const front: TargetShape['front'] = ({ baseUrl, apiKey }) =>
    new Promise((resolve, reject) => {
      session = runProxySession({ checks: CHECKS, baseUrl, apiKey, host: '127.0.0.1', port: 0, har, stop: stop.signal, reportDir: null, formats: ['json'], out: null, onListening: (proxy) => resolve(proxy.baseUrl) });
      session.catch(reject);
    });
  const active = await runAgainst({ ...shape, front }, { numRuns: 3, timeoutMs: HARNESS_DEADLINE_MS });
  stop.abort('the test is done');
  return { active, proxy: await session!, har };
}

const mustFailed = (report: JudgeOutcome['report']) => report.checks.filter((c) => c.level === 'must' && c.status === 'failed').map((c) => c.id).sort();

describe('the active run through the proxy', async () => {
  const { faults, variants } = await loadCatalogue();
  // Faults of each class the proxy can see: authentication, validation, echo, listing, ids, errors, server errors.
  const SAMPLE = ['missing-header-accepted', 'key-prefix-accepted', 'missing-name-accepted', 'description-dropped', 'list-stale', 'ids-repeated', 'error-status-fixed-400', 'nul-crashes'];

  test('in front of every correct variant: the proxy finds nothing, the run\'s verdict is unchanged, and the proxy\'s HAR judges the same', async () => {
    const outcomes = await mapBounded([...variants] as Array<[string, CorrectVariant]>, 4, async ([name, variant]) => ({ name, ...(await throughProxy({ variations: [variant.variation], firstId: variant.firstId, server: variant.server })) }));
    for (const { name, active, proxy, har } of outcomes) {
      // Why each must check failed, in the message: a rare failure of a correct variant is diagnosed from the log alone.
      const why = active.report.checks.filter((c) => c.level === 'must' && c.status === 'failed').map((c) => `${c.id}: ${c.failure?.message.split('\n', 1)[0]}`);
      expect(active.report.verdict, `${name}: ${active.report.verdictReason}\n${why.join('\n')}`).toBe('conformant');
      expect(mustFailed(proxy.report), `${name}: ${JSON.stringify(proxy.report.checks.filter((c) => c.status === "failed").map((c) => [c.failure?.message.slice(0, 500), c.failure?.request, c.failure?.response]))}`).toEqual([]);
      expect(proxy.report.traffic!.judged, name).toBeGreaterThan(100);
      const rejudged = await judgeTraffic({ checks: CHECKS, files: [har], baseUrl: proxy.report.target.baseUrl }, new Redactor());
      expect(rejudged.checks.filter((c) => c.level === 'must' && c.status === 'failed').map((c) => c.id), name).toEqual([]);
      expect(await readFile(har, 'utf8'), name).not.toContain(active.apiKey);
    }
    // A guard against a hang, not a bound on speed: some 2 minutes alone, past 3.5 with two other vitest runs beside it; pets-hang-when-authorized waits out one deadline.
  }, 900_000);

  test.each(SAMPLE)('in front of the fault %s: both nonconformant, and every must failure of the proxy is one the run or a judge of its own capture finds', async (name) => {
    const fault = faults.get(name) as Fault;
    const { active, proxy } = await throughProxy({ variations: [fault.variation], server: fault.server });
    expect(active.report.verdict).toBe('nonconformant');
    expect(proxy.report.verdict).toBe('nonconformant');
    const activeFailed = new Set(active.report.checks.filter((c) => c.status === 'failed').map((c) => c.id));
    const shared = mustFailed(proxy.report).filter((id) => activeFailed.has(id));
    expect(shared.length, `${name}: proxy ${mustFailed(proxy.report)} vs active ${[...activeFailed]}`).toBeGreaterThan(0);
    // A guard against a hang: some 7 s alone.
  }, 300_000);
});

describe('a client connection lives as long as the target connection it mirrors', () => {
  test('near miss: a target that keeps its connection open past Node’s idle timeout of 5 s: so does the proxy, and a request 7 s later is answered on it', async () => {
    let seen = 0;
    const target = createServer((_req, res) => void (seen++, res.writeHead(200, { 'content-type': 'application/json' }).end('[]')));
    target.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/api/v1`, host: '127.0.0.1', port: 0, onForwarded: () => {} });
    try {
      const client = connect(Number(new URL(proxy.baseUrl).port), '127.0.0.1');
      let received = '';
      let ended = false;
      client.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      client.on('end', () => (ended = true));
      const answers = (count: number) => new Promise<void>((resolve) => { const poll = () => ((received.match(/HTTP\/1\.1 200/g) ?? []).length >= count || ended ? resolve() : client.once('data', poll)); poll(); });
      client.write('GET /api/v1/categories HTTP/1.1\r\nhost: proxy\r\n\r\n');
      await answers(1);
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      client.write('GET /api/v1/categories HTTP/1.1\r\nhost: proxy\r\n\r\n');
      await answers(2);
      expect([ended, seen]).toEqual([false, 2]);
      client.destroy();
    } finally {
      await proxy.close();
      target.closeAllConnections();
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
