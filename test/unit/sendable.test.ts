/**
 * What the tool refuses before any request (src/config/api-key.ts,
 * src/config/client-certificate.ts): a key that cannot be sent in a header field, and a
 * client certificate without its key or with another's. Each edge with a near miss.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { assertSendableKey } from '../../src/config/api-key.js';
import { assertClientCertificate } from '../../src/config/client-certificate.js';

const refusal = (run: () => void): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('a key is sendable when every character is visible ASCII or a space (RFC 9110 §5.5)', () => {
  test.each([
    ['U+001F, the last C0 control', 'ab\u001fc', 'a control character (U+001F) at position 3'],
    ['near miss: U+0020, a space', 'ab c', undefined],
    ['U+007E, the last visible ASCII', 'ab~', undefined],
    ['near miss: U+007F, DEL', 'ab\u007f', 'a control character (U+007F) at position 3'],
    ['U+0080, the first outside ASCII', '\u0080', 'a character outside ASCII (U+0080) at position 1'],
    ['an emoji: named by its code point, not its first UTF-16 unit', 'ab😀', 'a character outside ASCII (U+1F600) at position 3'],
  ])('%s', (_d, key, problem) => {
    const message = refusal(() => assertSendableKey(key, 'PETSTORE_API_KEY'));
    expect(message === undefined ? undefined : message.replace(/^.*holds a character that cannot be sent in an HTTP header: (.*); check how it was stored$/, '$1')).toBe(problem);
    if (message) expect(message).toMatch(/^the API key \(from PETSTORE_API_KEY\)/);
  });
});

describe('a key with a space at either end is refused: a field value has none, the server would see another key (issue 59)', () => {
  test.each([
    ['a leading space', ' abc', 'begins'],
    ['a trailing space', 'abc ', 'ends'],
    ['spaces at both ends: the first named', ' abc ', 'begins'],
    ['near miss: a space inside', 'ab c', undefined],
    ['near miss: none', 'abc', undefined],
  ])('%s', (_d, key, end) => {
    const message = refusal(() => assertSendableKey(key, 'the environment variable PETSTORE_API_KEY'));
    expect(message).toBe(end === undefined ? undefined : `the API key (from the environment variable PETSTORE_API_KEY) ${end} with a space, which an HTTP header field cannot carry (RFC 9110 §5.5): the server would see another value; remove it`);
  });
});

describe('a client certificate goes with its own key', () => {
  const cert = readFileSync('test/fixtures/tls/client-cert.pem', 'utf8');
  const key = readFileSync('test/fixtures/tls/client-key.pem', 'utf8');
  const otherKey = readFileSync('test/fixtures/tls/key.pem', 'utf8');
  test.each([
    ['neither: nothing to check', undefined, undefined, undefined],
    ['both, a pair', cert, key, undefined],
    ['near miss: the certificate alone', cert, undefined, '--client-cert and --client-key go together: give both, or neither'],
    ['near miss: the key alone', undefined, key, '--client-cert and --client-key go together: give both, or neither'],
    ['near miss: another certificate\'s key', cert, otherKey, '--client-cert/--client-key: the key does not belong to the certificate'],
  ])('%s', (_d, certPem, keyPem, problem) => expect(refusal(() => assertClientCertificate(certPem, keyPem))).toBe(problem));

  test('a key that is no PEM is named as such, never quoted', () => {
    const message = refusal(() => assertClientCertificate(cert, 'secret-not-a-pem'))!;
    expect(message).toMatch(/^--client-cert\/--client-key: OpenSSL cannot use them/);
    expect(message).not.toContain('secret-not-a-pem');
  });
});
