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
