/**
 * The invariants (src/judgements/invariants.ts) on small recorded exchanges: which
 * responses each judges, and what it finds wrong.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.js';
import type { CheckLevel } from '../../src/requirements/catalogue.js';
import { allowedStatuses, invariantRecord, judgeInvariant, type InvariantId } from '../../src/judgements/invariants.js';
import { answered, judged } from '../support/exchanges.js';

const error = (status: number) => ({ code: 'x', message: 'y', status });
/** Judges one invariant, at its check's level, over exchanges made by checks of the given levels. */
function judge(id: InvariantId, level: CheckLevel, exchanges: Exchange[], levels: Record<string, CheckLevel> = {}) {
  let count = 0;
  const outcome = judged(() => (count = judgeInvariant(id, level, exchanges.map(invariantRecord), (checkId) => levels[checkId] ?? 'must')));
  return { outcome, judged: count };
}

describe('answers-allowed-status', () => {
  const post = { method: 'POST' };
  const RULE = 'a status the spec lists (a list 200 or 401; a create 201, 400, 401 or 413)';
  test.each([
    ['a list answered 200 or 401', [answered(200, []), answered(401, error(401))], 'passed'],
    ['a create answered 201, 400, 401 or 413', [answered(201, { id: 1, name: 'a' }, post), answered(400, error(400), post), answered(401, error(401), post), answered(413, error(413), post)], 'passed'],
    ['near miss: a create answered 200', [answered(200, { id: 1, name: 'a' }, post)], { expected: RULE, found: 'status 200' }],
    ['near miss: a list answered 403', [answered(403, error(403))], { expected: RULE, found: 'status 403' }],
    ['near miss: a create answered 412, one past 411', [answered(412, error(412), post)], { expected: RULE, found: 'status 412' }],
    ['a 5xx is no-server-error’s', [answered(500, error(500), post)], 'passed'],
    ['a route whose status codes are not shown is not judged', [answered(404, error(404), { path: '/pets/1' })], 'passed'],
  ])('%s', (_d, exchanges, outcome) => expect(judge('answers-allowed-status', 'must', exchanges).outcome).toEqual(outcome));

  test.each([
    ['a create as the suite writes it', {}, [201, 400, 401, 413]],
    ['a chunked create: 411 its honest refusal', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, [201, 400, 401, 413, 411]],
    ['an expectation: 417 its honest refusal', { 'content-type': 'application/json', expect: '100-continue' }, [201, 400, 401, 413, 417]],
    ['near miss: a form post gets no refusal of its own here (it is outside the premise)', { 'content-type': 'application/x-www-form-urlencoded' }, [201, 400, 401, 413]],
  ])('allowedStatuses: %s', (_d, headers, statuses) => {
    const create = answered(201, {}, { method: 'POST', requestBody: '{"name":"a"}' });
    expect(allowedStatuses({ ...create, request: { ...create.request, headers } }, 'create')).toEqual(statuses);
  });
});

describe('no-server-error', () => {
  test.each([
    ['4xx and 2xx answers pass', [answered(400, error(400), { method: 'POST' }), answered(200, [])], 'passed'],
    ['a 500 to a create fails', [answered(201, {}, { method: 'POST' }), answered(500, error(500), { method: 'POST' })], { expected: 'no server error', found: 'a server error (500)' }],
    ['a 503 to a list fails', [answered(503, error(503))], { expected: 'no server error', found: 'a server error (503)' }],
    ['a 501 from a route whose status codes are not shown is not judged', [answered(501, error(501), { path: '/pets/1' })], 'passed'],
    ['a superseded 503 (sent again) is not judged', [answered(503, error(503), { superseded: 'refused with 503: sent again' })], 'passed'],
  ])('%s', (_d, exchanges, outcome) => expect(judge('no-server-error', 'must', exchanges).outcome).toEqual(outcome));

  test.each([
    ['a 500 on another spelling of the path is not no-server-error’s', '/categories/', 'passed'],
    ['near miss: a 500 on the path with a query is', '/categories?access_token=k', { expected: 'no server error', found: 'a server error (500)' }],
    ['a 500 on the path with an empty query is not', '/categories?', 'passed'],
    ['a 500 on a dot segment is not (the path as written, not as a parsed URL reads it)', '/./categories', 'passed'],
  ])('%s', (_d, path, outcome) => expect(judge('no-server-error', 'must', [answered(500, error(500), { path })]).outcome).toEqual(outcome));

  test('an info probe that crashed the server is judged: the one observation that decides the verdict', () => {
    const crash = answered(500, error(500), { method: 'POST', checkId: 'edge-long-name' });
    expect(judge('no-server-error', 'must', [crash], { 'edge-long-name': 'info' }).outcome).toEqual({ expected: 'no server error', found: 'a server error (500)' });
  });
});

describe('path-spellings-no-server-error', () => {
  test.each([
    ['a 401, a 404 page and a redirect on other spellings pass', [answered(401, error(401), { path: '/categories/' }), answered(404, '<h1>404</h1>', { path: '/./categories' }), answered(308, '', { path: '/Categories' })], 'passed'],
    ['near miss: a 500 on a matrix parameter', [answered(500, '<h1>Whitelabel</h1>', { path: '/categories;x=1' })], { expected: 'no server error', found: 'a server error (500)' }],
    ['a 500 on the path itself is no-server-error’s', [answered(500, error(500))], 'passed'],
    ['near miss: a 500 to OPTIONS on the path', [answered(500, '', { method: 'OPTIONS' })], { expected: 'no server error', found: 'a server error (500)' }],
    ['a 501 to HEAD on the path: a method not implemented (RFC 9110 §15.6.2)', [answered(501, '', { method: 'HEAD' })], 'passed'],
    ['near miss: a 502 to HEAD on the path', [answered(502, '', { method: 'HEAD' })], { expected: 'no server error', found: 'a server error (502)' }],
  ])('%s', (_d, exchanges, outcome) => expect(judge('path-spellings-no-server-error', 'should', exchanges).outcome).toEqual(outcome));

  test('another method on the path is outside the interface: no-server-error leaves its 5xx, and the Error rules its 401 to HEAD (no content) and its errors on the root', () => {
    expect(judge('no-server-error', 'must', [answered(501, '', { method: 'HEAD' }), answered(500, '', { method: 'OPTIONS' })]).outcome).toBe('passed');
    expect(judge('no-server-error', 'must', [answered(500, error(500), { method: 'GET' })]).outcome).toEqual({ expected: 'no server error', found: 'a server error (500)' });
    expect(judge('error-body-is-error', 'must', [answered(401, '', { method: 'HEAD' })]).outcome).toBe('passed');
    // Near miss: the same 401 without content to OPTIONS is an error of the interface's paths.
    expect(judge('error-body-is-error', 'must', [answered(401, '', { method: 'OPTIONS' })]).outcome).toEqual({ expected: 'an Error body', found: expect.stringMatching(/not JSON/) });
    // The root, where a path override is sent: another resource's errors.
    const root = { url: 'http://127.0.0.1:9/' };
    expect(judge('error-body-is-error', 'must', [{ ...answered(404, '<h1>Not Found</h1>'), request: { ...answered(404, '').request, ...root } }]).outcome).toBe('passed');
    expect(judge('error-body-is-error', 'must', [{ ...answered(401, '<h1>401</h1>'), request: { ...answered(401, '').request, ...root } }]).outcome).toBe('passed');
    expect(judge('error-body-is-error', 'must', [answered(401, '<h1>401</h1>', { path: '/pets/1' })]).outcome).toEqual({ expected: 'an Error body', found: expect.stringMatching(/not JSON/) });
  });

  test('every level’s exchanges count, and only spellings: an exact path is not judged', () => {
    expect(judge('path-spellings-no-server-error', 'should', [answered(401, error(401), { path: '/categories/', checkId: 'x' })], { x: 'info' }).judged).toBe(1);
    expect(judge('path-spellings-no-server-error', 'should', [answered(200, [])]).judged).toBe(0);
  });

  test('an HTML 404 on another spelling is no Error the interface defines: error-body-is-error and error-content-type-json leave it', () => {
    const page = answered(404, '<h1>Not Found</h1>', { path: '/categories/', headers: { 'content-type': 'text/html' } });
    expect(judge('error-body-is-error', 'must', [page]).outcome).toBe('passed');
    expect(judge('error-content-type-json', 'must', [page]).outcome).toBe('passed');
    // A 401 there is not held to the Error shape either: another route's answer.
    expect(judge('error-body-is-error', 'must', [answered(401, 'nope', { path: '/categories/' })]).judged).toBe(0);
  });
});

describe('error-body-is-error', () => {
  test.each([
    ['an Error passes', answered(400, error(400)), 'passed'],
    ['extra fields pass', answered(400, { ...error(400), detail: 'more' }), 'passed'],
    ['an HTML page fails', answered(500, '<h1>Oops</h1>', { headers: { 'content-type': 'text/html' } }), { expected: 'an Error body', found: expect.stringMatching(/^the body is not JSON/) }],
    ['a framework shape fails', answered(422, { detail: [{ msg: 'field required' }] }), { expected: 'an Error body', found: expect.stringMatching(/^not an Error: /) }],
    ['invalid UTF-8 fails', answered(400, error(400), { utf8Valid: false }), { expected: 'an Error body', found: 'the body is not valid UTF-8' }],
  ])('%s', (_d, exchange, outcome) => expect(judge('error-body-is-error', 'must', [exchange]).outcome).toEqual(outcome));

  test('success answers are not judged', () => expect(judge('error-body-is-error', 'must', [answered(200, [])]).judged).toBe(0));

  test('an info probe is not judged by a must rule', () => {
    const probe = answered(400, 'not json', { checkId: 'edge-empty-name' });
    expect(judge('error-body-is-error', 'must', [probe], { 'edge-empty-name': 'info' })).toEqual({ outcome: 'passed', judged: 0 });
  });
});

describe('error-status-matches-http', () => {
  test.each([
    ['an equal status passes', answered(401, error(401)), 'passed'],
    ['another status fails', answered(401, error(400)), { expected: 'the status field equal to the HTTP status', found: 'status field is 400' }],
    ['a status as a string fails', answered(401, { ...error(401), status: '401' }), { expected: 'the status field equal to the HTTP status', found: 'status field is "401"' }],
  ])('%s', (_d, exchange, outcome) => expect(judge('error-status-matches-http', 'must', [exchange]).outcome).toEqual(outcome));

  test('a body that is not an object, or has no status, is left to error-body-is-error', () => {
    expect(judge('error-status-matches-http', 'must', [answered(400, '<h1>'), answered(400, { code: 'x' })]).judged).toBe(0);
  });
});

describe('content types', () => {
  test.each([
    ['error-content-type-json', answered(400, error(400)), 'passed'],
    ['error-content-type-json', answered(400, error(400), { headers: { 'content-type': 'application/json; charset=utf-8' } }), 'passed'],
    ['error-content-type-json', answered(400, error(400), { headers: { 'content-type': 'text/plain' } }), { expected: 'application/json', found: 'Content-Type is text/plain' }],
    ['success-content-type-json', answered(201, {}, { headers: { 'content-type': 'text/html' } }), { expected: 'application/json', found: 'Content-Type is text/html' }],
    ['success-content-type-json', answered(400, '', { headers: { 'content-type': 'text/html' } }), 'passed'],
    ['success-content-type-json', answered(304, '', { headers: { 'content-type': 'text/html' } }), 'passed'],
    ['success-content-type-json', answered(299, {}, { headers: { 'content-type': 'text/html' } }), { expected: 'application/json', found: 'Content-Type is text/html' }],
    // Near misses on both edges of 2xx: 300 and 199 are no success.
    ['success-content-type-json', answered(300, '', { headers: { 'content-type': 'text/html' } }), 'passed'],
    ['success-content-type-json', answered(199, '', { headers: { 'content-type': 'text/html' } }), 'passed'],
    ['success-content-type-json', answered(200, [], { headers: { 'content-type': 'text/html' } }), { expected: 'application/json', found: 'Content-Type is text/html' }],
  ] as const)('%s: %j', (id, exchange, outcome) => expect(judge(id, 'must', [exchange]).outcome).toEqual(outcome));
});

describe('json-without-byte-order-mark', () => {
  const BOM = '\ufeff';
  test.each([
    ['a body without a BOM passes', answered(200, '[]'), 'passed'],
    ['a U+FEFF inside a string passes', answered(200, `["a${BOM}b"]`), 'passed'],
    ['a BOM before an error body fails, naming the body', answered(400, `${BOM}{"code":"x"}`), { expected: 'no byte order mark', found: 'a byte order mark (U+FEFF) before the body "{\\"code\\":\\"x\\"}"' }],
    ['a BOM before a list fails', answered(200, `${BOM}[]`), { expected: 'no byte order mark', found: 'a byte order mark (U+FEFF) before the body "[]"' }],
    ['an empty body is not judged', answered(204, ''), 'passed'],
  ])('%s', (_d, exchange, outcome) => expect(judge('json-without-byte-order-mark', 'should', [exchange]).outcome).toEqual(outcome));

  test('the value after the BOM is judged by the other rules as usual', () => {
    expect(judge('error-body-is-error', 'must', [answered(400, `${BOM}${JSON.stringify(error(400))}`)]).outcome).toBe('passed');
    expect(judge('error-body-is-error', 'must', [answered(400, `${BOM}{"code":"x"}`)]).outcome).not.toBe('passed');
  });
});

describe('unauthorized-has-challenge', () => {
  const withChallenge = (value?: string) => answered(401, error(401), { headers: value === undefined ? {} : { 'www-authenticate': value } });
  test.each([
    ['a Bearer challenge passes', 'Bearer realm="petstore"', 'passed'],
    ['the scheme in any case passes (RFC 9110 §11.1)', 'bearer', 'passed'],
    ['Bearer among other challenges passes', 'Basic realm="x", Bearer', 'passed'],
    ['no challenge fails', undefined, { expected: 'a Bearer challenge', found: 'no WWW-Authenticate header' }],
    ['another scheme only fails', 'Basic realm="petstore"', { expected: 'a Bearer challenge', found: 'WWW-Authenticate is Basic realm="petstore", without the Bearer scheme' }],
    ['a scheme that merely starts with bearer fails', 'BearerToken', { expected: 'a Bearer challenge', found: expect.stringMatching(/without the Bearer scheme/) }],
  ])('%s', (_d, value, outcome) => expect(judge('unauthorized-has-challenge', 'should', [withChallenge(value)]).outcome).toEqual(outcome));
});

describe('what each invariant calls what it judges: the words of "1 of 2 … broke the rule"', () => {
  const text = { 'content-type': 'text/plain' };
  test.each<[InvariantId, Exchange]>([
    ['answers-allowed-status', answered(403, error(403))],
    ['no-server-error', answered(500, error(500))],
    ['path-spellings-no-server-error', answered(500, '<h1>Whitelabel</h1>', { path: '/categories;x=1' })],
    ['error-body-is-error', answered(400, { error: 'bad' })],
    ['error-status-matches-http', answered(400, error(422))],
    ['error-content-type-json', answered(400, error(400), { headers: text })],
    ['success-content-type-json', answered(200, [], { headers: text })],
    ['json-without-byte-order-mark', answered(200, '\ufeff[]')],
    ['unauthorized-has-challenge', answered(401, error(401))],
  ])('%s', (id, broken) => {
    // One that breaks the rule, one judged that does not (the list answered 200 as it should, with a Bearer challenge where one is asked).
    const fine = id === 'unauthorized-has-challenge' ? answered(401, error(401), { headers: { 'www-authenticate': 'Bearer' } }) : id === 'path-spellings-no-server-error' ? answered(404, '', { path: '/categories/' }) : id.startsWith('error-') ? answered(401, error(401)) : answered(200, []);
    let message = '';
    try {
      judgeInvariant(id, 'info', [fine, broken].map(invariantRecord), () => 'must');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.slice(0, message.indexOf(' broke the rule; first: '))).toBe(`1 of 2 ${WORDS[id]}`);
  });
});

/** The words each invariant's messages use, as users read them. */
const WORDS: Record<InvariantId, string> = {
  'answers-allowed-status': 'answers to listCategories or createCategory',
  'no-server-error': 'responses of listCategories or createCategory',
  'path-spellings-no-server-error': 'answers to other spellings of an operation’s path, and to other methods on it',
  'error-body-is-error': 'error responses',
  'error-status-matches-http': 'error responses with a JSON object body',
  'error-content-type-json': 'error responses',
  'success-content-type-json': 'success responses',
  'json-without-byte-order-mark': 'response bodies',
  'unauthorized-has-challenge': '401 responses',
};
