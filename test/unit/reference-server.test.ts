/**
 * The embedded reference server (src/reference/server.ts): closing it ends every
 * connection, answered or not, so a run or a test never waits on a client; its body limit
 * is exact.
 */
import { request } from 'node:http';
import { request as undiciRequest } from 'undici';
import { describe, expect, test } from 'vitest';
import { GENERATED_KEY_BYTES, REFERENCE_MAX_BODY_BYTES, startReferenceServer } from '../../src/reference/server.js';
import { countingRequests } from '../support/targets.js';

/** A GET whose answer never comes until the server ends its connection: resolves with how it ended. */
function pendingGet(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => resolve(`answered ${res.statusCode}`));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

test('close ends a connection whose request is still being answered', async () => {
  const held = countingRequests({ holdFrom: 1 });
  const server = await startReferenceServer({ variations: [held.variation] });
  const ended = pendingGet(`${server.baseUrl}/categories`);
  await held.reached(1);
  await server.close();
  expect(await ended).toBe('ECONNRESET');
  held.release();
});

test('near miss: a request answered before close gets its answer', async () => {
  const server = await startReferenceServer();
  const answered = await pendingGet(`${server.baseUrl}/categories`);
  await server.close();
  expect(answered).toBe('answered 401');
});

describe('the body limit: a body of exactly REFERENCE_MAX_BODY_BYTES is read, one byte more is refused with 413', () => {
  /** A create whose JSON body is `bytes` long (its description pads it). */
  const body = (bytes: number) => {
    const head = '{"name":"big","description":"';
    return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  };
  test.each([
    ['exactly the limit: read (and judged on its fields)', REFERENCE_MAX_BODY_BYTES, 201],
    ['near miss: one byte more: 413', REFERENCE_MAX_BODY_BYTES + 1, 413],
  ])('%s', async (_d, bytes, status) => {
    const server = await startReferenceServer();
    try {
      const text = body(bytes);
      expect(Buffer.byteLength(text)).toBe(bytes);
      const response = await undiciRequest(`${server.baseUrl}/categories`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body: text });
      await response.body.dump();
      expect(response.statusCode).toBe(status);
    } finally {
      await server.close();
    }
  });
});

test('ids past 2^53 are written exactly (lossless-json takes over from JSON.stringify); near miss: an id within 2^53 is written as it is', async () => {
  for (const [firstId, written] of [[2n ** 53n + 1n, '9007199254740993'], [2n ** 53n - 1n, '9007199254740991']] as const) {
    const server = await startReferenceServer({ firstId });
    try {
      const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
      const created = await undiciRequest(`${server.baseUrl}/categories`, { method: 'POST', headers, body: '{"name":"big"}' });
      expect([created.statusCode, await created.body.text()]).toEqual([201, `{"id":${written},"name":"big"}`]);
      const listed = await undiciRequest(`${server.baseUrl}/categories`, { headers });
      expect(await listed.body.text()).toBe(`[{"id":${written},"name":"big"}]`);
    } finally {
      await server.close();
    }
  }
});

test('the routes outside the categories interface answer 501 with an Error body, GET /pets/{petId} with Deprecation and Sunset; near miss: another route 404', async () => {
  const server = await startReferenceServer();
  try {
    const headers = { authorization: `Bearer ${server.apiKey}` };
    const pets = await undiciRequest(`${server.baseUrl}/pets/1`, { headers });
    expect([pets.statusCode, pets.headers.deprecation, pets.headers.sunset, await pets.body.json()]).toEqual([501, '@1767225600', 'Wed, 30 Jun 2027 23:59:59 GMT', { code: 'not_implemented', message: '/pets/1 is outside the specified categories interface', status: 501 }]);
    const orders = await undiciRequest(`${server.baseUrl}/store/orders`, { headers });
    expect([orders.statusCode, orders.headers.deprecation, (await orders.body.json() as { status: number }).status]).toEqual([501, undefined, 501]);
    const other = await undiciRequest(`${server.baseUrl}/store`, { headers });
    await other.body.dump();
    expect(other.statusCode).toBe(404);
  } finally {
    await server.close();
  }
});

test('a key made for want of one is the length docs/running.md states (its fact, from GENERATED_KEY_BYTES), in base64url, and another each time', async () => {
  const { docFacts } = await import('../../scripts/cli-docs.js');
  const stated = Number((await docFacts())['generated-key']);
  const [first, second] = [await startReferenceServer(), await startReferenceServer()];
  try {
    expect(stated).toBe(Math.ceil((GENERATED_KEY_BYTES * 4) / 3));
    for (const server of [first, second]) expect(server.apiKey).toMatch(new RegExp(`^[A-Za-z0-9_-]{${stated}}$`));
    expect(first.apiKey).not.toBe(second.apiKey);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});
