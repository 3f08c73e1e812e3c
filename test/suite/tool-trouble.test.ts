/**
 * The tool's own trouble never becomes a verdict (issue 22, section 1): what the target
 * refuses of the tool's configuration, and the tool's own failures, end the run with exit
 * 3 and one line naming the cause, never exit 1.
 */
import { describe, expect, test } from 'vitest';
import { runConformance } from '../../src/runner/run.js';
import { startRawServer } from '../support/raw-server.js';
import type { Variation } from '../../src/reference/behaviour.js';
import { runAgainst } from '../support/targets.js';

describe('a configured header the target refuses', () => {
  test("node:http's header limit answers 431 to every request: not assessable, the header and the status named", async () => {
    // Node's own server, with a 4 KiB header limit, as a small gateway or server has: the
    // handler is never reached.
    const server = await startRawServer((_req, res) => res.writeHead(500).end(), { maxHeaderSize: 4096 });
    try {
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'a-key-of-sixteen-or-more', headers: [`X-Trace: ${'t'.repeat(6000)}`], reportDir: null, out: null });
      expect(outcome.report.verdict).toBe('error');
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdictReason).toMatch(/^every request \(\d+\) was answered 431, each carrying the configured header x-trace \(6000 bytes\)/);
      expect(server.received).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  test('the same 400 to everything without a configured header: a finding, exit 1', async () => {
    const server = await startRawServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"x","message":"no","status":400}'));
    try {
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'a-key-of-sixteen-or-more', checkFilter: '^list-answers-200-array$', reportDir: null, out: null });
      expect(outcome.report.verdict).toBe('nonconformant');
      expect(outcome.exitCode).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('proxies that misbehave', () => {
  /** A raw TCP "proxy": each CONNECT is counted, then answered as `answer` says (or never). */
  async function rawProxy(answer: ((socket: import('node:net').Socket) => void) | undefined) {
    const { createServer } = await import('node:net');
    let connects = 0;
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      socket.once('data', (chunk) => {
        if (chunk.toString('latin1').startsWith('CONNECT ')) connects++;
        answer?.(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      connects: () => connects,
      close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
    };
  }

  test('a proxy that never answers CONNECT: the run deadline covers the tunnel set-up (exit 3, not the 60 s request timeout)', async () => {
    const proxy = await rawProxy(undefined);
    try {
      const outcome = await runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'a-key-of-sixteen-or-more', env: { HTTP_PROXY: proxy.url }, timeoutMs: 60_000, deadlineSeconds: 1, reportDir: null, out: null });
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdict).toBe('error');
    } finally {
      await proxy.close();
    }
  }, 30_000);

  test('a proxy that answers 200 to CONNECT, then garbage: unreachable through it, CONNECTs bounded', async () => {
    const proxy = await rawProxy((socket) => socket.write('HTTP/1.1 200 Connection established\r\n\r\n\u0000\u0001garbage\r\n\r\n'));
    try {
      const outcome = await runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'a-key-of-sixteen-or-more', env: { HTTP_PROXY: proxy.url }, connections: 4, reportDir: null, out: null });
      expect(outcome.exitCode).toBe(3);
      // The preflight's two requests and no check's (an unreachable preflight opens none: test/unit/preflight.test.ts):
      // each request gives up at its fourth connection, and undici may have one more under way when it does.
      expect(proxy.connects()).toBeLessThanOrEqual(2 * (4 + 1));
    } finally {
      await proxy.close();
    }
  }, 60_000);

  test('every connection a request opens counts against --max-requests', async () => {
    const proxy = await rawProxy((socket) => socket.write('HTTP/1.1 200 Connection established\r\n\r\n\u0000garbage\r\n\r\n'));
    try {
      const outcome = await runConformance({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'a-key-of-sixteen-or-more', env: { HTTP_PROXY: proxy.url }, connections: 1, maxRequests: 1, reportDir: null, out: null });
      expect(outcome.exitCode).toBe(3);
      // A request's second connection is past the budget of one: the run stops there.
      expect(outcome.report.verdictReason).toBe('the run was aborted: the request budget (--max-requests 1) is spent (connections count too)');
      expect(proxy.connects()).toBeLessThanOrEqual(2 * 2);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

describe('reports that cannot be written', () => {
  test('reports/latest moves only to a folder that holds reports; near miss: a folder written to is linked', async () => {
    const { lstat, mkdtemp, readlink, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { PassThrough } = await import('node:stream');
    const reports = await mkdtemp(join(tmpdir(), 'pcs-latest-'));
    const options = { checkFilter: '^list-answers-200-array$', linkLatest: true, formats: ['json' as const], out: new PassThrough().resume(), err: new PassThrough().resume() };
    // A file where the run's folder should be: nothing can be written in it, and its parent is a folder a link could go in.
    await writeFile(join(reports, 'run-1'), '');
    const blocked = await runConformance({ ...options, reportDir: join(reports, 'run-1') });
    expect(blocked.exitCode).toBe(0);
    await expect(lstat(join(reports, 'latest'))).rejects.toMatchObject({ code: 'ENOENT' });
    await runConformance({ ...options, reportDir: join(reports, 'run-2') });
    expect(await readlink(join(reports, 'latest'))).toBe('run-2');
  });
});

describe('a key refused past the preflight', () => {
  test('a target whose list hangs (the preflight lets the run go on) and that refuses every create: the run stops after 8 refused requests with the key, exit 3, naming the key', async () => {
    const server = await startRawServer((req, res) => {
      if (req.method === 'GET') return;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' }).end('{"code":"unauthorized","message":"no","status":401}');
    });
    try {
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'a-key-of-sixteen-or-more', timeoutMs: 1_000, reportDir: null, out: null });
      expect(outcome.exitCode).toBe(3);
      // Eight, the bound (http/safety.ts KEY_REFUSED_AFTER): no ninth request with the key went out.
      expect(outcome.report.verdictReason).toMatch(/^every request with the configured key \(8\) was answered 401: the target refuses the key/);
    } finally {
      await server.close();
    }
  });

  /** A gateway that starts refusing the key after it has let `worked` keyed requests through (a key rotated, a quota spent). */
  const revokedAfter = (worked: number, onlyCreates = false): Variation => (base) => {
    let keyed = 0;
    return {
      respond: async (req) => {
        const valid = base.authorize(req.headers.authorization);
        if (valid) keyed++;
        if (valid && keyed > worked && (!onlyCreates || req.method === 'POST')) return base.unauthorized(req);
        return base.respond(req);
      },
    };
  };

  test('a key revoked after the preflight (every request with it refused from the fourth on): exit 3, naming when, not a nonconformant verdict', async () => {
    const { exitCode, report } = await runAgainst({ variations: [revokedAfter(3)] });
    expect(exitCode).toBe(3);
    // 8 at least: creates under way when the key went are refused too, before the second list is.
    const [, count] = /the target began refusing the key after it had worked: the last (\d+) requests with it were answered 401, lists among them, the first (?:GET|POST) \/v1\/categories; the key was revoked or changed while the run went on/.exec(report.verdictReason) ?? [];
    expect(Number(count), report.verdictReason).toBeGreaterThanOrEqual(8);
  });

  test('near miss: a server that refuses the key to creates alone, its lists answered, is judged: nonconformant, exit 1', async () => {
    const { exitCode, report } = await runAgainst({ variations: [revokedAfter(3, true)] });
    expect(exitCode).toBe(1);
    expect(report.verdict).toBe('nonconformant');
  });
});
