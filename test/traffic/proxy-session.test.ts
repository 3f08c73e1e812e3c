/**
 * The validating proxy's session, end to end and quickly (src/traffic/proxy-session.ts):
 * what a client sends through it reaches the target whole, is judged, and a session that
 * cut nothing says nothing of cuts. The slow tier (proxy.test.ts) puts it in front of
 * every variant and fault.
 */
import { createServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { request } from 'undici';
import { expect, test } from 'vitest';
import { buildIsCurrent } from '../../src/core/build-state.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { runProxySession } from '../../src/traffic/proxy-session.js';
import { framingOf, mayPauseTarget, startValidatingProxy, type BodyFraming } from '../../src/traffic/proxy.js';
import { CHECKS } from '../support/checks.js';

test('a list and a create through the proxy: forwarded whole, both judged, no finding, no notice', async () => {
  const server = await startReferenceServer();
  const stop = new AbortController();
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const session = runProxySession({ checks: CHECKS, baseUrl: server.baseUrl, apiKey: server.apiKey, host: '127.0.0.1', port: 0, stop: stop.signal, reportDir: null, formats: ['json'], out: null, onListening: (proxy) => listening(proxy.baseUrl) });
  try {
    const headers = { authorization: `Bearer ${server.apiKey}` };
    const created = await request(`${await url}/categories`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'through the proxy' }) });
    const listed = await request(`${await url}/categories`, { headers });
    expect([created.statusCode, await created.body.json(), listed.statusCode]).toEqual([201, expect.objectContaining({ name: 'through the proxy' }), 200]);
    await listed.body.dump();
  } finally {
    stop.abort('the test is done');
  }
  const { report, exitCode } = await session;
  await server.close();
  expect([exitCode, report.traffic?.judged, report.notices ?? []]).toEqual([0, 2, []]);
});

test('an exchange still streaming when the session stops is cut, and the report says it is partial: exit 3 though every exchange judged passed; near miss: the same session with nothing in flight is conformant (above)', async () => {
  // A target of the interface whose answer to `?hold` sends its head and half a list, then holds.
  const target = createServer((incoming, outgoing) => {
    outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    if (incoming.url?.endsWith('?hold')) outgoing.write('[');
    else outgoing.end(`[${' '.repeat(998)}]`);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const stop = new AbortController();
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const session = runProxySession({ checks: CHECKS, baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, stop: stop.signal, reportDir: null, formats: ['json'], out: null, onListening: (proxy) => listening(proxy.baseUrl) });
  try {
    const listed = await request(`${await url}/categories`);
    expect([listed.statusCode, (await listed.body.text()).length]).toEqual([200, 1000]);
    const held = await request(`${await url}/categories?hold`);
    expect(held.statusCode).toBe(200);
    void held.body.text().catch(() => {});
  } finally {
    stop.abort('the test is done');
  }
  const { report, exitCode } = await session;
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  expect([exitCode, report.verdict, report.verdictReason, report.traffic?.judged]).toEqual([3, 'error', 'the report is partial: 1 exchanges went through the proxy unjudged (see the notices)', 1]);
  expect(report.notices).toEqual(['1 exchanges in flight when the proxy stopped were cut, and not judged']);
});

test('a request the recorder asks to hold (admit) reaches the target only once the hold ends; one still held when the proxy closes is counted as cut; near miss: admit undefined forwards at once', async () => {
  const received: string[] = [];
  const target = createServer((incoming, outgoing) => {
    received.push(incoming.url!);
    outgoing.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const holds: Array<() => void> = [];
  let holding = false;
  const proxy = await startValidatingProxy({
    target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`,
    host: '127.0.0.1',
    port: 0,
    onForwarded: () => {},
    admit: () => (holding ? new Promise<void>((resolve) => holds.push(resolve)) : undefined),
  });
  try {
    expect((await request(`${proxy.baseUrl}/categories?at-once`)).statusCode).toBe(200);
    holding = true;
    const held = request(`${proxy.baseUrl}/categories?held`);
    while (holds.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['/v1/categories?at-once']);
    holds.shift()!();
    expect((await held).statusCode).toBe(200);
    expect(received).toEqual(['/v1/categories?at-once', '/v1/categories?held']);
    const never = request(`${proxy.baseUrl}/categories?never`).catch((error: unknown) => error);
    while (holds.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(await proxy.close(0)).toBe(1);
    expect(await never).toBeInstanceOf(Error);
    expect(received).toHaveLength(2);
  } finally {
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  }
});

test('a target that closes its connection while a large answer is still on its way to a slow client: the client gets the whole answer, then the close', async () => {
  const BODY = 4 * 1024 * 1024;
  let targetClosed!: () => void;
  const closed = new Promise<void>((resolve) => (targetClosed = resolve));
  const target = createServer((incoming, outgoing) => {
    incoming.resume();
    outgoing.socket!.on('close', () => targetClosed());
    outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': String(BODY), connection: 'close' }).end(`[${' '.repeat(BODY - 2)}]`);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, onForwarded: () => {} });
  try {
    const { port } = new URL(proxy.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    socket.pause();
    socket.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n');
    // The client reads nothing until the target has sent all and closed.
    await closed;
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => socket.on('close', resolve).resume());
    const received = Buffer.concat(chunks).toString('latin1');
    const body = received.slice(received.indexOf('\r\n\r\n') + 4);
    expect([received.split('\r\n', 1)[0], body.length]).toEqual(['HTTP/1.1 200 OK', BODY]);
  } finally {
    await proxy.close();
    await new Promise((resolve) => target.close(resolve));
  }
});

test.each([
  ['a length', { 'content-length': String(64 * 1024) }],
  ['the close (no length)', {}],
])('a body that ends at %s, sent whole with the close, to a client that reads nothing yet: the proxy does not crash (undici#5360) and the client gets it all', async (_what, framing) => {
  const BODY = 64 * 1024;
  let targetClosed!: () => void;
  const closed = new Promise<void>((resolve) => (targetClosed = resolve));
  // A raw target: head, body and FIN in one burst, as the undici issue's own reproduction sends them.
  const target = createNetServer((socket) => {
    socket.once('data', () => {
      const fields = Object.entries({ ...framing, connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${fields}\r\n`), Buffer.alloc(BODY, 0x20)]));
      socket.on('close', () => targetClosed());
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, onForwarded: () => {} });
  try {
    const socket = connect(Number(new URL(proxy.baseUrl).port), '127.0.0.1');
    socket.pause();
    socket.write('GET /v1/categories HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => socket.on('close', resolve).resume());
    const received = Buffer.concat(chunks).toString('latin1');
    // The body's spaces, counted: the proxy frames a body without a length in chunks, whose size lines hold none.
    expect([received.split('\r\n', 1)[0], received.slice(received.indexOf('\r\n\r\n') + 4).split(' ').length - 1]).toEqual(['HTTP/1.1 200 OK', BODY]);
  } finally {
    await proxy.close();
    await new Promise((resolve) => target.close(resolve));
  }
});

test.each([
  [{ length: 10 }, 9, true],
  ['near miss: at the length', { length: 10 }, 10, false],
  ['chunked: the end is still to come', 'chunked', 10, true],
  ['ends at the close', 'close', 1, false],
].map((row) => (row.length === 3 ? ['one byte short of the length', ...row] : row)) as Array<[string, BodyFraming, number, boolean]>)('mayPauseTarget, %s', (_what, framing, received, may) => expect(mayPauseTarget(framing, received)).toBe(may));

test.each([
  [['Content-Length', '12'], { length: 12 }],
  [['Transfer-Encoding', 'chunked', 'Content-Length', '12'], 'chunked'],
  [['Content-Length', '12', 'Transfer-Encoding', 'gzip, chunked'], 'chunked'],
  [['Content-Length', 'x12'], 'close'],
  [['Content-Type', 'application/json'], 'close'],
] as Array<[string[], BodyFraming]>)('framingOf %j', (raw, framing) => expect(framingOf(raw)).toEqual(framing));

test('a target that dies mid-answer: the client gets a broken answer, never a whole one, and nothing is handed on to be judged; near miss: the whole answer is handed on', async () => {
  const target = createServer((incoming, outgoing) => {
    outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    if (incoming.url?.endsWith('?dies')) {
      outgoing.write('[');
      setImmediate(() => outgoing.socket!.destroy());
    } else outgoing.end(`[${' '.repeat(998)}]`);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const handed: number[] = [];
  const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, onForwarded: (exchange) => handed.push(exchange.responseBody.bytes) });
  try {
    const broken = await request(`${proxy.baseUrl}/categories?dies`);
    expect(broken.statusCode).toBe(200);
    await expect(broken.body.text()).rejects.toThrow();
    const whole = await request(`${proxy.baseUrl}/categories`);
    expect((await whole.body.text()).length).toBe(1000);
    expect(handed).toEqual([1000]);
  } finally {
    await proxy.close();
    await new Promise((resolve) => target.close(resolve));
  }
});

// Threads run the build (dist/): `npm test` builds first; a source edited since runs the judge in this process, with no thread to count.
test.skipIf(!buildIsCurrent())('the judge and the HAR writer are two threads, each with a young generation of 8 MB (the bench\'s RSS bound rests on it); near miss: without a HAR, the judge alone', async () => {
  const { startJudging } = await import('../../src/traffic/judging.js');
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'pcs-threads-'));
  try {
    for (const [har, threads] of [[join(dir, 'p.har'), 2], [undefined, 1]] as const) {
      const limits: Array<number | undefined> = [];
      const seen = (worker: { resourceLimits?: { maxYoungGenerationSizeMb?: number } }) => limits.push(worker.resourceLimits?.maxYoungGenerationSizeMb);
      process.on('worker', seen);
      try {
        const judging = await startJudging({ baseUrl: 'http://127.0.0.1:9/v1', checks: CHECKS }, har, { print: () => {}, onHarFailure: () => {} });
        await judging.finish(Date.now());
      } finally {
        process.off('worker', seen);
      }
      expect(limits).toEqual(Array(threads).fill(8));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a client that goes away takes its request to the target with it: the target\'s connection closes; near miss: a client that stays gets its answer', async () => {
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let closedAtTarget!: () => void;
  const targetSawClose = new Promise<boolean>((resolve) => (closedAtTarget = () => resolve(true)));
  const target = createServer((incoming, outgoing) => {
    if (incoming.url?.endsWith('?wait')) {
      incoming.socket.on('close', () => closedAtTarget());
      arrived();
      return; // answers only when the client has gone, which it never sees
    }
    outgoing.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const proxy = await startValidatingProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, answerDeadlineMs: 60_000, onForwarded: () => {} });
  try {
    const { port } = new URL(proxy.baseUrl);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /v1/categories?wait HTTP/1.1\r\nHost: x\r\n\r\n'));
    await reached;
    socket.destroy();
    // Bounded only for the failing case: the proxy that keeps the request open would hold it to its 60 s deadline.
    expect(await Promise.race([targetSawClose, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))])).toBe(true);
    const stays = await request(`${proxy.baseUrl}/categories`);
    expect([stays.statusCode, await stays.body.text()]).toEqual([200, '[]']);
  } finally {
    await proxy.close();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  }
});

test('a target that does not answer within the deadline: the client gets the proxy\'s 504, a line says so as it happens, and a notice counts it', async () => {
  const target = createServer(() => {});
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const stop = new AbortController();
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  let printed = '';
  const out = { write: (text: string) => ((printed += text), true) } as never;
  const session = runProxySession({ checks: CHECKS, baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, host: '127.0.0.1', port: 0, stop: stop.signal, reportDir: null, formats: ['json'], out, answerDeadlineMs: 1_000, onListening: (proxy) => listening(proxy.baseUrl) });
  try {
    const answer = await request(`${await url}/categories?page=2`);
    expect([answer.statusCode, answer.headers['proxy-status'], answer.headers['content-type']]).toEqual([504, 'petstore-conformance; error=connection_timeout', 'application/json']);
    // An Error body (section 7's shape) that says whose answer it is.
    expect(await answer.body.json()).toEqual({ code: 'gateway_timeout', message: 'the target did not answer within 1 s (said by the petstore-conformance proxy, not the target)', status: 504 });
  } finally {
    stop.abort('the test is done');
  }
  const { report } = await session;
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  expect(printed).toContain("  ! the target did not answer GET /v1/categories within 1 s: the client got the proxy's 504\n");
  expect(report.notices).toContain("1 exchanges got no answer from the target within 1 s: each client got the proxy's 504 (Proxy-Status: petstore-conformance), and they are not judged");
});
