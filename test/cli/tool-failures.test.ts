/**
 * Exit 1 means a must check failed, and nothing else (issue 22, section 1): the tool's own
 * failures (a worker that throws, a promise nobody awaits, file descriptors or memory run
 * out, a report that cannot be written) end with one line naming the cause, never exit 1,
 * and the verdict, when one was reached, is never lost to a failed write.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { unwrapped } from '../support/cli-child.js';
import { mapBounded } from '../support/targets.js';

const BIN = fileURLToPath(new URL('../../bin/petstore-conformance.js', import.meta.url));

/** Fails the run where `PCS_FAIL` says: loaded into the CLI and into the suite's worker (NODE_OPTIONS reaches both). */
const PRELOAD = `
import { isMainThread } from 'node:worker_threads';
const mode = process.env.PCS_FAIL;
if (mode === 'worker-load' && !isMainThread) throw new Error('thrown at load');
if (mode === 'worker-throw' && !isMainThread) setTimeout(() => { throw new Error('thrown in a check'); }, 300);
if (mode === 'worker-reject' && !isMainThread) setTimeout(() => void Promise.reject(new Error('a rejection nobody awaits')), 300);
if (mode === 'main-reject' && isMainThread) setTimeout(() => void Promise.reject(new Error('a rejection nobody awaits')), 300);
`;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
}

/** Runs the CLI against its embedded server under bash (for `ulimit`), with `env` added. */
async function runCli(ulimit: string, env: Record<string, string> = {}): Promise<Ended> {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-fail-'));
  const child = spawn('bash', ['-c', `${ulimit ? `ulimit ${ulimit}; ` : ''}exec "$0" "$1" run --report-dir "$2"`, process.execPath, BIN, join(dir, 'r')], {
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr, dir: join(dir, 'r') };
}

describe('failures of the tool itself: exit 3 with the cause, never exit 1', async () => {
  const preload = join(await mkdtemp(join(tmpdir(), 'pcs-preload-')), 'fail.mjs');
  await writeFile(preload, PRELOAD);
  const cases = [
    { name: 'the worker throws at load', ulimit: '', mode: 'worker-load', line: /the tool failed: the suite's worker failed: thrown at load/ },
    { name: 'a check throws where nobody catches', ulimit: '', mode: 'worker-throw', line: /thrown in a check/ },
    { name: 'a promise in the worker nobody awaits', ulimit: '', mode: 'worker-reject', line: /a rejection nobody awaits/ },
    { name: 'a promise in the CLI nobody awaits', ulimit: '', mode: 'main-reject', line: /the tool failed: a rejection nobody awaits/ },
    { name: 'file descriptors exhausted (ulimit -n 40)', ulimit: '-n 40', mode: '', line: /too many open files: raise ulimit -n or lower --connections/, notRun: true },
    // Too few even to load the tool's own modules: once, this ended with exit 0 and nothing printed.
    { name: 'file descriptors exhausted before the tool loaded (ulimit -n 24)', ulimit: '-n 24', mode: '', line: /^petstore-conformance: the tool failed: it could not load: too many open files: raise ulimit -n$/m },
    { name: 'memory for the HTTP parser refused (ulimit -v 4000000)', ulimit: '-v 4000000', mode: '', line: /out of memory reserving the HTTP parser \(WebAssembly\): raise ulimit -v/, notRun: true },
  ];
  const ended = await mapBounded(cases, 2, (c) => runCli(c.ulimit, c.mode ? { PCS_FAIL: c.mode, NODE_OPTIONS: `--import ${preload}` } : {}));

  test.each(cases.map((c, i) => [c.name, c, ended[i]!] as const))('%s', async (_name, { line, notRun }, { code, stdout, stderr, dir }) => {
    expect(code).toBe(3);
    // The words as they read: the console wraps a long verdict at 100 columns off a terminal, its continuation lines indented.
    expect(`${unwrapped(stdout)}\n${stderr}`).toMatch(line);
    expect(stderr, 'no stack trace').not.toMatch(/^\s+at /m);
    // Said once, on stderr; on stdout at most the verdict says it, and no check line repeats it.
    expect(stderr.match(/the tool failed/g), stderr).toHaveLength(1);
    expect((stdout.match(/the tool failed/g) ?? []).length, stdout).toBeLessThanOrEqual(1);
    expect(stdout).not.toMatch(/error: RunStopped/);
    // Where checks had started, each is folded into one line: not run, for the failure said above. Where the
    // limit is met sooner (how soon depends on the machine's pace: the preflight's connections, the worker's files), the verdict says the suite did not run.
    if (notRun) expect(unwrapped(stdout)).toMatch(/^ {2}- \d+ checks skipped: not run: the run stopped on a failure of the tool \(said on stderr\)$|^Verdict: .*ERROR: the run had errors: the suite did not run: the tool failed: /m);
    // Where the report could be written, it says what ran, with verdict error.
    const files = await readdir(dir).catch((): string[] => []);
    if (files.includes('report.json')) expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).verdict).toBe('error');
  });
});

describe('reports that cannot be written', () => {
  test('a file size limit (ulimit -f, EFBIG): the verdict first, one line per report not written, the verdict\'s exit code, no partial file', async () => {
    const { code, stdout, stderr, dir } = await runCli('-f 64');
    expect(code).toBe(0);
    expect(stdout).toMatch(/Verdict: SELF-TEST \(embedded reference server\): CONFORMANT/);
    expect(stderr).toMatch(/could not write \S+exchanges\.har: EFBIG: the file would exceed the size limit \(ulimit -f\)/);
    expect(stderr).toMatch(/the reports are incomplete \(\d of 5 not written\); the verdict above stands/);
    // Every file left is whole; no temporary file stays behind.
    const files = await readdir(dir);
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
    expect(files).not.toContain('exchanges.har');
    for (const file of files.filter((name) => name.endsWith('.json'))) JSON.parse(await readFile(join(dir, file), 'utf8'));
    expect(files).toContain('summary.md');
  });
});
