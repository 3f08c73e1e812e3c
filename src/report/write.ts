import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'lossless-json';
import type { Redactor } from '../secrets/redactor.js';
import type { Exchange } from '../core/exchange.js';
import type { Format } from '../config/settings.js';
import { FORMAT_FILES } from './formats.js';
import type { Report } from './model.js';
import { redactExchange, redactReport } from './redact.js';
import { assertOwnFolder } from './report-dir.js';

/** A format's renderer: the report (and, for HAR, every exchange) to the file's text. */
type Renderer = (report: Report, exchanges: readonly Exchange[]) => string;

/**
 * Each format's renderer, loaded when that format is written: a run that writes JSON and
 * HAR loads neither xmlbuilder2 nor the Markdown writers (about 16 MB of the process's RSS).
 */
const RENDERERS: Record<Format, () => Promise<Renderer>> = {
  json: async () => (report) => `${stringify(report, null, 2)}\n`,
  junit: async () => (await import('./junit.js')).renderJunit,
  html: async () => (await import('./html.js')).renderHtml,
  md: async () => (await import('./summary-md.js')).renderSummary,
  har: async () => (await import('./har.js')).renderHar,
};

/** What became of the report files: those written whole, and those that could not be (each with one line saying why). */
export interface WrittenReports {
  written: string[];
  failed: Array<{ path: string; reason: string }>;
}

/**
 * Writes the chosen formats into `dir` (created if needed). The values that came from the
 * target or were sent to it are redacted once (report/redact.ts), then every format
 * renders that copy with its own escaping, so every file stays valid whatever the key is.
 * Each file is written under a temporary name in `dir` and renamed into place (POSIX
 * rename(2) is atomic within a file system): a report is whole or absent, never cut short
 * by a full disk (ENOSPC) or a file size limit (EFBIG).
 * @param exchanges every exchange of the run, as received, for the HAR file.
 * @returns the paths written, in `formats` order, and those that could not be.
 */
export async function writeReports(
  report: Report,
  exchanges: readonly Exchange[],
  dir: string,
  formats: readonly Format[],
  redactor: Redactor,
): Promise<WrittenReports> {
  const paths = formats.map((format) => join(dir, FORMAT_FILES[format]));
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    return { written: [], failed: paths.map((path) => ({ path, reason: writeFailure(error) })) };
  }
  const redacted = redactForWriting(report, exchanges, formats, redactor);
  const outcomes = await Promise.allSettled(formats.map(async (format, i) => writeWhole(paths[i]!, (await RENDERERS[format]())(redacted.report, redacted.exchanges))));
  return {
    written: paths.filter((_path, i) => outcomes[i]!.status === 'fulfilled'),
    failed: outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ path: paths[i]!, reason: writeFailure(outcome.reason) }] : [])),
  };
}

/**
 * Writes `path` whole or not at all: a temporary file beside it, created new (never through
 * a link planted under its name), renamed into place; removed on failure. A rename replaces
 * a symlink at `path` rather than writing through it: a link planted in the report folder
 * never leads a report onto another file. A folder another user owns is refused.
 * @throws the file system error (ENOSPC, EACCES …), the temporary file removed; EOWNER for a
 *   folder another user owns.
 */
export async function writeWhole(path: string, text: string): Promise<void> {
  await assertOwnFolder(dirname(path));
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}

/** Node's codes for a file that cannot be written, in words. */
const WRITE_FAILURES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EFBIG: 'the file would exceed the size limit (ulimit -f)',
  EDQUOT: 'the disk quota is exceeded',
  EACCES: 'permission denied',
  EROFS: 'the file system is read-only',
  EOWNER: 'the folder belongs to another user',
};

/** One line for a file that could not be written, from Node's error code (ENOSPC, EFBIG, EACCES …). */
function writeFailure(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code && WRITE_FAILURES[code] ? `${code}: ${WRITE_FAILURES[code]}` : String(message ?? error).split('\n')[0]!;
}

/** One report format as text, every secret the run knows redacted (what `--report-dir -` prints). */
export async function renderReport(report: Report, exchanges: readonly Exchange[], format: Format, redactor: Redactor): Promise<string> {
  const redacted = redactForWriting(report, exchanges, [format], redactor);
  return (await RENDERERS[format]())(redacted.report, redacted.exchanges);
}

/** The report and (for a HAR only) the exchanges, redacted for writing. */
function redactForWriting(report: Report, exchanges: readonly Exchange[], formats: readonly Format[], redactor: Redactor) {
  return {
    report: redactReport(report, redactor),
    exchanges: formats.includes('har') ? exchanges.map((exchange) => redactExchange(exchange, redactor)) : [],
  };
}
