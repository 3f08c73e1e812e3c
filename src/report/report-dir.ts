import { existsSync } from 'node:fs';
import { mkdir, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, parse, resolve, sep } from 'node:path';

/**
 * Creates a report directory and proves it writable, one path component at a time: a
 * recursive mkdir never returns under `/proc` (Node 20), while each component either
 * exists as a directory, is created, or fails at once.
 * @throws the first file system error (ENOTDIR when a component is a file; EACCES, EROFS,
 *   ENOENT as the system reports them).
 */
export async function createReportDir(dir: string): Promise<void> {
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
  const probe = join(absolute, `.petstore-conformance-${process.pid}`);
  await writeFile(probe, '');
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
