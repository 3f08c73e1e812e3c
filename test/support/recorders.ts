/**
 * Real recorders recording real clients against reference servers: what the traffic tests
 * judge, and what test/fixtures/captures/record.ts writes as fixtures. Each recorder runs
 * a client's session against three targets (a correct server, a body fault, an
 * authentication fault) and writes one HAR per target. The servers compress their JSON
 * answers with gzip when asked, as one behind nginx's `gzip on` does.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';

/** What each recorded session does, as a small frontend or a script does it. */
export const SESSION = [
  'an authorized list',
  'a create with a description and non-ASCII text',
  'a create of a name that holds digits only',
  'creates of names a recorder may mangle: quotes, `&` and `<`, a line break, spaces at the ends (the browser and axios sessions)',
  'a create without a name',
  'a list without a key',
  'an authorized list again',
] as const;

/** Names a recorder may mangle when it writes a body as params, escapes HTML or trims: each must come back exactly. */
export const HARD_NAMES = [`O'Hara & <Sons> "x"`, 'line one\nline two', '  spaces at the ends  '] as const;

/** The three targets of every recording, by name. */
export type Scenario = 'correct' | 'body-fault' | 'auth-fault';

/** The faults of the recorded targets (test/faults): a digit-only name stored as a number, and a missing key let through. */
export const RECORDED_FAULTS = { 'body-fault': 'sqlite-numeric-affinity', 'auth-fault': 'missing-header-accepted' } as const;

/** Each scenario's variations, from the catalogue's faults. */
export function scenarioVariations(faults: ReadonlyMap<string, { variation: Variation }>): Record<Scenario, Variation[]> {
  return { correct: [], 'body-fault': [faults.get(RECORDED_FAULTS['body-fault'])!.variation], 'auth-fault': [faults.get(RECORDED_FAULTS['auth-fault'])!.variation] };
}

/** A recorder: where it runs from, and how it records a session against each target. */
export interface Recorder {
  name: string;
  /** Programs it needs; the recorder is skipped where one is missing. */
  needs: string[];
  /** Records the session against each target into `<dir>/<scenario>.har`. */
  record(targets: ReadonlyArray<{ scenario: Scenario; server: ReferenceServer }>, dir: string): Promise<void>;
}

/** Whether every program a recorder needs is installed here. */
export const installed = (recorder: Recorder) => recorder.needs.every((path) => existsSync(path));

/** The page a browser session loads from the API's origin: it runs {@link SESSION} with fetch, reading every answer. */
function page(key: string): string {
  return `<!doctype html><meta charset="utf-8"><title>categories</title><script>
(async () => {
  const auth = { authorization: 'Bearer ' + ${JSON.stringify(key)} };
  const json = { ...auth, 'content-type': 'application/json' };
  const send = async (init) => (await fetch('/v1/categories', init)).text();
  await send({ headers: auth });
  await send({ method: 'POST', headers: json, body: JSON.stringify({ name: 'Chats 🐈', description: 'from the browser' }) });
  await send({ method: 'POST', headers: json, body: JSON.stringify({ name: '123' }) });
  for (const name of ${JSON.stringify(HARD_NAMES)}) await send({ method: 'POST', headers: json, body: JSON.stringify({ name }) });
  await send({ method: 'POST', headers: json, body: JSON.stringify({ description: 'no name' }) });
  await send({});
  await send({ headers: auth });
  document.title = 'done';
})();
</script>`;
}

/** Answers gzip-compressed when the client accepts it, and serves the session page (with `key`) at /app.html: what sits in front of the service. */
function frontDoor(server: import('node:http').Server, key: string): void {
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/app.html') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(key));
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) compress(res);
    for (const handler of handlers) handler(req, res);
  });
}

/** Replaces a response's body by its gzip, once it is whole. */
function compress(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  let head: Parameters<ServerResponse['writeHead']> | undefined;
  res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => ((head = args), res)) as ServerResponse['writeHead'];
  res.end = ((body?: Buffer) => {
    const [status, headers] = head as [number, Record<string, string>];
    const zipped = gzipSync(body ?? Buffer.alloc(0));
    writeHead(status, { ...headers, 'content-encoding': 'gzip', 'content-length': String(zipped.byteLength), vary: 'Accept-Encoding' });
    return end(zipped);
  }) as ServerResponse['end'];
}

/** Starts the three targets: each a reference server, the faults' variations applied, behind the front door. */
export async function startTargets(variations: Record<Scenario, Variation[]>): Promise<Array<{ scenario: Scenario; server: ReferenceServer }>> {
  return Promise.all(
    (Object.keys(variations) as Scenario[]).map(async (scenario) => {
      const apiKey = `recorded-${scenario}-key-0123456789abcdef`;
      return { scenario, server: await startReferenceServer({ variations: variations[scenario], apiKey, configure: (server) => frontDoor(server, apiKey) }) };
    }),
  );
}

const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-quic'];
const CHROMIUM = '/usr/bin/chromium';

/** Loads the session page of `server` in a browser tab and waits for its last answer. */
async function runPage(goto: (url: string) => Promise<unknown>, waitDone: () => Promise<unknown>, server: ReferenceServer): Promise<void> {
  await goto(`${new URL(server.baseUrl).origin}/app.html`);
  await waitDone();
}

/** Playwright's `recordHar` (playwright-core, Debian's Chromium): bodies embedded. */
export const playwright: Recorder = {
  name: 'playwright-recordHar',
  needs: [CHROMIUM],
  async record(targets, dir) {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });
    try {
      for (const { scenario, server } of targets) {
        const context = await browser.newContext({ recordHar: { path: join(dir, `${scenario}.har`), content: 'embed' } });
        const tab = await context.newPage();
        await runPage((url) => tab.goto(url), () => tab.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title === 'done'), server);
        await context.close();
      }
    } finally {
      await browser.close();
    }
  },
};

/**
 * chrome-har (npm) over the DevTools protocol, Debian's Chromium driven by puppeteer-core:
 * every Network and Page event of the tab, the ExtraInfo events among them, and each
 * response's body fetched with `Network.getResponseBody` as the README shows it. Chrome
 * reports a request's fields in both `requestWillBeSent` and its ExtraInfo, and chrome-har
 * writes both lists: every field twice, `Authorization` among them (issue 56).
 */
export const chromeHar: Recorder = {
  name: 'chrome-har',
  needs: [CHROMIUM],
  async record(targets, dir) {
    const [{ default: puppeteer }, { harFromMessages }] = await Promise.all([import('puppeteer-core'), import('chrome-har')]);
    const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: BROWSER_ARGS });
    try {
      for (const { scenario, server } of targets) {
        const tab = await browser.newPage();
        const cdp = await tab.createCDPSession();
        const events: Array<{ method: string; params: Record<string, unknown> }> = [];
        const bodies: Array<Promise<void>> = [];
        const responses = new Map<string, Record<string, unknown>>();
        for (const method of ['Page.loadEventFired', 'Page.domContentEventFired', 'Page.frameStartedLoading', 'Page.frameAttached', 'Page.frameNavigated', 'Network.requestWillBeSent', 'Network.requestWillBeSentExtraInfo', 'Network.responseReceivedExtraInfo', 'Network.requestServedFromCache', 'Network.dataReceived', 'Network.responseReceived', 'Network.resourceChangedPriority', 'Network.loadingFinished', 'Network.loadingFailed']) {
          cdp.on(method as never, (event: unknown) => {
            const params = event as Record<string, unknown>;
            events.push({ method, params });
            if (method === 'Network.responseReceived') responses.set(params.requestId as string, params.response as Record<string, unknown>);
            if (method === 'Network.loadingFinished') {
              bodies.push(
                cdp.send('Network.getResponseBody', { requestId: params.requestId as string }).then(
                  ({ body, base64Encoded }) => void Object.assign(responses.get(params.requestId as string) ?? {}, { body: base64Encoded ? Buffer.from(body, 'base64').toString() : body }),
                  () => {},
                ),
              );
            }
          });
        }
        await cdp.send('Page.enable');
        await cdp.send('Network.enable');
        await runPage((url) => tab.goto(url), () => tab.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title === 'done'), server);
        await Promise.all(bodies);
        const har = harFromMessages(events, { includeTextFromResponseBody: true });
        await writeFile(join(dir, `${scenario}.har`), JSON.stringify(har, null, 2));
        await tab.close();
      }
    } finally {
      await browser.close();
    }
  },
};

/** A free loopback port. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const MITMDUMP = '/usr/bin/mitmdump';
const HAR_DUMP = '/usr/share/doc/mitmproxy/examples/contrib/har_dump.py';
const CURL = '/usr/bin/curl';
const HTTPIE = '/usr/bin/http';
const PYTHON = '/usr/bin/python3';

/** Runs a command to its end; its output is not kept. @throws Error naming the command when it fails. */
function exec(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
}

/**
 * mitmproxy (Debian's mitmdump) as a forward proxy with its `har_dump.py` addon, the
 * session sent through it by curl (`--compressed`), httpie and Python requests: gzip
 * answers, recorded as har_dump writes them (the compressed size beside the decoded text).
 * One proxy for the three targets; its HAR is split by target, entries kept as written.
 */
export const mitmproxy: Recorder = {
  name: 'mitmproxy-har_dump',
  needs: [MITMDUMP, HAR_DUMP, CURL, HTTPIE, PYTHON],
  async record(targets, dir) {
    const port = await freePort();
    // mitmproxy makes its CA (a private key among it) in $HOME/.mitmproxy: a folder of its own, removed after.
    const home = await mkdtemp(join(tmpdir(), 'pcs-mitmproxy-'));
    const whole = join(home, 'all.har');
    const proxy = spawn(MITMDUMP, ['--listen-host', '127.0.0.1', '--listen-port', String(port), '-s', HAR_DUMP, '--set', `hardump=${whole}`, '-q'], { stdio: ['ignore', 'ignore', 'inherit'], env: { PATH: process.env.PATH, HOME: home } });
    const closed = new Promise((resolve) => proxy.on('close', resolve));
    try {
      await untilListening(port);
      const via = `http://127.0.0.1:${port}`;
      for (const { server } of targets) {
        const env = { PATH: process.env.PATH, HOME: home, KEY: server.apiKey, URL: `${server.baseUrl}/categories`, http_proxy: via, NO_PROXY: '', no_proxy: '' };
        const curl = (...args: string[]) => exec('bash', ['-c', `curl -sS -o /dev/null --compressed --proxy "$http_proxy" ${args.join(' ')}`], env);
        await curl('-H "Authorization: Bearer $KEY"', '"$URL"');
        await curl('-H "Authorization: Bearer $KEY"', `-H 'Content-Type: application/json'`, `-d '{"name":"Chats 🐈","description":"from curl"}'`, '"$URL"');
        await exec(HTTPIE, ['--ignore-stdin', '--print=', '--proxy', `http:${via}`, 'POST', `${server.baseUrl}/categories`, `Authorization:Bearer ${server.apiKey}`, 'name=123'], env);
        const python = `import os, requests
p = {'http': os.environ['http_proxy']}
u = os.environ['URL']
k = {'Authorization': 'Bearer ' + os.environ['KEY']}
requests.post(u, json={'description': 'no name'}, headers=k, proxies=p)
requests.get(u, proxies=p)
requests.get(u, headers=k, proxies=p)`;
        await exec(PYTHON, ['-c', python], env);
      }
    } finally {
      // mitmdump writes the HAR when it shuts down.
      proxy.kill('SIGINT');
      await closed;
    }
    const har = JSON.parse(await readFile(whole, 'utf8')) as { log: { entries: Array<{ request: { url: string } }> } };
    for (const { scenario, server } of targets) {
      const origin = new URL(server.baseUrl).origin;
      const entries = har.log.entries.filter((entry) => new URL(entry.request.url).origin === origin);
      await writeFile(join(dir, `${scenario}.har`), JSON.stringify({ log: { ...har.log, entries } }, null, 2));
    }
    await rm(home, { recursive: true, force: true });
  },
};

/** Waits until something accepts connections on a loopback port (bounded: 10 s). */
async function untilListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after 10 s`);
}


/**
 * axios-har-tracker (npm) around axios in Node: the session as a script sends it, every
 * answer kept whatever its status (axios throws for 4xx; the tracker records first).
 */
export const axiosHarTracker: Recorder = {
  name: 'axios-har-tracker',
  needs: [],
  async record(targets, dir) {
    const [{ default: axios }, { AxiosHarTracker }] = await Promise.all([import('axios'), import('axios-har-tracker')]);
    for (const { scenario, server } of targets) {
      const client = axios.create({ validateStatus: () => true });
      // The tracker types axios as its CommonJS build does; the instance is the same.
      const tracker = new AxiosHarTracker(client as never);
      const url = `${server.baseUrl}/categories`;
      const auth = { Authorization: `Bearer ${server.apiKey}` };
      await client.get(url, { headers: auth });
      await client.post(url, { name: 'Chats 🐈', description: 'from axios' }, { headers: auth });
      await client.post(url, { name: '123' }, { headers: auth });
      for (const name of HARD_NAMES) await client.post(url, { name }, { headers: auth });
      await client.post(url, { description: 'no name' }, { headers: auth });
      await client.get(url);
      await client.get(url, { headers: auth });
      await writeFile(join(dir, `${scenario}.har`), JSON.stringify(tracker.getGeneratedHar(), null, 2));
    }
  },
};

/** Every recorder that runs here without a network. */
export const RECORDERS: readonly Recorder[] = [mitmproxy, chromeHar, playwright, axiosHarTracker];
