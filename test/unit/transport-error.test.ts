/**
 * How a failure before any response is classified (src/http/transport-error.ts): each code
 * undici, Node or OpenSSL gives beside its neighbours.
 */
import { expect, test } from 'vitest';
import { toTransportError } from '../../src/http/transport-error.js';

const coded = (code: string, message = 'm') => Object.assign(new Error(message), { code });

test.each([
  ['an abort by the request deadline', Object.assign(new Error('aborted'), { name: 'TimeoutError' }), 'TIMEOUT'],
  ['no headers in time', coded('UND_ERR_HEADERS_TIMEOUT'), 'TIMEOUT'],
  ['no body in time', coded('UND_ERR_BODY_TIMEOUT'), 'TIMEOUT'],
  ['no connection in time', coded('UND_ERR_CONNECT_TIMEOUT'), 'CONNECT_TIMEOUT'],
  ['the code on the cause (fetch wraps it)', Object.assign(new Error('fetch failed'), { cause: coded('ECONNREFUSED') }), 'CONNECTION_REFUSED'],
  ['no such host', coded('ENOTFOUND'), 'HOST_NOT_FOUND'],
  ['the resolver not answering', coded('EAI_AGAIN'), 'HOST_NOT_FOUND'],
  ['a body past the cap', coded('UND_ERR_RES_EXCEEDED_MAX_SIZE'), 'RESPONSE_TOO_LARGE'],
  ...['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].map((code) => [`a reset: ${code}`, coded(code), 'CONNECTION_RESET'] as const),
  ['a parse error of llhttp', coded('HPE_INVALID_CONSTANT'), 'INVALID_HTTP'],
  ['an informational answer undici refuses', coded('UND_ERR_INFO'), 'INVALID_HTTP'],
  ['a status line that is not HTTP’s: undici’s HTTPParserError without a code', Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)'), { name: 'HTTPParserError' }), 'INVALID_HTTP'],
  ['near miss: another error without a code', Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), { name: 'Error' }), 'OTHER'],
  ['near miss: a code that merely holds HPE_', coded('X_HPE_'), 'OTHER'],
  ['a certificate', coded('DEPTH_ZERO_SELF_SIGNED_CERT'), 'TLS'],
  ['a TLS error of Node', coded('ERR_TLS_CERT_ALTNAME_INVALID'), 'TLS'],
  ['an OpenSSL error', coded('ERR_SSL_DECRYPTION_FAILED'), 'TLS'],
  ['anything else', coded('EWHATEVER'), 'OTHER'],
  ['not even an error', 'a string', 'OTHER'],
] as const)('%s: %s', (_d, error, code) => expect(toTransportError(error, 5000).code).toBe(code));

test('a timeout names the deadline; other classes keep what was thrown and its code', () => {
  expect(toTransportError(coded('UND_ERR_HEADERS_TIMEOUT'), 5000).message).toBe('no complete response within 5000 ms');
  expect(toTransportError(coded('UND_ERR_CONNECT_TIMEOUT'), 250).message).toBe('could not connect within 250 ms');
  expect(toTransportError(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'), 5000).message).toBe('connect ECONNREFUSED 127.0.0.1:9 [ECONNREFUSED]');
  expect(toTransportError(new Error('plain'), 5000).message).toBe('plain');
});

test('plain HTTP answering a TLS hello says so, whichever of its two codes', () => {
  for (const code of ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_HTTP_REQUEST']) expect(toTransportError(coded(code), 5000).message).toMatch(/^the server speaks plain HTTP on this port, not TLS/);
});

test.each([
  ['407: credentials for the proxy', 407, /CONNECT answered 407 .*it asks for credentials: give them in the proxy URL/],
  ['near miss: 403, a tunnel refused', 403, /CONNECT answered 403 .*check that it allows tunnels to the target host and port/],
])('a CONNECT tunnel refused, %s', (_d, status, message) => {
  const error = toTransportError(new Error(`Proxy response (${status}) !== 200 when HTTP Tunneling`), 5000);
  expect([error.code, error.message]).toEqual(['PROXY', expect.stringMatching(message)]);
});
