import type { Format } from '../config/settings.js';

/**
 * The file each report format writes, by the name `--format` takes (the formats are a
 * setting: config/settings.ts). Kept apart from their renderers (report/write.ts), which
 * the CLI loads only when a run ends.
 */
export const FORMAT_FILES: Record<Format, string> = {
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  md: 'summary.md',
  har: 'exchanges.har',
};
