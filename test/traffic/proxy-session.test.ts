/**
 * The validating proxy's session, end to end and quickly (src/traffic/proxy-session.ts):
 * what a client sends through it reaches the target whole, is judged, and a session that
 * cut nothing says nothing of cuts. The slow tier (proxy.test.ts) puts it in front of
 * every variant and fault.
 */
import { request } from 'undici';
import { expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.js';
import { runProxySession } from '../../src/traffic/proxy-session.js';
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
