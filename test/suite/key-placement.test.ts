/**
 * A key taken from anywhere but the Authorization header is caught in every profile: the
 * faults that accept it from the query (auth-key-in-query), an X-API-Key header or a
 * session cookie (auth-key-outside-authorization) fail in a read-only run (all their cases
 * but the form field are GETs), and the reference server passes it (the near miss). The full profile is the
 * matrix's (test/suite/matrix.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../support/matrix.js';
import { startNamedFront, type NamedFront } from '../support/named-front.js';
import { runAgainst } from '../support/targets.js';

const { faults } = await loadCatalogue();

describe('read-only profile', () => {
  test.each([
    ['reference', 'auth-key-outside-authorization', 'passed', /.*/, 4],
    ['reference', 'auth-key-in-query', 'passed', /.*/, 5],
    ['key-in-query-accepted', 'auth-key-in-query', 'failed', /authenticated it by the query parameter access_token/, 5],
    ['near miss: key-in-query-accepted', 'auth-key-outside-authorization', 'passed', /.*/, 4],
    ['api-key-header-accepted', 'auth-key-outside-authorization', 'failed', /authenticated it by the header X-API-Key/, 4],
    ['session-cookie-accepted', 'auth-key-outside-authorization', 'failed', /authenticated it by the cookie `session` alone \(set by the 200 to a keyed list\)/, 4],
  ] as const)('%s: %s %s', async (name, id, status, message, sent) => {
    const fault = faults.get(name.replace(/^near miss: /, ''));
    const { report, exchanges } = await runAgainst(fault ? { variations: [fault.variation] } : {}, { profile: 'read-only', checkFilter: `^${id}$` });
    const check = report.checks.find((c) => c.id === id)!;
    expect(check.status).toBe(status);
    if (status === 'failed') expect(check.failure!.message).toMatch(message);
    // No POST in a read-only run: the form field is not sent.
    expect(exchanges.length).toBeGreaterThanOrEqual(sent);
    expect(exchanges.filter((exchange) => exchange.request.method !== 'GET')).toEqual([]);
  }, 60_000);
});

describe('a target off loopback: no key in any URL unless --allow-key-in-url', () => {
  /** A read-only run of the reference server reached as staging.example.test (through a CONNECT front), and the URLs the server received that held the key. */
  const remoteRun = async (allowKeyInUrl: boolean) => {
    let front: NamedFront | undefined;
    // Each request-target as the server read it, query included.
    const urls: string[] = [];
    try {
      const run = await runAgainst(
        { front: async ({ baseUrl }) => (front = await startNamedFront(baseUrl)).baseUrl, server: (http) => void http.on('request', (req) => urls.push(req.url ?? '')) },
        { profile: 'read-only', allowKeyInUrl, get env() { return { HTTP_PROXY: front!.proxyUrl }; } },
      );
      return { ...run, heard: urls, keyedUrls: urls.filter((url) => url.includes(run.apiKey) || url.includes(encodeURIComponent(run.apiKey))) };
    } finally {
      await front?.close();
    }
  };

  test('by default the key goes in no URL (counted at the server), and auth-key-in-query says why it did not run', async () => {
    const { report, heard, keyedUrls } = await remoteRun(false);
    expect(report.target.baseUrl).toMatch(/^http:\/\/staging\.example\.test:\d+\/v1$/);
    expect(heard.length).toBeGreaterThan(100);
    expect(keyedUrls).toEqual([]);
    expect(report.checks.find((c) => c.id === 'auth-key-in-query')).toMatchObject({ status: 'skipped', reason: "would write the key into the target's access logs; --allow-key-in-url runs it" });
    expect(report.checks.find((c) => c.id === 'auth-key-outside-authorization')!.status).toBe('passed');
    expect(report.verdict).toBe('conformant');
  }, 120_000);

  test('near miss: with --allow-key-in-url, the five query parameters go out and the check runs', async () => {
    const { report, keyedUrls } = await remoteRun(true);
    expect(keyedUrls.map((url) => url.split('?')[1]!.split('=')[0])).toEqual(['access_token', 'api_key', 'apikey', 'key', 'token']);
    expect(report.checks.find((c) => c.id === 'auth-key-in-query')!.status).toBe('passed');
  }, 120_000);
});
