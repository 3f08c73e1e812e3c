import { describe, expect, test } from 'vitest';
import type { RequestSpec } from '../../src/http/client.js';
import type { Exchange } from '../../src/http/exchange.js';
import {
  defaultProfile,
  isLoopback,
  ProfileViolation,
  RequestGuard,
  retryAfterMs,
  RunStopped,
  TargetHealth,
  PERSISTENT_429,
  UNPARSEABLE_BODIES,
} from '../../src/http/safety.js';

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
    ['no body', post()],
    ['PUT', { ...post({ text: UNPARSEABLE_BODIES[0]! }), method: 'PUT' }],
    ['DELETE', { ...none, method: 'DELETE' }],
  ])('refuses %s', (_label, spec) => {
    expect(() => guard().admit(spec as RequestSpec)).toThrow(ProfileViolation);
  });

  test('lets GET and the unparseable probes through', () => {
    const g = guard();
    g.admit({ ...none, method: 'GET' });
    for (const text of UNPARSEABLE_BODIES) {
      g.admit(post({ text }));
      expect(() => JSON.parse(text)).toThrow();
    }
    expect(g.counts).toEqual({ requests: 1 + UNPARSEABLE_BODIES.length, writes: UNPARSEABLE_BODIES.length });
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

  test('retries a 429 after a short Retry-After, at most 3 times, then stops the run', () => {
    const guard = new RequestGuard({ profile: 'full' });
    const health = new TargetHealth(guard);
    expect(health.retryDelay(answered(429, { 'retry-after': '2' }), 0)).toBe(2000);
    expect(health.retryDelay(answered(200), 0)).toBeUndefined();
    expect(health.retryDelay(answered(429, { 'retry-after': '0' }), 3)).toBeUndefined();
    expect(guard.stopped).toMatch(/kept answering 429/);
  });

  test('a 429 holds back every request of the run for its Retry-After', () => {
    const health = new TargetHealth(new RequestGuard({ profile: 'full' }));
    expect(health.holdMs()).toBe(0);
    const now = Date.now();
    health.retryDelay(answered(429, { 'retry-after': '2' }), 0);
    expect(health.holdMs(now)).toBeGreaterThanOrEqual(2000);
    expect(health.holdMs(now + 2_500)).toBe(0);
  });

  test(`stops after ${PERSISTENT_429} consecutive 429s across requests, not after an interrupted run of them`, () => {
    const guard = new RequestGuard({ profile: 'full' });
    const health = new TargetHealth(guard);
    const refused = answered(429, { 'retry-after': '0' });
    for (let i = 0; i < PERSISTENT_429 - 1; i++) health.observe(refused);
    health.observe(answered(201));
    for (let i = 0; i < PERSISTENT_429 - 1; i++) {
      health.observe(refused);
      expect(health.retryDelay(refused, 0)).toBe(0); // each request is on its first retry
    }
    expect(guard.stopped).toBeUndefined();
    health.observe(refused);
    expect(health.retryDelay(refused, 0)).toBeUndefined();
    expect(guard.stopped).toMatch(/kept answering 429/);
  });

  test('stops at once when Retry-After asks for more than 30 s', () => {
    const guard = new RequestGuard({ profile: 'full' });
    expect(new TargetHealth(guard).retryDelay(answered(429, { 'retry-after': '120' }), 0)).toBeUndefined();
    expect(guard.stopped).toBeDefined();
  });

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

  test('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Sat, 21 Nov 2026 20:00:10 GMT', Date.parse('Sat, 21 Nov 2026 20:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
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
