import { describe, expect, test } from 'vitest';
import { normalizeBaseUrl } from '../../src/config/base-url.js';
import { UsageError } from '../../src/core/errors.js';
import { isJsonMediaType } from '../../src/http/media-type.js';

describe('normalizeBaseUrl', () => {
  test.each([
    ['https://api.example.com/v1', 'https://api.example.com/v1'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1'],
    ['http://127.0.0.1:8080/petstore/v1', 'http://127.0.0.1:8080/petstore/v1'],
    ['HTTPS://API.EXAMPLE.COM/v1', 'https://api.example.com/v1'],
  ])('%s is accepted as %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  test.each([
    ['https://api.example.com', /end with the version segment \/v1.*did you mean https:\/\/api\.example\.com\/v1\?/],
    ['https://api.example.com/v1/categories', /did you mean https:\/\/api\.example\.com\/v1\?/],
    ['https://api.example.com/v2', /did you mean https:\/\/api\.example\.com\/v2\/v1\?/],
    ['api.example.com/v1', /not an absolute URL/],
    ['ftp://api.example.com/v1', /http or https/],
    ['https://user:secret@api.example.com/v1', /must not carry credentials/],
    ['https://api.example.com/v1?x=1', /query or fragment/],
  ])('%s is refused', (input, message) => {
    expect(() => normalizeBaseUrl(input)).toThrow(UsageError);
    expect(() => normalizeBaseUrl(input)).toThrow(message);
  });

  test('a refused URL with credentials does not repeat them', () => {
    expect(() => normalizeBaseUrl('https://user:secret@api.example.com/v1')).toThrow(/^(?!.*secret)/);
  });
});

describe('isJsonMediaType', () => {
  test.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON', ' application/json ;charset=UTF-8'])(
    '%j is JSON',
    (value) => expect(isJsonMediaType(value)).toBe(true),
  );
  test.each([undefined, '', 'text/plain', 'text/html; charset=utf-8', 'application/problem+json', 'application/jsonx'])(
    '%j is not JSON',
    (value) => expect(isJsonMediaType(value)).toBe(false),
  );
});

describe('extra headers are bounded', async () => {
  const { extraHeaders, MAX_HEADER_VALUE_BYTES, MAX_EXTRA_HEADER_BYTES } = await import('../../src/config/extra-headers.js');
  test('a value of 8 KiB is sent; one byte more is a usage error naming the header', () => {
    expect(extraHeaders([`X-A: ${'a'.repeat(MAX_HEADER_VALUE_BYTES)}`], [], {})).toHaveLength(1);
    expect(() => extraHeaders([`X-A: ${'a'.repeat(MAX_HEADER_VALUE_BYTES + 1)}`], [], {})).toThrow(/^--header X-A: the value is 8193 bytes; at most 8192 are sent/);
  });

  test('the headers in all are bounded too, and a value from the environment is never quoted', () => {
    const half = 'b'.repeat(MAX_EXTRA_HEADER_BYTES / 2);
    expect(() => extraHeaders([`X-A: ${half}`], ['X-B=SECRET'], { SECRET: half })).toThrow(/^--header-env X-B: the extra headers come to \d+ bytes; at most 12288 are sent in all$/);
  });
});
