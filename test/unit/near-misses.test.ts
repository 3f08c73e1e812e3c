/**
 * A near miss beside every boundary the review's mutations crossed unseen (issue 34): each
 * decision gets a case on each side of its edge, as the JSON-Schema-Test-Suite puts
 * "boundary point is valid" between its valid and invalid cases. Every case here fails
 * with one of the survivors listed in `npm run mutations`.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '../../src/report/model.js';
import { exitCodeOf, gateLines, gateOf } from '../../src/report/gate.js';
import { byWeight, countsForVerdict, coverageOf, decideVerdict, exitCodeFor, failsRun, partialBasis, truncationShortfall } from '../../src/report/verdict.js';
import { resourceExhausted, toolFailure, withCauses } from '../../src/core/tool-failure.js';
import { retryAfterMs } from '../../src/http/retry-policy.js';
import { BASELINE_FORM, isBaselineForm, singleVariations, type ClientForm } from '../../src/http/client-form.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { headerFields } from '../../src/traffic/capture.js';
import { credentialName, FULLY_REDACTED_SECRETS, knownKey, registerCaptureSecrets } from '../../src/traffic/credentials.js';
import { joinTraffic } from '../../src/traffic/join.js';
import { bodyKind, fieldsKeyOf, outsidePolicy, preflightAnswered, refusedAbsent, waitedOut } from '../../src/traffic/rules.js';
import { ListedItems, quote } from '../../src/check/expect.js';
import { variationOf } from '../../src/check/premises.js';
import { answered, judged } from '../support/exchanges.js';
import { CheckFailure } from '../../src/core/errors.js';
import { failureRecord } from '../../src/check/failure-record.js';
import { TrafficJudge } from '../../src/traffic/judge.js';
import { capturedExchange, normalVersion } from '../../src/traffic/capture.js';
import { CHECKS } from '../support/checks.js';
import { BASE, entry } from '../support/har.js';

const check = (level: CheckResult['level'], status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
  id: `${level}-${status}`,
  title: 't',
  clause: '4',
  level,
  requirements: [],
  status,
  durationMs: 1,
  requests: 1,
  ...extra,
});

describe('the verdict: an errored check decides it only at must', () => {
  const passedMust = check('must', 'passed');
  test.each([
    ['an errored must check alone', 'must', 'error'],
    ['an errored should check alone', 'should', 'conformant'],
    ['an errored info check alone', 'info', 'conformant'],
  ] as const)('%s: %s', (_what, level, verdict) => {
    expect(decideVerdict([passedMust, check(level, 'error')], { assessable: true, runErrors: [], strict: false }).verdict).toBe(verdict);
  });

  test('a target not assessed is an error whatever passed, its reason given or, absent, said in general', () => {
    expect(decideVerdict([passedMust], { assessable: false, runErrors: [], strict: false })).toEqual({ verdict: 'error', reason: 'the target could not be assessed' });
    expect(decideVerdict([passedMust], { assessable: false, unassessableReason: 'the key is refused', runErrors: [], strict: false })).toEqual({ verdict: 'error', reason: 'the key is refused' });
  });
});

describe('the gate: a known failure holds through its expiry day', () => {
  const failed = [check('must', 'failed', { id: 'list-ids-unique' })];
  test.each([
    ['the day before', '2026-11-24', true],
    ['its own day', '2026-11-25', true],
    ['the day after', '2026-11-26', false],
  ])('run %s its expiry: passed %s', (_when, today, passed) => {
    const gate = gateOf(failed, [{ check: 'list-ids-unique', reason: 'known', expires: '2026-11-25' }], today);
    expect(gate.passed).toBe(passed);
  });
});

describe('client forms: the baseline is the baseline in every dimension', () => {
  test.each<[string, Partial<ClientForm>]>([
    ['json', { json: 'escaped-slash' }],
    ['accept', { accept: null }],
    ['contentType', { contentType: 'application/json; charset=utf-8' }],
    ['framing', { framing: 'chunked' }],
  ])('differing in %s alone: not the baseline', (_dimension, change) => {
    expect(isBaselineForm({ ...BASELINE_FORM, ...change })).toBe(false);
  });
  test('the baseline itself, as a copy', () => expect(isBaselineForm({ ...BASELINE_FORM })).toBe(true));
});

describe('tool failures: resources exhausted are found as the error or its causes', () => {
  const wrapped = (error: unknown, depth: number): unknown => (depth === 0 ? error : new Error(`wrapper ${depth}`, { cause: wrapped(error, depth - 1) }));
  const emfile = Object.assign(new Error('open failed'), { code: 'EMFILE' });
  const enomem = Object.assign(new Error('spawn failed'), { code: 'ENOMEM' });
  test.each([0, 1, 2, 3])('EMFILE and ENOMEM at depth %i (the error and three causes deep are looked at)', (depth) => {
    expect(resourceExhausted(wrapped(emfile, depth))?.line).toMatch(/too many open files/);
    expect(resourceExhausted(wrapped(enomem, depth))?.line).toMatch(/out of memory/);
  });
  test('near miss: four causes deep is not looked at (a cycle of causes ends)', () => {
    expect(resourceExhausted(wrapped(emfile, 4))).toBeUndefined();
  });
  test('another error, at any depth, is none', () => {
    expect(resourceExhausted(wrapped(Object.assign(new Error('x'), { code: 'ECONNRESET' }), 2))).toBeUndefined();
  });
});

describe('captured traffic', () => {
  test('Proxy-Authorization and Authorization carry secrets from the first sight; another field does not', () => {
    const redactor = new Redactor();
    registerCaptureSecrets({ request: { headers: [{ name: 'Proxy-Authorization', value: 'Basic cHJveHktdXNlcjpwcm94eS1wYXNzd29yZA==' }, { name: 'X-Trace', value: 'trace-0123456789abcdef' }] } }, redactor, [], new Map());
    expect(redactor.text('seen cHJveHktdXNlcjpwcm94eS1wYXNzd29yZA== here')).not.toContain('cHJveHktdXNlcjpwcm94eS1wYXNzd29yZA==');
    expect(redactor.text('trace-0123456789abcdef')).toBe('trace-0123456789abcdef');
  });

  test.each([
    ['a query parameter that names a key', { url: `${BASE}/categories?page=2&API_KEY=query-key-0123456789abcdef#top` }, true],
    ['near miss: a query parameter of another name', { url: `${BASE}/categories?page=query-key-0123456789abcdef` }, false],
    ['a form field access_token', { url: `${BASE}/categories`, postData: { mimeType: 'application/x-www-form-urlencoded; charset=utf-8', text: 'name=Cats&access_token=query-key-0123456789abcdef' } }, true],
    ['near miss: a form field of another name', { url: `${BASE}/categories`, postData: { mimeType: 'application/x-www-form-urlencoded', text: 'name=query-key-0123456789abcdef' } }, false],
    ['near miss: access_token in a JSON body', { url: `${BASE}/categories`, postData: { mimeType: 'application/json', text: 'access_token=query-key-0123456789abcdef' } }, false],
  ])('a capture’s key in %s is a secret: %s', (_what, request, secret) => {
    const redactor = new Redactor();
    registerCaptureSecrets({ request: { headers: [], ...request } }, redactor, [], new Map());
    expect(redactor.text('query-key-0123456789abcdef') !== 'query-key-0123456789abcdef').toBe(secret);
  });

  test('each kind of secret is named in its placeholder, numbered in order of sight: the words a report shows in its place', () => {
    const redactor = new Redactor();
    const headers = [
      { name: 'Authorization', value: 'Bearer bearer-key-0123456789abcdef' },
      { name: 'Cookie', value: 'session=cookie-0123456789abcdef' },
      { name: 'X-Gateway-Secret', value: 'gateway-0123456789abcdef' },
    ];
    registerCaptureSecrets({ request: { headers } }, redactor, ['x-gateway-secret'], new Map());
    expect(redactor.text('bearer-key-0123456789abcdef cookie-0123456789abcdef gateway-0123456789abcdef')).toBe('[capture-credential-1] [capture-cookie-2] [capture-secret-header-3]');
  });

  test('X-API-Key and Api-Key carry secrets from the first sight, in any case', () => {
    for (const name of ['X-API-Key', 'api-key', 'Api-Key']) {
      const redactor = new Redactor();
      registerCaptureSecrets({ request: { headers: [{ name, value: 'gateway-key-0123456789abcdef' }] } }, redactor, [], new Map());
      expect(redactor.text('gateway-key-0123456789abcdef'), name).not.toContain('gateway-key-0123456789abcdef');
    }
  });

  test.each([
    ['HTTP/1.0', 'HTTP/1.0'],
    ['http/1.0', 'HTTP/1.0'],
    [' Http/1.0 ', 'HTTP/1.0'],
    ['HTTP/1.1', undefined],
    ['h2', undefined],
    [undefined, undefined],
  ])('an answer in %j is HTTP/1.0: %s', (version, expected) => expect(normalVersion(version)).toBe(expected));

  test('a header field sent twice keeps both values, joined (RFC 9110 §5.3); sent once, its one value', () => {
    expect(headerFields([{ name: 'Vary', value: 'Accept' }, { name: 'vary', value: 'Origin' }])).toEqual({ vary: 'Accept, Origin' });
    expect(headerFields([{ name: 'Vary', value: 'Accept' }])).toEqual({ vary: 'Accept' });
  });

  test('in a capture, a field listed again with a value it has is the recorder’s (Chrome lists them twice): read once, and said; another value is kept', () => {
    let said = 0;
    const saying = () => void said++;
    const key = { name: 'Authorization', value: 'Bearer K' };
    expect(headerFields([key, { name: 'authorization', value: 'Bearer K' }], saying)).toEqual({ authorization: 'Bearer K' });
    expect(said).toBe(1);
    // Near misses: another value is a second field (the attack "the key, then another"); the wire's fields (the proxy) are taken as sent.
    expect(headerFields([key, { name: 'authorization', value: 'Bearer K2' }], saying)).toEqual({ authorization: 'Bearer K, Bearer K2' });
    expect(headerFields([key, { name: 'Authorization', value: 'Bearer K' }])).toEqual({ authorization: 'Bearer K, Bearer K' });
    expect(said).toBe(1);
    // The same value under two names is no repeat.
    expect(headerFields([{ name: 'A', value: 'x' }, { name: 'B', value: 'x' }], saying)).toEqual({ a: 'x', b: 'x' });
    expect(said).toBe(1);
    // A third listing is compared with both before it: the first value again is a repeat, a third value is not.
    expect(headerFields([key, { name: 'authorization', value: 'Bearer K2' }, key, { name: 'authorization', value: 'Bearer K3' }, { name: 'authorization', value: 'Bearer K2' }], saying)).toEqual({ authorization: 'Bearer K, Bearer K2, Bearer K3' });
    expect(said).toBe(3);
  });

  test.each([
    [429, {}, true],
    [503, { 'retry-after': '5' }, true],
    [503, {}, false],
    [502, { 'retry-after': '5' }, false],
  ] as Array<[number, Record<string, string>, boolean]>)('a %i with %j is waited out: %s', (status, headers, expected) => {
    expect(waitedOut({ status, headers })).toBe(expected);
  });

  test('a check failed both actively and in the capture keeps the active failure (its replay); failed in the capture alone, the capture’s', () => {
    const active = check('must', 'failed', { id: 'c', failure: { message: 'active', request: { method: 'GET', url: 'http://a/v1/categories', headers: {} } } });
    const passive = check('must', 'failed', { id: 'c', failure: { message: 'capture', request: { method: 'GET', url: 'http://a/v1/categories', headers: {} } }, traffic: { exchanges: 1, failures: 1, alone: true } });
    expect(joinTraffic([active], [passive])[0]!.failure!.message).toBe('active');
    expect(joinTraffic([check('must', 'passed', { id: 'c' })], [passive])[0]!.failure!.message).toBe('capture');
  });

  test.each([
    ['passed', 'passed', 'passed'],
    ['passed', 'failed', 'failed'],
    ['failed', 'passed', 'failed'],
    ['error', 'passed', 'error'],
    ['error', 'failed', 'failed'],
    ['skipped', 'passed', 'passed'],
    ['skipped', 'failed', 'failed'],
  ] as const)('joined, a check %s actively and %s in the capture is %s', (active, passive, joined) => {
    const judged = check('must', passive, { id: 'c', traffic: { exchanges: 1, failures: passive === 'failed' ? 1 : 0, alone: true } });
    const result = joinTraffic([check('must', active, { id: 'c' })], [judged])[0]!;
    expect(result.status).toBe(joined);
    expect(result.traffic?.alone).toBe(active === 'skipped');
  });

  test.each([
    ['the key', 'Bearer abcdefghijklmnop', 'valid'],
    ['the key with its last character removed', 'Bearer abcdefghijklmno', 'key-char-removed'],
    ['the key with its last two characters removed', 'Bearer abcdefghijklmn', 'unverified'],
    ['the key with a character added', 'Bearer abcdefghijklmnopq', 'key-char-added'],
    ['the key with two characters added', 'Bearer abcdefghijklmnopqr', 'unverified'],
    ['the key base64-encoded', `Bearer ${btoa('abcdefghijklmnop')}`, 'bearer-base64'],
    ['the key base64-encoded without its padding', `Bearer ${btoa('abcdefghijklmnop').replace(/=+$/, '')}`, 'bearer-base64'],
    ['near miss: the key base64-encoded but its last character', `Bearer ${btoa('abcdefghijklmno')}`, 'unverified'],
    ['the key twice', 'Bearer abcdefghijklmnop, Bearer abcdefghijklmnop', 'key-twice'],
    ['the key, a space and a comma', 'Bearer abcdefghijklmnop ,x', 'key-twice'],
    ['the key followed by a word', 'Bearer abcdefghijklmnop x', 'key-second-word'],
    ['the key followed by a tab and a word', 'Bearer abcdefghijklmnop\tx', 'key-second-word'],
    ['near miss: all but the key\'s last character, followed by a word', 'Bearer abcdefghijklmno x', 'unverified'],
    ['another key, then the key', 'Bearer other, Bearer abcdefghijklmnop', 'key-and-another'],
    ['another token, a comma and the key', 'Bearer other,abcdefghijklmnop', 'key-and-another'],
    ['near miss: another token and the key without a comma', 'Bearer other abcdefghijklmnop', 'unverified'],
    ['the key percent-encoded', `Bearer ${[...'abcdefghijklmnop'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`, 'key-percent-encoded'],
    ['the key percent-encoded twice', `Bearer ${[...'abcdefghijklmnop'].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join('')}`, 'key-percent-encoded'],
    ['near miss: another token percent-encoded', `Bearer ${[...'abcdefghijklmnoq'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`, 'unverified'],
    ['the key followed by é in UTF-8, as Latin-1 reads it', 'Bearer abcdefghijklmnop\u00c3\u00a9', 'key-non-ascii'],
    ['the key with a Cyrillic a', 'Bearer \u0430bcdefghijklmnop', 'key-non-ascii'],
    ['near miss: another token with a Cyrillic a', 'Bearer \u0430bcdefghijklmnoq', 'unverified'],
    ['a token of the key\'s Java hash', 'Bearer bCcdefghijklmnop', 'key-hash-collision'],
    ['near miss: a token of the key\'s length, another hash', 'Bearer bDcdefghijklmnop', 'unverified'],
    ['the key as a Basic user name', `Basic ${btoa('abcdefghijklmnop:')}`, 'basic-scheme'],
    ['the key with its last character changed', 'Bearer abcdefghijklmnoX', 'key-char-changed'],
    ['near miss: the key with its last two characters changed', 'Bearer abcdefghijklmnXX', 'unverified'],
    ['near miss: the key with its first character changed', 'Bearer Xbcdefghijklmnop', 'unverified'],
    ['the key with its letters\' case swapped', 'Bearer ABCDEFGHIJKLMNOP', 'key-case-swapped'],
    ['near miss: the key with only its first letter\'s case swapped', 'Bearer Abcdefghijklmnop', 'unverified'],
  ])('%s is named %s', (_what, authorization, name) => {
    expect(credentialName(authorization, knownKey('abcdefghijklmnop', undefined))).toBe(name);
  });

  test('the key base64-encoded with a / in it, padded and not, is named bearer-base64 (the URL-safe form has _ where it has /)', () => {
    const known = knownKey('abcdefghijklmn??', undefined);
    expect(credentialName('Bearer YWJjZGVmZ2hpamtsbW4/Pw==', known)).toBe('bearer-base64');
    expect(credentialName('Bearer YWJjZGVmZ2hpamtsbW4/Pw', known)).toBe('bearer-base64');
    expect(credentialName('Bearer YWJjZGVmZ2hpamtsbW4_Pw', known)).toBe('bearer-base64');
  });
});

describe('the traffic judge and the checks it reports under', () => {
  const exchange = () => capturedExchange(entry({ status: 200, responseBody: '[]', authorization: null }) as never, 1, () => 'missing')!;
  test('every check it judges is known: with the whole list, a keyless list is judged', () => {
    const judge = new TrafficJudge(BASE, CHECKS);
    expect(judge.judge(exchange()).map((finding) => finding.checkId)).toContain('list-401-missing');
  });
  test('a check it judges missing from the list fails loudly, never drops out of the report', () => {
    const judge = new TrafficJudge(BASE, CHECKS.filter((check) => check.id !== 'auth-rejects-generated-credentials'));
    expect(() => judge.judge(exchange())).toThrow(/unknown check auth-rejects-generated-credentials/);
  });
});

describe('the remaining exported decisions, each with a case on each side of its edge', () => {
  const listOf = (items: unknown[]) => capturedExchange(entry({ status: 200, responseBody: JSON.stringify(items) }) as never, 1, () => 'valid')!;

  test('fieldsKeyOf: a name and a description never spell another pair; no string name, no key', () => {
    expect(fieldsKeyOf({ name: 'a:b', description: 'c' })).not.toBe(fieldsKeyOf({ name: 'a', description: 'b:c' }));
    expect(fieldsKeyOf({ name: 'a' })).not.toBe(fieldsKeyOf({ name: 'a', description: '' }));
    expect(fieldsKeyOf({ name: 'a', description: 'b' })).toBe(fieldsKeyOf({ description: 'b', name: 'a' }));
    expect(fieldsKeyOf({ name: 1 })).toBeUndefined();
    // One name, two descriptions: two pairs; a description that is not a string is none.
    expect(fieldsKeyOf({ name: 'a', description: 'b' })).not.toBe(fieldsKeyOf({ name: 'a', description: 'c' }));
    expect(fieldsKeyOf({ name: 'a', description: 7 })).toBe(fieldsKeyOf({ name: 'a' }));
  });

  test('refusedAbsent: a refused create listed after fails; listed before it, or created by the capture, passes', () => {
    const list = listOf([{ id: 7, name: 'Cats' }]);
    const refusal = { fields: { name: 'Cats' }, endMs: 0, seq: 3, listedBefore: new Set<string>() };
    expect(judged(() => refusedAbsent(list, new ListedItems(list), [refusal], new Map()))).toMatchObject({ expected: 'refused creates absent' });
    expect(judged(() => refusedAbsent(list, new ListedItems(list), [{ ...refusal, listedBefore: new Set(['7']) }], new Map()))).toBe('passed');
    expect(judged(() => refusedAbsent(list, new ListedItems(list), [refusal], new Map([['7', {}]])))).toBe('passed');
  });

  test.each([
    [undefined, 'create-rejects-missing-body'],
    ['{"name":', 'create-rejects-malformed-json'],
    ['[]', 'create-rejects-non-object'],
    ['{}', 'create-rejects-missing-name'],
    ['{"name":1}', 'create-rejects-wrong-type-name'],
    ['{"name":"a","description":1}', 'create-rejects-wrong-type-description'],
    ['{"name":"a","description":"b"}', 'valid'],
    ['', 'create-rejects-missing-body'],
    ['{"description":"b"}', 'create-rejects-missing-name'],
    ['{"name":"a","description":null}', 'create-rejects-wrong-type-description'],
  ])('bodyKind(%j) is %s', (text, kind) => expect(bodyKind(text).kind).toBe(kind));

  test.each([
    ['{"name":"a"}', { fields: { name: 'a' }, extra: false }],
    ['{"name":"a","description":"b"}', { fields: { name: 'a', description: 'b' }, extra: false }],
    ['{"description":"b","name":"a","tag":"x"}', { fields: { name: 'a', description: 'b' }, extra: true }],
    ['{"name":"a","id":5}', { fields: { name: 'a' }, clientId: 5n, extra: true }],
  ])('a valid create %s: its fields, a client’s id, and whether it has unknown properties (explaining a refusal)', (text, valid) => {
    expect(bodyKind(text)).toEqual({ kind: 'valid', ...valid });
  });

  test.each([[204, 'passed'], [200, 'passed'], [299, 'passed'], [300, 'failed'], [199, 'failed'], [403, 'failed']] as const)('preflightAnswered: %i %s', (status, outcome) => {
    const preflight = capturedExchange(entry({ method: 'OPTIONS', status, responseBody: '' }) as never, 1, () => 'missing')!;
    expect(judged(() => preflightAnswered(preflight)) === 'passed' ? 'passed' : 'failed').toBe(outcome);
  });

  test('outsidePolicy: a form post refused with 415 is a policy; answered 400, none', () => {
    const form = (status: number) => capturedExchange(entry({ requestBody: 'name=Cats', contentType: 'application/x-www-form-urlencoded', status, responseBody: '{}' }) as never, 1, () => 'valid')!;
    const variation = variationOf(form(415).request)!;
    expect(outsidePolicy(variation, form(415))).toMatch(/application\/x-www-form-urlencoded are refused \(415\)/);
    expect(outsidePolicy(variation, form(400))).toBeUndefined();
  });

  test('the levels and the verdict: must always counts, should only with --strict, info never', () => {
    expect([countsForVerdict({ level: 'must' }, false), countsForVerdict({ level: 'should' }, false), countsForVerdict({ level: 'should' }, true), countsForVerdict({ level: 'info' }, true)]).toEqual([true, false, true, false]);
    expect([failsRun({ level: 'must', status: 'failed' }, false), failsRun({ level: 'must', status: 'error' }, false)]).toEqual([true, false]);
    const order = [{ level: 'info' as const }, { level: 'should' as const }, { level: 'must' as const }];
    expect([...order].sort(byWeight(false)).map((c) => c.level)).toEqual(['must', 'should', 'info']);
    expect([...order].sort(byWeight(true)).map((c) => c.level)).toEqual(['must', 'should', 'info']);
  });

  test('exit codes: the verdict’s, or the gate’s; an error stays 3 whatever the gate', () => {
    const gate = (passed: boolean) => ({ passed, known: [], new: [], stale: [], expired: [] });
    expect([exitCodeFor('conformant'), exitCodeFor('nonconformant'), exitCodeFor('error')]).toEqual([0, 1, 3]);
    expect([exitCodeOf('nonconformant', gate(true)), exitCodeOf('conformant', gate(false)), exitCodeOf('error', gate(true)), exitCodeOf('nonconformant', undefined)]).toEqual([0, 1, 3, 1]);
    expect(gateLines({ ...gate(false), expired: [{ check: 'c', expires: '2020-01-01' }] }).join('\n')).toMatch(/the known failure c expired on 2020-01-01/);
  });

  test('a capture cut short: no verdict unless accepted; none cut, nothing to say', () => {
    const traffic = (truncated?: Array<{ file: string; entries: number; reason: string }>) => ({ files: ['a.har'], entries: 1, judged: 1, other: 0, missing: {}, ...(truncated ? { truncated } : {}) });
    const cut = [{ file: 'a.har', entries: 1, reason: 'ends before its JSON does' }];
    expect(truncationShortfall(traffic(cut), false)).toMatch(/a\.har ends before its JSON does: judged up to its last whole entry \(1 entry\)/);
    expect(truncationShortfall(traffic(cut), true)).toBeUndefined();
    expect(truncationShortfall(traffic([]), false)).toBeUndefined();
    expect(truncationShortfall(undefined, false)).toBeUndefined();
  });

  test('coverage and what a partial verdict stands on: ran + untested = must; only a capture’s partial verdict names its checks', () => {
    const checks = [check('must', 'passed', { id: 'a' }), check('must', 'skipped', { id: 'b' }), check('should', 'passed', { id: 'c' })];
    expect(coverageOf(checks)).toMatchObject({ must: 2, ran: 1, untested: 1 });
    expect(coverageOf([checks[0]!])).toMatchObject({ must: 1, ran: 1, untested: 0 });
    const judgedOn = checks.map((c) => (c.id === 'a' ? { ...c, traffic: { exchanges: 1, failures: 0, alone: true } } : c));
    const base = { verdict: 'conformant' as const, coverage: coverageOf(judgedOn), checks: judgedOn, target: { baseUrl: BASE, kind: 'traffic' as const } };
    expect(partialBasis({ ...base, traffic: { files: [], entries: 1, judged: 1, other: 0, missing: {} } })).toMatch(/^Must checks judged \(1 of 2\): a/);
    expect(partialBasis({ ...base, verdict: 'nonconformant' })).toBeUndefined();
  });

  test('singleVariations: each differs from the baseline in one way, none in framing', () => {
    const forms = singleVariations();
    expect(forms.length).toBeGreaterThan(5);
    for (const form of forms) {
      expect(form.framing).toBe(BASELINE_FORM.framing);
      expect([form.json !== BASELINE_FORM.json, form.accept !== BASELINE_FORM.accept, form.contentType !== BASELINE_FORM.contentType].filter(Boolean)).toHaveLength(1);
    }
  });

  test('toolFailure and withCauses: a resource named at once; any other error, its line and its causes', () => {
    expect(toolFailure(Object.assign(new Error('x'), { code: 'EMFILE' })).line).toMatch(/too many open files/);
    expect(toolFailure(new Error('boom', { cause: new Error('deeper') })).line).toMatch(/boom/);
    expect(withCauses(new Error('outer', { cause: new Error('inner') }))).toBe('outer: inner');
    expect(withCauses(new Error('alone'))).toBe('alone');
    // Three lines at most: a wrapper, its cause and the cause's; a fourth is left out.
    const chain = (n: number): Error => (n === 1 ? new Error('e1') : new Error(`e${n}`, { cause: chain(n - 1) }));
    expect(withCauses(chain(3))).toBe('e3: e2: e1');
    expect(withCauses(chain(4))).toBe('e4: e3: e2');
  });
});

describe('the second sample’s survivors, each with a near miss', () => {
  test('every cookie of a Cookie field is a secret, not the first alone', () => {
    const redactor = new Redactor();
    registerCaptureSecrets({ request: { headers: [{ name: 'Cookie', value: 'a=first-secret-0123456789; b=second-secret-0123456789' }] } }, redactor, [], new Map());
    expect(redactor.text('first-secret-0123456789 second-secret-0123456789')).not.toMatch(/first-secret|second-secret/);
  });

  test('HTTP/2 pseudo-headers are no header fields; a field of the same name without the colon is', () => {
    expect(headerFields([{ name: ':authority', value: 'a.example' }, { name: 'authority', value: 'b' }])).toEqual({ authority: 'b' });
  });

  test.each([
    [[check('should', 'passed')], 'error'],
    [[check('must', 'passed'), check('should', 'passed')], 'conformant'],
  ] as const)('a run whose must checks passed: %#', (checks, verdict) => {
    expect(decideVerdict([...checks], { assessable: true, runErrors: [], strict: false }).verdict).toBe(verdict);
  });

  test.each([['5', 5000], [' 5 ', 5000], ['5.5', undefined]] as const)('Retry-After %j waits %s ms', (value, ms) => expect(retryAfterMs(value, 0)).toBe(ms));
  test.each([
    ['an HTTP-date', 'Thu, 01 Jan 1970 00:00:05 GMT', 5000],
    ['an HTTP-date with the whitespace around a field value (RFC 9110 §5.5, a capture keeps it)', ' Thu, 01 Jan 1970 00:00:05 GMT ', 5000],
    ['near miss: a date that starts with no day name', '01 Jan 1970 00:00:05 GMT', undefined],
  ] as const)('Retry-After as %s', (_d, value, ms) => expect(retryAfterMs(value, 0)).toBe(ms));

  test('an expired entry fails the gate even when nothing failed; the day before its expiry, it does not', () => {
    const passing = [check('must', 'passed', { id: 'list-ids-unique' })];
    expect(gateOf(passing, [{ check: 'list-ids-unique', reason: 'known', expires: '2026-11-24' }], '2026-11-25').passed).toBe(false);
    expect(gateOf(passing, [{ check: 'list-ids-unique', reason: 'known', expires: '2026-11-25' }], '2026-11-25').passed).toBe(true);
  });
});

describe.runIf(process.platform === 'linux')('a file the user names that is not a regular file is named for what it is', () => {
  test('a FIFO is a FIFO, a device a device, and neither is read', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { readInput } = await import('../../src/config/read-input.js');
    const fifo = join(await mkdtemp(join(tmpdir(), 'pcs-fifo-')), 'key.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(readInput(fifo, 'the key file')).rejects.toThrow(/is not a regular file \(a FIFO\)/);
    await expect(readInput('/dev/zero', 'the key file')).rejects.toThrow(/is not a regular file \(a device\)/);
  });
});

describe('a known failure naming no check: the ids it is closest to', async () => {
  const { loadKnownFailures } = await import('../../src/config/known-failures.js');
  const { mkdtemp, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'pcs-known-'));
  /** The usage error for a file naming `check`, among the ids of `ids`. */
  const refusal = async (check: string, ids: string[]) => {
    const path = join(dir, `${check}.yaml`);
    await writeFile(path, `- check: ${check}\n  reason: r\n  expires: 2999-01-01\n`);
    return loadKnownFailures(path, ids).then(() => 'accepted', (error: Error) => error.message);
  };

  test('a shared prefix of 12 characters (or the whole id but one) suggests the id; 11 does not', async () => {
    const ids = ['create-name-only'];
    // 'create-name-' is 12 characters: exactly the threshold.
    expect(await refusal('create-name-xyzw', ids)).toMatch(/\(did you mean create-name-only\?\)/);
    expect(await refusal('create-nameXxyzw', ids)).not.toMatch(/did you mean/);
    // A short id: its length but one is the threshold.
    expect(await refusal('list-ax', ['list-ab'])).toMatch(/\(did you mean list-ab\?\)/);
    expect(await refusal('list-xx', ['list-ab'])).not.toMatch(/did you mean/);
  });
});

describe('a failure record names the check that made its exchange only when another did', () => {
  const failure = new CheckFailure('x', answered(500, {}, { checkId: 'create-name-only' }), { expected: 'a', found: 'b' });
  test('an invariant failing on a create of create-name-only names that check', () => {
    expect(failureRecord(failure, 'no-server-error').checkId).toBe('create-name-only');
  });
  test('near miss: the check failing on its own exchange names none', () => {
    expect(failureRecord(failure, 'create-name-only')).not.toHaveProperty('checkId');
  });
});

describe('a value quoted in a message is shortened only past its limit', () => {
  test.each([
    ['exactly the limit: whole', 'x'.repeat(80), JSON.stringify('x'.repeat(80))],
    ['near miss: one past the limit: shortened, its length said', 'x'.repeat(81), JSON.stringify(`${'x'.repeat(80)}…(81 chars)`)],
    ['absent', undefined, 'absent'],
  ] as const)('%s', (_d, text, shown) => expect(quote(text)).toBe(shown));
});

/**
 * A capture with a fresh cookie per answer (issue 59): the first secrets of a capture are
 * redacted in every form (base64 too), those after FULLY_REDACTED_SECRETS whole and
 * case-folded, so filing each costs its own length. 2,000 such exchanges took `judge` 60 s
 * when each was filed in full against all before it; measured after: 100,000 in 4.7 s.
 */
describe('the value of a Set-Cookie line, a secret of the capture', () => {
  test.each([
    ['the value after the name', 'sid=session-value-0123456789; Path=/', 'session-value-0123456789'],
    ['an = inside the value stays in it', 'sid=session=value-0123456789; Secure', 'session=value-0123456789'],
    ['near miss: no attributes', 'sid=session-value-0123456789', 'session-value-0123456789'],
    ['near miss: no name, the whole pair', 'session-value-0123456789; Path=/', 'session-value-0123456789'],
  ])('%s', (_what, line, secret) => {
    const seen = new Map<string, string>();
    registerCaptureSecrets({ response: { headers: [{ name: 'Set-Cookie', value: line }] } }, new Redactor(), [], seen);
    expect([...seen.keys()]).toEqual([secret]);
  });
});

describe('the secrets of a capture with a fresh cookie per answer', () => {
  // Unrelated values, as a server's fresh sessions are: no two share a piece.
  const cookie = (i: number) => createHash('sha256').update(String(i)).digest('hex').slice(0, 32);
  const registered = () => {
    const redactor = new Redactor();
    const seen = new Map<string, string>();
    for (let i = 1; i <= FULLY_REDACTED_SECRETS + 2; i++) registerCaptureSecrets({ response: { headers: [{ name: 'Set-Cookie', value: `sid=${cookie(i)}; Path=/` }] } }, redactor, [], seen);
    return redactor;
  };
  const base64 = (text: string) => Buffer.from(text).toString('base64');

  test('the last secret in full: whole, case-folded and in base64', () => {
    const redactor = registered();
    const last = cookie(FULLY_REDACTED_SECRETS);
    expect(redactor.text(`${last} ${last.toUpperCase()} ${base64(last)}`)).toMatch(/^\[capture-cookie-64\] \[capture-cookie-64\] \[base64 of \[capture-cookie-64\]\]/);
  });

  test('near miss: the one after it, whole and case-folded, not in base64', () => {
    const redactor = registered();
    const after = cookie(FULLY_REDACTED_SECRETS + 1);
    expect(redactor.text(`${after} ${after.toUpperCase()}`)).toBe('[capture-cookie-65] [capture-cookie-65]');
    expect(redactor.text(base64(after))).toBe(base64(after));
  });

  test('one after it written in both cases (a token, not hex) is found lower-cased and upper-cased too', () => {
    const redactor = registered();
    const mixed = 'SessionToken-AbCdEf0123456789XyZ';
    registerCaptureSecrets({ response: { headers: [{ name: 'Set-Cookie', value: `sid=${mixed}; Path=/` }] } }, redactor, [], new Map(Array.from({ length: FULLY_REDACTED_SECRETS }, (_, i) => [cookie(1000 + i), `[c-${i}]`])));
    expect(redactor.text(`${mixed} ${mixed.toLowerCase()} ${mixed.toUpperCase()}`)).toBe('[capture-cookie-65] [capture-cookie-65] [capture-cookie-65]');
  });
});
