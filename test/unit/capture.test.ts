/**
 * A HAR entry as the traffic judge reads it (src/traffic/capture.ts): placed in time, its
 * bodies as kept, rebuilt from `params`, left out or cut short by the writer (each said in
 * `missing`), inflated within a bound, and an attempt this tool sent again. Each beside its
 * near miss; the judge's tests read whole captures.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CUT } from '../../src/traffic/bounded-tokens.js';
import { bodyText, capturedExchange, withText } from '../../src/traffic/capture.js';
import { entry } from '../support/har.js';

describe('a captured entry', () => {
  const captured = (changes: Record<string, unknown>) => capturedExchange({ ...entry({ status: 200, responseBody: '[]' }), ...changes } as never, 1, () => 'valid');
  test('one whose start is no date cannot be placed: none; a date can', () => {
    expect(captured({ startedDateTime: 'yesterday' })).toBeUndefined();
    expect(captured({ startedDateTime: '2026-11-27T00:00:00.000Z' })?.startMs).toBe(Date.parse('2026-11-27T00:00:00.000Z'));
  });

  test.each([[-1, 0], [0, 0], [5, 5]])('a total time of %i ms lasts %i ms', (time, duration) => {
    expect(captured({ time })?.durationMs).toBe(duration);
  });

  test.each([[15, 15], [1, 1], [0, undefined], [-1, undefined]])('a request body not kept, of bodySize %i, counts %s bytes', (bodySize, bytes) => {
    const base = entry({ status: 201, requestBody: '{"name":"Dogs"}', responseBody: '{}' }) as { request: Record<string, unknown> };
    const request = captured({ request: { ...base.request, postData: undefined, bodySize } })?.request;
    expect(request?.bodyBytes).toBe(bytes);
    expect(request?.body).toBeUndefined();
  });

  test.each([[10, 10], [-1, 0]])('a response body not kept, of size %i, counts %i bytes', (size, bytes) => {
    const base = entry({ status: 200, responseBody: '[]' }) as { response: Record<string, unknown> };
    expect(captured({ response: { ...base.response, content: { size, mimeType: 'application/json' } } })?.response?.bodyBytes).toBe(bytes);
  });

  test('no response: the comment says why, when there is one', () => {
    const unanswered = (comment?: string) => captured({ response: { status: 0, headers: [] }, ...(comment ? { comment } : {}) })?.error?.message;
    expect(unanswered('net::ERR_CONNECTION_RESET')).toBe('no response in the capture (net::ERR_CONNECTION_RESET)');
    expect(unanswered()).toBe('no response in the capture');
  });

  test('a compressed body inflates to 64 MiB at most: exactly that is read, a byte more is a missing body, not a crash', () => {
    const bomb = (bytes: number) => gzipSync(Buffer.alloc(bytes, 0x20));
    const missing: string[] = [];
    expect(bodyText(bomb(64 * 1024 * 1024), 'gzip', 'response body', missing)?.bytes).toBe(64 * 1024 * 1024);
    expect(bodyText(bomb(64 * 1024 * 1024 + 1), 'gzip', 'response body', missing)).toBeUndefined();
    expect(missing).toEqual(['response body (compressed with gzip, and it does not inflate)']);
  });
});

describe('a body rebuilt from params (chrome-har keeps a JSON or form body as its members)', () => {
  const rebuilt = (mimeType: string, params: Array<{ name: unknown; value?: unknown }>) => {
    const missing: string[] = [];
    const postData = withText({ mimeType, params: params as never }, 'request body', missing);
    return { text: postData?.text, missing };
  };
  test.each([
    ['a form', 'application/x-www-form-urlencoded', [{ name: 'name', value: 'Dogs & Cats' }, { name: 'tag', value: '' }], 'name=Dogs+%26+Cats&tag='],
    ['a form, its value absent', 'application/x-www-form-urlencoded', [{ name: 'name' }], 'name='],
    ['JSON members', 'application/json', [{ name: 'name', value: 'Dogs' }, { name: 'n', value: 2 }], '{"name":"Dogs","n":2}'],
    ['JSON members, the type in capitals with parameters', ' Application/JSON ; charset=utf-8', [{ name: 'name', value: 'Dogs' }], '{"name":"Dogs"}'],
  ])('%s: the text', (_what, mimeType, params, text) => {
    expect(rebuilt(mimeType, params)).toEqual({ text, missing: [] });
  });

  test.each([
    ['the indexes of an array', [{ name: '0', value: 'a' }, { name: '1', value: 'b' }]],
    ['a name twice', [{ name: 'name', value: 'a' }, { name: 'name', value: 'b' }]],
  ])('JSON members that do not say what the body was (%s): missing, said why', (_what, params) => {
    expect(rebuilt('application/json', params)).toEqual({ text: undefined, missing: ['request body (given as params only, which do not say what the body was)'] });
  });

  test('near miss: names that are indexes only in part say what the body was', () => {
    expect(rebuilt('application/json', [{ name: '0', value: 'a' }, { name: 'x', value: 'b' }]).text).toBe('{"0":"a","x":"b"}');
  });

  test('a member the reader left out: missing, with its length; another type is missing as params only', () => {
    expect(rebuilt('application/json', [{ name: 'name', value: { [CUT]: 70 } }, { name: 'n', value: 1 }]).missing).toEqual(['request body (not kept: 70 characters, larger than --max-response-bytes)']);
    expect(rebuilt('application/json', [{ name: { [CUT]: 9 }, value: 1 }]).missing).toEqual(['request body (not kept: 9 characters, larger than --max-response-bytes)']);
    expect(rebuilt('text/plain', [{ name: 'a', value: 'b' }]).missing).toEqual(['request body (given as params only, which do not say what the body was)']);
  });
});

describe('a body the writer left out or cut', () => {
  const request = (postData: unknown, bodySize: number) => {
    const base = entry({ status: 201, requestBody: '{}', responseBody: '{}' }) as { request: Record<string, unknown> };
    return capturedExchange({ ...base, request: { ...base.request, postData, bodySize } } as never, 1, () => 'valid')!;
  };
  const response = (content: unknown) => {
    const base = entry({ status: 200, responseBody: '[]' }) as { response: Record<string, unknown> };
    return capturedExchange({ ...base, response: { ...base.response, content } } as never, 1, () => 'valid')!;
  };

  test.each([
    ['no postData, bodySize 0: no body', undefined, 0, []],
    ['no postData, bodySize -1: no body', undefined, -1, []],
    ['no postData, bodySize 10: not kept', undefined, 10, ['request body (not kept in the capture)']],
    ['postData without text, bodySize -1: not kept', { mimeType: 'application/json' }, -1, ['request body (not kept in the capture)']],
    ['postData without text, bodySize 0: empty', { mimeType: 'application/json' }, 0, []],
  ])('a request: %s', (_what, postData, bodySize, missing) => {
    expect(request(postData, bodySize).missing).toEqual(missing);
  });

  test.each([
    ['no text, size 0: empty', { size: 0 }, []],
    ['no text, size 5: not kept', { size: 5 }, ['response body (not kept in the capture)']],
    ['no text, size -1: not kept', { size: -1 }, ['response body (not kept in the capture)']],
    ['text that is no JSON, one byte short of its size: cut', { size: 4, text: 'abc' }, ['response body (cut short: 3 of 4 bytes kept)']],
    ['text that is no JSON, of exactly its size: kept', { size: 3, text: 'abc' }, []],
    ['JSON text short of its size (a writer that doubles it): kept', { size: 100, text: '[]' }, []],
  ])('a response: %s', (_what, content, missing) => {
    expect(response(content).missing).toEqual(missing);
  });

  test('a response whose body was not kept is valid UTF-8 as far as anyone knows', () => {
    expect(response({ size: 5 }).response).toMatchObject({ body: '', bodyBytes: 5, utf8Valid: true });
  });
});

describe('an attempt this tool sent again', () => {
  test.each([
    ['superseded: a 429 answered', 'a 429 answered'],
    ['retried; superseded: a reset', 'a reset'],
    ['not superseded: x', undefined],
  ])('comment %j: superseded %s', (comment, superseded) => {
    expect(capturedExchange({ ...entry({ status: 200, responseBody: '[]' }), comment } as never, 1, () => 'valid')?.superseded).toBe(superseded);
  });
});

describe('a body still compressed in the capture (base64 of the bytes sent)', () => {
  const json = '{"name":"Dogs"}';
  const read = (bytes: Buffer, coding: string | undefined) => {
    const missing: string[] = [];
    return { text: bodyText(bytes, coding, 'response body', missing)?.text, missing };
  };
  test.each([
    ['gzip', gzipSync(json)],
    ['x-gzip', gzipSync(json)],
    [' GZip ', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
  ])('%j: inflated', (coding, bytes) => {
    expect(read(bytes, coding)).toEqual({ text: json, missing: [] });
  });

  test.each([
    ['gzip, the bytes already inflated by the writer', 'gzip'],
    ['deflate, the bytes already inflated', 'deflate'],
    ['br, the bytes already JSON (brotli has no magic number)', 'br'],
    ['no coding', undefined],
    ['identity', 'identity'],
  ])('%s: as they are', (_what, coding) => {
    expect(read(Buffer.from(json), coding)).toEqual({ text: json, missing: [] });
    expect(read(Buffer.from('[1]'), coding).text).toBe('[1]');
  });

  test.each([
    ['gzip', Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('not gzip at all')])],
    ['deflate', Buffer.concat([Buffer.from([0x78]), Buffer.from('not deflate')])],
    ['br', Buffer.from('not brotli')],
  ])('%s that does not inflate: missing, said why', (coding, bytes) => {
    expect(read(bytes, coding)).toEqual({ text: undefined, missing: [`response body (compressed with ${coding}, and it does not inflate)`] });
  });

  test('bytes that are not UTF-8 are read as far as they go, and said to be invalid', () => {
    const missing: string[] = [];
    // 0x8b, gzip's second magic byte, alone says nothing.
    expect(bodyText(Buffer.from([0x7b, 0x8b, 0x7d]), undefined, 'response body', missing)).toMatchObject({ bytes: 3, utf8Valid: false });
    expect(missing).toEqual([]);
    expect(bodyText(Buffer.from('{é}'), undefined, 'response body', missing)).toMatchObject({ bytes: 4, utf8Valid: true });
  });
});
