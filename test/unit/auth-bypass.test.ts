/**
 * The grammar of bypasses (src/arbitraries/auth-bypass.ts) and the method overrides it
 * sends (src/http/method-override.ts): what each change puts on the wire, how it is named,
 * what every run covers whatever the seed, and what a read-only run may send.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CLIENT_ADDRESS_HEADERS, PATH_OVERRIDE_HEADERS, bypass, bypassCoverage, bypassRequest, bypassWords, capturedBypassWords, overridesPathTo, type Bypass, type Operation } from '../../src/arbitraries/auth-bypass.js';
import { NO_CREDENTIAL } from '../../src/http/credential.js';
import { METHOD_OVERRIDE_HEADERS, overriddenMethod, placedOverride } from '../../src/http/method-override.js';
import { isIdempotent } from '../../src/http/request.js';
import { mayWrite } from '../../src/http/safety.js';
import { javaHashCode } from '../../src/arbitraries/invalid-credential.js';
import { PATH_SPELLINGS } from '../../src/http/path-spellings.js';

const KEY = 'Key_0123456789abcdefGHIJ';
const list: Operation = { operation: 'list' };
const create: Operation = { operation: 'create', body: { json: { name: 'n' } } };
const missing = { ...NO_CREDENTIAL };

describe('bypassRequest: what each change puts on the wire', () => {
  test.each<[string, Bypass, Partial<ReturnType<typeof bypassRequest>>, Record<string, string>, string | undefined]>([
    ['no change: the list without a key, the interface’s own request', { credential: missing, operation: list }, { method: 'GET', path: '/categories', fromOrigin: false, defined: true }, {}, undefined],
    ['HEAD: outside the interface', { credential: missing, operation: list, method: { verb: 'HEAD' } }, { method: 'HEAD', defined: false, onListPath: true }, {}, undefined],
    ['HEAD on a create: no body', { credential: missing, operation: create, method: { verb: 'HEAD' } }, { method: 'HEAD', defined: false }, {}, undefined],
    ['OPTIONS overridden to GET by a header', { credential: missing, operation: list, method: { verb: 'OPTIONS', override: { via: 'X-HTTP-Method', to: 'GET' } } }, { method: 'OPTIONS', defined: false }, { 'x-http-method': 'GET' }, undefined],
    ['a GET overridden to POST by the parameter: still the interface’s request', { credential: missing, operation: list, method: { override: { via: '_method', to: 'POST' } } }, { method: 'GET', defined: true }, {}, '_method=POST'],
    ['a POST overridden to GET keeps its body', { credential: missing, operation: create, method: { override: { via: 'X-HTTP-Method-Override', to: 'GET' } } }, { method: 'POST', body: { json: { name: 'n' } }, defined: true }, { 'x-http-method-override': 'GET' }, undefined],
    ['a client-address header', { credential: missing, operation: list, context: { kind: 'address', header: 'X-Real-IP', address: '10.0.0.1' } }, { method: 'GET', defined: true }, { 'x-real-ip': '10.0.0.1' }, undefined],
    ['Forwarded takes for=, an IPv6 address quoted (RFC 7239)', { credential: missing, operation: list, context: { kind: 'address', header: 'Forwarded', address: '::1' } }, { defined: true }, { forwarded: 'for="[::1]"' }, undefined],
    ['a path override: the root, naming the list', { credential: missing, operation: list, context: { kind: 'path-override', header: 'X-Original-URL' } }, { path: '/', fromOrigin: true, defined: false, onListPath: false }, { 'x-original-url': '/api/v1/categories' }, undefined],
    ['a claiming parameter', { credential: missing, operation: list, context: { kind: 'claim', name: 'authenticated', value: 'yes' } }, { defined: true }, {}, 'authenticated=yes'],
    ['a spelling: from the origin, outside the interface', { credential: missing, operation: list, context: { kind: 'spelling', spelling: PATH_SPELLINGS[0]! } }, { path: '/api/v1/categories/', fromOrigin: true, defined: false }, {}, undefined],
    ['an override and a claim share the query', { credential: missing, operation: list, method: { verb: 'OPTIONS', override: { via: '_method', to: 'GET' } }, context: { kind: 'claim', name: 'admin', value: '1' } }, { method: 'OPTIONS', defined: false }, {}, '_method=GET&admin=1'],
  ])('%s', (_what, b, request, headers, query) => {
    const sent = bypassRequest(b, '/api/v1');
    expect(sent).toMatchObject(request);
    const placed = sent.credential.placed!;
    expect(Object.fromEntries(Object.entries(placed.headers).map(([name, { sent: value }]) => [name, value]))).toEqual(headers);
    expect(placed.query?.sent).toBe(query);
    if (sent.method !== 'POST') expect(sent.body).toBeUndefined();
    // What is sent is what is shown: nothing here is secret.
    for (const { sent: value, shown } of Object.values(placed.headers)) expect(shown).toBe(value);
  });
});

describe('bypassWords: the changes named, smallest first', () => {
  test.each<[string, Bypass, string]>([
    ['HEAD alone', { credential: missing, operation: list, method: { verb: 'HEAD' } }, '`HEAD` without a key'],
    ['OPTIONS and an override', { credential: missing, operation: list, method: { verb: 'OPTIONS', override: { via: 'X-HTTP-Method-Override', to: 'GET' } } }, '`OPTIONS` + `X-HTTP-Method-Override: GET` without a key'],
    ['a forwarding header', { credential: missing, operation: list, context: { kind: 'address', header: 'X-Forwarded-For', address: '127.0.0.1' } }, '`X-Forwarded-For: 127.0.0.1` without a key'],
    ['the credential alone: its own words', { credential: missing, operation: list }, 'no Authorization header (no header)'],
    ['the parameter', { credential: missing, operation: list, method: { override: { via: '_method', to: 'POST' } } }, '`?_method=POST` without a key'],
    ['a path override', { credential: missing, operation: list, context: { kind: 'path-override', header: 'X-Rewrite-URL' } }, '`X-Rewrite-URL` naming the list\'s path on `/` without a key'],
  ])('%s', (_what, b, words) => expect(bypassWords(b)).toBe(words));

  test('a credential with a change: the change, then the credential in its words', () => {
    const [credential] = fc.sample(bypass(KEY, fc.constant(list), false).filter((b) => b.credential.name === 'key-second-word'), { seed: 1, numRuns: 1 }).map((b) => b.credential);
    expect(bypassWords({ credential: credential!, operation: list, method: { verb: 'HEAD' } })).toMatch(/^`HEAD` with the valid key followed by a second word after (a space|a tab) \(Bearer KEY(x| x|<tab>x)\)$/);
  });
});

describe('bypassCoverage: every change alone, in every run, whatever the seed', () => {
  const full = bypassCoverage(KEY, false, create, { operation: 'create', body: { json: { name: 'x'.repeat(10) } } });
  const readOnly = bypassCoverage(KEY, true, list);
  const changes = (b: Bypass) => 1 + (b.method?.verb ? 1 : 0) + (b.method?.override ? 1 : 0) + (b.context ? 1 : 0);

  test('each class of change is there: every client-address header, every path override, HEAD, OPTIONS with each override, each new credential kind', () => {
    const values = full.map(({ value }) => value);
    for (const header of CLIENT_ADDRESS_HEADERS) expect(values.some((b) => b.context?.kind === 'address' && b.context.header === header), header).toBe(true);
    for (const header of PATH_OVERRIDE_HEADERS) expect(values.some((b) => b.context?.kind === 'path-override' && b.context.header === header), header).toBe(true);
    for (const via of [...METHOD_OVERRIDE_HEADERS, '_method']) expect(values.some((b) => b.method?.verb === 'OPTIONS' && b.method.override?.via === via), via).toBe(true);
    expect(values.some((b) => b.method?.verb === 'HEAD' && !b.method.override && !b.context)).toBe(true);
    for (const kind of ['key-percent-encoded', 'key-second-word', 'key-and-another', 'key-non-ascii', 'key-hash-collision', 'sql-injection']) expect(values.some((b) => b.credential.name === kind), kind).toBe(true);
    // A loopback and a private address both.
    expect(new Set(values.flatMap((b) => (b.context?.kind === 'address' ? [b.context.address] : [])))).toEqual(new Set(['127.0.0.1', '10.0.0.1']));
  });

  test('ordered by how many changes each makes: the first that fails is a smallest', () => {
    const counts = full.map(({ value }) => changes(value));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts[0]).toBe(1);
  });

  test('a large body without a key, named by its size, in the full profile alone', () => {
    expect(full.filter(({ label }) => label.startsWith('createCategory with a valid body of 21 bytes, no Authorization header'))).toHaveLength(1);
    expect(readOnly.some(({ label }) => label.includes('a valid body of'))).toBe(false);
  });

  test('read-only: lists alone, GET, HEAD and OPTIONS, no override naming another method; the full profile adds writes both ways', () => {
    for (const { value } of readOnly) {
      const request = bypassRequest(value, '/v1');
      expect(['GET', 'HEAD', 'OPTIONS'], bypassWords(value)).toContain(request.method);
      expect(mayWrite(request), bypassWords(value)).toBe(false);
      expect(value.operation.operation).toBe('list');
    }
    expect(full.some(({ value }) => value.operation.operation === 'list' && value.method?.override?.to === 'POST')).toBe(true);
    expect(full.some(({ value }) => value.operation.operation === 'create' && value.method?.override?.to === 'GET')).toBe(true);
    expect(full.length - readOnly.length).toBeGreaterThan(10);
  });

  test('labels are unique: each input is named apart', () => {
    expect(new Set(full.map(({ label }) => label)).size).toBe(full.length);
  });
});

describe('generated bypasses', () => {
  test('a read-only run never draws a request that could write, whatever the seed', () => {
    fc.assert(fc.property(bypass(KEY, fc.constant(list), true), (b) => !mayWrite(bypassRequest(b, '/v1'))), { seed: 57, numRuns: 500 });
  });

  test('the full profile draws each kind of change', () => {
    const drawn = fc.sample(bypass(KEY, fc.constant(list), false), { seed: 57, numRuns: 400 });
    expect(new Set(drawn.flatMap((b) => (b.context ? [b.context.kind] : [])))).toEqual(new Set(['address', 'path-override', 'claim', 'spelling']));
    expect(drawn.some((b) => b.method?.verb === 'HEAD') && drawn.some((b) => b.method?.verb === 'OPTIONS') && drawn.some((b) => b.method?.override?.to === 'POST')).toBe(true);
    expect(drawn.some((b) => !b.method && !b.context)).toBe(true);
  });
});

describe('the hash collision is computed from the key', () => {
  test('every drawn token has the key’s Java hashCode and is not the key', () => {
    const tokens = fc.sample(bypass(KEY, fc.constant(list), false).filter((b) => b.credential.name === 'key-hash-collision'), { seed: 3, numRuns: 20 }).map((b) => b.credential.header!.slice('Bearer '.length));
    expect(tokens.length).toBe(20);
    for (const token of tokens) {
      expect(token).not.toBe(KEY);
      expect(javaHashCode(token)).toBe(javaHashCode(KEY));
      expect(token).toMatch(/^[!-~]+$/);
    }
  });

  test('near miss: a token one character off has another hash', () => {
    expect(javaHashCode(`${KEY.slice(0, -1)}X`)).not.toBe(javaHashCode(KEY));
  });
});

describe('method overrides', () => {
  test.each<[string, Record<string, string>, string | undefined, string | undefined]>([
    ['a header, in any case of value', { 'x-http-method-override': 'post' }, undefined, 'POST'],
    ['the second header', { 'x-http-method': 'PUT' }, undefined, 'PUT'],
    ['the parameter', {}, 'a=1&_method=delete', 'DELETE'],
    ['near miss: an empty header names nothing', { 'x-method-override': '  ' }, undefined, undefined],
    ['near miss: another parameter', {}, 'method=POST', undefined],
    ['none', {}, undefined, undefined],
  ])('%s', (_what, headers, query, method) => expect(overriddenMethod(headers, query)).toBe(method));

  test('a request overridden to a write may write, and is not sent again unasked; one overridden to GET is neither', () => {
    const spec = (name: string, value: string) => ({ method: 'GET', credential: { placed: { headers: { [name]: { sent: value, shown: value } } } } });
    expect(placedOverride(spec('x-http-method-override', 'POST').credential.placed)).toBe('POST');
    expect(mayWrite(spec('x-http-method-override', 'POST'))).toBe(true);
    expect(isIdempotent(spec('x-http-method-override', 'POST'))).toBe(false);
    expect(mayWrite(spec('x-http-method-override', 'GET'))).toBe(false);
    expect(isIdempotent(spec('x-http-method-override', 'HEAD'))).toBe(true);
    expect(mayWrite({ method: 'OPTIONS' })).toBe(false);
    expect(mayWrite({ method: 'PATCH' })).toBe(true);
  });
});

describe('captured requests named as the active run names its own', () => {
  test.each<[string, { method: string; url: string; headers: Record<string, string> }, string, string]>([
    ['HEAD without a key', { method: 'HEAD', url: 'https://h/v1/categories', headers: {} }, 'missing', '`HEAD` without a key'],
    ['an override and a forwarding header', { method: 'OPTIONS', url: 'https://h/v1/categories', headers: { 'x-http-method-override': 'GET', 'x-real-ip': '10.0.0.1' } }, 'missing', '`OPTIONS` + `X-HTTP-Method-Override: GET` + `X-Real-IP: 10.0.0.1` without a key'],
    ['parameters', { method: 'GET', url: 'https://h/v1/categories?_method=POST&admin=1', headers: {} }, 'missing', '`?_method=POST` + `?admin=1` without a key'],
    ['another credential', { method: 'GET', url: 'https://h/v1/categories', headers: { 'true-client-ip': '127.0.0.1' } }, 'key-char-added', '`True-Client-IP: 127.0.0.1` with the credential the capture names key-char-added'],
    ['no change: the credential alone', { method: 'POST', url: 'https://h/v1/categories', headers: {} }, 'missing', 'the credential the capture names missing'],
    ['a URL that does not parse names no parameter', { method: 'GET', url: '::', headers: { 'x-forwarded-for': '127.0.0.1' } }, 'missing', '`X-Forwarded-For: 127.0.0.1` without a key'],
  ])('%s', (_what, request, credential, words) => expect(capturedBypassWords(request, credential)).toBe(words));

  test.each<[string, Record<string, string>, boolean]>([
    ['X-Original-URL naming the path', { 'x-original-url': '/v1/categories' }, true],
    ['X-Rewrite-URL naming it with a query', { 'x-rewrite-url': '/v1/categories?x=1' }, true],
    ['near miss: another path', { 'x-original-url': '/v1/categories/1' }, false],
    ['near miss: another header', { 'x-forwarded-uri': '/v1/categories' }, false],
  ])('overridesPathTo: %s', (_what, headers, overrides) => expect(overridesPathTo(headers, '/v1/categories')).toBe(overrides));
});
