import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, parse, resolve, sep } from 'node:path';

/** Who may own a report folder: the user the tool runs as, and the owner of its working directory. */
export interface FolderUsers {
  /** The user the tool runs as (`process.getuid()`); null where there are no user ids (Windows): nothing is refused. */
  uid: number | null;
  /** The working directory: its owner's folders are the user's too (a CI job's container running as root in a checkout another uid made). */
  cwd: string;
}

/** The users of this process, now. */
const running = (): FolderUsers => ({ uid: process.getuid?.() ?? null, cwd: process.cwd() });

/**
 * Refuses a folder another user owns: reports written there are theirs to read, and to
 * replace (issue 59). Its owner may be the user the tool runs as or the owner of the
 * working directory, and no one else.
 * @throws Error with code `EOWNER` naming the owner's uid; the file system error of `stat`.
 */
export async function assertOwnFolder(dir: string, users: FolderUsers = running()): Promise<void> {
  if (users.uid === null) return;
  const owner = (await stat(dir)).uid;
  if (owner === users.uid || owner === (await stat(users.cwd).catch(() => undefined))?.uid) return;
  throw Object.assign(new Error(`${dir} belongs to another user (uid ${owner}): not this one (uid ${users.uid}), nor the owner of the working directory`), { code: 'EOWNER' });
}

/**
 * Creates a report directory and proves it writable and the user's own, one path component
 * at a time: a recursive mkdir never returns under `/proc` (Node 20), while each component
 * either exists as a directory, is created, or fails at once.
 * @param users who may own it ({@link assertOwnFolder}).
 * @throws the first file system error (ENOTDIR when a component is a file; EACCES, EROFS,
 *   ENOENT as the system reports them); EOWNER when another user owns the directory.
 */
export async function createReportDir(dir: string, users: FolderUsers = running()): Promise<void> {
  const absolute = resolve(dir);
  const { root } = parse(absolute);
  let path = root;
  // Bounded by the path's depth.
  for (const part of absolute.slice(root.length).split(sep).filter(Boolean)) {
    path = join(path, part);
    try {
      await mkdir(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!(await stat(path)).isDirectory()) throw Object.assign(new Error(`${path} is not a directory`), { code: 'ENOTDIR' });
    }
  }
  await assertOwnFolder(absolute, users);
  const probe = join(absolute, `.petstore-conformance-${process.pid}`);
  // Created new: a link planted under the probe's name is not followed.
  await writeFile(probe, '', { flag: 'wx' });
  await unlink(probe);
}

/**
 * The default report directory: `reports/<UTC timestamp>` under `cwd`, with a suffix when
 * a run in the same second already took the name.
 */
export function defaultReportDir(cwd: string, now: Date): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  let dir = resolve(cwd, 'reports', stamp);
  for (let n = 2; existsSync(dir); n++) dir = resolve(cwd, 'reports', `${stamp}-${n}`);
  return dir;
}

/** A run's folder as {@link defaultReportDir} names it: `2026-11-27T13-40-02Z`, `…Z-2`. */
const RUN_FOLDER = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z(-\d+)?$/;

/**
 * Removes the oldest runs' folders of `parent` (`reports/`) beyond the newest `keep`: only
 * folders named as {@link defaultReportDir} names them (their names sort as their times),
 * never `latest`, a README or a folder of the user's. A folder that cannot be removed is
 * left (best effort: the run's own reports matter more).
 * @returns the names removed, oldest first.
 */
export async function pruneRuns(parent: string, keep: number): Promise<string[]> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const runs = entries.filter((entry) => entry.isDirectory() && RUN_FOLDER.test(entry.name)).map((entry) => entry.name).sort();
  const removed = runs.slice(0, Math.max(0, runs.length - keep));
  for (const name of removed) await rm(join(parent, name), { recursive: true, force: true }).catch(() => {});
  return removed;
}

/**
 * Points `<parent>/latest` at `dir` (a relative symlink). Best effort: a file system
 * without symlinks leaves no link and no error.
 */
export async function linkLatest(dir: string): Promise<void> {
  const link = join(dirname(dir), 'latest');
  try {
    await rm(link, { force: true, recursive: false });
    await symlink(basename(dir), link, 'dir');
  } catch {
    // Symlinks may be unavailable (some Windows setups); the timestamped directory remains.
  }
}

/**
 * Where a run's reports went, for the console: one line per folder naming its files, and
 * the page to open last (`Reports: DIR (report.json, junit.xml, …)`, `Open DIR/report.html`);
 * nothing when nothing was written.
 * @param written the paths written, in order.
 */
export function writtenLines(written: readonly string[]): string[] {
  const byFolder = new Map<string, string[]>();
  for (const path of written) {
    const folder = dirname(path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), basename(path)]);
  }
  const page = written.find((path) => basename(path) === 'report.html');
  return [...[...byFolder].map(([folder, files]) => `Reports: ${folder} (${files.join(', ')})`), ...(page ? [`Open ${page}`] : [])];
}
