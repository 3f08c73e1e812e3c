/**
 * A HAR entry as the traffic judge reads it (src/traffic/capture.ts): placed in time, its
 * bodies as kept, rebuilt from `params`, left out or cut short by the writer (each said in
 * `missing`), inflated within a bound, and an attempt this tool sent again. Each beside its
 * near miss; the judge's tests read whole captures.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CUT } from '../../src/traffic/bounded-tokens.js';
import { bodyLengths, bodyText, capturedExchange, withText } from '../../src/traffic/capture.js';
import { entry } from '../support/har.js';

describe('a captured entry', () => {
  const captured = (changes: Record<string, unknown>) => capturedExchange({ ...entry({ status: 200, responseBody: '[]' }), ...changes } as never, 1, () => 'valid');
  test('one whose start is no date cannot be placed: none; a date can', () => {
    expect(captured({ startedDateTime: 'yesterday' })).toBeUndefined();
    expect(captured({ startedDateTime: '2026-11-27T00:00:00.000Z' })?.startMs).toBe(Date.parse('2026-11-27T00:00:00.000Z'));
  });

  test.each([
    ['no method', { method: undefined }],
    ['an empty method', { method: '' }],
    ['no URL', { url: undefined }],
    ['an empty URL', { url: '' }],
  ])('one whose request has %s cannot be placed: none (the reader sets it aside first; the proxy never makes one)', (_what, change) => {
    const base = entry({ status: 200, responseBody: '[]' });
    expect(captured({ request: { ...(base.request as object), ...change } })).toBeUndefined();
    // Near miss: the request whole.
    expect(captured({ request: base.request })?.request.url).toBe((base.request as { url: string }).url);
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

  test('a header field a recorder wrote without a value is read as empty and noted (axios-har-tracker’s Content-Type of a GET)', () => {
    const base = entry({ status: 200, responseBody: '[]' }) as { request: { headers: Array<{ name: string; value?: string }> } };
    const exchange = captured({ request: { ...base.request, headers: [...base.request.headers, { name: 'Content-Type' }] } })!;
    expect(exchange.request.headers['content-type']).toBe('');
    expect(exchange.repaired).toEqual(['a header field without a value, read as empty']);
    expect(captured({})!.repaired).toEqual([]);
  });

  /** A JSON null as axios-har-tracker 0.8 writes it: text "" and size 0, beside the answer's Content-Length. */
  const axiosNull = (contentLength: string, headers: Array<{ name: string; value: string }> = []) =>
    captured({ response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }, { name: 'content-length', value: contentLength }, ...headers], content: { size: 0, mimeType: 'application/json', text: '' } } })!;
  test.each([
    ['Content-Length 4 (a JSON null)', '4', [], ['response body (cut short: 0 of 4 bytes kept)']],
    ['near miss: Content-Length 0 (an empty body)', '0', [], []],
    ['near miss: Content-Length 4 of gzip (the length of other bytes)', '4', [{ name: 'content-encoding', value: 'gzip' }], []],
  ])('a response text shorter than its %s: a body the recorder lost, never judged as empty', (_what, length, headers, missing) => {
    expect(axiosNull(length, headers).missing).toEqual(missing);
  });

  test('near miss: JSON text shorter than its Content-Length (a recorder that wrote it again, escapes decoded) is the body', () => {
    const exchange = captured({ response: { status: 200, headers: [{ name: 'content-length', value: '20' }], content: { size: 0, mimeType: 'application/json', text: '["é"]' } } })!;
    expect(exchange.missing).toEqual([]);
    expect(exchange.response!.body).toBe('["é"]');
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
  /** Rebuilt with the body's Content-Length, in bytes (none: no length at all). */
  const rebuilt = (mimeType: string, params: Array<{ name: unknown; value?: unknown }>, length?: number) => {
    const missing: string[] = [];
    const postData = withText({ mimeType, params: params as never }, length === undefined ? {} : { bytes: length }, 'request body', missing);
    return { text: postData?.text, missing };
  };
  test.each([
    ['a form', 'application/x-www-form-urlencoded', [{ name: 'name', value: 'Dogs & Cats' }, { name: 'tag', value: '' }], 'name=Dogs+%26+Cats&tag='],
    ['a form, its value absent', 'application/x-www-form-urlencoded', [{ name: 'name' }], 'name='],
    ['JSON members, every value a string', 'application/json', [{ name: 'name', value: 'Dogs' }, { name: 'description', value: 'Canines' }], '{"name":"Dogs","description":"Canines"}'],
    ['JSON members, the type in capitals with parameters', ' Application/JSON ; charset=utf-8', [{ name: 'name', value: 'Dogs' }], '{"name":"Dogs"}'],
    ['a name chrome-har keeps with quotes, & and < (32 bytes)', 'application/json', [{ name: 'name', value: `O'Hara & <Sons> "x"` }], `{"name":"O'Hara & <Sons> \\"x\\""}`],
    ['a name with a line break and spaces at the ends', 'application/json', [{ name: 'name', value: '  line\nbreak  ' }], '{"name":"  line\\nbreak  "}'],
  ])('%s: the text', (_what, mimeType, params, text) => {
    expect(rebuilt(mimeType, params, Buffer.byteLength(text))).toEqual({ text, missing: [] });
  });

  test.each([
    ['a byte more than the text', 1, 'request body (given as params only, and their text, 15 bytes, is not the body\'s 16)'],
    ['a byte less', -1, 'request body (given as params only, and their text, 15 bytes, is not the body\'s 14)'],
  ])('JSON members whose text is not the body’s length (%s): missing, said why, never guessed', (_what, off, reason) => {
    expect(rebuilt('application/json', [{ name: 'name', value: 'Dogs' }], 15 + off)).toEqual({ text: undefined, missing: [reason] });
  });

  test('chrome-har counts its bodySize in UTF-16 units: a body with an emoji matches either count, never a third', () => {
    const params = [{ name: 'name', value: 'Chats 🐈' }];
    const text = '{"name":"Chats 🐈"}';
    const withLengths = (length: { bytes?: number; units?: number }) => withText({ mimeType: 'application/json', params }, length, 'request body', [])?.text;
    expect(bodyLengths({}, text.length)).toEqual({ bytes: text.length, units: text.length });
    expect(withLengths(bodyLengths({}, text.length))).toBe(text);
    expect(withLengths(bodyLengths({}, Buffer.byteLength(text)))).toBe(text);
    expect(withLengths(bodyLengths({}, text.length + 1))).toBeUndefined();
    // A Content-Length is bytes, and wins over bodySize.
    expect(bodyLengths({ 'content-length': '21' }, 19)).toEqual({ bytes: 21 });
    expect(bodyLengths({ 'content-length': '21', 'content-encoding': 'gzip' }, -1)).toEqual({});
    // A bodySize of 1 is a length (a body of one byte: `1`); 0 and -1 (unknown) are none.
    expect([bodyLengths({}, 1), bodyLengths({}, 0), bodyLengths({}, -1)]).toEqual([{ bytes: 1, units: 1 }, {}, {}]);
  });

  test('JSON members with no length to check them against: missing', () => {
    expect(rebuilt('application/json', [{ name: 'name', value: 'Dogs' }])).toEqual({ text: undefined, missing: ['request body (given as params only, and no length to check their text against)'] });
  });

  test('a member that was a number is written as a string, so its text is not the body’s: missing, not rebuilt as a string', () => {
    // The body was {"name":7} (10 bytes); as strings the members write {"name":"7"} (12).
    expect(rebuilt('application/json', [{ name: 'name', value: 7 }], 10).text).toBeUndefined();
  });

  test.each([
    ['the indexes of an array', [{ name: '0', value: 'a' }, { name: '1', value: 'b' }]],
    ['a name twice', [{ name: 'name', value: 'a' }, { name: 'name', value: 'b' }]],
  ])('JSON members that do not say what the body was (%s): missing, said why', (_what, params) => {
    expect(rebuilt('application/json', params)).toEqual({ text: undefined, missing: ['request body (given as params only, which do not say what the body was)'] });
  });

  test('near miss: names that are indexes only in part say what the body was', () => {
    expect(rebuilt('application/json', [{ name: '0', value: 'a' }, { name: 'x', value: 'b' }], 17).text).toBe('{"0":"a","x":"b"}');
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
