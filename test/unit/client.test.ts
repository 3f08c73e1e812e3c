import { afterEach, describe, expect, test } from 'vitest';
import { HttpClient, type ClientOptions } from '../../src/http/client.js';
import type { Exchange } from '../../src/core/exchange.js';
import { NO_CREDENTIAL, validCredential } from '../../src/http/credential.js';
import { KEY_PLACEHOLDER, Redactor } from '../../src/secrets/redactor.js';
import { redactExchange } from '../../src/report/redact.js';
import { startRawServer, type RawServer } from '../support/raw-server.js';

const KEY = 'client-test-key-0123456789';
let server: RawServer | undefined;
let client: HttpClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

function clientFor(baseUrl: string, overrides: Partial<Pick<ClientOptions, 'timeoutMs' | 'maxResponseBytes' | 'connections' | 'wasApplied'>> = {}): HttpClient {
  client = new HttpClient({
    baseUrl,
    timeoutMs: overrides.timeoutMs ?? 2_000,
    maxResponseBytes: overrides.maxResponseBytes ?? 1024 * 1024,
    connections: overrides.connections ?? 2,
    ...(overrides.wasApplied ? { wasApplied: overrides.wasApplied } : {}),
    patienceSeconds: 30,
    redactor: new Redactor().add(KEY, KEY_PLACEHOLDER),
    userAgent: 'test',
  });
  return client;
}

const list = (c: HttpClient) => c.send({ method: 'GET', path: '/categories', credential: validCredential(KEY) }, 'test');

describe('no request goes out where a refused body may lie unread', () => {
  test.each([
    [400, 'judged the body, so read it: the connection is kept', 'reused'],
    [401, 'may have refused it unread (a middleware before the handler): a new connection', 'fresh'],
    [413, 'may have refused it unread: a new connection', 'fresh'],
  ] as const)('a body answered %i %s', async (status, _what, connection) => {
    server = await startRawServer((req, res) => res.writeHead(req.method === 'POST' ? status : 200, { 'content-type': 'application/json' }).end(req.method === 'POST' ? '{"code":"x","message":"y","status":1}' : '[]'));
    const c = clientFor(server.baseUrl);
    await c.send({ method: 'POST', path: '/categories', credential: validCredential(KEY), body: { json: { name: 'a' } } }, 'test');
    expect((await list(c)).connection).toBe(connection);
  });
});

describe('the cap of an answer follows every method it may be answered as (http/method-override.ts)', () => {
  const big = `[${Array.from({ length: 3000 }, (_, i) => `{"id":${i},"name":"${'n'.repeat(30)}"}`).join(',')}]`;
  const keyless = (method: string, headers: Record<string, string>, query?: string) => ({
    method,
    path: '/categories',
    credential: { name: 'missing', description: 'no key', placed: { headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { sent: value, shown: value }])), ...(query ? { query: { sent: query, shown: query } } : {}) } },
  });
  test.each([
    ['a GET overridden to POST, answered as the GET it is (a list of 130 KB)', keyless('GET', {}, '_method=POST'), true],
    ['an OPTIONS overridden to GET, answered as that GET', keyless('OPTIONS', { 'x-http-method-override': 'GET' }), true],
    ['near miss: an OPTIONS without an override: an answer past 64 KiB is no answer of its', keyless('OPTIONS', {}), false],
  ] as const)('%s', async (_what, spec, read) => {
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(big));
    const exchange = await clientFor(server.baseUrl).send(spec, 'test');
    expect(exchange.response?.bodyBytes ?? exchange.error?.code).toBe(read ? Buffer.byteLength(big) : 'RESPONSE_TOO_LARGE');
  });
});

describe('every attempt is in the record, on the connection it went out on', () => {
  /** Each attempt of a request: its outcome, connection and whether it was superseded. */
  const traced = (c: HttpClient, spec: Parameters<HttpClient['send']>[0]) => {
    const attempts: string[] = [];
    const sent = c.send(spec, 'test', (e: Exchange) => attempts.push(`${e.error?.code ?? e.response?.status} ${e.connection} ${e.connectionId}${e.superseded ? ' superseded' : ''}`));
    return { attempts, sent: sent.catch((error: Error) => error) };
  };

  test.each([
    ['answered: the next request goes out on the same connection', true, ['200 reused 1.1']],
    // Its abort closes the connection, and undici says so (`disconnect`) a moment after the slot is handed over.
    ['went unanswered: the next request goes out on a new one, and is recorded as such (its timeout says the route hangs)', false, ['TIMEOUT fresh 1.2']],
  ])('one connection, the first request %s', async (_what, answers, second) => {
    server = await startRawServer((_req, res) => answers && res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const c = clientFor(server.baseUrl, { timeoutMs: 300, connections: 1 });
    const first = traced(c, { method: 'GET', path: '/categories', credential: validCredential(KEY) });
    // Waits for the only connection: handed over as the first request ends.
    const next = traced(c, { method: 'GET', path: '/categories', credential: NO_CREDENTIAL });
    await Promise.all([first.sent, next.sent]);
    expect(first.attempts).toEqual([answers ? '200 fresh 1.1' : 'TIMEOUT fresh 1.1']);
    expect(next.attempts).toEqual(second);
    expect(server.received).toHaveLength(2);
  });

  test('near miss: a request that never connected is on the connection it would have opened, not on the one before', async () => {
    server = await startRawServer(() => {});
    const url = server.baseUrl;
    await server.close();
    server = undefined;
    const refused = traced(clientFor(url, { connections: 1 }), { method: 'GET', path: '/categories', credential: NO_CREDENTIAL });
    await refused.sent;
    expect(refused.attempts).toEqual(['CONNECTION_REFUSED fresh 1.1']);
  });

  test.each([
    ['the list that would tell fails (its route hangs): the attempt is recorded, then the failure thrown', () => Promise.reject(new Error('no list to tell')), ['TIMEOUT reused 1.1'], 'no list to tell'],
    ['near miss: the list tells it was not applied: sent again on a new connection', () => Promise.resolve(false), ['TIMEOUT reused 1.1 superseded', 'TIMEOUT fresh 1.2'], undefined],
    ['near miss: the list tells it was applied: not sent again', () => Promise.resolve(true), ['TIMEOUT reused 1.1'], undefined],
  ])('a create with the key unanswered on a kept-alive connection, %s', async (_what, wasApplied, attempts, thrown) => {
    // Answers the first request; every later one waits for ever.
    server = await startRawServer((_req, res) => server!.received.length === 1 && res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const c = clientFor(server.baseUrl, { timeoutMs: 300, connections: 1, wasApplied });
    await list(c);
    const create = traced(c, { method: 'POST', path: '/categories', credential: validCredential(KEY), body: { json: { name: 'a' } } });
    const outcome = await create.sent;
    expect(create.attempts).toEqual(attempts);
    expect(outcome instanceof Error ? outcome.message : undefined).toBe(thrown);
  });
});

describe('HttpClient', () => {
  test('records the request with the credential shown as a placeholder', async () => {
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const exchange = await list(clientFor(server.baseUrl));
    expect(server.received[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(exchange.request.headers.authorization).toBe(`Bearer ${KEY_PLACEHOLDER}`);
    expect(exchange.response).toMatchObject({ status: 200, body: '[]', bodyBytes: 2, utf8Valid: true });
  });

  test('records an echoed key as received (judged first), and the writer’s copy redacts it', async () => {
    server = await startRawServer((req, res) =>
      res.writeHead(401, { 'x-echo': req.headers.authorization ?? '' }).end(`{"message":"bad key ${req.headers.authorization}"}`),
    );
    const exchange = await list(clientFor(server.baseUrl));
    expect(exchange.response?.headers['x-echo']).toBe(`Bearer ${KEY}`);
    const written = redactExchange(exchange, new Redactor().add(KEY, KEY_PLACEHOLDER));
    expect(JSON.stringify(written)).not.toContain(KEY);
    expect(written.response?.headers['x-echo']).toBe(`Bearer ${KEY_PLACEHOLDER}`);
    expect(JSON.parse(written.response!.body)).toEqual({ message: `bad key Bearer ${KEY_PLACEHOLDER}` });
  });

  test('a refused connection is an exchange with CONNECTION_REFUSED', async () => {
    server = await startRawServer(() => {});
    const url = server.baseUrl;
    await server.close();
    server = undefined;
    const exchange = await list(clientFor(url));
    expect(exchange.response).toBeUndefined();
    expect(exchange.error?.code).toBe('CONNECTION_REFUSED');
  });

  test('a server that never answers is a TIMEOUT at the deadline', async () => {
    server = await startRawServer(() => {});
    const exchange = await list(clientFor(server.baseUrl, { timeoutMs: 300 }));
    expect(exchange.error).toEqual({ code: 'TIMEOUT', message: 'no complete response within 300 ms', phase: 'headers' });
    // Not before the deadline; how long after it depends on the machine's load, so no upper bound (a hang fails on the test's own timeout).
    expect(exchange.durationMs).toBeGreaterThanOrEqual(299);
  });

  test('a request abandoned because its route hung meanwhile is still recorded: its attempt, ABANDONED, then RouteHung', async () => {
    server = await startRawServer(() => {});
    // Long enough that the second is on the wire before the first times out, however loaded the machine.
    const c = clientFor(server.baseUrl, { timeoutMs: 1_500 });
    const first = list(c);
    // The second goes out once the first is on the wire, on a connection of its own, and waits on the same route.
    while (server.received.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const attempts: string[] = [];
    const second = c.send({ method: 'GET', path: '/categories', credential: validCredential(KEY) }, 'test', (attempt) => attempts.push(attempt.error?.code ?? 'answered'));
    expect((await first).error?.code).toBe('TIMEOUT');
    await expect(second).rejects.toMatchObject({ code: 'PCS_ROUTE_HUNG', identical: true });
    expect(attempts).toEqual(['ABANDONED']);
  });

  test('headers then a stalled body is a TIMEOUT, not a response', async () => {
    server = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[');
    });
    const exchange = await list(clientFor(server.baseUrl, { timeoutMs: 300 }));
    expect(exchange.response).toBeUndefined();
    expect(exchange.error?.code).toBe('TIMEOUT');
  });

  test('a connection closed mid-body is CONNECTION_RESET', async () => {
    server = await startRawServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[{"id":1', () => req.socket.destroy());
    });
    const exchange = await list(clientFor(server.baseUrl));
    expect(exchange.response).toBeUndefined();
    expect(exchange.error?.code).toBe('CONNECTION_RESET');
  });

  test('a body over the cap is RESPONSE_TOO_LARGE', async () => {
    server = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${'0,'.repeat(64 * 1024)}0]`);
    });
    const exchange = await list(clientFor(server.baseUrl, { maxResponseBytes: 16 * 1024 }));
    expect(exchange.error?.code).toBe('RESPONSE_TOO_LARGE');
  });

  test('a body that is not UTF-8 is recorded as such', async () => {
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from([0x5b, 0xff, 0x5d])));
    const exchange = await list(clientFor(server.baseUrl));
    expect(exchange.response?.utf8Valid).toBe(false);
  });

  test('a redirect is not followed, so the key never reaches the other origin', async () => {
    const other = await startRawServer((_req, res) => res.writeHead(200).end('[]'));
    try {
      server = await startRawServer((_req, res) => res.writeHead(307, { location: `${other.baseUrl}/categories` }).end());
      const exchange = await list(clientFor(server.baseUrl));
      expect(exchange.response?.status).toBe(307);
      expect(other.received).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('transport: chunked framing and the peer version', () => {
  test('a chunked body is sent in pieces, the first boundary inside the first multi-byte character; the pieces make the body', async () => {
    const { inChunks } = await import('../../src/http/chunks.js');
    const text = '{"name":"Café 🐈"}';
    const pieces: Buffer[] = [];
    for await (const piece of inChunks(text)) pieces.push(piece as Buffer);
    expect(Buffer.concat(pieces).toString()).toBe(text);
    expect(pieces.length).toBe(3);
    // 'é' is C3 A9: a piece ends after C3.
    expect(pieces.map((piece) => piece.at(-1))).toContain(0xc3);
    // ASCII alone: halved, no boundary of its own.
    const ascii: Buffer[] = [];
    for await (const piece of inChunks('{"name":"ab"}')) ascii.push(piece as Buffer);
    expect(ascii.map((p) => p.toString())).toEqual(['{"name"', ':"ab"}']);
  });

  test.each([
    ['a cut inside é (C3 A9), then halfway', '{"name":"Café 🐈"}', [12, 0, 0], 'split inside U+00E9 (after byte 1 of 2)'],
    ['a cut inside the first character of all (é first)', 'é', [1, 1], 'sent in 2 chunks (1 and 1 bytes), split inside U+00E9 (after byte 1 of 2)'],
    ['inside a 4-byte character, after its first byte', '🐈xyz', [1, 3, 3], 'split inside U+1F408 (after byte 1 of 4)'],
    ['near miss: ASCII alone, halved, no split named', '{"name":"ab"}', [7, 6], 'sent in 2 chunks (7 and 6 bytes)'],
    ['near miss: one byte, one chunk', 'a', [1], 'sent in 1 chunk (1 bytes)'],
  ] as const)('chunkSizes and framingWords: %s', async (_what, text, sizes, words) => {
    const { chunkSizes, framingWords } = await import('../../src/http/chunks.js');
    const cut = chunkSizes(text);
    expect(cut.reduce((a, b) => a + b, 0)).toBe(Buffer.byteLength(text));
    if (sizes[1] !== 0) expect(cut).toEqual(sizes);
    expect(framingWords(text, cut)).toContain(words);
    if (!/split inside/.test(words)) expect(framingWords(text, cut)).not.toContain('split inside');
  });

  test.each([
    ['HTTP/1.0', 'HTTP/1.0 200 OK\r\n', 'HTTP/1.0'],
    ['HTTP/1.1 in two reads', ['HTTP/', '1.1 200 OK\r\n'], 'HTTP/1.1'],
    ['near miss: garbage', 'HTTX/1.1 200', undefined],
  ] as const)('sniffPeerVersion: %s', async (_d, reads, version) => {
    const { sniffPeerVersion } = await import('../../src/http/dispatcher.js');
    const queue = [...(typeof reads === 'string' ? [reads] : reads)].map((text) => Buffer.from(text));
    const socket = { read: () => queue.shift() ?? null };
    const seen: Array<string | undefined> = [];
    sniffPeerVersion(socket as never, (found) => seen.push(found));
    const got: string[] = [];
    for (let chunk = socket.read(); chunk !== null; chunk = socket.read()) got.push(chunk.toString());
    expect(got.join('')).toBe(typeof reads === 'string' ? reads : reads.join(''));
    expect(seen).toEqual([version]);
  });

  test('an answer in HTTP/1.0 is recorded as such; one in HTTP/1.1 carries no version', async () => {
    const { createServer } = await import('node:net');
    const raw = createServer((socket) => socket.once('data', () => socket.end('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]')));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const exchange = await list(clientFor(`http://127.0.0.1:${(raw.address() as { port: number }).port}/v1`));
      expect(exchange.response?.httpVersion).toBe('HTTP/1.0');
    } finally {
      await client?.close();
      client = undefined;
      await new Promise((resolve) => raw.close(resolve));
    }
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    expect((await list(clientFor(server.baseUrl))).response?.httpVersion).toBeUndefined();
  });
});

describe("the client's cookie jar (RFC 6265), which only the key-placement check sends back", () => {
  test.each([
    ['a session cookie of the API', ['sid=abc; Path=/v1; HttpOnly'], { cookies: [{ name: 'sid', value: 'abc' }], setBy: 'the 200 to a keyed list' }],
    // RFC 6265 §5.4: the longer path first (b's default path is /v1).
    ['two, the longer path first', ['a=1; Path=/', 'b=2'], { cookies: [{ name: 'b', value: '2' }, { name: 'a', value: '1' }], setBy: 'the 200 to a keyed list' }],
    ['near miss: another path', ['sid=abc; Path=/v2'], undefined],
    ['near miss: another domain', ['sid=abc; Domain=example.com'], undefined],
    ['near miss: expired', ['sid=abc; Expires=Thu, 01 Jan 1970 00:00:00 GMT'], undefined],
    ['none set', [], undefined],
  ] as const)('%s', async (_what, setCookie, jar) => {
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...(setCookie.length > 0 ? { 'set-cookie': [...setCookie] } : {}) }).end('[]'));
    const c = clientFor(server.baseUrl);
    await list(c);
    expect(c.cookiesFor('/categories')).toEqual(jar);
  });

  test('says which answer set a cookie: the 401 to a keyless create', async () => {
    server = await startRawServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json', 'set-cookie': 'tracking=1' }).end('{}'));
    const c = clientFor(server.baseUrl);
    await c.send({ method: 'POST', path: '/categories', credential: { name: 'missing', description: 'none' }, body: { json: {} } }, 'test');
    expect(c.cookiesFor('/categories')?.setBy).toBe('the 401 to a keyless create');
  });
});

describe('a check that ends passes its large-body lease on (client.release)', () => {
  test('after a 21 MiB list (one lease in the budget), a second check sends once the first has ended', async () => {
    const large = `[${' '.repeat(21 * 1024 * 1024)}]`;
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(large));
    // The deadline is a guard: two vitest runs beside this one took the 21 MiB past the 2 s of the others here.
    const c = clientFor(server.baseUrl, { maxResponseBytes: 32 * 1024 * 1024, timeoutMs: 60_000 });
    expect((await c.send({ method: 'GET', path: '/categories', credential: validCredential(KEY) }, 'first')).response?.bodyBytes).toBe(large.length);
    let sent = false;
    const second = c.send({ method: 'GET', path: '/categories', credential: validCredential(KEY) }, 'second').then((exchange) => ((sent = true), exchange));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(false);
    expect(server.received).toHaveLength(1);
    c.release('first');
    expect((await second).response?.status).toBe(200);
    expect(server.received).toHaveLength(2);
  });
});

describe('a request whose body turns out large while every lease is taken', () => {
  test('gives way, says so in its superseded attempt, and is sent again once a lease is free', async () => {
    // Two 21 MiB lists at once, before any large body was seen: the budget holds one lease.
    const large = `[${' '.repeat(21 * 1024 * 1024)}]`;
    server = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(large));
    const c = clientFor(server.baseUrl, { maxResponseBytes: 32 * 1024 * 1024, timeoutMs: 60_000 });
    const superseded: string[] = [];
    const send = (check: string) =>
      c.send({ method: 'GET', path: '/categories', credential: validCredential(KEY) }, check, (attempt) => void (attempt.superseded && superseded.push(attempt.superseded))).then((exchange) => (c.release(check), exchange));
    const answers = await Promise.all([send('a'), send('b')]);
    expect(answers.map((exchange) => exchange.response?.bodyBytes)).toEqual([large.length, large.length]);
    expect(superseded).toEqual(['gave way to the checks holding large-body leases: sent again once its check held one']);
    expect(server.received).toHaveLength(3);
  });
});

test('close ends every connection the client kept alive: the server sees each close', async () => {
  const closed: Array<Promise<void>> = [];
  server = await startRawServer((req, res) => {
    closed.push(new Promise<void>((resolve) => req.socket.once('close', () => resolve())));
    // Kept alive for 10 minutes on both sides (undici heeds the hint): only the client's close ends them.
    res.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=600' }).end('[]');
  }, { keepAliveTimeout: 600_000 });
  const c = clientFor(server.baseUrl);
  // Two at once: two connections, both kept alive.
  await Promise.all([list(c), list(c)]);
  expect(closed).toHaveLength(2);
  await c.close();
  client = undefined;
  await Promise.all(closed);
});

test('a stop abandons a request still waiting for its connection (a proxy that never answers CONNECT): it ends at the stop, not at its timeout', async () => {
  const { createServer: createTcpServer } = await import('node:net');
  const { RequestGuard } = await import('../../src/http/safety.js');
  const held: import('node:net').Socket[] = [];
  // Accepts the tunnel's connection and never answers the CONNECT.
  const silent = createTcpServer((socket) => void held.push(socket.resume()));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const guard = new RequestGuard({ profile: 'full' });
  client = new HttpClient({
    baseUrl: 'http://target.invalid/v1',
    timeoutMs: 3_600_000,
    maxResponseBytes: 1024,
    connections: 1,
    patienceSeconds: 30,
    redactor: new Redactor(),
    userAgent: 'test',
    guard,
    proxy: { httpProxy: `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}`, httpsProxy: '', noProxy: '' },
  });
  try {
    const sending = list(client).then(
      (exchange) => `answered: ${exchange.error?.code}`,
      (error: Error) => `thrown: ${error.name}`,
    );
    // Once the proxy holds the tunnel's connection, the run stops.
    await new Promise<void>((resolve) => silent.once('connection', () => resolve()));
    guard.stop('interrupted by the user');
    expect(await sending).toBe('thrown: RunStopped');
  } finally {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('a proxy that accepts each tunnel and then breaks it: the request ends after a few connections, not 300,000; near miss: the count stops at the bound', async () => {
  const { createServer: createTcpServer } = await import('node:net');
  const { MAX_CONNECTS_PER_REQUEST } = await import('../../src/http/client.js');
  let tunnels = 0;
  const breaking = createTcpServer((socket) => socket.once('data', () => void (tunnels++, socket.end('HTTP/1.1 200 Connection established\r\n\r\nnot HTTP at all\r\n\r\n'))));
  await new Promise<void>((resolve) => breaking.listen(0, '127.0.0.1', resolve));
  client = new HttpClient({
    baseUrl: 'http://target.invalid/v1',
    timeoutMs: 60_000,
    maxResponseBytes: 1024,
    connections: 1,
    patienceSeconds: 30,
    redactor: new Redactor(),
    userAgent: 'test',
    proxy: { httpProxy: `http://127.0.0.1:${(breaking.address() as import('node:net').AddressInfo).port}`, httpsProxy: '', noProxy: '' },
  });
  try {
    const exchange = await list(client);
    expect(exchange.error?.message).toMatch(new RegExp(`^${MAX_CONNECTS_PER_REQUEST + 1} connections in a row failed before a response \\(a proxy that accepts the tunnel and then breaks it`));
    expect(tunnels).toBeLessThanOrEqual(MAX_CONNECTS_PER_REQUEST + 2);
  } finally {
    await new Promise((resolve) => breaking.close(resolve));
  }
});
