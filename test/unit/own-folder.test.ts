/**
 * Report writers refuse a folder another user owns (issue 59): reports written there are
 * theirs to read and replace. The folder asked for is refused before the run; a writer
 * handed one anyway (the library's `reportDir`) writes nothing there and says why.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertOwnFolder, createReportDir } from '../../src/report/report-dir.js';
import { writeReports, writeWhole } from '../../src/report/write.js';
import { withDefaults } from '../../src/config/settings.js';
import { buildReport } from '../../src/report/build.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { foreignFolder } from '../support/foreign-folder.js';

let dir: string;
let foreign: { path: string; owner: number };
const me = process.getuid!();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-own-'));
  foreign = await foreignFolder(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('a folder another user owns', () => {
  test('createReportDir refuses it, naming both users', async () => {
    await expect(createReportDir(foreign.path, { uid: me, cwd: dir })).rejects.toMatchObject({ code: 'EOWNER', message: `${foreign.path} belongs to another user (uid ${foreign.owner}): not this one (uid ${me}), nor the owner of the working directory` });
  });

  test('near miss: the same folder, checked as its owner, is taken', async () => {
    await expect(assertOwnFolder(foreign.path, { uid: foreign.owner, cwd: dir })).resolves.toBeUndefined();
  });

  test('near miss: a folder of the user’s own is created and taken', async () => {
    await expect(createReportDir(join(dir, 'mine', 'r'))).resolves.toBeUndefined();
  });

  test('one checked as another uid than its owner’s is refused (by one)', async () => {
    await expect(assertOwnFolder(dir, { uid: me + 1, cwd: foreign.path })).rejects.toMatchObject({ code: 'EOWNER' });
  });

  test('near miss: one the working directory’s owner owns is taken (a container running as root in a checkout another uid made)', async () => {
    await expect(assertOwnFolder(foreign.path, { uid: me, cwd: foreign.path })).resolves.toBeUndefined();
  });

  test('writeWhole writes nothing there', async () => {
    const before = await readdir(foreign.path);
    await expect(writeWhole(join(foreign.path, 'report.json'), '{}')).rejects.toMatchObject({ code: 'EOWNER' });
    expect(await readdir(foreign.path)).toEqual(before);
  });

  test('writeReports writes no format there, and says why in words', async () => {
    const settings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external' as const, seed: 1, runId: 'abc', userAgent: 'x', profile: 'full' as const, profileSource: 'default' as const };
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 1, checks: [], exchanges: [], created: [], runErrors: [] });
    const { written, failed } = await writeReports(report, [], foreign.path, ['json', 'md'], new Redactor());
    expect(written).toEqual([]);
    expect(failed.map(({ reason }) => reason)).toEqual(['EOWNER: the folder belongs to another user', 'EOWNER: the folder belongs to another user']);
  });

  test('no user ids (Windows): nothing refused', async () => {
    await expect(assertOwnFolder(foreign.path, { uid: null, cwd: dir })).resolves.toBeUndefined();
  });
});
