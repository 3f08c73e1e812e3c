import type { TransportError } from '../core/exchange.js';

/**
 * Classifies whatever undici or the abort signal threw into a stable code and one line.
 * @param timeoutMs the per-request timeout, quoted in the TIMEOUT message.
 */
export function toTransportError(error: unknown, timeoutMs: number): TransportError {
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  const code = err?.code ?? (err?.cause as { code?: string } | undefined)?.code ?? '';
  const detail = `${err?.message ?? String(error)}${code ? ` [${code}]` : ''}`;
  if (err?.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { code: 'TIMEOUT', message: `no complete response within ${timeoutMs} ms` };
  }
  const tunnel = /^Proxy response \((\d+)\)/.exec(err?.message ?? '');
  if (tunnel) {
    const status = Number(tunnel[1]);
    const why = status === 407 ? 'it asks for credentials: give them in the proxy URL (http://user:password@host:port)' : 'check that it allows tunnels to the target host and port';
    return { code: 'PROXY', message: `the proxy refused the tunnel to the target: CONNECT answered ${status} (RFC 9110 §9.3.6); ${why}` };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { code: 'CONNECT_TIMEOUT', message: `could not connect within ${timeoutMs} ms` };
  if (code === 'ECONNREFUSED') return { code: 'CONNECTION_REFUSED', message: detail };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'HOST_NOT_FOUND', message: detail };
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return { code: 'RESPONSE_TOO_LARGE', message: detail };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return { code: 'CONNECTION_RESET', message: detail };
  }
  // undici's HTTPParserError carries llhttp's code when it has one (`HPE_INVALID_CONSTANT`), and none for a status line that is not HTTP's.
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO' || err?.name === 'HTTPParserError') return { code: 'INVALID_HTTP', message: detail };
  // A TLS hello answered with plain HTTP: OpenSSL's text says "wrong version number".
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_HTTP_REQUEST') {
    return { code: 'TLS', message: 'the server speaks plain HTTP on this port, not TLS: use an http:// base URL (or the port that serves HTTPS)' };
  }
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL')) {
    return { code: 'TLS', message: detail };
  }
  return { code: 'OTHER', message: detail };
}
