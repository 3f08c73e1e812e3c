/**
 * Judgements of HTTP transport features (src/judgements/transport.ts) and the premises that
 * sort requests (src/check/premises.ts): each case beside its near miss.
 */
import { describe, expect, test } from 'vitest';
import { premiseOf, PREMISES, variationOf } from '../../src/check/premises.js';
import { LARGEST_BODY_BYTES } from '../../src/http/request-variations.js';
import { answeredOnTheirConnections, chunkedBodyAnswered, chunkedCreatedExactly, chunkedNotAsked, connectionLimitPolicy } from '../../src/judgements/transport.js';
import { answered, judged, unanswered } from '../support/exchanges.js';

const fields = { name: 'Café 🐈', description: 'streamed' };
const post = { method: 'POST' };

describe('chunkedBodyAnswered (should, RFC 9112 §7.1)', () => {
  test.each([
    ['201: read and created', answered(201, { id: 1, ...fields }, post), 'passed'],
    ['411: the honest refusal, a policy', answered(411, { code: 'length_required', message: 'x', status: 411 }, post), 'passed'],
    ['near miss: 400, the body read as missing', answered(400, { code: 'invalid', message: 'x', status: 400 }, post), { expected: 'status 201, or 411 Length Required', found: 'status 400' }],
    ['near miss: 412, one past 411', answered(412, {}, post), { expected: 'status 201, or 411 Length Required', found: 'status 412' }],
    ['near miss: 410, one before 411', answered(410, {}, post), { expected: 'status 201, or 411 Length Required', found: 'status 410' }],
    ['a 500: not parsed (no-server-error fails it at must too)', answered(500, {}, post), { expected: 'status 201, or 411 Length Required', found: 'status 500' }],
    ['no answer until the deadline names the feature', unanswered('TIMEOUT', post), { expected: 'an answer to a chunked body', found: 'no response (TIMEOUT)' }],
  ] as const)('%s', (_d, exchange, outcome) => expect(judged(() => chunkedBodyAnswered(exchange))).toEqual(outcome));

  test('a 411 is observed as a transport policy, nothing else is', () => {
    expect(chunkedBodyAnswered(answered(411, {}, post)).policy).toMatch(/^request bodies sent chunked are refused \(411 Length Required\): a transport policy/);
    expect(chunkedBodyAnswered(answered(201, { id: 1, ...fields }, post)).policy).toBeUndefined();
  });

  test('the 400 message says 411 is the honest refusal', () => {
    expect(() => chunkedBodyAnswered(answered(400, {}, post))).toThrow(/refuses them honestly with 411 Length Required/);
  });

  test.each([
    ['HTTP/1.0: not asked', 'HTTP/1.0', true],
    ['HTTP/1.1: asked', 'HTTP/1.1', false],
    ['unknown (no answer yet): asked, as HTTP/1.1', undefined, false],
  ] as const)('chunkedNotAsked, %s', (_d, version, notAsked) => expect(chunkedNotAsked(version) !== undefined).toBe(notAsked));
});

describe('chunkedCreatedExactly (must, 4.2/R1)', () => {
  test.each([
    ['201 with the fields sent: created, to be listed', answered(201, { id: 7, ...fields }, post), 'created'],
    ['411: refused, chunked-body-answered’s', answered(411, {}, post), 'refused'],
    ['400', answered(400, {}, post), 'refused'],
    ['no answer: nothing to hold to the rule', unanswered('TIMEOUT', post), 'unanswered'],
    ['a 5xx: no-server-error’s', answered(500, {}, post), 'refused'],
    ['a 300 is no acceptance', answered(300, {}, post), 'refused'],
  ] as const)('%s', (_d, exchange, outcome) => {
    const result = chunkedCreatedExactly(exchange, fields, 'c');
    expect(typeof result === 'string' ? result : 'created').toBe(outcome);
  });

  test('near miss: a 201 whose name a chunk boundary damaged fails, naming the damage', () => {
    const damaged = answered(201, { id: 7, ...fields, name: 'Caf\ufffd\ufffd 🐈' }, post);
    expect(judged(() => chunkedCreatedExactly(damaged, fields, 'c'))).toEqual({ expected: 'the name sent', found: 'another name' });
    expect(() => chunkedCreatedExactly(damaged, fields, 'c')).toThrow(/U\+00E9 came back as U\+FFFD U\+FFFD/);
  });

  test('near miss: a 200, an acceptance without the 201 of 4.2/R1, fails', () => {
    expect(judged(() => chunkedCreatedExactly(answered(200, { id: 7, ...fields }, post), fields, 'c'))).toEqual({ expected: 'status 201', found: 'status 200' });
  });

  test('the edges of an acceptance: a 199 (the last 1xx) is set aside as refused; a 299 (the last 2xx) accepted the body, and fails for not being the 201', () => {
    expect(chunkedCreatedExactly(answered(199, {}, post), fields, 'c')).toBe('refused');
    expect(judged(() => chunkedCreatedExactly(answered(299, { id: 7, ...fields }, post), fields, 'c'))).toEqual({ expected: 'status 201', found: 'status 299' });
  });

  test('near miss: a 201 that drops the description fails', () => {
    expect(judged(() => chunkedCreatedExactly(answered(201, { id: 7, name: fields.name }, post), fields, 'c'))).not.toBe('passed');
  });
});

describe('variationOf: what sets a request apart from the interface’s own', () => {
  const json = { 'content-type': 'application/json' };
  const request = (method: string, headers: Record<string, string>, body?: string, bodyBytes?: number) => ({ method, headers, ...(body !== undefined ? { body } : {}), ...(bodyBytes !== undefined ? { bodyBytes } : {}) });
  test.each([
    ['a list', request('GET', {}), undefined],
    ['a JSON create', request('POST', json, '{"name":"a"}'), undefined],
    ['a JSON create with a charset, in capitals', request('POST', { 'content-type': 'Application/JSON; charset=utf-8' }, '{}'), undefined],
    ['a create without a body', request('POST', {}), undefined],
    ['a form post', request('POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'name=a'), 'other-media-type'],
    ['a body without a Content-Type', request('POST', {}, 'name=a'), 'other-media-type'],
    ['a body of the largest size sent', request('POST', json, 'x', LARGEST_BODY_BYTES), undefined],
    ['near miss: one byte more', request('POST', json, 'x', LARGEST_BODY_BYTES + 1), 'oversized-body'],
    ['a chunked JSON body', request('POST', { ...json, 'transfer-encoding': 'chunked' }, '{}'), 'chunked-framing'],
    ['a chunked form post is outside first', request('POST', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, 'x'), 'other-media-type'],
    ['Expect: 100-continue', request('POST', { ...json, expect: '100-continue' }, '{}'), 'expect-continue'],
    ['a CORS preflight', request('OPTIONS', { 'access-control-request-method': 'POST' }), 'cors-preflight'],
    ['near miss: an OPTIONS without Access-Control-Request-Method', request('OPTIONS', {}), 'other-method'],
    ['a PUT', request('PUT', json, '{}'), 'other-method'],
    ['a body nested 33 levels', request('POST', json, `{"a":${'['.repeat(32)}${']'.repeat(32)}}`), 'beyond-parser-limits'],
    ['a chunked body nested 33 levels is chunked first', request('POST', { ...json, 'transfer-encoding': 'chunked' }, `{"a":${'['.repeat(32)}${']'.repeat(32)}}`), 'chunked-framing'],
  ] as const)('%s', (_d, req, id) => expect(variationOf(req)?.id).toBe(id));
});

describe('premises', () => {
  const chunked = { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: '{}' };
  const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' };
  const plain = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
  /** A valid create whose body nests `depth` levels (its extra member one less). */
  const nested = (depth: number) => ({ ...plain, body: `{"name":"x","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}` });
  test.each([
    ['a check of its own: the interface', 'create-valid-bodies', 'interface'],
    ['the error shape: the interface, or the errors it defines', 'error-body-is-error', 'interface-error'],
    ['a server error: any request within the parsers’ limits', 'no-server-error', 'within-parser-limits'],
    ['a body past them: its own should check', 'create-bodies-beyond-parser-limits', 'beyond-parser-limits'],
    ['the chunked checks', 'chunked-body-created-exactly', 'chunked-create'],
  ] as const)('%s', (_d, checkId, premise) => expect(premiseOf(checkId).id).toBe(premise));

  test.each([
    ['interface: a plain create', 'interface', plain, undefined, true],
    ['interface: near miss, chunked', 'interface', chunked, undefined, false],
    ['same-request: chunked', 'same-request', chunked, undefined, true],
    ['same-request: near miss, a form post', 'same-request', form, undefined, false],
    ['interface-error: a form post answered 400', 'interface-error', form, 400, true],
    ['interface-error: a form post answered 401', 'interface-error', form, 401, true],
    ['interface-error: near miss, a form post answered 415', 'interface-error', form, 415, false],
    ['interface-error: near miss, a chunked body answered 411', 'interface-error', chunked, 411, false],
    ['interface-error: a plain create answered 413', 'interface-error', plain, 413, true],
    ['chunked-create: chunked', 'chunked-create', chunked, undefined, true],
    ['chunked-create: near miss, plain', 'chunked-create', plain, undefined, false],
    ['any: a form post', 'any', form, undefined, true],
    ['within-parser-limits: a plain create', 'within-parser-limits', plain, undefined, true],
    ['within-parser-limits: a form post', 'within-parser-limits', form, undefined, true],
    ['within-parser-limits: near miss, a body nested 33 levels', 'within-parser-limits', nested(33), 500, false],
    ['within-parser-limits: a body nested 32 levels', 'within-parser-limits', nested(32), 500, true],
    ['within-parser-limits: near miss, a body a capture did not keep, long enough to nest past them', 'within-parser-limits', { ...plain, body: undefined, bodyBytes: 66 }, 500, false],
    ['within-parser-limits: a body a capture did not keep, too short to nest past them', 'within-parser-limits', { ...plain, body: undefined, bodyBytes: 65 }, 500, true],
    ['interface: a body a capture did not keep (the 401 rules hold for any body)', 'interface', { ...plain, body: undefined, bodyBytes: 66 }, 401, true],
    ['interface-error: a 400 to a body a capture did not keep', 'interface-error', { ...plain, body: undefined, bodyBytes: 66 }, 400, true],
    ['interface-error: near miss, a 500 to it, long enough to nest past the parsers’ limits', 'interface-error', { ...plain, body: undefined, bodyBytes: 66 }, 500, false],
    ['interface-error: a 500 to a body a capture did not keep, too short to', 'interface-error', { ...plain, body: undefined, bodyBytes: 65 }, 500, true],
    ['beyond-parser-limits: a body nested 33 levels', 'beyond-parser-limits', nested(33), 500, true],
    ['beyond-parser-limits: a plain create (the largest string body is the interface’s own)', 'beyond-parser-limits', plain, 201, true],
    ['beyond-parser-limits: near miss, a form post', 'beyond-parser-limits', form, 201, false],
    ['interface: Expect: 100-continue answered 201', 'interface', { ...plain, headers: { ...plain.headers, expect: '100-continue' } }, 201, true],
    ['interface: near miss, Expect: 100-continue refused with 417', 'interface', { ...plain, headers: { ...plain.headers, expect: '100-continue' } }, 417, false],
  ] as const)('%s', (_d, premise, request, status, holds) => expect(PREMISES[premise].holds(request, status)).toBe(holds));
});

describe('connections-answered: every request answered on the connection it went out on', () => {
  const lost = (checkId: string) => unanswered('TIMEOUT', { checkId });
  test.each([
    ['none sent again', [], 'passed'],
    ['near miss: one unanswered on a reused connection, answered on a new one', [lost('list-ids-unique')], { expected: 'an answer on the connection it went out on', found: '1 unanswered on a reused connection, answered on a new one' }],
    ['near miss: two', [lost('a'), lost('b')], { expected: 'an answer on the connection it went out on', found: '2 unanswered on a reused connection, answered on a new one' }],
  ] as const)('%s', (_what, exchanges, outcome) => expect(judged(() => answeredOnTheirConnections(exchanges))).toEqual(outcome));

  test('the message counts them and names the first', () => {
    expect(() => answeredOnTheirConnections([lost('auth-rejects-generated-credentials'), lost('b')])).toThrow(
      '2 requests went unanswered on a reused connection and were answered when sent again on a new one; first: GET /v1/categories (check auth-rejects-generated-credentials): TIMEOUT: timeout (a test)',
    );
  });

  test('a limit on connections is a policy, in words', () => {
    expect(connectionLimitPolicy({ resets: 76, mostHeld: 8, used: 8 })).toBe('the target held 8 connections at once and reset those beyond (76 resets, each request sent again): a limit on connections (section 8); the run used 8');
    expect(connectionLimitPolicy({ resets: 1, mostHeld: 1, used: 1 })).toBe('the target held 1 connection at once and reset those beyond (1 reset, each request sent again): a limit on connections (section 8); the run used 1');
  });
});
