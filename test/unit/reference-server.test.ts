/**
 * The embedded reference server's lifecycle (src/reference/server.ts): closing it ends
 * every connection, answered or not, so a run or a test never waits on a client.
 */
import { request } from 'node:http';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.js';
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
