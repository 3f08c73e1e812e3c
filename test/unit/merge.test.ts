/**
 * merge reads the parts' files as untrusted input (issue 22, section 5): a report of
 * another version is a usage error naming it, a forged headline reaches the terminal
 * escaped, and each target's outcome is recomputed from its own report.
 */
import { lstat, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { buildReport } from '../../src/report/build.js';
import { fleetReport, fleetTarget } from '../../src/report/fleet.js';
import type { CheckResult, Report } from '../../src/report/model.js';
import { mergeFleets } from '../../src/runner/merge.js';

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 1, runId: 'abc', userAgent: 'x', profile: 'full', profileSource: 'default' };

/** A real report: nonconformant (one must check failed) or conformant. */
function report(failed: boolean): Report {
  const check: CheckResult = { id: 'c', title: 'a check', clause: '4.1/R1', level: 'must', requirements: [], status: failed ? 'failed' : 'passed', durationMs: 1, requests: 0 };
  if (failed) check.failure = { message: 'expected 200', request: { method: 'GET', url: 'http://127.0.0.1:9/v1/categories', headers: {} } };
  return buildReport({ settings, startedAt: new Date(0), durationMs: 1, checks: [check], exchanges: [], created: [], runErrors: [] });
}

/** A part folder: fleet.json claiming `claimedExit` for the target `t`, and t/report.json holding `content`. */
async function part(content: unknown, claimedExit: number, durationMs = 1, name = 't'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-merge-'));
  await mkdir(join(dir, name));
  await writeFile(join(dir, name, 'report.json'), JSON.stringify(content));
  const target = fleetTarget(name, report(false), claimedExit, name);
  await writeFile(join(dir, 'fleet.json'), JSON.stringify(fleetReport([target], new Date(0).toISOString(), durationMs)));
  return dir;
}

describe('merge', () => {
  test('a report of another version: exit 2, naming the file and the version found', async () => {
    const dir = await part({ ...report(false), reportVersion: '2.0' }, 0);
    const out = await mkdtemp(join(tmpdir(), 'pcs-merged-'));
    const merging = mergeFleets([dir], out);
    await expect(merging).rejects.toMatchObject({ code: 'PCS_USAGE' });
    await expect(merging).rejects.toThrow(`${join(dir, 't', 'report.json')} is a report of version "2.0"; this tool merges reports of version 1.x`);
  });

  test('a report.json with one violation of its schema: exit 2, naming the file and it', async () => {
    const dir = await part({ ...report(false), verdict: 'fine' }, 0);
    const merging = mergeFleets([dir], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    await expect(merging).rejects.toMatchObject({ code: 'PCS_USAGE' });
    await expect(merging).rejects.toThrow(`${join(dir, 't', 'report.json')} is not a report (schemas/report.schema.json): /verdict must be equal to one of the allowed values`);
  });

  test('a part that claims exit 0 for a nonconformant report: the outcome is the report’s', async () => {
    const dir = await part(report(true), 0);
    const outcome = await mergeFleets([dir], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    expect(outcome.fleet.targets[0]!.exitCode).toBe(1);
    expect(outcome.exitCode).toBe(1);
  });

  test('a failing target’s report of over 5 MB (its failures keep their exchanges) is merged, not refused by the 1 MiB bound of a key file', async () => {
    const big = { ...report(true), notices: Array.from({ length: 6 }, (_, i) => `${i}: ${'x'.repeat(1024 * 1024)}`) };
    const dir = await part(big, 1);
    expect(JSON.stringify(big).length).toBeGreaterThan(5 * 1024 * 1024);
    const outcome = await mergeFleets([dir], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    expect(outcome.exitCode).toBe(1);
  });

  test("the merged fleet lasted as long as its longest part: parts of 0 ms merge to 0 ms", async () => {
    const out = () => mkdtemp(join(tmpdir(), 'pcs-merged-'));
    expect((await mergeFleets([await part(report(false), 0, 0, 'a'), await part(report(false), 0, 0, 'b')], await out())).fleet.durationMs).toBe(0);
    expect((await mergeFleets([await part(report(false), 0, 5, 'a'), await part(report(false), 0, 7, 'b')], await out())).fleet.durationMs).toBe(7);
  });

  test('a fleet.json with one violation of its schema: exit 2, naming it; near miss: the same file whole is merged', async () => {
    const dir = await part(report(false), 0);
    const fleet = JSON.parse(await readFile(join(dir, 'fleet.json'), 'utf8')) as Record<string, unknown>;
    const merging = mergeFleets([dir], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    await expect(merging).resolves.toMatchObject({ exitCode: 0 });
    await writeFile(join(dir, 'fleet.json'), JSON.stringify({ ...fleet, durationMs: 'long' }));
    const broken = mergeFleets([dir], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    await expect(broken).rejects.toMatchObject({ code: 'PCS_USAGE' });
    await expect(broken).rejects.toThrow(`${join(dir, 'fleet.json')} is not a fleet report (schemas/fleet.schema.json): /durationMs must be integer (found string)`);
  });

  test('two parts that report the same target overlap: exit 2, naming both; near miss: two targets, one part each, merge', async () => {
    const [a, b] = [await part(report(false), 0, 1, 't'), await part(report(false), 0, 1, 't')];
    const merging = mergeFleets([a, b], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    await expect(merging).rejects.toMatchObject({ code: 'PCS_USAGE' });
    await expect(merging).rejects.toThrow(`the target t is reported by both ${a} and ${b}: the shards overlap`);
    const merged = await mergeFleets([a, await part(report(false), 0, 1, 'u')], await mkdtemp(join(tmpdir(), 'pcs-merged-')));
    expect(merged.fleet.targets.map((target) => target.name)).toEqual(['t', 'u']);
  });

  test('a forged headline in a report never writes control characters to the terminal', async () => {
    const dir = await part({ ...report(false), headline: 'CONFORMANT\u001b]0;pwned\u0007\u001b[2J' }, 0);
    const lines: string[] = [];
    await mergeFleets([dir], await mkdtemp(join(tmpdir(), 'pcs-merged-')), (line) => lines.push(line));
    const printed = lines.join('\n');
    expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});

describe('fleet target names are safe folder names', async () => {
  const { unsafeFolderName } = await import('../../src/runner/fleet.js');
  test.each([
    ['..', 'it is empty, . or ..'],
    ['.', 'it is empty, . or ..'],
    ['', 'it is empty, . or ..'],
    ['a/b', 'it holds a path separator'],
    ['a\\b', 'it holds a path separator'],
    ['CON', 'it is a device name reserved on Windows'],
    ['nul.txt', 'it is a device name reserved on Windows'],
    ['com1', 'it is a device name reserved on Windows'],
    ['LPT9', 'it is a device name reserved on Windows'],
    ['x.', 'it ends with a dot or a space (dropped on Windows)'],
    ['x ', 'it ends with a dot or a space (dropped on Windows)'],
    ['a:b', 'it holds a control character or one of < > : " | ? * (reserved on Windows)'],
    ['a\u0000b', 'it holds a control character or one of < > : " | ? * (reserved on Windows)'],
    ['x'.repeat(201), 'it is over 200 bytes'],
    ['é'.repeat(100) + 'x', 'it is over 200 bytes'],
  ])('%j is refused: %s', (name, reason) => {
    expect(unsafeFolderName(name)).toBe(reason);
  });
  test.each(['staging', 'eu-west-1', 'prod.v2', 'console', 'a..b', 'x'.repeat(200), 'é'.repeat(100)])('%j is a folder name', (name) => {
    expect(unsafeFolderName(name)).toBeUndefined();
  });
});

/**
 * Links planted in the report folder (issue 59): fleet.json, summary.md and junit.xml are
 * written under new names and renamed into place, so each link is replaced by the report,
 * and the file it pointed at is left as it was.
 */
describe('merge writes through no link planted in its folder', () => {
  test('each of the three files a link: the links become reports, their targets untouched; near miss: a regular file there is replaced alike', async () => {
    const out = await mkdtemp(join(tmpdir(), 'pcs-merged-'));
    const victim = join(await mkdtemp(join(tmpdir(), 'pcs-victim-')), 'precious.txt');
    await writeFile(victim, 'precious');
    for (const file of ['fleet.json', 'summary.md']) await symlink(victim, join(out, file));
    await writeFile(join(out, 'junit.xml'), 'an old report');
    const outcome = await mergeFleets([await part(report(false), 0)], out);
    expect(outcome.exitCode).toBe(0);
    expect(await readFile(victim, 'utf8')).toBe('precious');
    for (const file of ['fleet.json', 'summary.md', 'junit.xml']) expect((await lstat(join(out, file))).isSymbolicLink(), file).toBe(false);
    expect(JSON.parse(await readFile(join(out, 'fleet.json'), 'utf8')).targets).toHaveLength(1);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toMatch(/^<\?xml/);
  });
});
