/**
 * The proxies the environment names (src/config/proxy.ts), read as curl and undici read
 * them, and shown in reports without their credentials.
 */
import { describe, expect, test } from 'vitest';
import { DIRECT, proxyEnvironment, shownProxy } from '../../src/config/proxy.js';

const refusal = (env: NodeJS.ProcessEnv): string | undefined => {
  try {
    proxyEnvironment(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('reading the variables', () => {
  test('the lower-case variable first, trimmed; absent is empty', () => {
    expect(proxyEnvironment({ http_proxy: ' http://lower:1 ', HTTP_PROXY: 'http://upper:1', HTTPS_PROXY: 'https://upper:2', no_proxy: 'localhost' })).toEqual({ httpProxy: 'http://lower:1', httpsProxy: 'https://upper:2', noProxy: 'localhost' });
    expect(proxyEnvironment({})).toEqual(DIRECT);
  });

  test.each([
    ['http', 'http://p:3128', undefined],
    ['https', 'https://p:3128', undefined],
    ['socks5', 'socks5://p:1080', undefined],
    ['socks', 'socks://p:1080', undefined],
    ['near miss: socks4', 'socks4://p:1080', 'HTTPS_PROXY (or https_proxy) is not a proxy URL: expected http://host:port (or https://, socks5://)'],
    ['near miss: no scheme (curl would guess one)', 'p:3128', 'HTTPS_PROXY (or https_proxy) is not a proxy URL: expected http://host:port (or https://, socks5://)'],
    ['near miss: no URL at all', 'not a url', 'HTTPS_PROXY (or https_proxy) is not a proxy URL: expected http://host:port (or https://, socks5://)'],
  ])('HTTPS_PROXY %s', (_d, value, problem) => expect(refusal({ HTTPS_PROXY: value })).toBe(problem));

  test('the refusal names the variable, never quotes the value (it may hold a password)', () => {
    expect(refusal({ HTTP_PROXY: 'ftp://user:s3cret@p:21' })).toBe('HTTP_PROXY (or http_proxy) is not a proxy URL: expected http://host:port (or https://, socks5://)');
  });
});

describe('the proxy a report shows', () => {
  const proxies = { httpProxy: 'http://user:pw@plain:3128', httpsProxy: 'http://user:pw@secure:3129', noProxy: '' };
  test.each([
    ['an https target: HTTPS_PROXY, credentials removed', 'https://api.example/v1', proxies, { url: 'http://secure:3129', variable: 'HTTPS_PROXY' }],
    ['an http target: HTTP_PROXY', 'http://api.example/v1', proxies, { url: 'http://plain:3128', variable: 'HTTP_PROXY' }],
    ['an https target with HTTPS_PROXY empty: HTTP_PROXY', 'https://api.example/v1', { ...proxies, httpsProxy: '' }, { url: 'http://plain:3128', variable: 'HTTP_PROXY' }],
    ['NO_PROXY, when set, is shown beside it', 'http://api.example/v1', { ...proxies, noProxy: 'api.example' }, { url: 'http://plain:3128', variable: 'HTTP_PROXY', noProxy: 'api.example' }],
    ['near miss: an http target with only HTTPS_PROXY: none', 'http://api.example/v1', { ...proxies, httpProxy: '' }, undefined],
    ['no environment (the embedded server): none', 'http://127.0.0.1/v1', undefined, undefined],
  ])('%s', (_d, baseUrl, proxy, shown) => expect(shownProxy({ baseUrl, ...(proxy ? { proxy } : {}) })).toEqual(shown));
});
