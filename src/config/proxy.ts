import { UsageError } from '../core/errors.js';

/**
 * The proxies the environment names, read as curl and undici's EnvHttpProxyAgent read
 * them: the lower-case variable first. Empty: none. `httpsProxy` empty falls back to
 * `httpProxy` for https targets; `noProxy` lists hosts (and `host:port`, `.domain`, `*`)
 * reached directly.
 */
export interface ProxyEnvironment {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** No proxy at all: what the embedded reference server is reached through. */
export const DIRECT: ProxyEnvironment = { httpProxy: '', httpsProxy: '', noProxy: '' };

/**
 * The proxy variables of `env`.
 * @throws UsageError when a proxy variable is not an http, https or socks5 URL (the message
 *   names the variable, never its value: it may hold a password).
 */
export function proxyEnvironment(env: NodeJS.ProcessEnv): ProxyEnvironment {
  const read = (name: string) => (env[name.toLowerCase()] ?? env[name] ?? '').trim();
  const proxies = { httpProxy: read('HTTP_PROXY'), httpsProxy: read('HTTPS_PROXY'), noProxy: read('NO_PROXY') };
  for (const [variable, value] of [['HTTP_PROXY', proxies.httpProxy], ['HTTPS_PROXY', proxies.httpsProxy]] as const) {
    if (value && !/^(https?|socks5?):$/.test(protocolOf(value))) {
      throw new UsageError(`${variable} (or ${variable.toLowerCase()}) is not a proxy URL: expected http://host:port (or https://, socks5://)`);
    }
  }
  return proxies;
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

/** The proxy a target's requests go through unless NO_PROXY names its host, as reports show it. */
export interface ShownProxy {
  /** The proxy's URL without its credentials, e.g. `http://proxy.internal:3128`. */
  url: string;
  /** The variable it came from, e.g. `HTTPS_PROXY`. */
  variable: string;
  /** NO_PROXY, when set: the target is reached directly if it matches. */
  noProxy?: string;
}

/** The proxy the run's environment names for its base URL's scheme, credentials removed; none: undefined. */
export function shownProxy({ baseUrl, proxy: proxies }: { baseUrl: string; proxy?: ProxyEnvironment }): ShownProxy | undefined {
  if (!proxies) return undefined;
  const https = baseUrl.startsWith('https:') && proxies.httpsProxy !== '';
  const value = https ? proxies.httpsProxy : proxies.httpProxy;
  if (!value) return undefined;
  const url = new URL(value);
  return {
    url: `${url.protocol}//${url.host}`,
    variable: https ? 'HTTPS_PROXY' : 'HTTP_PROXY',
    ...(proxies.noProxy ? { noProxy: proxies.noProxy } : {}),
  };
}
