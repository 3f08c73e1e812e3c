/**
 * When a run cannot be assessed, its one-line reason names the cause (src/report/build.ts).
 */
import { describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { buildReport } from '../../src/report/build.js';
import { answered, unanswered } from '../support/exchanges.js';

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 1, runId: 'abc', userAgent: 'x', profile: 'full', profileSource: 'default' };
const reason = (exchanges: ReturnType<typeof answered>[], keySource?: string) =>
  buildReport({ settings, startedAt: new Date(0), durationMs: 1, checks: [], exchanges, created: [], runErrors: [], ...(keySource ? { keySource } : {}) }).verdictReason;

test('every request failed: the first failure that is not a consequence of a hung route is named', () => {
  expect(reason([unanswered('ABANDONED'), unanswered('TIMEOUT')])).toBe('every request failed, first with TIMEOUT: timeout (a test)');
});

test('every request with the key answered 401 names the key and where it came from', () => {
  expect(reason([answered(401, {}), answered(401, {}, { method: 'POST' }), answered(401, {}, { credential: 'missing' })], 'the environment variable K')).toBe(
    'every request with the configured key (2) was answered 401: the target refuses the key. Check the environment variable K, and that the key belongs to http://127.0.0.1:9/v1',
  );
});

test('a 401 for some requests with the key is not a setup problem: the run is judged', () => {
  expect(reason([answered(401, {}), answered(200, [])])).not.toMatch(/configured key/);
});

test.each([
  [403, 'every request with the configured key (2) was answered 403: the key is not allowed to use the categories interface. Check the API key and its permissions at http://127.0.0.1:9/v1'],
  [404, 'every request with the configured key (2) was answered 404: nothing is served at http://127.0.0.1:9/v1/categories. Check the base URL: it ends with the version segment /v1 where the service mounts it'],
])('every request with the key answered %i: the cause named', (status, said) => {
  expect(reason([answered(status, {}), answered(status, {}, { method: 'POST' })])).toBe(said);
});

test.each([400, 405, 500])('near miss: every request with the key answered %i names no setup problem of the key or the base URL', (status) => {
  expect(reason([answered(status, {}), answered(status, {}, { method: 'POST' })])).not.toMatch(/configured key/);
});

test('one request with the key, answered 401, is enough to name the key; near miss: none with the key names nothing', () => {
  expect(reason([answered(401, {})])).toMatch(/^every request with the configured key \(1\) was answered 401/);
  expect(reason([answered(401, {}, { credential: 'missing' })])).not.toMatch(/configured key/);
});

describe('a refused header: every request answered the same 4xx (but 401 and 404)', () => {
  const withHeader: RunSettings = { ...settings, extraHeaders: [{ name: 'x-trace', value: 'abc', shown: 'abc', secret: false }] };
  const said = (exchanges: ReturnType<typeof answered>[]) =>
    buildReport({ settings: withHeader, startedAt: new Date(0), durationMs: 1, checks: [], exchanges, created: [], runErrors: [] }).verdictReason;
  const twice = (status: number) => [answered(status, {}), answered(status, {}, { credential: 'missing' })];

  test.each([400, 431, 499])('%i to both requests names the header', (status) => {
    expect(said(twice(status))).toBe(`every request (2) was answered ${status}, each carrying the configured header x-trace (3 bytes): the target refuses what they share. Check --header and --header-env`);
  });
  test.each([399, 500, 401, 404])('near miss: %i to both names no header', (status) => {
    expect(said(twice(status))).not.toMatch(/configured header/);
  });
  test('near miss: one request alone, or two answered differently, names no header', () => {
    expect(said([answered(431, {})])).not.toMatch(/configured header/);
    expect(said([answered(431, {}), answered(400, {}, { credential: 'missing' })])).not.toMatch(/configured header/);
  });
  test('near miss: the same 431 without a configured header is not a header refused', () => {
    expect(reason(twice(431))).not.toMatch(/configured header/);
  });
});
