import { existsSync } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

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
