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
    ['https://user@api.example.com/v1', /must not carry credentials/],
    ['https://:secret@api.example.com/v1', /must not carry credentials/],
    // A key with a `/` breaks the parse: the text, its key in it, is never echoed (issue 59).
    ['https://user:Se/cret-Key-123@api.example.com/v1', /^--base-url is not an absolute URL, and holds an @ as credentials do: it is not printed/],
    ['https//api.example.com/v1', /^--base-url "https\/\/api.example.com\/v1" is not an absolute URL/],
    ['https://api.example.com/v1?x=1', /query or fragment/],
  ])('%s is refused', (input, message) => {
    expect(() => normalizeBaseUrl(input)).toThrow(UsageError);
    expect(() => normalizeBaseUrl(input)).toThrow(message);
  });

  test('a refused URL with credentials does not repeat them, whether it parses or not', () => {
    expect(() => normalizeBaseUrl('https://user:secret@api.example.com/v1')).toThrow(/^(?!.*secret)/);
    expect(() => normalizeBaseUrl('https://user:Se/cret-Key-123@api.example.com/v1')).toThrow(/^(?!.*cret)/);
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

describe('files the user names are read within bounds', async () => {
  const { readInput, MAX_INPUT_BYTES } = await import('../../src/config/read-input.js');
  const { readYamlFile } = await import('../../src/config/file.js');
  const { execFileSync } = await import('node:child_process');
  const { mkdtemp, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'pcs-input-'));
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);

  test.each([
    ['/dev/zero', 'a device'],
    ['/dev/urandom', 'a device'],
    [fifo, 'a FIFO'],
    [dir, 'a folder'],
  ])('%s is refused at once, named: %s', async (path, kind) => {
    await expect(readInput(path, 'the API key file')).rejects.toThrow(`the API key file ${path} is not a regular file (${kind}): name a file`);
    await expect(readYamlFile(path, 'Config', 'configuration file')).rejects.toThrow(/is not a regular file/);
  });

  test('a socket is named a socket (open says ENXIO, as for a FIFO without a reader); near miss: such a FIFO, opened to write, is named a FIFO', async () => {
    const { createServer } = await import('node:net');
    const { openRegularFile } = await import('../../src/config/read-input.js');
    const { constants } = await import('node:fs');
    const socket = join(dir, 'socket');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      await expect(readInput(socket, 'the API key file')).rejects.toThrow(`the API key file ${socket} is not a regular file (a socket): name a file`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    await expect(openRegularFile(fifo, 'the HAR file', constants.O_WRONLY)).rejects.toThrow(`the HAR file ${fifo} is not a regular file (a FIFO): name a file`);
  });

  test('the cap counts bytes read: 1 MiB is read, one byte more is refused', async () => {
    const exact = join(dir, 'exact');
    await writeFile(exact, 'k'.repeat(MAX_INPUT_BYTES));
    expect((await readInput(exact, 'the API key file')).length).toBe(MAX_INPUT_BYTES);
    const over = join(dir, 'over');
    await writeFile(over, 'k'.repeat(MAX_INPUT_BYTES + 1));
    await expect(readInput(over, 'the API key file')).rejects.toThrow(`the API key file ${over} is over ${MAX_INPUT_BYTES} bytes`);
  });
});

describe('--checks patterns are matched in linear time (RE2)', async () => {
  const { checkIdMatches, compileCheckPattern } = await import('../../src/config/check-pattern.js');
  test('a pattern that makes a backtracking engine run for minutes is matched over every id at once', () => {
    // Counted, not timed: RE2 walks each id once; a backtracking engine tries 2^n splits of it.
    const ids = Array.from({ length: 50 }, (_, i) => `create-401-unknown-key-${'a'.repeat(i)}`);
    expect(ids.filter((id) => checkIdMatches('^([a-z0-9-]+)*!$', id))).toEqual([]);
    expect(checkIdMatches('^list-', 'list-answers-200-array')).toBe(true);
    expect(checkIdMatches('answers', 'list-answers-200-array')).toBe(true);
    expect(checkIdMatches('^answers', 'list-answers-200-array')).toBe(false);
  });

  test('lookaround and backreferences are refused before the run, saying why', () => {
    expect(compileCheckPattern('^(?!pets-)')).toMatch(/RE2 syntax: no lookaround or backreferences/);
    expect(compileCheckPattern('(a)\\1')).toMatch(/RE2 syntax/);
  });
});

describe('errors are matched on their codes', async () => {
  const { CheckFailure, RunStopped, UsageError, hasCode } = await import('../../src/core/errors.js');
  test('the code decides, not the class: a copy of the error from another module instance is recognised', () => {
    expect(hasCode(new UsageError('bad flag'), 'PCS_USAGE')).toBe(true);
    expect(hasCode(Object.assign(new Error('from another copy'), { code: 'PCS_RUN_STOPPED' }), 'PCS_RUN_STOPPED')).toBe(true);
    expect(hasCode(new RunStopped('stopped'), 'PCS_USAGE')).toBe(false);
    expect(hasCode({ code: 'PCS_USAGE' }, 'PCS_USAGE')).toBe(false);
    expect(new Set([new UsageError('a'), new RunStopped('b'), new CheckFailure('c', {} as never)].map((error) => error.code)).size).toBe(3);
  });
});

describe('assertSecureTransport: the key never crosses the network in plain http unless told', async () => {
  const { assertSecureTransport } = await import('../../src/config/base-url.js');
  test('plain http to another host is refused, naming it and the way out', () => {
    expect(() => assertSecureTransport('http://api.example.com/v1', false)).toThrow(UsageError);
    expect(() => assertSecureTransport('http://api.example.com/v1', false)).toThrow('plain http to api.example.com would send the API key unencrypted; use https, or pass --allow-insecure-http');
  });
  test.each([
    ['https to another host', 'https://api.example.com/v1', false],
    ['plain http with --allow-insecure-http', 'http://api.example.com/v1', true],
    ['plain http to this machine', 'http://127.0.0.1:8080/v1', false],
    ['plain http to localhost', 'http://localhost:8080/v1', false],
  ])('near miss: %s is let through', (_what, url, allowed) => expect(() => assertSecureTransport(url, allowed)).not.toThrow());
});
