/**
 * The validating proxy (src/traffic/proxy.ts, judging.ts): it forwards every exchange
 * unaltered, is never in the client's way, never repeats a request, and keeps its judge's
 * and its HAR writer's backlogs bounded. With the suite's active run going through it in
 * front of every variant: test/traffic/proxy-matrix.test.ts (slow tier).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { connect, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildIsCurrent } from '../../src/core/build-state.js';
import { ProxyJudge } from '../../src/traffic/proxy-judge.js';
import { startValidatingProxy, type ForwardedExchange } from '../../src/traffic/proxy.js';
import { runProxySession } from '../../src/traffic/proxy-session.js';
import { CHECKS } from '../support/checks.js';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'pcs-proxy-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** An upstream that records what reached it and answers with fields a proxy could mangle. */
async function recordingUpstream(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void) {
  const seen: Array<{ method: string; url: string; rawHeaders: string[]; body: Buffer }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, baseUrl: `http://127.0.0.1:${port}/api/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('forwarding', () => {
  test('request and response pass unaltered: path under the base, method, fields (names, order, repeats), body bytes, chunked and gzip bodies; hop-by-hop fields stay behind', async () => {
    const listed = Buffer.from(JSON.stringify([{ id: 1, name: 'Chats 🐈' }]));
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(200, [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['Content-Encoding', 'gzip'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
        ['X-Custom-Case', 'Kept'],
        ['Keep-Alive', 'timeout=99'],
      ].flat());
      const zipped = gzipSync(listed);
      res.write(zipped.subarray(0, 5));
      res.end(zipped.subarray(5));
    });
    const judge = new ProxyJudge({ baseUrl: upstream.baseUrl, checks: CHECKS }, () => {});
    const proxy = await startValidatingProxy({ target: upstream.baseUrl, host: '127.0.0.1', port: 0, onForwarded: (exchange) => judge.take(exchange) });
    try {
      const sent = Buffer.from('{"name":"Cats","description":"é"}');
      const answer = await request(`${proxy.baseUrl}/categories?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer some-token', 'x-trace': 'one', connection: 'keep-alive' },
        body: sent,
      });
      const received = Buffer.from(await answer.body.arrayBuffer());
      expect(answer.statusCode).toBe(200);
      expect(received.equals(gzipSync(listed))).toBe(true); // not re-encoded
      expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      expect(answer.headers['x-custom-case']).toBe('Kept');
      expect(answer.headers['keep-alive']).not.toBe('timeout=99'); // the proxy's own connection's, if any
      const [upstreamSaw] = upstream.seen;
      expect(upstreamSaw!.url).toBe('/api/v1/categories?x=1');
      expect(upstreamSaw!.body.equals(sent)).toBe(true);
      const names = upstreamSaw!.rawHeaders.filter((_, i) => i % 2 === 0);
      expect(names).toEqual(expect.arrayContaining(['content-type', 'authorization', 'x-trace']));
      expect(upstreamSaw!.rawHeaders[names.findIndex((name) => name.toLowerCase() === 'host') * 2 + 1]).toBe(new URL(upstream.baseUrl).host);
      // Judged on the inflated body: a 200 to a create is not an answer the spec lists.
      const judged = await judge.finish();
      expect(judged.checks.find((check) => check.id === 'answers-allowed-status')!.status).toBe('failed');
      expect(judged.counts.judged).toBe(1);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('fields that Connection names, and Proxy-Authorization, TE, Keep-Alive, stay behind in both directions; the others go on (RFC 9110 §7.6.1)', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(200, ['Content-Type', 'application/json', 'Connection', 'X-Internal', 'X-Internal', 'upstream-only', 'Proxy-Authenticate', 'Basic', 'Trailer', 'X-T', 'X-Public', 'p'].flat());
      res.end('[]');
    });
    const proxy = await startValidatingProxy({ target: upstream.baseUrl, host: '127.0.0.1', port: 0, onForwarded: () => {} });
    try {
      // A raw client: real clients send Connection options undici refuses to write.
      const { port } = new URL(proxy.baseUrl);
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(
        'GET /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, X-Secret, X-Other\r\nX-Secret: s\r\nX-Other: o\r\nX-Kept: k\r\n' +
          'Proxy-Authorization: Basic cHJveHk6cw==\r\nTE: trailers\r\nKeep-Alive: timeout=5\r\nAuthorization: Bearer t\r\n\r\n',
      );
      let answer = '';
      await new Promise<void>((resolve) => socket.on('data', (chunk) => ((answer += chunk), /\r\n\r\n[\s\S]*\[\]/.test(answer) && resolve())));
      socket.destroy();
      const sent = new Set(upstream.seen[0]!.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()));
      for (const gone of ['x-secret', 'x-other', 'proxy-authorization', 'te', 'keep-alive']) expect(sent.has(gone), gone).toBe(false);
      for (const kept of ['x-kept', 'authorization']) expect(sent.has(kept), kept).toBe(true);
      const head = answer.split('\r\n\r\n')[0]!.toLowerCase();
      for (const gone of ['x-internal:', 'proxy-authenticate:', 'trailer:']) expect(head).not.toContain(gone);
      expect(head).toContain('x-public: p');
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('an answer with 500 Set-Cookie fields (some 20 KiB of header fields, past Node\'s and undici\'s 16 KiB default) is forwarded whole', async () => {
    const cookies = (count: number) => Array.from({ length: count }, (_, i) => `c${i}=${'v'.repeat(30)}${i}; Path=/`);
    const many = await recordingUpstream((_req, res) => void res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': cookies(500) }).end('[]'));
    const proxy = await startValidatingProxy({ target: many.baseUrl, host: '127.0.0.1', port: 0, onForwarded: () => {} });
    try {
      // A client that reads large header blocks itself (undici's default is 16 KiB too).
      const client = new Client(new URL(proxy.baseUrl).origin, { maxHeaderSize: 1024 * 1024 });
      const answer = await client.request({ method: 'GET', path: `${new URL(proxy.baseUrl).pathname}/categories` });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['set-cookie']).toHaveLength(500);
      expect(await answer.body.text()).toBe('[]');
      await client.close();
    } finally {
      await proxy.close();
      await many.close();
    }
  });

  test('a target that never answers: by the deadline the client gets the proxy\'s 504 with an Error body and Proxy-Status, said once, and the exchange is handed on as unanswered (status 0); near miss: a head sent at once, its body late, is forwarded as answered', async () => {
    const silent = await recordingUpstream(() => {});
    const slowBody = await recordingUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      setTimeout(() => res.end(']'), 300);
    });
    const unanswered: string[] = [];
    const handed: Array<[number, string | undefined]> = [];
    const start = (target: string) => startValidatingProxy({ target, host: '127.0.0.1', port: 0, answerDeadlineMs: 100, onForwarded: (exchange) => handed.push([exchange.status, exchange.unanswered]), onUnanswered: (request, ms) => unanswered.push(`${request} ${ms}`) });
    const [quiet, slow] = await Promise.all([start(silent.baseUrl), start(slowBody.baseUrl)]);
    try {
      const answer = await request(`${quiet.baseUrl}/categories`);
      expect(answer.statusCode).toBe(504);
      expect(answer.headers['proxy-status']).toBe('petstore-conformance; error=connection_timeout');
      expect(await answer.body.json()).toEqual({ code: 'gateway_timeout', message: 'the target did not answer within 0.1 s (said by the petstore-conformance proxy, not the target)', status: 504 });
      expect(unanswered).toEqual(['GET /api/v1/categories 100']);
      expect(handed).toEqual([[0, "the target did not answer within 0.1 s; the client got the proxy's 504"]]);
      const late = await request(`${slow.baseUrl}/categories`);
      expect([late.statusCode, await late.body.text()]).toEqual([200, '[]']);
      expect(unanswered).toHaveLength(1);
      expect(handed[1]).toEqual([200, undefined]);
    } finally {
      await Promise.all([quiet.close(), slow.close()]);
      await Promise.all([silent.close(), slowBody.close()]);
    }
  });

  test('after its 504, the proxy closes the client\'s connection: a request pipelined behind the unanswered one never reaches the target', async () => {
    const silent = await recordingUpstream(() => {});
    const proxy = await startValidatingProxy({ target: silent.baseUrl, host: '127.0.0.1', port: 0, answerDeadlineMs: 100, onForwarded: () => {} });
    try {
      const client = connect(Number(new URL(proxy.baseUrl).port), '127.0.0.1');
      let received = '';
      client.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      client.write('GET /v1/categories HTTP/1.1\r\nhost: proxy\r\n\r\nGET /v1/categories?second HTTP/1.1\r\nhost: proxy\r\n\r\n');
      await new Promise((resolve) => client.once('close', resolve));
      expect(received.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 504']);
      expect(silent.seen.map((request) => request.url)).toEqual(['/api/v1/categories']);
    } finally {
      await proxy.close();
      await silent.close();
    }
  });

  test('a target that closes a kept-alive connection while idle: the proxy closes the client’s, so the client’s is stale exactly when the target’s is', async () => {
    const { createServer: createTcpServer } = await import('node:net');
    // One answer, kept alive (HTTP/1.1), then the target's idle close.
    const target = createTcpServer((socket) => socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]', () => setImmediate(() => socket.end()))));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, onForwarded: () => {} });
    try {
      const { port } = new URL(proxy.baseUrl);
      const client = connect(Number(port), '127.0.0.1');
      let received = '';
      client.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      client.write('GET /v1/categories HTTP/1.1\r\nhost: proxy\r\n\r\n');
      // The client's connection ends (the proxy's FIN) once the answer is through.
      await new Promise((resolve) => client.once('end', resolve));
      expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\[\]$/);
      client.destroy();
    } finally {
      await proxy.close();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  test('a client that goes away takes its request to the target with it: the target’s connection closes, its answer never due', async () => {
    const { createServer: createTcpServer } = await import('node:net');
    let targetClosed!: () => void;
    const closed = new Promise<void>((resolve) => (targetClosed = resolve));
    // Never answers; notes when the proxy lets go of the connection.
    const target = createTcpServer((socket) => socket.on('close', () => targetClosed()).resume());
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const reached = new Promise<void>((resolve) => target.once('connection', (socket) => socket.once('data', () => resolve())));
    const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, answerDeadlineMs: 3_600_000, onForwarded: () => {} });
    try {
      const client = connect(Number(new URL(proxy.baseUrl).port), '127.0.0.1');
      client.write('GET /v1/categories HTTP/1.1\r\nhost: proxy\r\n\r\n');
      await reached;
      client.destroy();
      await closed;
    } finally {
      await proxy.close();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  test('a chunked body reaches the target chunked even when all of it arrived before it went upstream, and is recorded so; a body with a Content-Length keeps it', async () => {
    // undici frames a stream that has ended by the time it writes with a Content-Length: a
    // request written at once used to reach a 411-refusing target as an ordinary create.
    const upstream = await recordingUpstream((_req, res, body) => res.writeHead(201, { 'content-type': 'application/json' }).end(body));
    const forwarded: string[][] = [];
    const proxy = await startValidatingProxy({ target: upstream.baseUrl, host: '127.0.0.1', port: 0, onForwarded: (exchange) => forwarded.push(exchange.forwardedHeaders) });
    const { port } = new URL(proxy.baseUrl);
    /** Writes a whole request in one write (the body ended before the proxy forwards it) and waits for the answer's end. */
    const sendAtOnce = (framing: string, body: string) =>
      new Promise<void>((resolve, reject) => {
        // Connection: close, not a half-close: the proxy closes once the answer is through.
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(`POST /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n${framing}\r\n\r\n${body}`));
        socket.on('error', reject).on('close', () => resolve()).resume();
      });
    const json = '{"name":"Cats"}';
    try {
      await sendAtOnce('Transfer-Encoding: chunked', `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`);
      await sendAtOnce(`Content-Length: ${json.length}`, json);
      const framing = (raw: string[]) => raw.flatMap((field, i) => (i % 2 === 0 && /^(transfer-encoding|content-length)$/i.test(field) ? [`${field.toLowerCase()}: ${raw[i + 1]}`] : []));
      expect(upstream.seen.map((seen) => [framing(seen.rawHeaders), seen.body.toString()])).toEqual([
        [['transfer-encoding: chunked'], json],
        [[`content-length: ${json.length}`], json],
      ]);
      expect(forwarded.map(framing)).toEqual([['transfer-encoding: chunked'], [`content-length: ${json.length}`]]);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('a judgement that throws never reaches the client; a target that fails reaches it as a broken connection, never as a status the target did not send', async () => {
    const upstream = await recordingUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    let judgeErrors = 0;
    const targetErrors: string[] = [];
    const proxy = await startValidatingProxy({
      target: upstream.baseUrl,
      host: '127.0.0.1',
      port: 0,
      onForwarded: () => {
        throw new Error('a defect of the judge');
      },
      onJudgeError: () => judgeErrors++,
      onTargetError: (error, request) => targetErrors.push(`${request}: ${(error as NodeJS.ErrnoException).code}`),
    });
    try {
      const answers = await Promise.all([1, 2, 3].map(() => request(`${proxy.baseUrl}/categories`).then(async (a) => [a.statusCode, await a.body.text()])));
      expect(answers).toEqual([[200, '[]'], [200, '[]'], [200, '[]']]);
      expect(judgeErrors).toBe(3);
      await upstream.close();
      await expect(request(`${proxy.baseUrl}/categories`)).rejects.toMatchObject({ code: expect.stringMatching(/^UND_ERR_SOCKET$|^ECONNRESET$/) });
      expect(targetErrors).toEqual(['GET /api/v1/categories: ECONNREFUSED']);
    } finally {
      await proxy.close();
    }
  });
});

test('a target whose Content-Length falls short, then stray bytes and a close: the client gets the 200 and its body, as curl does directly', async () => {
  const { createServer: createTcpServer } = await import('node:net');
  const target = createTcpServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]stray'));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const forwarded: number[] = [];
  const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, onForwarded: (exchange) => forwarded.push(exchange.status) });
  try {
    const answer = await request(`${proxy.baseUrl}/categories`);
    expect(answer.statusCode).toBe(200);
    expect(await answer.body.text()).toBe('[]');
    // Judged what the client received: the one 200.
    expect(forwarded).toEqual([200]);
  } finally {
    await proxy.close();
    await new Promise((resolve) => target.close(resolve));
  }
});

describe('the proxy never repeats a request, and shows each as the target received it', () => {
  /**
   * A target that lets its kept-alive connections go stale: the first request to arrive on
   * a connection that already served one finds it closed (the race with an idle close,
   * RFC 9112 §9.6). It counts every request whose bytes arrived, by method.
   */
  async function staleTarget() {
    const arrived: string[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1,"name":"Cats"}'));
    });
    server.on('connection', (socket) => {
      let served = 0;
      socket.on('data', (chunk: Buffer) => {
        arrived.push(chunk.toString('latin1').split(' ', 1)[0]!);
        if (served++ === 1) socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { arrived, baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
  }

  test('a POST whose connection the target closes reaches the target once, and the client as a broken connection', async () => {
    const target = await staleTarget();
    const proxy = await startValidatingProxy({ target: target.baseUrl, host: '127.0.0.1', port: 0, onForwarded: () => {} });
    const { Client } = await import('undici');
    // One client connection, kept alive: its second request meets the stale one on the target's side.
    const client = new Client(new URL(proxy.baseUrl).origin, { pipelining: 1 });
    try {
      const post = () => client.request({ method: 'POST', path: '/v1/categories', headers: { 'content-type': 'application/json' }, body: '{"name":"Cats"}' });
      expect((await post()).statusCode).toBe(201);
      await expect(post()).rejects.toMatchObject({ code: expect.stringMatching(/^UND_ERR_SOCKET$|^ECONNRESET$/) });
      // The first POST, and the second once: its bytes reached the target, which closed the connection under it.
      expect(target.arrived.filter((method) => method === 'POST')).toHaveLength(2);
    } finally {
      await client.close();
      await proxy.close();
      await target.close();
    }
  });

  test('a client connection is stale exactly when the target’s is: a POST on a fresh client connection never meets a stale target connection (the flaky verdict under load)', async () => {
    const target = await staleTarget();
    const proxy = await startValidatingProxy({ target: target.baseUrl, host: '127.0.0.1', port: 0, onForwarded: () => {} });
    const { Client } = await import('undici');
    try {
      // Each POST on a connection of its own: a pool of target connections would hand the second one a stale connection.
      for (let i = 0; i < 3; i++) {
        const client = new Client(new URL(proxy.baseUrl).origin);
        const answer = await client.request({ method: 'POST', path: '/v1/categories', headers: { 'content-type': 'application/json' }, body: '{"name":"Cats"}' });
        expect(answer.statusCode).toBe(201);
        await answer.body.text();
        await client.close();
      }
      expect(target.arrived.filter((method) => method === 'POST')).toHaveLength(3);
    } finally {
      await proxy.close();
      await target.close();
    }
  });

  test('a recorded request is the one the target received: its Host, not the proxy’s; no hop-by-hop field', async () => {
    const upstream = await recordingUpstream((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"a list"}'));
    const judge = new ProxyJudge({ baseUrl: upstream.baseUrl, checks: CHECKS }, () => {});
    const proxy = await startValidatingProxy({ target: upstream.baseUrl, host: '127.0.0.1', port: 0, onForwarded: (exchange) => judge.take(exchange) });
    try {
      await (await request(`${proxy.baseUrl}/categories`, { headers: { authorization: 'Bearer t', connection: 'keep-alive' } })).body.text();
      const failure = (await judge.finish()).checks.find((check) => check.id === 'list-answers-200-array')!.failure!;
      expect(failure.request.headers.host).toBe(new URL(upstream.baseUrl).host);
      expect(failure.request.url).toBe(`${upstream.baseUrl}/categories`);
      expect(failure.request.headers.connection).toBeUndefined();
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });

  test('the target is reached as a run reaches it: an HTTPS target with a private CA and a client certificate, through HTTPS_PROXY', async () => {
    const read = (name: string) => readFile(new URL(`../fixtures/tls/${name}.pem`, import.meta.url), 'utf8');
    const [key, cert, clientCertPem, clientKeyPem] = await Promise.all([read('key'), read('cert'), read('client-cert'), read('client-key')]);
    const { startReferenceServer } = await import('../../src/reference/server.js');
    const server = await startReferenceServer({ tls: { key, cert, clientCa: clientCertPem } });
    const { createProxy } = await import('proxy');
    const tunnel = createProxy(createServer());
    const tunnels: string[] = [];
    tunnel.prependListener('connect', (req: IncomingMessage) => tunnels.push(req.url ?? ''));
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const via = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}`;
    const session = async (upstream: Parameters<typeof runProxySession>[0]['upstream']) => {
      const stop = new AbortController();
      let listening!: (url: string) => void;
      const url = new Promise<string>((resolve) => (listening = resolve));
      const running = runProxySession({ checks: CHECKS, baseUrl: server.baseUrl, apiKey: server.apiKey, host: '127.0.0.1', port: 0, upstream, stop: stop.signal, reportDir: null, formats: ['json'], out: null, onListening: (proxy) => listening(proxy.baseUrl) });
      const status = await request(`${await url}/categories`, { headers: { authorization: `Bearer ${server.apiKey}` } }).then(async (answer) => (await answer.body.text(), answer.statusCode), () => 'broken connection');
      stop.abort('done');
      await running;
      return status;
    };
    try {
      expect(await session({ caPem: cert, clientCertPem, clientKeyPem, proxy: { httpProxy: '', httpsProxy: via, noProxy: '' } })).toBe(200);
      expect(tunnels).toEqual([new URL(server.baseUrl).host]);
      // Without the client certificate the target refuses the handshake: the client meets a broken connection, not a status.
      expect(await session({ caPem: cert })).toBe('broken connection');
    } finally {
      tunnel.closeAllConnections();
      await new Promise((resolve) => tunnel.close(resolve));
      await server.close();
    }
  });
});

// The backlogs are the threads': a stale build judges in this process, without them (npm test builds first).
describe.skipIf(!buildIsCurrent())('the judge\'s and the HAR writer\'s backlogs (judging.ts)', async () => {
  const { startJudging, MAX_BACKLOG_BYTES, RECORDING_BACKLOG } = await import('../../src/traffic/judging.js');
  /** A list exchange whose response body is `bytes` long (a JSON array padded with spaces). */
  const exchange = (bytes: number): ForwardedExchange => {
    const body = new Uint8Array(bytes).fill(0x20);
    if (bytes >= 2) body.set([0x5b, 0x5d]);
    return { startMs: 0, endMs: 1, method: 'GET', url: 'http://127.0.0.1:9/v1/categories', clientHeaders: [], forwardedHeaders: [], requestBody: { kept: new Uint8Array(0), bytes: 0 }, status: 200, responseHeaders: ['content-type', 'application/json'], responseBody: { kept: body, bytes } };
  };
  const output = { print: () => {}, onHarFailure: () => {} };

  test('the writer takes every exchange and asks to wait past 32 exchanges or 2 MiB not yet written, then writes them all; near misses: 32, and 2 MiB, ask nothing', async () => {
    expect(RECORDING_BACKLOG).toEqual({ bytes: 2 * 1024 * 1024, exchanges: 32 });
    for (const [load, waits] of [[Array(32).fill(10), false], [Array(33).fill(10), true], [[RECORDING_BACKLOG.bytes], false], [[RECORDING_BACKLOG.bytes + 1], true]] as const) {
      const har = join(dir, `backlog-${load.length}-${load[0]}.har`);
      const judging = await startJudging({ baseUrl: 'http://127.0.0.1:9/v1', checks: CHECKS }, har, output);
      for (const bytes of load) judging.take(exchange(bytes));
      const room = judging.room();
      expect(room !== undefined).toBe(waits);
      await room;
      const { notRecorded, notJudged, har: written } = await judging.finish(Date.now() + 60_000);
      expect([notRecorded, notJudged, written?.entries]).toEqual([0, 0, load.length]);
      expect(JSON.parse(await readFile(har, 'utf8')).log.entries).toHaveLength(load.length);
    }
  });

  test('the judge sheds an exchange that would take its backlog past 16 MiB, and counts it; near misses: exactly 16 MiB is judged, and so is a larger one on an empty backlog', async () => {
    expect(MAX_BACKLOG_BYTES).toBe(16 * 1024 * 1024);
    const MiB = 1024 * 1024;
    for (const [load, shed] of [[[10 * MiB, 6 * MiB], 0], [[10 * MiB, 6 * MiB + 1], 1], [[17 * MiB], 0]] as const) {
      const judging = await startJudging({ baseUrl: 'http://127.0.0.1:9/v1', checks: CHECKS }, undefined, output);
      for (const bytes of load) judging.take(exchange(bytes));
      expect(judging.room()).toBeUndefined();
      const judged = await judging.finish(Date.now() + 60_000);
      expect([judged.notJudged, judged.counts.entries]).toEqual([shed, load.length - shed]);
    }
  });
});

describe('a judging thread that fails or does not finish is the tool\'s trouble, said, never a hang', async () => {
  const { inThread } = await import('../../src/traffic/judging.js');
  /** A thread file of `source`, which gets `parentPort`. */
  const threadFile = async (source: string) => {
    const { writeFile } = await import('node:fs/promises');
    const file = join(dir, `thread-${Math.random().toString(36).slice(2)}.mjs`);
    await writeFile(file, `import { parentPort } from 'node:worker_threads';\n${source}`);
    return file;
  };
  const output = { print: () => {}, onHarFailure: () => {} };
  const exchange = (): ForwardedExchange => ({ startMs: 0, endMs: 1, method: 'GET', url: 'http://127.0.0.1:9/v1/categories', clientHeaders: [], forwardedHeaders: [], requestBody: { kept: new Uint8Array(0), bytes: 0 }, status: 200, responseHeaders: [], responseBody: { kept: new Uint8Array(2), bytes: 2 } });

  test('a thread that throws: what comes after is shed, a writer waiting is let go, and finish says why', async () => {
    const file = await threadFile(`parentPort.postMessage({ type: 'ready' }); parentPort.on('message', () => { throw new Error('the judge broke'); });`);
    const judging = await inThread(file, { baseUrl: 'http://127.0.0.1:9/v1', checks: CHECKS, recordOnly: true }, undefined, output, { bytes: 0, exchanges: 0 });
    judging.take(exchange());
    // Past its bound of none: the writer asks to wait, until the thread's failure lets it go.
    await judging.room();
    judging.take(exchange());
    const judged = await judging.finish(Date.now() + 60_000);
    expect([judged.failed, judged.notJudged]).toEqual(['the judging thread failed: the judge broke', 1]);
  });

  test('a thread that never finishes: finish ends at the deadline and its grace, saying so', async () => {
    const file = await threadFile(`parentPort.postMessage({ type: 'ready' }); parentPort.on('message', () => {});`);
    const judging = await inThread(file, { baseUrl: 'http://127.0.0.1:9/v1', checks: CHECKS }, undefined, output, { bytes: 1024, exchanges: Infinity });
    judging.take(exchange());
    const judged = await judging.finish(Date.now());
    expect(judged.failed).toBe('the judge did not end by its deadline');
  });
});
