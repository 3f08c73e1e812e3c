/**
 * Case tables for the judgements of challenges and deprecation, each valid case beside a
 * near miss (as JSON-Schema-Test-Suite pairs them), and the meta-test that every exported
 * judgement has a case table.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { challengesInvalidToken } from '../../src/judgements/auth.js';
import { signalsDeprecation } from '../../src/judgements/deprecation.js';
import { answered, judged } from '../support/exchanges.js';

const unauthorized = (challenge?: string) => answered(401, { code: 'unauthorized', message: 'no', status: 401 }, { headers: challenge === undefined ? {} : { 'www-authenticate': challenge } });

describe('unauthorized-invalid-token: the 401 to an unknown key challenges with error="invalid_token"', () => {
  test.each([
    ['quoted, as RFC 6750 writes it', 'Bearer realm="petstore", error="invalid_token"', 'passed'],
    ['unquoted token value', 'Bearer error=invalid_token', 'passed'],
    ['parameter name in another case', 'Bearer realm="x", ERROR="invalid_token"', 'passed'],
    ['spaces around =', 'Bearer error = "invalid_token"', 'passed'],
    ['near miss: another error code', 'Bearer realm="petstore", error="invalid_request"', 'failed'],
    ['near miss: the code inside another parameter', 'Bearer realm="petstore", error_description="invalid_token"', 'failed'],
    ['near miss: a parameter whose name ends in error', 'Bearer realm="petstore", suberror="invalid_token"', 'failed'],
    ['near miss: a challenge without error', 'Bearer realm="petstore"', 'failed'],
    ['near miss: no WWW-Authenticate', undefined, 'failed'],
  ] as const)('%s', (_what, challenge, outcome) => {
    const result = judged(() => challengesInvalidToken(unauthorized(challenge)));
    expect(result === 'passed' ? 'passed' : 'failed').toBe(outcome);
  });

  test('near miss: a 400 with the right challenge fails on its status', () => {
    const exchange = answered(400, { code: 'bad', message: 'no', status: 400 }, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
    expect(judged(() => challengesInvalidToken(exchange))).toEqual({ expected: 'status 401', found: 'status 400' });
  });
});

describe('pets-deprecation-signalled: Deprecation as a date, Sunset as an HTTP-date', () => {
  const pets = (headers: Record<string, string>) => answered(501, { code: 'x', message: 'y', status: 501 }, { path: '/pets/1', headers });
  test.each([
    ['both, IMF-fixdate', { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'passed'],
    ['the obsolete RFC 850 form a recipient must accept', { deprecation: '@1767225600', sunset: 'Wednesday, 30-Jun-27 23:59:59 GMT' }, 'passed'],
    ['the asctime form', { deprecation: '@1767225600', sunset: 'Wed Jun 30 23:59:59 2027' }, 'passed'],
    ['near miss: Deprecation: true (an earlier draft)', { deprecation: 'true', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'failed'],
    ['near miss: Deprecation as an HTTP-date', { deprecation: 'Wed, 01 Jan 2026 00:00:00 GMT', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'failed'],
    ['near miss: Sunset as ISO 8601', { deprecation: '@1767225600', sunset: '2027-06-30T23:59:59Z' }, 'failed'],
    ['near miss: Sunset in another zone', { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 UTC' }, 'failed'],
    ['near miss: no Sunset', { deprecation: '@1767225600' }, 'failed'],
    ['near miss: no Deprecation', { sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'failed'],
  ] as const)('%s', (_what, headers, outcome) => {
    const result = judged(() => signalsDeprecation(pets(headers)));
    expect(result === 'passed' ? 'passed' : 'failed').toBe(outcome);
  });
});

describe('every exported judgement has a case table', () => {
  test('each function src/judgements exports is exercised by a file of test/judgements', async () => {
    const source = fileURLToPath(new URL('../../src/judgements/', import.meta.url));
    const tests = fileURLToPath(new URL('./', import.meta.url));
    const exported = (await Promise.all((await readdir(source)).filter((f) => f.endsWith('.ts')).map((f) => readFile(source + f, 'utf8'))))
      .flatMap((text) => [...text.matchAll(/^export function (\w+)/gm)].map((match) => match[1]!));
    // Named outside the import lines: called, or handed to a call.
    const tables = (await Promise.all((await readdir(tests)).filter((f) => f.endsWith('.test.ts')).map((f) => readFile(tests + f, 'utf8'))))
      .join('\n')
      .replace(/^import [^;]+;$/gm, '');
    expect(exported.length).toBeGreaterThan(15);
    expect(exported.filter((name) => !new RegExp(`\\b${name}\\b`).test(tables))).toEqual([]);
  });
});
