/**
 * The proving ground (issue 56): correct servers on the stacks implementers run, each
 * written as its framework's own docs show and left at its defaults (body parser, error
 * handler, router, JSON encoder), each with one realistic fault its users make, switched on
 * by PETSTORE_FAULT=1. Their sources are in test/support/stacks/; Debian's packages (CI
 * installs them) and the project's npm devDependencies provide the stacks. A stack whose
 * program is missing is skipped, named, never passed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the stacks' sources (the sources, also when this module runs from dist/). */
export const STACKS_DIR = fileURLToPath(new URL('./stacks/', import.meta.url)).replace('/dist/test/', '/test/');

const PYTHON = '/usr/bin/python3';
const DIST_PACKAGES = '/usr/lib/python3/dist-packages';

/** How a stack's server process is started. */
interface Launch {
  command: string;
  args: string[];
}

/** One stack of the proving ground. */
export interface Stack {
  /** `flask-gunicorn`: the framework and the server it runs on. */
  name: string;
  language: string;
  /** Files that must exist for the stack to run (its interpreter, its packages). */
  needs: string[];
  launch(port: number): Launch;
  /** The fault PETSTORE_FAULT=1 switches on, in words, and the must checks that must fail on it (others may fail too). */
  fault: { words: string; fails: string[] };
}

const node = (file: string): ((port: number) => Launch) => () => ({ command: process.execPath, args: [join(STACKS_DIR, file)] });

/** Every stack: 13, in 7 languages. */
export const STACKS: readonly Stack[] = [
  {
    name: 'flask-gunicorn',
    language: 'Python',
    needs: [PYTHON, `${DIST_PACKAGES}/flask`, '/usr/bin/gunicorn'],
    launch: (port) => ({ command: '/usr/bin/gunicorn', args: ['--chdir', STACKS_DIR, '-b', `127.0.0.1:${port}`, 'flask_petstore:app'] }),
    fault: { words: 'the key-checking decorator left off the create view', fails: ['create-401-missing', 'create-401-unknown-key'] },
  },
  {
    name: 'drf-runserver',
    language: 'Python',
    needs: [PYTHON, `${DIST_PACKAGES}/django`, `${DIST_PACKAGES}/rest_framework`],
    launch: () => ({ command: PYTHON, args: [join(STACKS_DIR, 'drf_petstore.py')] }),
    fault: { words: 'the route written with a trailing slash: APPEND_SLASH answers /v1/categories with a 301', fails: ['list-answers-200-array', 'create-name-only'] },
  },
  {
    name: 'fastapi-uvicorn',
    language: 'Python',
    needs: [PYTHON, `${DIST_PACKAGES}/fastapi`, `${DIST_PACKAGES}/uvicorn`],
    launch: (port) => ({ command: PYTHON, args: ['-m', 'uvicorn', '--app-dir', STACKS_DIR, '--host', '127.0.0.1', '--port', `${port}`, '--no-access-log', 'fastapi_petstore:app'] }),
    fault: { words: 'FastAPI’s default 422 for a body that fails validation', fails: ['create-rejects-missing-name'] },
  },
  {
    name: 'aiohttp',
    language: 'Python',
    needs: [PYTHON, `${DIST_PACKAGES}/aiohttp`],
    launch: () => ({ command: PYTHON, args: [join(STACKS_DIR, 'aiohttp_petstore.py')] }),
    fault: { words: 'the middleware checks only that an Authorization header is there', fails: ['list-401-unknown-key', 'create-401-unknown-key'] },
  },
  {
    name: 'python-http-server',
    language: 'Python',
    needs: [PYTHON],
    launch: () => ({ command: PYTHON, args: [join(STACKS_DIR, 'httpserver_petstore.py')] }),
    fault: { words: 'errors answered with send_error(): an HTML page', fails: ['error-body-is-error', 'error-content-type-json'] },
  },
  {
    name: 'express',
    language: 'JavaScript',
    needs: [],
    launch: node('express_petstore.mjs'),
    fault: { words: 'no error-handling middleware: Express answers a malformed body with an HTML page', fails: ['error-body-is-error'] },
  },
  {
    name: 'fastify',
    language: 'JavaScript',
    needs: [],
    launch: node('fastify_petstore.mjs'),
    fault: { words: 'Fastify’s Ajv defaults coerce types: a name of 5 is stored as "5"', fails: ['create-rejects-wrong-type-name'] },
  },
  {
    name: 'koa',
    language: 'JavaScript',
    needs: [],
    launch: node('koa_petstore.mjs'),
    fault: { words: 'ctx.throw(401) with no error middleware: Koa’s text/plain "Unauthorized"', fails: ['error-body-is-error', 'error-content-type-json'] },
  },
  {
    name: 'go-net-http',
    language: 'Go',
    needs: ['/usr/bin/go'],
    launch: () => ({ command: '/usr/bin/go', args: ['run', join(STACKS_DIR, 'go_petstore.go')] }),
    fault: { words: 'the body decoded into plain strings: a missing name is "" and created', fails: ['create-rejects-missing-name'] },
  },
  {
    name: 'php-builtin',
    language: 'PHP',
    needs: ['/usr/bin/php'],
    launch: (port) => ({ command: '/usr/bin/php', args: ['-S', `127.0.0.1:${port}`, join(STACKS_DIR, 'php_petstore.php')] }),
    fault: { words: 'http_response_code(201) forgotten: a create answers 200', fails: ['create-name-only'] },
  },
  {
    name: 'mojolicious',
    language: 'Perl',
    needs: ['/usr/bin/perl', '/usr/share/perl5/Mojolicious.pm'],
    launch: (port) => ({ command: '/usr/bin/perl', args: [join(STACKS_DIR, 'mojo_petstore.pl'), 'daemon', '-l', `http://127.0.0.1:${port}`] }),
    fault: { words: 'the name trimmed (s/^\\s+|\\s+$//g) before it is stored', fails: ['create-valid-bodies'] },
  },
  {
    name: 'sinatra-webrick',
    language: 'Ruby',
    needs: ['/usr/bin/ruby', '/usr/share/rubygems-integration/all/gems/sinatra-3.0.5/lib/sinatra.rb', '/usr/share/rubygems-integration/all/gems/webrick-1.8.1/lib/webrick.rb'],
    launch: () => ({ command: '/usr/bin/ruby', args: [join(STACKS_DIR, 'sinatra_petstore.rb')] }),
    fault: { words: 'the list wrapped in an object ({"categories": [...]})', fails: ['list-answers-200-array'] },
  },
  {
    name: 'jdk-httpserver',
    language: 'Java',
    needs: ['/usr/bin/java'],
    launch: () => ({ command: '/usr/bin/java', args: [join(STACKS_DIR, 'JdkPetstore.java')] }),
    fault: { words: 'no Content-Type on the answers (HttpServer sets none)', fails: ['success-content-type-json'] },
  },
];

/** The real fronts a stack is put behind: nginx and HAProxy, each at its defaults but for the addresses (and nginx's temp folders). */
export const FRONTS = {
  nginx: {
    needs: ['/usr/sbin/nginx'],
    launch(dir: string, port: number, upstream: number): Launch {
      const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `${name}_temp_path ${dir}/${name};`).join(' ');
      writeFileSync(
        join(dir, 'nginx.conf'),
        `worker_processes 1; error_log ${dir}/error.log; pid ${dir}/nginx.pid;\nevents { worker_connections 512; }\n` +
          `http { access_log off; ${temp}\n  server { listen 127.0.0.1:${port}; location / { proxy_pass http://127.0.0.1:${upstream}; } } }\n`,
      );
      return { command: '/usr/sbin/nginx', args: ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'] };
    },
  },
  haproxy: {
    needs: ['/usr/sbin/haproxy'],
    launch(dir: string, port: number, upstream: number): Launch {
      writeFileSync(
        join(dir, 'haproxy.cfg'),
        `global\n  maxconn 512\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 30s\n  timeout server 30s\n` +
          `frontend front\n  bind 127.0.0.1:${port}\n  default_backend back\nbackend back\n  server app 127.0.0.1:${upstream}\n`,
      );
      return { command: '/usr/sbin/haproxy', args: ['-db', '-f', join(dir, 'haproxy.cfg')] };
    },
  },
} as const;

export type FrontName = keyof typeof FRONTS;

/** The first file a stack (or front) needs that is missing; undefined when it can run. */
export const missingFor = (needs: readonly string[]): string | undefined => needs.find((path) => !existsSync(path));

/** A free loopback port (the kernel's choice, released for the stack to take). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** How long a stack may take to listen: `go run` compiles first, the JVM compiles its source (ms). */
const LISTEN_WITHIN_MS = 60_000;

/** Resolves once something accepts connections on `port`; rejects when the child ends first or the bound passes. */
async function listening(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server ended (${child.exitCode ?? child.signalCode}) before it listened: ${output()}`);
    const connected = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket.end() !== undefined)).once('error', () => resolve(false));
    });
    if (connected) return;
    if (Date.now() - started > LISTEN_WITHIN_MS) throw new Error(`the server did not listen within ${LISTEN_WITHIN_MS} ms: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts one process and waits until it listens on `port`; its stop ends it (and its group: `go run` has a child). */
async function startProcess({ command, args }: Launch, port: number, env: Record<string, string>): Promise<() => Promise<void>> {
  const child = spawn(command, args, { env: { ...process.env, ...env, PORT: `${port}` }, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-2_000)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  };
  try {
    await listening(child, port, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/** A running stack: its base URL and how to stop it (and its front). */
export interface RunningStack {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts a stack with its key, correct or with its fault, optionally behind a front.
 * @throws Error when it ends or does not listen within {@link LISTEN_WITHIN_MS}, with its last stderr.
 */
export async function startStack(stack: Stack, { key, fault = false, front }: { key: string; fault?: boolean; front?: FrontName }): Promise<RunningStack> {
  const port = await freePort();
  const stops = [await startProcess(stack.launch(port), port, { PETSTORE_KEY: key, ...(fault ? { PETSTORE_FAULT: '1' } : {}) })];
  let served = port;
  const dir = front ? mkdtempSync(join(tmpdir(), `pcs-${front}-`)) : undefined;
  // nginx's workers (nobody) buffer request bodies in temp folders under it.
  if (dir) chmodSync(dir, 0o755);
  const stop = async () => {
    for (const each of stops.reverse()) await each();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  if (front) {
    try {
      served = await freePort();
      stops.push(await startProcess(FRONTS[front].launch(dir!, served, port), served, {}));
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return { baseUrl: `http://127.0.0.1:${served}/v1`, stop };
}
