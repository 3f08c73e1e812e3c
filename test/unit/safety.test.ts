import { describe, expect, test } from 'vitest';
import type { RequestSpec } from '../../src/http/request.js';
import type { Exchange } from '../../src/core/exchange.js';
import { ProfileViolation, RunStopped } from '../../src/core/errors.js';
import { isLoopback } from '../../src/config/base-url.js';
import { defaultProfile } from '../../src/config/settings.js';
import { RequestGuard, TargetHealth } from '../../src/http/safety.js';

const none = { method: 'POST', path: '/categories', credential: { name: 'valid', description: '' } };
const post = (body?: RequestSpec['body']): RequestSpec => ({ ...none, body });

describe('RequestGuard, read-only', () => {
  const guard = () => new RequestGuard({ profile: 'read-only' });

  test.each([
    ['a valid body', post({ json: { name: 'x' } })],
    ['a partially valid body', post({ json: { description: 'x' } })],
    ['any other JSON', post({ json: 42 })],
    ['lenient JSON', post({ text: "{'name': 'x'}" })],
    ['an empty body', post({ text: '' })],
    ['an unparseable body', post({ text: '{"name": ' })],
    ['no body', post()],
    ['PUT', { ...post({ text: '{}' }), method: 'PUT' }],
    ['DELETE', { ...none, method: 'DELETE' }],
  ])('refuses %s', (_label, spec) => {
    expect(() => guard().admit(spec as RequestSpec)).toThrow(ProfileViolation);
  });

  test('lets GET through, and counts it', () => {
    const g = guard();
    g.admit({ ...none, method: 'GET' });
    expect(g.counts).toEqual({ requests: 1, writes: 0 });
  });
});

describe('RequestGuard: no key in a URL to a target off loopback, unless asked (a backstop behind auth-key-in-query)', () => {
  const KEY = 'Secret-Key_0123/456+789';
  const get = (path: string, query?: string): RequestSpec => ({ ...none, method: 'GET', path, credential: { name: 'key-in-query', description: '', ...(query ? { placed: { headers: {}, query: { sent: query, shown: query } } } : {}) } });
  const guard = (baseUrl: string, allowKeyInUrl = false) => new RequestGuard({ profile: 'read-only', apiKey: KEY, baseUrl, allowKeyInUrl });
  test.each([
    ['the key in a query parameter, a remote target', 'https://api.example.com/v1', get('/categories', `access_token=${KEY}`), false, true],
    ['the key percent-encoded in a query parameter', 'https://api.example.com/v1', get('/categories', `api_key=${encodeURIComponent(KEY)}`), false, true],
    ['the key in the path', 'https://api.example.com/v1', get(`/categories/${encodeURIComponent(KEY)}`), false, true],
    ['near miss: --allow-key-in-url', 'https://api.example.com/v1', get('/categories', `access_token=${KEY}`), true, false],
    ['near miss: a loopback target', 'http://127.0.0.1:8080/v1', get('/categories', `access_token=${KEY}`), false, false],
    ['near miss: a remote target, the key cut short in the URL', 'https://api.example.com/v1', get('/categories', `access_token=${KEY.slice(0, -1)}`), false, false],
    ['near miss: a remote target, no key in the URL', 'https://api.example.com/v1', get('/categories'), false, false],
  ] as const)('%s', (_what, baseUrl, spec, allow, refused) => {
    const admit = () => guard(baseUrl, allow).admit(spec);
    if (refused) expect(admit).toThrow(/^the key goes in no URL to a target off loopback without --allow-key-in-url: GET \/categories/);
    else expect(admit).not.toThrow();
  });
});

describe('RequestGuard, budgets', () => {
  test('stops the run when the request budget is spent', () => {
    const guard = new RequestGuard({ profile: 'full', maxRequests: 2 });
    guard.admit({ ...none, method: 'GET' });
    guard.admit({ ...none, method: 'GET' });
    expect(() => guard.admit({ ...none, method: 'GET' })).toThrow(RunStopped);
    expect(guard.stopped).toMatch(/--max-requests 2/);
  });

  test('refuses writes past the write budget, and still lets reads through', () => {
    const guard = new RequestGuard({ profile: 'full', maxWrites: 1 });
    guard.admit(post({ json: { name: 'x' } }));
    expect(() => guard.admit(post({ json: { name: 'y' } }))).toThrow(/--max-writes 1/);
    guard.admit({ ...none, method: 'GET' });
    expect(guard.stopped).toBeUndefined();
  });
});

describe('TargetHealth', () => {
  const answered = (status: number, headers: Record<string, string> = {}) =>
    ({ response: { status, headers, body: '', bodyBytes: 0, utf8Valid: true } }) as Exchange;

  test('stops after 50 consecutive 5xx, not after 49 or interrupted runs of them', () => {
    const guard = new RequestGuard({ profile: 'full' });
    const health = new TargetHealth(guard);
    for (let i = 0; i < 49; i++) health.observe(answered(503));
    health.observe(answered(201));
    for (let i = 0; i < 49; i++) health.observe(answered(500));
    expect(guard.stopped).toBeUndefined();
    health.observe(answered(500));
    expect(guard.stopped).toMatch(/50 requests in a row with 5xx/);
  });

});

describe('no surprise writes', () => {
  test.each([
    [undefined, 'full'],
    ['http://127.0.0.1:8080/v1', 'full'],
    ['http://127.9.9.9/v1', 'full'],
    ['http://localhost:3000/v1', 'full'],
    ['http://[::1]:3000/v1', 'full'],
    ['https://api.example.com/v1', 'read-only'],
    ['https://10.0.0.5/v1', 'read-only'],
    ['https://127.example.com/v1', 'read-only'],
  ])('the default profile for %s is %s', (url, profile) => {
    expect(defaultProfile(url)).toBe(profile);
  });

  test('isLoopback knows its hosts', () => {
    expect(isLoopback('http://127.0.0.1/v1')).toBe(true);
    expect(isLoopback('http://localhost.evil.com/v1')).toBe(false);
  });
});
