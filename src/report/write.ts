import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { stringify } from 'lossless-json';
import type { Redactor } from '../secrets/redactor.js';
import type { Report } from './model.js';

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
 * Writes report.json into `dir` (created if needed), redacted once more by value as a
 * last line of defence.
 * @returns the paths written.
 * @throws the file system error when the directory cannot be created or written.
 */
export async function writeReport(report: Report, dir: string, redactor: Redactor): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'report.json');
  await writeFile(path, `${stringify(redactor.value(report), null, 2)}\n`);
  return [path];
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
