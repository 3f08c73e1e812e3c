import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A reference server on a host of its own: a network namespace joined to this one by a veth pair. */
export interface RemoteServer {
  /** `http://10.249.<n>.2:<port>/v1`: an address the tool does not take for loopback. */
  baseUrl: string;
  apiKey: string;
  /** The most connections the server held open at once, as it counted them. */
  mostAtOnce(): number;
  close(): Promise<void>;
}

/** Why no namespace can be made here (not root, no iproute2, a sandbox that forbids it), or undefined. */
export async function netnsUnavailable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  if (!existsSync('/usr/sbin/ip') && !existsSync('/sbin/ip')) return 'iproute2 (ip) is not installed';
  const probe = `pcs-probe-${process.pid}`;
  try {
    await run('ip', ['netns', 'add', probe]);
    await run('ip', ['netns', 'del', probe]);
    return undefined;
  } catch (error) {
    return `ip netns add failed: ${(error as Error).message.split('\n', 1)[0]}`;
  }
}

/** Subnets 10.249.<n>.0/30 (and veth names) a namespace may take: n in 1..SUBNETS. */
const SUBNETS = 250;

/**
 * Claims a free n for a veth pair: `ip link add` fails with "File exists" when another
 * process (a second `npm test` beside this one) or a run that died holds that name, and
 * the next n is tried. The name is the claim, so two processes never share a subnet.
 * @param start where the search starts (n = start + 1 first); random unless a test says.
 * @returns n; the caller deletes `pcsa<n>` when done (which deletes its peer too).
 * @throws Error when every n is taken, or `ip` fails otherwise.
 */
export async function claimVeth(start = Math.floor(Math.random() * SUBNETS)): Promise<number> {
  for (let i = 0; i < SUBNETS; i++) {
    const n = ((start + i) % SUBNETS) + 1;
    try {
      await run('ip', ['link', 'add', `pcsa${n}`, 'type', 'veth', 'peer', 'name', `pcsb${n}`]);
      return n;
    } catch (error) {
      if (!/File exists/.test((error as Error).message)) throw error;
    }
  }
  throw new Error(`every veth pair pcsa1..pcsa${SUBNETS} is taken`);
}

/**
 * Starts the reference server (from the build, dist/) inside a namespace made for it, on
 * 10.249.<n>.2, reachable from here over a veth pair (10.249.<n>.1); traffic stays on this
 * machine. The server reports each new high of connections open at once on its stdout.
 */
export async function startRemoteServer(apiKey: string): Promise<RemoteServer> {
  const n = await claimVeth();
  const ns = `pcs-remote-${process.pid}-${n}`;
  const [outside, inside] = [`pcsa${n}`, `pcsb${n}`];
  const [here, there] = [`10.249.${n}.1`, `10.249.${n}.2`];
  const steps: string[][] = [
    ['netns', 'add', ns],
    ['link', 'set', inside, 'netns', ns],
    ['addr', 'add', `${here}/30`, 'dev', outside],
    ['link', 'set', outside, 'up'],
    ['netns', 'exec', ns, 'ip', 'addr', 'add', `${there}/30`, 'dev', inside],
    ['netns', 'exec', ns, 'ip', 'link', 'set', inside, 'up'],
    ['netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up'],
  ];
  const teardown = async () => {
    await run('ip', ['link', 'del', outside]).catch(() => {});
    await run('ip', ['netns', 'del', ns]).catch(() => {});
  };
  try {
    for (const step of steps) await run('ip', step);
  } catch (error) {
    await teardown();
    throw error;
  }
  // The build's server, whether this module runs from the sources or from dist/.
  const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/dist\/$/, '/');
  const server = `${root}dist/src/reference/server.js`;
  const code = `
    const { startReferenceServer } = await import(${JSON.stringify(server)});
    let open = 0, most = 0;
    const s = await startReferenceServer({ host: ${JSON.stringify(there)}, apiKey: ${JSON.stringify(apiKey)}, configure: (srv) => srv.on('connection', (socket) => {
      open++; if (open > most) { most = open; console.log('most ' + most); }
      socket.on('close', () => open--);
    }) });
    console.log('listening ' + s.baseUrl);`;
  const child: ChildProcess = spawn('ip', ['netns', 'exec', ns, process.execPath, '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let most = 0;
  const listening = new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.startsWith('listening ')) resolve(line.slice('listening '.length));
        if (line.startsWith('most ')) most = Number(line.slice('most '.length));
      }
    });
    child.once('exit', (status) => reject(new Error(`the server in ${ns} ended (${status}) before it listened`)));
  });
  const baseUrl = await listening.catch(async (error: unknown) => {
    await teardown();
    throw error;
  });
  return {
    baseUrl,
    apiKey,
    mostAtOnce: () => most,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      await teardown();
    },
  };
}
