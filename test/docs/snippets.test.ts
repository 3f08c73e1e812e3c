/**
 * Every command and program the README and docs/ show runs as shipped, and ends as the
 * text says (exit 0, a conformant verdict, `echo $?` printing 0). The names the docs use
 * (api.example.com, staging.example.com, localhost:8080) reach reference servers on this
 * machine through a CONNECT front named by HTTPS_PROXY and HTTP_PROXY, https with a
 * certificate for those names (test/fixtures/tls/docs-cert.pem, trusted by
 * NODE_EXTRA_CA_CERTS), so a remote name stays remote to the tool. What is put in:
 * - `export PETSTORE_API_KEY=...` (and the keys a configuration names): the server's key,
 *   in the environment of every block, as the README's first step leaves it;
 * - `petstore-conformance` and `node bin/petstore-conformance.js`: the built CLI, by path;
 * - `--port 8080`: a free port (the listening line names it); `~`: a home of the test's;
 * - the captures a command reads (capture.har …): a read-only run's exchanges.har; the
 *   shards `merge` joins: the three shards of the configuration's fleet, run as the CI
 *   examples run them.
 * Commands that are the project's own tests, or the user's, are listed with why they are
 * not run here; a command neither run nor listed fails the test.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { startNamedFront, type NamedFront } from '../support/named-front.js';

const KEY = 'Docs-Key_0123456789abcdefXYZ';
const CLI = join(packageRoot, 'bin', 'petstore-conformance.js');
const fixture = (name: string) => readFile(join(packageRoot, 'test', 'fixtures', 'tls', name), 'utf8');

/** Commands not run here, each with why (matched whole, after continuations are joined and comments dropped). */
const NOT_RUN: ReadonlyArray<[RegExp, string]> = [
  [/^npm install$/, 'the install this test runs on (.ci/run installs a clean clone)'],
  [/^(node bin\/petstore-conformance\.js (--help|list)|npm start)$/, 'the quick start: test/unit/docs.test.ts runs it as written'],
  [/^(npm test|npm run (test:slow|docs|bench|mutations|faults|schemas)|npx vitest run .*)$/, "the project's own tests and generators: .ci/run and test/unit/docs.test.ts run them"],
  [/^API_URL=\S+ npm test$/, "the user's own tests, pointed at the proxy"],
];

/** A fenced block of a page: where it starts, its language and its text. */
interface Block {
  where: string;
  lang: string;
  text: string;
}

/** Every fenced block of the README and docs/, indented ones included (a list item's). */
async function blocks(): Promise<Block[]> {
  const pages = ['README.md', ...(await readdir(join(packageRoot, 'docs'))).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];
  const found: Block[] = [];
  for (const page of pages) {
    const lines = (await readFile(join(packageRoot, page), 'utf8')).split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
      if (!open) continue;
      const end = lines.findIndex((line, j) => j > i && line.trim() === '```');
      found.push({ where: `${page}:${i + 1}`, lang: open[2]!, text: lines.slice(i + 1, end).map((line) => line.slice(open[1]!.length)).join('\n') });
      i = end;
    }
  }
  return found;
}

/** A shell block's commands: continuations joined, comments and blank lines dropped. */
function commands(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter(Boolean);
}

let tls: ReferenceServer;
let plain: ReferenceServer;
let front: NamedFront;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tls = await startReferenceServer({ apiKey: KEY, tls: { key: await fixture('docs-key.pem'), cert: await fixture('docs-cert.pem') } });
  plain = await startReferenceServer({ apiKey: KEY });
  front = await startNamedFront(plain.baseUrl, 'localhost', { 443: Number(new URL(tls.baseUrl).port) });
  home = await mkdtemp(join(tmpdir(), 'pcs-docs-'));
  env = {
    PATH: process.env.PATH,
    HOME: home,
    NO_COLOR: '1',
    HTTP_PROXY: front.proxyUrl,
    HTTPS_PROXY: front.proxyUrl,
    NODE_EXTRA_CA_CERTS: join(packageRoot, 'test', 'fixtures', 'tls', 'docs-cert.pem'),
    // The keys the docs' configuration names, all this server's.
    STAGING_API_KEY: KEY,
    PROD_READONLY_KEY: KEY,
    PROD_GATEWAY_KEY: 'gateway-secret-0123456789',
    PETSTORE_API_KEY: KEY,
  };
  // The captures the docs' commands read: a read-only run's own exchanges.
  const capture = await sh(`node ${CLI} run --base-url https://api.example.com/v1 --profile read-only --seed 1 --report-dir capture`, { ...env, PETSTORE_API_KEY: KEY });
  expect(capture.code).toBe(0);
  for (const path of ['capture.har', 'gateway-capture.har', 'Downloads/app.example.com.har']) await cp(join(home, 'capture', 'exchanges.har'), join(home, path));
  // The library's import, as `npm install petstore-conformance` provides it.
  await mkdir(join(home, 'node_modules'));
  await symlink(packageRoot, join(home, 'node_modules', 'petstore-conformance'));
  // The configuration the fleet command names: the one docs/configuration.md shows.
  const configuration = (await blocks()).find((block) => block.where.startsWith('docs/configuration.md') && block.lang === 'yaml')!;
  await writeFile(join(home, 'petstore-conformance.yaml'), configuration.text);
}, 120_000);

afterAll(async () => {
  await Promise.all([tls.close(), plain.close(), front.close()]);
  await rm(home, { recursive: true, force: true });
});

/** Runs `command` under sh in the test's home; `interrupt`, when given, is sent SIGINT once the output matches it. */
function sh(command: string, environment: NodeJS.ProcessEnv, interrupt?: RegExp): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: home, env: environment });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', async (chunk) => {
      stdout += chunk;
      const listening = interrupt?.exec(stdout);
      if (!listening) return;
      interrupt = undefined;
      // One keyed list through the proxy, then Ctrl-C: the reports are written.
      await fetch(`${listening[1]}/categories`, { headers: { authorization: `Bearer ${KEY}` } }).catch(() => undefined);
      child.kill('SIGINT');
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Writes the shards `merge` joins: `run --targets all --shard k/n` of the configuration's fleet, each into its folder, at once. */
async function shards(folders: readonly string[], environment: NodeJS.ProcessEnv): Promise<void> {
  const runs = folders.map((folder, k) => sh(`node ${CLI} run --targets all --config petstore-conformance.yaml --shard ${k + 1}/${folders.length} --report-dir ${folder}`, environment));
  for (const ran of await Promise.all(runs)) expect(ran.code, ran.stdout + ran.stderr).toBe(0);
}

/** A command as it runs here (see the file's header). */
function asRun(command: string): string {
  return command
    .replace(/^(?:node bin\/petstore-conformance\.js|petstore-conformance)\b/, `node ${CLI}`)
    .replace(/ --port 8080\b/, ' --port 0')
    .replace(/(^| )~\//g, `$1${home}/`);
}

const all = await blocks();

describe('every shell command of the docs runs as shipped, and exits as the text says', () => {
  const shell = all.filter((block) => block.lang === 'sh');
  test.concurrent.each(shell.map((block) => [block.where, block] as const))('%s', async (_where, block) => {
    const environment: NodeJS.ProcessEnv = { ...env };
    let last: { code: number; stdout: string; stderr: string } | undefined;
    for (const command of commands(block.text)) {
      if (NOT_RUN.some(([pattern]) => pattern.test(command))) continue;
      const exported = /^export (\w+)=\.\.\.$/.exec(command);
      if (exported) {
        environment[exported[1]!] = KEY;
        continue;
      }
      if (command === 'echo $?') {
        // The doc prints the exit code of the run before it: 0, conformant.
        expect(last?.code, block.where).toBe(0);
        continue;
      }
      const proxy = / proxy /.test(` ${asRun(command)} `);
      const merged = /^(?:\S+ )+merge ((?:reports\/shard-\d )+)/.exec(command);
      if (merged) await shards(merged[1]!.trim().split(' '), environment);
      // exec: Ctrl-C reaches the proxy itself, not the shell that started it.
      last = await sh(`exec ${asRun(command)}`, environment, proxy ? /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/ : undefined);
      const said = `${block.where}: ${command}\n${last.stdout}\n${last.stderr}`;
      expect(last.code, said).toBe(0);
      expect(last.stderr, said).not.toMatch(/^\s+at /m);
      if (/ run /.test(` ${command} `)) expect(last.stdout, said).toMatch(/^(Verdict: CONFORMANT|Fleet: exit 0)/m);
      if (proxy) expect(last.stdout, said).toMatch(/^Reports: /m);
    }
  }, 180_000);

  test('every command is run, or listed with why it is not', () => {
    const unknown = shell.flatMap((block) => commands(block.text).filter((command) => !NOT_RUN.some(([pattern]) => pattern.test(command)) && !/^(export \w+=\.\.\.|echo \$\?|(node bin\/petstore-conformance\.js|petstore-conformance) .+)$/.test(command)).map((command) => `${block.where}: ${command}`));
    expect(unknown).toEqual([]);
    // Near miss: the list leaves the commands a user runs to the test above.
    expect(NOT_RUN.some(([pattern]) => pattern.test('node bin/petstore-conformance.js run --base-url http://localhost:8080/v1'))).toBe(false);
  });
});

/** Appended to each program (which names its outcome `report` and `exitCode`): the evidence of a run that did not pass, on stderr. */
const EVIDENCE_ON_FAILURE = `
if (exitCode !== 0) console.error(JSON.stringify(report.checks.filter((check) => check.status === 'failed' || check.status === 'error'), null, 1));
`;

test('the appended line prints the failed and errored checks of a run that did not pass, and nothing of one that did', () => {
  const checks = [{ id: 'a', status: 'passed' }, { id: 'b', status: 'failed' }, { id: 'c', status: 'error' }, { id: 'd', status: 'skipped' }];
  const printed: string[] = [];
  const run = new Function('report', 'exitCode', 'console', EVIDENCE_ON_FAILURE);
  run({ checks }, 1, { error: (text: string) => printed.push(text) });
  expect(JSON.parse(printed[0]!)).toEqual([checks[1], checks[2]]);
  run({ checks }, 0, { error: (text: string) => printed.push(text) });
  expect(printed).toHaveLength(1);
});

describe('every program of the docs runs as shipped, under node -e and from a file', () => {
  const programs = all.filter((block) => block.lang === 'ts');
  test('the README and docs/library.md each show one', () => expect(programs.map((block) => block.where.split(':')[0])).toEqual(['README.md', 'docs/library.md']));

  test.concurrent.each(programs.flatMap((block) => (['-e', 'file'] as const).map((how) => [`${block.where} (${how})`, block, how] as const)))('%s', async (_name, block, how) => {
    // Types removed as tsc would (a consumer's build), and one line after the program's last
    // that prints, on a run that did not pass, the checks that failed or errored with their
    // evidence: what a failure here is diagnosed from. Nothing the program does is changed.
    const js = ts.transpileModule(block.text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText + EVIDENCE_ON_FAILURE;
    const file = join(home, `${block.where.replace(/\W+/g, '-')}.mjs`);
    await writeFile(file, js);
    const command = how === '-e' ? `node --input-type=module -e "$(cat ${file})"` : `node ${file}`;
    const ended = await sh(command, { ...env, PETSTORE_API_KEY: KEY, STAGING_API_KEY: KEY });
    const said = `${block.where}\n${ended.stdout}\n${ended.stderr}`;
    expect(ended.code, said).toBe(0);
    // No stack trace, nothing said of a failure: the README's prints its verdict, library.md's prints only on a failure.
    expect(ended.stderr, said).toBe('');
    if (block.where.startsWith('README')) expect(ended.stdout.trim(), said).toBe('conformant 0');
  }, 120_000);
});
