import { UsageError } from '../core/errors.js';

/**
 * Validates and normalizes a target base URL: http or https, no credentials, query or
 * fragment, and a path ending with the version segment `/v1` (spec 9/R2). A trailing
 * slash is dropped.
 * @returns the normalized URL, e.g. `https://api.example.com/v1`.
 * @throws UsageError naming what is wrong and, where one exists, the corrected URL.
 */
export function normalizeBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Text with an `@` may hold credentials that broke the parse (a key with a `/`): never echoed.
    if (text.includes('@')) throw new UsageError('--base-url is not an absolute URL, and holds an @ as credentials do: it is not printed, and no credentials are taken from it; pass the API key through the environment (e.g. https://api.example.com/v1)');
    throw new UsageError(`--base-url ${JSON.stringify(text)} is not an absolute URL (e.g. https://api.example.com/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must use http or https, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username || url.password) {
    throw new UsageError('--base-url must not carry credentials; pass the API key through the environment');
  }
  if (url.search || url.hash) {
    throw new UsageError(`--base-url must not have a query or fragment; did you mean ${url.origin}${url.pathname}?`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    const versioned = path.match(/^(.*\/v1)(\/.*)?$/);
    const suggestion = `${url.origin}${versioned ? versioned[1] : `${path}/v1`}`;
    throw new UsageError(
      `--base-url must end with the version segment /v1 (spec section 9); did you mean ${suggestion}?`,
    );
  }
  return `${url.origin}${path}`;
}

/**
 * Refuses plain http to a host that is not this machine: the key would cross the network
 * unencrypted.
 * @throws UsageError unless `allowInsecure` (--allow-insecure-http).
 */
export function assertSecureTransport(baseUrl: string, allowInsecure: boolean): void {
  if (baseUrl.startsWith('http:') && !allowInsecure && !isLoopback(baseUrl)) {
    throw new UsageError(
      `plain http to ${new URL(baseUrl).host} would send the API key unencrypted; use https, or pass --allow-insecure-http`,
    );
  }
}

/** Whether a URL's host is on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
