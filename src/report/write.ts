import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'lossless-json';
import type { Redactor } from '../secrets/redactor.js';
import type { Exchange } from '../core/exchange.js';
import type { Format } from '../config/settings.js';
import { FORMAT_FILES } from './formats.js';
import { renderHar } from './har.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import type { Report } from './model.js';
import { renderSummary } from './summary-md.js';

/** Each format's renderer: the report (and, for HAR, every exchange) to the file's text. */
const RENDERERS: Record<Format, (report: Report, exchanges: readonly Exchange[]) => string> = {
  json: (report) => `${stringify(report, null, 2)}\n`,
  junit: renderJunit,
  html: renderHtml,
  md: renderSummary,
  har: renderHar,
};

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
      const path = join(dir, FORMAT_FILES[format]);
      await writeFile(path, renderReport(report, exchanges, format, redactor));
      return path;
    }),
  );
}

/** One report format as text, every secret the run knows redacted (what `--report-dir -` prints). */
export function renderReport(report: Report, exchanges: readonly Exchange[], format: Format, redactor: Redactor): string {
  return redactor.text(RENDERERS[format](report, exchanges));
}
