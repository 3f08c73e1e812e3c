/**
 * When a run cannot be assessed, its one-line reason names the cause (src/report/build.ts).
 */
import { expect, test } from 'vitest';
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
