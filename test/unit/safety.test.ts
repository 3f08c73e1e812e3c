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

  /** Answers to the key: a list (GET) or a create (POST), with a status. */
  const keyed = (method: 'GET' | 'POST', status: number) =>
    ({ credential: 'valid', request: { method, url: 'http://h/v1/categories', headers: {} }, response: { status, headers: {}, body: '', bodyBytes: 0, utf8Valid: true } }) as unknown as Exchange;
  /** The health after the key worked once, then `refusals` (each a list or a create). */
  const afterWorking = (refusals: ReadonlyArray<'GET' | 'POST'>, status = 401) => {
    const guard = new RequestGuard({ profile: 'full' });
    const health = new TargetHealth(guard);
    health.observe(keyed('GET', 200));
    for (const method of refusals) health.observe(keyed(method, status));
    return guard.stopped;
  };
  const creates = (n: number) => Array.from({ length: n }, () => 'POST' as const);

  test.each([
    ['8 refusals in a row after the key worked, 2 lists among them: revoked', [...creates(6), 'GET', 'GET'], 'the target began refusing the key after it had worked: the last 8 requests with it were answered 401, lists among them, the first POST /v1/categories; the key was revoked or changed while the run went on'],
    ['near miss: 7 refusals', [...creates(5), 'GET', 'GET'], undefined],
    ['near miss: 8 refusals with 1 list (a server that refuses creates is judged)', [...creates(7), 'GET'], undefined],
    ['near miss: 8 creates refused, no list', creates(8), undefined],
  ] as const)('%s', (_what, refusals, stopped) => expect(afterWorking(refusals)).toBe(stopped));

  test('near miss: an answer between the refusals starts the count again; a 403 after 401s is another streak', () => {
    const guard = new RequestGuard({ profile: 'full' });
    const health = new TargetHealth(guard);
    health.observe(keyed('GET', 200));
    for (let i = 0; i < 7; i++) health.observe(keyed('GET', 401));
    health.observe(keyed('GET', 200));
    for (let i = 0; i < 7; i++) health.observe(keyed('GET', 401));
    health.observe(keyed('GET', 403));
    expect(guard.stopped).toBeUndefined();
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
