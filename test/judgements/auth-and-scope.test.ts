/**
 * Case tables for the judgements of challenges and deprecation, each valid case beside a
 * near miss (as JSON-Schema-Test-Suite pairs them), and the meta-test that every exported
 * judgement has a case table.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { LET_THROUGH, challengesInvalidToken, credentialRefused, isEmptyList, keyedListOf, keyElsewhereRefused, refusedWithoutKey, revealsNothing, spelledCreatesAbsent, spelledPathClosed } from '../../src/judgements/auth.js';
import { jarCookies, keyPlacements, placementWords } from '../../src/http/key-placement.js';
import { signalsDeprecation } from '../../src/judgements/deprecation.js';
import { answered, judged, unanswered } from '../support/exchanges.js';

const unauthorized = (challenge?: string) => answered(401, { code: 'unauthorized', message: 'no', status: 401 }, { headers: challenge === undefined ? {} : { 'www-authenticate': challenge } });

describe('unauthorized-invalid-token: the 401 to an unknown key challenges with error="invalid_token"', () => {
  test.each([
    ['quoted, as RFC 6750 writes it', 'Bearer realm="petstore", error="invalid_token"', 'passed'],
    ['unquoted token value', 'Bearer error=invalid_token', 'passed'],
    ['parameter name in another case', 'Bearer realm="x", ERROR="invalid_token"', 'passed'],
    ['spaces around =', 'Bearer error = "invalid_token"', 'passed'],
    ['near miss: another error code', 'Bearer realm="petstore", error="invalid_request"', { expected: 'error="invalid_token"', found: 'Bearer realm="petstore", error="invalid_request"' }],
    ['near miss: the code inside another parameter', 'Bearer realm="petstore", error_description="invalid_token"', { expected: 'error="invalid_token"', found: 'Bearer realm="petstore", error_description="invalid_token"' }],
    ['near miss: a parameter whose name ends in error', 'Bearer realm="petstore", suberror="invalid_token"', { expected: 'error="invalid_token"', found: 'Bearer realm="petstore", suberror="invalid_token"' }],
    ['near miss: a challenge without error', 'Bearer realm="petstore"', { expected: 'error="invalid_token"', found: 'Bearer realm="petstore"' }],
    ['near miss: no WWW-Authenticate', undefined, { expected: 'error="invalid_token"', found: 'no WWW-Authenticate' }],
  ] as const)('%s', (_what, challenge, outcome) => {
    // A failure's evidence is what users read: its expected and found are held word for word.
    expect(judged(() => challengesInvalidToken(unauthorized(challenge)))).toEqual(outcome);
  });

  test('the message names the challenge received', () => {
    expect(() => challengesInvalidToken(unauthorized('Bearer realm="petstore"'))).toThrow('Expected a Bearer challenge with error="invalid_token", received WWW-Authenticate: Bearer realm="petstore"');
  });

  test('near miss: a 400 with the right challenge fails on its status', () => {
    const exchange = answered(400, { code: 'bad', message: 'no', status: 400 }, { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
    expect(judged(() => challengesInvalidToken(exchange))).toEqual({ expected: 'status 401', found: 'status 400' });
  });
});

describe('the 401 rules: a request without a valid key is answered 401; one let through is one defect, whatever its operation', () => {
  const through = ', let through without a valid key';
  test.each([
    ['401', answered(401, ''), undefined, 'passed'],
    ['near miss: 403, a refusal with another status', answered(403, ''), undefined, { expected: 'status 401', found: 'status 403' }],
    ['200: let through', answered(200, []), undefined, { expected: 'status 401', found: `status 200${through}`, defect: LET_THROUGH }],
    ['near miss: 300 is no success', answered(300, ''), undefined, { expected: 'status 401', found: 'status 300' }],
    ['near miss: 199 is no success', answered(199, ''), undefined, { expected: 'status 401', found: 'status 199' }],
    ['a redirect names where it points', answered(301, '', { headers: { location: '/login' } }), undefined, { expected: 'status 401', found: 'status 301, a redirect to /login' }],
    ['501, what the key gets too (an operation not shown): let through', answered(501, ''), 501, { expected: 'status 401', found: `status 501${through}`, defect: LET_THROUGH }],
    ['404, what the key gets too: let through', answered(404, ''), 404, { expected: 'status 401', found: `status 404${through}`, defect: LET_THROUGH }],
    ['near miss: 404 where the key gets 501', answered(404, ''), 501, { expected: 'status 401', found: 'status 404' }],
    ['near miss: 500 both ways, a failure before authentication as well', answered(500, ''), 500, { expected: 'status 401', found: 'status 500' }],
    ['near miss: 502 both ways', answered(502, ''), 502, { expected: 'status 401', found: 'status 502' }],
    ['no answer', unanswered('TIMEOUT'), undefined, { expected: 'a response', found: 'no response (TIMEOUT)' }],
  ] as const)('%s', (_what, exchange, keyed, outcome) => {
    expect(judged(() => refusedWithoutKey(exchange, keyed))).toEqual(outcome);
  });
});

describe('auth-rejects-generated-credentials: an invalid credential is answered 401 with an Error body, and an acceptance names the form', () => {
  const words = 'the valid key as a Basic user name (Basic base64(KEY:))';
  const error = (status: number, field = status) => answered(status, { code: 'x', message: 'y', status: field });
  test.each([
    ['401 with an Error body', error(401), 'passed'],
    ['near miss: 401 with the Error status field 400', error(401, 400), { expected: 'status field 401', found: 'status field 400', breaks: ['R-7-STATUS'], pointer: '/status' }],
    ['near miss: 403', error(403), { expected: 'status 401', found: `status 403 to ${words}` }],
    ['near miss: 200, the credential accepted', answered(200, []), { expected: 'status 401', found: `status 200: accepted ${words}`, defect: LET_THROUGH }],
    ['near miss: 299, the credential accepted', answered(299, []), { expected: 'status 401', found: `status 299: accepted ${words}`, defect: LET_THROUGH }],
    ['near miss: 300 is no acceptance, and no 401', answered(300, ''), { expected: 'status 401', found: `status 300 to ${words}` }],
    ['near miss: 199 is no acceptance, and no 401', answered(199, ''), { expected: 'status 401', found: `status 199 to ${words}` }],
    ['near miss: 500, the credential crashed the comparison', error(500), { expected: 'status 401', found: `status 500 to ${words}` }],
  ] as const)('%s', (_what, exchange, outcome) => {
    expect(judged(() => credentialRefused(exchange, words))).toEqual(outcome);
  });

  test('the message names what the server accepted', () => {
    expect(() => credentialRefused(answered(200, []), words)).toThrow(`Expected status 401, received 200: the server accepted ${words}`);
  });

  test('the message names what the server answered another status to', () => {
    expect(() => credentialRefused(error(500), words)).toThrow(`Expected status 401, received 500 to ${words}`);
  });
});

describe('auth-rejects-generated-credentials: a request outside the interface without the key reveals nothing of the categories', () => {
  const keyedList = answered(200, [{ id: 1, name: 'a' }], { headers: { 'x-total-count': '1', etag: '"v1"', 'content-length': '20' } });
  const keyed = keyedListOf(keyedList);
  const words = '`HEAD` without a key';
  const reveal = (found: string) => ({ expected: 'a refusal without a valid key', found: `status ${found}`, defect: LET_THROUGH });
  test.each([
    ['401 to HEAD', answered(401, '', { method: 'HEAD' }), true, 'passed'],
    ['405 to HEAD', answered(405, '', { method: 'HEAD' }), true, 'passed'],
    ['near miss: 200 to HEAD on the list path, nothing told', answered(200, '', { method: 'HEAD' }), true, reveal('200')],
    ['near miss: 200 to HEAD with the list\'s count', answered(200, '', { method: 'HEAD', headers: { 'x-total-count': '1' } }), true, reveal('200 with `X-Total-Count: 1`')],
    ['200 to HEAD on the root (a path override): a page, nothing told', answered(200, '', { method: 'HEAD', path: '/' }), false, 'passed'],
    ['204 to OPTIONS, an Allow list', answered(204, '', { method: 'OPTIONS', headers: { allow: 'GET, POST' } }), true, 'passed'],
    ['200 to OPTIONS, an empty array where the keyed list holds one', answered(200, [], { method: 'OPTIONS' }), true, 'passed'],
    ['near miss: 200 to OPTIONS with the list', answered(200, [{ id: 1, name: 'a' }], { method: 'OPTIONS' }), true, reveal('200 with the list')],
    ['near miss: 200 to OPTIONS with the keyed list\'s entity tag', answered(200, '', { method: 'OPTIONS', headers: { etag: '"v1"' } }), true, reveal('200 with `ETag: "v1"`')],
    ['200 to OPTIONS with another entity tag', answered(200, '', { method: 'OPTIONS', headers: { etag: '"v2"' } }), true, 'passed'],
    ['near miss: 200 to OPTIONS with the keyed list\'s length', answered(200, 'x'.repeat(20), { method: 'OPTIONS', headers: { 'content-length': '20' } }), true, reveal('200 with `Content-Length: 20`')],
    ['near miss: 201 with a created category', answered(201, { id: 7, name: 'x' }, { method: 'PUT' }), true, reveal('201 with category 7 created')],
    ['299 that tells nothing', answered(299, 'ok', { method: 'OPTIONS' }), true, 'passed'],
    ['near miss: 300 is no success', answered(300, [{ id: 1 }], { method: 'OPTIONS' }), true, 'passed'],
    ['a 500 is no-server-error\'s', answered(500, [{ id: 1 }], { method: 'OPTIONS' }), true, 'passed'],
    ['no answer, no evidence', unanswered('TIMEOUT', { method: 'HEAD' }), true, 'passed'],
  ] as const)('%s', (_what, exchange, onListPath, outcome) => {
    expect(judged(() => revealsNothing(exchange, words, keyed, onListPath))).toEqual(outcome);
  });

  test('an empty array reveals the list when the keyed list is empty too', () => {
    const empty = keyedListOf(answered(200, []));
    expect(judged(() => revealsNothing(answered(200, [], { method: 'OPTIONS' }), words, empty, true))).toEqual(reveal('200 with the list'));
  });

  test('an empty array where the keyed list answered no list (it timed out) is not judged: an error, never a pass', () => {
    const none = keyedListOf(unanswered('TIMEOUT'));
    const emptyArray = answered(200, [], { method: 'OPTIONS' });
    expect(() => revealsNothing(emptyArray, words, none, true)).toThrow(expect.objectContaining({ code: 'PCS_CHECK_ERROR', message: 'OPTIONS /v1/categories (`HEAD` without a key) answered 200 with an empty array, and the list with the key answered no list to compare it with: not judged' }));
    // Near misses: what is decided without the keyed list is decided.
    expect(judged(() => revealsNothing(answered(200, [{ id: 1, name: 'a' }], { method: 'OPTIONS' }), words, none, true))).toEqual(reveal('200 with the list'));
    expect(judged(() => revealsNothing(answered(200, {}, { method: 'OPTIONS' }), words, none, true))).toBe('passed');
    expect(judged(() => revealsNothing(answered(401, [], { method: 'OPTIONS' }), words, none, true))).toBe('passed');
  });

  test('the message names the change, what was told, and why HEAD is the list', () => {
    expect(() => revealsNothing(answered(200, '', { method: 'HEAD', headers: { 'x-total-count': '1' } }), words, keyed, true)).toThrow(
      '`HEAD` without a key answered 200 with `X-Total-Count: 1`: HEAD is GET without content (RFC 9110 §9.3.2), the list let through: expected a refusal, and nothing of the categories without a valid key',
    );
    expect(() => revealsNothing(answered(200, '', { method: 'HEAD' }), words, keyed, true)).toThrow('`HEAD` without a key answered 200: HEAD is GET without content (RFC 9110 §9.3.2), the list let through: expected a refusal');
  });

  test.each([
    ['a 200 list: its count, entity tag and length', keyedList, { empty: false, headers: [['x-total-count', '1'], ['etag', '"v1"'], ['content-length', '20']] }],
    ['near miss: a length of 2, an empty array\'s, tells nothing', answered(200, [], { headers: { 'content-length': '2' } }), { empty: true, headers: [] }],
    ['near miss: a 401 tells nothing to compare', answered(401, '', { headers: { etag: '"v1"' } }), { empty: undefined, headers: [] }],
    ['no list', undefined, { empty: undefined, headers: [] }],
  ] as const)('keyedListOf: %s', (_what, list, shown) => {
    expect(keyedListOf(list)).toEqual(shown);
  });
});

describe('pets-deprecation-signalled: Deprecation as a date, Sunset as an HTTP-date', () => {
  const pets = (headers: Record<string, string>) => answered(501, { code: 'x', message: 'y', status: 501 }, { path: '/pets/1', headers });
  test.each([
    ['both, IMF-fixdate', { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'passed'],
    ['the obsolete RFC 850 form a recipient must accept', { deprecation: '@1767225600', sunset: 'Wednesday, 30-Jun-27 23:59:59 GMT' }, 'passed'],
    ['the asctime form', { deprecation: '@1767225600', sunset: 'Wed Jun 30 23:59:59 2027' }, 'passed'],
    ['near miss: Deprecation: true (an earlier draft)', { deprecation: 'true', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, { expected: 'Deprecation: @<seconds>', found: 'Deprecation: true' }],
    ['near miss: Deprecation as an HTTP-date', { deprecation: 'Wed, 01 Jan 2026 00:00:00 GMT', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, { expected: 'Deprecation: @<seconds>', found: 'Deprecation: Wed, 01 Jan 2026 00:00:00 GMT' }],
    ['near miss: Sunset as ISO 8601', { deprecation: '@1767225600', sunset: '2027-06-30T23:59:59Z' }, { expected: 'Sunset: <HTTP-date>', found: 'Sunset: 2027-06-30T23:59:59Z' }],
    ['near miss: Sunset in another zone', { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 UTC' }, { expected: 'Sunset: <HTTP-date>', found: 'Sunset: Wed, 30 Jun 2027 23:59:59 UTC' }],
    ['near miss: no Sunset', { deprecation: '@1767225600' }, { expected: 'Sunset: <HTTP-date>', found: 'no Sunset' }],
    ['near miss: no Deprecation', { sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, { expected: 'Deprecation: @<seconds>', found: 'no Deprecation' }],
    // RFC 9651 §3.3.1: an Integer has 1 to 15 digits, and the date is one (§3.3.7).
    ['the epoch, one digit: @0', { deprecation: '@0', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'passed'],
    ['a date before the epoch: @-1', { deprecation: '@-1', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'passed'],
    ['fifteen digits', { deprecation: '@999999999999999', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, 'passed'],
    ['near miss: no digit', { deprecation: '@', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, { expected: 'Deprecation: @<seconds>', found: 'Deprecation: @' }],
    ['near miss: sixteen digits', { deprecation: '@1000000000000000', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' }, { expected: 'Deprecation: @<seconds>', found: 'Deprecation: @1000000000000000' }],
  ] as const)('%s', (_what, headers, outcome) => {
    expect(judged(() => signalsDeprecation(pets(headers)))).toEqual(outcome);
  });
});

describe('auth-key-outside-authorization: the key anywhere but Authorization is a missing key', () => {
  const error = (status: number) => ({ code: 'x', message: 'y', status });
  const list = (status: number) => answered(status, status === 200 ? [] : error(status));
  const formPost = (status: number) => answered(status, status === 201 ? { id: 1, name: 'a' } : error(status), { method: 'POST', headers: {} });
  const form = (exchange: ReturnType<typeof answered>) => ({ ...exchange, request: { ...exchange.request, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'access_token=k' } });
  test.each([
    ['a GET answered 401', list(401), 'passed'],
    ['near miss: a GET answered 200, authenticated elsewhere', list(200), { expected: 'status 401', found: 'status 200: authenticated by the query parameter access_token' }],
    ['near miss: a GET answered 403 (not the 401 of 5/R2)', list(403), { expected: 'status 401', found: 'status 403' }],
    ['a GET answered 500: no-server-error’s', list(500), 'passed'],
    ['a form post answered 401', form(formPost(401)), 'passed'],
    ['a form post answered 415: refused before the key, outside the interface', form(formPost(415)), 'passed'],
    ['a form post answered 400', form(formPost(400)), 'passed'],
    ['near miss: a form post answered 201', form(formPost(201)), { expected: 'no 2xx without Authorization', found: 'status 201: authenticated by the query parameter access_token' }],
    ['near miss: a form post answered 299', form(formPost(299)), { expected: 'no 2xx without Authorization', found: 'status 299: authenticated by the query parameter access_token' }],
    ['a form post answered 300 is no acceptance', form(formPost(300)), 'passed'],
  ] as const)('%s', (_d, exchange, outcome) => expect(judged(() => keyElsewhereRefused(exchange, 'the query parameter access_token'))).toEqual(outcome));

  test('every placement is named, each placed where it says, the key shown as the key variable', () => {
    const placed = keyPlacements('k+y/=0123456789abcdef');
    expect(placed.map((credential) => placementWords(credential.placement))).toEqual([
      'the query parameter access_token',
      'the query parameter api_key',
      'the query parameter apikey',
      'the query parameter key',
      'the query parameter token',
      'the header X-API-Key',
      'the header Api-Key',
      'the cookie api_key',
      'the form field access_token',
    ]);
    for (const { placed: parts, header } of placed) {
      expect(header).toBeUndefined();
      for (const part of [parts.query, ...Object.values(parts.headers), parts.body]) expect(part?.shown ?? '').not.toContain('k+y');
    }
    expect(placed[0]!.placed.query!.sent).toBe('access_token=k%2By%2F%3D0123456789abcdef');
  });

  test('the cookies of a jar: named in the failure with the answer that set them, their values secrets', () => {
    const credential = jarCookies([{ name: 'session', value: 's3cr3t' }, { name: 'lb', value: '' }], 'the 201 to a keyed create');
    expect(placementWords(credential.placement)).toBe('the cookie `session`, `lb` alone (set by the 201 to a keyed create)');
    expect(credential.placed.headers.cookie).toEqual({ sent: 'session=s3cr3t; lb=', shown: 'session=[cookie session]; lb=[cookie lb]' });
    expect(credential.secrets).toEqual([{ value: 's3cr3t', shown: '[cookie session]' }]);
  });
});

describe('auth-path-spellings: without a key, another spelling of the path answers no categories and creates none', () => {
  const spelled = (status: number, body: unknown, method = 'GET') => answered(status, body, { method, path: '/categories/', credential: 'missing' });
  const error = (status: number) => ({ code: 'x', message: 'y', status });
  test.each([
    ['401 with an Error body', spelled(401, error(401)), false, 'passed'],
    ['404 with an HTML page', spelled(404, '<h1>Not Found</h1>'), false, 'passed'],
    ['a redirect the suite does not follow', spelled(308, ''), false, 'passed'],
    ['a 500 (path-spellings-no-server-error’s)', spelled(500, error(500)), false, 'passed'],
    ['200 with an HTML page (a web app’s fallback)', spelled(200, '<!doctype html><title>app</title>'), false, 'passed'],
    ['200 with an empty array while the list with the key holds categories', spelled(200, []), false, 'passed'],
    ['200 with a JSON object without id', spelled(200, { ok: true }), false, 'passed'],
    ['near miss: 200 with the list', spelled(200, [{ id: 1, name: 'a' }]), false, { expected: 'no categories without a valid key', found: 'status 200 with 1 listed item (a trailing slash)' }],
    ['near miss: 299 with the list', spelled(299, [{ id: 1, name: 'a' }, { id: 2, name: 'b' }]), false, { expected: 'no categories without a valid key', found: 'status 299 with 2 listed items (a trailing slash)' }],
    ['near miss: 200 with an empty array, as the empty list with the key', spelled(200, []), true, { expected: 'no categories without a valid key', found: 'status 200 with 0 listed items (a trailing slash)' }],
    ['near miss: 201 with a created Category', spelled(201, { id: 17, name: 'a' }, 'POST'), false, { expected: 'no categories without a valid key', found: 'status 201 with category 17 created (a trailing slash)' }],
    ['300 with the list is no 2xx', spelled(300, [{ id: 1, name: 'a' }]), false, 'passed'],
    ['199 with the list is no 2xx', spelled(199, [{ id: 1, name: 'a' }]), false, 'passed'],
    ['no answer: no evidence', unanswered('TIMEOUT', { path: '/categories/', credential: 'missing' }), false, 'passed'],
  ] as const)('%s', (_what, exchange, listedNone, outcome) => {
    expect(judged(() => spelledPathClosed(exchange, 'a trailing slash', listedNone))).toEqual(outcome);
  });

  test('an empty array where the list with the key answered no list (it timed out) is not judged: an error, never a pass', () => {
    expect(() => spelledPathClosed(spelled(200, []), 'a trailing slash', undefined)).toThrow(
      expect.objectContaining({ code: 'PCS_CHECK_ERROR', message: 'GET /v1/categories/ (a trailing slash) answered 200 with an empty array, and the list with the key answered no list to compare it with: not judged' }),
    );
    // Near misses: the list itself fails, and a refusal or a page passes, without the keyed list.
    expect(judged(() => spelledPathClosed(spelled(200, [{ id: 1, name: 'a' }]), 'a trailing slash', undefined))).toEqual({ expected: 'no categories without a valid key', found: 'status 200 with 1 listed item (a trailing slash)' });
    expect(judged(() => spelledPathClosed(spelled(401, error(401)), 'a trailing slash', undefined))).toBe('passed');
    expect(judged(() => spelledPathClosed(spelled(200, '<!doctype html><title>app</title>'), 'a trailing slash', undefined))).toBe('passed');
  });

  test('the message names the path as sent and the spelling', () => {
    expect(() => spelledPathClosed(spelled(200, [{ id: 1, name: 'a' }]), 'a trailing slash', false)).toThrow(
      'Expected no categories without a valid key on GET /v1/categories/ (a trailing slash), received status 200 with 1 listed item: the operation is reached around authentication by a trailing slash',
    );
  });

  test.each([
    ['an empty array', answered(200, []), true],
    ['near miss: an array with an item', answered(200, [{ id: 1, name: 'a' }]), false],
    ['near miss: an empty array answered 201: no list', answered(201, []), undefined],
    ['near miss: an empty object: no list', answered(200, {}), undefined],
    ['no answer: no list', unanswered('TIMEOUT'), undefined],
  ] as const)('isEmptyList: %s', (_what, list, empty) => expect(isEmptyList(list)).toBe(empty));

  test('the keyed list afterwards holds none of the keyless creates, or names the path that created one', () => {
    const tags = new Map([['tag-a', '/v1/categories/ (a trailing slash)'], ['tag-b', '/v1/Categories (the path in other case)']]);
    expect(judged(() => spelledCreatesAbsent(answered(200, [{ id: 1, name: 'a', description: 'other' }]), tags))).toBe('passed');
    expect(judged(() => spelledCreatesAbsent(answered(200, [{ id: 1, name: 'a' }, { id: 9, name: 'b', description: 'tag-b' }]), tags))).toEqual({
      expected: 'nothing created without a valid key',
      found: '1 created by POST /v1/Categories (the path in other case)',
    });
  });
});

describe('every exported judgement and decision has a case table', () => {
  /** Beyond src/judgements: the traffic rules, the gate, the verdict, client forms, tool-failure classification and the retry policy (issue 34). */
  const DECISIONS = ['traffic/rules.ts', 'report/gate.ts', 'report/verdict.ts', 'http/client-form.ts', 'core/tool-failure.ts', 'http/retry-policy.ts'];
  test('each function they export is exercised by a file of test/judgements or test/unit', async () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const sources = [...(await readdir(`${src}judgements`)).filter((f) => f.endsWith('.ts')).map((f) => `judgements/${f}`), ...DECISIONS];
    const exported = (await Promise.all(sources.map((f) => readFile(src + f, 'utf8')))).flatMap((text) => [...text.matchAll(/^export function (\w+)/gm)].map((match) => match[1]!));
    const folders = [fileURLToPath(new URL('./', import.meta.url)), fileURLToPath(new URL('../unit/', import.meta.url))];
    const texts = await Promise.all(folders.map(async (folder) => Promise.all((await readdir(folder)).filter((f) => f.endsWith('.test.ts')).map((f) => readFile(folder + f, 'utf8')))));
    // Named outside the import lines: called, or handed to a call.
    const tables = texts.flat().join('\n').replace(/^import [^;]+;$/gm, '');
    expect(exported.length).toBeGreaterThan(30);
    expect(exported.filter((name) => !new RegExp(`\\b${name}\\b`).test(tables))).toEqual([]);
  });

  test('each judgement that reports evidence has its expected and found held, word for word, on a failing case of its table (a changed word of a failure is a failed test)', async () => {
    const src = fileURLToPath(new URL('../../src/judgements/', import.meta.url));
    const reporting = (await Promise.all((await readdir(src)).filter((f) => f.endsWith('.ts')).map((f) => readFile(src + f, 'utf8'))))
      .flatMap((text) => text.split(/^(?=export function )/m).filter((part) => part.startsWith('export function ') && /\bexpected: /.test(part)))
      .map((part) => /^export function (\w+)/.exec(part)![1]!);
    const folder = fileURLToPath(new URL('./', import.meta.url));
    const texts = await Promise.all((await readdir(folder)).filter((f) => f.endsWith('.test.ts')).map((f) => readFile(folder + f, 'utf8')));
    // A describe block that calls the judgement and holds a literal `expected:`.
    const blocks = texts.flatMap((text) => text.split(/^describe/m));
    // judgeInvariant is called through each file's helper of one name (invariants.test.ts `judge`).
    const callers: Record<string, string> = { judgeInvariant: 'judge' };
    const held = (name: string) => blocks.some((block) => new RegExp(`\\b${callers[name] ?? name}\\(`).test(block) && /\bexpected: ['`A-Z]/.test(block));
    expect(reporting.length).toBeGreaterThan(15);
    expect(reporting.filter((name) => !held(name))).toEqual([]);
  });
});

describe('carriedKey: where a request without Authorization carries a key, read back by name', async () => {
  const { carriedKey } = await import('../../src/http/key-placement.js');
  test.each([
    ['a query parameter', '?api_key=x', {}, undefined, 'the query parameter api_key'],
    ['a key header', '', { 'x-api-key': 'k' }, undefined, 'the header X-API-Key'],
    ['one cookie', '', { cookie: 'session=abc' }, undefined, 'the cookie session'],
    ['two cookies', '', { cookie: 'a=1; b=2' }, undefined, 'the cookies a, b'],
    ['a form field', '', { 'content-type': 'application/x-www-form-urlencoded' }, 'access_token=k', 'the form field access_token'],
    ['near miss: the same field in JSON', '', { 'content-type': 'application/json' }, '{"access_token":"k"}', undefined],
    ['near miss: nothing', '', {}, undefined, undefined],
  ] as Array<[string, string, Record<string, string>, string | undefined, string | undefined]>)('%s', (_what, query, headers, body, words) => {
    expect(carriedKey({ url: `http://h/v1/categories${query}`, headers, ...(body === undefined ? {} : { body }) })).toBe(words);
  });
});
