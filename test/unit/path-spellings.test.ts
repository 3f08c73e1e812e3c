/**
 * Other spellings of the interface's path (src/http/path-spellings.ts): each told apart
 * from the exact path and from other paths, each near miss beside it; each sent by the
 * client as written, and replayed by curl as written.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { targetAsWritten } from '../../src/core/exchange.js';
import { HttpClient } from '../../src/http/client.js';
import { validCredential } from '../../src/http/credential.js';
import { onOperationPath, PATH_SPELLINGS, spellingOf } from '../../src/http/path-spellings.js';
import { curlCommand } from '../../src/report/curl.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { startRawServer, type RawServer } from '../support/raw-server.js';

const ORIGIN = 'http://api.example:8080';

describe('targetAsWritten', () => {
  test.each([
    ['http://h/v1/./categories', { path: '/v1/./categories' }],
    ['http://h/v1/categories?', { path: '/v1/categories', query: '' }],
    ['http://h/v1/categories?a=1#frag', { path: '/v1/categories', query: 'a=1' }],
    ['https://user@h:443/v1//categories#x', { path: '/v1//categories' }],
    ['http://h', { path: '/' }],
    ['http://h?x=1', { path: '/', query: 'x=1' }],
    ['http://h/?x=1', { path: '/', query: 'x=1' }],
    ['/v1/categories?x', { path: '/v1/categories', query: 'x' }],
  ])('%s', (url, target) => expect(targetAsWritten(url)).toEqual(target));

  test('asked again, the same answer, which no caller can change; past the URLs it keeps, still right', () => {
    const first = targetAsWritten('http://h/v1/categories?a=1');
    expect(targetAsWritten('http://h/v1/categories?a=1')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // The near miss: a URL that differs by its query only is another target.
    expect(targetAsWritten('http://h/v1/categories?a=2')).toEqual({ path: '/v1/categories', query: 'a=2' });
    for (let i = 0; i < 600; i++) expect(targetAsWritten(`http://h/v1/c${i}?q=${i}`)).toEqual({ path: `/v1/c${i}`, query: `q=${i}` });
    expect(targetAsWritten('http://h/v1/categories?a=1')).toEqual({ path: '/v1/categories', query: 'a=1' });
  });
});

describe('spellingOf: which spelling of {base}/categories a URL is', () => {
  test.each(PATH_SPELLINGS.flatMap((spelling) => ['/v1', '/api/v1'].map((base) => [spelling.id, base, spelling.spell(base)] as const)))('%s under %s: %s', (id, _base, path) => {
    expect(spellingOf(`${ORIGIN}${path}`)?.id).toBe(id);
    expect(onOperationPath(`${ORIGIN}${path}`)).toBe(false);
  });

  test.each([
    ['the exact path', '/v1/categories', undefined, true],
    ['the exact path with a query', '/v1/categories?access_token=x', undefined, true],
    ['near miss: a dot-dot segment resolving to it', '/v1/x/../categories', 'dot-segment', false],
    ['near miss: a percent-encoded reserved character is another path', '/v1%2Fcategories', undefined, false],
    ['another resource', '/v1/categories/1', undefined, false],
    ['another collection', '/v1/pets', undefined, false],
    ['another version', '/v2/categories', undefined, false],
    ['near miss: a dot segment that is a file name', '/v1/.categories', undefined, false],
    ['a trailing slash on the other case', '/V1/categories/', 'trailing-slash', false],
    ['two matrix parameters', '/v1;a=1/categories;b=2', 'matrix-parameter', false],
  ])('%s: %s', (_what, path, id, onPath) => {
    expect(spellingOf(`${ORIGIN}${path}`)?.id).toBe(id);
    expect(onOperationPath(`${ORIGIN}${path}`)).toBe(onPath);
  });
});

describe('a spelling is sent as written, and its curl replay too', () => {
  let server: RawServer;
  beforeAll(async () => {
    server = await startRawServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"u","message":"m","status":401}'));
  });
  afterAll(() => server.close());

  test('the client sends each spelling byte for byte (undici would resolve dot segments and drop an empty query)', async () => {
    const client = new HttpClient({ baseUrl: server.baseUrl, connections: 2, patienceSeconds: 1, userAgent: 't', timeoutMs: 5_000, maxResponseBytes: 1 << 20, redactor: new Redactor() });
    try {
      for (const spelling of PATH_SPELLINGS) {
        const path = spelling.spell('/v1');
        const exchange = await client.send({ method: 'GET', path, fromOrigin: true, credential: validCredential('k') }, 'test');
        expect(server.received.at(-1)!.url).toBe(path);
        expect(exchange.request.url).toBe(`${server.origin}${path}`);
      }
    } finally {
      await client.close();
    }
  });

  test.skipIf(!existsSync('/usr/bin/curl'))('curl sends the recorded path of each spelling (--path-as-is where it has dot segments)', async () => {
    for (const spelling of PATH_SPELLINGS) {
      const path = spelling.spell('/v1');
      await promisify(execFile)('sh', ['-c', curlCommand({ method: 'GET', url: `${server.origin}${path}`, headers: {} })]);
      expect(server.received.at(-1)!.url, spelling.id).toBe(path);
    }
  });
});
