/**
 * Real networks between the suite and its target: a CONNECT proxy named by HTTP_PROXY,
 * HTTPS_PROXY and NO_PROXY, a gateway that wants headers of its own, and mutual TLS.
 * Every server here is real and on loopback: the `proxy` package (a CONNECT proxy in
 * the manner of Squid), the reference server over HTTP and HTTPS.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProxy, type ProxyServer } from 'proxy';
import { afterEach, describe, expect, test } from 'vitest';
import { curlCommand } from '../../src/report/curl.js';
import { runAgainst } from '../support/targets.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/tls/${name}.pem`, import.meta.url), 'utf8');
const ONE_CHECK = { checkFilter: '^list-answers-200-array$' };

/** A CONNECT proxy on loopback that records the authority of every tunnel it is asked for. */
async function startProxy(configure?: (proxy: ProxyServer) => void): Promise<{ url: string; tunnels: string[]; close: () => Promise<void> }> {
  const proxy = createProxy(createServer());
  configure?.(proxy);
  const tunnels: string[] = [];
  proxy.prependListener('connect', (request: IncomingMessage) => tunnels.push(request.url ?? ''));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () => new Promise((resolve) => (proxy.closeAllConnections(), proxy.close(() => resolve()))),
  };
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

describe('proxies from the environment (undici EnvHttpProxyAgent)', () => {
  test('HTTP_PROXY: every request goes through a CONNECT tunnel to the target, and the report names the proxy', async () => {
    const proxy = await startProxy();
    stops.push(proxy.close);
    const { report, exitCode, console: text, exchanges } = await runAgainst({}, { env: { HTTP_PROXY: proxy.url } });
    expect(exitCode).toBe(0);
    const target = new URL(report.target.baseUrl).host;
    expect(new Set(proxy.tunnels)).toEqual(new Set([target]));
    // Connections are still told apart through the tunnel: one tunnel per fresh connection (and the probe's), the rest reused.
    expect(proxy.tunnels).toHaveLength(exchanges.filter((exchange) => exchange.connection === 'fresh').length + 1);
    expect(exchanges.filter((exchange) => exchange.connection === 'reused').length).toBeGreaterThan(exchanges.length / 2);
    expect(report.target.proxy).toEqual({ url: proxy.url, variable: 'HTTP_PROXY' });
    expect(text).toContain(`through the proxy ${proxy.url} (HTTP_PROXY)`);
  });

  test('NO_PROXY naming the host: the target is reached directly', async () => {
    const proxy = await startProxy();
    stops.push(proxy.close);
    const { exitCode } = await runAgainst({}, { ...ONE_CHECK, env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(exitCode).toBe(0);
    expect(proxy.tunnels).toEqual([]);
  });

  test('HTTPS_PROXY to an https target: TLS runs inside the tunnel, with the extra CA', async () => {
    const proxy = await startProxy();
    stops.push(proxy.close);
    const [key, cert] = await Promise.all([fixture('key'), fixture('cert')]);
    const { exitCode, report } = await runAgainst({ tls: { key, cert } }, { ...ONE_CHECK, caPem: cert, env: { HTTPS_PROXY: proxy.url } });
    expect(exitCode).toBe(0);
    expect(report.target.proxy?.variable).toBe('HTTPS_PROXY');
    expect(proxy.tunnels.length).toBeGreaterThan(0);
  });

  test('a proxy that refuses the tunnel (407): not assessable, naming the proxy, never the target', async () => {
    const proxy = await startProxy((server) => (server.authenticate = () => false));
    stops.push(proxy.close);
    const { exitCode, report } = await runAgainst({}, { env: { HTTP_PROXY: proxy.url } });
    expect(exitCode).toBe(3);
    expect(report.verdictReason).toMatch(/through the proxy http:\/\/127\.0\.0\.1:\d+ from HTTP_PROXY.*PROXY: the proxy refused the tunnel to the target: CONNECT answered 407.*credentials/);
    expect(report.checks).toEqual([]);
  });

  test('the embedded reference server is always reached directly', async () => {
    const proxy = await startProxy();
    stops.push(proxy.close);
    const { runConformance } = await import('../../src/runner/run.js');
    const { exitCode, report } = await runConformance({ ...ONE_CHECK, reportDir: null, out: null, env: { HTTP_PROXY: proxy.url } });
    expect(exitCode).toBe(0);
    expect(report.target.proxy).toBeUndefined();
    expect(proxy.tunnels).toEqual([]);
  });
});

/** A gateway in front of the service: 403 without its own key, and it echoes that key back. */
function gateway(key: string, seen: Array<string | undefined>) {
  return (server: Server) => {
    const [service] = server.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
    server.removeAllListeners('request');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      seen.push(request.headers['x-tenant'] as string | undefined);
      if (request.headers['x-gateway-key'] !== key) {
        response.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"gateway key missing"}');
        return;
      }
      response.setHeader('x-gateway-echo', key); // a careless gateway: the secret comes back
      service!(request, response);
    });
  };
}

describe('extra headers (--header, --header-env)', () => {
  const GATEWAY_KEY = 'Gw-Secret_5f3a9c1e7b2d4680';

  test('without the gateway key the run is not assessable; with --header-env it is conformant and the key appears nowhere', async () => {
    const seen: Array<string | undefined> = [];
    const without = await runAgainst({ server: gateway(GATEWAY_KEY, seen) }, ONE_CHECK);
    expect(without.exitCode).toBe(3);
    expect(without.report.verdictReason).toMatch(/^the target refuses the key \(403 with /);

    const reportDir = await mkdtemp(join(tmpdir(), 'pcs-headers-'));
    const withKey = await runAgainst(
      { server: gateway(GATEWAY_KEY, seen) },
      { headers: ['X-Tenant: blue'], headerEnv: ['X-Gateway-Key=GATEWAY_KEY'], env: { GATEWAY_KEY }, reportDir },
    );
    expect(withKey.exitCode).toBe(0);
    expect(seen.slice(-withKey.exchanges.length).every((tenant) => tenant === 'blue')).toBe(true);

    const files = await readdir(reportDir);
    expect(files.length).toBeGreaterThanOrEqual(5);
    const written = await Promise.all(files.map((file) => readFile(join(reportDir, file), 'utf8')));
    for (const text of [...written, withKey.console, JSON.stringify(withKey.exchanges)]) expect(text).not.toContain(GATEWAY_KEY);
    // Reports show where the value comes from, and a replay expands it from the environment.
    expect(withKey.exchanges[0]!.request.headers).toMatchObject({ 'x-tenant': 'blue', 'x-gateway-key': '${GATEWAY_KEY}' });
    expect(withKey.exchanges.some((exchange) => exchange.response?.headers['x-gateway-echo'] === '${GATEWAY_KEY}')).toBe(true);
    const replay = curlCommand(withKey.exchanges[0]!.request);
    expect(replay).toContain(`-H 'x-tenant: blue'`);
    expect(replay).toContain('-H "x-gateway-key: ${GATEWAY_KEY}"');
  });
});

describe('mutual TLS (--client-cert, --client-key)', () => {
  test('a server that asks for a client certificate: not assessable without one, conformant with it', async () => {
    const [key, cert, clientCertPem, clientKeyPem] = await Promise.all([fixture('key'), fixture('cert'), fixture('client-cert'), fixture('client-key')]);
    const shape = { tls: { key, cert, clientCa: clientCertPem } };
    const without = await runAgainst(shape, { ...ONE_CHECK, caPem: cert });
    expect(without.exitCode).toBe(3);
    expect(without.report.verdictReason).toMatch(/may require a client certificate \(--client-cert and --client-key\)$/);
    const withCert = await runAgainst(shape, { ...ONE_CHECK, caPem: cert, clientCertPem, clientKeyPem });
    expect(withCert.exitCode).toBe(0);
  });
});
