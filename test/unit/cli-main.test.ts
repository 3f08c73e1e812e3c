/**
 * The command line's own decisions (src/cli/main.ts), in this process: the key refused on
 * argv, exit codes of help, usage errors and the tool's own failures, ports at their
 * bounds, the report folder's fallback, the traffic commands' required flags, `serve`'s
 * key, and colour. The slow tier runs the CLI as a process for every exit path.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import escapeStringRegexp from 'escape-string-regexp';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/report/verdict.js';
import { BASE, entry, writeHar } from '../support/har.js';
import { cli as inProcess } from '../support/cli-in-process.js';

let dir: string;
let har: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-cli-main-'));
  har = await writeHar(dir, 'one.har', [entry({ status: 200, responseBody: '[]' })]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the CLI in this process, in the test's folder unless `cwd` says otherwise. */
const cli = (argv: string[], options: Omit<Parameters<typeof inProcess>[1], 'cwd'> & { cwd?: string } = {}) => inProcess(argv, { cwd: dir, ...options });

const stopped = () => AbortSignal.abort('SIGINT');

describe('the key is never taken on the command line', () => {
  test.each([['--api-key', 'k3y-on-argv'], ['--api-key=k3y-on-argv'], ['run', '--api-key', 'k3y-on-argv']])('%s: exit 2, the way that works, the key not echoed', async (...argv) => {
    const { code, stderr } = await cli(argv);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('the API key is never taken on the command line');
    expect(stderr).toContain('--api-key-env NAME (default PETSTORE_API_KEY) or --api-key-file FILE');
    expect(stderr).not.toContain('k3y-on-argv');
  });

  test('--api-key-env and --api-key-file are not mistaken for it', async () => {
    const { stderr } = await cli(['run', '--api-key-env', 'NOT_SET_ANYWHERE', '--api-key-file', join(dir, 'absent')]);
    expect(stderr).not.toContain('never taken on the command line');
  });
});

describe('a stray word gets a hint: what was likely meant (cli/stray-words.ts)', () => {
  test.each([
    [['run', 'http://127.0.0.1:9/v1'], "unexpected argument 'http://127.0.0.1:9/v1': did you mean --base-url http://127.0.0.1:9/v1?"],
    [['https://api.example/v1'], "unexpected argument 'https://api.example/v1': did you mean --base-url https://api.example/v1?"],
    [['rn'], "unknown command 'rn': did you mean run?"],
    [['lst'], "unknown command 'lst': did you mean list?"],
    [['JUDG'], "unknown command 'JUDG': did you mean judge?"],
    // Near misses: a third of the word's length is the most a typo may differ (at least 1).
    [['serv'], "unknown command 'serv': did you mean serve?"],
    [['xy'], "unexpected argument 'xy': run takes options only (commands: run, list, merge, judge, proxy, replay, serve)"],
    [['proxys'], "unknown command 'proxys': did you mean proxy?"],
    [['prxies'], "unexpected argument 'prxies': run takes options only (commands: run, list, merge, judge, proxy, replay, serve)"],
    [['api.example/v1'], "unexpected argument 'api.example/v1': run takes options only (commands: run, list, merge, judge, proxy, replay, serve)"],
  ])('%j: exit 2, one line', async (argv, line) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe(`petstore-conformance: error: ${line}\n`);
    expect(stdout).toBe('');
  });
});

describe('exit codes of commander', () => {
  test.each([[['--help']], [['--version']], [['help']], [['run', '--help']]])('%j exits 0', async (argv) => {
    const { code, stdout } = await cli(argv);
    expect(code).toBe(0);
    expect(stdout).not.toBe('');
  });

  test('an unknown flag exits 2 with one line that points to --help', async () => {
    const { code, stderr } = await cli(['run', '--no-such-flag']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe("petstore-conformance: error: unknown option '--no-such-flag' (see --help)\n");
  });

  test('an unknown command exits 2', async () => {
    expect((await cli(['jduge', har])).code).toBe(EXIT.usage);
  });
});

describe('the tool’s own failure is exit 3, never 1', () => {
  /** A stdout whose writes throw `error`. */
  const throwing = (error: Error) => Object.assign(new PassThrough(), { write: () => { throw error; } });

  test('an internal error: one line naming it, no stack unless PETSTORE_CONFORMANCE_DEBUG is set', async () => {
    const quiet = await cli(['list'], { stdout: throwing(new Error('the writer broke')) });
    expect(quiet.code).toBe(EXIT.error);
    expect(quiet.stderr).toBe('petstore-conformance: internal error: the writer broke\n');
    const debug = await cli(['list'], { stdout: throwing(new Error('the writer broke')), env: { PETSTORE_CONFORMANCE_DEBUG: '1' } });
    expect(debug.stderr).toMatch(/^petstore-conformance: internal error: the writer broke\nError: the writer broke\n\s+at /);
  });

  test('exhausted resources are named as such', async () => {
    const emfile = Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
    const { code, stderr } = await cli(['list'], { stdout: throwing(emfile) });
    expect(code).toBe(EXIT.error);
    expect(stderr).toBe('petstore-conformance: the tool failed: too many open files: raise ulimit -n or lower --connections\n');
  });
});

describe('ports', () => {
  test.each(['-1', '65536', '1.5', '', ' ', 'http'])('serve --port %j is a usage error', async (value) => {
    const { code, stderr } = await cli(['serve', '--port', value], { interrupt: stopped() });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('expected a port, 0 to 65535.');
  });

  test.each(['0', '65535'])('serve --port %s listens', async (value) => {
    const { code, stdout } = await cli(['serve', '--port', value], { interrupt: stopped() });
    expect(code).toBe(0);
    expect(stdout).toMatch(value === '0' ? /^Reference server listening on http:\/\/127\.0\.0\.1:\d+\/v1\n/ : /127\.0\.0\.1:65535\/v1/);
  });

  test('a port in use is a usage error naming the address', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const { code, stderr } = await cli(['serve', '--port', String(port)], { interrupt: stopped() });
      expect(code).toBe(EXIT.usage);
      expect(stderr).toBe(`petstore-conformance: error: cannot listen on 127.0.0.1:${port}: EADDRINUSE\n`);
    } finally {
      taken.close();
    }
  });
});

describe('serve’s key', () => {
  test('generated and printed with the line that exports it, when its variable is unset or empty', async () => {
    for (const env of [{}, { SERVE_KEY: '' }]) {
      const { stdout } = await cli(['serve', '--port', '0', '--api-key-env', 'SERVE_KEY'], { interrupt: stopped(), env });
      const key = /API key \(generated\): (\S+)\n/.exec(stdout)?.[1];
      expect(key).toBeDefined();
      expect(stdout).toContain(`export SERVE_KEY=${key}\n`);
    }
  });

  test('read from its variable, and then never printed', async () => {
    const { stdout } = await cli(['serve', '--port', '0'], { interrupt: stopped(), env: { PETSTORE_API_KEY: 'a-key-of-my-own' } });
    expect(stdout).toContain('API key: from PETSTORE_API_KEY\n');
    expect(stdout).not.toContain('a-key-of-my-own');
  });
});

describe('the traffic commands', () => {
  test('judge without a base URL is a usage error naming the flag', async () => {
    const { code, stderr } = await cli(['judge', har, '--report-dir', '-']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe("petstore-conformance: error: required option '-u, --base-url <url>' not specified\n");
  });

  test.each([[{}], [{ CAPTURE_KEY: '' }]])('--api-key-env naming a variable unset or empty (%j) is a usage error', async (env) => {
    const { code, stderr } = await cli(['judge', har, '-u', BASE, '--api-key-env', 'CAPTURE_KEY', '--report-dir', '-'], { env });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe('petstore-conformance: error: --api-key-env CAPTURE_KEY: the variable is not set\n');
  });

  test('colour: off a terminal none; on one, or with FORCE_COLOR, some; NO_COLOR and --no-color win', async () => {
    const coloured = async (env: NodeJS.ProcessEnv, tty: boolean, ...flags: string[]) => /\u001b\[/.test((await cli(['judge', har, '-u', BASE, '--report-dir', '-', ...flags], { env, tty })).stdout);
    expect(await coloured({}, false)).toBe(false);
    expect(await coloured({}, true)).toBe(true);
    expect(await coloured({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(await coloured({ NO_COLOR: '1' }, true)).toBe(false);
    expect(await coloured({}, true, '--no-color')).toBe(false);
  });
});

describe('the report folder', () => {
  test('the default keeps the newest 10 runs (--keep-reports): older runs go, nothing else in reports/ does', async () => {
    const here = await mkdtemp(join(dir, 'keep-'));
    const reports = join(here, 'reports');
    const old = Array.from({ length: 11 }, (_, i) => `2020-01-01T00-00-${String(i).padStart(2, '0')}Z`);
    for (const name of [...old, 'mine']) await mkdir(join(reports, name), { recursive: true });
    await writeFile(join(reports, 'README.md'), 'kept');
    expect((await cli(['judge', har, '-u', BASE], { cwd: here })).code).toBe(0);
    // 11 old and the new one: the two oldest go (10 kept); the user's folder and file stay.
    const left = (await readdir(reports)).sort();
    expect(left).toEqual([...old.slice(2), left.find((name) => name.startsWith('20') && !old.includes(name))!, 'README.md', 'mine'].sort());
    // --keep-reports 1: the new one alone.
    expect((await cli(['judge', har, '-u', BASE, '--keep-reports', '1'], { cwd: here })).code).toBe(0);
    expect((await readdir(reports)).filter((name) => name.startsWith('20'))).toHaveLength(1);
    // A folder asked for is never pruned around.
    expect((await cli(['judge', har, '-u', BASE, '--keep-reports', '1', '--report-dir', join(reports, 'mine', 'x')], { cwd: here })).code).toBe(0);
    expect((await readdir(reports)).filter((name) => name.startsWith('20'))).toHaveLength(1);
  });

  test.each(['judge', 'proxy'])('%s --report-dir - writes no folder, here or anywhere; near miss: --report-dir out writes one', async (command) => {
    const here = await mkdtemp(join(dir, `${command}-none-`));
    const args = command === 'judge' ? ['judge', har, '-u', BASE] : ['proxy', '-u', BASE, '--port', '0'];
    // The proxy is stopped at once: nothing judged, exit 3, and its reports written all the same.
    const options = () => (command === 'proxy' ? { cwd: here, interrupt: stopped() } : { cwd: here });
    const exit = command === 'proxy' ? EXIT.error : EXIT.conformant;
    expect((await cli([...args, '--report-dir', '-'], options())).code).toBe(exit);
    expect(await readdir(here)).toEqual([]);
    expect((await cli([...args, '--report-dir', 'out'], options())).code).toBe(exit);
    expect(await readdir(here)).toEqual(['out']);
  });

  test('a folder asked for that cannot be created is a usage error', async () => {
    const file = join(dir, 'a-file');
    await writeFile(file, '');
    const { code, stderr } = await cli(['judge', har, '-u', BASE, '--report-dir', join(file, 'reports')]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toBe(`petstore-conformance: error: cannot create the report directory ${join(file, 'reports')}: ENOTDIR\n`);
  });

  test('the default, here, or in the temporary folder when here is not writable (said in one line)', async () => {
    const here = await mkdtemp(join(dir, 'here-'));
    expect((await cli(['judge', har, '-u', BASE], { cwd: here })).stderr).toBe('');
    expect(await readdir(join(here, 'reports'))).toHaveLength(1);

    const file = join(dir, 'not-a-folder');
    await writeFile(file, '');
    const { code, stderr } = await cli(['judge', har, '-u', BASE], { cwd: file });
    expect(code).toBe(0);
    expect(stderr).toMatch(new RegExp(`^petstore-conformance: ${file} is not writable; the reports go to ${join(tmpdir(), 'petstore-conformance-')}\\w{6}\n$`));
    // Made fresh, and the user's alone: no other user made it first, or can read it (issue 59).
    const fallback = stderr.trim().split(' ').at(-1)!;
    expect((await stat(fallback)).mode & 0o777).toBe(0o700);
    // Near miss: a second run gets a folder of its own, not the first's.
    const again = (await cli(['judge', har, '-u', BASE], { cwd: file })).stderr.trim().split(' ').at(-1)!;
    expect(again).not.toBe(fallback);
    await Promise.all([fallback, again].map((folder) => rm(folder, { recursive: true, force: true })));
  });
});

describe('run’s own refusals', () => {
  test('--shard without --targets slices nothing: a usage error', async () => {
    const { code, stderr } = await cli(['run', '--shard', '1/2']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('--shard slices a fleet: give --targets all (or names) with it');
  });

  test('a fleet to --report-dir - is a usage error: a fleet writes a folder per target', async () => {
    const { code, stderr } = await cli(['run', '--targets', 'all', '--report-dir', '-']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('a fleet writes a folder per target: --report-dir - is for one target');
  });
});

describe('list', () => {
  test('--variations with --format json lists the request variations; without json, the checks', async () => {
    const variations = JSON.parse((await cli(['list', '--format', 'json', '--variations'])).stdout) as Array<{ kind: string }>;
    expect(variations[0]).toHaveProperty('kind');
    const checks = JSON.parse((await cli(['list', '--format', 'json'])).stdout) as Array<{ id: string }>;
    expect(checks[0]).toHaveProperty('id');
    const table = await cli(['list', '--variations']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(checks[0]!.id);
  });

  test('by default it fits 80 columns: each check\'s id, clause and level on a line, its title whole below it', async () => {
    const { stdout } = await cli(['list']);
    const checks = JSON.parse((await cli(['list', '--format', 'json'])).stdout) as Array<{ id: string; clause: string; level: string; title: string }>;
    for (const line of stdout.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    // The words of each title, as wrapped below its row, read back whole.
    const unwrapped = stdout.replace(/\n {4}/g, ' ');
    for (const check of checks) expect(unwrapped).toMatch(new RegExp(`^${escapeStringRegexp(check.id)} +${escapeStringRegexp(check.clause)} +${check.level} ${escapeStringRegexp(check.title)}$`, 'm'));
    expect(stdout).toContain('--wide prints every column on one line');
    expect(stdout).not.toContain('REQUIREMENTS');
  });

  test('--wide, the whole table: every column but the last padded to its widest cell, so the last starts at one place', async () => {
    const lines = (await cli(['list', '--wide'])).stdout.split('\n');
    const header = lines.findIndex((line) => line.startsWith('ID  ') && line.endsWith('REQUIREMENTS'));
    const rows = lines.slice(header + 1, lines.indexOf('', header));
    const last = lines[header]!.indexOf('REQUIREMENTS');
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) expect([row, row.slice(last - 2, last + 1)]).toEqual([row, expect.stringMatching(/^ {2}\S$/)]);
  });
});

describe('--report-dir -: one report, to stdout', () => {
  test('with one format, the report is stdout and the console goes to stderr; near miss: two formats are a usage error', async () => {
    const one = await cli(['run', '--checks', '^nothing$', '--report-dir', '-', '--format', 'json']);
    expect(one.code).not.toBe(EXIT.usage);
    expect(JSON.parse(one.stdout).verdict).toBeDefined();
    expect(one.stderr).toContain('Verdict:');
    const two = await cli(['run', '--checks', '^nothing$', '--report-dir', '-', '--format', 'json,html']);
    expect([two.code, two.stderr.trimEnd().split('\n').at(-1)]).toEqual([EXIT.usage, 'petstore-conformance: error: a report goes to stdout alone: --report-dir - takes exactly one --format (json, junit, html, md or har)']);
  });
});

describe('proxy --answer-deadline: whole seconds, 1 to 3600', () => {
  // A bad --port after it stops the command once the deadline was read: what is said names the first bad flag.
  test.each([
    ['1', /--port/],
    ['3600', /--port/],
    ['0', /--answer-deadline.*whole seconds, 1 to 3600/],
    ['3601', /--answer-deadline.*whole seconds, 1 to 3600/],
    ['1.5', /--answer-deadline.*whole seconds, 1 to 3600/],
  ])('%s: the error names %s', async (deadline, named) => {
    const { code, stderr } = await cli(['proxy', '-u', 'http://127.0.0.1:9/v1', '--answer-deadline', deadline, '--port', '70000']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(named);
  });
});

describe('proxy --port: 0 to 65535', () => {
  test.each([
    ['0', /--answer-deadline/],
    ['65535', /--answer-deadline/],
    ['65536', /--port.*a port, 0 to 65535/],
    ['-1', /--port.*a port, 0 to 65535/],
  ])('%s: the error names %s', async (port, named) => {
    const { code, stderr } = await cli(['proxy', '-u', 'http://127.0.0.1:9/v1', '--port', port, '--answer-deadline', '0']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(named);
  });
});

describe('judge --api-key-env: the key read from the variable named', () => {
  test('set: the capture is judged with it (a request with the key is valid); empty or unset: exit 2, said', async () => {
    const har = await writeHar(dir, 'key-env.har', [entry({ status: 200, responseBody: '[]' })]);
    const judged = await cli(['judge', har, '-u', BASE, '--api-key-env', 'MY_JUDGE_KEY', '--report-dir', '-', '--format', 'json'], { env: { MY_JUDGE_KEY: 'some-key-of-the-capture-0123' } });
    expect(judged.code).toBe(EXIT.conformant);
    for (const env of [{ MY_JUDGE_KEY: '' }, {}]) {
      const refused = await cli(['judge', har, '-u', BASE, '--api-key-env', 'MY_JUDGE_KEY'], { env });
      expect(refused.code).toBe(EXIT.usage);
      expect(refused.stderr).toContain('--api-key-env MY_JUDGE_KEY: the variable is not set');
    }
  });
});
