/**
 * Twins (issue 47): every flag and usage rule that more than one command takes, run on each
 * of those commands. A rule held on `run` alone let `proxy --client-cert` without
 * `--client-key` through; colour tested on `judge` alone let `run` colour a pipe. One table,
 * one row per rule, each row on every command that takes it: each must end the same way.
 */
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/report/verdict.js';
import { cli } from '../support/cli-in-process.js';
import { BASE, entry, writeHar } from '../support/har.js';
import { foreignFolder } from '../support/foreign-folder.js';

type Command = 'run' | 'judge' | 'proxy' | 'merge';

let dir: string;
let har: string;
let file: string;
let foreign: { path: string; owner: number };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-twins-'));
  har = await writeHar(dir, 'one.har', [entry({ status: 200, responseBody: '[]' })]);
  file = join(dir, 'a-file');
  await writeFile(file, 'not a folder\n');
  foreign = await foreignFolder(dir);
  await symlink(file, join(dir, 'link.har'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Each command as the rows start it: nothing reachable, nothing written but under `dir`. */
const START: Record<Command, () => string[]> = {
  run: () => ['run', '-u', 'http://127.0.0.1:9/v1'],
  judge: () => ['judge', har, '-u', BASE],
  proxy: () => ['proxy', '-u', 'http://127.0.0.1:9/v1', '--port', '0'],
  merge: () => ['merge', dir],
};

/** Runs `command` with `args`. A proxy gets an interrupt already given: one that wrongly passes a rule stops as soon as it listens. */
const on = (command: Command, args: string[], options: { env?: NodeJS.ProcessEnv; tty?: boolean } = {}) =>
  cli([...START[command](), ...args], { cwd: dir, env: { PETSTORE_API_KEY: 'twins-key-0123456789', ...options.env }, ...(options.tty ? { tty: true } : {}), ...(command === 'proxy' ? { interrupt: AbortSignal.abort('SIGINT') } : {}) });

/** The usage rules: the flags, the commands that take them, and the one line each must end with (exit 2). */
const RULES: Array<{ rule: string; commands: Command[]; args: () => string[]; line: () => string }> = [
  { rule: '--client-cert without --client-key', commands: ['run', 'proxy'], args: () => ['--client-cert', file], line: () => '--client-cert and --client-key go together: give both, or neither' },
  { rule: '--client-key without --client-cert', commands: ['run', 'proxy'], args: () => ['--client-key', file], line: () => '--client-cert and --client-key go together: give both, or neither' },
  { rule: '--ca-file that does not exist', commands: ['run', 'proxy'], args: () => ['--ca-file', join(dir, 'no-such.pem')], line: () => `cannot read the CA file ${join(dir, 'no-such.pem')}: ENOENT` },
  { rule: '--max-response-bytes one below its range', commands: ['run', 'judge', 'proxy'], args: () => ['--max-response-bytes', '1023'], line: () => "option '--max-response-bytes <bytes>' argument '1023' is invalid. expected an integer from 1024 to 268435456 (bytes). (see --help)" },
  { rule: '--max-response-bytes one above its range', commands: ['run', 'judge', 'proxy'], args: () => ['--max-response-bytes', '268435457'], line: () => "option '--max-response-bytes <bytes>' argument '268435457' is invalid. expected an integer from 1024 to 268435456 (bytes). (see --help)" },
  { rule: '--min-must-checks 0', commands: ['run', 'judge', 'proxy'], args: () => ['--min-must-checks', '0'], line: () => "option '--min-must-checks <n>' argument '0' is invalid. expected an integer from 1 to 1000 (checks), or all or profile. (see --help)" },
  { rule: '--format of no such format', commands: ['run', 'judge', 'proxy'], args: () => ['--format', 'xml'], line: () => "option '--format <formats>' argument 'xml' is invalid. expected some of json, junit, html, md, har, comma-separated. (see --help)" },
  { rule: '--known-failures that does not exist', commands: ['run', 'judge', 'proxy'], args: () => ['--known-failures', join(dir, 'no-such.yaml')], line: () => `cannot read the known-failures file ${join(dir, 'no-such.yaml')}: ENOENT` },
  { rule: '--header-env without a variable', commands: ['run', 'judge', 'proxy'], args: () => ['--header-env', 'X-Tenant'], line: () => "option '--header-env <name=VARIABLE>' argument 'X-Tenant' is invalid. expected text matching ^[!#$%&'*+.^_`|~0-9A-Za-z-]+=[A-Za-z_][A-Za-z0-9_]*$. (see --help)" },
  { rule: '--report-dir that is a file', commands: ['run', 'judge', 'proxy', 'merge'], args: () => ['--report-dir', file], line: () => `cannot create the report directory ${file}: ENOTDIR` },
  { rule: '--har that is a symbolic link (issue 59)', commands: ['proxy'], args: () => ['--har', join(dir, 'link.har')], line: () => `the HAR file ${join(dir, 'link.har')} is a symbolic link: name the file itself` },
  { rule: '--report-dir another user owns (issue 59)', commands: ['run', 'judge', 'proxy', 'merge'], args: () => ['--report-dir', foreign.path], line: () => `cannot use the report directory: ${foreign.path} belongs to another user (uid ${foreign.owner}): not this one (uid ${process.getuid!()}), nor the owner of the working directory` },
];

describe.each(RULES)('$rule', ({ commands, args, line }) => {
  test.each(commands)('on %s: exit 2, one line', async (command) => {
    const { code, stderr } = await on(command, args());
    expect([code, stderr.trimEnd().split('\n').at(-1)]).toEqual([EXIT.usage, `petstore-conformance: error: ${line()}`]);
  });
});

test('the file a refused --har link points at is left as it was', async () => {
  await on('proxy', ['--har', join(dir, 'link.har')]);
  expect(await readFile(file, 'utf8')).toBe('not a folder\n');
});

describe('colour, the same on run, judge and proxy: a terminal or FORCE_COLOR colours, NO_COLOR and --no-color do not, a pipe does not', () => {
  /** Each case: the environment, whether stdout is a terminal, extra flags, and whether colour is expected. */
  const CASES: Array<[string, NodeJS.ProcessEnv, boolean, string[], boolean]> = [
    ['a terminal', {}, true, [], true],
    ['near miss: a pipe', {}, false, [], false],
    ['FORCE_COLOR on a pipe', { FORCE_COLOR: '1' }, false, [], true],
    ['NO_COLOR on a terminal', { NO_COLOR: '1' }, true, [], false],
    ['--no-color on a terminal', {}, true, ['--no-color'], false],
  ];
  const commands: Command[] = ['run', 'judge', 'proxy'];
  test.each(commands.flatMap((command) => CASES.map(([what, env, tty, flags, coloured]) => [command, what, env, tty, flags, coloured] as const)))('%s, %s', async (command, _what, env, tty, flags, coloured) => {
    // run: the probe alone (no check chosen), which still prints a coloured verdict.
    const extra = command === 'run' ? ['--checks', '^nothing$', '--format', 'json'] : [];
    const { stdout } = await on(command, [...extra, '--report-dir', join(dir, `colour-${command}`), ...flags], { env, tty });
    // Colour is SGR (`ESC[…m`); a terminal's status line erases with `ESC[2K`, which is no colour.
    expect(/\u001b\[[\d;]*m/.test(stdout), stdout).toBe(coloured);
  });
});
