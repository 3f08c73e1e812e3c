import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { stringify } from 'lossless-json';
import type { Redactor } from '../secrets/redactor.js';
import type { Exchange } from '../http/exchange.js';
import { renderHar } from './har.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import type { Report } from './model.js';
import { renderSummary } from './summary-md.js';

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

/** The report formats, by the name `--format` takes, with their file and renderer. */
export const FORMATS = {
  json: { file: 'report.json', render: (report: Report) => `${stringify(report, null, 2)}\n` },
  junit: { file: 'junit.xml', render: (report: Report) => renderJunit(report) },
  html: { file: 'report.html', render: (report: Report) => renderHtml(report) },
  md: { file: 'summary.md', render: (report: Report) => renderSummary(report) },
  har: { file: 'exchanges.har', render: (report: Report, exchanges: readonly Exchange[]) => renderHar(report, exchanges) },
} as const;

/** A report format's name. */
export type Format = keyof typeof FORMATS;

/**
 * Writes the chosen formats into `dir` (created if needed), each redacted once more by
 * value as a last line of defence.
 * @param exchanges every exchange of the run, for the HAR file.
 * @returns the paths written, in `formats` order.
 * @throws the file system error when the directory cannot be created or written.
 */
export async function writeReports(
  report: Report,
  exchanges: readonly Exchange[],
  dir: string,
  formats: readonly Format[],
  redactor: Redactor,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  return Promise.all(
    formats.map(async (format) => {
      const { file, render } = FORMATS[format];
      const path = join(dir, file);
      await writeFile(path, redactor.text(render(report, exchanges)));
      return path;
    }),
  );
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
